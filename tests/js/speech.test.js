// @ts-check
// What the table says (speech.js), run by `node --test`: one sentence per action, the lines of
// the events between two states (the batida said before the hand's end), what each verbosity
// keeps, the others' "mais tempo", and the review of the table.
import assert from "node:assert/strict";
import { test } from "node:test";

import { diff } from "../../src/carroca/web/js/events.js";
import { endsText, eventLines, isSaid, moreTimeLines, reviewText, stepSentence, tableText, turnText } from "../../src/carroca/web/js/speech.js";
import { state as tableState } from "./states.js";

/** @typedef {import("../../src/carroca/web/js/frames.js").State} State */
/** @typedef {import("../../src/carroca/web/js/frames.js").View} View */

const NAMES = ["Você", "Tião", "Dona Cida", "Juca"];

/**
 * A state at `version`, every hand of seven tiles but for the view's fields given.
 * @param {number} version @param {Partial<View>} view
 */
const state = (version, view) => tableState(version, { hand_sizes: [7, 7, 7, 7], ...view });

test("each action in the seeds' words", () => {
  assert.equal(stepSentence({ seat: 3, type: "play", tile: "5-5", end: "up" }, "Juca"), "Juca jogou a carroça de quina na ponta de cima");
  assert.equal(stepSentence({ seat: 1, type: "play", tile: "4-6", end: "left" }, "Tião"), "Tião jogou a pedra 4 e 6 na ponta da esquerda");
  assert.equal(stepSentence({ seat: 0, type: "play", tile: "6-6" }, "Você"), "Você saiu com a carroça de sena");
  assert.equal(stepSentence({ seat: 2, type: "pass" }, "Dona Cida", { opening: true }), "Dona Cida passou a saída (não tem carroça)");
  assert.equal(stepSentence({ seat: 1, type: "draw" }, "Tião", { count: 3 }), "Tião comprou 3 pedras do monte");
  assert.equal(stepSentence({ seat: 0, type: "draw", tile: "2-3" }, "Você"), "Você comprou a pedra 2 e 3 do monte");
});

test("the events of two states said in order, the batida before the hand's end", () => {
  const before = state(3, {
    table: [{ seat: 0, tile: "6-6" }, { seat: 1, tile: "6-1", end: "left" }],
    steps: [{ seat: 0, type: "play", tile: "6-6" }, { seat: 1, type: "play", tile: "6-1", end: "left" }],
    score: [0, 0],
  });
  const passed = state(4, { ...before.view, steps: [...(before.view?.steps ?? []), { seat: 2, type: "pass" }], score: [0, 20] });
  const st = passed;
  const lines = eventLines(diff(before, passed), { st, names: NAMES, prevTable: before.view?.table ?? [], prevDeal: 0 });
  assert.deepEqual(lines.map((l) => l.text), ["Dona Cida passou: passe, 20 pontos para Eles."]);

  const hand = {
    deal_index: 0, score: [20, 20], hands_left: [[], ["1-2"], [], []], events: [{ index: -1, team: 0, points: 20, reason: "batida" }],
    end: { kind: /** @type {const} */ ("batida"), seat: 0, winner: 0, detail: "" },
    table: [...(before.view?.table ?? []), { seat: 0, tile: "1-5", end: /** @type {const} */ ("left") }],
  };
  const next = state(6, { deal_index: 1, hand_number: 2, last_hand: hand, score: [20, 20] });
  const said = eventLines(diff(passed, next), { st: next, names: NAMES, prevTable: passed.view?.table ?? [], prevDeal: 0 });
  assert.deepEqual(said.map((l) => l.kind), ["play", "end"]);
  assert.equal(said[0].text, "Você jogou a pedra 1 e 5 na ponta da esquerda.");
  assert.match(said[1].text, /^Você bateu! Com a pedra 1 e 5\. Pontos da mão: Nós mais 20 \(batida 20\); Eles nada\. Placar: Nós 20, Eles 20\.$/);
});

test("how much each verbosity says", () => {
  const other = { kind: /** @type {const} */ ("play"), seat: 1, text: "" };
  const mine = { kind: /** @type {const} */ ("play"), seat: 0, text: "" };
  const points = { kind: /** @type {const} */ ("points"), text: "" };
  const end = { kind: /** @type {const} */ ("end"), text: "" };
  assert.deepEqual([other, mine, points, end].map((l) => isSaid(l, "tudo", 0)), [true, true, true, true]);
  assert.deepEqual([other, mine, points, end].map((l) => isSaid(l, "outros", 0)), [true, false, false, true]);
  assert.deepEqual([other, mine, points, end].map((l) => isSaid(l, "vez", 0)), [false, true, false, true]);
});

test("the review: the ends and what they count, the tiles in order, the hands and the score", () => {
  const st = state(9, {
    table: [{ seat: 0, tile: "6-6" }, { seat: 1, tile: "6-4", end: "left" }, { seat: 2, tile: "6-6", end: "right" }],
    ends: { left: 4, right: 6, up: 6, down: 6 }, table_count: 16, hand_sizes: [6, 6, 5, 7], score: [30, 15], turn: 3,
  });
  const v = /** @type {View} */ (st.view);
  assert.equal(endsText(v, "duplas-pontos"), "Pontas: esquerda 4, direita carroça de 6 (conta 12). Soma 16.");
  assert.equal(tableText(v.table), "Na mesa, 3 pedras. No meio, a carroça de sena; na ponta da esquerda: 6 e 4; na ponta da direita: 6 e 6.");
  const text = reviewText(st, NAMES, ["Juca passou"]);
  assert.match(text, /Últimas jogadas: Juca passou\. Pedras na mão: Você 6, Tião 6, Dona Cida 5, Juca 7\. Vez de Juca\. Placar: Nós 30, Eles 15\.$/);
  const turn = state(10, { table: v.table, ends: v.ends, table_count: 16, legal: ["4-5:left", "6-2:right", "6-2:up"] });
  assert.equal(turnText(turn, "tudo", null), "Sua vez: 2 pedras encaixam.");
  assert.match(turnText(turn, "vez", "Juca passou."), /^Juca passou\. Sua vez: 2 pedras encaixam\. Pontas: /);
});

test("another player's more time is said when it comes and when it goes, never one's own", () => {
  assert.deepEqual(moreTimeLines([], [3], NAMES, 0), [
    { kind: "time", seat: 3, text: "Juca tem mais tempo: o dobro do tempo da mesa em cada vez." },
  ]);
  assert.deepEqual(moreTimeLines([3], [], NAMES, 0), [{ kind: "time", seat: 3, text: "Juca voltou ao tempo da mesa." }]);
  assert.deepEqual(moreTimeLines([], [0], NAMES, 0), []);
  assert.deepEqual(moreTimeLines([1], [1], NAMES, 0), []);
  assert.ok(isSaid(moreTimeLines([], [2], NAMES, 0)[0], "vez", 0)); // said at every verbosity
});
