// @ts-check
// The seats around the table and the turn clock: each seat's face, name, badges ("bot",
// "fora", "parceiro"), tiles left (their backs), whose turn it is, the bubble of what it said
// ("Passo", a chat line), and the clock's ring and seconds.

import { backSVG } from "../tiles.js";
import { avatarSVG } from "../avatar.js";
import { $, fill, h, need } from "../dom.js";
import * as W from "../words.js";
import { warnTime } from "./speak.js";
import { ctx, current, nameOf } from "./state.js";
import { nextHandText } from "./summary.js";

const BUBBLE_MS = 2600; // how long "Passo", "Comprou" or a chat line stays by a seat

/**
 * A seat's elements, made once (see seatParts).
 * @typedef {object} SeatParts
 * @property {number} seat
 * @property {HTMLElement} card
 * @property {HTMLElement} avatar
 * @property {HTMLElement} name
 * @property {HTMLElement} badges
 * @property {HTMLElement} count
 * @property {HTMLElement} bubble
 * @property {HTMLElement} backs
 */

/** Each seat's place on screen and the parts made in it. */
/** @type {WeakMap<Element, SeatParts>} */
const partsOf = new WeakMap();

/** Every seat, touching only what changed (the bubble and the focus live across updates). */
export function renderSeatsLive() {
  const st = current();
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
    if (player && player.bot_account) badges.push(["badge badge-bot", "BOT"]);
    if (player && !player.connected) badges.push(["badge badge-warn", "fora"]);
    if (st.more_time.includes(seat)) badges.push(["badge badge-time", "mais tempo"]);
    if (n === 4 && st.seat !== null && seat === (st.seat + 2) % 4) {
      badges.push(["badge badge-partner", "parceiro"]);
    }
    const pieces = count === null ? "" : `${count} ${count === 1 ? "pedra" : "pedras"}`;
    const label = `${name}${badges.length ? ` (${badges.map((b) => b[1]).join(", ")})` : ""}` +
      `${pieces ? `, ${pieces}` : ""}${turn ? ", na vez" : ""}`;
    // Only what changed is touched: the bubble and the focus live across updates.
    parts.card.setAttribute("aria-label", label);
    if (parts.name.textContent !== name) parts.name.textContent = name;
    const face = player ? (isMe ? ctx.me?.name ?? "" : nameOf(seat)) : "";
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

/**
 * A seat's elements, made once (again only when the seat shown there changes).
 * @param {HTMLElement} el
 * @param {number} seat
 * @returns {SeatParts}
 */
function seatParts(el, seat) {
  const made = partsOf.get(el);
  if (made && made.seat === seat) return made;
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
  partsOf.set(el, parts);
  return parts;
}

/**
 * "Passo", "Comprou" or a chat line by a seat, for BUBBLE_MS whatever updates come.
 * @param {number} seat
 * @param {string} text
 */
export function bubble(seat, text) {
  const old = ctx.bubbles.get(seat);
  if (old) clearTimeout(old.timer);
  ctx.bubbles.set(seat, { text, timer: setTimeout(() => hideBubble(seat), BUBBLE_MS) });
  const el = document.getElementById(`bubble-${seat}`);
  if (el) el.classList.remove("on"); // shown again below: a new line pops in again
  showBubble(seat);
}

/** @param {number} seat */
function showBubble(seat) {
  const el = document.getElementById(`bubble-${seat}`);
  const said = ctx.bubbles.get(seat);
  if (!el || !said) return;
  if (el.textContent !== said.text) el.textContent = said.text;
  el.classList.add("on");
}

/** @param {number} seat */
function hideBubble(seat) {
  ctx.bubbles.delete(seat);
  const el = document.getElementById(`bubble-${seat}`);
  if (el) el.classList.remove("on");
}

/**
 * Set an attribute only when its value changes. The clock ticks five times a second: each write,
 * even of the value already there, has the browser style and paint the table again, under the
 * end dialog's blurred backdrop too, while nothing on screen changes.
 * @param {Element} el
 * @param {string} name
 * @param {string} value
 */
function put(el, name, value) {
  if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}

/**
 * Set an element's text only when it changes (see `put`).
 * @param {Element} el
 * @param {string} text
 */
function write(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

/** The inline style properties last written by the clock, per element. */
/** @type {WeakMap<Element, Map<string, string>>} */
const written = new WeakMap();

/**
 * Set an inline style property only when its value changes (see `put`).
 * @param {HTMLElement | SVGElement} el
 * @param {string} prop
 * @param {string} value
 */
function putStyle(el, prop, value) {
  let props = written.get(el);
  if (!props) written.set(el, (props = new Map()));
  if (props.get(prop) === value) return;
  props.set(prop, value);
  el.style.setProperty(prop, value);
}

/** The clock, five times a second: its ring and seconds, the seat's ring, the next hand's
 * countdown and the cinco-carroças dialog's. Only what changed is written. */
export function tick() {
  const st = ctx.state;
  const el = need("#clock");
  const text = need("#clock-text");
  const arc = need("#clock-arc", SVGElement);
  const c = ctx.clock;
  const next = document.getElementById("summary-next");
  if (next) write(next, nextHandText());
  if (!st || !c || st.status !== "playing") {
    put(el, "data-state", ctx.pause ? "pause" : "idle");
    write(text, "–");
    putStyle(arc, "stroke-dasharray", "100 100");
    put(
      el,
      "aria-label",
      ctx.pause ? "Tempo da jogada: intervalo entre as mãos" : "Tempo da jogada: sem relógio agora",
    );
    return;
  }
  const left = Math.max(0, c.deadline - performance.now());
  const secs = Math.ceil(left / 1000);
  const fraction = Math.max(0, Math.min(1, left / (c.seconds * 1000)));
  const mine = c.seat === st.seat;
  put(el, "data-state", mine ? (secs <= 5 ? "urgent" : "mine") : "other");
  put(el, "data-seat", String(c.seat));
  if (mine) warnTime(secs);
  if (text.textContent !== String(secs)) {
    text.textContent = String(secs);
    el.setAttribute("aria-label", `Tempo da jogada de ${mine ? "você" : nameOf(c.seat)}: ${secs} segundos`);
  }
  putStyle(arc, "stroke-dasharray", `${(fraction * 100).toFixed(1)} 100`);
  const seatEl = $(`.seat[data-seat="${c.seat}"]`);
  if (seatEl) putStyle(seatEl, "--left", fraction.toFixed(3));
  if (need("#five-dialog", HTMLDialogElement).open) write(need("#five-count"), String(secs));
}
