// @ts-check
// A table's state as the server sends it, for the tests of what the client makes of two states
// (events.js, speech.js): a duplas-pontos casual table seen from seat 0, humans at seat 0 only.

/** @typedef {import("../../src/carroca/web/js/frames.js").State} State */
/** @typedef {import("../../src/carroca/web/js/frames.js").View} View */

/**
 * The state at `version`, its view's fields those given (the others those of an empty table).
 * @param {number} version
 * @param {Partial<View>} view
 * @returns {State}
 */
export function state(version, view) {
  return {
    id: "m1", mode: "casual", ruleset: "duplas-pontos", options: { target: 200 }, status: "playing",
    seat: 0, players: [0, 1, 2, 3].map((i) => ({ name: `p${i}`, bot: i > 0, connected: true })),
    commitment: "", client_seeds: [], client_seed: null, version, turn_seconds: 20, clock: null,
    pause: null, more_time: [], chat: true,
    view: {
      ruleset: "duplas-pontos", options: {}, seat: 0, phase: "play", turn: 0, hand: [], hand_sizes: [],
      boneyard: 0, table: [], ends: {}, table_count: 0, score: [0, 0], hand_number: 1, deal_index: 0,
      opener: 0, steps: [], legal: [], last_hand: null, result: null, ...view,
    },
  };
}
