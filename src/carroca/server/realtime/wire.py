"""The WebSocket protocol's server frames, typed: one msgspec Struct a frame `type`.

`protocol.py` parses what clients send (pydantic, validated once at the edge); this module
types what the server sends back. Every frame is `{"type": <kind>, "data": <Struct>}`: a
Struct's fields are written in their declared order, so the bytes are those the plain dicts
gave before (`tests/server/test_wire.py` checks it), and a field whose value is `UNSET` is left
out (an optional member such as an `error`'s move `id`).

msgspec, not pydantic: it encodes a Struct about as fast as orjson encodes the same dict, so a
frame costs no more CPU typed than untyped (`bench/frames.py`, `bench/move_path.py`).

The same models publish the protocol (`schema.py`): the JSON Schema of both directions, which
docs/protocol.md is checked against, and the browser client's declarations (`web/js/wire.d.ts`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Literal

import msgspec
from msgspec import UNSET, Struct, UnsetType

from carroca.server import records

PROTOCOL_VERSION = 1

# The closed sets of names a frame carries, as their producers write them (`schema.py` publishes
# each under its name: `wire.d.ts` declares the unions); a player's kind, a table's mode and
# status are `records`', which the stored rows share.
PlayerKind = records.PlayerKind
Mode = records.Mode
TableStatus = records.TableStatus
EventStatus = Literal["running", "finished", "cancelled"]  # what `tournaments.service` tells
Phase = Literal["deal", "choice", "play", "over"]  # `rules.game.Phase`, lowercased
End = Literal["left", "right", "up", "down"]  # `rules.actions.END_NAMES`
StepType = Literal["play", "draw", "pass", "five-doubles"]  # an action's `kind`
FiveChoice = Literal["points", "redeal"]  # `rules.actions.FIVE_CHOICES`
HandEndKind = Literal["batida", "fechado", "redeal", "abandon"]  # `rules.game.HandEnd`
ResultReason = Literal["target", "abandon"]  # `rules.game.MatchResult`
PresenceState = Literal["online", "playing", "watching", "tournament", "offline"]  # `presence`


class Closed(Struct, forbid_unknown_fields=True):
    """A member of a frame: read back (`decode`), an unknown field is an error."""


class Data(Closed, kw_only=True):
    """A frame's `data`; `kind` is the frame's `type`."""

    kind: ClassVar[str]


class Player(Closed):
    """A signed-in player as the server names them to themselves."""

    id: int
    name: str
    kind: PlayerKind


class Hello(Data, kw_only=True):
    """The first frame after connecting; `node`: the server node the socket is on (null for a
    single server)."""

    kind = "hello"
    player: Player
    protocol: int = PROTOCOL_VERSION
    node: str | None


class Owner(Data, kw_only=True):
    """After the `state` that answers a `join`, when another node runs the match."""

    kind = "owner"
    match: str
    node: str


class SeatPlayer(Closed):
    """`players[i]` of a state: who sits there (null: an open seat)."""

    name: str
    bot: bool
    connected: bool
    bot_account: bool | UnsetType = UNSET  # a player's seat played by a program (the Bot API)


class Clock(Closed):
    """The running turn clock: `remaining_ms` counted when the frame was built."""

    seat: int
    seconds: float
    remaining_ms: int


class Pause(Closed):
    """The pause between two hands; `reading`: the seats it waits for while they read the
    hand's summary (the `hold` and `ready` messages), up to a cap."""

    seconds: float
    remaining_ms: int
    reading: list[int]


class RatingChange(Closed):
    before: float | None
    after: float | None


class RematchAsked(Closed):
    """`rematch` of a finished table's state: the table of the next match, and who asked."""

    id: str
    by: str


class TableSpot(Closed):
    """One tile on the table, in play order."""

    seat: int
    tile: str
    end: End | UnsetType = UNSET  # left out for the opening


class Step(Closed):
    """One public step of the hand (another seat's draw shows no tile)."""

    seat: int
    type: StepType
    tile: str | UnsetType = UNSET
    end: End | UnsetType = UNSET  # a play's, but for the opening
    choice: FiveChoice | UnsetType = UNSET
    auto: bool | UnsetType = UNSET


class HandEnd(Closed):
    """How a hand ended. `seat`: the batedor, the locker or who abandoned (null for a redeal);
    `winner`: the team that won the hand, if any; `detail`: how (a batida's kind, "capicu")."""

    kind: HandEndKind
    seat: int | None
    winner: int | None
    detail: str


class ScoreEvent(Closed):
    """Points scored in a hand: after its step `index` (-1: at the end of the hand)."""

    index: int
    team: int
    points: int
    reason: str


class LastHand(Closed):
    """`last_hand` of a view: the previous hand revealed (`observation.revealed_hand`)."""

    deal_index: int
    end: HandEnd
    score: list[int]  # when it ended
    hands_left: list[list[str]]  # every seat's tiles left
    table: list[TableSpot]  # its final table, in play order
    events: list[ScoreEvent]


class Result(Closed):
    """`result` of a view: the end of the match; `pneu`: the losers ended on zero."""

    winner: int
    score: list[int]
    reason: ResultReason
    pneu: bool


class View(Closed):
    """A seat's observation (`Observation.to_dict()`; spectators: seat null, no hand)."""

    ruleset: str
    options: dict[str, Any]
    phase: Phase
    turn: int | None
    hand_sizes: list[int]
    boneyard: int
    table: list[TableSpot]
    ends: dict[End, int]  # the open ends only
    table_count: int
    score: list[int]
    hand_number: int
    deal_index: int
    opener: int | None
    result: Result | None
    last_hand: LastHand | None
    # the seat's own members, last (see `frames.StateFrames`)
    seat: int | None
    hand: list[str]
    steps: list[Step]
    legal: list[str]


class State(Data, kw_only=True):
    """The table as one seat sees it. The members every seat shares come first, then `view`,
    then the seat's own (`frames.StateFrames` splices a seat's own onto the shared text)."""

    kind = "state"
    id: str
    mode: Mode
    ruleset: str
    options: dict[str, Any]
    status: TableStatus
    players: list[SeatPlayer | None]
    commitment: str
    client_seeds: list[str | None]
    client_seed: str | None
    version: int
    turn_seconds: float
    clock: Clock | None
    pause: Pause | None
    more_time: list[int]  # the seats whose turns last twice the table's ("mais tempo")
    chat: bool
    server_seed: str | UnsetType = UNSET  # once finished
    ended: str | UnsetType = UNSET  # ended unfinished by an operator: why (then `expired`)
    # a `View`, as the engine's observation writes it (a dict: not copied into a Struct at every
    # move); always sent: unset only while a frame is built, as `seat`
    view: dict[str, Any] | UnsetType | None = UNSET
    seat: int | UnsetType | None = UNSET
    last_move_id: int | UnsetType | None = UNSET  # seated players only, from here on
    rating: RatingChange | UnsetType = UNSET
    invite: str | UnsetType = UNSET
    rematch: RematchAsked | UnsetType = UNSET


class Ack(Data, kw_only=True):
    kind = "ack"
    id: int
    version: int
    duplicate: bool | UnsetType = UNSET


class Error(Data, kw_only=True):
    """A refused frame; nothing changed. `id`: the refused move's."""

    kind = "error"
    code: str
    message: str
    id: int | UnsetType = UNSET


class ChatLine(Data, kw_only=True):
    kind = "chat"
    seat: int
    name: str
    text: str
    at: float


class Matched(Data, kw_only=True):
    kind = "matched"
    match: str
    mode: Mode


class Tournament(Data, kw_only=True):
    """An event one plays in: with `match`, one's game of it is at that table."""

    kind = "tournament"
    event: str
    name: str
    status: EventStatus
    match: str | UnsetType = UNSET
    round: int | UnsetType = UNSET
    table: int | UnsetType = UNSET
    game: int | UnsetType = UNSET


class EventView(Data, kw_only=True):
    """An event's whole page as `GET /api/tournaments/{id}` answers it: the answer to `watch`
    (with the watcher's own `me`, `my_match`, `creator`), or on the event's channel when a
    change has no base to be told against (without them). `version`: null for an event no node
    runs (over: nothing more will change)."""

    kind = "event"
    event: str
    version: int | None
    # the page (`tournaments.views.PersonalPage`, or `EventPage` on the channel), typed where
    # it is built; published as an object
    view: Mapping[str, Any]


class EventChange(Data, kw_only=True):
    """A change of a watched event, for a page at `version - 1`: the page's fields that
    changed (`set`), the standings' lines that changed (by `entrant`; the list is in `rank`
    order), and per round (by `round`) its byes and the tables that changed (by `table`; a new
    round whole). A page at another version asks again (`watch`)."""

    kind = "event_change"
    event: str
    version: int
    # parts of the page (`tournaments.views`: its fields, `StandingView`s, `RoundView`s)
    set: Mapping[str, Any]
    standings: Sequence[Mapping[str, Any]]
    rounds: Sequence[Mapping[str, Any]]


class Rematch(Data, kw_only=True):
    kind = "rematch"
    match: str
    id: str
    mode: Mode
    by: str


class Pong(Data, kw_only=True):
    kind = "pong"


class Left(Data, kw_only=True):
    kind = "left"


class Muted(Data, kw_only=True):
    kind = "muted"
    seats: list[int]


class Notice(Data, kw_only=True):
    """Something the people at table `match` should know once, in pt-BR (`code`: what, for
    programs; `bots_simple`: its bots play the safe move, the bot service being behind)."""

    kind = "notice"
    match: str
    code: str
    message: str


class Announcement(Data, kw_only=True):
    """The operator's message for everyone (shown in the lobby and at tables), after `hello`
    and whenever it changes; `text` null: taken down."""

    kind = "announcement"
    id: int | None
    text: str | None


class FriendPresence(Closed, kw_only=True):
    """Where a friend is: `match` (playing or watching) only for a public table, `event` the
    tournament whose page they follow, `seen` when they were last online (offline; null:
    unknown since the server started)."""

    id: int
    name: str
    state: PresenceState
    match: str | None = None
    event: str | None = None
    seen: float | None = None


class Friends(Data, kw_only=True):
    """Every friend with their presence: after `hello`, and when the friends changed."""

    kind = "friends"
    friends: list[FriendPresence]


class Presence(Data, kw_only=True):
    """A friend's presence changed (at most one a friend every few seconds)."""

    kind = "presence"
    friend: FriendPresence


ChallengeStatus = Literal["accepted", "declined", "expired", "cancelled"]  # `challenges`


class Challenge(Data, kw_only=True):
    """A friend (`by`) challenges you: the table's ruleset, options, turn and who sits where
    (names, bots' too); answer by `expires` (epoch seconds)."""

    kind = "challenge"
    id: str
    by: str
    ruleset: str
    options: dict[str, Any]
    turn_seconds: float
    seats: list[str]
    expires: float


class ChallengeEnd(Data, kw_only=True):
    """A challenge you sent or received ended: `accepted` (every invited friend did: `match` is
    the new table), `declined` (by `by`), `expired`, `cancelled` (by its sender)."""

    kind = "challenge_end"
    id: str
    status: ChallengeStatus
    match: str | None = None
    by: str | None = None


class GameEnd(Data, kw_only=True):
    """A match where the player holds a seat ended (on their own channel, as `matched` told its
    start): `finished` (played out, or given up) or `expired` (closed unfinished)."""

    kind = "game_end"
    match: str
    status: TableStatus


FRAMES: tuple[type[Data], ...] = (Hello, Owner, State, Ack, Error, ChatLine, Matched, Tournament,
                                  EventView, EventChange, Rematch, Pong, Left, Muted,
                                  Announcement, Notice, Friends, Presence, Challenge,
                                  ChallengeEnd, GameEnd)

_encode = msgspec.json.Encoder().encode


def encode(value: Any) -> str:
    """Compact JSON text of a Struct (or of plain JSON values)."""
    return _encode(value).decode()


def frame(data: Data) -> str:
    """The frame that carries `data`: `{"type": ..., "data": {...}}`."""
    return f'{{"type":"{data.kind}","data":{_encode(data).decode()}}}'


def error(code: str, message: str, move_id: int | None = None) -> str:
    return frame(Error(code=code, message=message, id=UNSET if move_id is None else move_id))


def decode(text: str | bytes) -> Data:
    """A server frame read back into its Struct (tests, tools): strict, unknown fields refused
    (a state's `view` checked as a `View`)."""
    raw = msgspec.json.decode(text)
    if set(raw) != {"type", "data"}:
        raise msgspec.ValidationError(f"a frame is type and data, not {sorted(raw)}")
    data = msgspec.convert(raw["data"], _BY_KIND[raw["type"]], strict=True)
    if isinstance(data, State) and isinstance(data.view, dict):
        msgspec.convert(data.view, View, strict=True)
    return data


_BY_KIND = {cls.kind: cls for cls in FRAMES}
