// @ts-check
// The hand the tutorial plays: the first hand of a duplas-pontos match, dealt in this order
// (seat s holds positions 7s … 7s+6; seat 0 is the player), and every action of it in turn.
// The tutorial replays it with the rules engine (engine.js), which checks every action, so the
// points, passes and the galo the player sees are the real ones.

export const RULESET = "duplas-pontos";

export const DEAL = [
  "1-3", "1-6", "0-1", "2-2", "6-6", "3-5", "0-5",
  "5-5", "1-5", "0-0", "3-4", "2-3", "1-1", "0-3",
  "3-3", "1-2", "2-5", "4-5", "4-6", "3-6", "5-6",
  "1-4", "0-2", "4-4", "2-4", "0-4", "0-6", "2-6",
];

/**
 * [seat, action] in the order they happen; the player's are the ones the tutorial asks for.
 * @type {[number, string][]}
 */
export const ACTIONS = [
  [0, "6-6"],
  [1, "pass"],
  [2, "3-6:left"],
  [3, "2-6:right"],
  [0, "3-5:left"],
  [1, "5-5:left"],
  [2, "2-5:right"],
  [3, "0-6:up"],
  [0, "0-5:up"],
  [1, "1-5:left"],
  [2, "4-6:down"],
  [3, "4-4:down"],
  [0, "1-6:left"],
  [1, "3-4:down"],
  [2, "5-6:right"],
  [3, "pass"],
  [0, "1-3:down"],
  [1, "1-1:down"],
  [2, "4-5:up"],
  [3, "1-4:down"],
  [0, "pass"],
  [1, "pass"],
  [2, "pass"],
  [3, "2-4:up"],
  [0, "2-2:up"],
  [1, "2-3:up"],
  [2, "3-3:up"],
  [3, "0-4:down"],
  [0, "0-1:down"],
];
