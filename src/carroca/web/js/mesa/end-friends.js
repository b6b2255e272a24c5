// @ts-check
// "Adicionar aos amigos" in the end dialog: a button for each person who sat at the table
// (partner and opponents; not the bots, not oneself), which sends them a friend request, and
// a link to their profile.

import { h } from "../dom.js";
import { profileNamed } from "../perfil-text.js";
import { friendButton } from "./people.js";

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
    ...people.flatMap(({ p }) => [
      friendButton(p?.name ?? "", `Adicionar ${p?.name ?? ""} aos amigos`),
      h("a", { class: "btn btn-ghost btn-small", href: profileNamed(p?.name ?? ""), "data-action": "profile" }, `Perfil de ${p?.name ?? ""}`),
    ]),
  );
}
