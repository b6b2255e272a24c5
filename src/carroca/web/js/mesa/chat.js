// @ts-check
// The side panel: the score log and the chat (its lines, the quick phrases, muting a seat), a
// column on a large screen and a sheet over the hand on a phone.

import { $, fill, h, need } from "../dom.js";
import { profileNamed } from "../perfil-text.js";
import { notify } from "./notices.js";
import { blockButton, friendButton } from "./people.js";
import { reportButton } from "./report.js";
import { bubble } from "./seats.js";
import { ctx, nameOf } from "./state.js";

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

/**
 * A chat line came: in the list, in a bubble by its seat, and counted while the chat is hidden.
 * @param {import("../frames.js").Chat} data
 */
export function onChat(data) {
  const list = need("#chat");
  const mine = data.seat === ctx.state?.seat;
  const time = new Date(data.at * 1000).toLocaleTimeString("pt-BR", { hour: "2-digit", minute: "2-digit" });
  list.append(
    h(
      "li",
      { class: `chat-line ${mine ? "mine" : ""}` },
      h("span", { class: "chat-name" }, mine ? "Você" : nameOf(data.seat)),
      h("span", { class: "chat-text" }, data.text),
      h("time", { class: "chat-time" }, time),
      mine ? null : reportButton(nameOf(data.seat), data.at),
    ),
  );
  while (list.children.length > 100) list.firstElementChild?.remove();
  list.scrollTop = list.scrollHeight;
  if (!mine) bubble(data.seat, data.text.length > 40 ? `${data.text.slice(0, 39)}…` : data.text);
  if (need("#panel-chat").hidden || !sideVisible()) {
    ctx.unread += 1;
    need("#chat-unread").hidden = false;
  }
}

/** @param {string} text */
function sendChat(text) {
  const clean = text.trim();
  if (!clean || !ctx.socket) return;
  if (!ctx.socket.send("chat", { text: clean.slice(0, 200) })) notify("Sem conexão.", "error");
}

/** A button to silence (or hear again) each person at the table. */
export function renderMutes() {
  const st = ctx.state;
  const host = need("#mutes");
  if (!st || !st.chat) {
    host.replaceChildren();
    return;
  }
  /** @type {HTMLElement[]} */
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
          onclick: () => ctx.socket?.send("mute", { seat, muted: !muted }),
        },
        muted ? `Ouvir ${nameOf(seat)}` : `Silenciar ${nameOf(seat)}`,
      ),
      reportButton(nameOf(seat), null, `Denunciar ${nameOf(seat)}`),
      friendButton(nameOf(seat), `Adicionar ${nameOf(seat)}`),
      blockButton(nameOf(seat)),
      // in a tab of its own: the table stays where it is
      h("a", { class: "btn btn-ghost btn-small", href: profileNamed(nameOf(seat)), target: "_blank", rel: "noopener" }, `Perfil de ${nameOf(seat)}`),
    );
  });
  fill(host, ...buttons);
  const canWrite = st.seat !== null;
  need("#chat-form").hidden = !canWrite;
  need("#quick").hidden = !canWrite;
}

function sideVisible() {
  const side = need("#side");
  return side.classList.contains("open") || getComputedStyle(side).position !== "fixed";
}

/** @typedef {"log" | "chat"} Tab */

/** @param {Tab} name */
function showTab(name) {
  const log = name === "log";
  need("#tab-log").setAttribute("aria-selected", String(log));
  need("#tab-chat").setAttribute("aria-selected", String(!log));
  need("#panel-log").hidden = !log;
  need("#panel-chat").hidden = log;
  if (!log) {
    ctx.unread = 0;
    need("#chat-unread").hidden = true;
    const list = need("#chat");
    list.scrollTop = list.scrollHeight;
  }
}

/** @param {Tab} name */
export function openSide(name) {
  const side = need("#side");
  showTab(name);
  side.classList.add("open");
  need("#btn-log").setAttribute("aria-expanded", String(name === "log"));
  need("#btn-chat").setAttribute("aria-expanded", String(name === "chat"));
  if (name === "chat" && getComputedStyle(side).position === "fixed") need("#chat-input", HTMLInputElement).focus();
}

export function closeSide() {
  const side = need("#side");
  // A sheet over the hand (a phone): the focus in it goes back to the hand.
  if (side.classList.contains("open") && getComputedStyle(side).position === "fixed" && side.contains(document.activeElement)) {
    need("#hand").focus({ preventScroll: true });
  }
  side.classList.remove("open");
  need("#btn-log").setAttribute("aria-expanded", "false");
  need("#btn-chat").setAttribute("aria-expanded", "false");
}

/** The player's turn begins: on a phone the side panel (a sheet over the hand) closes, the
 * chat's unsent words kept; the keyboard focus that was in it goes to the hand. */
export function uncoverTheHand() {
  const side = need("#side");
  if (!side.classList.contains("open") || getComputedStyle(side).position !== "fixed") return;
  const hadFocus = side.contains(document.activeElement);
  closeSide();
  if (hadFocus) {
    /** @type {HTMLElement} */
    const first = $("#hand [data-legal=true]") ?? need("#hand");
    first.focus({ preventScroll: true });
  }
}

/** The panel's buttons and tabs, the quick phrases and the chat's form. */
export function bindSide() {
  need("#btn-log").addEventListener("click", () => {
    if (need("#side").classList.contains("open") && !need("#panel-log").hidden) closeSide();
    else openSide("log");
  });
  need("#btn-chat").addEventListener("click", () => {
    if (need("#side").classList.contains("open") && !need("#panel-chat").hidden) closeSide();
    else openSide("chat");
  });
  need("#side-close").addEventListener("click", closeSide);
  need("#tab-log").addEventListener("click", () => showTab("log"));
  need("#tab-chat").addEventListener("click", () => showTab("chat"));
  fill(
    need("#quick"),
    ...QUICK.map((text) =>
      h("button", { type: "button", class: "btn btn-small btn-ghost", onclick: () => sendChat(text) }, text),
    ),
  );
  need("#chat-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const input = need("#chat-input", HTMLInputElement);
    sendChat(input.value);
    input.value = "";
  });
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape") closeSide();
  });
}
