// @ts-check
// The "Pontas" chip of the table page (mesa/table.js), run by `node --test`: where the table's
// count scores, the ends listed add up to the count — a double at an end counts twice, an arm
// of the spinner without a tile yet does not count.
import assert from "node:assert/strict";
import { test } from "node:test";

import { shownEnds } from "../../src/carroca/web/js/speech.js";

/** @typedef {import("../../src/carroca/web/js/frames.js").Play} Play */

/** @param {{end: string, value: number, double: boolean}[]} ends */
const total = (ends) => ends.reduce((sum, e) => sum + (e.double ? 2 : 1) * e.value, 0);

test("the spinner alone: its two sides count, its empty arms do not", () => {
  const v = { table: [{ seat: 0, tile: "5-5" }], ends: { left: 5, right: 5, up: 5, down: 5 } };
  const ends = shownEnds(v, true);
  assert.deepEqual(ends.map((e) => e.end), ["left", "right"]);
  assert.ok(ends.every((e) => !e.double), "the opening double is one tile, not a double at an end");
  assert.equal(total(ends), 10);
});

test("a double at an end counts twice; an arm with a tile counts", () => {
  /** @type {Play[]} */
  const table = [
    { seat: 0, tile: "5-5" },
    { seat: 1, tile: "5-3", end: "left" },
    { seat: 2, tile: "5-6", end: "right" },
    { seat: 3, tile: "3-3", end: "left" },
    { seat: 0, tile: "5-2", end: "up" },
  ];
  const v = { table, ends: { left: 3, right: 6, up: 2, down: 5 } };
  const ends = shownEnds(v, true);
  assert.deepEqual(ends, [
    { end: "left", value: 3, double: true },
    { end: "right", value: 6, double: false },
    { end: "up", value: 2, double: false },
  ]);
  assert.equal(total(ends), 3 + 3 + 6 + 2);
});

test("where the count does not score, every open end is listed as it is", () => {
  /** @type {Play[]} */
  const table = [{ seat: 0, tile: "4-4" }, { seat: 1, tile: "4-1", end: "right" }];
  const ends = shownEnds({ table, ends: { left: 4, right: 1 } }, false);
  assert.deepEqual(ends, [
    { end: "left", value: 4, double: false },
    { end: "right", value: 1, double: false },
  ]);
});
