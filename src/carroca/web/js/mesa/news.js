// @ts-check
// What a new state tells (../events.js finds it): a pass, a draw, galo, points on the table,
// the end of a hand or of the match — as bubbles, banners, the hand's summary, the points kept
// for the log, the side a played tile slides in from, and a sound.

import * as W from "../words.js";
import * as S from "../speech.js";
import { banner, clearBanner } from "./notices.js";
import { bubble } from "./seats.js";
import { endMoves, say } from "./speak.js";
import { ctx, current, nameOf, teamLabel } from "./state.js";
import { showSummary } from "./summary.js";

/** @typedef {import("../events.js").Event} Event */
/** @typedef {Extract<Event, {type: "score"}>} Score */

/**
 * Announce what happened (said, and shown), and keep the points scored. `prev`: the state
 * before (null for the first one).
 * @param {Event[]} events
 * @param {import("../frames.js").State | null} prev
 */
export function handleEvents(events, prev) {
  const st = current();
  const names = st.players.map((_, i) => nameOf(i));
  const pv = prev && prev.view;
  const lines = S.eventLines(events, { st, names, prevTable: pv ? pv.table : [], prevDeal: pv ? pv.deal_index : null });
  say(lines);
  /** @type {(reason: string) => Score | undefined} */
  const scored = (reason) =>
    /** @type {Score[]} */ (events.filter((e) => e.type === "score")).find((e) => e.reason === reason);
  /** @param {number} team */
  const to = (team) => (teamLabel(team) === "Você" ? "você" : teamLabel(team));
  /** @param {Score | undefined} e */
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
      const ended = lines.filter((l) => l.kind === "end");
      if (ended.length) endMoves(ended[0].text);
      if (st.status !== "finished") showSummary(ev.hand);
    } else if (ev.type === "match-end") {
      clearBanner();
    }
  }
}

/**
 * The points of a hand that ended, for the log.
 * @param {import("../frames.js").LastHand} hand
 */
export function rememberHand(hand) {
  ctx.hands.set(
    hand.deal_index,
    hand.events.map((e) => ({ team: e.team, points: e.points, reason: e.reason })),
  );
}

/**
 * The side of the screen the tile just played comes from (null: nothing to slide in).
 * @param {Event[]} events
 * @returns {import("../layout.js").Place | null}
 */
export function slideFrom(events) {
  /** @type {import("../layout.js").Place | null} */
  let from = null;
  for (const e of events) {
    if (e.type === "step" && e.step.type === "play") from = ctx.places[e.step.seat] ?? null;
    if (e.type === "hand-end" && (ctx.pause || current().status === "finished")) {
      // the board shows the hand that ended during the pause: its last tile comes in
      const last = e.hand.table[e.hand.table.length - 1];
      from = last ? ctx.places[last.seat] ?? null : null;
    }
  }
  return from;
}

/** @typedef {"pass" | "draw" | "play" | "batida"} Loud */
/** @type {Record<Loud, number>} */
const SOUND_RANK = { pass: 1, draw: 2, play: 3, batida: 4 };
/** @type {Record<string, Loud>} */
const STEP_SOUND = { play: "play", pass: "pass", draw: "draw" };

/**
 * One sound for what a state brought (the loudest event), then "your turn" when it is.
 * @param {Event[]} events
 * @param {boolean} turnStarted
 */
export function playSounds(events, turnStarted) {
  const sound = ctx.sound;
  if (!sound) return;
  /** @type {Loud | null} */
  let name = null;
  /** @param {Loud | null | undefined} candidate */
  const consider = (candidate) => {
    if (candidate && (!name || SOUND_RANK[candidate] > SOUND_RANK[name])) name = candidate;
  };
  for (const e of events) {
    if (e.type === "step") consider(STEP_SOUND[e.step.type]);
    if (e.type === "hand-end") {
      const kind = e.hand.end.kind;
      consider(kind === "batida" ? "batida" : kind === "fechado" ? "pass" : kind === "redeal" ? "draw" : null);
    }
  }
  if (name) sound.play(name);
  if (turnStarted) {
    if (name) setTimeout(() => sound.play("turn"), 220);
    else sound.play("turn");
  }
}
