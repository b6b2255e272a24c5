// @ts-check
// The table page (mesa.html?id=MATCH, or mesa.html?convite=CODE to sit at a friends' table).
//
// Everything shown comes from the server's "state" frames: the table, the seat's view of the
// match and the clock. The page only sends "join", "move", "chat" and "mute".
//
// As lichess's round page: one controller (ctrl.js) owns the page's state (state.js) and turns
// the socket's frames into changes of it, and a small view per region of the page draws it —
// the seats and the clock (seats.js), the board (table.js), the hand (hand.js), "Nós e Eles"
// (scores.js), the side panel and its chat (chat.js), the hand's summary (summary.js), the end
// of the match (end.js, end-links.js), what a tournament's table meant in its event and where it
// leads (tourney.js), the waiting room (overlay.js), banners and notices (notices.js). This
// module starts it all.

import * as api from "../api.js";
import { ApiError } from "../api.js";
import { Board } from "../board.js";
import { need, param, randomSeed } from "../dom.js";
import { Socket } from "../socket.js";
import { Sound } from "../sound.js";
import { bindSide } from "./chat.js";
import { onFrame } from "./ctrl.js";
import { showConnection } from "./notices.js";
import { showFatal } from "./overlay.js";
import { bindKeys } from "./keys.js";
import { bindPlay, chooseEnd } from "./play.js";
import { bindSettings } from "./speak.js";
import { tick } from "./seats.js";
import { ctx } from "./state.js";

/** @param {unknown} e */
const messageOf = (e) => (e instanceof ApiError || e instanceof Error ? e.message : String(e));

async function main() {
  let id = param("id");
  const invite = param("convite");
  let who;
  try {
    who = await api.session(); // signed out: 200 {"player": null}, nothing logged
  } catch (e) {
    showFatal(messageOf(e));
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
      id = /** @type {string} */ (joined.id);
      history.replaceState(null, "", `mesa.html?id=${encodeURIComponent(id)}`);
    } catch (e) {
      showFatal(messageOf(e), true);
      return;
    }
  }
  if (!id) {
    showFatal("Nenhuma mesa indicada no endereço.", true);
    return;
  }
  const matchId = id;
  ctx.matchId = matchId;
  ctx.board = new Board(need("#board"), { label: "Pedras na mesa" });
  const sound = new Sound();
  ctx.sound = sound;
  bindUi(sound);
  const socket = new Socket({
    onHello: (hello) => {
      ctx.node = hello.node ?? null;
      need("#app").dataset.node = ctx.node ?? "";
      // Asked the front for a node and got another: it does not route by node, so stay.
      if (ctx.asked && ctx.asked !== ctx.node) ctx.unrouted = true;
      ctx.asked = null;
      ctx.connects = (ctx.connects ?? 0) + 1;
      ctx.busy = null; // a move lost with the old connection can be made again
      need("#app").dataset.connects = String(ctx.connects);
      const seed = api.seedFor(matchId);
      socket.send("join", seed ? { match: matchId, client_seed: seed } : { match: matchId });
      for (const seat of ctx.muted) socket.send("mute", { seat, muted: true });
    },
    onFrame,
    onStatus: showConnection,
    onUnauthorized: () => {
      location.replace(`/?proximo=${encodeURIComponent(location.pathname + location.search)}`);
    },
  });
  ctx.socket = socket;
  socket.connect();
  setInterval(tick, 200);
  // A handle for debugging and for the browser tests (e.g. dropping the connection).
  /** @type {any} */ (window).carroca = { ctx, socket, sound };
}

/** @param {Sound} sound */
function bindUi(sound) {
  bindPlay();
  bindKeys(chooseEnd);
  bindSettings();
  const button = need("#btn-sound");
  const showSound = () => {
    button.setAttribute("aria-pressed", String(sound.on));
    button.title = sound.on ? "Som ligado: toque para desligar" : "Som desligado: toque para ligar";
  };
  showSound();
  button.addEventListener("click", () => {
    sound.setOn(!sound.on);
    showSound();
  });
  bindSide();
  window.addEventListener("pagehide", () => ctx.socket && ctx.socket.close());
}

main();
