// The WebSocket protocol's messages (docs/protocol.md), both ways. Generated from
// carroca.server.realtime.wire and carroca.server.realtime.protocol by
// carroca.server.realtime.schema; do not edit.
// Regenerate with:
//   python -m carroca.server.realtime.schema --typescript > src/carroca/web/js/wire.d.ts

export interface ClientChat {
  type: "chat";
  data: ClientChatData;
}

export interface ClientChatData {
  text: string;
}

export type ClientEmptyData = Record<string, never>;

/** Wait (or not) for this seat at the end of each hand, while it reads the summary. */
export interface ClientHold {
  type: "hold";
  data: ClientHoldData;
}

export interface ClientHoldData {
  match: string;
  on: boolean;
}

export interface ClientJoin {
  type: "join";
  data: ClientJoinData;
}

export interface ClientJoinData {
  match: string;
  client_seed?: string | null;
}

export interface ClientLeave {
  type: "leave";
  data?: ClientEmptyData;
}

/** Give (or no longer) this seat's turns twice the table's time, where the table allows it (casual and friends' tables). */
export interface ClientMoreTime {
  type: "more_time";
  data: ClientMoreTimeData;
}

export interface ClientMoreTimeData {
  match: string;
  on: boolean;
}

export interface ClientMove {
  type: "move";
  data: ClientMoveData;
}

export interface ClientMoveData {
  id: number;
  action: string;
  version?: number | null;
}

export interface ClientMute {
  type: "mute";
  data: ClientMuteData;
}

export interface ClientMuteData {
  seat: number;
  muted: boolean;
}

export interface ClientPing {
  type: "ping";
  data?: ClientEmptyData;
}

/** This seat has read the hand's summary: the table need not wait for it any more. */
export interface ClientReady {
  type: "ready";
  data: ClientReadyData;
}

export interface ClientReadyData {
  match: string;
}

export interface ClientUnwatch {
  type: "unwatch";
  data?: ClientEmptyData;
}

export interface ClientWatch {
  type: "watch";
  data: ClientWatchData;
}

export interface ClientWatchData {
  event: string;
  code?: string | null;
}

export type PlayerKind = "guest" | "account" | "bot";

export type Mode = "casual" | "ranked" | "friends" | "bots" | "tournament";

export type TableStatus = "waiting" | "playing" | "finished" | "expired";

export type EventStatus = "running" | "finished" | "cancelled";

export type Phase = "deal" | "choice" | "play" | "over";

export type End = "left" | "right" | "up" | "down";

export type StepType = "play" | "draw" | "pass" | "five-doubles";

export type FiveChoice = "points" | "redeal";

export type HandEndKind = "batida" | "fechado" | "redeal" | "abandon";

export type ResultReason = "target" | "abandon";

export type PresenceState = "online" | "playing" | "watching" | "tournament" | "offline";

export type ChallengeStatus = "accepted" | "declined" | "expired" | "cancelled";

/** The first frame after connecting; `node`: the server node the socket is on (null for a single server). */
export interface Hello {
  player: Player;
  protocol: number;
  node: string | null;
}

/** A signed-in player as the server names them to themselves. */
export interface Player {
  id: number;
  name: string;
  kind: PlayerKind;
}

/** After the `state` that answers a `join`, when another node runs the match. */
export interface Owner {
  match: string;
  node: string;
}

/** The table as one seat sees it. The members every seat shares come first, then `view`, then the seat's own (`frames.StateFrames` splices a seat's own onto the shared text). */
export interface State {
  id: string;
  mode: Mode;
  ruleset: string;
  options: Record<string, unknown>;
  status: TableStatus;
  players: (SeatPlayer | null)[];
  commitment: string;
  client_seeds: (string | null)[];
  client_seed: string | null;
  version: number;
  turn_seconds: number;
  clock: Clock | null;
  pause: Pause | null;
  more_time: number[];
  chat: boolean;
  server_seed?: string;
  ended?: string;
  view: View | null;
  seat: number | null;
  last_move_id?: number | null;
  rating?: RatingChange;
  invite?: string;
  rematch?: RematchAsked;
}

/** `players[i]` of a state: who sits there (null: an open seat). */
export interface SeatPlayer {
  name: string;
  bot: boolean;
  connected: boolean;
  bot_account?: boolean;
}

/** The running turn clock: `remaining_ms` counted when the frame was built. */
export interface Clock {
  seat: number;
  seconds: number;
  remaining_ms: number;
}

/** The pause between two hands; `reading`: the seats it waits for while they read the hand's summary (the `hold` and `ready` messages), up to a cap. */
export interface Pause {
  seconds: number;
  remaining_ms: number;
  reading: number[];
}

export interface RatingChange {
  before: number | null;
  after: number | null;
}

/** `rematch` of a finished table's state: the table of the next match, and who asked. */
export interface RematchAsked {
  id: string;
  by: string;
}

export interface Ack {
  id: number;
  version: number;
  duplicate?: boolean;
}

/** A refused frame; nothing changed. `id`: the refused move's. */
export interface Error {
  code: string;
  message: string;
  id?: number;
}

export interface ChatLine {
  seat: number;
  name: string;
  text: string;
  at: number;
}

export interface Matched {
  match: string;
  mode: Mode;
}

/** An event one plays in: with `match`, one's game of it is at that table. */
export interface Tournament {
  event: string;
  name: string;
  status: EventStatus;
  match?: string;
  round?: number;
  table?: number;
  game?: number;
}

/** An event's whole page as `GET /api/tournaments/{id}` answers it: the answer to `watch` (with the watcher's own `me`, `my_match`, `creator`), or on the event's channel when a change has no base to be told against (without them). `version`: null for an event no node runs (over: nothing more will change). */
export interface EventView {
  event: string;
  version: number | null;
  view: Record<string, unknown>;
}

/** A change of a watched event, for a page at `version - 1`: the page's fields that changed (`set`), the standings' lines that changed (by `entrant`; the list is in `rank` order), and per round (by `round`) its byes and the tables that changed (by `table`; a new round whole). A page at another version asks again (`watch`). */
export interface EventChange {
  event: string;
  version: number;
  set: Record<string, unknown>;
  standings: Record<string, unknown>[];
  rounds: Record<string, unknown>[];
}

export interface Rematch {
  match: string;
  id: string;
  mode: Mode;
  by: string;
}

export type Pong = Record<string, never>;

export type Left = Record<string, never>;

export interface Muted {
  seats: number[];
}

/** The operator's message for everyone (shown in the lobby and at tables), after `hello` and whenever it changes; `text` null: taken down. */
export interface Announcement {
  id: number | null;
  text: string | null;
}

/** Something the people at table `match` should know once, in pt-BR (`code`: what, for programs; `bots_simple`: its bots play the safe move, the bot service being behind). */
export interface Notice {
  match: string;
  code: string;
  message: string;
}

/** Every friend with their presence: after `hello`, and when the friends changed. */
export interface Friends {
  friends: FriendPresence[];
}

/** Where a friend is: `match` (playing or watching) only for a public table, `event` the tournament whose page they follow, `seen` when they were last online (offline; null: unknown since the server started). */
export interface FriendPresence {
  id: number;
  name: string;
  state: PresenceState;
  match: string | null;
  event: string | null;
  seen: number | null;
}

/** A friend's presence changed (at most one a friend every few seconds). */
export interface Presence {
  friend: FriendPresence;
}

/** A friend (`by`) challenges you: the table's ruleset, options, turn and who sits where (names, bots' too); answer by `expires` (epoch seconds). */
export interface Challenge {
  id: string;
  by: string;
  ruleset: string;
  options: Record<string, unknown>;
  turn_seconds: number;
  seats: string[];
  expires: number;
}

/** A challenge you sent or received ended: `accepted` (every invited friend did: `match` is the new table), `declined` (by `by`), `expired`, `cancelled` (by its sender). */
export interface ChallengeEnd {
  id: string;
  status: ChallengeStatus;
  match: string | null;
  by: string | null;
}

/** A match where the player holds a seat ended (on their own channel, as `matched` told its start): `finished` (played out, or given up) or `expired` (closed unfinished). */
export interface GameEnd {
  match: string;
  status: TableStatus;
}

/** A seat's observation (`Observation.to_dict()`; spectators: seat null, no hand). */
export interface View {
  ruleset: string;
  options: Record<string, unknown>;
  phase: Phase;
  turn: number | null;
  hand_sizes: number[];
  boneyard: number;
  table: TableSpot[];
  ends: Partial<Record<End, number>>;
  table_count: number;
  score: number[];
  hand_number: number;
  deal_index: number;
  opener: number | null;
  result: Result | null;
  last_hand: LastHand | null;
  seat: number | null;
  hand: string[];
  steps: Step[];
  legal: string[];
}

/** One tile on the table, in play order. */
export interface TableSpot {
  seat: number;
  tile: string;
  end?: End;
}

/** `result` of a view: the end of the match; `pneu`: the losers ended on zero. */
export interface Result {
  winner: number;
  score: number[];
  reason: ResultReason;
  pneu: boolean;
}

/** `last_hand` of a view: the previous hand revealed (`observation.revealed_hand`). */
export interface LastHand {
  deal_index: number;
  end: HandEnd;
  score: number[];
  hands_left: string[][];
  table: TableSpot[];
  events: ScoreEvent[];
}

/** How a hand ended. `seat`: the batedor, the locker or who abandoned (null for a redeal); `winner`: the team that won the hand, if any; `detail`: how (a batida's kind, "capicu"). */
export interface HandEnd {
  kind: HandEndKind;
  seat: number | null;
  winner: number | null;
  detail: string;
}

/** Points scored in a hand: after its step `index` (-1: at the end of the hand). */
export interface ScoreEvent {
  index: number;
  team: number;
  points: number;
  reason: string;
}

/** One public step of the hand (another seat's draw shows no tile). */
export interface Step {
  seat: number;
  type: StepType;
  tile?: string;
  end?: End;
  choice?: FiveChoice;
  auto?: boolean;
}

export interface HelloFrame {
  type: "hello";
  data: Hello;
}

export interface OwnerFrame {
  type: "owner";
  data: Owner;
}

export interface StateFrame {
  type: "state";
  data: State;
}

export interface AckFrame {
  type: "ack";
  data: Ack;
}

export interface ErrorFrame {
  type: "error";
  data: Error;
}

export interface ChatFrame {
  type: "chat";
  data: ChatLine;
}

export interface MatchedFrame {
  type: "matched";
  data: Matched;
}

export interface TournamentFrame {
  type: "tournament";
  data: Tournament;
}

export interface EventFrame {
  type: "event";
  data: EventView;
}

export interface Event_changeFrame {
  type: "event_change";
  data: EventChange;
}

export interface RematchFrame {
  type: "rematch";
  data: Rematch;
}

export interface PongFrame {
  type: "pong";
  data: Pong;
}

export interface LeftFrame {
  type: "left";
  data: Left;
}

export interface MutedFrame {
  type: "muted";
  data: Muted;
}

export interface AnnouncementFrame {
  type: "announcement";
  data: Announcement;
}

export interface NoticeFrame {
  type: "notice";
  data: Notice;
}

export interface FriendsFrame {
  type: "friends";
  data: Friends;
}

export interface PresenceFrame {
  type: "presence";
  data: Presence;
}

export interface ChallengeFrame {
  type: "challenge";
  data: Challenge;
}

export interface Challenge_endFrame {
  type: "challenge_end";
  data: ChallengeEnd;
}

export interface Game_endFrame {
  type: "game_end";
  data: GameEnd;
}

/** Any message a client sends. */
export type ClientMessage = ClientJoin | ClientLeave | ClientMove | ClientChat | ClientMute | ClientHold | ClientReady | ClientMoreTime | ClientWatch | ClientUnwatch | ClientPing;

/** Any frame the server sends. */
export type ServerFrame = HelloFrame | OwnerFrame | StateFrame | AckFrame | ErrorFrame | ChatFrame | MatchedFrame | TournamentFrame | EventFrame | Event_changeFrame | RematchFrame | PongFrame | LeftFrame | MutedFrame | AnnouncementFrame | NoticeFrame | FriendsFrame | PresenceFrame | ChallengeFrame | Challenge_endFrame | Game_endFrame;
