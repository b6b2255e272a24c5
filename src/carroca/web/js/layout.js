// @ts-check
// Where every tile of the table goes: a line that turns at the edges (a snake), doubles laid
// crosswise, and for the spinner (duplas-pontos) a cross whose four arms wind in a pinwheel.
//
// Pure geometry, no DOM: the table page, the replay viewer and the tutorial share it. Units:
// a tile's short side is 1 and its long side 2; the opening tile is centred on (0, 0).

const GAP = 0.07; // between two tiles that touch
const MARGIN = 1.3; // a returning arm stays this far from the other axis (clear of its doubles)
// A returning run turns early enough that its corner tile, too, stays clear of the other axis.
const BACK = -(MARGIN + 1 + GAP);

/** @typedef {"L" | "R" | "U" | "D"} Dir */
/** @typedef {[number, number]} Point */
/** @typedef {"left" | "right" | "up" | "down"} End */
/** @typedef {"bottom" | "left" | "top" | "right"} Place */

/** @type {Record<Dir, Point>} */
const DIRS = { L: [-1, 0], R: [1, 0], U: [0, -1], D: [0, 1] };
/** @type {Record<Dir, Dir>} */
const REVERSE = { L: "R", R: "L", U: "D", D: "U" };

/**
 * An arm's course: its first direction, the side it turns to, how far each run may reach.
 * @typedef {{dir: Dir, turn: Dir, limits: Record<Dir, number>}} ArmSpec
 */

/**
 * A tile where it lies: centre (x, y) in tile units, lying or standing, its numbers in drawing
 * order; `seat`, `index` (in play order) and `end` for a played tile, `ghost` for a place shown.
 * @typedef {object} Placed
 * @property {string} tile
 * @property {number} x
 * @property {number} y
 * @property {boolean} horizontal
 * @property {number} first
 * @property {number} second
 * @property {number} [seat]
 * @property {number} [index]
 * @property {End | null} [end]
 * @property {boolean} [ghost]
 */

/** @typedef {{seat?: number, index?: number, end?: End | null, ghost?: boolean}} Extra */
/** @typedef {{tiles: Placed[], arms: Partial<Record<End, Arm>>}} Layout */

/**
 * Each arm starts along `dir` and turns toward `turn`; `limits` caps how far (projection on the
 * direction) a run may reach before it turns. With a spinner the returning runs stop short of
 * the other axis, so the four arms never cross.
 * @param {boolean} spinner
 * @param {number} hw
 * @param {number} hh
 * @returns {{left: ArmSpec, right: ArmSpec, up?: ArmSpec, down?: ArmSpec}}
 */
function armSpecs(spinner, hw, hh) {
  if (!spinner) {
    return {
      left: { dir: "L", turn: "U", limits: { L: hw, R: hw, U: Infinity, D: Infinity } },
      right: { dir: "R", turn: "D", limits: { R: hw, L: hw, U: Infinity, D: Infinity } },
    };
  }
  return {
    left: { dir: "L", turn: "U", limits: { L: hw, R: BACK, U: Infinity, D: Infinity } },
    right: { dir: "R", turn: "D", limits: { R: hw, L: BACK, U: Infinity, D: Infinity } },
    up: { dir: "U", turn: "R", limits: { U: hh, D: BACK, L: Infinity, R: Infinity } },
    down: { dir: "D", turn: "L", limits: { D: hh, U: BACK, L: Infinity, R: Infinity } },
  };
}

/**
 * "3-5" -> [3, 5]
 * @param {string} tile
 * @returns {[number, number]}
 */
export function parse(tile) {
  const [a, b] = tile.split("-").map(Number);
  return [a, b];
}

/** @type {(p: Point, d: Point, k: number) => Point} */
const add = (p, d, k) => [p[0] + d[0] * k, p[1] + d[1] * k];
/** @type {(p: Point, d: Point) => number} */
const dot = (p, d) => p[0] * d[0] + p[1] * d[1];

/**
 * A placed tile: centre (x, y), lying horizontally or standing, and the numbers drawn first
 * (left or top) and second (right or bottom).
 * @param {string} tile
 * @param {number} x
 * @param {number} y
 * @param {boolean} horizontal
 * @param {number} first
 * @param {number} second
 * @param {Extra} extra
 * @returns {Placed}
 */
function placed(tile, x, y, horizontal, first, second, extra) {
  return { tile, x, y, horizontal, first, second, ...extra };
}

/**
 * The numbers in drawing order for a tile whose `inner` half points back along direction d.
 * @param {Dir} dirKey
 * @param {number} inner
 * @param {number} outer
 * @returns {[number, number]}
 */
function oriented(dirKey, inner, outer) {
  // Going left or up, the outer half is drawn first (left / top).
  return dirKey === "L" || dirKey === "U" ? [outer, inner] : [inner, outer];
}

class Arm {
  /**
   * @param {ArmSpec} spec
   * @param {Point} point
   * @param {number} value
   */
  constructor(spec, point, value) {
    this.spec = spec;
    this.dir = spec.dir; // current direction
    this.point = point; // where the next tile attaches: the outer edge's middle, on the axis
    this.value = value; // the number open at this end
    /** @type {Dir | null} */
    this.pending = null; // the direction of the next turn tile, right after a corner
    /** @type {Dir | null} */
    this.back = null; // the direction the arm returns to after the corner
  }

  clone() {
    const c = new Arm(this.spec, [this.point[0], this.point[1]], this.value);
    c.dir = this.dir;
    c.pending = this.pending;
    c.back = this.back;
    return c;
  }

  /**
   * Put `tile` at this end; returns where it went and moves the end.
   * @param {string} tile
   * @param {Extra} [extra]
   * @returns {Placed}
   */
  place(tile, extra = {}) {
    const [a, b] = parse(tile);
    const inner = a === this.value ? a : b === this.value ? b : a;
    const outer = inner === a ? b : a;
    if (this.pending) {
      const dir = this.pending;
      this.pending = null;
      return this._turn(tile, dir, inner, outer, extra);
    }
    const d = DIRS[this.dir];
    const crosswise = a === b;
    const length = crosswise ? 1 : 2;
    const far = add(this.point, d, GAP + length);
    if (dot(far, d) > this.spec.limits[this.dir] + 1e-9) {
      // No room: a corner tile toward the turn side, then back the other way.
      const back = REVERSE[this.dir];
      this.back = back;
      const corner = this._turn(tile, this.spec.turn, inner, outer, extra);
      this.pending = back;
      return corner;
    }
    const centre = add(this.point, d, GAP + length / 2);
    this.point = far;
    this.value = outer;
    const horizontal = this.dir === "L" || this.dir === "R";
    if (crosswise) return placed(tile, centre[0], centre[1], !horizontal, a, a, extra);
    const [first, second] = oriented(this.dir, inner, outer);
    return placed(tile, centre[0], centre[1], horizontal, first, second, extra);
  }

  /**
   * A tile that turns the line: its inner half sits beside the end, it runs along `dirKey`.
   * @param {string} tile
   * @param {Dir} dirKey
   * @param {number} inner
   * @param {number} outer
   * @param {Extra} extra
   * @returns {Placed}
   */
  _turn(tile, dirKey, inner, outer, extra) {
    const d = DIRS[this.dir];
    const t = DIRS[dirKey];
    const innerCentre = add(this.point, d, GAP + 0.5);
    const centre = add(innerCentre, t, 0.5);
    this.point = add(innerCentre, t, 1.5);
    this.dir = dirKey;
    this.value = outer;
    const horizontal = dirKey === "L" || dirKey === "R";
    const [first, second] = oriented(dirKey, inner, outer);
    return placed(tile, centre[0], centre[1], horizontal, first, second, extra);
  }
}

/**
 * Lay out the plays of one hand.
 *
 * plays: [{tile: "a-b", end?: "left"|"right"|"up"|"down", seat?}] in play order (the first has
 *   no end).
 * options: spinner (duplas-pontos), halfWidth / halfHeight: how far (in tile units) a straight
 *   run may reach from the centre before it turns.
 * Returns {tiles: [placed...], arms: {end: Arm}} — pass `arms` to slotFor() for ghost places.
 * @param {{tile: string, end?: End | null, seat?: number}[]} plays
 * @param {{spinner?: boolean, halfWidth?: number, halfHeight?: number}} [options]
 * @returns {Layout}
 */
export function layoutTable(plays, { spinner = false, halfWidth = 8, halfHeight = 6 } = {}) {
  /** @type {Placed[]} */
  const tiles = [];
  /** @type {Partial<Record<End, Arm>>} */
  const arms = {};
  if (!plays.length) return { tiles, arms };
  const [first, ...rest] = plays;
  const [a, b] = parse(first.tile);
  const double = a === b;
  const useSpinner = spinner && double;
  const specs = armSpecs(useSpinner, halfWidth, halfHeight);
  const extra0 = { seat: first.seat, index: 0, end: null };
  if (double) {
    tiles.push(placed(first.tile, 0, 0, false, a, a, extra0));
    arms.left = new Arm(specs.left, [-0.5, 0], a);
    arms.right = new Arm(specs.right, [0.5, 0], a);
    if (specs.up && specs.down) {
      arms.up = new Arm(specs.up, [0, -1], a);
      arms.down = new Arm(specs.down, [0, 1], a);
    }
  } else {
    tiles.push(placed(first.tile, 0, 0, true, a, b, extra0));
    arms.left = new Arm(specs.left, [-1, 0], a);
    arms.right = new Arm(specs.right, [1, 0], b);
  }
  rest.forEach((play, i) => {
    const arm = (play.end ? arms[play.end] : null) ?? arms.right;
    if (!arm) return; // never: the opening made left and right
    tiles.push(arm.place(play.tile, { seat: play.seat, index: i + 1, end: play.end }));
  });
  return { tiles, arms };
}

/**
 * Where `tile` would go if played on `end` (null when that end is not open in the layout).
 * @param {Layout} layout
 * @param {string} tile
 * @param {End} end
 * @returns {Placed | null}
 */
export function slotFor(layout, tile, end) {
  const arm = layout.arms[end];
  if (!arm) return null;
  return arm.clone().place(tile, { end, ghost: true });
}

/**
 * Bounding box of placed tiles, in tile units.
 * @param {Placed[]} tiles
 */
export function bounds(tiles) {
  let minX = 0;
  let maxX = 0;
  let minY = 0;
  let maxY = 0;
  for (const t of tiles) {
    const hw = t.horizontal ? 1 : 0.5;
    const hh = t.horizontal ? 0.5 : 1;
    minX = Math.min(minX, t.x - hw);
    maxX = Math.max(maxX, t.x + hw);
    minY = Math.min(minY, t.y - hh);
    maxY = Math.max(maxY, t.y + hh);
  }
  return { minX, maxX, minY, maxY };
}

/**
 * How far runs may reach for a drawing area of width x height pixels: sized so that tiles stay
 * large on a phone and on a desktop, and fixed for the area (tiles do not move as the hand goes).
 * @param {number} width
 * @param {number} height
 * @returns {{halfWidth: number, halfHeight: number}}
 */
export function reachFor(width, height) {
  const size = Math.max(22, Math.min(44, width / 13, height / 11.5));
  return {
    halfWidth: Math.max(4.6, width / size / 2 - 1.4),
    halfHeight: Math.max(4.6, height / size / 2 - 1.4),
  };
}

/**
 * A view box around every tile (and ghost), with the aspect of the drawing area: close up while
 * the table is small, wider as it grows (tiles keep their places in the layout; only the zoom
 * and the centre follow the table). Returns {x, y, width, height} in tile units.
 * @param {Placed[]} tiles
 * @param {number} width
 * @param {number} height
 * @param {{maxPx?: number, minHalf?: number}} [options]
 * @returns {{x: number, y: number, width: number, height: number}}
 */
export function viewFor(tiles, width, height, { maxPx = 54, minHalf = 4.4 } = {}) {
  const b = bounds(tiles);
  const aspect = width / Math.max(1, height);
  const cx = (b.minX + b.maxX) / 2;
  const cy = (b.minY + b.maxY) / 2;
  let hx = Math.max(minHalf, (b.maxX - b.minX) / 2 + 0.5, width / maxPx / 2);
  let hy = Math.max(2.4, (b.maxY - b.minY) / 2 + 0.5, height / maxPx / 2);
  if (hx / hy > aspect) hy = hx / aspect;
  else hx = hy * aspect;
  return { x: cx - hx, y: cy - hy, width: 2 * hx, height: 2 * hy };
}

/**
 * Where each seat sits on screen, from the viewer's seat: "bottom" for the viewer, then in turn
 * order "left", "top", "right" (the turn goes clockwise). With two seats: bottom and top.
 * @param {number} n
 * @param {number | null} viewer
 * @returns {Place[]}
 */
export function seatPlaces(n, viewer) {
  const me = viewer ?? 0;
  /** @type {Place[]} */
  const order = n === 4 ? ["bottom", "left", "top", "right"] : ["bottom", "top"];
  /** @type {Place[]} */
  const places = [];
  for (let seat = 0; seat < n; seat++) places[seat] = order[(seat - me + n) % n];
  return places;
}
