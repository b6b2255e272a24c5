// @ts-check
// The table page's state: one object, `ctx`, that the controller (ctrl.js) changes as frames
// come and every view reads to draw its region, and the questions the views ask of it (whose
// turn, which team is "Nós", what a seat is called). No DOM here.

import * as W from "../words.js";

/** @typedef {import("../frames.js").State} State */
/** @typedef {import("../frames.js").View} View */
/** @typedef {import("../frames.js").End} End */
/** @typedef {import("../layout.js").Place} Place */

/** Points scored, as the score panel lists them. */
/** @typedef {{team: number, points: number, reason: string}} Points */

/**
 * Everything the page knows and shows. The server's latest `state` frame is `state`; the rest
 * is what the page keeps between frames (a move waiting for its answer, the clock counting
 * down, the points of past hands) and the page's own moment-to-moment state (the banner and
 * the bubbles showing, their timers).
 * @typedef {object} Ctx
 * @property {string} matchId the table's id (set before the socket connects)
 * @property {{id: string, name: string, kind: string} | null} me the signed-in player
 * @property {import("../socket.js").Socket | null} socket
 * @property {import("../board.js").Board | null} board
 * @property {import("../sound.js").Sound | null} sound
 * @property {State | null} state the latest state frame shown
 * @property {Place[]} places where each seat sits on screen
 * @property {string[]} names each seat's name ("Você" for the viewer)
 * @property {{id: number, version: number} | null} busy the move waiting for its answer
 * @property {string | null} selected the tile touched that fits several ends
 * @property {{seat: number, seconds: number, deadline: number} | null} clock the turn clock,
 *   its deadline on the performance.now() scale
 * @property {Map<number, Points[]>} hands deal_index -> the points scored in that hand
 * @property {Extract<import("../events.js").Event, {type: "score"}>[]} live points of the
 *   current hand, as they happen
 * @property {Set<number>} muted the seats whose chat lines are not received
 * @property {number} unread chat lines not seen yet
 * @property {ReturnType<typeof setTimeout> | undefined} summaryTimer
 * @property {ReturnType<typeof setTimeout> | null} hintTimer while a hint shows
 * @property {{el: HTMLElement, rank: number, since: number, timer: ReturnType<typeof setTimeout> | undefined} | null} banner
 *   the banner showing
 * @property {boolean} shownEnd the end of the match was shown
 * @property {{seconds: number, deadline: number} | null} pause between two hands (the
 *   server's state.pause), its deadline on the performance.now() scale
 * @property {Map<number, {text: string, timer: ReturnType<typeof setTimeout>}>} bubbles what
 *   each seat said, kept across updates
 * @property {{id: string, by: string} | null} rematch the rematch another player asked for
 * @property {number | null} refocus the hand's index to focus once the board's lit place that
 *   had it is gone
 * @property {string | null} [node] the server node the socket is on
 * @property {string | null} [asked] the node asked of the front
 * @property {boolean} [unrouted] the front does not route by node
 * @property {number} [connects] connections so far
 * @property {import("../frames.js").Owner | null} [ownerLater] the node to follow once the
 *   move waiting is answered
 * @property {number} [followedAt] when a node was last followed (Date.now())
 * @property {ReturnType<typeof setTimeout>} [rejoin]
 * @property {number} [lastMoveId]
 * @property {import("../frames.js").Tournament | null} [tourneyNext] this player's next game
 *   of the event
 * @property {import("../frames.js").Tournament | null} [tourneyOver] the event is over
 */

/** @type {Ctx} */
export const ctx = {
  matchId: "",
  me: null,
  socket: null,
  board: null,
  state: null,
  places: [],
  names: [],
  busy: null,
  selected: null,
  clock: null,
  hands: new Map(),
  live: [],
  muted: new Set(),
  unread: 0,
  summaryTimer: undefined,
  hintTimer: null,
  banner: null,
  shownEnd: false,
  pause: null,
  bubbles: new Map(),
  sound: null,
  rematch: null,
  refocus: null,
};

/**
 * The state shown, for the views that draw only once the first state came.
 * @returns {State}
 */
export function current() {
  if (!ctx.state) throw new Error("no state yet");
  return ctx.state;
}

/** The viewer's team (team 0 for a spectator): shown first in every score. */
export function myTeam() {
  const st = current();
  return st && st.seat !== null ? W.teamOf(st.seat, st.players.length) : 0;
}

/** @param {number} team */
export function isUs(team) {
  const st = current();
  return st.seat !== null && W.teamOf(st.seat, st.players.length) === team;
}

/**
 * "team-us" or "team-them" for a team (nothing for a spectator, who has no side).
 * @param {number} team
 */
export function sideOf(team) {
  if (current().seat === null) return "";
  return isUs(team) ? "team-us" : "team-them";
}

/** @param {number} seat */
export function nameOf(seat) {
  return ctx.names[seat] ?? `Lugar ${seat + 1}`;
}

/**
 * "Nós", "Eles" (2v2), or the player's name or "Você" (1v1), for the team that scored.
 * @param {number} team
 * @returns {string}
 */
export function teamLabel(team) {
  const st = current();
  return st.players.length === 2 ? nameOf(team) : W.teamLabels(st)[team];
}

export function isMyTurn() {
  const st = current();
  const v = st && st.view;
  return Boolean(
    st && v && st.status === "playing" && st.seat !== null && v.turn === st.seat && v.legal.length > 0,
  );
}

/**
 * The tiles the player may play now, each with the ends it fits (null: the opening).
 * @returns {Map<string, (End | null)[]>}
 */
export function legalByTile() {
  const v = current().view;
  /** @type {Map<string, (End | null)[]>} */
  const map = new Map();
  if (!v || !isMyTurn()) return map;
  for (const action of v.legal) {
    if (action === "pass" || action === "draw" || action.startsWith("five-doubles")) continue;
    const [tile, end] = action.split(":");
    const ends = map.get(tile) ?? [];
    map.set(tile, ends);
    ends.push(/** @type {End | undefined} */ (end) ?? null);
  }
  return map;
}
