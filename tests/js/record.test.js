// @ts-check
// Records of the Python engine rebuilt by js/record.js: no problem found, the same hands, ends,
// scores and result; a record that lies about its score is caught.
import assert from "node:assert/strict";
import { test } from "node:test";

import { actionText, rebuild } from "../../src/carroca/web/js/record.js";
import { CASES } from "./cases.js";

test("every reference record replays without a problem, like the Python engine", () => {
  for (const { record, expected } of CASES.matches) {
    const r = rebuild(record);
    assert.deepEqual(r.problems, [], record.ruleset);
    assert.equal(r.hands.length, expected.hands.length, record.ruleset);
    r.hands.forEach((hand, h) => {
      const want = expected.hands[h];
      assert.deepEqual(hand.end, want.end, `${record.ruleset}, hand ${h + 1}`);
      assert.deepEqual(hand.score, want.score);
      assert.deepEqual(hand.events, want.events);
      assert.deepEqual(hand.handsLeft, want.left);
      assert.equal(hand.positions.length, record.hands[h].actions.length + 1);
    });
    assert.deepEqual(r.engineResult, expected.result, record.ruleset);
  }
});

test("a record whose score or result disagrees with the rules is reported in pt-BR", () => {
  const { record } = CASES.matches[0];
  const forged = structuredClone(record);
  forged.hands[0].score = [forged.hands[0].score[0] + 5, forged.hands[0].score[1]];
  forged.result.reason = "abandon";
  const messages = rebuild(forged).problems.map((p) => p.message);
  assert.ok(messages.some((m) => m.startsWith("Placar depois da mão: o registro diz")), messages.join());
  assert.ok(messages.some((m) => m.startsWith("Resultado: o registro diz")), messages.join());
  const unknown = rebuild({ ...record, ruleset: "truco" });
  assert.deepEqual(unknown.problems, [{ hand: null, action: null, message: "Modalidade desconhecida: truco." }]);
});

test("a drawn tile other than the boneyard's next one is refused", () => {
  const found = CASES.matches.find((c) =>
    c.record.hands.some((/** @type {any} */ h) => h.actions.some((/** @type {any} */ a) => a.type === "draw")),
  );
  assert.ok(found);
  const forged = structuredClone(found.record);
  const h = forged.hands.findIndex((/** @type {any} */ hand) => hand.actions.some((/** @type {any} */ a) => a.type === "draw"));
  const i = forged.hands[h].actions.findIndex((/** @type {any} */ a) => a.type === "draw");
  forged.hands[h].actions[i].tile = forged.hands[h].dealt[0][0];
  const [first] = rebuild(forged).problems;
  assert.equal(first.hand, h);
  assert.equal(first.action, i);
  assert.match(first.message, /^Jogada recusada pelas regras \(draw\): a compra deveria ser /);
});

test("actions in the engine's notation", () => {
  assert.equal(actionText({ type: "play", tile: "3-5", end: "left" }), "3-5:left");
  assert.equal(actionText({ type: "play", tile: "6-6" }), "6-6");
  assert.equal(actionText({ type: "five-doubles", choice: "redeal" }), "five-doubles:redeal");
  assert.equal(actionText({ type: "pass" }), "pass");
});
