// @ts-check
// The frames the server sends on the WebSocket (docs/protocol.md, "Server → client"), as types
// only, under the names the client uses: every frame is {"type", "data"}, and each typedef below
// is named after its `type` (`State` is the data of a "state" frame). They all come from wire.d.ts,
// generated from the server's frame models (carroca.server.realtime.wire), down to the last
// hand's reveal, the match's result and the closed sets of names (an end, a step's type, a
// phase): a member the server adds, drops or retypes fails `make typecheck-js` where the client
// reads it. Nothing here is written by hand.

/** @typedef {import("./wire").ServerFrame} ServerFrame */

/** A seat's player; `null` in `State.players` for a seat still open. */
/** @typedef {import("./wire").SeatPlayer} Player */

/** An open end of the line: "left", "right", "up", "down". */
/** @typedef {import("./wire").End} End */

/** A tile on the table, in play order (the opening has no end). */
/** @typedef {import("./wire").TableSpot} Play */

/** A public action of the current hand ("play", "draw", "pass", "five-doubles"); another
 * seat's draw shows no tile. */
/** @typedef {import("./wire").Step} Step */

/** @typedef {import("./wire").Clock} Clock */
/** @typedef {import("./wire").Pause} Pause */

/** How a hand ended: "batida", "fechado", "redeal" or "abandon". */
/** @typedef {import("./wire").HandEnd} HandEnd */

/** @typedef {import("./wire").ScoreEvent} ScoreEvent */

/** The previous hand, revealed once it is over (`View.last_hand`). */
/** @typedef {import("./wire").LastHand} LastHand */

/** The end of the match (`View.result`). */
/** @typedef {import("./wire").Result} Result */

/** The seat's observation of the match (`null` while the table waits for players). */
/** @typedef {import("./wire").View} View */

/** "state": the table as the receiving seat sees it; sent on `join` and after every change. */
/** @typedef {import("./wire").State} State */

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

/** "notice": what the people at table `match` should know once (its bots play simply). */
/** @typedef {import("./wire").Notice} Notice */

/** "announcement": the operator's message for everyone (`text` null: taken down). */
/** @typedef {import("./wire").Announcement} Announcement */

/** "pong", "left": replies without data. */
/** @typedef {import("./wire").Pong} Pong */
/** @typedef {import("./wire").Left} Left */

/**
 * Each server frame's data by its type.
 * @typedef {{[F in ServerFrame as F["type"]]: F["data"]}} Frames
 */

export {};
