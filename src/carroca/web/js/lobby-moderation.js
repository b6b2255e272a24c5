// @ts-check
// Moderation in the lobby: the sanctions in force on the player (what happened, until when,
// why), and the player's own reports with their state ("recebida", "analisada").

import * as api from "./api.js";
import { fill, h, need } from "./dom.js";

/**
 * @typedef {object} Sanction a sanction in force, as /api/me tells it
 * @property {number} id
 * @property {string} kind
 * @property {string} text what happened, until when and why, in pt-BR
 */

/** @param {Sanction[] | undefined} sanctions */
export function showSanctions(sanctions) {
  const host = need("#sanctions");
  const list = sanctions || [];
  host.hidden = list.length === 0;
  fill(host, list.map((s) => h("p", { class: "notice notice-error", dataset: { kind: s.kind } }, s.text)));
}

/** The player's reports, newest first, in the profile panel. */
export async function showMyReports() {
  const host = need("#my-reports");
  let reports = [];
  try {
    reports = (await api.get("/api/reports")).reports;
  } catch {
    return;
  }
  if (!reports.length) {
    fill(host);
    return;
  }
  fill(
    host,
    h("h3", { class: "sub" }, "Minhas denúncias"),
    h("ul", { class: "my-reports" },
      reports.map((/** @type {any} */ r) =>
        h("li", { dataset: { report: String(r.id), status: r.status } },
          `${r.reported} · ${r.reason_text} · `,
          h("strong", { class: r.status === "analisada" ? "pill pill-ok" : "pill" }, r.status)))),
  );
}
