// @ts-check
// "Adicionar aos amigos" in the end dialog: a button for each person who sat at the table
// (partner and opponents; not the bots, not oneself), which sends them a friend request.

import * as api from "../api.js";
import { h, toast } from "../dom.js";

/**
 * The buttons for the people at this table, or null when there is nobody to add.
 * @param {import("../frames.js").State} st
 */
export function addFriends(st) {
  const people = st.players
    .map((p, seat) => ({ p, seat }))
    .filter(({ p, seat }) => p !== null && !p.bot && seat !== st.seat);
  if (st.seat === null || !people.length) return null;
  return h(
    "div",
    { class: "end-friends", "data-testid": "end-friends" },
    ...people.map(({ p }) => {
      const name = p?.name ?? "";
      const button = /** @type {HTMLButtonElement} */ (
        h("button", { type: "button", class: "btn btn-ghost btn-small" }, `Adicionar ${name} aos amigos`)
      );
      button.addEventListener("click", async () => {
        button.disabled = true;
        try {
          const r = await api.post("/api/friends", { name });
          const done = r.status === "friends" ? `Você e ${name} agora são amigos.` : `Pedido de amizade enviado para ${name}.`;
          button.textContent = r.status === "friends" ? "Amigos" : "Pedido enviado";
          toast(done, "ok");
        } catch (e) {
          button.disabled = false;
          toast(e instanceof Error ? e.message : String(e), "error");
        }
      });
      return button;
    }),
  );
}
