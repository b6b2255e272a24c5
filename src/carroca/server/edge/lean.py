"""An asyncio queue and event that hold no deque while empty, and attributes every socket of a
server shares kept once: for objects kept per socket.

Every open WebSocket keeps uvicorn's receive queue and its `writable` event for hours: an
`asyncio.Queue` holds three empty deques and an `Event` (with a fourth), the `writable` event a
fifth, ~0.6 KiB each. A socket's queue carries only its connect and disconnect (its messages
go straight to the tables' reader) and at most one task waits on either, so a list does: the
same operations on a few items, for ~0.06 KiB empty.
"""

from __future__ import annotations

import asyncio
import weakref
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


_UNSET: Any = object()


class Shared:
    """An attribute that `__init__` sets on every socket's protocol to the same object (the
    server's configuration, app, loop, logger, sets of connections and tasks, ping settings),
    kept once, on this descriptor, rather than in each instance's dictionary.

    uvicorn's WebSocket protocol sets 35 attributes in `__init__`, 13 of them the same for every
    socket: past 30 attributes CPython stops sharing an instance dictionary's keys with the
    class's other instances, and each socket carried a dictionary of its own (~1.6 KiB). Without
    those 13 the instances share their keys and keep only their values. An instance given
    another object than the first (a test's own clock for a loop) keeps its own, and reads it."""

    __slots__ = ("own", "value")

    def __init__(self) -> None:
        self.value: Any = _UNSET
        self.own: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            return self
        if self.own:
            return self.own.get(obj, self.value)
        return self.value

    def __set__(self, obj: Any, value: Any) -> None:
        if self.value is _UNSET:
            self.value = value
        elif value is not self.value or obj in self.own:
            self.own[obj] = value
