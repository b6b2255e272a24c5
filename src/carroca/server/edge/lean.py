"""An asyncio queue and event that hold no deque while empty, for objects kept per socket.

Every open WebSocket keeps uvicorn's receive queue and its `writable` event for hours: an
`asyncio.Queue` holds three empty deques and an `Event` (with a fourth), the `writable` event a
fifth, ~0.6 KiB each. A socket's queue carries only its connect and disconnect (its messages
go straight to the tables' reader) and at most one task waits on either, so a list does: the
same operations on a few items, for ~0.06 KiB empty.
"""

from __future__ import annotations

import asyncio
from typing import Any


class Line(list[Any]):
    """A list with a deque's `popleft`: what asyncio's queue and event ask of their waiters."""

    __slots__ = ()

    def popleft(self) -> Any:
        return self.pop(0)


class LeanEvent(asyncio.Event):
    def __init__(self) -> None:
        super().__init__()
        self._waiters = Line()  # type: ignore[assignment]


class LeanQueue(asyncio.Queue[Any]):
    def __init__(self) -> None:
        super().__init__()
        self._getters = Line()
        self._putters = Line()
        finished = LeanEvent()
        finished.set()  # as `Queue.__init__` leaves its own: nothing unfinished yet
        self._finished = finished

    def _init(self, maxsize: int) -> None:
        self._queue = Line()
