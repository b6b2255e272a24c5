// @ts-check
// How the replay viewer moves through a match (js/replay-moves.js): one action at a time across
// hands, never past either end, and the place an address asks for.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  atMatchEnd,
  clampPlace,
  placeFromAddress,
  stepFrom,
} from "../../src/carroca/web/js/replay-moves.js";

// Three hands: the deal and 3 actions, the deal and 1 action, the deal only.
const LENGTHS = [4, 2, 1];

/** Every place of the match in order, walked forward from the first one. */
function walkForward() {
  const places = [];
  /** @type {{hand: number, pos: number} | null} */
  let at = { hand: 0, pos: 0 };
  while (at) {
    places.push(`${at.hand}:${at.pos}`);
    at = stepFrom(LENGTHS, at, 1);
  }
  return places;
}

test("forward visits every position of every hand once, in order", () => {
  assert.deepEqual(walkForward(), ["0:0", "0:1", "0:2", "0:3", "1:0", "1:1", "2:0"]);
});

test("back from a hand's deal goes to the previous hand's last position", () => {
  assert.deepEqual(stepFrom(LENGTHS, { hand: 1, pos: 0 }, -1), { hand: 0, pos: 3, animate: false });
  assert.deepEqual(stepFrom(LENGTHS, { hand: 2, pos: 0 }, -1), { hand: 1, pos: 1, animate: false });
  assert.deepEqual(stepFrom(LENGTHS, { hand: 0, pos: 2 }, -1), { hand: 0, pos: 1, animate: false });
});

test("only a step to the next action within a hand is animated", () => {
  assert.equal(stepFrom(LENGTHS, { hand: 0, pos: 0 }, 1)?.animate, true);
  assert.equal(stepFrom(LENGTHS, { hand: 0, pos: 3 }, 1)?.animate, false);
});

test("neither end of the match can be stepped past", () => {
  assert.equal(stepFrom(LENGTHS, { hand: 0, pos: 0 }, -1), null);
  assert.equal(stepFrom(LENGTHS, { hand: 2, pos: 0 }, 1), null);
  assert.ok(atMatchEnd(LENGTHS, { hand: 2, pos: 0 }));
  assert.ok(!atMatchEnd(LENGTHS, { hand: 1, pos: 1 }));
  assert.ok(atMatchEnd([1], { hand: 0, pos: 0 }));
});

test("a place out of the match is brought back inside it", () => {
  assert.deepEqual(clampPlace(LENGTHS, 0, 9), { hand: 0, pos: 3 });
  assert.deepEqual(clampPlace(LENGTHS, 7, 5), { hand: 2, pos: 0 });
  assert.deepEqual(clampPlace(LENGTHS, -1, -1), { hand: 0, pos: 0 });
});

test("the address's hand is 1-based; a missing or unknown hand is the first one", () => {
  assert.deepEqual(placeFromAddress(LENGTHS, "2", "1"), { hand: 1, pos: 1 });
  assert.deepEqual(placeFromAddress(LENGTHS, null, null), { hand: 0, pos: 0 });
  assert.deepEqual(placeFromAddress(LENGTHS, "4", "2"), { hand: 0, pos: 2 });
  assert.deepEqual(placeFromAddress(LENGTHS, "0", "2"), { hand: 0, pos: 2 });
  assert.deepEqual(placeFromAddress(LENGTHS, "1.5", "2"), { hand: 0, pos: 2 });
});

test("the address's action is clamped to the hand, and ignored when not a whole number", () => {
  assert.deepEqual(placeFromAddress(LENGTHS, "1", "99"), { hand: 0, pos: 3 });
  assert.deepEqual(placeFromAddress(LENGTHS, "1", "-4"), { hand: 0, pos: 0 });
  assert.deepEqual(placeFromAddress(LENGTHS, "1", "abc"), { hand: 0, pos: 0 });
  assert.deepEqual(placeFromAddress(LENGTHS, "2", "0.5"), { hand: 1, pos: 0 });
});
