// @ts-check
// Rebuild every position of a match record (docs/record.md) with the browser's rules engine:
// the table, every hand face up, the boneyard, the points of each action and why, the end of
// each hand — and whatever in the record disagrees with the rules (scores, ends, the result).
//
// Pure functions (no DOM): the replay viewer draws what `rebuild` returns.

import { Game, RULES } from "./engine.js";

/**
 * @typedef {import("./engine.js").ScoreEvent} ScoreEvent
 * @typedef {import("./engine.js").HandEnd} HandEnd
 * @typedef {import("./engine.js").MatchResult} MatchResult
 * @typedef {{hand: number | null, action: number | null, message: string}} Problem
 * @typedef {(hand: number | null, action: number | null, message: string) => void} Report
 * @typedef {{index: number, step: any, table: import("./engine.js").Placed[],
 *   hands: string[][], boneyard: number, ends: Record<string, number>, count: number,
 *   score: number[], events: ScoreEvent[], turn: number | null}} Position
 * @typedef {{number: number, dealIndex: number, dealt: string[][], boneyard: string[],
 *   actions: any[], positions: Position[], opener: number,
 *   recorded: {end: any, score: number[] | null}, end: HandEnd | null, score: number[] | null,
 *   events: ScoreEvent[], handsLeft: string[][] | null, complete: boolean}} Hand
 * @typedef {{ruleset: string, options: Record<string, any>, players: any[], n: number,
 *   fairness: Record<string, any>, hands: Hand[], result: any, engineResult: MatchResult | null,
 *   problems: Problem[]}} Rebuilt
 */

/** @param {unknown} e */
const messageOf = (e) => (e instanceof Error ? e.message : String(e));

/**
 * One position: what the table looked like after `step` (null: the deal, before any action).
 * {step, index, table, hands, boneyard, ends, count, score, events, turn, opener}
 * @param {Game} game @param {number} index @param {any} step @param {ScoreEvent[]} events
 * @returns {Position}
 */
function snapshot(game, index, step, events) {
  return {
    index,
    step,
    table: game.table.map((p) => ({ ...p })),
    hands: game.hands.map((h) => [...h]),
    boneyard: game.boneyardLeft,
    ends: game.openEnds(),
    count: game.tableCount(),
    score: [...game.score],
    events,
    turn: game.currentPlayer,
  };
}

/**
 * Replay `record` from its deals and actions.
 * Returns {ruleset, options, players, n, fairness, hands: [...], result, problems: [...]}:
 * each hand holds {number, dealIndex, dealt, boneyard, actions, positions, end, score, events,
 * handsLeft, opener, recorded: {end, score}}; `end`, `score` and `events` are the engine's.
 * `problems` lists every disagreement with the rules: {hand, action, message} (0-based indices,
 * action null for the hand itself), empty for a record that replays exactly.
 * @param {any} record
 * @returns {Rebuilt}
 */
export function rebuild(record) {
  /** @type {Rebuilt} */
  const out = {
    ruleset: record.ruleset,
    options: record.options || {},
    players: record.players || [],
    n: RULES[record.ruleset]?.seats ?? (record.players || []).length,
    fairness: record.fairness || {},
    hands: [],
    result: record.result || null,
    engineResult: null,
    problems: [],
  };
  /** @type {Report} */
  const problem = (hand, action, message) => {
    out.problems.push({ hand, action, message });
  };
  if (!RULES[record.ruleset]) {
    problem(null, null, `Modalidade desconhecida: ${record.ruleset}.`);
    return out;
  }
  const game = new Game(record.ruleset, record.options || {});
  const hands = Array.isArray(record.hands) ? record.hands : [];
  for (let h = 0; h < hands.length; h++) {
    const rec = hands[h];
    if (!game.needsDeal) {
      problem(h, null, "Esta mão não deveria existir: a partida já tinha terminado.");
      break;
    }
    const order = [...(rec.dealt || []).flat(), ...(rec.boneyard || [])];
    try {
      game.deal(order);
    } catch (e) {
      problem(h, null, `Distribuição inválida: ${messageOf(e)}`);
      break;
    }
    /** @type {Hand} */
    const hand = {
      number: h + 1,
      dealIndex: rec.deal_index,
      dealt: rec.dealt,
      boneyard: rec.boneyard || [],
      actions: rec.actions || [],
      positions: [snapshot(game, 0, null, [])],
      opener: game.opener,
      recorded: { end: rec.end || null, score: rec.score || null },
      end: null,
      score: null,
      events: [],
      handsLeft: null,
      complete: false,
    };
    out.hands.push(hand);
    let broken = false;
    for (let i = 0; i < hand.actions.length; i++) {
      const a = hand.actions[i];
      if (game.currentPlayer === null) {
        problem(h, i, "Jogada depois do fim da mão.");
        broken = true;
        break;
      }
      const text = actionText(a);
      const seen = game.events.length;
      const seenHands = game.history.length;
      try {
        if (a.type === "draw" && game.boneyard[game.bonePos] !== a.tile) {
          throw new Error(
            `a compra deveria ser ${game.boneyard[game.bonePos] ?? "impossível"}, não ${a.tile}`,
          );
        }
        game.apply(text, a.seat, { auto: Boolean(a.auto) });
      } catch (e) {
        problem(h, i, `Jogada recusada pelas regras (${text}): ${messageOf(e)}`);
        broken = true;
        break;
      }
      // The events of this action: during the hand, or the hand's own list once it ended.
      const ended = game.history.length > seenHands;
      const events = ended ? game.history[seenHands].events.slice(seen) : game.events.slice(seen);
      hand.positions.push(snapshot(game, i + 1, { ...a, text }, events));
    }
    if (broken) break;
    if (rec.end && rec.end.kind === "abandon" && game.currentPlayer !== null) {
      try {
        game.abandon(rec.end.seat);
      } catch (e) {
        problem(h, null, `Abandono recusado pelas regras: ${messageOf(e)}`);
        break;
      }
    }
    if (game.history.length === h + 1) {
      const log = game.history[h];
      hand.end = log.end;
      hand.score = log.score;
      hand.events = log.events;
      hand.handsLeft = log.handsLeft;
      hand.opener = log.opener;
      hand.complete = true;
      const last = hand.positions[hand.positions.length - 1];
      last.score = [...log.score];
      compareEnd(h, hand, problem);
    } else if (rec.end || rec.score) {
      problem(h, null, "O registro diz que a mão terminou, mas pelas regras ela continua.");
    }
  }
  if (game.isOver) out.engineResult = game.result;
  compareResult(out, game, problem);
  return out;
}

/** @param {number} h @param {Hand} hand @param {Report} problem */
function compareEnd(h, hand, problem) {
  const rec = hand.recorded;
  const end = /** @type {HandEnd} */ (hand.end);
  const after = /** @type {number[]} */ (hand.score);
  if (!rec.end) {
    problem(h, null, "O registro não diz como a mão terminou.");
  } else if (rec.end.kind !== end.kind || (rec.end.seat ?? null) !== (end.seat ?? null)) {
    problem(
      h,
      null,
      `Fim da mão: o registro diz ${endText(rec.end)}, as regras dão ${endText(end)}.`,
    );
  }
  const score = rec.score || [];
  if (score[0] !== after[0] || score[1] !== after[1]) {
    problem(
      h,
      null,
      `Placar depois da mão: o registro diz ${score.join(" × ") || "nada"}, ` +
        `as regras dão ${after.join(" × ")}.`,
    );
  }
}

/** @param {Rebuilt} out @param {Game} game @param {Report} problem */
function compareResult(out, game, problem) {
  const rec = out.result;
  const res = game.result;
  if (!rec && !res) return;
  if (!rec) {
    problem(null, null, "Pelas regras a partida terminou, mas o registro não tem resultado.");
    return;
  }
  if (!res) {
    problem(null, null, "O registro tem resultado, mas pelas regras a partida não terminou.");
    return;
  }
  const same =
    rec.winner === res.winner &&
    rec.reason === res.reason &&
    (rec.score || []).join() === res.score.join();
  if (!same) {
    problem(
      null,
      null,
      `Resultado: o registro diz ${(rec.score || []).join(" × ")} (${rec.reason}), ` +
        `as regras dão ${res.score.join(" × ")} (${res.reason}).`,
    );
  }
}

/** @param {{kind: string, seat?: number | null}} end */
function endText(end) {
  /** @type {Record<string, string>} */
  const kinds = { batida: "batida", fechado: "jogo fechado", redeal: "nova distribuição", abandon: "abandono" };
  const kind = kinds[end.kind] ?? end.kind;
  return end.seat === null || end.seat === undefined ? kind : `${kind} do lugar ${end.seat + 1}`;
}

/**
 * A record action in the engine's notation: "3-5:left", "6-6", "pass", "draw", …
 * @param {{type: string, tile?: string, end?: string, choice?: string}} a
 */
export function actionText(a) {
  switch (a.type) {
    case "play":
      return a.end ? `${a.tile}:${a.end}` : String(a.tile);
    case "five-doubles":
      return `five-doubles:${a.choice}`;
    default:
      return a.type;
  }
}
