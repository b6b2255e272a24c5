"""The small records every room passes around: a seat, the signed-in player, a match's result,
the lobby's answer, a turn clock, the pause between hands.

What is stored or sent as JSON is a TypedDict: a table's seats are stored in its database row as
JSON (`matches.seats`) and read back as they were written, so a typed seat is the very dict the
row holds: no copy on the hot path, the stored JSON unchanged, and every existing database loads
as it did. A seat is a person's (`player`) or a bot's (`bot`, its level); `is_bot` tells them
apart and narrows the type. What lives in memory only (the clock, the pause) is a slotted
dataclass.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, NotRequired, TypedDict, TypeGuard

# A table's kinds and states, as its row stores them and its frames say them (`wire` publishes
# both under these names).
Mode = Literal["casual", "ranked", "friends", "bots", "tournament"]  # `lobby.MODES`, an event's
TableStatus = Literal["waiting", "playing", "finished", "expired"]  # `tables.table`


class PersonSeat(TypedDict):
    """A seat held by a player: their id and nickname."""

    player: int
    name: str
    bot_account: NotRequired[bool]  # a bot account's seat: a program plays it (the Bot API)


class BotSeat(TypedDict):
    """A seat played by a bot: its level (`carroca.bots.BOT_LEVELS`) and shown name."""

    bot: str
    name: str


Seat = PersonSeat | BotSeat


def is_bot(seat: Seat) -> TypeGuard[BotSeat]:
    return "bot" in seat


def bot_account_seats(seats: Sequence[Seat | None]) -> list[int]:
    """The seats a bot account holds: the pages that list a table's names mark them "BOT"."""
    return [i for i, s in enumerate(seats) if s is not None and s.get("bot_account")]


def is_person(seat: Seat) -> TypeGuard[PersonSeat]:
    return "player" in seat


def seated_player(seat: Seat | None) -> int | None:
    """The id of the player holding a seat (None: open, or a bot's)."""
    return seat["player"] if seat is not None and is_person(seat) else None


PlayerKind = Literal["guest", "account", "bot"]  # "bot": an account played by a program


class Player(TypedDict):
    """The signed-in player, as sessions hand it to the routes and sockets (and another node
    gets it in a call)."""

    id: int
    name: str
    kind: PlayerKind


class MatchResult(TypedDict):
    """The end of a match as its record and its row hold it (`carroca.record`, `result`)."""

    winner: int
    score: list[int]
    reason: str
    pneu: bool


class SeatAnswer(TypedDict):
    """The lobby's answer to a player given a seat (`TableRow.answer`): the table, the seat,
    the commitment to its server seed, and a friends' table's invitation."""

    id: str
    seat: int | None
    mode: Mode
    commitment: str
    invite: NotRequired[str]


class LiveInfo(TypedDict):
    """The live part of a match's public page (`Table.info`, asked of its owner node)."""

    status: TableStatus
    players: list[str | None]
    score: list[int] | None
    client_seed: str | None


# The clock and the pause are replaced whole, never changed; not frozen, for a frozen dataclass
# is three times slower to make (a clock is made at every move).


@dataclass(slots=True)
class Clock:
    """The running turn clock of one seat: when it runs out (`time.time()`), out of how long."""

    seat: int
    deadline: float
    seconds: float


@dataclass(slots=True)
class Pause:
    """The pause between two hands: until when (`time.time()`), out of how long; the seats it
    waits for while they read the hand's summary (`reading`), and when it would end without
    them (`least`)."""

    until: float
    seconds: float
    least: float
    reading: tuple[int, ...]
