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
  verdict,
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

/**
 * A knockout of four as /api/tournaments/ID answers it: Ana beat Bia by W.O. (Bia never came),
 * Caio and Duda still play; `over` adds the final.
 * @param {{other?: string | null, final?: any, status?: string, myMatch?: string | null, me?: string}} [o]
 */
function knockout(o = {}) {
  const wo = { kind: "forfeit", winner: 0, absent: ["Bia"], score: [0, 0] };
  const semis = {
    round: 1,
    tables: [
      { table: 1, sides: ["Ana", "Bia"], winner: "Ana", games: [{ game: 1, match: "m1", sides: ["Ana", "Bia"], outcome: wo }] },
      { table: 2, sides: ["Caio", "Duda"], winner: o.other ?? null, games: [{ game: 1, match: "m2", sides: ["Caio", "Duda"], outcome: o.other ? { kind: "played", winner: 0 } : null }] },
    ],
  };
  const rounds = o.final ? [semis, { round: 2, tables: [o.final] }] : [semis];
  const names = ["Ana", "Bia", "Caio", "Duda"];
  return {
    format: "knockout",
    status: o.status ?? "running",
    total_rounds: 2,
    rounds,
    me: { entrant: o.me ?? "Ana" },
    my_match: o.myMatch ?? null,
    podium: o.status === "finished" ? [{ entrant: o.final.winner }] : null,
    standings: names.map((n, i) => ({ entrant: n, rank: i + 1 })),
    entrants: names.map((n) => ({ id: n, players: [n] })),
  };
}

test("a W.O. won says so, and what comes next in the bracket", () => {
  const v = verdict(knockout(), "m1");
  assert.equal(v?.title, "Você venceu por W.O.");
  assert.equal(v?.why, "Seu adversário não veio.");
  assert.equal(v?.next, "A final começa quando a outra semifinal terminar.");
  assert.equal(v?.kind, "won");
  assert.equal(v?.nextMatch, null);
  const ready = verdict(knockout({ other: "Caio", myMatch: "m3" }), "m1");
  assert.equal(ready?.next, "Sua próxima partida já começou.");
  assert.equal(ready?.nextMatch, "m3");
});

test("the absent one lost by W.O. and is out; nothing is said of a game not decided", () => {
  const v = verdict(knockout({ me: "Bia" }), "m1");
  assert.equal(v?.title, "Você perdeu por W.O.");
  assert.equal(v?.why, "Você não chegou à mesa a tempo.");
  assert.equal(v?.next, "Você foi eliminado na semifinal.");
  assert.equal(v?.kind, "out");
  assert.equal(verdict(knockout({ me: "Caio" }), "m2"), null);
  assert.equal(verdict(knockout({ me: "Caio" }), null), null, "no game of theirs decided yet");
  assert.equal(verdict({ ...knockout(), me: null }, "m1"), null, "a spectator");
});

test("the final decides the champion and the one eliminated in it", () => {
  const final = { table: 1, sides: ["Ana", "Caio"], winner: "Caio", games: [{ game: 1, match: "m3", sides: ["Ana", "Caio"], outcome: { kind: "played", winner: 1 } }] };
  const over = { other: "Caio", final, status: "finished" };
  assert.equal(verdict(knockout({ ...over, me: "Caio" }), "m3")?.next, "Você é o campeão do torneio!");
  assert.equal(verdict(knockout({ ...over, me: "Caio" }), "m3")?.kind, "champion");
  const lost = verdict(knockout(over), "m3");
  assert.equal(lost?.title, "Você perdeu");
  assert.equal(lost?.next, "Você foi eliminado na final. O torneio terminou.");
  assert.equal(verdict(knockout(over), null)?.next, lost?.next, "the latest game decided");
  const duda = verdict(knockout({ ...over, me: "Duda" }), "m2");
  assert.equal(duda?.next, "Você foi eliminado na semifinal. O torneio terminou.");
});
