// @ts-check
// What the lobby writes about tables and matches, and the event it asks the server to create
// (js/lobby-text.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  historyLine,
  localInput,
  modeName,
  playersText,
  seatsOf,
  seatsText,
  tourneyRequest,
} from "../../src/carroca/web/js/lobby-text.js";

test("a table's seats: names, bots by their table names, empty seats", () => {
  assert.equal(playersText(["ana", "bot:medium", null, "bot:expert"]), "ana, Tião, vago, Juca");
  assert.equal(playersText(["", "bia"]), "vago, bia");
  assert.equal(playersText(["ana", "robo", "bot:medium", "bia"], [1]), "ana, robo (BOT), Dona Cida, bia");
});

test("kinds of table and seats in the players' words", () => {
  assert.equal(modeName("ranked"), "ranqueada");
  assert.equal(modeName("bots"), "só bots");
  assert.equal(modeName("exhibition"), "exhibition");
  assert.equal(seatsText({ seats: 4 }), "2 contra 2");
  assert.equal(seatsText({ seats: 2 }), "1 contra 1");
  assert.equal(seatsOf("duplas-torneio"), 4);
  assert.equal(seatsOf("bloqueio"), 2);
  assert.equal(seatsOf("xadrez"), undefined);
});

const PLAYED = {
  ruleset: "duplas-pontos",
  seat: 1,
  mode: "ranked",
  score: [120, 200],
  result: { winner: 1 },
  rating_before: 1500,
  rating_after: 1512.4,
};

test("a ranked win in pairs: the seat's team, the score and the rating's move", () => {
  const line = historyLine(PLAYED);
  assert.equal(line.won, true);
  assert.equal(line.detail, "ranqueada · 120 × 200 · ranking +12,4");
});

test("a loss in 1v1 says nothing of a rating it did not move", () => {
  const line = historyLine({
    ...PLAYED,
    ruleset: "mano-a-mano",
    mode: "casual",
    seat: 0,
    rating_before: null,
    rating_after: null,
  });
  assert.equal(line.won, false);
  assert.equal(line.detail, "casual · 120 × 200");
  assert.equal(historyLine({ ...PLAYED, rating_after: 1490 }).detail, "ranqueada · 120 × 200 · ranking −10,0");
  assert.equal(historyLine({ ...PLAYED, score: null, result: null }).won, null);
});

test("a datetime-local field's value, in local time", () => {
  assert.equal(localInput(new Date(2025, 2, 9, 8, 5)), "2025-03-09T08:05");
});

/** @type {import("../../src/carroca/web/js/lobby-text.js").TourneyForm} */
const FORM = {
  name: "  Copa da Praça ",
  format: "swiss",
  ruleset: "duplas-pontos",
  options: { target: 200 },
  capacity: "16",
  private: false,
  rounds: "4",
  bestOf: "3",
  duration: "45",
  start: "",
  bots: "",
};
const NOW = Date.UTC(2025, 0, 1, 12);

test("an event's request carries only its format's fields", () => {
  assert.deepEqual(tourneyRequest(FORM, NOW), {
    name: "Copa da Praça",
    format: "swiss",
    ruleset: "duplas-pontos",
    options: { target: 200 },
    capacity: 16,
    private: false,
    rounds: 4,
    starts_in: 0,
  });
  const knockout = tourneyRequest({ ...FORM, format: "knockout", bots: "medium" }, NOW);
  assert.equal(knockout.best_of, 3);
  assert.equal(knockout.bots, "medium");
  assert.ok(!("rounds" in knockout) && !("duration" in knockout));
  const arena = tourneyRequest({ ...FORM, format: "arena" }, NOW);
  assert.equal(arena.duration, 45 * 60);
  assert.ok(!("best_of" in arena) && !("bots" in arena));
  assert.ok(!("bot_accounts" in arena));
  assert.equal(tourneyRequest({ ...FORM, botAccounts: true }, NOW).bot_accounts, true);
});

test("empty numbers fall back: no capacity, rounds decided by the server, a 30-minute arena", () => {
  const empty = { ...FORM, capacity: "", rounds: "", duration: "" };
  assert.equal(tourneyRequest(empty, NOW).capacity, null);
  assert.equal(tourneyRequest(empty, NOW).rounds, null);
  assert.equal(tourneyRequest({ ...empty, format: "arena" }, NOW).duration, 30 * 60);
});

test("a start in the past starts now; a future start is kept", () => {
  const past = tourneyRequest({ ...FORM, start: localInput(new Date(NOW - 3600_000)) }, NOW);
  assert.equal(past.starts_at, NOW / 1000);
  assert.ok(!("starts_in" in past));
  const later = new Date(NOW + 2 * 3600_000);
  later.setSeconds(0, 0);
  const future = tourneyRequest({ ...FORM, start: localInput(later) }, NOW);
  assert.equal(future.starts_at, later.getTime() / 1000);
});
