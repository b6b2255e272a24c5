// @ts-check
// What one can do about another person at the table, besides muting and reporting them: send
// a friend request ("Adicionar") or block them ("Bloquear": silent to them; their chat lines
// stop reaching you at every table, and the queues keep you apart).

import * as api from "../api.js";
import { h, toast } from "../dom.js";

// The names asked or blocked from this page: the row of buttons is drawn again at every change
// of the table, and must not offer again what was done.
const asked = new Set();
const blocked = new Set();

/**
 * A button that sends `name` a friend request once.
 * @param {string} name
 * @param {string} label
 */
export function friendButton(name, label) {
  const button = /** @type {HTMLButtonElement} */ (
    h("button", { type: "button", class: "btn btn-ghost btn-small", "data-action": "befriend" }, label)
  );
  if (asked.has(name)) {
    button.disabled = true;
    button.textContent = `Pedido enviado a ${name}`;
    return button;
  }
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const r = await api.post("/api/friends", { name });
      asked.add(name);
      const friends = r.status === "friends";
      button.textContent = friends ? `Você e ${name} já são amigos` : `Pedido enviado a ${name}`;
      toast(friends ? `Você e ${name} agora são amigos.` : `Pedido de amizade enviado para ${name}.`, "ok");
    } catch (e) {
      button.disabled = false;
      toast(e instanceof Error ? e.message : String(e), "error");
    }
  });
  return button;
}

/**
 * A button that blocks `name`, after the player confirms it.
 * @param {string} name
 */
export function blockButton(name) {
  const button = /** @type {HTMLButtonElement} */ (
    h("button", { type: "button", class: "btn btn-ghost btn-small", "data-action": "block" }, `Bloquear ${name}`)
  );
  if (blocked.has(name)) {
    button.disabled = true;
    button.textContent = `Você bloqueou ${name}`;
    return button;
  }
  button.addEventListener("click", async () => {
    if (!window.confirm(`Bloquear ${name}? As mensagens dessa pessoa não chegam mais a você, em nenhuma mesa, e vocês não são postos juntos nas filas. Ela não fica sabendo.`)) return;
    button.disabled = true;
    try {
      await api.post("/api/blocks", { name });
      blocked.add(name);
      button.textContent = `Você bloqueou ${name}`;
      toast(`Você bloqueou ${name}. Desfaça em Amigos, no salão.`, "ok");
    } catch (e) {
      button.disabled = false;
      toast(e instanceof Error ? e.message : String(e), "error");
    }
  });
  return button;
}
