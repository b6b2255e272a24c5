// @ts-check
// The frames the server sends on the WebSocket (docs/protocol.md, "Server → client"), as types
// only, under the names the client uses: every frame is {"type", "data"}, and each typedef below
// is named after its `type` (`State` is the data of a "state" frame). They come from wire.d.ts,
// generated from the server's frame models (carroca.server.realtime.wire), so a member the
// server adds, drops or retypes fails `make typecheck-js` where the client reads it.
//
// The models type two members of the view as any object: the last hand's reveal and the
// match's result (`View.last_hand`, `View.result`, dicts built by carroca.rules.observation).
// Their shape is written here, from that code, and laid over the generated `View` and `State`;
// everything else is the generated type as it is.

/** @typedef {import("./wire").ServerFrame} ServerFrame */

/** A seat's player; `null` in `State.players` for a seat still open. */
/** @typedef {import("./wire").SeatPlayer} Player */

/** An open end of the line (the rules' names; the models type it `string`). */
/** @typedef {"left" | "right" | "up" | "down"} End */

/** A tile on the table, in play order (the opening has no end). */
/** @typedef {import("./wire").TableSpot} Play */

/** A public action of the current hand ("play", "draw", "pass", "five-doubles"); another
 * seat's draw shows no tile. */
/** @typedef {import("./wire").Step} Step */

/** @typedef {import("./wire").Clock} Clock */
/** @typedef {import("./wire").Pause} Pause */

/**
 * How a hand ended (`revealed_hand` in carroca.rules.observation).
 * @typedef {object} HandEnd
 * @property {"batida" | "fechado" | "redeal" | "abandon"} kind
 * @property {number | null} seat the batedor, the locker or who abandoned
 * @property {number | null} winner the team that won the hand
 * @property {string} detail
 */

/** @typedef {{index: number, team: number, points: number, reason: string}} ScoreEvent */

/**
 * The previous hand, revealed once it is over (`View.last_hand`).
 * @typedef {object} LastHand
 * @property {number} deal_index
 * @property {HandEnd} end
 * @property {number[]} score the score when it ended
 * @property {string[][]} hands_left every seat's tiles left
 * @property {Play[]} table
 * @property {ScoreEvent[]} events
 */

/** The end of the match (`View.result`). */
/** @typedef {{winner: number, score: number[], reason: string, pneu: boolean}} Result */

/**
 * The seat's observation of the match (`null` while the table waits for players).
 * @typedef {Omit<import("./wire").View, "last_hand" | "result">
 *   & {last_hand: LastHand | null, result: Result | null}} View
 */

/**
 * "state": the table as the receiving seat sees it; sent on `join` and after every change.
 * @typedef {Omit<import("./wire").State, "view"> & {view: View | null}} State
 */

/** "hello": the first frame after connecting. */
/** @typedef {import("./wire").Hello} Hello */

/** "owner": another node runs the match. */
/** @typedef {import("./wire").Owner} Owner */

/** "ack": the move `id` was accepted and stored. */
/** @typedef {import("./wire").Ack} Ack */

/** "error": a refused frame; nothing changed. */
/** @typedef {import("./wire").Error} Error */

/** "chat": a chat line (`at`: seconds since the epoch). */
/** @typedef {import("./wire").ChatLine} Chat */

/** "matched": a match where the player holds a seat has started. */
/** @typedef {import("./wire").Matched} Matched */

/** "tournament": the player's game of an event is at table `match`, or the event is over. */
/** @typedef {import("./wire").Tournament} Tournament */

/** "rematch": `by` asked for a rematch of the finished table `match`; `id` is the new table. */
/** @typedef {import("./wire").Rematch} Rematch */

/** "muted": the seats whose chat lines the player no longer receives. */
/** @typedef {import("./wire").Muted} Muted */

/** "pong", "left": replies without data. */
/** @typedef {import("./wire").Pong} Pong */
/** @typedef {import("./wire").Left} Left */

/**
 * Each server frame's data by its type, as generated.
 * @typedef {{[F in ServerFrame as F["type"]]: F["data"]}} ServerFrames
 */

/**
 * Each frame's data by its type, as the table page reads it (`state` with its view's shape).
 * @typedef {Omit<ServerFrames, "state"> & {state: State}} Frames
 */

export {};
