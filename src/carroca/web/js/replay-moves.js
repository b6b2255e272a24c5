// @ts-check
// Where the replay viewer goes next: a place in a match is a hand and a position within it
// (0: the deal, k: after the k-th action). Pure functions of each hand's number of positions,
// so that the buttons, the keys and the address (?mao=N&jogada=K) all move the same way.

/** @typedef {{hand: number, pos: number}} Place */

/**
 * The nearest real place to (hand, pos): both clamped to the match (`lengths`: how many
 * positions each hand has, at least one).
 * @param {number[]} lengths @param {number} hand @param {number} pos
 * @returns {Place}
 */
export function clampPlace(lengths, hand, pos) {
  const h = Math.max(0, Math.min(lengths.length - 1, hand));
  return { hand: h, pos: Math.max(0, Math.min(lengths[h] - 1, pos)) };
}

/**
 * One action forward (delta > 0) or back from `at`: forward past a hand's last position goes to
 * the next hand's deal, back from a deal to the previous hand's last position. Null at either
 * end of the match. `animate`: the move shows the next action being played.
 * @param {number[]} lengths @param {Place} at @param {number} delta
 * @returns {(Place & {animate: boolean}) | null}
 */
export function stepFrom(lengths, at, delta) {
  const last = lengths[at.hand] - 1;
  if (delta > 0) {
    if (at.pos < last) return { hand: at.hand, pos: at.pos + 1, animate: true };
    if (at.hand < lengths.length - 1) return { hand: at.hand + 1, pos: 0, animate: false };
    return null;
  }
  if (at.pos > 0) return { hand: at.hand, pos: at.pos - 1, animate: false };
  if (at.hand > 0) return { hand: at.hand - 1, pos: lengths[at.hand - 1] - 1, animate: false };
  return null;
}

/** @param {number[]} lengths @param {Place} at */
export const atMatchEnd = (lengths, at) =>
  at.hand === lengths.length - 1 && at.pos === lengths[at.hand] - 1;

/**
 * The place an address asks for (?mao=N, 1-based, and &jogada=K): the first hand when the hand
 * is missing or not in the match; the position clamped to that hand, 0 when it is not a number.
 * @param {number[]} lengths @param {string | null} mao @param {string | null} jogada
 * @returns {Place}
 */
export function placeFromAddress(lengths, mao, jogada) {
  const wantHand = Number(mao) - 1;
  const hand = Number.isInteger(wantHand) && wantHand >= 0 && wantHand < lengths.length ? wantHand : 0;
  const wantPos = Number(jogada);
  const max = lengths[hand] - 1;
  return { hand, pos: Number.isInteger(wantPos) ? Math.max(0, Math.min(max, wantPos)) : 0 };
}
