// @ts-check
// The table's keys: the arrows between the hand's tiles and between the places lit on the
// board, P to pass or draw when that is the only move, R to review the table, T for the time
// left, M for the hand, J for the list of the hand's actions, Esc to take back a chosen tile,
// and ? for the dialog that lists them all (the rules page lists them too).

import { $, need } from "../dom.js";
import { openSide } from "./chat.js";
import { passOrDraw } from "./play.js";
import { review, sayTime } from "./speak.js";
import { ctx } from "./state.js";
import { hint, renderPlay } from "./hand.js";
import { renderBoard } from "./table.js";

/**
 * The element `step` places away from `from` among `items` (clamped at both ends).
 * @param {Element[]} items @param {Element} from @param {number} step
 */
function neighbour(items, from, step) {
  const at = items.indexOf(from);
  if (at < 0) return null;
  return items[Math.max(0, Math.min(items.length - 1, at + step))] ?? null;
}

const STEP = /** @type {Record<string, number>} */ ({ ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1, Home: -99, End: 99 });

/**
 * The arrows move the focus along the hand's tiles, or along the lit places of the board.
 * @param {KeyboardEvent} ev
 * @returns {boolean} handled
 */
function arrows(ev) {
  const step = STEP[ev.key];
  const active = /** @type {Element | null} */ (document.activeElement);
  if (!step || !active) return false;
  const hand = need("#hand");
  /** @type {Element[]} */
  let items = [];
  if (active === hand || hand.contains(active)) items = [...hand.querySelectorAll("[data-tile]")];
  else if (ctx.board && ctx.board.svg.contains(active)) items = [...ctx.board.svg.querySelectorAll(".ghost")];
  if (!items.length) return false;
  const from = items.includes(active) ? active : items[0];
  const to = active === from ? neighbour(items, from, step) : from;
  if (to instanceof HTMLElement || to instanceof SVGElement) to.focus();
  return true;
}

/** Whether the keys of the table are the player's now (not typing, no dialog over the table). */
function tableHasKeys(/** @type {KeyboardEvent} */ ev) {
  if (ev.ctrlKey || ev.altKey || ev.metaKey) return false;
  const target = /** @type {HTMLElement | null} */ (ev.target instanceof HTMLElement ? ev.target : null);
  const typing = target instanceof HTMLInputElement
    ? !["checkbox", "radio", "button", "submit"].includes(target.type)
    : Boolean(target && (target.isContentEditable || ["TEXTAREA", "SELECT"].includes(target.tagName)));
  if (typing) return false;
  return !document.querySelector("dialog[open]");
}

/** The help dialog with every key, and the focus back where it was when it closes. */
export function showKeys() {
  const dialog = need("#keys-dialog", HTMLDialogElement);
  if (dialog.open) return;
  const back = /** @type {HTMLElement | null} */ (document.activeElement);
  dialog.showModal();
  dialog.addEventListener("close", () => back?.focus({ preventScroll: true }), { once: true });
}

/** Take back the tile chosen for several ends: the focus goes back to it in the hand. */
function unselect() {
  const tile = ctx.selected;
  if (!tile) return false;
  ctx.selected = null;
  renderBoard(unselectWith);
  renderPlay();
  $(`#hand [data-tile="${tile}"]`)?.focus();
  hint("Escolha desfeita: escolha outra pedra.");
  return true;
}

/** Bind the keys of the table (once). @param {(end: import("../frames.js").End) => void} onChoose */
export function bindKeys(onChoose) {
  unselectWith = onChoose;
  need("#btn-keys").addEventListener("click", showKeys);
  need("#keys-close").addEventListener("click", () => need("#keys-dialog", HTMLDialogElement).close());
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "Escape" && ctx.selected && !document.querySelector("dialog[open]")) {
      if (unselect()) ev.preventDefault();
      return;
    }
    if (!tableHasKeys(ev)) return;
    if (arrows(ev)) {
      ev.preventDefault();
      return;
    }
    switch (ev.key.toLowerCase()) {
      case "p":
        passOrDraw();
        break;
      case "r":
        review();
        break;
      case "t":
        sayTime();
        break;
      case "m": {
        /** @type {HTMLElement} */
        const first = $("#hand [data-legal=true]") ?? $("#hand [data-tile]") ?? need("#hand");
        first.focus();
        break;
      }
      case "j":
        openSide("log");
        need("#moves").focus();
        break;
      case "?":
      case "h":
        showKeys();
        break;
      default:
        return;
    }
    ev.preventDefault();
  });
}

/** What choosing a lit place does (kept for the redraw after Esc). */
let unselectWith = /** @type {(end: import("../frames.js").End) => void} */ (() => {});
