// @ts-check
// What an event's page says about the event (js/torneio-text.js): its length, the names of a
// bracket's rounds, the standings' tiebreaks and what decided a tie, and the tables in play.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  decidedText,
  lengthText,
  roundName,
  signed,
  tablesInPlay,
  tiebreaks,
  tiesAhead,
} from "../../src/carroca/web/js/torneio-text.js";

test("an event's length, by its format", () => {
  assert.equal(lengthText({ format: "swiss", total_rounds: 5, rounds_planned: 4 }), "5 rodadas");
  assert.equal(lengthText({ format: "swiss", total_rounds: null, rounds_planned: 4 }), "4 rodadas");
  assert.equal(lengthText({ format: "swiss", total_rounds: 1, rounds_planned: 1 }), "1 rodada");
  assert.equal(lengthText({ format: "swiss", total_rounds: null, rounds_planned: null }), "rodadas até sobrar um só no topo");
  assert.equal(lengthText({ format: "knockout", best_of: 3 }), "melhor de 3");
  assert.equal(lengthText({ format: "knockout", best_of: 1 }), "jogo único");
  assert.equal(lengthText({ format: "arena", duration: 45 * 60 }), "45 minutos");
  assert.equal(lengthText({ format: "arena", duration: null }), "0 minutos");
});

test("a bracket's rounds are named from the final back, and drawn empty until paired", () => {
  assert.deepEqual([1, 2, 3, 4, 5].map((r) => roundName(5, r)), ["Rodada 1", "Rodada 2", "Quartas", "Semifinal", "Final"]);
  assert.deepEqual([1, 2, 3, 4, 5].map((r) => tiesAhead(5, r)), [16, 8, 4, 2, 1]);
  assert.equal(tiesAhead(2, 2), 1, "a knockout of four shows the final's box before it is paired");
  assert.equal(roundName(1, 1), "Final");
});

const ROW = { entrant: "e1", name: "Ana", rank: 1, points: 6, wins: 2, losses: 0, buchholz: 9, reached: 3, difference: 40 };

test("the standings show every tiebreak of the format, with the legend of the whole order", () => {
  const swiss = tiebreaks("swiss");
  assert.deepEqual(swiss.columns.map((c) => [c.short, c.value(ROW)]), [["Buch.", 9], ["Saldo", 40]]);
  assert.equal(swiss.legend, "Desempate: Buchholz, saldo de pontos, confronto direto, rating e sorteio.");
  const knockout = tiebreaks("knockout");
  assert.deepEqual(knockout.columns.map((c) => [c.label, c.value(ROW)]), [["Rodada alcançada", 3]]);
  assert.match(knockout.legend, /campeão.*rodada alcançada.*rating e sorteio/);
  const arena = tiebreaks("arena");
  assert.deepEqual(arena.columns.map((c) => [c.label, c.value(ROW)]), [["Saldo de pontos", 40]]);
  assert.equal(arena.legend, "Desempate: vitórias, saldo de pontos, rating e sorteio.");
  assert.deepEqual([signed(30), signed(-10), signed(0)], ["+30", "−10", "0"]);
});

test("what put a line below one level with it on every number shown", () => {
  assert.equal(decidedText("direct", "Ana"), "atrás de Ana no confronto direto");
  assert.equal(decidedText("lot", "Ana"), "atrás de Ana no sorteio");
  assert.equal(decidedText("rating", "Ana"), "atrás de Ana pelo rating");
  assert.equal(decidedText("final", "Ana"), "perdeu a final para Ana");
  assert.equal(decidedText(undefined, "Ana"), "");
});

/**
 * @param {number} table @param {string | null} winner @param {(string | null)[]} outcomes
 * @returns {import("../../src/carroca/web/js/torneio-text.js").Tie}
 */
const tie = (table, winner, outcomes) => ({
  table,
  sides: ["a", "b"],
  names: ["A", "B"],
  winner,
  games: outcomes.map((outcome, i) => ({ match: `m${table}-${i}`, outcome })),
});

test("the tables to watch: the last round's, or an arena's ties still being played", () => {
  const first = { round: 1, tables: [tie(1, "a", ["win"])], byes: [] };
  const second = { round: 2, tables: [tie(2, null, [null]), tie(3, "b", ["win"])], byes: [] };
  const swiss = tablesInPlay({ format: "swiss", rounds: [first, second] });
  assert.equal(swiss.round, second);
  assert.deepEqual(swiss.ties.map((t) => t.table), [2, 3]);
  assert.deepEqual(tablesInPlay({ format: "knockout", rounds: [] }), { round: null, ties: [] });
  const arena = tablesInPlay({ format: "arena", rounds: [first, second, { round: 3, tables: [tie(4, null, ["win"])], byes: [] }] });
  assert.equal(arena.round, null);
  assert.deepEqual(arena.ties.map((t) => t.table), [2]);
});
