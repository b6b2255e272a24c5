// @ts-check
// The moderation page (moderacao.html, served to moderators only): the queue of open reports
// grouped by reported player, one report with its context (the chat as written, the names at
// the time, a replay link, the player's history, their fair-play signal and sanctions) and the
// actions, each with a reason; sanctions in force can be lifted; the audit log below.

import * as api from "./api.js";
import { fill, h, need } from "./dom.js";

const REASONS = /** @type {Record<string, string>} */ ({
  chat: "ofensa no chat", nome: "nome ofensivo", abandono: "abandono", trapaca: "trapaça ou conluio", outro: "outro",
});
const ACTIONS = /** @type {Record<string, string>} */ ({
  dismiss: "arquivou", warn: "advertiu", mute: "suspendeu o chat de", ranked_ban: "suspendeu das ranqueadas",
  rename: "trocou o apelido de", close: "encerrou a conta de", lift: "encerrou uma sanção de",
  auto_mute: "suspendeu o chat (filtro) de", queue_ban: "suspendeu da fila (abandono)",
});
const KINDS = /** @type {Record<string, string>} */ ({
  warn: "Advertência", chat_mute: "Chat suspenso", ranked_ban: "Sem ranqueadas", queue_ban: "Sem fila (abandono)",
  rename: "Apelido trocado", close: "Conta encerrada",
});

/** @type {number | null} */
let current = null;

/** @param {number | null | undefined} at */
const when = (at) => (at ? new Date(at * 1000).toLocaleString("pt-BR", { dateStyle: "short", timeStyle: "short" }) : "—");

/** @param {unknown} e */
function showError(e) {
  const el = need("#mod-error");
  el.textContent = e instanceof Error ? e.message : String(e);
  el.hidden = false;
}

async function loadQueue() {
  const { queue } = await api.get("/api/moderation/queue");
  fill(
    need("#queue"),
    queue.length === 0
      ? h("li", { class: "muted" }, "Nenhuma denúncia aberta.")
      : queue.map((/** @type {any} */ g) =>
          h("li", { class: "mod-group", dataset: { player: g.player.name } },
            h("strong", {}, g.player.name), " · ",
            Object.entries(g.reasons).map(([r, n]) => `${REASONS[r] || r} (${n})`).join(", "),
            h("span", { class: "muted" }, ` · desde ${when(g.oldest_at)} `),
            g.reports.map((/** @type {number} */ id) =>
              h("button", { class: "btn btn-secondary btn-small", type: "button", dataset: { report: String(id) }, onclick: () => openReport(id) }, `Ver denúncia ${id}`)),
          )),
  );
}

/** @param {any} s */
function sanctionItem(s) {
  const active = !s.lifted_at && (!s.until || s.until > Date.now() / 1000);
  return h("li", { dataset: { sanction: String(s.id), active: String(active) } },
    `${KINDS[s.kind] || s.kind}: ${s.reason} (${when(s.created_at)}${s.until ? ` até ${when(s.until)}` : ""})`,
    s.lifted_at ? h("span", { class: "muted" }, ` · encerrada em ${when(s.lifted_at)}`) : null,
    active ? h("button", { class: "btn btn-ghost btn-small", type: "button", onclick: () => lift(s.id) }, "Encerrar sanção") : null);
}

/** @param {number} id */
async function openReport(id) {
  current = id;
  const r = await api.get(`/api/moderation/reports/${id}`);
  const ctx = r.context || {};
  const hist = r.history;
  fill(
    need("#report"),
    h("dl", { class: "facts" },
      h("dt", {}, "Denunciado"), h("dd", { dataset: { testid: "reported" } }, `${r.reported}${ctx.reported_name && ctx.reported_name !== r.reported ? ` (na época: ${ctx.reported_name})` : ""}`),
      h("dt", {}, "Por"), h("dd", {}, r.reporter),
      h("dt", {}, "Motivo"), h("dd", {}, r.reason_text + (r.count > 1 ? ` (${r.count} vezes)` : "")),
      h("dt", {}, "Comentário"), h("dd", {}, r.comment || "—"),
      h("dt", {}, "Estado"), h("dd", {}, r.status),
      h("dt", {}, "Partida"), h("dd", {}, r.replay ? h("a", { href: r.replay, dataset: { testid: "replay-link" } }, "Ver o replay") : "—")),
    ctx.names ? h("p", {}, "Na mesa: ", ctx.names.map((/** @type {any} */ n) => n.name || "vago").join(", ")) : null,
    h("h3", {}, "Chat da partida"),
    h("ol", { class: "mod-chat", dataset: { testid: "transcript" } },
      (ctx.chat || []).length === 0 ? h("li", { class: "muted" }, "Sem mensagens.") : null,
      (ctx.chat || []).map((/** @type {any} */ c) =>
        h("li", { class: c.at === ctx.line_at ? "mod-line-reported" : "" }, h("strong", {}, c.name), `: ${c.text}`))),
    h("h3", {}, "Histórico do jogador"),
    h("p", {},
      `Denúncias recebidas: ${Object.entries(hist.reports_received).map(([k, n]) => `${REASONS[k] || k} ${n}`).join(", ") || "nenhuma"}. `,
      `Partidas: ${hist.matches}; abandonos: ${hist.abandons} (${Math.round(hist.abandon_rate * 100)}%). `,
      `Contas no mesmo endereço ou aparelho: ${hist.linked_accounts.join(", ") || "nenhuma"}.`),
    h("ul", { class: "mod-fairplay", dataset: { testid: "fair-play" } },
      hist.fair_play.length === 0
        ? h("li", { class: "muted" }, "Concordância com o especialista: nenhuma ranqueada revisada ainda.")
        : hist.fair_play.map((/** @type {any} */ f) =>
            h("li", { class: f.flagged ? "mod-flag" : "", dataset: { ruleset: f.ruleset, verdict: f.verdict } }, f.text))),
    hist.fair_play.some((/** @type {any} */ f) => f.flagged)
      ? h("p", { class: "muted" }, "Um sinal para analisar (o replay e a revisão das partidas), nunca uma prova: ninguém é punido por ele sem a decisão de um moderador.")
      : null,
    h("ul", { class: "mod-sanctions", dataset: { testid: "sanctions" } },
      hist.sanctions.length === 0 ? h("li", { class: "muted" }, "Nenhuma sanção.") : hist.sanctions.map(sanctionItem)),
    hist.rating_changes.length
      ? h("p", { class: "muted" }, "Rating: ", hist.rating_changes.slice(0, 10).map((/** @type {any} */ c) =>
          `${(c.rating_after - c.rating_before).toFixed(1)}`).join(" · "))
      : null,
  );
  need("#report-box").hidden = false;
  need("#report-title").textContent = `Denúncia ${id}`;
}

/** @param {number} id */
async function lift(id) {
  const reason = need("#reason", HTMLInputElement).value.trim();
  if (!reason) {
    showError("Escreva no campo Motivo por que a sanção termina.");
    return;
  }
  try {
    await api.post(`/api/moderation/sanctions/${id}/lift`, { reason });
    need("#reason", HTMLInputElement).value = "";
    await refresh();
  } catch (e) {
    showError(e);
  }
}

async function loadLog() {
  const { log } = await api.get("/api/moderation/log");
  fill(need("#log"),
    log.length === 0 ? h("li", { class: "muted" }, "Nada registrado ainda.") : null,
    log.map((/** @type {any} */ x) =>
      h("li", { dataset: { action: x.action } },
        `${when(x.at)} · ${x.actor || "sistema"} ${ACTIONS[x.action] || x.action} ${x.target || ""}: ${x.reason}`)));
}

async function refresh() {
  need("#mod-error").hidden = true;
  await Promise.all([loadQueue(), loadLog(), current !== null ? openReport(current) : null]);
}

function bindForm() {
  const form = need("#action-form", HTMLFormElement);
  const action = need("#action", HTMLSelectElement);
  const days = need("#days-label");
  const timed = () => { days.hidden = !["mute", "ranked_ban"].includes(action.value); };
  action.addEventListener("change", timed);
  timed();
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (current === null) return;
    const body = /** @type {Record<string, unknown>} */ ({ action: action.value, reason: need("#reason", HTMLInputElement).value });
    if (!days.hidden) body.days = Number(need("#days", HTMLInputElement).value);
    try {
      await api.post(`/api/moderation/reports/${current}/action`, body);
      need("#reason", HTMLInputElement).value = "";
      await refresh();
    } catch (e) {
      showError(e);
    }
  });
}

bindForm();
refresh().catch(showError);
