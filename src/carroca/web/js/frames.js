// @ts-check
// The frames the server sends on the WebSocket (docs/protocol.md, "Server → client"), as types
// only: every frame is {"type", "data"}, and each typedef below is named after its `type`
// (`State` is the data of a "state" frame). The one place the client describes them, so that
// they can be checked against the server's frame models.

/** A seat's player; `null` in `State.players` for a seat still open. */
/** @typedef {{name: string, bot: boolean, connected: boolean}} Player */

/** @typedef {"left" | "right" | "up" | "down"} End */

/** A tile on the table, in play order (the opening has no end). */
/** @typedef {{seat: number, tile: string, end?: End}} Play */

/**
 * A public action of the current hand (another seat's draw shows no tile).
 * @typedef {object} Step
 * @property {number} seat
 * @property {"play" | "draw" | "pass" | "five-doubles"} type
 * @property {string} [tile]
 * @property {End} [end]
 * @property {string} [choice] "points" | "redeal" for five-doubles
 * @property {boolean} [auto] made by the clock
 */

/**
 * How a hand ended.
 * @typedef {object} HandEnd
 * @property {"batida" | "fechado" | "redeal" | "abandon"} kind
 * @property {number | null} seat the batedor, the locker or who abandoned
 * @property {number | null} winner the team that won the hand
 * @property {string} detail
 */

/** @typedef {{index: number, team: number, points: number, reason: string}} ScoreEvent */

/**
 * The previous hand, revealed once it is over.
 * @typedef {object} LastHand
 * @property {number} deal_index
 * @property {HandEnd} end
 * @property {number[]} score the score when it ended
 * @property {string[][]} hands_left every seat's tiles left
 * @property {Play[]} table
 * @property {ScoreEvent[]} events
 */

/** @typedef {{winner: number, score: number[], reason: string, pneu: boolean}} Result */

/**
 * The seat's observation of the match (`null` while the table waits for players).
 * @typedef {object} View
 * @property {string} ruleset
 * @property {Record<string, unknown>} options
 * @property {number | null} seat
 * @property {"deal" | "choice" | "play" | "over"} phase
 * @property {number | null} turn
 * @property {string[]} hand own tiles (none for a spectator)
 * @property {number[]} hand_sizes
 * @property {number} boneyard tiles left to draw
 * @property {Play[]} table
 * @property {Partial<Record<End, number>>} ends open end -> the number shown
 * @property {number} table_count
 * @property {number[]} score
 * @property {number} hand_number
 * @property {number} deal_index
 * @property {number | null} opener
 * @property {Step[]} steps
 * @property {string[]} legal the viewer's legal actions ("3-5:left", "pass", …)
 * @property {LastHand | null} last_hand
 * @property {Result | null} result
 */

/** @typedef {{seat: number, seconds: number, remaining_ms: number}} Clock */
/** @typedef {{seconds: number, remaining_ms: number}} Pause */

/**
 * The options of a table's ruleset (those the client reads; the rest vary by ruleset).
 * @typedef {{target?: number, hands_to_win?: number} & Record<string, unknown>} Options
 */

/**
 * "state": the table as the receiving seat sees it; sent on `join` and after every change.
 * @typedef {object} State
 * @property {string} id
 * @property {"casual" | "ranked" | "friends" | "bots" | "tournament"} mode
 * @property {string} ruleset
 * @property {Options} options
 * @property {"waiting" | "playing" | "finished" | "expired"} status
 * @property {number | null} seat null for a spectator
 * @property {(Player | null)[]} players
 * @property {string} commitment
 * @property {string[]} client_seeds
 * @property {string | null} client_seed
 * @property {number} version
 * @property {number} turn_seconds
 * @property {Clock | null} clock
 * @property {Pause | null} pause
 * @property {boolean} chat
 * @property {View | null} view
 * @property {string} [server_seed] once finished
 * @property {number} [last_move_id] seated players only
 * @property {{before: number | null, after: number | null}} [rating] after a ranked match
 * @property {string} [invite] at friends' tables
 * @property {{id: string, by: string}} [rematch] once someone asked for a rematch
 */

/** "hello": the first frame after connecting. */
/** @typedef {{player: {id: string, name: string, kind: string}, protocol: number, node: string | null}} Hello */

/** "owner": another node runs the match. */
/** @typedef {{match: string, node: string}} Owner */

/** "ack": the move `id` was accepted and stored. */
/** @typedef {{id: number, version: number, duplicate?: boolean}} Ack */

/** "error": a refused frame; nothing changed. */
/** @typedef {{code: string, message: string, id?: number}} Error */

/** "chat": a chat line (`at`: seconds since the epoch). */
/** @typedef {{seat: number, name: string, text: string, at: number}} Chat */

/** "matched": a match where the player holds a seat has started. */
/** @typedef {{match: string, mode: string}} Matched */

/** "tournament": the player's game of an event is at table `match`, or the event is over. */
/**
 * @typedef {object} Tournament
 * @property {string} event
 * @property {string} name
 * @property {string} status
 * @property {string} [match]
 * @property {number} [round]
 * @property {number} [table]
 * @property {number} [game]
 */

/** "rematch": `by` asked for a rematch of the finished table `match`; `id` is the new table. */
/** @typedef {{match: string, id: string, mode: string, by: string}} Rematch */

/** "muted": the seats whose chat lines the player no longer receives. */
/** @typedef {{seats: number[]}} Muted */

/** "pong", "left": replies without data. */
/** @typedef {Record<string, never>} Pong */
/** @typedef {Record<string, never>} Left */

/**
 * Each frame's data by its type.
 * @typedef {object} Frames
 * @property {Hello} hello
 * @property {Owner} owner
 * @property {State} state
 * @property {Ack} ack
 * @property {Error} error
 * @property {Chat} chat
 * @property {Matched} matched
 * @property {Tournament} tournament
 * @property {Rematch} rematch
 * @property {Muted} muted
 * @property {Pong} pong
 * @property {Left} left
 */

/** A frame as received: `{type, data}` with the data of its type. */
/** @typedef {{[K in keyof Frames]: {type: K, data: Frames[K]}}[keyof Frames]} Frame */

export {};
