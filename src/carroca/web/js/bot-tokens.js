// @ts-check
// "API de bots" on the profile tab: an account made a bot account (once, confirmed), and its
// personal tokens listed, made (shown this once: only its digest is kept) and revoked. See
// docs/bots.md.

import * as api from "./api.js";
import { fill, h, need } from "./dom.js";

const messageOf = (/** @type {unknown} */ e) => (e instanceof Error ? e.message : String(e));
const when = (/** @type {number} */ t) =>
  new Date(t * 1000).toLocaleString("pt-BR", { dateStyle: "short", timeStyle: "short" });
const error = (/** @type {string} */ text) => {
  need("#bot-error").textContent = text;
};

/** @typedef {{id: number, label: string, scopes: string[], created_at: number, used_at: number | null, revoked_at: number | null}} Token */

/** @param {Token} t */
function tokenLine(t) {
  const state = t.revoked_at
    ? `revogado em ${when(t.revoked_at)}`
    : t.used_at
      ? `usado por último em ${when(t.used_at)}`
      : "ainda não usado";
  return h(
    "li",
    { class: "session-item", "data-token": String(t.id) },
    h("span", {}, `${t.label} · ${t.scopes.join(", ")} · criado em ${when(t.created_at)} · ${state}`),
    t.revoked_at
      ? null
      : h(
          "button",
          {
            class: "btn btn-ghost btn-small",
            type: "button",
            "aria-label": `Revogar o token ${t.label}`,
            onclick: async () => {
              try {
                await api.del(`/api/me/tokens/${t.id}`);
              } catch (e) {
                error(messageOf(e));
              }
              renderTokens();
            },
          },
          "Revogar",
        ),
  );
}

async function renderTokens() {
  error("");
  let listed;
  try {
    listed = await api.get("/api/me/tokens");
  } catch (e) {
    error(messageOf(e));
    return;
  }
  const tokens = /** @type {Token[]} */ (listed.tokens);
  fill(need("#bot-tokens"), ...(tokens.length ? tokens.map(tokenLine) : [h("li", { class: "muted small" }, "Nenhum token.")]));
  const scopes = need("#bot-token-scopes");
  if (!scopes.querySelector("input")) {
    for (const [scope, what] of Object.entries(/** @type {Record<string, string>} */ (listed.scopes))) {
      scopes.append(h("label", { class: "check" }, h("input", { type: "checkbox", value: scope }), ` ${scope}: ${what}`));
    }
  }
}

/** @param {SubmitEvent} ev */
async function makeToken(ev) {
  ev.preventDefault();
  error("");
  need("#bot-token-made").textContent = "";
  const scopes = [...need("#bot-token-scopes").querySelectorAll("input:checked")].map((i) => /** @type {HTMLInputElement} */ (i).value);
  try {
    const made = await api.post("/api/me/tokens", { label: need("#bot-token-label", HTMLInputElement).value, scopes });
    fill(need("#bot-token-made"), "Seu token (copie agora, ele não aparece de novo): ", h("code", { "data-testid": "new-token" }, made.token));
  } catch (e) {
    error(messageOf(e));
  }
  renderTokens();
}

/** @param {string} kind */
function showKind(kind) {
  need("#bot-upgrade").hidden = kind !== "account";
  need("#bot-is-bot").hidden = kind !== "bot";
}

/** The section as the signed-in player sees it: accounts and bot accounts only.
 * @param {string} kind */
export function showBotApi(kind) {
  need("#bot-api").hidden = kind === "guest";
  showKind(kind);
}

/** Bind the section's forms and buttons (once). */
export function bindBotApi() {
  const sure = need("#bot-upgrade-sure", HTMLInputElement);
  const go = need("#bot-upgrade-go", HTMLButtonElement);
  sure.addEventListener("change", () => {
    go.disabled = !sure.checked;
  });
  go.addEventListener("click", async () => {
    error("");
    try {
      const r = await api.post("/api/me/bot", {});
      showKind(r.player.kind);
    } catch (e) {
      error(messageOf(e));
    }
  });
  need("#bot-token-form").addEventListener("submit", (ev) => makeToken(/** @type {SubmitEvent} */ (ev)));
  need("#bot-api").addEventListener("toggle", () => {
    if (/** @type {HTMLDetailsElement} */ (need("#bot-api")).open) renderTokens();
  });
}
