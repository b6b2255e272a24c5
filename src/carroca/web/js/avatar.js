// @ts-check
// A face for every player, drawn in SVG from the name alone: the same name always gets the same
// face (skin, hair, clothes, glasses or a moustache), on every page and every device.

import { s } from "./dom.js";

const BACKS = ["#2f6d8c", "#7b4b94", "#a0522d", "#2e7d5b", "#8c6d1f", "#4b5fa8", "#9c3d54", "#3d7f86", "#6b6f2a", "#5b4a8a"];
const SKINS = ["#f6d3b3", "#eab891", "#d39b6f", "#b47a4e", "#8d5a36", "#6a3f24"];
const HAIRS = ["#1d1510", "#3b2616", "#6b4425", "#a56a34", "#d9b26a", "#8f8f8f", "#b8442e"];
const SHIRTS = ["#f5bb45", "#e86f51", "#4fc3a1", "#5a8dee", "#f2f2f2", "#c75b9b", "#7cc36b", "#ffffff"];
const STYLES = ["curto", "comprido", "cacheado", "coque", "bone", "raspado"];

/**
 * FNV-1a over the name's code points: a stable 32-bit number per name.
 * @param {string | null | undefined} name
 * @returns {number}
 */
export function nameHash(name) {
  let h = 0x811c9dc5;
  for (const ch of String(name || "?").trim().toLowerCase()) {
    h ^= ch.codePointAt(0) ?? 0;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** @typedef {{back: string, skin: string, hair: string, shirt: string, style: string, extra: string}} Face */

/**
 * The features of a name's face: indices into the palettes, all from one hash.
 * @param {string | null | undefined} name
 * @returns {Face}
 */
export function faceOf(name) {
  let h = nameHash(name);
  /** @param {number} n */
  const pick = (n) => {
    const v = h % n;
    h = (Math.floor(h / n) ^ (Math.imul(h, 2654435761) >>> 7)) >>> 0;
    return v;
  };
  return {
    back: BACKS[pick(BACKS.length)],
    skin: SKINS[pick(SKINS.length)],
    hair: HAIRS[pick(HAIRS.length)],
    shirt: SHIRTS[pick(SHIRTS.length)],
    style: STYLES[pick(STYLES.length)],
    extra: ["", "", "oculos", "bigode", "brinco"][pick(5)],
  };
}

/** @param {Face} f */
function hairBehind(f) {
  if (f.style === "comprido") return s("path", { d: "M17 30 Q16 12 32 11 Q48 12 47 30 L49 50 L15 50 Z", fill: f.hair });
  if (f.style === "coque") return s("circle", { cx: 32, cy: 10, r: 7, fill: f.hair });
  if (f.style === "cacheado") {
    return s("g", { fill: f.hair },
      ...[[20, 22], [25, 15], [32, 12], [39, 15], [44, 22], [18, 30], [46, 30]].map(([cx, cy]) =>
        s("circle", { cx, cy, r: 6.5 })));
  }
  return null;
}

/** @param {Face} f */
function hairOver(f) {
  switch (f.style) {
    case "curto":
    case "comprido":
    case "coque":
      return s("path", { d: "M19 29 Q19 14 32 14 Q45 14 45 29 Q40 21 32 21 Q24 21 19 29 Z", fill: f.hair });
    case "cacheado":
      return s("path", { d: "M20 26 Q22 16 32 16 Q42 16 44 26 Q38 21 32 22 Q26 21 20 26 Z", fill: f.hair });
    case "bone":
      return s("g", {},
        s("path", { d: "M18 27 Q18 13 32 13 Q46 13 46 27 Z", fill: f.shirt, stroke: "rgba(0,0,0,.25)", "stroke-width": 1 }),
        s("path", { d: "M30 26 L54 26 Q54 30 46 30 L30 30 Z", fill: f.shirt, stroke: "rgba(0,0,0,.25)", "stroke-width": 1 }));
    default: // raspado
      return s("path", { d: "M20 26 Q21 16 32 16 Q43 16 44 26 Q38 22 32 22 Q26 22 20 26 Z", fill: f.hair, opacity: 0.55 });
  }
}

/** @param {Face} f */
function extra(f) {
  if (f.extra === "oculos") {
    return s("g", { fill: "none", stroke: "#1b1b1b", "stroke-width": 1.6 },
      s("circle", { cx: 27, cy: 31, r: 4 }), s("circle", { cx: 37, cy: 31, r: 4 }),
      s("path", { d: "M31 31 L33 31" }));
  }
  if (f.extra === "bigode") return s("path", { d: "M26 37 Q32 33 38 37 Q32 36 26 37 Z", fill: f.hair });
  if (f.extra === "brinco") return s("circle", { cx: 19, cy: 36, r: 1.8, fill: "#f5d36a" });
  return null;
}

/**
 * An <svg> face for `name` (decorative: the name is always written beside it).
 * @param {string} name
 * @param {{className?: string}} [options]
 * @returns {SVGSVGElement}
 */
export function avatarSVG(name, { className = "" } = {}) {
  const f = faceOf(name);
  return s(
    "svg",
    {
      viewBox: "0 0 64 64",
      class: `avatar-svg ${className}`.trim(),
      "aria-hidden": "true",
      focusable: "false",
      dataset: { face: `${f.style}-${f.extra || "nada"}` },
    },
    s("rect", { x: 0, y: 0, width: 64, height: 64, fill: f.back }),
    hairBehind(f),
    s("path", { d: "M10 66 Q11 48 32 47 Q53 48 54 66 Z", fill: f.shirt }),
    s("rect", { x: 28, y: 40, width: 8, height: 9, rx: 3, fill: f.skin }),
    s("ellipse", { cx: 32, cy: 30, rx: 13, ry: 15, fill: f.skin }),
    s("circle", { cx: 19.5, cy: 32, r: 2.6, fill: f.skin }),
    s("circle", { cx: 44.5, cy: 32, r: 2.6, fill: f.skin }),
    hairOver(f),
    s("circle", { cx: 27, cy: 31, r: 1.7, fill: "#1b1b1b" }),
    s("circle", { cx: 37, cy: 31, r: 1.7, fill: "#1b1b1b" }),
    s("path", { d: "M27.5 38 Q32 41.5 36.5 38", fill: "none", stroke: "#5a2a1a", "stroke-width": 1.6, "stroke-linecap": "round" }),
    extra(f),
  );
}
