"""The commands a table takes from another node, typed: each call's arguments and answer as they
cross Redis (JSON), by method.

A socket, the lobby or a route on one node reaches a table another node runs through
`Tables.call_owner(match_id, method, args)`; the owner answers in `cluster.node` (`_on_<method>`)
by sending the table the same command a local caller would. `match` is added by the caller's
cluster (`Cluster.call_owner`), so a handler knows the table.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from carroca.server.records import Mode, Player

Method = Literal["join", "move", "chat", "hold", "more_time", "invite", "sit", "rematch", "info",
                 "privacy", "resign"]


class TableCall(TypedDict):
    """What every call carries once sent: the match it is about."""

    match: NotRequired[str]


class JoinCall(TableCall):
    """A socket here follows a table there (`Table.join`): the player, their client seed."""

    player: int
    client_seed: str | None


class JoinAnswer(TypedDict):
    """`Table.join`'s answer (`Joined`): the joiner's seat, the table's mode, its state frame."""

    seat: int | None
    mode: Mode
    frame: str | None


class MoveCall(TableCall):
    """A seated player's move (`Table.move`); the answer is the ack or error frame (text)."""

    seat: int
    id: int
    action: str
    version: int | None


class ChatCall(TableCall):
    """A chat line (`Table.chat`); the answer is an error frame, or None."""

    seat: int
    player: int
    text: str


class HoldCall(TableCall):
    """A seat asks the table to wait for it at each hand's end (`on`: `Table.hold`), or has
    read this hand's summary (`on` None: `Table.ready`); no answer."""

    seat: int
    on: bool | None


class ResignCall(TableCall):
    """A seated player gives the match up (`Table.resign`); the answer is an error frame, or
    None."""

    seat: int


class MoreTimeCall(TableCall):
    """A seat asks for twice the table's time on its turns, or no longer (`Table.more_time`);
    no answer (a table that does not allow it raises `NoMoreTime`)."""

    seat: int
    on: bool


class SitCall(TableCall):
    """A seat at a casual table (`Lobby.sit_casual`); the answer is the seat, or None."""

    player: Player
    client_seed: str | None


class InviteCall(TableCall):
    """A seat at a friends' table by its invitation (`Lobby.join_invite`)."""

    player: Player
    invite: str
    client_seed: str | None


class InviteAnswer(TypedDict):
    """The seat taken by invitation: the table, the seat, the commitment to its seed."""

    id: str
    seat: int | None
    commitment: str


class RematchCall(TableCall):
    """The rematch of a finished table (`Lobby.rematch`); the answer is the lobby's
    (`records.SeatAnswer`)."""

    player: Player
    client_seed: str | None
    address: str | None


class PrivacyCall(TableCall):
    """Its host changed who may see the match (`Table.set_private`); no answer."""

    private: bool


class InfoCall(TableCall):
    """The live part of the match's page (`Table.info`: `records.LiveInfo`)."""
