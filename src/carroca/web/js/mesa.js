// The table page (mesa.html?id=MATCH, or mesa.html?convite=CODE to sit at a friends' table).
//
// Everything shown comes from the server's "state" frames: the table, the seat's view of the
// match and the clock. The page only sends "join", "move", "chat" and "mute".

import * as api from "./api.js";
import { avatarSVG } from "./avatar.js";
import { Board } from "./board.js";
import { $, copyText, dec, fill, h, param, randomSeed, signed, toast } from "./dom.js";
import { diff } from "./events.js";
import { seatPlaces } from "./layout.js";
import { Socket } from "./socket.js";
import { Sound } from "./sound.js";
import { backSVG, tileSVG } from "./tiles.js";
import * as W from "./words.js";

const BUBBLE_MS = 2600; // how long "Passo", "Comprou" or a chat line stays by a seat
const NOTICE_MS = 4000; // how long a notice (an error, "Convite copiado!") stays

const app = $("#app");
const ctx = {
  matchId: null,
  me: null,
  socket: null,
  board: null,
  state: null,
  places: [],
  names: [],
  busy: null, // {id, version} of the move waiting for its answer
  selected: null, // the tile touched that fits several ends
  clock: null, // {seat, seconds, deadline} on the performance.now() scale
  hands: new Map(), // deal_index -> [{team, points, reason, seat}] scored in that hand
  live: [], // points of the current hand, as they happen
  muted: new Set(),
  unread: 0,
  summaryTimer: null,
  hintTimer: null,
  banner: null, // {el, rank, since, timer}: the banner showing
  shownEnd: false,
  pause: null, // {seconds, deadline} between two hands (the server's state.pause)
  bubbles: new Map(), // seat -> {text, until}: what each seat said, kept across updates
  sound: null,
  rematch: null, // {id, by}: the rematch another player asked for
  refocus: null, // the hand's index to focus once the board's lit place that had it is gone
};

const QUICK = [
  "Boa jogada!",
  "Valeu, parceiro!",
  "Segura essa!",
  "Que sorte, hein?",
  "Bora!",
  "Foi mal!",
  "Boa partida!",
  "Obrigado!",
];

// ---------------------------------------------------------------------- start

async function main() {
  let id = param("id");
  const invite = param("convite");
  let who;
  try {
    who = await api.session(); // signed out: 200 {"player": null}, nothing logged
  } catch (e) {
    showFatal(e.message);
    return;
  }
  if (!who) {
    const back = invite ? `convite=${encodeURIComponent(invite)}` :
      `proximo=${encodeURIComponent(location.pathname + location.search)}`;
    location.replace(`/?${back}`);
    return;
  }
  ctx.me = who.player;
  if (invite && !id) {
    const seed = randomSeed();
    try {
      const joined = await api.joinInvite(invite, seed);
      api.rememberSeed(joined.id, seed);
      id = joined.id;
      history.replaceState(null, "", `mesa.html?id=${encodeURIComponent(id)}`);
    } catch (e) {
      showFatal(e.message, true);
      return;
    }
  }
  if (!id) {
    showFatal("Nenhuma mesa indicada no endereço.", true);
    return;
  }
  ctx.matchId = id;
  ctx.board = new Board($("#board"), { label: "Pedras na mesa" });
  ctx.sound = new Sound();
  bindUi();
  ctx.socket = new Socket({
    onHello: (hello) => {
      ctx.node = hello.node ?? null;
      app.dataset.node = ctx.node ?? "";
      // Asked the front for a node and got another: it does not route by node, so stay.
      if (ctx.asked && ctx.asked !== ctx.node) ctx.unrouted = true;
      ctx.asked = null;
      ctx.connects = (ctx.connects ?? 0) + 1;
      ctx.busy = null; // a move lost with the old connection can be made again
      app.dataset.connects = String(ctx.connects);
      const seed = api.seedFor(id);
      ctx.socket.send("join", seed ? { match: id, client_seed: seed } : { match: id });
      for (const seat of ctx.muted) ctx.socket.send("mute", { seat, muted: true });
    },
    onFrame,
    onStatus: showConnection,
    onUnauthorized: () => {
      location.replace(`/?proximo=${encodeURIComponent(location.pathname + location.search)}`);
    },
  });
  ctx.socket.connect();
  setInterval(tick, 200);
  // A handle for debugging and for the browser tests (e.g. dropping the connection).
  window.carroca = { ctx, socket: ctx.socket, sound: ctx.sound };
}

function showFatal(message, withLobby = true) {
  app.dataset.status = "error";
  fill(
    $("#overlay"),
    h(
      "div",
      { class: "overlay-card", role: "alert" },
      h("h2", {}, "Não deu para abrir a mesa"),
      h("p", {}, message),
      withLobby ? h("a", { class: "btn btn-primary", href: "/" }, "Voltar ao início") : null,
    ),
  );
  $("#overlay").hidden = false;
}

// ---------------------------------------------------------------------- frames

function onFrame(type, data) {
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
    default:
      break;
  }
  if (ctx.ownerLater && !ctx.busy) {
    const later = ctx.ownerLater;
    ctx.ownerLater = null;
    followOwner(later);
  }
}

const FOLLOW_GAP_MS = 5000;

/**
 * Another server runs this table: connect to it through the front, so that moves and frames
 * need not cross servers. Not while a move waits for its answer (it would come to the old
 * connection), at most once in a few seconds, and never again on a front that does not route
 * by node (the server then is the one the front chose: the socket stays and works there).
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
  ctx.socket.moveTo(data.node);
}

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
      ctx.socket.send("join", seed ? { match: ctx.matchId, client_seed: seed } : { match: ctx.matchId });
    }, 1000);
  }
  if (ctx.busy && (data.id === undefined || data.id === ctx.busy.id)) {
    ctx.busy = null;
    ctx.selected = null;
    renderPlay();
  }
  notify(data.message, "error");
}

async function showFinishedFromApi() {
  let info;
  try {
    info = await api.match(ctx.matchId);
  } catch {
    showFatal("Partida não encontrada ou já encerrada.");
    return;
  }
  if (info.status !== "finished") {
    showFatal("Esta partida não está aberta neste servidor agora.");
    return;
  }
  app.dataset.status = "finished";
  app.dataset.ruleset = info.ruleset;
  const names = info.players.map((p, i) => displayName(p, i));
  const score = info.score || [0, 0];
  const labels = info.players.length === 4 ? [`${names[0]} e ${names[2]}`, `${names[1]} e ${names[3]}`] : names;
  fill(
    $("#end-body"),
    h("h2", { id: "end-title" }, "Partida encerrada"),
    h("p", { class: "end-sub" }, W.rulesetName(info.ruleset)),
    scoreBoard(score, { class: "end-score", "data-testid": "final-score" }, labels, 0),
    privacyControl(info),
    endLinks(),
  );
  $("#end-dialog").showModal();
}

/** A friends' match is its players' only (record, replay, review): said to them, and its host
 * may show it to everyone ("Tornar partida pública"). Nothing for other matches. */
function privacyControl(info) {
  if (!info || info.mode !== "friends") return null;
  const box = h("div", { class: "end-privacy", id: "end-privacy", "aria-live": "polite" });
  const render = (error = "") => {
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
            render(e.message);
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
async function renderPrivacy() {
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

function displayName(name, seat) {
  const level = W.botLevelOf(name);
  return level ? W.seatName({ bot: true }, seat) : name || "Lugar vago";
}

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
  if (first || prev.players.some((p, i) => JSON.stringify(p) !== JSON.stringify(data.players[i]))) {
    setupSeats();
  }
  if (ctx.busy && (data.version > ctx.busy.version || data.status !== "playing")) ctx.busy = null;
  if (ctx.selected && prev && data.version !== prev.version) ctx.selected = null;
  updateClock(prev, data);
  const events = diff(prev, data);
  if (first && data.view && data.view.last_hand) rememberHand(data.view.last_hand);
  handleEvents(events);
  if (first && ctx.pause && data.view && data.view.last_hand) showSummary(data.view.last_hand);
  if (wasPaused && !ctx.pause && $("#overlay").dataset.kind === "summary") closeSummary();
  if (data.rematch && data.rematch.by !== ctx.me.name) offerRematch(data.rematch);
  render(slideFrom(events));
  const turnStarted = !wasMyTurn && isMyTurn();
  if (turnStarted) uncoverTheHand();
  if (!first) playSounds(events, turnStarted);
}

/** The player's turn begins: on a phone the side panel (a sheet over the hand) closes, the
 * chat's unsent words kept; the keyboard focus that was in it goes to the hand. */
function uncoverTheHand() {
  const side = $("#side");
  if (!side.classList.contains("open") || getComputedStyle(side).position !== "fixed") return;
  const hadFocus = side.contains(document.activeElement);
  closeSide();
  if (hadFocus) ($("#hand [data-legal=true]") ?? $("#hand")).focus({ preventScroll: true });
}

/** The side of the screen the tile just played comes from (null: nothing to slide in). */
function slideFrom(events) {
  let from = null;
  for (const e of events) {
    if (e.type === "step" && e.step.type === "play") from = ctx.places[e.step.seat] ?? null;
    if (e.type === "hand-end" && (ctx.pause || ctx.state.status === "finished")) {
      // the board shows the hand that ended during the pause: its last tile comes in
      const last = e.hand.table[e.hand.table.length - 1];
      from = last ? ctx.places[last.seat] ?? null : null;
    }
  }
  return from;
}

const SOUND_RANK = { pass: 1, draw: 2, play: 3, batida: 4 };

/** One sound for what a state brought (the loudest event), then "your turn" when it is. */
function playSounds(events, turnStarted) {
  let name = null;
  const consider = (candidate) => {
    if (candidate && (!name || SOUND_RANK[candidate] > SOUND_RANK[name])) name = candidate;
  };
  for (const e of events) {
    if (e.type === "step") consider({ play: "play", pass: "pass", draw: "draw" }[e.step.type]);
    if (e.type === "hand-end") {
      const kind = e.hand.end.kind;
      consider(kind === "batida" ? "batida" : kind === "fechado" ? "pass" : kind === "redeal" ? "draw" : null);
    }
  }
  if (name) ctx.sound.play(name);
  if (turnStarted) {
    if (name) setTimeout(() => ctx.sound.play("turn"), 220);
    else ctx.sound.play("turn");
  }
}

/**
 * The turn clock from the state's `clock`. A state that moves the turn to a person may come
 * without it (sent before the clock is armed): then count down from the move, with the turn
 * length seen last (20 s by default, 15 s for the cinco-carroças choice).
 */
function updateClock(prev, data) {
  const v = data.view;
  if (data.pause) {
    ctx.clock = null; // the next hand's clock starts after the pause
    return;
  }
  if (data.clock) {
    if (v && v.phase === "play") ctx.turnSeconds = data.clock.seconds;
    ctx.clock = {
      seat: data.clock.seat,
      seconds: data.clock.seconds,
      deadline: performance.now() + data.clock.remaining_ms,
    };
    return;
  }
  const person = v && v.turn !== null && data.players[v.turn] && !data.players[v.turn].bot;
  if (data.status !== "playing" || !person || (v.phase !== "play" && v.phase !== "choice")) {
    ctx.clock = null;
    return;
  }
  const moved = !prev || prev.version !== data.version;
  if (moved || !ctx.clock || ctx.clock.seat !== v.turn) {
    const seconds = v.phase === "choice" ? 15 : ctx.turnSeconds ?? 20;
    ctx.clock = { seat: v.turn, seconds, deadline: performance.now() + seconds * 1000 };
  }
}

// ---------------------------------------------------------------------- seats and names

function setupSeats() {
  const st = ctx.state;
  const n = st.players.length;
  ctx.places = seatPlaces(n, st.seat);
  ctx.names = st.players.map((p, i) => (i === st.seat ? "Você" : W.seatName(p, i)));
  app.dataset.seats = String(n);
  app.dataset.seat = st.seat === null ? "" : String(st.seat);
  app.dataset.ruleset = st.ruleset;
  app.dataset.mode = st.mode;
  app.classList.toggle("spectator", st.seat === null);
  $("#ruleset-name").textContent = W.rulesetName(st.ruleset);
  const opts = st.options || {};
  $("#target").textContent = opts.target
    ? `até ${opts.target}`
    : opts.hands_to_win
      ? `${opts.hands_to_win} mãos`
      : "";
  const labels = W.teamLabels(st);
  labels.forEach((label, team) => {
    $(`#score-label-${team}`).textContent = label;
    const mine = st.seat !== null && W.teamOf(st.seat, n) === team;
    $(`#score-box-${team}`).classList.toggle("score-us", mine);
    $(`#score-box-${team}`).classList.toggle("score-them", st.seat !== null && !mine);
  });
  // "Nós" first, whichever seat the player has (the boxes keep their team's ids).
  const ours = $(`#score-box-${myTeam()}`);
  if ($("#scores").firstElementChild !== ours) $("#scores").prepend(ours);
  for (const place of ["top", "left", "right"]) $(`#seat-${place}`).hidden = true;
  const chat = st.chat;
  $("#btn-chat").hidden = !chat;
  $("#tab-chat").hidden = !chat;
  $("#btn-draw").hidden = !W.DRAWS.has(st.ruleset) || st.seat === null;
  $("#btn-pass").hidden = st.seat === null;
  renderFacts();
  renderMutes();
}

/** The viewer's team (team 0 for a spectator): shown first in every score. */
function myTeam() {
  const st = ctx.state;
  return st && st.seat !== null ? W.teamOf(st.seat, st.players.length) : 0;
}

/**
 * "Nós 60 × 40 Eles" as a small scoreboard: each side's name over its points, the viewer's side
 * first as in the top bar, so that a name ending in digits never runs into the score.
 * `labels`, `first`: for a match seen without a table (its page after the end).
 */
function scoreBoard(score, attrs = {}, labels = null, first = null) {
  const st = ctx.state;
  const names = labels ?? W.teamLabels(st);
  const a = first ?? myTeam();
  const side = (team) =>
    h(
      "span",
      { class: `sb-side ${st ? sideOf(team) : ""}`, dataset: { team } },
      h("span", { class: "sb-name" }, names[team]),
      h("strong", { class: "sb-points" }, String(score[team])),
    );
  return h(
    "p",
    { ...attrs, class: `scoreboard ${attrs.class ?? ""}`.trim() },
    side(a),
    h("span", { class: "sb-x", "aria-hidden": "true" }, "×"),
    side(1 - a),
  );
}

function nameOf(seat) {
  return ctx.names[seat] ?? `Lugar ${seat + 1}`;
}

/** "Nós", "Eles" (2v2), or the player's name or "Você" (1v1), for the team that scored. */
function teamLabel(team) {
  return ctx.state.players.length === 2 ? nameOf(team) : W.teamLabels(ctx.state)[team];
}

// ---------------------------------------------------------------------- rendering

/** Draw everything from ctx.state; `from`: the side a tile just played slides in from. */
function render(from = null) {
  const st = ctx.state;
  const v = st.view;
  const myTurn = isMyTurn();
  app.dataset.status = st.status;
  app.dataset.version = String(st.version);
  app.dataset.myTurn = String(myTurn && !ctx.busy);
  app.dataset.busy = String(Boolean(ctx.busy));
  app.dataset.phase = v ? v.phase : "none";
  app.dataset.turn = v && v.turn !== null ? String(v.turn) : "";
  renderScores();
  renderSeatsLive();
  renderBoard(from);
  renderPlay();
  renderTableInfo();
  renderOverlay();
  renderFive();
  renderEnd();
  renderLog();
  tick();
}

function isMyTurn() {
  const st = ctx.state;
  const v = st && st.view;
  return Boolean(
    v && st.status === "playing" && st.seat !== null && v.turn === st.seat && v.legal.length > 0,
  );
}

function renderScores() {
  const v = ctx.state.view;
  const score = v ? v.score : [0, 0];
  score.forEach((points, team) => {
    const el = $(`#score-${team}`);
    if (el.textContent !== String(points)) {
      el.textContent = String(points);
      el.classList.remove("bump");
      void el.offsetWidth;
      el.classList.add("bump");
    }
    $(`#score-box-${team}`).setAttribute("aria-label", `${teamLabel(team)}: ${points} pontos`);
  });
}

function renderSeatsLive() {
  const st = ctx.state;
  const v = st.view;
  const n = st.players.length;
  for (let seat = 0; seat < n; seat++) {
    const place = ctx.places[seat];
    const el = $(`#seat-${place}`);
    if (!el) continue;
    el.hidden = false;
    const player = st.players[seat];
    const left = ctx.pause && v && v.last_hand ? v.last_hand.hands_left : null;
    const count = left ? left[seat].length : v && v.hand_sizes.length ? v.hand_sizes[seat] : null;
    const turn = Boolean(v && v.turn === seat && st.status === "playing" && !ctx.pause);
    const team = W.teamOf(seat, n);
    const mine = st.seat !== null && W.teamOf(st.seat, n) === team;
    el.dataset.seat = String(seat);
    el.dataset.turn = String(turn);
    el.classList.toggle("team-us", st.seat !== null && mine);
    el.classList.toggle("team-them", st.seat !== null && !mine);
    el.classList.toggle("offline", Boolean(player && !player.connected));
    const isMe = place === "bottom" && st.seat !== null;
    const name = isMe ? "Você" : nameOf(seat);
    const parts = seatParts(el, seat);
    const badges = [];
    if (player && player.bot) badges.push(["badge", "bot"]);
    if (player && !player.connected) badges.push(["badge badge-warn", "fora"]);
    if (n === 4 && st.seat !== null && seat === (st.seat + 2) % 4) {
      badges.push(["badge badge-partner", "parceiro"]);
    }
    const pieces = count === null ? "" : `${count} ${count === 1 ? "pedra" : "pedras"}`;
    const label = `${name}${badges.length ? ` (${badges.map((b) => b[1]).join(", ")})` : ""}` +
      `${pieces ? `, ${pieces}` : ""}${turn ? ", na vez" : ""}`;
    // Only what changed is touched: the bubble and the focus live across updates.
    parts.card.setAttribute("aria-label", label);
    if (parts.name.textContent !== name) parts.name.textContent = name;
    const face = player ? (isMe ? ctx.me.name : nameOf(seat)) : "";
    if (parts.avatar.dataset.face !== face) {
      parts.avatar.dataset.face = face;
      fill(parts.avatar, face ? avatarSVG(face) : "?");
    }
    const badgeKey = badges.map((b) => b[1]).join(",");
    if (parts.badges.dataset.key !== badgeKey) {
      parts.badges.dataset.key = badgeKey;
      fill(parts.badges, ...badges.map(([cls, text]) => h("span", { class: cls }, text)));
      parts.badges.hidden = !badges.length;
    }
    parts.count.hidden = isMe || !pieces;
    if (parts.count.textContent !== pieces) parts.count.textContent = pieces;
    const backs = isMe || !count ? 0 : Math.min(count, 10);
    if (parts.backs.childElementCount !== backs) {
      const horizontal = place === "left" || place === "right";
      fill(parts.backs, ...Array.from({ length: backs }, () => backSVG({ horizontal })));
    }
    parts.backs.hidden = isMe;
    if (ctx.bubbles.has(seat)) showBubble(seat);
  }
}

/** A seat's elements, made once (again only when the seat shown there changes). */
function seatParts(el, seat) {
  if (el.seatParts && el.seatParts.seat === seat) return el.seatParts;
  const parts = {
    seat,
    card: h("div", { class: "seat-card", role: "group" }),
    avatar: h("div", { class: "avatar", "aria-hidden": "true" }),
    name: h("span", { class: "seat-name" }),
    badges: h("span", { class: "seat-badges" }),
    count: h("span", { class: "seat-count" }),
    bubble: h("span", { class: "bubble", id: `bubble-${seat}`, "aria-hidden": "true" }),
    backs: h("div", { class: "backs", "aria-hidden": "true" }),
  };
  parts.card.append(
    parts.avatar,
    h("div", { class: "seat-text" }, parts.name, parts.badges, parts.count),
    parts.bubble,
  );
  el.replaceChildren(parts.card, parts.backs);
  el.seatParts = parts;
  return parts;
}

function legalByTile() {
  const v = ctx.state.view;
  const map = new Map();
  if (!v || !isMyTurn()) return map;
  for (const action of v.legal) {
    if (action === "pass" || action === "draw" || action.startsWith("five-doubles")) continue;
    const [tile, end] = action.split(":");
    if (!map.has(tile)) map.set(tile, []);
    map.get(tile).push(end ?? null);
  }
  return map;
}

function renderBoard(from = null) {
  const st = ctx.state;
  const v = st.view;
  // During the pause between hands, and once the match is over, the table of the hand that
  // ended stays in view.
  const paused = Boolean((ctx.pause || st.status === "finished") && v && v.last_hand);
  const plays = paused ? v.last_hand.table : v ? v.table : [];
  const spinner = W.SPINNER.has(st.ruleset);
  let choice = null;
  if (ctx.selected) {
    const ends = legalByTile().get(ctx.selected) || [];
    choice = { tile: ctx.selected, ends: ends.filter(Boolean), onChoose: chooseEnd };
  }
  ctx.board.render({ plays, spinner, choice, animate: from !== null, from });
  const ends = v && !paused ? v.ends : {};
  const endText = Object.entries(ends)
    .map(([end, value]) => `${W.END_NAMES[end]} ${value}`)
    .join(", ");
  ctx.board.svg.setAttribute(
    "aria-label",
    paused
      ? `Mesa da mão que terminou, com ${plays.length} ${plays.length === 1 ? "pedra" : "pedras"}`
      : plays.length
        ? `Mesa com ${plays.length} ${plays.length === 1 ? "pedra" : "pedras"}; pontas abertas: ${endText}`
        : "Mesa vazia",
  );
  const empty = $("#board-empty");
  if (!plays.length && st.status === "playing" && v && v.phase !== "over") {
    empty.hidden = false;
    empty.textContent =
      v.phase === "choice"
        ? "Cinco carroças na mão de alguém: esperando a escolha."
        : v.turn === st.seat
          ? "A saída é sua!"
          : `Saída de ${nameOf(v.turn)}.`;
  } else {
    empty.hidden = true;
  }
}

function renderPlay() {
  const st = ctx.state;
  const v = st.view;
  const hand = $("#hand");
  const myTurn = isMyTurn();
  const legal = legalByTile();
  const busy = Boolean(ctx.busy);
  app.dataset.myTurn = String(myTurn && !busy);
  app.dataset.busy = String(busy);
  // The tiles are updated in place, never rebuilt: a tile that has the keyboard focus keeps it,
  // and when it leaves the hand (played) the focus goes to the nearest tile.
  const old = [...hand.querySelectorAll("[data-tile]")];
  const byTile = new Map(old.map((b) => [b.dataset.tile, b]));
  const active = document.activeElement;
  const focusedAt = old.indexOf(active);
  // During the pause between hands the next deal is not shown yet (the board and the summary
  // are still the hand that ended).
  const tiles = v && st.seat !== null && !ctx.pause ? v.hand : [];
  const buttons = tiles.map((tile) => {
    const fits = myTurn && legal.has(tile);
    const locked = busy || (ctx.selected !== null && ctx.selected !== tile);
    const classes = ["hand-tile"];
    if (fits && !locked) classes.push("lit");
    if (myTurn && !fits) classes.push("dim");
    if (ctx.selected === tile) classes.push("selected");
    let btn = byTile.get(tile);
    if (!btn) {
      if (old.length) classes.push("drawn");
      btn = h(
        "button",
        { type: "button", dataset: { tile }, "aria-label": W.tileName(tile), onclick: () => onTile(tile) },
        tileSVG(tile),
      );
    } else if (btn.classList.contains("drawn")) {
      classes.push("drawn");
    }
    btn.className = classes.join(" ");
    btn.dataset.legal = String(fits);
    btn.setAttribute("aria-disabled", String(!fits || locked));
    return btn;
  });
  const keep = new Set(buttons);
  for (const b of old) if (!keep.has(b)) b.remove();
  buttons.forEach((b, i) => {
    if (hand.children[i] !== b) hand.insertBefore(b, hand.children[i] ?? null);
  });
  const lost = !document.activeElement || document.activeElement === document.body;
  if (focusedAt >= 0 && active.isConnected) {
    if (document.activeElement !== active) active.focus({ preventScroll: true });
  } else if (lost && (focusedAt >= 0 || ctx.refocus !== null)) {
    const at = focusedAt >= 0 ? focusedAt : ctx.refocus;
    (buttons[Math.min(at, buttons.length - 1)] ?? hand).focus({ preventScroll: true });
  }
  ctx.refocus = null;
  hand.classList.toggle("my-turn", myTurn);

  $(".actions").hidden = st.status !== "playing" || st.seat === null;
  const pass = $("#btn-pass");
  const canPass = myTurn && !busy && v.legal.length === 1 && v.legal[0] === "pass";
  pass.setAttribute("aria-disabled", String(!canPass));
  pass.dataset.legal = String(canPass);
  pass.classList.toggle("lit", canPass);

  const draw = $("#btn-draw");
  const canDraw = myTurn && !busy && v.legal.includes("draw");
  draw.setAttribute("aria-disabled", String(!canDraw));
  draw.dataset.legal = String(canDraw);
  draw.classList.toggle("lit", canDraw);
  const left = v ? v.boneyard : 0;
  fill(draw, "Comprar", h("span", { class: "btn-count" }, String(left)));
  draw.setAttribute("aria-label", `Comprar do monte (${left} ${left === 1 ? "pedra" : "pedras"})`);

  renderTurnMessage();
}

function renderTurnMessage() {
  const el = $("#turn-msg");
  if (ctx.hintTimer) return; // a hint is showing
  el.classList.remove("hint");
  el.textContent = turnMessage();
}

function turnMessage() {
  const st = ctx.state;
  const v = st.view;
  if (st.status === "waiting") return "Esperando jogadores…";
  if (st.status === "finished") return "Partida encerrada.";
  if (st.status === "expired") return "Mesa encerrada: ninguém completou a mesa a tempo.";
  if (!v) return "";
  if (ctx.pause) return "Fim da mão. A próxima começa em instantes…";
  if (st.seat === null) return v.turn !== null ? `Vez de ${nameOf(v.turn)}. Você está assistindo.` : "Você está assistindo.";
  if (ctx.busy) return "Jogada enviada…";
  if (isMyTurn()) {
    if (v.phase === "choice") return "Cinco carroças! Escolha: pontos ou embaralhar.";
    if (ctx.selected) return "Escolha a ponta: toque num dos lugares acesos na mesa.";
    if (v.legal.length === 1 && v.legal[0] === "pass") return "Nenhuma pedra encaixa: toque em Passo.";
    if (v.legal.includes("draw")) return "Nenhuma pedra encaixa: compre do monte.";
    if (!v.table.length) return "Sua vez: faça a saída!";
    return "Sua vez! Toque numa pedra acesa.";
  }
  if (v.turn === null) return "";
  const player = st.players[v.turn];
  return player && player.bot ? `${nameOf(v.turn)} está pensando…` : `Vez de ${nameOf(v.turn)}.`;
}

function hint(text) {
  const el = $("#turn-msg");
  clearTimeout(ctx.hintTimer);
  el.textContent = text;
  el.classList.add("hint");
  ctx.hintTimer = setTimeout(() => {
    ctx.hintTimer = null;
    if (ctx.state) renderTurnMessage();
  }, 2600);
}

/** Rulesets where the table count scores (rules.md §1). */
const COUNTING = new Set(["duplas-pontos", "pontos"]);

/**
 * The open ends as the "Pontas" chip lists them: where the count scores, only the ends that
 * count (an arm of the spinner without a tile yet does not) and a double at an end twice, so
 * that they add up to the "Mesa" count beside them.
 */
function shownEnds(v, counting) {
  const plays = v.table;
  const out = [];
  for (const [end, value] of Object.entries(v.ends)) {
    if (!counting) {
      out.push({ end, value, double: false });
      continue;
    }
    let exposed = null;
    for (let i = plays.length - 1; i > 0 && exposed === null; i--) {
      if (plays[i].end === end) exposed = plays[i].tile;
    }
    if (exposed === null && (end === "left" || end === "right")) exposed = plays[0].tile;
    if (exposed === null) continue; // the spinner's up or down, still empty
    const [a, b] = exposed.split("-");
    out.push({ end, value, double: plays.length > 1 && a === b });
  }
  return out;
}

function renderTableInfo() {
  const st = ctx.state;
  const v = st.view;
  const parts = [];
  if (v && v.phase !== "over" && v.table.length) {
    if (COUNTING.has(st.ruleset)) {
      const count = v.table_count;
      const scores = count > 0 && count % 5 === 0;
      parts.push(
        h(
          "span",
          { class: `chip ${scores ? "chip-hot" : ""}`, title: "Soma das pontas" },
          "Mesa ",
          h("strong", {}, String(count)),
        ),
      );
    }
    const ends = shownEnds(v, COUNTING.has(st.ruleset));
    if (ends.length) {
      const values = ends.flatMap((e, i) => [
        i ? " · " : "",
        e.double ? h("span", { class: "end-double", title: "Carroça na ponta: conta dobrado" }, `${e.value}+${e.value}`) : String(e.value),
      ]);
      parts.push(h("span", { class: "chip", title: "Pontas abertas" }, "Pontas ", h("strong", {}, ...values)));
    }
  }
  if (v && W.DRAWS.has(st.ruleset) && v.phase !== "over") {
    parts.push(h("span", { class: "chip", title: "Pedras no monte (dorme)" }, "Monte ", h("strong", {}, String(v.boneyard))));
  }
  fill($("#table-info"), ...parts);
}

// ---------------------------------------------------------------------- playing

function onTile(tile) {
  const st = ctx.state;
  if (!st) return;
  if (ctx.selected) {
    if (tile !== ctx.selected) hint("Pedra tocada é pedra jogada: escolha a ponta na mesa.");
    return;
  }
  if (st.status !== "playing" || st.seat === null) return;
  if (!isMyTurn()) {
    hint(`Espere a sua vez: agora é a vez de ${nameOf(st.view.turn)}.`);
    return;
  }
  if (ctx.busy) return;
  const ends = legalByTile().get(tile);
  if (!ends) {
    const v = st.view;
    hint(
      v.phase === "choice"
        ? "Primeiro escolha: pontos ou embaralhar."
        : "Essa pedra não encaixa em nenhuma ponta.",
    );
    const btn = $(`#hand [data-tile="${tile}"]`);
    if (btn) {
      btn.classList.remove("shake");
      void btn.offsetWidth;
      btn.classList.add("shake");
    }
    return;
  }
  closeSummary();
  if (ends.length === 1) {
    send(ends[0] ? `${tile}:${ends[0]}` : tile);
    return;
  }
  ctx.selected = tile;
  renderBoard();
  renderPlay();
  const ghost = ctx.board.firstGhost();
  if (ghost) ghost.focus({ preventScroll: true });
}

function chooseEnd(end) {
  const tile = ctx.selected;
  if (!tile) return;
  // Played from a lit place with the keyboard: the focus returns to the hand afterwards.
  if (ctx.board.svg.contains(document.activeElement)) ctx.refocus = ctx.state.view.hand.indexOf(tile);
  send(`${tile}:${end}`);
}

function nextMoveId() {
  // Ids only grow for a seat, across reloads and devices: seconds since 2024, or one more than
  // the last id this browser used at this table.
  const key = `carroca:move:${ctx.matchId}`;
  let last = -1;
  try {
    last = Number(localStorage.getItem(key) ?? -1);
  } catch {
    last = ctx.lastMoveId ?? -1;
  }
  const base = Math.floor((Date.now() - Date.UTC(2024, 0, 1)) / 1000);
  const id = Math.max(last + 1, (ctx.lastMoveId ?? -1) + 1, base);
  ctx.lastMoveId = id;
  try {
    localStorage.setItem(key, String(id));
  } catch {
    /* private mode */
  }
  return id;
}

function send(action) {
  const st = ctx.state;
  if (ctx.busy || !st) return;
  const id = nextMoveId();
  if (!ctx.socket.send("move", { id, action })) {
    notify("Sem conexão: a jogada não foi enviada. Reconectando…", "error");
    return;
  }
  ctx.busy = { id, version: st.version };
  ctx.selected = null;
  renderBoard();
  renderPlay();
}

// ---------------------------------------------------------------------- events

function handleEvents(events) {
  const st = ctx.state;
  const scored = (reason) => events.find((e) => e.type === "score" && e.reason === reason);
  const to = (team) => (teamLabel(team) === "Você" ? "você" : teamLabel(team));
  const gain = (e) => (e ? ` · +${e.points} para ${to(e.team)}` : "");
  for (const ev of events) {
    if (ev.type === "step") {
      const { step } = ev;
      if (step.type === "pass") {
        bubble(step.seat, "Passo");
        const who = step.seat === st.seat ? "Você passou" : `${nameOf(step.seat)} passou`;
        const opening = ev.index === 0 && st.ruleset === "duplas-pontos";
        const points = scored(opening ? "saida-passada" : "passe");
        banner(opening ? "Saída passada" : "Passe!", who + gain(points), "pass", points?.team);
      } else if (step.type === "draw") {
        bubble(step.seat, "Comprou");
      } else if (step.type === "five-doubles") {
        banner("Cinco carroças!", step.choice === "redeal" ? "Embaralhar de novo" : "Ficou com os pontos", "big");
      }
    } else if (ev.type === "galo") {
      const who = ev.seat === st.seat ? "Você joga de novo" : `${nameOf(ev.seat)} joga de novo`;
      const points = scored("galo");
      banner("Galo!", who + gain(points), "big", points?.team ?? W.teamOf(ev.seat, st.players.length));
    } else if (ev.type === "score") {
      ctx.live.push(ev);
      // passe, saída passada and galo points are announced with their pass
      if (ev.reason === "mesa") {
        banner(`+${ev.points}`, `pontos na mesa para ${to(ev.team)}`, "points", ev.team);
      }
    } else if (ev.type === "hand-end") {
      rememberHand(ev.hand);
      ctx.live = [];
      // What decided the hand opens its summary (or the end dialog) at once: no banner then,
      // and none of the hand's announcements still showing.
      clearBanner();
      const names = st.players.map((_, i) => nameOf(i));
      const end = ev.hand.end;
      announce(W.handEndTitle(end, names, st.ruleset), end.kind === "fechado" ? "Ninguém mais tem jogo" : "");
      if (st.status !== "finished") showSummary(ev.hand);
    } else if (ev.type === "match-end") {
      clearBanner();
      if (ev.result.pneu) announce("Pneu!", W.zeroText(teamLabel(1 - ev.result.winner)));
    }
  }
}

function rememberHand(hand) {
  ctx.hands.set(
    hand.deal_index,
    hand.events.map((e) => ({ team: e.team, points: e.points, reason: e.reason })),
  );
}

/** "Passo", "Comprou" or a chat line by a seat, for BUBBLE_MS whatever updates come. */
function bubble(seat, text) {
  const old = ctx.bubbles.get(seat);
  if (old) clearTimeout(old.timer);
  ctx.bubbles.set(seat, { text, timer: setTimeout(() => hideBubble(seat), BUBBLE_MS) });
  const el = document.getElementById(`bubble-${seat}`);
  if (el) el.classList.remove("on"); // shown again below: a new line pops in again
  showBubble(seat);
}

function showBubble(seat) {
  const el = document.getElementById(`bubble-${seat}`);
  const said = ctx.bubbles.get(seat);
  if (!el || !said) return;
  if (el.textContent !== said.text) el.textContent = said.text;
  el.classList.add("on");
}

function hideBubble(seat) {
  ctx.bubbles.delete(seat);
  const el = document.getElementById(`bubble-${seat}`);
  if (el) el.classList.remove("on");
}

/** Every announcement goes to a list that screen readers read (banners fade away). */
function announce(title, sub = "") {
  const log = $("#announcements");
  log.append(h("li", {}, sub ? `${title} ${sub}` : title));
  while (log.children.length > 30) log.firstElementChild.remove();
}

// A banner shows when its news comes, or not at all: a late one would tell of a table that has
// moved on. A weightier one ("Galo!") is not replaced by a lighter one ("+5") for a moment.
const BANNER_RANK = { big: 3, pass: 2, points: 1, info: 1 };
const BANNER_MS = { big: 2000, pass: 1600, points: 1200, info: 1600 };
const BANNER_HOLD_MS = 800;

/** `team`: whose news it is (its colour; none for everyone's news or a spectator). */
function banner(title, sub = "", kind = "info", team = null) {
  announce(title, sub);
  const st = ctx.state;
  // Nothing shows behind the hand's summary or at the end of the match: they tell it.
  if ($("#overlay").dataset.kind === "summary" || (st && st.status === "finished")) return;
  const rank = BANNER_RANK[kind] ?? 1;
  const now = performance.now();
  const current = ctx.banner;
  if (current && rank < current.rank && now - current.since < BANNER_HOLD_MS) return;
  clearBanner();
  const side = team === null || team === undefined || !st || st.seat === null
    ? ""
    : isUs(team) ? " team-us" : " team-them";
  const el = h(
    "div",
    { class: `banner banner-${kind}${side}`, "data-testid": "banner" },
    h("strong", {}, title),
    sub ? h("span", {}, sub) : null,
  );
  $("#banner-host").replaceChildren(el);
  const shown = { el, rank, since: now, timer: null };
  shown.timer = setTimeout(() => {
    el.classList.add("banner-out");
    shown.timer = setTimeout(() => {
      el.remove();
      if (ctx.banner === shown) ctx.banner = null;
    }, 220);
  }, BANNER_MS[kind] ?? 1600);
  ctx.banner = shown;
}

function clearBanner() {
  if (ctx.banner) clearTimeout(ctx.banner.timer);
  ctx.banner = null;
  $("#banner-host").replaceChildren();
}

// ---------------------------------------------------------------------- overlays

function renderOverlay() {
  const st = ctx.state;
  const overlay = $("#overlay");
  if (st.status === "waiting") {
    overlay.hidden = false;
    overlay.dataset.kind = "waiting";
    fill(overlay, waitingCard());
    return;
  }
  if (st.status === "expired") {
    // A friends' table nobody completed in time: the server closed it.
    overlay.hidden = false;
    overlay.dataset.kind = "expired";
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
    for (const el of [...$("#notice-list").children]) {
      if (!el.classList.contains("notice-error")) {
        clearTimeout(el.timer);
        el.remove();
      }
    }
  }
}

function waitingCard() {
  const st = ctx.state;
  const seats = st.players.map((p, i) =>
    h(
      "li",
      { class: p ? "filled" : "open" },
      h("span", { class: "avatar small", "aria-hidden": "true" }, p ? avatarSVG(W.seatName(p, i)) : "?"),
      p ? (i === st.seat ? "Você" : W.seatName(p, i)) : "Lugar vago",
    ),
  );
  const parts = [
    h("h2", {}, "Esperando jogadores"),
    h("ul", { class: "waiting-seats" }, ...seats),
  ];
  if (st.invite) {
    const link = `${location.origin}/?convite=${encodeURIComponent(st.invite)}`;
    parts.push(
      h("p", {}, "Mande este convite para quem vai jogar com você:"),
      h(
        "div",
        { class: "invite" },
        h("input", {
          readonly: true,
          value: link,
          "aria-label": "Link do convite",
          "data-testid": "invite-link",
          onfocus: (ev) => ev.target.select(),
        }),
        h(
          "button",
          {
            class: "btn btn-primary",
            type: "button",
            // Said by the button itself, in the waiting room: no notice left over the seats
            // when the game starts.
            onclick: async () => {
              const said = $("#invite-copied");
              said.textContent = (await copyText(link)) ? "Convite copiado!" : "Copie o link do campo.";
              clearTimeout(ctx.copiedTimer);
              ctx.copiedTimer = setTimeout(() => {
                if (said.isConnected) said.textContent = "";
              }, NOTICE_MS);
            },
          },
          "Copiar",
        ),
        h(
          "a",
          {
            class: "btn btn-secondary",
            href: `https://wa.me/?text=${encodeURIComponent(`Bora jogar dominó? Senta na minha mesa: ${link}`)}`,
            target: "_blank",
            rel: "noopener",
          },
          "WhatsApp",
        ),
        navigator.share
          ? h(
              "button",
              {
                class: "btn btn-secondary",
                type: "button",
                onclick: () => navigator.share({ title: "Bora jogar dominó?", url: link }).catch(() => {}),
              },
              "Compartilhar",
            )
          : null,
      ),
      h("p", { class: "invite-copied", id: "invite-copied", role: "status", "data-testid": "copied" }),
    );
  } else if (st.mode === "casual") {
    parts.push(h("p", { class: "muted" }, "Se ninguém chegar em alguns segundos, bots completam a mesa."));
  }
  return h("div", { class: "overlay-card waiting-card" }, ...parts);
}

/** Seats in the order a hand's summary lists them: the viewer, the partner, then the
 * opponents (a spectator: the first team, then the second). */
function summaryOrder(n) {
  const st = ctx.state;
  const me = st.seat ?? 0;
  if (n === 2) return [me, 1 - me];
  return st.seat === null ? [0, 2, 1, 3] : [me, (me + 2) % 4, (me + 1) % 4, (me + 3) % 4];
}

/** "team-us" or "team-them" for a team (nothing for a spectator, who has no side). */
function sideOf(team) {
  if (ctx.state.seat === null) return "";
  return isUs(team) ? "team-us" : "team-them";
}

function revealedHands(hand) {
  const n = ctx.state.players.length;
  const rows = summaryOrder(n).map((seat) => {
    const tiles = hand.hands_left[seat] ?? [];
    return h(
      "li",
      { class: `revealed-seat ${sideOf(W.teamOf(seat, n))}`, dataset: { seat } },
      h("span", { class: "revealed-name" }, nameOf(seat)),
      h(
        "span",
        { class: "revealed-tiles", role: "img", "aria-label": tiles.length ? tiles.map(W.tileName).join(", ") : "sem pedras" },
        ...(tiles.length ? tiles.map((t) => tileSVG(t)) : [h("em", {}, "bateu")]),
      ),
      h("span", { class: "revealed-sum", title: "Pontos na mão" }, String(W.pipsOf(tiles))),
    );
  });
  return h("ol", { class: "revealed" }, ...rows);
}

/**
 * The points of a hand, one block per team ("Nós" first) with its total, and in it the points
 * added up per reason: "Nós +60 — passe (3×) +60".
 */
function handPoints(hand) {
  const first = myTeam();
  const blocks = [first, 1 - first].map((team) => {
    const totals = new Map();
    let total = 0;
    for (const e of hand.events) {
      if (e.team !== team) continue;
      const sum = totals.get(e.reason) ?? { reason: e.reason, points: 0, times: 0 };
      sum.points += e.points;
      sum.times += 1;
      totals.set(e.reason, sum);
      total += e.points;
    }
    return h(
      "section",
      { class: `team-points ${sideOf(team)}`, dataset: { team }, "data-testid": "team-points" },
      h(
        "h3",
        { class: "team-points-head" },
        h("span", { class: "team-points-name" }, teamLabel(team)),
        h("strong", { class: "team-points-total" }, `+${total}`),
      ),
      totals.size
        ? h(
            "ul",
            { class: "hand-events" },
            ...[...totals.values()].map((e) =>
              h(
                "li",
                {},
                h("span", {}, `${W.reasonName(e.reason)}${e.times > 1 ? ` (${e.times}×)` : ""}`),
                h("strong", {}, `+${e.points}`),
              ),
            ),
          )
        : h("p", { class: "team-points-none" }, "Nenhum ponto nesta mão."),
    );
  });
  return h("div", { class: "hand-points" }, ...blocks);
}

/**
 * What decided a hand, as its summary and the end dialog open with it: "Juca bateu!" and the
 * tile of the batida, or "Jogo fechado!" and why, in the colour of the team it went to.
 */
function decisive(hand, tag = "h2") {
  const st = ctx.state;
  const names = st.players.map((_, i) => nameOf(i));
  const end = hand.end;
  const last = hand.table[hand.table.length - 1];
  let detail = null;
  if (end.kind === "batida" && last) {
    detail = h(
      "p",
      { class: "decisive-play" },
      tileSVG(last.tile, { horizontal: true }),
      h("span", {}, `com a ${W.tileName(last.tile).toLowerCase()}`),
    );
  } else if (end.kind === "fechado") {
    detail = h("p", { class: "decisive-play" }, "Ninguém mais tem jogo");
  }
  const winner = end.winner ?? null;
  const side = winner === null || st.seat === null ? "" : isUs(winner) ? " team-us" : " team-them";
  return h(
    "div",
    { class: `decisive${side}`, "data-testid": "hand-decisive" },
    h(tag, { class: "decisive-title" }, W.handEndTitle(end, names, st.ruleset)),
    detail,
  );
}

function showSummary(hand) {
  const st = ctx.state;
  const overlay = $("#overlay");
  clearBanner();
  overlay.hidden = false;
  overlay.dataset.kind = "summary";
  fill(
    overlay,
    h(
      "div",
      { class: "overlay-card summary-card", "data-testid": "hand-summary" },
      decisive(hand),
      h("div", { class: "summary-hands" }, revealedHands(hand)),
      h("div", { class: "summary-points" }, handPoints(hand)),
      h(
        "div",
        { class: "summary-foot" },
        scoreBoard(hand.score, { class: "summary-score", "data-testid": "summary-score" }),
        ctx.pause
          ? h("p", { class: "summary-next", id: "summary-next", "data-testid": "next-hand" }, nextHandText())
          : null,
        h("button", { class: "btn btn-primary", type: "button", onclick: closeSummary }, "Continuar"),
      ),
    ),
  );
  clearTimeout(ctx.summaryTimer);
  // During the server's pause the summary stays until the next hand starts; without one, a while.
  if (!ctx.pause) ctx.summaryTimer = setTimeout(closeSummary, 12000);
}

function nextHandText() {
  const left = ctx.pause ? Math.max(0, ctx.pause.deadline - performance.now()) : 0;
  const secs = Math.ceil(left / 1000);
  return secs > 0 ? `Próxima mão em ${secs} s` : "Próxima mão começando…";
}

function closeSummary() {
  const overlay = $("#overlay");
  clearTimeout(ctx.summaryTimer);
  if (overlay.dataset.kind === "summary") {
    overlay.hidden = true;
    overlay.dataset.kind = "";
    overlay.replaceChildren();
  }
}

function renderFive() {
  const st = ctx.state;
  const v = st.view;
  const dialog = $("#five-dialog");
  const open = isMyTurn() && v.phase === "choice" && v.legal.some((a) => a.startsWith("five-doubles"));
  if (!open) {
    if (dialog.open) dialog.close();
    return;
  }
  const doubles = v.hand.filter((t) => {
    const [a, b] = t.split("-");
    return a === b;
  });
  $("#five-text").textContent =
    `Você recebeu ${doubles.length} carroças. Fica com ${doubles.length * 10} pontos ` +
    `para ${st.players.length === 4 ? "a sua dupla" : "você"} ou embaralha tudo de novo?`;
  fill($("#five-tiles"), ...doubles.map((t) => tileSVG(t)));
  $("#five-points").textContent = `Ficar com os pontos (+${doubles.length * 10})`;
  $("#five-points").disabled = Boolean(ctx.busy);
  $("#five-redeal").disabled = Boolean(ctx.busy);
  if (!dialog.open) dialog.showModal();
}

/** The event of a tournament's table: its client seed is "<event id>:round.table.game". */
function tourneyOf(st) {
  return st && st.mode === "tournament" && st.client_seed ? st.client_seed.split(":")[0] : null;
}

/** A `tournament` frame: this player's next match of the event started (one tap takes them
 * there: the end of this match stays readable), or the event is over. */
function onTourney(data) {
  if (data.match && data.match !== ctx.matchId) ctx.tourneyNext = data;
  if (data.status === "finished") ctx.tourneyOver = data;
  renderTourneyNext();
  if (ctx.tourneyNext && !$("#end-dialog").open) toast("Sua partida do torneio começou.", "ok");
}

function renderTourneyNext() {
  const host = $("#end-body");
  if (!host) return;
  const old = $("#tourney-next");
  if (old) old.remove();
  const next = ctx.tourneyNext;
  const over = ctx.tourneyOver;
  if (!next && !over) return;
  const box = next
    ? h(
        "div",
        { class: "notice notice-invite", id: "tourney-next", role: "status" },
        h("strong", {}, "Sua partida do torneio começou"),
        h("a", { class: "btn btn-primary", href: `mesa.html?id=${encodeURIComponent(next.match)}` }, "Ir para a mesa"),
      )
    : h(
        "div",
        { class: "notice", id: "tourney-next", role: "status" },
        h("strong", {}, "O torneio terminou"),
        h("a", { class: "btn btn-primary", href: `torneio.html?id=${encodeURIComponent(over.event)}` }, "Ver o pódio"),
      );
  host.prepend(box);
}

function endLinks() {
  const id = encodeURIComponent(ctx.matchId);
  const st = ctx.state;
  // A rematch (same ruleset, options and seats) for who played at a casual or friends' table.
  const rematch = Boolean(st && st.seat !== null && (st.mode === "casual" || st.mode === "friends"));
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
    tourneyOf(st)
      ? h("a", { class: "btn btn-secondary", id: "btn-tourney", href: `torneio.html?id=${encodeURIComponent(tourneyOf(st))}` }, "Voltar ao torneio")
      : null,
  );
}

/** Another match with the same settings: the server makes it, or seats us at the one made. */
async function askRematch(ev) {
  const btn = ev.currentTarget;
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
      fill(host, h("p", { class: "rematch-error", role: "alert" }, e.message));
    }
    if (e.code === "rematch_closed") btn.replaceWith(h("a", { class: "btn btn-primary", href: "/" }, "Jogar de novo"));
  }
}

/** Another player asked for a rematch: the end screen offers it. */
function offerRematch(offer) {
  if (ctx.rematch && ctx.rematch.id === offer.id) return;
  ctx.rematch = offer;
  renderRematchOffer();
}

function renderRematchOffer() {
  const host = $("#rematch-offer");
  if (!host || !ctx.rematch) return;
  host.hidden = false;
  fill(host, h("p", {}, h("strong", {}, ctx.rematch.by), " chamou para a revanche: mesma regra, mesmos lugares."));
  const btn = $("#btn-rematch");
  if (btn && !btn.disabled) btn.textContent = "Aceitar a revanche";
}

function renderEnd() {
  const st = ctx.state;
  const v = st.view;
  if (st.status !== "finished" || !v || !v.result || ctx.shownEnd) return;
  ctx.shownEnd = true;
  closeSummary();
  clearBanner();
  const n = st.players.length;
  const result = v.result;
  const labels = W.teamLabels(st);
  const mine = st.seat !== null ? W.teamOf(st.seat, n) : null;
  const won = mine !== null && result.winner === mine;
  let title;
  if (mine === null) title = `Vitória de ${labels[result.winner]}`;
  else if (won) title = n === 4 ? "Vocês venceram!" : "Você venceu!";
  else title = n === 4 ? "Vitória deles" : `Vitória de ${labels[result.winner]}`;
  // The winners are celebrated (for who won, or watched them win); with reduced motion the
  // celebration keeps still.
  const celebrate = won || mine === null;
  const body = [
    celebrate ? celebration() : null,
    h("p", { class: "end-kicker" }, W.rulesetName(st.ruleset)),
    h("h2", { id: "end-title", class: won ? "win" : "", tabindex: -1, autofocus: true }, title),
    winners(result.winner),
    scoreBoard(result.score, { class: "end-score", "data-testid": "final-score" }),
  ];
  // The play that decided the match: the last hand's batida, closed game or abandonment.
  if (v.last_hand) body.push(decisive(v.last_hand, "p"));
  if (result.pneu) body.push(h("p", { class: "end-pneu" }, `Pneu! ${W.zeroText(labels[1 - result.winner])}.`));
  if (result.reason === "abandon" && v.last_hand?.end.kind !== "abandon") {
    body.push(h("p", { class: "muted" }, "A partida terminou por abandono."));
  }
  if (st.rating && st.rating.before !== null && st.rating.after !== null) {
    const change = st.rating.after - st.rating.before;
    body.push(
      h(
        "p",
        { class: "end-rating", "data-testid": "rating-change" },
        "Ranking: ",
        h("strong", {}, dec(st.rating.before)),
        " → ",
        h("strong", {}, dec(st.rating.after)),
        h("span", { class: change >= 0 ? "up" : "down" }, ` (${signed(change)})`),
      ),
    );
  } else if (st.mode !== "ranked") {
    body.push(h("p", { class: "muted" }, "Partida sem ranking: só as ranqueadas mudam a sua pontuação."));
  }
  if (v.last_hand) {
    body.push(
      h(
        "details",
        { class: "end-last" },
        h("summary", {}, "Última mão: as pedras e os pontos"),
        revealedHands(v.last_hand),
        handPoints(v.last_hand),
      ),
    );
  }
  body.push(h("div", { class: "rematch-offer", id: "rematch-offer", "aria-live": "polite", hidden: true }));
  if (st.mode === "friends") body.push(h("div", { id: "end-privacy" }));
  body.push(endLinks());
  fill($("#end-body"), ...body);
  renderRematchOffer();
  renderPrivacy();
  renderTourneyNext();
  const dialog = $("#end-dialog");
  // A moment for the last tile to land on the table, then the end.
  setTimeout(() => {
    if (dialog.open) return;
    dialog.showModal();
    if (won) ctx.sound.play("vitoria");
  }, 900);
}

/** The winning side: a face and a name for each winner ("Você" among them). */
function winners(team) {
  const st = ctx.state;
  const n = st.players.length;
  const seats = n === 4 ? [team, team + 2] : [team];
  return h(
    "div",
    { class: `end-winners ${sideOf(team)}`, "data-testid": "end-winners" },
    h("span", { class: "sr-only" }, seats.length > 1 ? "Venceram: " : "Venceu: "),
    ...seats.map((seat) => {
      const face = seat === st.seat ? ctx.me.name : nameOf(seat);
      return h(
        "span",
        { class: "winner" },
        h(
          "span",
          { class: "winner-face", "aria-hidden": "true" },
          h("span", { class: "avatar" }, avatarSVG(face)),
          crownSVG(),
        ),
        h("span", { class: "winner-name" }, nameOf(seat)),
      );
    }),
  );
}

function crownSVG() {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 24 16");
  svg.setAttribute("class", "winner-crown");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", "M2 14 L1 3 L7 8 L12 1 L17 8 L23 3 L22 14 Z");
  svg.append(path);
  return svg;
}

/** Confetti over the end dialog, falling for a few seconds; none with reduced motion (the
 * dialog keeps a still glow). */
function celebration() {
  const still = matchMedia("(prefers-reduced-motion: reduce)").matches;
  const colours = ["#f5bb45", "#4fe0b5", "#ff9a7a", "#ffd47a", "#f2f2f2", "#5a8dee"];
  const pieces = still
    ? []
    : Array.from({ length: 36 }, (_, i) => {
        const piece = h("i", { class: "confetti-piece" });
        piece.style.setProperty("--x", `${(i * 37) % 100}%`);
        piece.style.setProperty("--delay", `${((i * 13) % 12) / 10}s`);
        piece.style.setProperty("--turn", `${(i % 2 ? 1 : -1) * (180 + ((i * 47) % 360))}deg`);
        piece.style.setProperty("--colour", colours[i % colours.length]);
        return piece;
      });
  return h("div", { class: "celebration", "aria-hidden": "true", "data-testid": "celebration" }, ...pieces);
}

// ---------------------------------------------------------------------- score log

function renderFacts() {
  const st = ctx.state;
  const opts = st.options || {};
  const facts = [h("strong", {}, W.rulesetName(st.ruleset))];
  if (opts.target) facts.push(`até ${opts.target} pontos`);
  if (opts.hands_to_win) facts.push(`${opts.hands_to_win} mãos para vencer`);
  const mode = { casual: "casual", ranked: "ranqueada", friends: "com amigos", bots: "só bots" }[st.mode] ?? st.mode;
  facts.push(`partida ${mode}`);
  fill($("#match-facts"), ...facts.flatMap((f, i) => (i ? [" · ", f] : [f])));
  $("#match-facts").append(" ", h("a", { class: "btn btn-ghost btn-small", href: `regras.html#${st.ruleset}` }, "Regras desta modalidade"));
  describeRuleset(st.ruleset);
}

/** The ruleset's one-line description under the facts (from /api/rulesets, fetched once). */
async function describeRuleset(name) {
  if (!ctx.rulesets) ctx.rulesets = api.rulesets().catch(() => []);
  const found = (await ctx.rulesets).find((r) => r.name === name);
  if (found && found.description && !$("#match-facts .facts-desc")) {
    $("#match-facts").append(h("span", { class: "facts-desc" }, found.description));
  }
}

function renderLog() {
  const items = [];
  const deals = [...ctx.hands.keys()].sort((a, b) => b - a);
  const st = ctx.state;
  const v = st.view;
  if (ctx.live.length && v) {
    items.push(logGroup("Mão atual", ctx.live));
  }
  deals.forEach((deal, i) => {
    items.push(logGroup(i === 0 && !ctx.live.length && st.status === "finished" ? "Última mão" : `Mão ${deal + 1}`, ctx.hands.get(deal)));
  });
  if (!items.length) items.push(h("li", { class: "muted" }, "Ainda ninguém marcou pontos."));
  fill($("#log"), ...items);
}

function logGroup(title, entries) {
  return h(
    "li",
    { class: "log-group" },
    h("span", { class: "log-title" }, title),
    h(
      "ul",
      {},
      ...(entries.length
        ? entries.map((e) =>
            h(
              "li",
              { class: `log-entry ${isUs(e.team) ? "team-us" : "team-them"}` },
              h("strong", {}, `+${e.points}`),
              ` ${teamLabel(e.team)} · ${W.reasonName(e.reason)}`,
            ),
          )
        : [h("li", { class: "muted" }, "sem pontos")]),
    ),
  );
}

function isUs(team) {
  const st = ctx.state;
  return st.seat !== null && W.teamOf(st.seat, st.players.length) === team;
}

// ---------------------------------------------------------------------- chat

function onChat(data) {
  const list = $("#chat");
  const mine = data.seat === ctx.state?.seat;
  const time = new Date(data.at * 1000).toLocaleTimeString("pt-BR", { hour: "2-digit", minute: "2-digit" });
  list.append(
    h(
      "li",
      { class: `chat-line ${mine ? "mine" : ""}` },
      h("span", { class: "chat-name" }, mine ? "Você" : nameOf(data.seat)),
      h("span", { class: "chat-text" }, data.text),
      h("time", { class: "chat-time" }, time),
    ),
  );
  while (list.children.length > 100) list.firstElementChild.remove();
  list.scrollTop = list.scrollHeight;
  if (!mine) bubble(data.seat, data.text.length > 40 ? `${data.text.slice(0, 39)}…` : data.text);
  if ($("#panel-chat").hidden || !sideVisible()) {
    ctx.unread += 1;
    $("#chat-unread").hidden = false;
  }
}

function sendChat(text) {
  const clean = text.trim();
  if (!clean) return;
  if (!ctx.socket.send("chat", { text: clean.slice(0, 200) })) notify("Sem conexão.", "error");
}

function renderMutes() {
  const st = ctx.state;
  const host = $("#mutes");
  if (!st || !st.chat) {
    host.replaceChildren();
    return;
  }
  const buttons = [];
  st.players.forEach((p, seat) => {
    if (!p || p.bot || seat === st.seat) return;
    const muted = ctx.muted.has(seat);
    buttons.push(
      h(
        "button",
        {
          type: "button",
          class: `btn btn-small ${muted ? "btn-secondary" : "btn-ghost"}`,
          "aria-pressed": String(muted),
          onclick: () => ctx.socket.send("mute", { seat, muted: !muted }),
        },
        muted ? `Ouvir ${nameOf(seat)}` : `Silenciar ${nameOf(seat)}`,
      ),
    );
  });
  fill(host, ...buttons);
  const canWrite = st.seat !== null;
  $("#chat-form").hidden = !canWrite;
  $("#quick").hidden = !canWrite;
}

// ---------------------------------------------------------------------- side panel

function sideVisible() {
  const side = $("#side");
  return side.classList.contains("open") || getComputedStyle(side).position !== "fixed";
}

function showTab(name) {
  const log = name === "log";
  $("#tab-log").setAttribute("aria-selected", String(log));
  $("#tab-chat").setAttribute("aria-selected", String(!log));
  $("#panel-log").hidden = !log;
  $("#panel-chat").hidden = log;
  if (!log) {
    ctx.unread = 0;
    $("#chat-unread").hidden = true;
    const list = $("#chat");
    list.scrollTop = list.scrollHeight;
  }
}

function openSide(name) {
  const side = $("#side");
  showTab(name);
  side.classList.add("open");
  $("#btn-log").setAttribute("aria-expanded", String(name === "log"));
  $("#btn-chat").setAttribute("aria-expanded", String(name === "chat"));
  if (name === "chat" && getComputedStyle(side).position === "fixed") $("#chat-input").focus();
}

function closeSide() {
  $("#side").classList.remove("open");
  $("#btn-log").setAttribute("aria-expanded", "false");
  $("#btn-chat").setAttribute("aria-expanded", "false");
}

// ---------------------------------------------------------------------- clock

function tick() {
  const st = ctx.state;
  const el = $("#clock");
  const text = $("#clock-text");
  const arc = $("#clock-arc");
  const c = ctx.clock;
  const next = document.getElementById("summary-next");
  if (next) {
    const said = nextHandText();
    if (next.textContent !== said) next.textContent = said;
  }
  if (!st || !c || st.status !== "playing") {
    el.dataset.state = ctx.pause ? "pause" : "idle";
    text.textContent = "–";
    arc.style.strokeDasharray = "100 100";
    el.setAttribute(
      "aria-label",
      ctx.pause ? "Tempo da jogada: intervalo entre as mãos" : "Tempo da jogada: sem relógio agora",
    );
    return;
  }
  const left = Math.max(0, c.deadline - performance.now());
  const secs = Math.ceil(left / 1000);
  const fraction = Math.max(0, Math.min(1, left / (c.seconds * 1000)));
  const mine = c.seat === st.seat;
  el.dataset.state = mine ? (secs <= 5 ? "urgent" : "mine") : "other";
  el.dataset.seat = String(c.seat);
  if (text.textContent !== String(secs)) {
    text.textContent = String(secs);
    el.setAttribute("aria-label", `Tempo da jogada de ${mine ? "você" : nameOf(c.seat)}: ${secs} segundos`);
  }
  arc.style.strokeDasharray = `${(fraction * 100).toFixed(1)} 100`;
  const seatEl = document.querySelector(`.seat[data-seat="${c.seat}"]`);
  if (seatEl) seatEl.style.setProperty("--left", fraction.toFixed(3));
  if ($("#five-dialog").open) $("#five-count").textContent = String(secs);
}

// ---------------------------------------------------------------------- notices

/**
 * A short notice under the top bar, away from the board and the hand. The same text again only
 * renews it (and counts it); at most one shows on a phone and two on a larger screen, the newest.
 */
function notify(message, kind = "info") {
  const list = $("#notice-list");
  const text = String(message);
  let item = [...list.children].find((el) => el.dataset.text === text);
  if (item) {
    const times = Number(item.dataset.times) + 1;
    item.dataset.times = String(times);
    item.querySelector(".notice-times").textContent = `×${times}`;
    list.append(item); // the newest goes last
  } else {
    item = h(
      "div",
      { class: `notice notice-${kind}`, "data-testid": "notice", dataset: { text, times: "1" } },
      h("span", { class: "notice-text" }, text),
      h("span", { class: "notice-times", "aria-hidden": "true" }),
    );
    list.append(item);
  }
  clearTimeout(item.timer);
  const shown = item;
  shown.timer = setTimeout(() => shown.remove(), NOTICE_MS);
  const most = matchMedia("(max-width: 699px)").matches ? 1 : 2;
  while (list.children.length > most) {
    clearTimeout(list.firstElementChild.timer);
    list.firstElementChild.remove();
  }
}

// ---------------------------------------------------------------------- connection

function showConnection(status) {
  const bar = $("#connection");
  app.dataset.connection = status;
  if (status === "online" || status === "connecting") {
    if (!bar.hidden && status === "online") {
      bar.textContent = "Conectado de novo.";
      bar.dataset.kind = "ok";
      setTimeout(() => {
        if (app.dataset.connection === "online") bar.hidden = true;
      }, 1500);
    }
    return;
  }
  bar.hidden = false;
  bar.dataset.kind = "warn";
  bar.textContent =
    status === "reconnecting" ? "Conexão perdida. Reconectando…" : "Sem conexão com a mesa.";
}

// ---------------------------------------------------------------------- wiring

function bindUi() {
  $("#btn-pass").addEventListener("click", () => {
    const v = ctx.state && ctx.state.view;
    if (!v || !isMyTurn() || ctx.busy) return;
    if (v.legal.length === 1 && v.legal[0] === "pass") send("pass");
    else hint("Só dá para passar quando nenhuma pedra encaixa.");
  });
  $("#btn-draw").addEventListener("click", () => {
    const v = ctx.state && ctx.state.view;
    if (!v || !isMyTurn() || ctx.busy) return;
    if (v.legal.includes("draw")) send("draw");
    else hint("Só dá para comprar quando nenhuma pedra encaixa.");
  });
  $("#five-points").addEventListener("click", () => send("five-doubles:points"));
  $("#five-redeal").addEventListener("click", () => send("five-doubles:redeal"));
  $("#five-dialog").addEventListener("cancel", (ev) => ev.preventDefault());
  $("#btn-log").addEventListener("click", () => {
    if ($("#side").classList.contains("open") && !$("#panel-log").hidden) closeSide();
    else openSide("log");
  });
  $("#btn-chat").addEventListener("click", () => {
    if ($("#side").classList.contains("open") && !$("#panel-chat").hidden) closeSide();
    else openSide("chat");
  });
  $("#side-close").addEventListener("click", closeSide);
  const sound = $("#btn-sound");
  const showSound = () => {
    sound.setAttribute("aria-pressed", String(ctx.sound.on));
    sound.title = ctx.sound.on ? "Som ligado: toque para desligar" : "Som desligado: toque para ligar";
  };
  showSound();
  sound.addEventListener("click", () => {
    ctx.sound.setOn(!ctx.sound.on);
    showSound();
  });
  $("#tab-log").addEventListener("click", () => showTab("log"));
  $("#tab-chat").addEventListener("click", () => showTab("chat"));
  fill(
    $("#quick"),
    ...QUICK.map((text) =>
      h("button", { type: "button", class: "btn btn-small btn-ghost", onclick: () => sendChat(text) }, text),
    ),
  );
  $("#chat-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const input = $("#chat-input");
    sendChat(input.value);
    input.value = "";
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") closeSide();
  });
  window.addEventListener("pagehide", () => ctx.socket && ctx.socket.close());
}

main();
