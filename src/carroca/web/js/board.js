// @ts-check
// The table drawn as real dominoes: one SVG that fits its box, with the places where a chosen
// tile may go lit as buttons (data-end="left|right|up|down").

import { s } from "./dom.js";
import { layoutTable, reachFor, slotFor, viewFor } from "./layout.js";
import { ensureDefs, tileGroup, UNIT } from "./tiles.js";
import { END_PLACE, tileName } from "./words.js";

const MIN_TARGET_PX = 46; // the smallest touch target of a place on the table
// Where a tile played from each side of the screen comes from: a unit vector on screen.
/** @type {Record<import("./layout.js").Place, [number, number]>} */
const FROM = { bottom: [0, 1], top: [0, -1], left: [-1, 0], right: [1, 0] };

/** @typedef {import("./layout.js").End} End */
/** @typedef {import("./layout.js").Placed} Placed */
/** @typedef {{tile: string, end?: End | null, seat?: number}} Play */
/** The places lit for a chosen tile, and what choosing one does. */
/** @typedef {{tile: string, ends: End[], onChoose: (end: End) => void}} Choice */
/**
 * @typedef {object} Drawing
 * @property {Play[]} plays
 * @property {boolean} [spinner]
 * @property {Choice | null} [choice]
 * @property {boolean} [animate]
 * @property {import("./layout.js").Place | null} [from]
 */

export class Board {
  /**
   * container: an element that the board fills.
   * options.label: the accessible name of the drawing.
   * @param {HTMLElement} container
   * @param {{label?: string}} [options]
   */
  constructor(container, { label = "Mesa" } = {}) {
    ensureDefs();
    this.container = container;
    this.svg = s("svg", {
      class: "board-svg",
      role: "group",
      "aria-label": label,
      preserveAspectRatio: "xMidYMid meet",
    });
    container.append(this.svg);
    /** @type {Drawing | null} */
    this.args = null;
    this.size = [0, 0];
    this.observer = new ResizeObserver(() => {
      const { width, height } = this.container.getBoundingClientRect();
      if (Math.abs(width - this.size[0]) > 1 || Math.abs(height - this.size[1]) > 1) {
        if (this.args) this.render({ ...this.args, animate: false });
      }
    });
    this.observer.observe(container);
  }

  /**
   * plays: [{tile, end?, seat?}] in play order; spinner: duplas-pontos' cross;
   * choice: {tile, ends: [...], onChoose(end)} to light the places where `tile` may go;
   * animate: let the last tile come in, sliding from `from` ("bottom", "left", "top",
   * "right": the side of the screen of the seat that played it) to its place.
   * @param {Drawing} drawing
   */
  render({ plays, spinner = false, choice = null, animate = false, from = null }) {
    this.args = { plays, spinner, choice };
    // A lit place that has the keyboard focus keeps it when the drawing is made again.
    const active = document.activeElement;
    const focused = active && this.svg.contains(active)
      ? /** @type {SVGElement | null} */ (active.closest(".ghost"))?.dataset.end ?? null
      : null;
    const { width, height } = this.container.getBoundingClientRect();
    this.size = [width, height];
    const w = Math.max(width, 100);
    const h = Math.max(height, 100);
    const layout = layoutTable(plays, { spinner, ...reachFor(w, h) });
    /** @type {Placed[]} */
    const ghosts = [];
    if (choice) {
      for (const end of choice.ends) {
        const slot = slotFor(layout, choice.tile, end);
        if (slot) ghosts.push(slot);
      }
    }
    const view = viewFor([...layout.tiles, ...ghosts], w, h);
    this.svg.setAttribute(
      "viewBox",
      [view.x, view.y, view.width, view.height].map((v) => (v * UNIT).toFixed(1)).join(" "),
    );
    const pxPerUnit = Math.min(w / view.width, h / view.height);
    const last = plays.length - 1;
    const children = layout.tiles.map((t) => {
      const g = tileGroup(t.first, t.second, {
        x: t.x * UNIT,
        y: t.y * UNIT,
        horizontal: t.horizontal,
        className: t.index === last ? "tile-last" : "",
      });
      if (animate && t.index === last) {
        g.classList.add("tile-new");
        const dir = from ? FROM[from] : undefined;
        if (dir) {
          // From just outside the visible table on that side, to the tile's place.
          const edgeX = dir[0] > 0 ? view.x + view.width + 1 : view.x - 1;
          const edgeY = dir[1] > 0 ? view.y + view.height + 1.5 : view.y - 1.5;
          const dx = dir[0] ? (edgeX - t.x) * UNIT : 0;
          const dy = dir[1] ? (edgeY - t.y) * UNIT : 0;
          g.style.setProperty("--slide-x", `${dx.toFixed(0)}px`);
          g.style.setProperty("--slide-y", `${dy.toFixed(0)}px`);
        }
      }
      return g;
    });
    // Each place is a touch target of at least MIN_TARGET_PX, unless two places are so close
    // that their targets would overlap (then each gets half the distance).
    let apart = Infinity;
    for (let i = 0; i < ghosts.length; i++) {
      for (let j = i + 1; j < ghosts.length; j++) {
        apart = Math.min(apart, Math.hypot(ghosts[i].x - ghosts[j].x, ghosts[i].y - ghosts[j].y));
      }
    }
    const reach = Math.min(Math.max(0.75, MIN_TARGET_PX / 2 / pxPerUnit), apart * 0.48);
    if (choice) for (const slot of ghosts) children.push(this._ghost(slot, choice, reach * UNIT));
    this.svg.replaceChildren(...children);
    if (focused) {
      /** @type {SVGElement | null} */ (this.svg.querySelector(`.ghost[data-end="${focused}"]`))?.focus({ preventScroll: true });
    }
  }

  /**
   * A place where the chosen tile may go, as a button.
   * @param {Placed} slot
   * @param {Choice} choice
   * @param {number} radius of its touch target, in the drawing's units
   */
  _ghost(slot, choice, radius) {
    const x = slot.x * UNIT;
    const y = slot.y * UNIT;
    const wide = slot.horizontal ? 2 : 1;
    const tall = slot.horizontal ? 1 : 2;
    const end = /** @type {End} */ (slot.end);
    /** @param {Event} ev */
    const activate = (ev) => {
      ev.preventDefault();
      ev.stopPropagation();
      choice.onChoose(end);
    };
    const label = `Jogar ${tileName(choice.tile).toLowerCase()} ${END_PLACE[end]}`;
    return s(
      "g",
      {
        class: "ghost",
        role: "button",
        tabindex: 0,
        "aria-label": label,
        dataset: { end },
        onclick: activate,
        onkeydown: (/** @type {KeyboardEvent} */ ev) => {
          if (ev.key === "Enter" || ev.key === " ") activate(ev);
        },
      },
      s("circle", { cx: x, cy: y, r: radius, class: "ghost-hit" }),
      s("rect", {
        x: x - (wide * UNIT) / 2 + 3,
        y: y - (tall * UNIT) / 2 + 3,
        width: wide * UNIT - 6,
        height: tall * UNIT - 6,
        rx: 14,
        class: "ghost-slot",
      }),
      s(
        "g",
        { class: "ghost-tile" },
        tileGroup(slot.first, slot.second, { x, y, horizontal: slot.horizontal }),
      ),
    );
  }

  /**
   * The first lit place, to move the keyboard focus there.
   * @returns {SVGGElement | null}
   */
  firstGhost() {
    return this.svg.querySelector(".ghost");
  }

  destroy() {
    this.observer.disconnect();
    this.svg.remove();
  }
}
