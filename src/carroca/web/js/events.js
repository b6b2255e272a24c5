// @ts-check
// What happened between two states of a table: new steps, points and why, galo, end of a hand,
// end of the match. Pure functions over the server's state frames (no DOM), so the table page,
// the replay viewer and the tutorial can announce the same things the same way.

/** Rulesets that score passe and galo. */
export const PASS_POINTS = new Set(["duplas-pontos"]);

/** @typedef {import("./frames.js").State} State */
/** @typedef {import("./frames.js").Step} Step */

/**
 * What happened, one thing at a time (see diff()).
 * @typedef {{type: "step", step: Step, index: number}
 *   | {type: "galo", seat: number}
 *   | {type: "score", team: number, points: number, reason: string, seat: number, deal: number}
 *   | {type: "hand-end", hand: import("./frames.js").LastHand}
 *   | {type: "match-end", result: import("./frames.js").Result}} Event
 */

/**
 * Why the points of the last step were scored.
 * @param {Step[]} steps
 * @param {number} index
 * @param {number} n seats
 * @returns {string}
 */
function stepReason(steps, index, n) {
  const step = steps[index];
  if (!step) return "mesa";
  if (step.type === "play") return "mesa";
  if (step.type === "five-doubles") return "cinco-carrocas";
  if (step.type === "pass") {
    if (index === 0) return "saida-passada";
    return isGalo(steps, index, n) ? "galo" : "passe";
  }
  return "mesa";
}

/**
 * True when step `index` is the pass that brings the turn back to the one who played.
 * @param {Step[]} steps
 * @param {number} index
 * @param {number} n seats
 */
export function isGalo(steps, index, n) {
  if (index < n - 1) return false;
  for (let k = index - (n - 2); k <= index; k++) {
    if (steps[k]?.type !== "pass") return false;
  }
  const before = steps[index - (n - 1)];
  return before !== undefined && before.type === "play";
}

/**
 * Events from `prev` to `next` (two state frames of the same table; prev may be null):
 *   {type: "step", step, index}             a public action of the current hand
 *   {type: "galo", seat}                    the seat whose play made everyone pass
 *   {type: "score", team, points, reason, seat, deal}   points scored during the hand
 *   {type: "hand-end", hand}                view.last_hand of the hand that just ended
 *   {type: "match-end", result}             view.result once the match is over
 * @param {State | null} prev
 * @param {State | null} next
 * @returns {Event[]}
 */
export function diff(prev, next) {
  /** @type {Event[]} */
  const out = [];
  const nv = next && next.view;
  if (!nv) return out;
  const pv = prev && prev.view;
  const n = next.players.length;
  const passPoints = PASS_POINTS.has(next.ruleset);
  const newHandEnded =
    nv.last_hand &&
    (!pv || !pv.last_hand || pv.last_hand.deal_index !== nv.last_hand.deal_index);
  const sameHand = pv && !newHandEnded && pv.deal_index === nv.deal_index;

  if (pv && newHandEnded && nv.last_hand) out.push({ type: "hand-end", hand: nv.last_hand });

  const from = sameHand ? pv.steps.length : 0;
  if (pv) {
    for (let i = from; i < nv.steps.length; i++) {
      out.push({ type: "step", step: nv.steps[i], index: i });
      if (passPoints && nv.steps[i].type === "pass" && isGalo(nv.steps, i, n)) {
        out.push({ type: "galo", seat: nv.steps[i - (n - 1)].seat });
      }
    }
  }

  // Points scored inside this hand (the end of a hand brings its own list of events).
  if (pv && sameHand && nv.steps.length > 0) {
    const last = nv.steps.length - 1;
    const reason = stepReason(nv.steps, last, n);
    const step = nv.steps[last];
    for (let team = 0; team < nv.score.length; team++) {
      const points = nv.score[team] - pv.score[team];
      if (points > 0) {
        out.push({ type: "score", team, points, reason, seat: step.seat, deal: nv.deal_index });
      }
    }
  }

  if (nv.result && (!pv || !pv.result)) out.push({ type: "match-end", result: nv.result });
  return out;
}
