// @ts-check
// A tournament's table: what its end means for the player in the event, and where it leads.
// When the table closes unplayed (a no-show) or its match ends, the event is asked what the game
// came to (`verdict`: a W.O. won or lost, eliminated, champion, what comes next), and said on
// the closed table's card or at the top of the end dialog. The player's next table of the event
// (a `tournament` frame, or the event's answer) takes them there: at once from a closed table,
// after a short count from the end of a match played (its end stays readable), and by a banner
// while a match is in play here.

import * as api from "../api.js";
import { $, fill, h, need } from "../dom.js";
import { verdict } from "../torneio-text.js";
import { goToTable, markTaken, showCall, tableHref } from "../tourneys.js";
import { ctx } from "./state.js";

/** @typedef {import("../frames.js").State} State */
/** @typedef {import("../frames.js").Tournament} Tournament */
/** @typedef {import("../torneio-text.js").Verdict} Verdict */

const NEXT_IN_S = 5; // from the end of a match played to the next table
const LOOKS = 15; // looks at the event for the game's result, a second apart

/** @type {{verdict: Verdict | null, looks: ReturnType<typeof setTimeout> | undefined,
 *   counter: ReturnType<typeof setInterval> | undefined, goAt: number, stay: boolean,
 *   event: string | null, early: Tournament | null, noTable: boolean}} */
const here = {
  verdict: null,
  looks: undefined,
  counter: undefined,
  goAt: 0,
  stay: false,
  event: null,
  early: null, // a call that came before the table's first state
  noTable: false, // the table could not be joined: no state will come
};

/**
 * The event of a tournament's table: its client seed is "<event id>:round.table.game". From
 * the table's state, or (a table this server no longer holds) from its match's page.
 * @param {{mode: string, client_seed?: string | null} | null} [st]
 * @returns {string | null}
 */
export function eventOf(st = ctx.state) {
  if (!st) return here.event;
  return st.mode === "tournament" && st.client_seed ? st.client_seed.split(":")[0] : null;
}

/**
 * A tournament's table read from its match's page (the server no longer holds it): closed
 * unplayed, its W.O. card; over, the event is asked as for a match ended here.
 * @param {{mode: string, status: string, client_seed?: string | null}} info
 * @returns {boolean} the card was shown (the page shows nothing else)
 */
export function tourneyFromApi(info) {
  here.event = eventOf(info);
  if (!here.event) return false;
  lookAtEvent(LOOKS);
  if (info.status !== "expired") return false;
  need("#app").dataset.status = "expired";
  const overlay = need("#overlay");
  overlay.hidden = false;
  overlay.dataset.kind = "expired";
  fill(overlay, woCard());
  return true;
}

/** @param {string} event */
const eventHref = (event) => `torneio.html?id=${encodeURIComponent(event)}`;

/**
 * A state of the table came: a seat at a tournament's table is where the player was taken (a
 * frame naming it again only calls them); once it closed or ended, the event is asked.
 * @param {State | null} prev
 * @param {State} st
 */
export function tourneyState(prev, st) {
  calledEarly();
  if (st.mode !== "tournament") return;
  if (st.seat !== null) markTaken(st.id);
  const ended = st.status === "expired" || st.status === "finished";
  if (!ended || (prev && prev.status === st.status)) return;
  lookAtEvent(LOOKS);
  const next = ctx.tourneyNext; // called while this match was in play: now it is over
  if (next?.match && next.match !== st.id) {
    if (st.status === "finished" && st.seat !== null) countDown();
    else goToTable(next.match);
  }
}

/** A call to a table that came before this table's first state (a socket's hello comes
 * first): now it is known whether a match is in play here (none when the table could not be
 * joined: the server no longer holds it). */
export function calledEarly() {
  if (!ctx.state) here.noTable = true;
  const early = here.early;
  here.early = null;
  if (early?.match && !ctx.state) goToTable(early.match);
  else if (early) nextTable(early);
}

/**
 * Ask the event what this table's game came to; again a second later while its result is not
 * in (the event records it just after the table ends).
 * @param {number} tries
 */
async function lookAtEvent(tries) {
  const event = eventOf();
  if (!event) return;
  clearTimeout(here.looks);
  /** @type {any} */
  let d = null;
  try {
    d = await api.tournament(event);
  } catch {
    /* the server away a moment: look again */
  }
  const v = d ? verdict(d, ctx.matchId) : null;
  if (v) {
    here.verdict = v;
    if (v.nextMatch) nextTable({ event, name: d.name, status: "running", match: v.nextMatch });
    renderVerdict();
    return;
  }
  if (d && (!d.me || ctx.state?.seat === null)) return; // watching: nothing of theirs to say
  if (tries > 1) here.looks = setTimeout(() => lookAtEvent(tries - 1), 1000);
}

/**
 * A `tournament` frame: the player's next table of the event, or the event over.
 * @param {Tournament} data
 */
export function onTourney(data) {
  if (data.status !== "running") {
    ctx.tourneyOver = data;
    if (eventOf() === data.event) lookAtEvent(LOOKS);
    renderVerdict();
    return;
  }
  if (data.match && data.match !== ctx.matchId) {
    nextTable(data);
    if (ctx.state?.status === "finished") lookAtEvent(LOOKS); // "Sua próxima partida já começou."
  }
}

/**
 * The player's game waits at another table: taken there at once unless a match is in play
 * here (a banner calls them) or has just ended (its end dialog counts down, then takes them).
 * @param {Tournament} data
 */
function nextTable(data) {
  if (!data.match) return;
  const st = ctx.state;
  if (!st && ctx.matchId && !here.noTable) {
    here.early = data;
    return;
  }
  const seated = Boolean(st && st.seat !== null);
  ctx.tourneyNext = data;
  if (seated && st?.status === "playing") {
    showCall(data);
    return;
  }
  if (seated && st?.status === "finished") {
    countDown();
    renderVerdict();
    return;
  }
  goToTable(data.match);
}

function countDown() {
  if (here.counter !== undefined || here.stay) return;
  here.goAt = Date.now() + NEXT_IN_S * 1000;
  here.counter = setInterval(() => {
    const left = Math.ceil((here.goAt - Date.now()) / 1000);
    const next = ctx.tourneyNext;
    if (left <= 0 && next?.match) {
      clearInterval(here.counter);
      goToTable(next.match);
      return;
    }
    const said = $("#next-in");
    if (said) said.textContent = `Indo para a mesa em ${Math.max(left, 0)} s…`;
  }, 250);
}

function stay() {
  clearInterval(here.counter);
  here.counter = undefined;
  here.stay = true;
  renderVerdict();
}

/** The primary action of a tournament's table once over: the next table, or the event. */
export function tourneyButton() {
  const next = ctx.tourneyNext;
  const event = eventOf();
  if (next?.match) {
    return h("a", { class: "btn btn-primary", id: "btn-tourney", href: tableHref(next.match), dataset: { next: "true" } }, "Ir para a próxima partida");
  }
  return h("a", { class: "btn btn-primary", id: "btn-tourney", href: event ? eventHref(event) : "/" }, "Voltar ao torneio");
}

/** The card of a tournament's table closed unplayed: the W.O. and what comes next. */
export function woCard() {
  const v = here.verdict;
  const st = ctx.state;
  let text;
  if (v) text = [v.why, v.next].filter(Boolean).join(" ");
  else if (st && st.seat === null) text = "A partida não aconteceu: um dos lados não veio a tempo.";
  else text = "Conferindo o resultado no torneio…";
  return h(
    "div",
    { class: "overlay-card waiting-card", id: "wo-card", "data-testid": "wo", dataset: { kind: v ? v.kind : "" } },
    h("h2", {}, v ? v.title : "Mesa encerrada"),
    h("p", {}, text),
    tourneyButton(),
    h("a", { class: "btn btn-ghost", href: "/" }, "Voltar ao salão"),
  );
}

/** What the event says, where the page shows it: the closed table's card, or the end dialog's
 * top (eliminated, champion, what comes next, the count to the next table). */
export function renderVerdict() {
  const card = $("#wo-card");
  if (card) card.replaceWith(woCard());
  const body = $("#end-body");
  if (!body || !eventOf() || need("#app").dataset.status !== "finished") return;
  const old = $("#btn-tourney", body);
  if (old) old.replaceWith(tourneyButton());
  $("#tourney-next")?.remove();
  const v = here.verdict;
  const next = ctx.tourneyNext;
  const over = ctx.tourneyOver;
  const said = v ? v.next : next ? "Sua próxima partida começou." : over ? "O torneio terminou." : "";
  if (!said) return;
  const going = Boolean(next?.match) && here.counter !== undefined;
  body.prepend(
    h(
      "div",
      { class: `notice ${next ? "notice-invite" : ""}`, id: "tourney-next", role: "status", dataset: { kind: v ? v.kind : "" } },
      h("strong", {}, said),
      going ? h("p", { id: "next-in" }, `Indo para a mesa em ${Math.max(0, Math.ceil((here.goAt - Date.now()) / 1000))} s…`) : null,
      going ? h("button", { class: "btn btn-ghost btn-small", type: "button", id: "btn-stay", onclick: stay }, "Ficar aqui") : null,
    ),
  );
}
