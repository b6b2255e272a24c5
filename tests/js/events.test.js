// @ts-check
// What happened between two states of a table (events.js), run by `node --test`: the steps
// since the last state, galo, points and why, the end of a hand and of the match.
import assert from "node:assert/strict";
import { test } from "node:test";

import { diff, isGalo } from "../../src/carroca/web/js/events.js";
import { state } from "./states.js";

/** @typedef {import("../../src/carroca/web/js/frames.js").Step} Step */

/** @type {Step[]} */
const PLAY_THEN_PASSES = [
  { seat: 0, type: "play", tile: "6-6" },
  { seat: 1, type: "play", tile: "6-1", end: "left" },
  { seat: 2, type: "pass" },
  { seat: 3, type: "pass" },
  { seat: 0, type: "pass" },
];

test("no events without a view, nor on the first state", () => {
  assert.deepEqual(diff(null, state(1, {})), []);
  const waiting = state(1, {});
  waiting.view = null;
  assert.deepEqual(diff(state(0, {}), waiting), []);
});

test("the steps since the last state, one event each", () => {
  const prev = state(1, { steps: PLAY_THEN_PASSES.slice(0, 1) });
  const next = state(3, { steps: PLAY_THEN_PASSES.slice(0, 3) });
  assert.deepEqual(diff(prev, next), [
    { type: "step", step: PLAY_THEN_PASSES[1], index: 1 },
    { type: "step", step: PLAY_THEN_PASSES[2], index: 2 },
  ]);
});

test("everyone passed after a play: galo for who played, and its points", () => {
  assert.ok(isGalo(PLAY_THEN_PASSES, 4, 4));
  assert.ok(!isGalo(PLAY_THEN_PASSES, 3, 4));
  const prev = state(4, { steps: PLAY_THEN_PASSES.slice(0, 4), score: [0, 20] });
  const next = state(5, { steps: PLAY_THEN_PASSES, score: [0, 70] });
  const events = diff(prev, next);
  assert.deepEqual(events.map((e) => e.type), ["step", "galo", "score"]);
  assert.deepEqual(events[1], { type: "galo", seat: 1 });
  assert.deepEqual(events[2], { type: "score", team: 1, points: 50, reason: "galo", seat: 0, deal: 0 });
});

/**
 * Why the last event's points were scored (null: the last event scored none).
 * @param {import("../../src/carroca/web/js/events.js").Event[]} events
 */
function reasonOf(events) {
  const last = events.at(-1);
  return last && last.type === "score" ? last.reason : null;
}

test("a pass that scores: passe; the opening passed: saida-passada; a play: mesa", () => {
  const passe = diff(
    state(2, { steps: PLAY_THEN_PASSES.slice(0, 2) }),
    state(3, { steps: PLAY_THEN_PASSES.slice(0, 3), score: [0, 20] }),
  );
  assert.equal(reasonOf(passe), "passe");
  const opening = diff(state(0, {}), state(1, { steps: [{ seat: 0, type: "pass" }], score: [0, 20] }));
  assert.equal(reasonOf(opening), "saida-passada");
  const mesa = diff(
    state(1, { steps: PLAY_THEN_PASSES.slice(0, 1) }),
    state(2, { steps: PLAY_THEN_PASSES.slice(0, 2), score: [10, 0] }),
  );
  assert.deepEqual(mesa.at(-1), { type: "score", team: 0, points: 10, reason: "mesa", seat: 1, deal: 0 });
});

test("a new hand: the one that ended first, then the new hand's steps; then the match's end", () => {
  const hand = {
    deal_index: 0, end: { kind: /** @type {const} */ ("batida"), seat: 1, winner: 1, detail: "" },
    score: [0, 120], hands_left: [[], [], [], []], table: [], events: [],
  };
  const prev = state(9, { steps: PLAY_THEN_PASSES, deal_index: 0 });
  const next = state(10, { steps: PLAY_THEN_PASSES.slice(0, 1), deal_index: 1, last_hand: hand });
  const events = diff(prev, next);
  assert.deepEqual(events.map((e) => e.type), ["hand-end", "step"]);
  assert.equal(events[1].type === "step" && events[1].index, 0);
  assert.deepEqual(diff(next, next), [], "the same state again tells nothing");
  const result = { winner: 1, score: [0, 200], reason: /** @type {const} */ ("target"), pneu: true };
  const over = state(11, { steps: [], deal_index: 1, last_hand: hand, result });
  assert.deepEqual(diff(next, over).at(-1), { type: "match-end", result });
});
