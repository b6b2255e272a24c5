// @ts-check
// "Seus dados e sua conta" on the profile tab (LGPD): the data download, a new password, the
// open sessions (another device's ended from here) and the account's deletion, confirmed by
// typing EXCLUIR (and the password, for an account). See privacidade.html.

import * as api from "./api.js";
import { fill, h, need } from "./dom.js";

const messageOf = (/** @type {unknown} */ e) => (e instanceof Error ? e.message : String(e));
const control = (/** @type {string} */ sel) => need(sel, HTMLInputElement);
const when = (/** @type {number} */ t) =>
  new Date(t * 1000).toLocaleString("pt-BR", { dateStyle: "short", timeStyle: "short" });

async function renderSessions() {
  const host = need("#sessions");
  need("#sessions-error").textContent = "";
  let sessions;
  try {
    sessions = (await api.get("/api/me/sessions")).sessions;
  } catch (e) {
    need("#sessions-error").textContent = messageOf(e);
    return;
  }
  fill(
    host,
    ...sessions.map((/** @type {any} */ s) =>
      h(
        "li",
        { class: "session-item", "data-session": s.id },
        h("span", {}, s.current ? `Este aparelho · desde ${when(s.created_at)}` : `Desde ${when(s.created_at)}`),
        s.current
          ? null
          : h(
              "button",
              {
                class: "btn btn-ghost btn-small",
                type: "button",
                onclick: async () => {
                  try {
                    await api.del(`/api/me/sessions/${encodeURIComponent(s.id)}`);
                  } catch (e) {
                    need("#sessions-error").textContent = messageOf(e);
                  }
                  renderSessions();
                },
              },
              "Encerrar",
            ),
      ),
    ),
  );
}

/** @param {SubmitEvent} ev */
async function changePassword(ev) {
  ev.preventDefault();
  need("#password-error").textContent = need("#password-done").textContent = "";
  try {
    const r = await api.post("/api/me/password", { current: control("#password-current").value, new: control("#password-new").value });
    control("#password-current").value = control("#password-new").value = "";
    need("#password-done").textContent =
      r.sessions_ended > 0 ? `Senha trocada. ${r.sessions_ended} outra(s) sessão(ões) encerrada(s).` : "Senha trocada.";
    renderSessions();
  } catch (e) {
    need("#password-error").textContent = messageOf(e);
  }
}

/** @param {SubmitEvent} ev */
async function deleteAccount(ev) {
  ev.preventDefault();
  need("#delete-error").textContent = "";
  const yes = need("#delete-yes", HTMLButtonElement);
  yes.disabled = true;
  try {
    await api.post("/api/me/delete", { confirm: control("#delete-confirm").value, password: control("#delete-password").value || null });
  } catch (e) {
    yes.disabled = false;
    need("#delete-error").textContent = messageOf(e);
    return;
  }
  location.assign("/");
}

/** The section as the signed-in player sees it (`kind`: "account" or "guest": no password).
 * @param {string} kind */
export function showAccount(kind) {
  const isAccount = kind === "account" || kind === "bot";
  need("#password-form").hidden = !isAccount;
  need("#delete-password-field").hidden = !isAccount;
}

/** Bind the section's forms, buttons and dialog (once). */
export function bindAccount() {
  need("#password-form").addEventListener("submit", (ev) => changePassword(/** @type {SubmitEvent} */ (ev)));
  need("#delete-form").addEventListener("submit", (ev) => deleteAccount(/** @type {SubmitEvent} */ (ev)));
  const dialog = need("#delete-dialog", HTMLDialogElement);
  need("#delete-open").addEventListener("click", () => {
    need("#delete-error").textContent = "";
    control("#delete-confirm").value = control("#delete-password").value = "";
    dialog.showModal();
  });
  need("#delete-cancel").addEventListener("click", () => dialog.close());
  need("#account-data").addEventListener("toggle", () => {
    if (/** @type {HTMLDetailsElement} */ (need("#account-data")).open) renderSessions();
  });
}
