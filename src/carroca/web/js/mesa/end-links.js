// @ts-check
// Where the end of a match leads: a rematch (asked, or offered by another player), the replay
// and the shuffle's check, the event (tourney.js says what the match meant in it), and who may
// see a friends' match ("Tornar partida pública").

import * as api from "../api.js";
import { ApiError } from "../api.js";
import { $, fill, h, randomSeed } from "../dom.js";
import { openReport } from "./report.js";
import { ctx } from "./state.js";
import { eventOf, tourneyButton } from "./tourney.js";

/** @typedef {import("../frames.js").State} State */

/**
 * A match as GET /api/matches/{id} tells it (what the end of a match reads of it).
 * @typedef {object} MatchInfo
 * @property {string} status
 * @property {string} ruleset
 * @property {string} mode
 * @property {string | null} [client_seed] a tournament's table: "<event id>:round.table.game"
 * @property {(string | null)[]} players
 * @property {number[] | null} [score]
 * @property {boolean} [public] a friends' match shown to everyone
 * @property {boolean} [host] the viewer made the table
 */

/** The end dialog's links: play again, the replay, the shuffle's check; at a tournament's
 * table the event (or its next table) first. */
export function endLinks() {
  const id = encodeURIComponent(ctx.matchId);
  const st = ctx.state;
  // A rematch (same ruleset, options and seats) for who played at a casual or friends' table.
  const rematch = Boolean(st && st.seat !== null && (st.mode === "casual" || st.mode === "friends"));
  if (eventOf()) {
    // A tournament's table: the event first (the next table when it is ready), on a phone too.
    return h(
      "div",
      { class: "end-links" },
      tourneyButton(),
      h("a", { class: "btn btn-secondary", href: `replay.html?id=${id}` }, "Ver o replay"),
      h("a", { class: "btn btn-secondary", href: `justo.html?id=${id}` }, "Conferir o embaralhamento"),
      h("a", { class: "btn btn-ghost", href: "/" }, "Voltar ao salão"),
    );
  }
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
    reportPeople(),
  );
}

/** "Denunciar" for each other person who played the match (not the bots). */
function reportPeople() {
  const st = ctx.state;
  if (!st || st.seat === null) return null;
  const others = st.players.map((p, seat) => ({ p, seat })).filter(({ p, seat }) => p && !p.bot && seat !== st.seat);
  if (!others.length) return null;
  return h(
    "div",
    { class: "end-report" },
    others.map(({ seat }) =>
      h("button", { class: "btn btn-ghost btn-small", type: "button", onclick: () => openReport(ctx.names[seat] ?? "") }, `Denunciar ${ctx.names[seat] ?? ""}`),
    ),
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
