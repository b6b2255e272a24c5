// @ts-check
// An event's page kept up to date by its channel (js/torneio-live.js): a change applied to the
// page it follows, the watcher's own part worked out again, and which changes fit.
import assert from "node:assert/strict";
import { test } from "node:test";

import { applyChange, changeFits, ownPart } from "../../src/carroca/web/js/torneio-live.js";

/** @param {string} entrant @param {number} rank @param {number} points */
const line = (entrant, rank, points) => ({ entrant, rank, points });
/** @param {number} table @param {string[]} players @param {any} outcome @param {string} match */
const tie = (table, players, outcome, match) => ({
  table,
  sides: players,
  names: players,
  winner: outcome ? players[outcome.winner] : null,
  games: [{ game: 1, match, sides: players, players, outcome }],
});

function running() {
  return {
    status: "running",
    standings: [line("ana", 1, 0), line("bia", 2, 0), line("caio", 3, 0), line("davi", 4, 0)],
    rounds: [{ round: 1, byes: [], tables: [tie(1, ["ana", "bia"], null, "m1"), tie(2, ["caio", "davi"], null, "m2")] }],
    entrants: ["ana", "bia", "caio", "davi"].map((n) => ({ id: n, name: n, players: [n] })),
    /** @type {{id: string, name: string, waiting_partner?: boolean}[]} */
    registrations: [],
    /** @type {{entrant: string, name: string, partner_invite?: string | null} | null} */
    me: { entrant: "bia", name: "bia" },
    my_match: "m1",
  };
}

test("a result: its table replaced, the standings' lines that moved, my game over", () => {
  const before = running();
  const after = applyChange(
    before,
    {
      version: 8,
      set: {},
      standings: [line("bia", 1, 1), line("ana", 2, 0)],
      rounds: [{ round: 1, byes: [], tables: [tie(1, ["ana", "bia"], { winner: 1 }, "m1")] }],
    },
    "bia",
  );
  assert.deepEqual(after.standings.map((s) => s.entrant), ["bia", "ana", "caio", "davi"]);
  assert.equal(after.rounds[0].tables[0].winner, "bia");
  assert.equal(after.rounds[0].tables[1].games[0].match, "m2"); // untouched
  assert.equal(after.my_match, null);
  assert.equal(before.rounds[0].tables[0].winner, null, "the page applied to is not changed");
});

test("a new round comes whole, and the fields it sets", () => {
  const after = applyChange(
    running(),
    {
      version: 9,
      set: { status: "running", total_rounds: 2 },
      standings: [],
      rounds: [{ round: 2, byes: [], tables: [tie(1, ["bia", "caio"], null, "m3")] }],
    },
    "bia",
  );
  assert.equal(after.rounds.length, 2);
  assert.equal(/** @type {any} */ (after).total_rounds, 2);
  assert.equal(after.my_match, "m3");
});

test("my own part: the dupla formed at the start, a partner's invitation once they came", () => {
  const page = { ...running(), entrants: [{ id: "ana+bia", name: "Ana e Bia", players: ["ana", "bia"] }] };
  assert.deepEqual(ownPart(page, { entrant: "bia", name: "bia" }, "bia").me, { entrant: "ana+bia", name: "Ana e Bia" });
  const waiting = { ...running(), entrants: [], registrations: [{ id: "bia", name: "bia", waiting_partner: true }] };
  const me = { entrant: "bia", name: "bia", partner_invite: "xyz" };
  assert.equal(ownPart(waiting, me, "bia").me?.partner_invite, "xyz");
  const came = { ...waiting, registrations: [{ id: "bia", name: "bia e caio", waiting_partner: false }] };
  assert.equal(ownPart(came, me, "bia").me?.partner_invite, undefined);
  assert.equal(ownPart(running(), null, "bia").me, null);
});

test("which changes fit the page's version", () => {
  assert.equal(changeFits(7, 8), "apply");
  assert.equal(changeFits(7, 7), "skip");
  assert.equal(changeFits(7, 5), "skip");
  assert.equal(changeFits(7, 9), "resync");
  assert.equal(changeFits(null, 1), "resync");
});
