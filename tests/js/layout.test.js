// @ts-check
// The table's geometry (layout.js), run by `node --test`: where each seat sits, a line of tiles
// that turns at the edges without two tiles overlapping, and the places lit for a chosen tile.
import assert from "node:assert/strict";
import { test } from "node:test";

import { bounds, layoutTable, seatPlaces, slotFor } from "../../src/carroca/web/js/layout.js";

/** @typedef {import("../../src/carroca/web/js/layout.js").Placed} Placed */

/** The area two placed tiles share (0 when they only touch or are apart). */
function overlap(/** @type {Placed} */ a, /** @type {Placed} */ b) {
  const [ax, ay] = a.horizontal ? [1, 0.5] : [0.5, 1];
  const [bx, by] = b.horizontal ? [1, 0.5] : [0.5, 1];
  const w = Math.min(a.x + ax, b.x + bx) - Math.max(a.x - ax, b.x - bx);
  const h = Math.min(a.y + ay, b.y + by) - Math.max(a.y - ay, b.y - by);
  return w > 1e-6 && h > 1e-6 ? w * h : 0;
}

function assertApart(/** @type {Placed[]} */ tiles) {
  for (let i = 0; i < tiles.length; i++) {
    for (let j = i + 1; j < tiles.length; j++) {
      assert.equal(overlap(tiles[i], tiles[j]), 0, `${tiles[i].tile} and ${tiles[j].tile} overlap`);
    }
  }
}

test("the viewer sits at the bottom and the turn goes clockwise", () => {
  assert.deepEqual(seatPlaces(4, 0), ["bottom", "left", "top", "right"]);
  assert.deepEqual(seatPlaces(4, 1), ["right", "bottom", "left", "top"]);
  assert.deepEqual(seatPlaces(4, null), ["bottom", "left", "top", "right"]);
  assert.deepEqual(seatPlaces(2, 1), ["top", "bottom"]);
});

// One arm that runs far past the edge: 6-6, then 6-5, 5-4, … down to 0, and back up.
const CHAIN = ["6-5", "5-4", "4-3", "3-2", "2-1", "1-0", "0-0", "0-2", "2-2", "2-4", "4-4", "4-6"];

test("a long line turns at the edge and no two tiles overlap", () => {
  const plays = [{ tile: "6-6" }, ...CHAIN.map((tile) => ({ tile, end: /** @type {const} */ ("right") }))];
  const { tiles } = layoutTable(plays, { halfWidth: 4, halfHeight: 4 });
  assert.equal(tiles.length, plays.length);
  assertApart(tiles);
  // a straight run stops at its reach; only the corner tile, laid across, goes past it by a tile
  assert.ok(bounds(tiles).maxX < 4 + 1.1, "the run stays within its reach");
  assert.ok(tiles.some((t) => !t.horizontal && t.first !== t.second), "the line turned");
  // every tile shows the number its neighbour left open
  for (let i = 2; i < tiles.length; i++) {
    const [a, b] = tiles[i].tile.split("-").map(Number);
    assert.ok([a, b].includes(tiles[i].first) && [a, b].includes(tiles[i].second), tiles[i].tile);
  }
});

test("the spinner's four arms stay apart", () => {
  /** @type {{tile: string, end?: "left" | "right" | "up" | "down"}[]} */
  const plays = [{ tile: "5-5" }];
  const arms = /** @type {const} */ (["left", "right", "up", "down"]);
  const chains = { left: ["5-1", "1-1", "1-3"], right: ["5-2", "2-0", "0-4"], up: ["5-3", "3-3", "3-0"], down: ["5-6", "6-1", "1-4"] };
  for (let k = 0; k < 3; k++) for (const end of arms) plays.push({ tile: chains[end][k], end });
  const { tiles } = layoutTable(plays, { spinner: true, halfWidth: 4.6, halfHeight: 4.6 });
  assertApart(tiles);
});

test("a lit place shows where the tile would go and leaves the layout as it was", () => {
  const layout = layoutTable([{ tile: "3-4" }, { tile: "4-6", end: "right" }]);
  const before = JSON.stringify(layout.tiles);
  const slot = slotFor(layout, "6-1", "right");
  assert.ok(slot);
  assert.equal(slot.ghost, true);
  assert.equal(slot.first, 6, "the 6 faces the 6 open on the right");
  assert.ok(slot.x > layout.tiles[1].x);
  assertApart([...layout.tiles, slot]);
  assert.equal(JSON.stringify(layout.tiles), before);
  assert.equal(slotFor(layout, "6-1", "up"), null, "no up end without a spinner");
});
