// @ts-check
// Playing: a tile touched in the hand (played at once where it fits one end, or lit on the
// board where it fits several), an end chosen on the board, "Passo", "Comprar" and the
// cinco-carroças choice, each sent as a move with an id that only grows.

import { $, need } from "../dom.js";
import { hint, renderPlay } from "./hand.js";
import { notify } from "./notices.js";
import { ctx, current, isMyTurn, legalByTile, nameOf } from "./state.js";
import { closeSummary } from "./summary.js";
import { renderBoard } from "./table.js";

/** @typedef {import("../frames.js").End} End */

/**
 * A tile of the hand touched.
 * @param {string} tile
 */
function onTile(tile) {
  const st = ctx.state;
  if (!st) return;
  if (ctx.selected) {
    if (tile !== ctx.selected) hint("Pedra tocada é pedra jogada: escolha a ponta na mesa.");
    return;
  }
  if (st.status !== "playing" || st.seat === null) return;
  if (!isMyTurn()) {
    hint(`Espere a sua vez: agora é a vez de ${nameOf(/** @type {number} */ (st.view?.turn))}.`);
    return;
  }
  if (ctx.busy) return;
  const ends = legalByTile().get(tile);
  if (!ends) {
    const v = st.view;
    hint(
      v?.phase === "choice"
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
  renderBoard(chooseEnd);
  renderPlay();
  const ghost = ctx.board?.firstGhost();
  if (ghost) {
    ghost.focus({ preventScroll: true });
    // Zoomed in, the page scrolls: the lit places come into view (the board, not one place
    // alone, so that every place to choose from shows).
    need("#felt").scrollIntoView({ block: "nearest" });
    ghost.scrollIntoView({ block: "nearest", inline: "nearest" });
  }
}

/**
 * A lit place on the board chosen for the selected tile.
 * @param {End} end
 */
export function chooseEnd(end) {
  const tile = ctx.selected;
  if (!tile) return;
  // Played from a lit place with the keyboard: the focus returns to the hand afterwards.
  const v = current().view;
  if (v && ctx.board?.svg.contains(document.activeElement)) ctx.refocus = v.hand.indexOf(tile);
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

/**
 * Send a move (an action as in `view.legal`): the hand waits for its answer.
 * @param {string} action
 */
function send(action) {
  const st = ctx.state;
  if (ctx.busy || !st) return;
  const id = nextMoveId();
  if (!ctx.socket?.send("move", { id, action })) {
    notify("Sem conexão: a jogada não foi enviada. Reconectando…", "error");
    return;
  }
  ctx.busy = { id, version: st.version };
  ctx.selected = null;
  renderBoard(chooseEnd);
  renderPlay();
}

/** The key for "Passo" or "Comprar": the move made when it is the only one there is. */
export function passOrDraw() {
  const st = ctx.state;
  const v = st && st.view;
  if (!st || !v || st.seat === null || st.status !== "playing") return;
  if (!isMyTurn()) {
    hint(v.turn !== null ? `Espere a sua vez: agora é a vez de ${nameOf(v.turn)}.` : "Espere a próxima mão.");
    return;
  }
  if (ctx.busy) return;
  const only = v.legal.every((a) => a === "pass" || a === "draw");
  if (only && v.legal.includes("draw")) send("draw");
  else if (only && v.legal.includes("pass")) send("pass");
  else hint("Você tem pedra para jogar: passar ou comprar só quando nenhuma encaixa.");
}

/** The hand's tiles, "Passo", "Comprar" and the cinco-carroças dialog. */
export function bindPlay() {
  const hand = need("#hand");
  hand.addEventListener("click", (ev) => {
    const target = /** @type {Element | null} */ (ev.target);
    const btn = /** @type {HTMLElement | null} */ (target?.closest("[data-tile]") ?? null);
    if (btn && hand.contains(btn) && btn.dataset.tile) onTile(btn.dataset.tile);
  });
  need("#btn-pass").addEventListener("click", () => {
    const v = ctx.state && ctx.state.view;
    if (!v || !isMyTurn() || ctx.busy) return;
    if (v.legal.length === 1 && v.legal[0] === "pass") send("pass");
    else hint("Só dá para passar quando nenhuma pedra encaixa.");
  });
  need("#btn-draw").addEventListener("click", () => {
    const v = ctx.state && ctx.state.view;
    if (!v || !isMyTurn() || ctx.busy) return;
    if (v.legal.includes("draw")) send("draw");
    else hint("Só dá para comprar quando nenhuma pedra encaixa.");
  });
  need("#five-points", HTMLButtonElement).addEventListener("click", () => send("five-doubles:points"));
  need("#five-redeal", HTMLButtonElement).addEventListener("click", () => send("five-doubles:redeal"));
  need("#five-dialog", HTMLDialogElement).addEventListener("cancel", (ev) => ev.preventDefault());
}
