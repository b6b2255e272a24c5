"""Message fan-out behind a publish/subscribe interface.

Channels carry finished payloads (JSON text): a table publishes one payload per seat channel and
one for spectators, so nothing is computed by the receiving side. `LocalFanout` delivers within
this process; a multi-node deployment swaps in a Redis pub/sub implementation of the same three
methods, with each match owned by one node that publishes and every node relaying to its sockets.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

Sink = Callable[[str], None]


def seat_channel(table_id: str, seat: int | None) -> str:
    return f"t:{table_id}:{'spectators' if seat is None else seat}"


def chat_channel(table_id: str) -> str:
    return f"t:{table_id}:chat"


def player_channel(player_id: int) -> str:
    return f"p:{player_id}"


def event_channel(event_id: str) -> str:
    """A tournament event's changes, for the pages watching it (`tournaments.watch`)."""
    return f"e:{event_id}"


class Fanout(Protocol):
    def subscribe(self, channel: str, sink: Sink) -> None: ...

    def unsubscribe(self, channel: str, sink: Sink) -> None: ...

    def publish(self, channel: str, payload: str) -> int: ...

    def listening(self, channel: str) -> bool: ...


class LocalFanout:
    """In-process channels; a sink must not block (connections queue what they are given)."""

    def __init__(self) -> None:
        self._subs: dict[str, list[Sink]] = {}

    def subscribe(self, channel: str, sink: Sink) -> None:
        subs = self._subs.setdefault(channel, [])
        if sink not in subs:
            subs.append(sink)

    def unsubscribe(self, channel: str, sink: Sink) -> None:
        subs = self._subs.get(channel)
        if subs and sink in subs:
            subs.remove(sink)
            if not subs:
                del self._subs[channel]

    def publish(self, channel: str, payload: str) -> int:
        subs = self._subs.get(channel)
        if not subs:
            return 0
        for sink in tuple(subs):
            sink(payload)
        return len(subs)

    def listening(self, channel: str) -> bool:
        return channel in self._subs
