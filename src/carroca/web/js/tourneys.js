// @ts-check
// A player of an event is taken to each of their tables, from whatever page they are on. The
// server says "your game is at that table" with a `tournament` frame on the player's own
// channel, when the game is paired and again to every socket that says hello while the game is
// not over (a frame published while no socket was open reached nobody). A page with a socket of
// its own (the table, the lobby, the event's page) hands the frame to `callToTable`; a page
// without one (rules, replay, the shuffle's check, …) loads tourney-call.js, which opens a
// socket only for a player with an event upcoming or running (`watchTourneys`).
//
// Not in a match in play, the player is taken to the table at once: a game not joined within
// the show-up time is lost by W.O. In a match in play, or back on a page after leaving that
// table once (they chose to), a banner with the table's link stays at the top, and a toast.

import * as api from "./api.js";
import { $, h, toast } from "./dom.js";
import { Socket } from "./socket.js";

const TAKEN_KEY = "carroca.tourney.taken";
const TAKEN_KEPT = 20;

/** @typedef {import("./frames.js").Tournament} Tournament */

/** The tables this tab already took the player to (or that they opened). @returns {string[]} */
function taken() {
  try {
    const list = JSON.parse(sessionStorage.getItem(TAKEN_KEY) || "[]");
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

/**
 * The player is at (or on the way to) the table of `match`: a frame naming it again takes them
 * there no more, it only calls them (they may have left it on purpose).
 * @param {string} match
 */
export function markTaken(match) {
  const list = taken().filter((m) => m !== match);
  list.push(match);
  try {
    sessionStorage.setItem(TAKEN_KEY, JSON.stringify(list.slice(-TAKEN_KEPT)));
  } catch {
    /* private mode: each frame takes them again, which is the safe side */
  }
}

/** @param {string} match */
export const tableHref = (match) => `mesa.html?id=${encodeURIComponent(match)}`;

/**
 * To the table now.
 * @param {string} match
 */
export function goToTable(match) {
  markTaken(match);
  location.assign(tableHref(match));
}

/**
 * A `tournament` frame: the player's game is at a table (`match`). Taken there at once, unless
 * `busy` (a match in play on this page) or they already went there once: then the banner.
 * @param {Tournament} data
 * @param {{busy?: boolean}} [how]
 */
export function callToTable(data, how = {}) {
  if (!data.match) return;
  if (!how.busy && !taken().includes(data.match)) {
    goToTable(data.match);
    return;
  }
  showCall(data);
}

/**
 * The banner at the top of the page: the event's game waits for the player.
 * @param {Tournament} data
 */
export function showCall(data) {
  if (!data.match) return;
  const old = $("#tourney-call");
  if (old && old.dataset.match === data.match) return;
  if (old) old.remove();
  const match = data.match;
  const bar = h(
    "div",
    { class: "tourney-call", id: "tourney-call", role: "alert", dataset: { match } },
    h("strong", {}, `Sua partida do torneio ${data.name} está esperando você`),
    h("a", { class: "btn btn-primary btn-small", href: tableHref(match), onclick: () => markTaken(match) }, "Ir para a mesa"),
    h("button", { class: "btn btn-ghost btn-small", type: "button", "aria-label": "Fechar o aviso", onclick: () => bar.remove() }, "×"),
  );
  document.body.append(bar);
  toast("Sua partida do torneio começou.", "ok");
}

/**
 * For a page without a socket of its own: one, while the player has an event upcoming or
 * running (who has none is not kept connected for nothing).
 */
export async function watchTourneys() {
  let mine;
  try {
    mine = (await api.tournaments()).mine;
  } catch {
    return; // signed out, or the server away: nothing to be called to
  }
  if (!Array.isArray(mine) || !mine.length) return;
  const socket = new Socket({
    onFrame: (type, data) => {
      if (type === "tournament") callToTable(data);
    },
    onUnauthorized: () => socket.close(),
  });
  socket.connect();
  window.addEventListener("pagehide", () => socket.close());
}
