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

export interface ClientEmptyData {
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
  kind: string;
}

/** After the `state` that answers a `join`, when another node runs the match. */
export interface Owner {
  match: string;
  node: string;
}

/** The table as one seat sees it. The members every seat shares come first, then `view`, then the seat's own (`frames.StateFrames` splices a seat's own onto the shared text). */
export interface State {
  id: string;
  mode: string;
  ruleset: string;
  options: Record<string, unknown>;
  status: string;
  players: (SeatPlayer | null)[];
  commitment: string;
  client_seeds: (string | null)[];
  client_seed: string | null;
  version: number;
  turn_seconds: number;
  clock: Clock | null;
  pause: Pause | null;
  chat: boolean;
  server_seed?: string;
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
}

/** The running turn clock: `remaining_ms` counted when the frame was built. */
export interface Clock {
  seat: number;
  seconds: number;
  remaining_ms: number;
}

/** The pause between two hands. */
export interface Pause {
  seconds: number;
  remaining_ms: number;
}

export interface RatingChange {
  before: number | null;
  after: number | null;
}

/** `rematch` of a finished table's state: the table of the next match, and who asked. */
export interface RematchAsked {
  id: string;
  by: string | null;
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
  mode: string;
}

/** An event one plays in: with `match`, one's game of it is at that table. */
export interface Tournament {
  event: string;
  name: string;
  status: string;
  match?: string;
  round?: number;
  table?: number;
  game?: number;
}

export interface Rematch {
  match: string;
  id: string;
  mode: string;
  by: string;
}

export interface Pong {
}

export interface Left {
}

export interface Muted {
  seats: number[];
}

/** A seat's observation (`Observation.to_dict()`; spectators: seat null, no hand). */
export interface View {
  ruleset: string;
  options: Record<string, unknown>;
  phase: string;
  turn: number | null;
  hand_sizes: number[];
  boneyard: number;
  table: TableSpot[];
  ends: Record<string, number>;
  table_count: number;
  score: number[];
  hand_number: number;
  deal_index: number;
  opener: number | null;
  result: Record<string, unknown> | null;
  last_hand: Record<string, unknown> | null;
  seat: number | null;
  hand: string[];
  steps: Step[];
  legal: string[];
}

/** One tile on the table, in play order. */
export interface TableSpot {
  seat: number;
  tile: string;
  end?: string;
}

/** One public step of the hand (another seat's draw shows no tile). */
export interface Step {
  seat: number;
  type: string;
  tile?: string;
  end?: string | null;
  choice?: string;
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

/** Any message a client sends. */
export type ClientMessage = ClientJoin | ClientLeave | ClientMove | ClientChat | ClientMute | ClientPing;

/** Any frame the server sends. */
export type ServerFrame = HelloFrame | OwnerFrame | StateFrame | AckFrame | ErrorFrame | ChatFrame | MatchedFrame | TournamentFrame | RematchFrame | PongFrame | LeftFrame | MutedFrame;
