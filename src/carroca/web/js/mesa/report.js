// @ts-check
// "Denunciar": a report of a player at this table, from a chat line, from the table's people
// (beside "Silenciar") or from the end of the match. One dialog: the reason, an optional
// comment; the server keeps the chat around it and the names, and the reporter follows the
// report's state in the lobby ("Minhas denúncias").

import * as api from "../api.js";
import { h, need, toast } from "../dom.js";
import { ctx } from "./state.js";

const REASONS = [
  ["chat", "Ofensa no chat"],
  ["nome", "Nome ofensivo"],
  ["abandono", "Abandono"],
  ["trapaca", "Trapaça ou conluio"],
  ["outro", "Outro"],
];

/** @type {HTMLDialogElement | null} */
let dialog = null;
/** @type {{ name: string, lineAt: number | null } | null} */
let target = null;

function build() {
  const form = h(
    "form",
    { method: "dialog", class: "report-form" },
    h("h2", { id: "report-title" }, "Denunciar"),
    h("p", { id: "report-who", class: "muted" }),
    h("label", {}, "Motivo ",
      h("select", { id: "report-reason", name: "reason" }, REASONS.map(([v, t]) => h("option", { value: v }, t)))),
    h("label", {}, "Comentário (opcional) ", h("textarea", { id: "report-comment", maxlength: "500", rows: "3" })),
    h("div", { class: "dialog-actions" },
      h("button", { class: "btn btn-primary", type: "submit", id: "report-send" }, "Enviar denúncia"),
      h("button", { class: "btn btn-secondary", type: "button", onclick: () => dialog?.close() }, "Cancelar")),
  );
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    void send();
  });
  const el = h("dialog", { class: "dialog", id: "report-dialog", "aria-labelledby": "report-title", "data-testid": "report-dialog" }, form);
  document.body.append(el);
  return el;
}

async function send() {
  if (!target) return;
  const body = /** @type {Record<string, unknown>} */ ({
    player: target.name,
    reason: need("#report-reason", HTMLSelectElement).value,
    match: ctx.matchId || null,
  });
  const comment = need("#report-comment", HTMLTextAreaElement).value.trim();
  if (comment) body.comment = comment;
  if (target.lineAt !== null) body.line_at = target.lineAt;
  try {
    await api.post("/api/reports", body);
    dialog?.close();
    toast("Denúncia recebida. Acompanhe em “Minhas denúncias”, no início.", "info", 6000);
  } catch (e) {
    toast(e instanceof Error ? e.message : String(e), "error", 6000);
  }
}

/**
 * Open the dialog for a report of `name` (a chat line's time when made from one).
 * @param {string} name
 * @param {number | null} [lineAt]
 * @param {string} [reason] the reason picked first
 */
export function openReport(name, lineAt = null, reason = "outro") {
  dialog = dialog ?? build();
  target = { name, lineAt };
  need("#report-who").textContent = lineAt !== null ? `A mensagem de ${name} e as conversas em volta vão junto.` : `Jogador: ${name}`;
  need("#report-reason", HTMLSelectElement).value = reason;
  need("#report-comment", HTMLTextAreaElement).value = "";
  dialog.showModal();
}

/**
 * A small "Denunciar" button for a person at the table.
 * @param {string} name
 * @param {number | null} [lineAt]
 * @param {string} [label]
 */
export function reportButton(name, lineAt = null, label = "Denunciar") {
  return h(
    "button",
    {
      type: "button",
      class: "btn btn-ghost btn-small report-btn",
      "aria-label": lineAt !== null ? `Denunciar a mensagem de ${name}` : `Denunciar ${name}`,
      onclick: () => openReport(name, lineAt, lineAt !== null ? "chat" : "outro"),
    },
    label,
  );
}
