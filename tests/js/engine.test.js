// @ts-check
// The browser's rules engine against the Python engine's reference cases, run by `node --test`.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  Game,
  RULES,
  RulesError,
  TILES,
  bloqueioBatida,
  halves,
  isCapicu,
  isDouble,
  pips,
  pipsOf,
} from "../../src/carroca/web/js/engine.js";
import { actionText } from "../../src/carroca/web/js/record.js";
import { CASES } from "./cases.js";

test("the set holds the 28 tiles of double-six, once each, in canonical order", () => {
  assert.equal(TILES.length, 28);
  assert.equal(new Set(TILES).size, 28);
  assert.equal(TILES[0], "0-0");
  assert.equal(TILES[27], "6-6");
  for (const t of TILES) {
    const [a, b] = halves(t);
    assert.ok(a <= b, t);
  }
});

test("pips and doubles", () => {
  assert.equal(pips("3-5"), 8);
  assert.ok(isDouble("4-4"));
  assert.ok(!isDouble("4-5"));
  assert.equal(pipsOf(TILES), 168);
});

test("every match of the Python engine plays the same: legal actions, events, ends, scores", () => {
  for (const { record, expected } of CASES.matches) {
    const game = new Game(record.ruleset, record.options);
    record.hands.forEach((/** @type {any} */ hand, /** @type {number} */ h) => {
      const want = expected.hands[h];
      const where = `${record.ruleset}, hand ${h + 1}`;
      assert.ok(game.needsDeal, where);
      game.deal([...hand.dealt.flat(), ...hand.boneyard]);
      hand.actions.forEach((/** @type {any} */ a, /** @type {number} */ i) => {
        assert.deepEqual(game.legal(), want.legal[i], `${where}, action ${i + 1}`);
        game.apply(actionText(a), a.seat, { auto: Boolean(a.auto) });
      });
      if (want.end.kind === "abandon") game.abandon(want.end.seat ?? -1);
      const log = game.history[h];
      assert.deepEqual(log.end, want.end, where);
      assert.deepEqual(log.score, want.score, where);
      assert.deepEqual(log.events, want.events, where);
      assert.deepEqual(log.handsLeft, want.left, where);
    });
    assert.ok(game.isOver, record.ruleset);
    assert.deepEqual(game.result, expected.result, record.ruleset);
  }
});

test("every ruleset, five carroças (both choices) and an abandonment are among the cases", () => {
  const rulesets = new Set(CASES.matches.map((c) => c.record.ruleset));
  assert.deepEqual([...rulesets].sort(), Object.keys(RULES).sort());
  const choices = new Set(
    CASES.matches.flatMap((c) => c.record.hands[0].actions.map((/** @type {any} */ a) => a.choice)),
  );
  assert.ok(choices.has("points") && choices.has("redeal"));
  assert.ok(CASES.matches.some((c) => c.expected.result.reason === "abandon"));
});

test("an action out of turn or against the rules is refused with a pt-BR message", () => {
  const game = new Game("duplas-pontos");
  assert.throws(() => game.apply("pass"), RulesError);
  game.deal([...TILES].reverse());
  const seat = game.currentPlayer ?? -1;
  assert.throws(() => game.apply("6-6", (seat + 1) % 4), /Não é a vez do lugar/);
  assert.throws(() => game.apply("0-1:left", seat), /Jogada não permitida agora: 0-1:left/);
  assert.throws(() => new Game("truco"), /Modalidade desconhecida: truco/);
});

test("table count, capicu and the bloqueio batidas", () => {
  assert.ok(isCapicu("3-5", [5, 3]));
  assert.ok(!isCapicu("3-3", [3, 3]));
  assert.deepEqual(bloqueioBatida("4-4", [4, 4]), ["cruzada", 4]);
  assert.deepEqual(bloqueioBatida("4-4", [4, 2]), ["batida-carroca", 2]);
  assert.deepEqual(bloqueioBatida("2-4", [4, 2]), ["la-e-lo", 3]);
  assert.deepEqual(bloqueioBatida("2-4", [4, 4]), ["simples", 1]);
  const game = new Game("duplas-pontos");
  game.deal([...TILES].reverse()); // seat 0 holds 6-6 … 4-5
  game.apply("6-6");
  assert.equal(game.tableCount(), 12);
  assert.deepEqual(game.openEnds(), { left: 6, right: 6 });
  assert.equal(game.countAfter("3-6:left"), 15);
});
