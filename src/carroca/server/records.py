"""The small records a table and the routes pass around: a seat, the signed-in player, a turn
clock, the pause between hands.

TypedDicts, not classes: a table's seats are stored in its database row as JSON (`tables.seats`)
and read back as they were written, so a typed seat is the very dict the row holds: no copy on
the hot path, the stored JSON unchanged, and every existing database loads as it did. A seat is
a person's (`player`) or a bot's (`bot`, its level); `is_bot` tells them apart and narrows the
type.
"""

from __future__ import annotations

from typing import Literal, TypedDict, TypeGuard


class PersonSeat(TypedDict):
    """A seat held by a player: their id and nickname."""

    player: int
    name: str


class BotSeat(TypedDict):
    """A seat played by a bot: its level (`carroca.bots.BOT_LEVELS`) and shown name."""

    bot: str
    name: str


Seat = PersonSeat | BotSeat


def is_bot(seat: Seat) -> TypeGuard[BotSeat]:
    return "bot" in seat


def is_person(seat: Seat) -> TypeGuard[PersonSeat]:
    return "player" in seat


PlayerKind = Literal["guest", "account"]


class Player(TypedDict):
    """The signed-in player, as sessions hand it to the routes and sockets."""

    id: int
    name: str
    kind: PlayerKind


class Clock(TypedDict):
    """The running turn clock of one seat: when it runs out (`time.time()`), out of how long."""

    seat: int
    deadline: float
    seconds: float


class Pause(TypedDict):
    """The pause between two hands: until when, out of how long; the seats it waits for while
    they read the hand's summary (`reading`), and when it would end without them (`least`)."""

    until: float
    seconds: float
    least: float
    reading: list[int]
