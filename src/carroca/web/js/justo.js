// @ts-check
// The fairness page (justo.html?id=MATCH): the match's commitment, the revealed server seed and
// the players' seeds, and every deal recomputed in the browser (fair.js) against the record's
// dealt hands and boneyard — "Confere" or "Não confere", with the details. Without an id, or for
// any other match, a record file can be opened and checked the same way.

import * as api from "./api.js";
import { fill, h, need, param } from "./dom.js";
import { hashing, selfCheck, verifyRecord } from "./fair.js";
import { tileSVG } from "./tiles.js";
import * as W from "./words.js";

/** @typedef {import("./fair.js").Verification} Verification */

const main = need("#main");

/** @param {unknown} e */
const messageOf = (e) => (e instanceof Error ? e.message : String(e));

/** @param {boolean} ok */

function pill(ok, yes = "Confere", no = "Não confere") {
  return h("span", { class: `pill ${ok ? "pill-ok" : "pill-bad"}`, "data-ok": String(ok) }, ok ? yes : no);
}

/** @param {string} state @param {string} title @param {string} [text] */
function verdict(state, title, text = "") {
  const el = need("#verdict");
  el.dataset.state = state;
  main.dataset.status = state;
  const icon = { ok: "✓", bad: "✗", loading: "", waiting: "…", idle: "", error: "!" }[state] ?? "";
  fill(
    el,
    state === "loading" ? h("span", { class: "spinner", "aria-hidden": "true" }) : icon ? h("span", { class: "verdict-icon", "aria-hidden": "true" }, icon) : null,
    h("span", { class: "verdict-text" }, h("strong", {}, title), text ? h("span", {}, text) : null),
  );
}

/** @param {string | null | undefined} value */
function hex(value) {
  return h("code", { class: "hex" }, value || "—");
}

/** @param {(string | null)[] | null | undefined} players */
function namesOf(players) {
  return (players || []).map((name, seat) =>
    name ? W.seatName({ name, bot: Boolean(W.botLevelOf(name)) }, seat) : "Lugar vago",
  );
}

async function start() {
  const checks = await selfCheck().catch((e) => ({ ok: false, checks: [{ name: `erro: ${messageOf(e)}`, ok: false }] }));
  fill(
    need("#selfcheck"),
    ...checks.checks.map((c) => h("li", {}, pill(c.ok), " ", c.name)),
    h("li", { class: "muted small" }, hashing() === "webcrypto" ? "Cálculo com a criptografia do navegador (Web Crypto)." : "Este navegador não oferece Web Crypto aqui: o cálculo usa o SHA-256 em JavaScript desta página."),
  );
  need("#selfcheck").dataset.ok = String(checks.ok);
  if (!checks.ok) {
    verdict("error", "O teste do algoritmo falhou neste navegador", "Sem ele, esta página não pode garantir a conferência.");
    return;
  }
  bindOwn();
  const id = param("id");
  if (!id) {
    verdict("idle", "Escolha uma partida", "Abra esta página pelo fim de uma partida ou pelo replay — ou confira um registro abaixo.");
    return;
  }
  let info;
  try {
    info = await api.match(id);
  } catch (e) {
    verdict("error", e instanceof api.ApiError && e.status === 404 ? "Partida não encontrada" : "Não deu para buscar a partida", messageOf(e));
    return;
  }
  showMatch(info, id);
  if (info.status !== "finished") {
    showSeeds({ info, record: null, id });
    verdict(
      "waiting",
      "A semente ainda é segredo",
      "Ela só é revelada no fim da partida. Guarde o compromisso abaixo: no fim, esta página confere se a semente revelada é a mesma.",
    );
    return;
  }
  let record;
  try {
    record = await api.record(id);
  } catch (e) {
    verdict("error", "Não deu para buscar o registro da partida", messageOf(e));
    return;
  }
  await check(record, { info, id });
}

/** @param {any} info @param {string} id */
function showMatch(info, id) {
  need("#match-box").hidden = false;
  const names = namesOf(info.players);
  const score = info.score ? ` · placar ${info.score.join(" × ")}` : "";
  /** @type {Record<string, string>} */
  const statuses = { waiting: "esperando jogadores", playing: "em andamento", finished: "terminada" };
  const status = statuses[info.status] ?? info.status;
  fill(
    need("#match-facts"),
    h("p", {}, h("strong", {}, W.rulesetName(info.ruleset)), ` · ${status}${score}`),
    h("p", { class: "muted" }, names.join(", ")),
    h(
      "div",
      { class: "doc-links" },
      info.status === "finished"
        ? h("a", { class: "btn btn-secondary btn-small", href: `replay.html?id=${encodeURIComponent(id)}` }, "Ver o replay")
        : h("a", { class: "btn btn-secondary btn-small", href: `mesa.html?id=${encodeURIComponent(id)}` }, "Ir para a mesa"),
      info.status === "finished"
        ? h("a", { class: "btn btn-ghost btn-small", href: `/api/matches/${encodeURIComponent(id)}/record`, download: `carroca-${id}.json` }, "Baixar o registro")
        : null,
    ),
  );
}

/**
 * @param {{info: any, record: any, id: string | null, result?: Verification}} shown
 */
function showSeeds({ info, record, id, result }) {
  need("#seeds-box").hidden = false;
  const f = (record && record.fairness) || {};
  const players = (record && record.players) || (info && info.players) || [];
  const names = namesOf(players);
  /** @type {HTMLElement[]} */
  const items = [];
  const published = info ? info.commitment : null;
  if (published) {
    items.push(
      h("dt", {}, "Compromisso publicado antes da primeira mão"),
      h("dd", {}, hex(published), result && result.published ? h("span", { class: "after" }, pill(result.published.ok, "Igual ao do registro", "Diferente do registro")) : null),
    );
  }
  if (record) {
    if (!published || f.commitment !== published) {
      items.push(h("dt", {}, "Compromisso no registro"), h("dd", {}, hex(f.commitment)));
    }
    items.push(h("dt", {}, "Semente do servidor, revelada no fim"), h("dd", { "data-testid": "server-seed" }, hex(f.server_seed)));
    if (result && result.commitment) {
      items.push(
        h("dt", {}, "SHA-256 da semente, calculado agora"),
        h("dd", { "data-testid": "commitment-check" }, hex(result.commitment.found), h("span", { class: "after" }, pill(result.commitment.ok, "Confere com o compromisso", "Não confere com o compromisso"))),
      );
    }
  }
  const clientSeed = record ? f.client_seed : info ? info.client_seed : null;
  if (clientSeed) {
    /** @type {string[]} */
    const parts = clientSeed.split(":");
    items.push(
      h("dt", {}, "Sementes dos jogadores"),
      h(
        "dd",
        {},
        hex(clientSeed),
        parts.length === players.length
          ? h("ul", { class: "seed-parts" }, ...parts.map((p, seat) => h("li", {}, `${names[seat]}: `, h("code", {}, p))))
          : null,
      ),
    );
    const mine = id ? api.seedFor(id) : null;
    if (mine) {
      const ok = parts.includes(mine);
      items.push(
        h("dt", {}, "A semente do seu navegador"),
        h("dd", { "data-testid": "own-seed" }, h("code", {}, mine), h("span", { class: "after" }, pill(ok, "Está na mistura", "Não está na mistura"))),
      );
    }
  } else if (info) {
    items.push(h("dt", {}, "Sementes dos jogadores"), h("dd", { class: "muted" }, "Fixadas quando a mesa completar."));
  }
  fill(need("#seeds"), ...items);
}

/** @param {any} record @param {{info?: any, id?: string | null}} [match] */
async function check(record, { info = null, id = null } = {}) {
  verdict("loading", "Conferindo…");
  need("#seeds-box").hidden = true; // what an earlier check showed goes with it
  need("#deals-box").hidden = true;
  let result;
  try {
    result = await verifyRecord(record, { expectedCommitment: info ? info.commitment : null });
  } catch (e) {
    verdict("error", "Não deu para conferir este registro", messageOf(e));
    return;
  }
  if (result.error) {
    showSeeds({ info, record, id });
    verdict("error", "Não dá para conferir este registro", result.error);
    return;
  }
  showSeeds({ info, record, id, result });
  showDeals(record, result);
  const bad = result.deals.filter((d) => !d.ok).length;
  if (result.ok) {
    const n = result.deals.length;
    verdict("ok", "Tudo confere", `A semente revelada é a do compromisso, e ${n === 1 ? "a distribuição da única mão saiu" : `as ${n} distribuições saíram`} dela, pedra por pedra.`);
  } else {
    const reasons = [];
    if (result.commitment && !result.commitment.ok) reasons.push("a semente revelada não corresponde ao compromisso");
    if (result.published && !result.published.ok) reasons.push("o compromisso do registro não é o publicado antes da partida");
    if (bad) reasons.push(`${bad} ${bad === 1 ? "distribuição não bate" : "distribuições não batem"} com a semente`);
    if (!result.deals.length) reasons.push("o registro não tem mãos");
    verdict("bad", "Não confere", `Atenção: ${reasons.join("; ")}. Veja os detalhes abaixo.`);
  }
}

/** @param {string[]} tiles @param {Set<string>} [marks] */
function tilesRow(tiles, marks = new Set()) {
  return h(
    "span",
    { class: "deal-tiles", role: "img", "aria-label": tiles.length ? tiles.map(W.tileName).join(", ") : "nenhuma pedra" },
    ...tiles.map((t) => h("span", { class: `mini ${marks.has(t) ? "marked" : ""}` }, tileSVG(t))),
  );
}

/** @param {any} record @param {Verification} result */
function showDeals(record, result) {
  need("#deals-box").hidden = false;
  const n = (record.players || []).length;
  const names = namesOf(record.players);
  need("#deals-bones").textContent =
    n === 4 ? "" : record.ruleset === "bloqueio" ? " e com as 14 pedras que ficaram fora do jogo, na ordem" : " e com o monte, na ordem de compra";
  const items = result.deals.map((d) => {
    const rows = [];
    if (d.error) rows.push(h("p", { class: "bad-text" }, d.error));
    for (const s of d.seats) {
      rows.push(
        h(
          "div",
          { class: `deal-seat ${s.ok ? "" : "wrong"}`, dataset: { seat: s.seat, ok: s.ok } },
          h("span", { class: "deal-name" }, names[s.seat] ?? `Lugar ${s.seat + 1}`, " ", pill(s.ok)),
          tilesRow(s.expected, new Set(s.missing)),
          s.ok
            ? null
            : h(
                "p",
                { class: "bad-text" },
                `No registro: ${s.found.join(" ") || "nada"}.`,
                s.missing.length ? ` Faltam ${s.missing.join(", ")}.` : "",
                s.extra.length ? ` Sobram ${s.extra.join(", ")}, que não saíram da semente para este lugar.` : "",
              ),
        ),
      );
    }
    if (d.boneyard && n === 2) {
      const b = d.boneyard;
      rows.push(
        h(
          "div",
          { class: `deal-seat ${b.ok ? "" : "wrong"}`, dataset: { boneyard: "true", ok: b.ok } },
          h("span", { class: "deal-name" }, record.ruleset === "bloqueio" ? "Fora do jogo" : "Monte, na ordem de compra", " ", pill(b.ok)),
          tilesRow(b.expected),
          b.ok ? null : h("p", { class: "bad-text" }, `No registro: ${b.found.join(" ") || "nada"}. A primeira diferença está na posição ${b.firstDiff + 1}.`),
        ),
      );
    } else if (d.boneyard && !d.boneyard.ok) {
      rows.push(h("p", { class: "bad-text" }, `Nas duplas todas as pedras são distribuídas, mas o registro traz um monte: ${d.boneyard.found.join(" ")}.`));
    }
    return h(
      "li",
      { class: `deal ${d.ok ? "ok" : "bad"}`, dataset: { hand: d.hand, ok: d.ok }, "data-testid": "deal" },
      h(
        "details",
        { open: !d.ok },
        h(
          "summary",
          {},
          h("span", { class: "deal-title" }, `Mão ${d.hand + 1}`, h("span", { class: "muted small" }, ` · distribuição ${d.dealIndex}`)),
          pill(d.ok),
        ),
        h("div", { class: "deal-body" }, ...rows),
      ),
    );
  });
  fill(need("#deals"), ...items);
}

// ---------------------------------------------------------------------- another record

/** Nothing checked any more: an earlier verdict, its seeds and deals must not stay on screen
 * as if they were the answer about what was just given. */
/** @param {string} why */
function clearResult(why) {
  for (const box of ["#match-box", "#seeds-box", "#deals-box"]) need(box).hidden = true;
  fill(need("#seeds"));
  fill(need("#deals"));
  verdict("idle", "Nenhum registro conferido", why);
}

function bindOwn() {
  const error = need("#own-error");
  /** @param {string} message */
  const refuse = (message) => {
    error.textContent = message;
    clearResult("O registro aberto abaixo não pôde ser lido; corrija-o e confira de novo.");
  };
  /** @param {string} text */
  const run = async (text) => {
    error.textContent = "";
    let record;
    try {
      const line = text.split("\n").map((l) => l.trim()).find((l) => l);
      record = JSON.parse(line ?? "");
    } catch {
      refuse("Isto não é um registro em JSON.");
      return;
    }
    if (!record || record.format !== "carroca-record/1") {
      refuse("Isto não é um registro de partida do Carroça (carroca-record/1).");
      return;
    }
    need("#match-box").hidden = true;
    await check(record);
    need("#verdict").scrollIntoView({ block: "start" });
  };
  need("#own-file").addEventListener("change", async (/** @type {Event} */ ev) => {
    const { files } = /** @type {HTMLInputElement} */ (ev.target);
    const file = files && files[0];
    if (file) await run(await file.text());
  });
  need("#own-check").addEventListener("click", () => run(need("#own-text", HTMLTextAreaElement).value));
}

start();
