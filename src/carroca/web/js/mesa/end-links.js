// @ts-check
// Where the end of a match leads: a rematch (asked, or offered by another player), the replay
// and the shuffle's check, the event's next game or its podium, and who may see a friends'
// match ("Tornar partida pública").

import * as api from "../api.js";
import { ApiError } from "../api.js";
import { $, fill, h, randomSeed } from "../dom.js";
import { ctx } from "./state.js";

/** @typedef {import("../frames.js").State} State */

/**
 * A match as GET /api/matches/{id} tells it (what the end of a match reads of it).
 * @typedef {object} MatchInfo
 * @property {string} status
 * @property {string} ruleset
 * @property {string} mode
 * @property {(string | null)[]} players
 * @property {number[] | null} [score]
 * @property {boolean} [public] a friends' match shown to everyone
 * @property {boolean} [host] the viewer made the table
 */

/** The end dialog's links: play again, the replay, the shuffle's check, back to the event. */
export function endLinks() {
  const id = encodeURIComponent(ctx.matchId);
  const st = ctx.state;
  // A rematch (same ruleset, options and seats) for who played at a casual or friends' table.
  const rematch = Boolean(st && st.seat !== null && (st.mode === "casual" || st.mode === "friends"));
  const tourney = tourneyOf(st);
  return h(
    "div",
    { class: "end-links" },
    rematch
      ? h(
          "button",
          { class: "btn btn-primary", type: "button", id: "btn-rematch", "data-testid": "rematch", onclick: askRematch },
          ctx.rematch ? "Aceitar a revanche" : "Jogar de novo",
        )
      : h("a", { class: "btn btn-primary", href: "/" }, "Jogar de novo"),
    h("a", { class: "btn btn-secondary", href: `replay.html?id=${id}` }, "Ver o replay"),
    h("a", { class: "btn btn-secondary", href: `justo.html?id=${id}` }, "Conferir o embaralhamento"),
    rematch ? h("a", { class: "btn btn-ghost", href: "/" }, "Voltar ao salão") : null,
    tourney
      ? h("a", { class: "btn btn-secondary", id: "btn-tourney", href: `torneio.html?id=${encodeURIComponent(tourney)}` }, "Voltar ao torneio")
      : null,
  );
}

/**
 * Another match with the same settings: the server makes it, or seats us at the one made.
 * @param {MouseEvent} ev
 */
async function askRematch(ev) {
  const btn = /** @type {HTMLButtonElement} */ (ev.currentTarget);
  const label = btn.textContent;
  btn.disabled = true;
  btn.textContent = "Preparando a mesa…";
  const seed = randomSeed();
  try {
    const made = await api.post(`/api/matches/${encodeURIComponent(ctx.matchId)}/rematch`, {
      client_seed: seed,
    });
    api.rememberSeed(made.id, seed);
    location.assign(`mesa.html?id=${encodeURIComponent(made.id)}`);
  } catch (e) {
    btn.disabled = false;
    btn.textContent = label;
    const host = $("#rematch-offer");
    if (host) {
      host.hidden = false;
      fill(host, h("p", { class: "rematch-error", role: "alert" }, e instanceof Error ? e.message : String(e)));
    }
    if (e instanceof ApiError && e.code === "rematch_closed") btn.replaceWith(h("a", { class: "btn btn-primary", href: "/" }, "Jogar de novo"));
  }
}

/**
 * Another player asked for a rematch: the end screen offers it.
 * @param {{id: string, by: string}} offer
 */
export function offerRematch(offer) {
  if (ctx.rematch && ctx.rematch.id === offer.id) return;
  ctx.rematch = offer;
  renderRematchOffer();
}

/** The rematch another player asked for, said in the end dialog. */
export function renderRematchOffer() {
  const host = $("#rematch-offer");
  if (!host || !ctx.rematch) return;
  host.hidden = false;
  fill(host, h("p", {}, h("strong", {}, ctx.rematch.by), " chamou para a revanche: mesma regra, mesmos lugares."));
  const btn = /** @type {HTMLButtonElement | null} */ ($("#btn-rematch"));
  if (btn && !btn.disabled) btn.textContent = "Aceitar a revanche";
}

/** A friends' match is its players' only (record, replay, review): said to them, and its host
 * may show it to everyone ("Tornar partida pública"). Nothing for other matches.
 * @param {MatchInfo | null} info
 * @returns {HTMLElement | null}
 */
export function privacyControl(info) {
  if (!info || info.mode !== "friends") return null;
  const box = h("div", { class: "end-privacy", id: "end-privacy", "aria-live": "polite" });
  const render = (/** @type {string} */ error = "") => {
    if (info.public) {
      fill(box, h("p", { class: "muted small" }, "Partida pública: qualquer pessoa pode ver o replay."));
      return;
    }
    const note = h("p", { class: "muted small" }, "Partida entre amigos: só quem jogou vê o replay e o registro.");
    if (!info.host) {
      fill(box, note);
      return;
    }
    const button = h(
      "button",
      {
        class: "btn btn-ghost btn-small",
        type: "button",
        "data-testid": "make-public",
        onclick: async () => {
          button.disabled = true;
          try {
            await api.setPublic(ctx.matchId, true);
            info.public = true;
            render();
          } catch (e) {
            render(e instanceof Error ? e.message : String(e));
          }
        },
      },
      "Tornar partida pública",
    );
    fill(box, note, button, error ? h("p", { class: "form-error", role: "alert" }, error) : null);
  };
  render();
  return box;
}

/** The same control in the end dialog of a match played here: its page says who may see it. */
export async function renderPrivacy() {
  const st = ctx.state;
  if (!st || st.mode !== "friends" || st.seat === null) return;
  let info;
  try {
    info = await api.match(ctx.matchId);
  } catch {
    return; // the end dialog works without it
  }
  const slot = $("#end-privacy");
  const control = privacyControl(info);
  if (slot && control) slot.replaceWith(control);
}

/**
 * The event of a tournament's table: its client seed is "<event id>:round.table.game".
 * @param {State | null} st
 * @returns {string | null}
 */
function tourneyOf(st) {
  return st && st.mode === "tournament" && st.client_seed ? st.client_seed.split(":")[0] : null;
}

/** The event's next game for this player, or its end, at the top of the end dialog. */
export function renderTourneyNext() {
  const host = $("#end-body");
  if (!host) return;
  const old = $("#tourney-next");
  if (old) old.remove();
  const next = ctx.tourneyNext;
  const over = ctx.tourneyOver;
  if (next) {
    host.prepend(
      h(
        "div",
        { class: "notice notice-invite", id: "tourney-next", role: "status" },
        h("strong", {}, "Sua partida do torneio começou"),
        h("a", { class: "btn btn-primary", href: `mesa.html?id=${encodeURIComponent(String(next.match))}` }, "Ir para a mesa"),
      ),
    );
  } else if (over) {
    host.prepend(
      h(
        "div",
        { class: "notice", id: "tourney-next", role: "status" },
        h("strong", {}, "O torneio terminou"),
        h("a", { class: "btn btn-primary", href: `torneio.html?id=${encodeURIComponent(over.event)}` }, "Ver o pódio"),
      ),
    );
  }
}
