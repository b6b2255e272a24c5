// @ts-check
// Dominoes drawn in SVG: ivory tiles with real pips, and tile backs.
//
// A tile is drawn in "tile units": the short side is 100, the long side 200. The canonical
// tile stands upright, centred on (0, 0), with its first number on top; a horizontal tile is the
// same drawing turned a quarter (first number on the left).

import { s } from "./dom.js";

export const UNIT = 100;

// Pip centres inside one half (a 100 x 100 square centred on 0, 0), for the upright tile.
const D = 27;
/** @type {[number, number][][]} */
const PIPS = [
  [],
  [[0, 0]],
  [[-D, -D], [D, D]],
  [[-D, -D], [0, 0], [D, D]],
  [[-D, -D], [D, -D], [-D, D], [D, D]],
  [[-D, -D], [D, -D], [0, 0], [-D, D], [D, D]],
  [[-D, -D], [D, -D], [-D, 0], [D, 0], [-D, D], [D, D]],
];

let defsReady = false;
const DIAGONAL = { x1: "0", y1: "0", x2: "1", y2: "1" }; // a linear gradient's direction

/**
 * A gradient of the shared defs, its stops given as [offset, colour].
 * @param {"linearGradient" | "radialGradient"} kind @param {Record<string, string>} attrs
 * @param {...[string, string]} stops
 */
const gradient = (kind, attrs, ...stops) =>
  s(kind, attrs, ...stops.map(([offset, color]) => s("stop", { offset, "stop-color": color })));

/** Gradients shared by every tile on the page (one hidden SVG holds them). */
export function ensureDefs() {
  if (defsReady || typeof document === "undefined") return;
  defsReady = true;
  const defs = s(
    "svg",
    { width: 0, height: 0, "aria-hidden": "true" },
    s(
      "defs",
      {},
      gradient("linearGradient", { id: "cr-ivory", ...DIAGONAL },
        ["0", "#fffdf7"], ["0.55", "#f6efdf"], ["1", "#e6dcc4"]),
      gradient("radialGradient", { id: "cr-pip", cx: "0.4", cy: "0.35", r: "0.7" },
        ["0", "#4a4236"], ["1", "#15120e"]),
      gradient("linearGradient", { id: "cr-back", ...DIAGONAL },
        ["0", "#7a2334"], ["1", "#4b1220"]),
      gradient("radialGradient", { id: "cr-pin", cx: "0.35", cy: "0.35", r: "0.8" },
        ["0", "#f3d38a"], ["1", "#9a7227"]),
    ),
  );
  // Styled through CSSOM: the Content-Security-Policy refuses style="" attributes.
  Object.assign(defs.style, { position: "absolute", width: "0", height: "0" });
  document.body.prepend(defs);
}

/**
 * "3-5" -> [3, 5]
 * @param {string} tile
 * @returns {[number, number]}
 */
export function parseTile(tile) {
  const [a, b] = tile.split("-").map(Number);
  return [a, b];
}

/**
 * @param {number} value
 * @param {number} cy the centre of the half
 */
function pips(value, cy) {
  return PIPS[value].map(([x, y]) => s("circle", { cx: x, cy: cy + y, r: 10.5, class: "pip" }));
}

/**
 * The body of an upright tile (first number on top), centred on 0, 0, as SVG children.
 * `top` and `bottom` are the numbers shown.
 * @param {number} top
 * @param {number} bottom
 */
function uprightBody(top, bottom) {
  return [
    s("rect", { x: -49, y: -99, width: 98, height: 198, rx: 14, class: "tile-body" }),
    s("rect", { x: -43, y: -93, width: 86, height: 186, rx: 10, class: "tile-face" }),
    s("line", { x1: -32, y1: 0, x2: 32, y2: 0, class: "tile-divider" }),
    s("circle", { cx: 0, cy: 0, r: 6, class: "tile-pin" }),
    ...pips(top, -50),
    ...pips(bottom, 50),
  ];
}

/**
 * A tile as an SVG group for a larger drawing (the table), in tile units.
 * x, y: the centre; horizontal: lying down (first number on the left).
 * @param {number} first
 * @param {number} second
 * @param {{x?: number, y?: number, horizontal?: boolean, className?: string}} [options]
 * @returns {SVGGElement}
 */
export function tileGroup(first, second, { x = 0, y = 0, horizontal = false, className = "" } = {}) {
  return s(
    "g",
    { class: `tile ${className}`.trim(), transform: `translate(${x} ${y})` },
    shadow(horizontal),
    s("g", { transform: horizontal ? "rotate(-90)" : null }, ...uprightBody(first, second)),
  );
}

// The shadow is drawn unturned so that light always comes from the same side.
/** @param {boolean} horizontal */
function shadow(horizontal) {
  return horizontal
    ? s("rect", { x: -97, y: -45, width: 200, height: 100, rx: 15, class: "tile-shadow" })
    : s("rect", { x: -47, y: -95, width: 100, height: 200, rx: 15, class: "tile-shadow" });
}

/**
 * A standalone tile as an <svg> element (the hand, dialogs, pages that show single tiles).
 * tile: "a-b"; horizontal: lying down; flip: show b first.
 * @param {string} tile
 * @param {{horizontal?: boolean, flip?: boolean, className?: string}} [options]
 * @returns {SVGSVGElement}
 */
export function tileSVG(tile, { horizontal = false, flip = false, className = "" } = {}) {
  ensureDefs();
  let [a, b] = parseTile(tile);
  if (flip) [a, b] = [b, a];
  const box = horizontal ? "-103 -53 208 110" : "-53 -103 108 210";
  return s(
    "svg",
    { viewBox: box, class: `tile-svg ${className}`.trim(), "aria-hidden": "true", focusable: "false" },
    tileGroup(a, b, { horizontal }),
  );
}

/**
 * The back of a tile (other players' hands, the boneyard).
 * @param {{x?: number, y?: number, horizontal?: boolean}} [options]
 * @returns {SVGGElement}
 */
export function backGroup({ x = 0, y = 0, horizontal = false } = {}) {
  return s(
    "g",
    { class: "tile tile-back", transform: `translate(${x} ${y})` },
    shadow(horizontal),
    s(
      "g",
      { transform: horizontal ? "rotate(-90)" : null },
      s("rect", { x: -49, y: -99, width: 98, height: 198, rx: 14, class: "back-body" }),
      s("rect", { x: -38, y: -88, width: 76, height: 176, rx: 9, class: "back-frame" }),
      s("path", { d: "M0 -34 L22 0 L0 34 L-22 0 Z", class: "back-mark" }),
    ),
  );
}

/**
 * The back of a tile as an <svg> element.
 * @param {{horizontal?: boolean, className?: string}} [options]
 * @returns {SVGSVGElement}
 */
export function backSVG({ horizontal = false, className = "" } = {}) {
  ensureDefs();
  const box = horizontal ? "-103 -53 208 110" : "-53 -103 108 210";
  return s(
    "svg",
    { viewBox: box, class: `tile-svg ${className}`.trim(), "aria-hidden": "true", focusable: "false" },
    backGroup({ horizontal }),
  );
}
