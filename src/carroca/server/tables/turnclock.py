"""A table's timers: a bot's turn or the end of a pause, and the turn clock of a person.

The turn clock is re-armed at every move of a table with people, a couple of seconds apart, and
rings only when somebody lets it run out. Cancelling a loop timer and arming a new one at every
move cost more than the rest of the scheduling, so the clock's timer is armed once and moved
only when the new deadline is sooner; a timer that rings before the deadline set since arms
itself again for the time left.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

EARLY = 0.001  # seconds: a timer that rings this little early counts as on time


class Timers:
    __slots__ = ("_clock_at", "_clock_timer", "_due", "_ring", "_timer")

    def __init__(self) -> None:
        self._timer: asyncio.TimerHandle | None = None  # a bot's turn, the end of a pause
        self._clock_timer: asyncio.TimerHandle | None = None
        self._clock_at = 0.0  # loop time the clock's timer is armed for
        self._due: tuple[float, int] | None = None  # (loop time, version) the clock runs out
        self._ring: Callable[[int], None] | None = None

    def stop(self) -> None:
        """No timer of the last turn rings any more (the clock's timer may, and does nothing)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._due = None

    def later(self, delay: float, fn: Callable[..., Any], *args: Any) -> None:
        """`fn(*args)` after `delay` seconds, unless stopped first."""
        self._timer = asyncio.get_running_loop().call_later(delay, fn, *args)

    def clock(self, seconds: float, version: int, ring: Callable[[int], None]) -> None:
        """`ring(version)` once `seconds` have passed, unless stopped or re-armed first."""
        loop = asyncio.get_running_loop()
        due = self._due = (loop.time() + seconds, version)
        self._ring = ring
        timer = self._clock_timer
        if timer is not None and self._clock_at > due[0]:
            timer.cancel()
            timer = None
        if timer is None:
            self._clock_at = due[0]
            self._clock_timer = loop.call_at(due[0], self._rings)

    def running(self) -> bool:
        """Whether the clock's time is still running: armed, neither rung nor stopped."""
        return self._due is not None

    def _rings(self) -> None:
        self._clock_timer = None
        due, ring = self._due, self._ring
        if due is None or ring is None:
            return
        loop = asyncio.get_running_loop()
        if due[0] > loop.time() + EARLY:  # moved on since it was armed: the time left
            self._clock_at = due[0]
            self._clock_timer = loop.call_at(due[0], self._rings)
            return
        self._due = None
        ring(due[1])

    def close(self) -> None:
        self.stop()
        if self._clock_timer is not None:
            self._clock_timer.cancel()
            self._clock_timer = None
        self._ring = None
