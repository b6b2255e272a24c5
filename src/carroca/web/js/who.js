// @ts-check
// The player's box in the site header (#who) of the pages beside the lobby (a profile, an
// event): their initial and nickname when signed in, otherwise a button to sign in that comes
// back to this page.

import * as api from "./api.js";
import { fill, h, need } from "./dom.js";

/**
 * The signed-in player (null when signed out), shown in #who; a session that cannot be read
 * counts as signed out, and its error goes to `onError`.
 * @param {(message: string) => void} onError
 * @returns {Promise<{name: string} | null>}
 */
export async function showWho(onError) {
  /** @type {{name: string} | null} */
  let me = null;
  try {
    const who = await api.session();
    me = who ? who.player : null;
  } catch (e) {
    onError(e instanceof Error ? e.message : String(e));
  }
  if (!me) {
    const back = `/?proximo=${encodeURIComponent(location.pathname + location.search)}`;
    fill(need("#who"), h("a", { class: "btn btn-secondary btn-small", href: back }, "Entrar"));
  } else {
    fill(
      need("#who"),
      h("span", { class: "avatar small", "aria-hidden": "true" }, me.name.slice(0, 1).toUpperCase()),
      h("span", { class: "who-name" }, me.name),
    );
  }
  return me;
}
