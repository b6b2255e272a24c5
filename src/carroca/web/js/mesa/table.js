// @ts-check
// The board: the tiles on the table (drawn by ../board.js), the places lit for a chosen tile,
// the line shown on an empty table, and the chips beside it ("Mesa", "Pontas", "Monte").

import { fill, h, need } from "../dom.js";
import { COUNTING, shownEnds } from "../speech.js";
import * as W from "../words.js";
import { ctx, current, legalByTile, nameOf } from "./state.js";

/** @typedef {import("../frames.js").End} End */
/** @typedef {import("../frames.js").Play} Play */

/**
 * The board from the state.
 * @param {(end: End) => void} onChoose what choosing a lit place does
 * @param {import("../layout.js").Place | null} [from] the side a tile just played slides in from
 */
export function renderBoard(onChoose, from = null) {
  const board = ctx.board;
  if (!board) return;
  const st = current();
  const v = st.view;
  // During the pause between hands, and once the match is over, the table of the hand that
  // ended stays in view.
  const last = (ctx.pause || st.status === "finished") && v ? v.last_hand : null;
  const paused = Boolean(last);
  const plays = last ? last.table : v ? v.table : [];
  const spinner = W.SPINNER.has(st.ruleset);
  let choice = null;
  if (ctx.selected) {
    const ends = legalByTile().get(ctx.selected) || [];
    choice = { tile: ctx.selected, ends: ends.filter((e) => e !== null), onChoose };
  }
  board.render({ plays, spinner, choice, animate: from !== null, from });
  const ends = v && !paused ? v.ends : {};
  const endText = Object.entries(ends)
    .map(([end, value]) => `${W.END_NAMES[/** @type {End} */ (end)]} ${value}`)
    .join(", ");
  board.svg.setAttribute(
    "aria-label",
    paused
      ? `Mesa da mão que terminou, com ${plays.length} ${plays.length === 1 ? "pedra" : "pedras"}`
      : plays.length
        ? `Mesa com ${plays.length} ${plays.length === 1 ? "pedra" : "pedras"}; pontas abertas: ${endText}`
        : "Mesa vazia",
  );
  const empty = need("#board-empty");
  if (!plays.length && st.status === "playing" && v && v.phase !== "over") {
    empty.hidden = false;
    empty.textContent =
      v.phase === "choice"
        ? "Cinco carroças na mão de alguém: esperando a escolha."
        : v.turn === st.seat
          ? "A saída é sua!"
          : `Saída de ${nameOf(/** @type {number} */ (v.turn))}.`;
  } else {
    empty.hidden = true;
  }
}

/** The chips beside the board: the table's count, the open ends, the boneyard. */
export function renderTableInfo() {
  const st = current();
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
  fill(need("#table-info"), ...parts);
}
