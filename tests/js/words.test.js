// @ts-check
// The words players read (js/words.js): names of tiles, teams and hand ends in pt-BR.
import assert from "node:assert/strict";
import { test } from "node:test";

import { DEFAULT_OPTIONS } from "../../src/carroca/web/js/engine.js";
import * as W from "../../src/carroca/web/js/words.js";

test("tiles, rulesets and bot levels by their pt-BR names", () => {
  assert.equal(W.tileName("3-5"), "Pedra 3 e 5");
  assert.equal(W.tileName("5-5"), "Carroça de quina (5 e 5)");
  assert.equal(W.tileName("0-0"), "Carroça de branca (0 e 0)");
  assert.equal(W.rulesetName("pontos"), "Pontos (1 contra 1)");
  assert.equal(W.rulesetShort("duplas-pontos"), "Duplas · pontos");
  assert.equal(W.rulesetName("truco"), "truco");
  assert.deepEqual(W.sortBotLevels(["expert", "novo", "random", "medium"]), ["random", "medium", "expert", "novo"]);
  assert.equal(W.botLevelName("expert-1"), "Difícil");
  assert.equal(W.botLevelOf("bot:medium"), "medium");
  assert.equal(W.botLevelOf("ana"), null);
});

test("seats, teams and the zero", () => {
  const players = [{ name: "ana" }, { bot: true }, { name: "bia" }, null];
  assert.deepEqual(W.teamLabels({ players, seat: 1 }), ["Eles", "Nós"]);
  assert.deepEqual(W.teamLabels({ players, seat: null }), ["ana e bia", "Tião e Lugar vago"]);
  assert.deepEqual(W.teamLabels({ players: [{ name: "ana" }, { bot: true }], seat: 0 }), ["ana", "Tião"]);
  assert.equal(W.teamOf(3, 4), 1);
  assert.equal(W.teamOf(1, 2), 1);
  assert.equal(W.zeroText("Nós"), "Nós ficamos no zero");
  assert.equal(W.zeroText("ana e bia"), "ana e bia ficaram no zero");
  assert.equal(W.zeroText("Zé"), "Zé ficou no zero");
  assert.equal(W.pipsOf(["3-5", "6-6"]), 20);
});

test("how a hand ended and why points were scored", () => {
  const names = ["Você", "Zé", "Tião", "Juca"];
  const title = (/** @type {any} */ end, ruleset = "duplas-pontos") => W.handEndTitle(end, names, ruleset);
  assert.equal(title({ kind: "batida", seat: 1, detail: "capicu" }), "Capicú! Zé bateu");
  assert.equal(title({ kind: "batida", seat: 0, detail: "batida-carroca" }), "Você bateu de carroça!");
  assert.equal(title({ kind: "batida", seat: 2, detail: "cruzada" }), "Batida cruzada! Tião bateu");
  assert.equal(title({ kind: "batida", seat: 3, detail: "la-e-lo" }), "Lá-e-lô! Juca bateu");
  assert.equal(title({ kind: "batida", seat: 3, detail: "" }), "Juca bateu!");
  assert.equal(title({ kind: "fechado", seat: 3 }), "Jogo fechado!");
  assert.equal(title({ kind: "fechado", seat: 3 }, "mano-a-mano"), "Trancado!");
  assert.equal(title({ kind: "redeal", seat: null }), "Embaralhando de novo");
  assert.equal(title({ kind: "abandon", seat: 1 }), "Zé abandonou a partida");
  assert.equal(title({ kind: "?", seat: null }), "Fim da mão");
  assert.equal(W.reasonName("mesa"), "pontos na mesa");
  assert.equal(W.reasonName("capicu"), "capicú");
  assert.equal(W.reasonName("la-e-lo"), "lá-e-lô");
  assert.equal(W.reasonName("mao"), "mão vencida");
  assert.equal(W.reasonName("novo"), "novo");
});

test("the time before an event starts", () => {
  const now = Date.now() / 1000;
  assert.equal(W.countdown(now - 5), "começando");
  assert.equal(W.countdown(now + 245), "em 4 min 05 s");
  assert.equal(W.countdown(now + 2 * 3600 + 600), "em 2 h 10 min");
  assert.equal(W.countdown(now + 3 * 86400 + 60), "em 3 dias");
  assert.equal(W.startsText(now - 5), "Começando", "not 'Começa começando'");
  assert.equal(W.startsText(now + 245), "Começa em 4 min 05 s");
  assert.equal(W.entrantsText(1), "1 inscrito");
  assert.equal(W.entrantsText(0), "0 inscritos");
  assert.equal(W.entrantsText(1200, (n) => n.toLocaleString("pt-BR")), "1.200 inscritos");
});

test("a ruleset's summary reads the match's own options, not the ruleset's defaults", () => {
  assert.equal(W.matchLength({ target: 20 }), "até 20 pontos");
  assert.equal(W.matchLength({ target: 1 }), "até 1 ponto");
  assert.equal(W.matchLength({ hands_to_win: 3 }), "3 mãos para vencer");
  assert.equal(W.matchLength({ hands_to_win: 1 }), "1 mão para vencer");
  assert.equal(W.matchLength({}), "");
  assert.equal(W.rulesSummary("mano-a-mano", { target: 20 }), "1 contra 1 com compra: quem bate leva os pontos da mão do outro; até 20 pontos.");
  assert.equal(W.rulesetWithLength("mano-a-mano", { target: 20 }), "Mano a Mano até 20 pontos");
  assert.equal(W.rulesetWithLength("classico", { hands_to_win: 2 }), "Clássico, 2 mãos para vencer");
  assert.equal(W.rulesetWithLength("classico", {}), "Clássico");
  // every option that changes the game is said, for every ruleset (at the engine's defaults)
  const defaults = DEFAULT_OPTIONS;
  for (const [name, options] of Object.entries(defaults)) {
    const text = W.rulesSummary(name, options);
    assert.ok(text.endsWith(`; ${W.matchLength(options)}.`), text);
    assert.ok(!/até \d+/.test(W.rulesText(name, options)), `${name}: the rules say no length of their own`);
  }
  assert.equal(W.rulesText("duplas-pontos", defaults["duplas-pontos"]), "2 contra 2 em cruz: pontos nas pontas (múltiplos de 5), passe, galo, garagem");
  assert.equal(
    W.rulesText("duplas-pontos", { pass_points: 0, galo_points: 0, always_six_six: true }),
    "2 contra 2 em cruz: pontos nas pontas (múltiplos de 5), garagem; toda mão sai com a carroça de sena",
  );
  assert.equal(W.rulesText("duplas-torneio", defaults["duplas-torneio"]), "2 contra 2 de torneio: quem bate leva os pontos das outras três mãos; trancado e capicú");
  assert.equal(
    W.rulesText("duplas-torneio", { count_partner: false, capicu_bonus: 25 }),
    "2 contra 2 de torneio: quem bate leva os pontos das mãos dos adversários; trancado; capicú vale mais 25",
  );
  assert.match(W.rulesText("pontos", { hand_end_pips: true }), /quem bate soma as pedras do outro/);
  assert.equal(W.rulesText("truco", {}), "");
});
