// @ts-check
// The player's hand and what goes with it: the tiles (lit where they fit, dimmed where they do
// not), "Passo" and "Comprar", the line that says whose turn it is (or a hint for a moment), and
// the cinco-carroças dialog.

import { tileSVG } from "../tiles.js";
import { fill, h, need } from "../dom.js";
import * as W from "../words.js";
import { say } from "./speak.js";
import { ctx, current, isMyTurn, legalByTile, nameOf } from "./state.js";

/** The hand, its buttons and the turn's line, from the state. */
export function renderPlay() {
  const st = current();
  const v = st.view;
  const hand = need("#hand");
  const myTurn = isMyTurn();
  const legal = legalByTile();
  const busy = Boolean(ctx.busy);
  need("#app").dataset.myTurn = String(myTurn && !busy);
  need("#app").dataset.busy = String(busy);
  // The tiles are updated in place, never rebuilt: a tile that has the keyboard focus keeps it,
  // and when it leaves the hand (played) the focus goes to the nearest tile.
  const old = /** @type {HTMLButtonElement[]} */ ([...hand.querySelectorAll("[data-tile]")]);
  const byTile = new Map(old.map((b) => [b.dataset.tile, b]));
  const active = /** @type {HTMLElement | null} */ (document.activeElement);
  const focusedAt = old.findIndex((b) => b === active);
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
        { type: "button", dataset: { tile }, "aria-label": W.tileName(tile) }, // played: play.js
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
  if (focusedAt >= 0 && active && active.isConnected) {
    if (document.activeElement !== active) active.focus({ preventScroll: true });
  } else if (lost && (focusedAt >= 0 || ctx.refocus !== null)) {
    const at = focusedAt >= 0 ? focusedAt : ctx.refocus ?? 0;
    (buttons[Math.min(at, buttons.length - 1)] ?? hand).focus({ preventScroll: true });
  }
  ctx.refocus = null;
  hand.classList.toggle("my-turn", myTurn);

  need(".actions").hidden = st.status !== "playing" || st.seat === null;
  const pass = need("#btn-pass");
  const canPass = Boolean(v && myTurn && !busy && v.legal.length === 1 && v.legal[0] === "pass");
  pass.setAttribute("aria-disabled", String(!canPass));
  pass.dataset.legal = String(canPass);
  pass.classList.toggle("lit", canPass);

  const draw = need("#btn-draw");
  const canDraw = Boolean(v && myTurn && !busy && v.legal.includes("draw"));
  draw.setAttribute("aria-disabled", String(!canDraw));
  draw.dataset.legal = String(canDraw);
  draw.classList.toggle("lit", canDraw);
  const left = v ? v.boneyard : 0;
  fill(draw, "Comprar", h("span", { class: "btn-count" }, String(left)));
  draw.setAttribute("aria-label", `Comprar do monte (${left} ${left === 1 ? "pedra" : "pedras"})`);

  renderTurnMessage();
}

function renderTurnMessage() {
  const el = need("#turn-msg");
  if (ctx.hintTimer) return; // a hint is showing
  el.classList.remove("hint");
  el.textContent = turnMessage();
}

/** @returns {string} */
function turnMessage() {
  const st = current();
  const v = st.view;
  if (st.status === "waiting") return "Esperando jogadores…";
  if (st.status === "finished") return "Partida encerrada.";
  if (st.ended) return `Mesa encerrada pela administração: ${st.ended}`;
  if (st.status === "expired") return st.mode === "tournament" ? "Mesa encerrada: partida decidida por W.O." : "Mesa encerrada: ninguém completou a mesa a tempo.";
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

/**
 * A hint in place of the turn's line, for a moment.
 * @param {string} text
 */
export function hint(text) {
  const el = need("#turn-msg");
  clearTimeout(ctx.hintTimer ?? undefined);
  el.textContent = text;
  el.classList.add("hint");
  say([{ kind: "hint", text }]);
  ctx.hintTimer = setTimeout(() => {
    ctx.hintTimer = null;
    if (ctx.state) renderTurnMessage();
  }, 2600);
}

/** The cinco-carroças choice, open while it is the player's to make. */
export function renderFive() {
  const st = current();
  const v = st.view;
  const dialog = need("#five-dialog", HTMLDialogElement);
  const open = isMyTurn() && v && v.phase === "choice" && v.legal.some((a) => a.startsWith("five-doubles"));
  if (!open || !v) {
    if (dialog.open) dialog.close();
    return;
  }
  const doubles = v.hand.filter((t) => {
    const [a, b] = t.split("-");
    return a === b;
  });
  need("#five-text").textContent =
    `Você recebeu ${doubles.length} carroças. Fica com ${doubles.length * 10} pontos ` +
    `para ${st.players.length === 4 ? "a sua dupla" : "você"} ou embaralha tudo de novo?`;
  fill(need("#five-tiles"), ...doubles.map((t) => tileSVG(t)));
  need("#five-points", HTMLButtonElement).textContent = `Ficar com os pontos (+${doubles.length * 10})`;
  need("#five-points", HTMLButtonElement).disabled = Boolean(ctx.busy);
  need("#five-redeal", HTMLButtonElement).disabled = Boolean(ctx.busy);
  if (!dialog.open) dialog.showModal();
}
