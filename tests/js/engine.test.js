// @ts-check
// The browser engine's tile set, run by `node --test` (no browser needed).
import assert from "node:assert/strict";
import { test } from "node:test";

import { TILES, halves, isDouble, pips, pipsOf } from "../../src/carroca/web/js/engine.js";

test("the set holds the 28 tiles of double-six, once each, in canonical order", () => {
  assert.equal(TILES.length, 28);
  assert.equal(new Set(TILES).size, 28);
  assert.equal(TILES[0], "0-0");
  assert.equal(TILES[27], "6-6");
  for (const t of TILES) {
    const [a, b] = halves(t);
    assert.ok(a <= b, t);
  }
});

test("pips and doubles", () => {
  assert.equal(pips("3-5"), 8);
  assert.ok(isDouble("4-4"));
  assert.ok(!isDouble("4-5"));
  assert.equal(pipsOf(TILES), 168);
});
