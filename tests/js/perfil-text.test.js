// @ts-check
// What a profile writes and draws (js/perfil-text.js) and what a challenge sends
// (js/challenge-text.js).
import assert from "node:assert/strict";
import { test } from "node:test";

import { challengeSeats, namesText, sidesText } from "../../src/carroca/web/js/challenge-text.js";
import { graphGeometry, graphText, profileNamed, recentLine, statsRow } from "../../src/carroca/web/js/perfil-text.js";

const BOX = { width: 320, height: 132, left: 40, right: 10, top: 12, bottom: 24 };
const DAY = 86400;

test("the graph: time left to right, the highest rating on the top line, the lowest on the bottom", () => {
  const points = [
    { at: 100 * DAY, rating: 2, ruleset: "mano-a-mano", match: "a" },
    { at: 101 * DAY, rating: 6, ruleset: "mano-a-mano", match: "b" },
    { at: 103 * DAY, rating: 4, ruleset: "classico", match: "c" },
  ];
  const g = graphGeometry(points, BOX);
  assert.deepEqual(g.dots.map((d) => [d.x, d.y]), [
    [40, 108],
    [130, 12],
    [310, 60],
  ]);
  assert.equal(g.path, "M40.0 108.0 L130.0 12.0 L310.0 60.0");
  assert.deepEqual([g.low, g.high], [2, 6]);
  assert.match(graphText("1 contra 1", points), /^1 contra 1: de 2,0 a 4,0 em 3 partidas ranqueadas, de /);
});

test("one point, or ratings all alike: still inside the box, in the middle", () => {
  const [only] = graphGeometry([{ at: 5, rating: 3, ruleset: "bloqueio", match: "a" }], BOX).dots;
  assert.deepEqual([only.x, only.y], [175, 60]);
  const same = graphGeometry([{ at: 5, rating: 3, ruleset: "bloqueio", match: "a" }, { at: 5, rating: 3, ruleset: "bloqueio", match: "b" }], BOX);
  assert.deepEqual(same.dots.map((d) => d.x), [40, 310]);
});

test("figures a ruleset does not have show as a dash", () => {
  const row = (/** @type {string} */ ruleset) => statsRow({ ruleset, matches: 1200, wins: 3, batidas: 4, galos: 5, capicus: 6 });
  assert.deepEqual(row("duplas-pontos"), ["Duplas de pontos", "1.200", "3", "4", "5", "–"]);
  assert.deepEqual(row("duplas-torneio"), ["Duplas de torneio", "1.200", "3", "4", "–", "6"]);
  assert.deepEqual(row("bloqueio").slice(4), ["–", "–"]);
});

test("a match in a line, from the profile's seat: the partner, then the others", () => {
  const line = recentLine({ id: "x", mode: "casual", ruleset: "duplas-pontos", finished_at: null, seat: 1, won: true, score: [120, 200], players: ["ana", "bia", "bot:medium", "caio"] });
  assert.deepEqual(line, { title: "Vitória · Duplas de pontos", detail: "com caio contra ana e Dona Cida · 120 × 200" });
  const lost = recentLine({ id: "y", mode: "ranked", ruleset: "bloqueio", finished_at: null, seat: 0, won: false, score: null, players: ["ana", "bia"] });
  assert.deepEqual(lost, { title: "Derrota · Bloqueio", detail: "contra bia" });
  assert.equal(profileNamed("Zé da Praça"), "perfil.html?nome=Z%C3%A9%20da%20Pra%C3%A7a");
});

test("a challenge's seats: at least one friend, each in one seat; the sides in words", () => {
  assert.deepEqual(challengeSeats(["player:3", "player:2", "bot:medium"]), { seats: ["me", "player:3", "player:2", "bot:medium"], error: null });
  assert.equal(challengeSeats(["bot:medium", "bot:greedy", "bot:medium"]).seats, null);
  assert.match(String(challengeSeats(["player:3", "player:3", "bot:medium"]).error), /um lugar só/);
  assert.equal(sidesText(["Ana", "Bia", "Caio", "Davi"]), "Ana e Caio contra Bia e Davi");
  assert.equal(sidesText(["Ana", "Bia"]), "Ana contra Bia");
  // A bot by its table name, never its level's code.
  assert.equal(sidesText(["Ana", "bot:medium", "Caio", "bot:greedy"]), "Ana e Caio contra Tião e Juca");
  assert.equal(namesText(["Bia"]), "Bia");
  assert.equal(namesText(["Bia", "Caio"]), "Bia e Caio");
  assert.equal(namesText(["Ana", "Bia", "Caio"]), "Ana, Bia e Caio");
});
