// @ts-check
// The card over the table: the waiting room (who sat down, the invitation to send), a table
// closed before it filled, and a table that cannot be opened.

import { avatarSVG } from "../avatar.js";
import { fill, h, need } from "../dom.js";
import { inviteBox } from "../invite.js";
import * as W from "../words.js";
import { clearNotices, NOTICE_MS } from "./notices.js";
import { ctx, current } from "./state.js";
import { woCard } from "./tourney.js";

/**
 * @param {string} message
 * @param {boolean} [withLobby]
 */
export function showFatal(message, withLobby = true) {
  need("#app").dataset.status = "error";
  fill(
    need("#overlay"),
    h(
      "div",
      { class: "overlay-card", role: "alert" },
      h("h2", {}, "Não deu para abrir a mesa"),
      h("p", {}, message),
      withLobby ? h("a", { class: "btn btn-primary", href: "/" }, "Voltar ao início") : null,
    ),
  );
  need("#overlay").hidden = false;
}

export function renderOverlay() {
  const st = current();
  const overlay = need("#overlay");
  if (st.status === "waiting") {
    overlay.hidden = false;
    overlay.dataset.kind = "waiting";
    fill(overlay, waitingCard());
    return;
  }
  if (st.status === "expired") {
    // A friends' table nobody completed in time: the server closed it. A tournament's table is
    // closed when a side did not come: a W.O. (tourney.js).
    overlay.hidden = false;
    overlay.dataset.kind = "expired";
    if (st.ended) {
      // An operator ended it, unfinished: nobody wins and no rating changes.
      fill(
        overlay,
        h(
          "div",
          { class: "overlay-card waiting-card", "data-kind": "ended" },
          h("h2", {}, "Mesa encerrada pela administração"),
          h("p", {}, st.ended),
          h("p", {}, "A partida ficou sem resultado e não conta para o rating."),
          h("a", { class: "btn btn-primary", href: "/" }, "Voltar ao salão"),
        ),
      );
      return;
    }
    if (st.mode === "tournament") {
      fill(overlay, woCard());
      return;
    }
    fill(
      overlay,
      h(
        "div",
        { class: "overlay-card waiting-card" },
        h("h2", {}, "Mesa encerrada"),
        h("p", {}, "Ninguém completou a mesa a tempo. Crie outra no salão."),
        h("a", { class: "btn btn-primary", href: "/" }, "Voltar ao salão"),
      ),
    );
    return;
  }
  if (overlay.dataset.kind === "waiting") {
    overlay.hidden = true;
    overlay.dataset.kind = "";
    overlay.replaceChildren();
    // The game starts: what was said in the waiting room is over (errors stay their time).
    clearNotices();
  }
}

function waitingCard() {
  const st = current();
  const seats = st.players.map((p, i) =>
    h(
      "li",
      { class: p ? "filled" : "open" },
      h("span", { class: "avatar small", "aria-hidden": "true" }, p ? avatarSVG(W.seatName(p, i)) : "?"),
      p ? (i === st.seat ? "Você" : W.seatName(p, i)) : "Lugar vago",
    ),
  );
  /** @type {HTMLElement[]} */
  const parts = [
    h("h2", {}, "Esperando jogadores"),
    h("ul", { class: "waiting-seats" }, ...seats),
  ];
  if (st.invite) {
    const link = `${location.origin}/?convite=${encodeURIComponent(st.invite)}`;
    parts.push(
      h("p", {}, "Mande este convite para quem vai jogar com você:"),
      ...inviteBox({
        link,
        message: `Bora jogar dominó? ${W.rulesetWithLength(st.ruleset, st.options)}: senta na minha mesa pelo link`,
        title: "Bora jogar dominó?",
      }),
    );
  } else if (st.mode === "casual") {
    parts.push(h("p", { class: "muted" }, "Se ninguém chegar em alguns segundos, bots completam a mesa."));
  }
  return h("div", { class: "overlay-card waiting-card" }, ...parts);
}
