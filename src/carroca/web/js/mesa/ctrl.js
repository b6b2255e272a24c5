// @ts-check
// The table page's controller: the server's frames in, the page's state (state.js) changed,
// and the views told to draw it. A `state` frame is compared with the one before (an older one
// is dropped), its news announced (news.js), the turn clock set, and every region drawn again.

import * as api from "../api.js";
import { showAnnouncement } from "../announce.js";
import { onFriendsFrame } from "../friends.js";
import { diff } from "../events.js";
import { seatPlaces } from "../layout.js";
import { need, toast } from "../dom.js";
import * as S from "../speech.js";
import * as W from "../words.js";
import { onChat, renderMutes, uncoverTheHand } from "./chat.js";
import { offerRematch } from "./end-links.js";
import { renderEnd, showFinishedFromApi } from "./end.js";
import { renderFive, renderPlay } from "./hand.js";
import { handleEvents, playSounds, rememberHand, slideFrom } from "./news.js";
import { notify } from "./notices.js";
import { renderOverlay } from "./overlay.js";
import { chooseEnd } from "./play.js";
import { renderFacts, renderLog, renderScores } from "./scores.js";
import { renderSeatsLive, tick } from "./seats.js";
import { holdOnce, lastAction, moreTimeOnce, renderMoreTime, renderMoves, say, verbosity } from "./speak.js";
import { ctx, current, isMyTurn, myTeam } from "./state.js";
import { closeSummary, renderReading, showSummary } from "./summary.js";
import { renderBoard, renderTableInfo } from "./table.js";
import { onTourney, tourneyState } from "./tourney.js";

/** @typedef {import("../frames.js").State} State */

/**
 * A frame from the server (all but "hello" and "pong": see main.js and ../socket.js): its
 * `data` is the one of its `type` (../frames.js).
 * @type {import("../socket.js").FrameHandler<Omit<import("../frames.js").Frames, "hello" | "pong">>}
 */
export const onFrame = (type, data) => {
  switch (type) {
    case "state":
      onState(data);
      break;
    case "ack":
      // The state that the move made comes first; an ack without one (a repeated move)
      // must not leave the hand locked.
      if (ctx.busy && data.id === ctx.busy.id) {
        ctx.busy = null;
        if (ctx.state) renderPlay();
      }
      break;
    case "error":
      onError(data);
      break;
    case "chat":
      onChat(data);
      break;
    case "muted":
      ctx.muted = new Set(data.seats);
      renderMutes();
      break;
    case "owner":
      followOwner(data);
      break;
    case "rematch":
      if (data.match === ctx.matchId) offerRematch({ id: data.id, by: data.by });
      break;
    case "tournament":
      onTourney(data);
      break;
    case "announcement":
      showAnnouncement(data);
      break;
    case "friends":
    case "presence":
    case "challenge":
    case "challenge_end":
      onFriendsFrame(type, data);
      break;
    case "notice":
      // a sanction of the player's (moderation) is theirs to read wherever they are
      if (data.match === ctx.matchId || data.code.startsWith("sanction")) toast(data.message, "info", 9000);
      break;
    default:
      break;
  }
  if (ctx.ownerLater && !ctx.busy) {
    const later = ctx.ownerLater;
    ctx.ownerLater = null;
    followOwner(later);
  }
};

const FOLLOW_GAP_MS = 5000;

/**
 * Another server runs this table: connect to it through the front, so that moves and frames
 * need not cross servers. Not while a move waits for its answer (it would come to the old
 * connection), at most once in a few seconds, and never again on a front that does not route
 * by node (the server then is the one the front chose: the socket stays and works there).
 * @param {import("../frames.js").Owner} data
 */
function followOwner(data) {
  if (data.match !== ctx.matchId || !data.node || data.node === ctx.node || ctx.unrouted) return;
  if (ctx.busy) {
    ctx.ownerLater = data;
    return;
  }
  const now = Date.now();
  if (now - (ctx.followedAt ?? 0) < FOLLOW_GAP_MS) return;
  ctx.followedAt = now;
  ctx.asked = data.node;
  ctx.socket?.moveTo(data.node);
}

/**
 * A refusal: said in a notice; a move refused frees the hand.
 * @param {import("../frames.js").Error} data
 */
function onError(data) {
  if (data.code === "not_found" && !ctx.state) {
    showFinishedFromApi();
    return;
  }
  if (data.code === "moving") {
    // The table is changing servers (one of them stopped): join again in a moment, and the
    // new one sends the whole table.
    clearTimeout(ctx.rejoin);
    ctx.rejoin = setTimeout(() => {
      const seed = api.seedFor(ctx.matchId);
      ctx.socket?.send("join", seed ? { match: ctx.matchId, client_seed: seed } : { match: ctx.matchId });
    }, 1000);
  }
  if (ctx.busy && (data.id === undefined || data.id === ctx.busy.id)) {
    ctx.busy = null;
    ctx.selected = null;
    renderPlay();
  }
  notify(data.message, "error");
}

/**
 * A state of the table: kept, compared with the one before, and drawn.
 * @param {State} data
 */
function onState(data) {
  if (data.id !== ctx.matchId) return;
  const prev = ctx.state;
  // Frames can cross on their way from several servers: an older view never replaces a newer
  // one (the same version may: who is connected changes without a move).
  if (prev && data.version < prev.version && prev.status === data.status) return;
  const wasMyTurn = prev ? isMyTurn() : false;
  const wasPaused = Boolean(ctx.pause);
  ctx.state = data;
  // Between two hands the server runs no clock: the hand's summary shows until it is over.
  ctx.pause = data.pause
    ? { seconds: data.pause.seconds, deadline: performance.now() + data.pause.remaining_ms }
    : null;
  const first = !prev;
  tourneyState(prev, data);
  if (first || prev.players.some((p, i) => JSON.stringify(p) !== JSON.stringify(data.players[i]))) {
    setupSeats();
  }
  if (ctx.busy && (data.version > ctx.busy.version || data.status !== "playing")) ctx.busy = null;
  if (ctx.selected && prev && data.version !== prev.version) ctx.selected = null;
  updateClock(prev, data);
  const events = diff(prev, data);
  if (first && data.view && data.view.last_hand) rememberHand(data.view.last_hand);
  handleEvents(events, prev);
  if (first) sayTheStart(data);
  if (first && ctx.pause && data.view && data.view.last_hand) showSummary(data.view.last_hand);
  if (wasPaused && !ctx.pause && need("#overlay").dataset.kind === "summary") closeSummary();
  const rematch = data.rematch;
  if (rematch && rematch.by !== ctx.me?.name) offerRematch(rematch);
  render(slideFrom(events));
  const turnStarted = !wasMyTurn && isMyTurn();
  if (turnStarted) {
    uncoverTheHand();
    say([{ kind: "turn", text: S.turnText(data, verbosity(), lastAction()) }]);
  }
  const names = data.players.map((_, i) => ctx.names[i] ?? W.seatName(data.players[i], i));
  say(S.moreTimeLines(prev ? prev.more_time : [], data.more_time, names, data.seat));
  holdOnce();
  moreTimeOnce();
  if (!first) playSounds(events, turnStarted);
}

/** How many of the hand's actions made before the page came are said when it comes. */
const SAID_ON_ARRIVAL = 4;

/**
 * The page came during a hand: its last few actions are said (those of the first round when
 * the match just started), the rest is in the list of the hand's actions.
 * @param {State} data
 */
function sayTheStart(data) {
  const v = data.view;
  if (!v || !v.steps.length || data.status !== "playing") return;
  const from = Math.max(0, v.steps.length - SAID_ON_ARRIVAL);
  /** @type {import("../events.js").Event[]} */
  const events = v.steps.slice(from).map((step, k) => ({ type: "step", step, index: from + k }));
  const names = data.players.map((_, i) => ctx.names[i] ?? W.seatName(data.players[i], i));
  say(S.eventLines(events, { st: data, names, prevTable: [], prevDeal: null }));
}

/**
 * The turn clock from the state's `clock`. A state that moves the turn to a person may come
 * without it (sent before the clock is armed): then count down from the move, with the table's
 * turn (15 s for the cinco-carroças choice), twice it for a seat with more time.
 * @param {State | null} prev
 * @param {State} data
 */
function updateClock(prev, data) {
  const v = data.view;
  if (data.pause) {
    ctx.clock = null; // the next hand's clock starts after the pause
    return;
  }
  if (data.clock) {
    ctx.clock = {
      seat: data.clock.seat,
      seconds: data.clock.seconds,
      deadline: performance.now() + data.clock.remaining_ms,
    };
    return;
  }
  const turn = v ? v.turn : null;
  const player = turn !== null ? data.players[turn] : null;
  const person = Boolean(player && !player.bot);
  if (data.status !== "playing" || !v || turn === null || !person || (v.phase !== "play" && v.phase !== "choice")) {
    ctx.clock = null;
    return;
  }
  const moved = !prev || prev.version !== data.version;
  if (moved || !ctx.clock || ctx.clock.seat !== turn) {
    const base = v.phase === "choice" ? 15 : data.turn_seconds;
    const seconds = data.more_time.includes(turn) ? base * S.MORE_TIME : base;
    ctx.clock = { seat: turn, seconds, deadline: performance.now() + seconds * 1000 };
  }
}

/** The players changed (or came first): where each sits, their names, the top bar, the
 * score's labels ("Nós" first), the buttons this table has, the side panel's facts. */
function setupSeats() {
  const st = current();
  const n = st.players.length;
  ctx.places = seatPlaces(n, st.seat);
  ctx.names = st.players.map((p, i) => (i === st.seat ? "Você" : W.seatName(p, i)));
  need("#app").dataset.seats = String(n);
  need("#app").dataset.seat = st.seat === null ? "" : String(st.seat);
  need("#app").dataset.ruleset = st.ruleset;
  need("#app").dataset.mode = st.mode;
  need("#app").classList.toggle("spectator", st.seat === null);
  need("#ruleset-name").textContent = W.rulesetName(st.ruleset);
  const opts = st.options || {};
  need("#target").textContent = opts.target
    ? `até ${opts.target}`
    : opts.hands_to_win
      ? `${opts.hands_to_win} mãos`
      : "";
  /** @type {string[]} */
  const labels = W.teamLabels(st);
  labels.forEach((label, team) => {
    need(`#score-label-${team}`).textContent = label;
    const mine = st.seat !== null && W.teamOf(st.seat, n) === team;
    need(`#score-box-${team}`).classList.toggle("score-us", mine);
    need(`#score-box-${team}`).classList.toggle("score-them", st.seat !== null && !mine);
  });
  // "Nós" first, whichever seat the player has (the boxes keep their team's ids).
  const ours = need(`#score-box-${myTeam()}`);
  if (need("#scores").firstElementChild !== ours) need("#scores").prepend(ours);
  for (const place of ["top", "left", "right"]) need(`#seat-${place}`).hidden = true;
  const chat = st.chat;
  need("#btn-chat").hidden = !chat;
  need("#tab-chat").hidden = !chat;
  need("#btn-draw").hidden = !W.DRAWS.has(st.ruleset) || st.seat === null;
  need("#btn-pass").hidden = st.seat === null;
  renderFacts();
  renderMutes();
}

/**
 * Draw everything from ctx.state; `from`: the side a tile just played slides in from.
 * @param {import("../layout.js").Place | null} [from]
 */
function render(from = null) {
  const st = current();
  const v = st.view;
  const myTurn = isMyTurn();
  need("#app").dataset.status = st.status;
  need("#app").dataset.version = String(st.version);
  need("#app").dataset.myTurn = String(myTurn && !ctx.busy);
  need("#app").dataset.busy = String(Boolean(ctx.busy));
  need("#app").dataset.phase = v ? v.phase : "none";
  need("#app").dataset.turn = v && v.turn !== null ? String(v.turn) : "";
  renderScores();
  renderSeatsLive();
  renderBoard(chooseEnd, from);
  renderPlay();
  renderTableInfo();
  renderOverlay();
  renderFive();
  renderEnd();
  renderLog();
  renderMoves();
  renderReading();
  renderMoreTime();
  tick();
}
