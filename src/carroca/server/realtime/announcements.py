"""The operator's message to every player (`carroca admin announce`, written to the database):
each node reads it every few seconds and, when it changes, sends it to every socket it holds;
a socket that opens gets the current one after its `hello`. Nothing crosses nodes: each reads
the same row."""

from __future__ import annotations

import asyncio
import contextlib
from typing import TypedDict

from carroca.server.realtime import wire
from carroca.server.realtime.sessions import Sessions
from carroca.server.storage.store import Store

POLL_SECONDS = 2.0


class Shown(TypedDict):
    """The announcement shown now: its id and text."""

    id: int
    text: str


class Announcements:
    def __init__(self, store: Store, sessions: Sessions, every: float = POLL_SECONDS) -> None:
        self._store, self._sessions, self._every = store, sessions, every
        self._shown: tuple[int, str] | None = None
        self.frame: str | None = None  # the current one's frame, for sockets that open

    @property
    def current(self) -> Shown | None:
        """The one shown now, as pages read it at load (`/api/session`)."""
        return Shown(id=self._shown[0], text=self._shown[1]) if self._shown else None

    async def run(self) -> None:
        while True:
            with contextlib.suppress(Exception):  # an outage: the store logs it once
                await self.check()
            await asyncio.sleep(self._every)

    async def check(self) -> bool:
        """Whether it changed (and was sent to every socket)."""
        current = await self._store.current_announcement()
        if current == self._shown:
            return False
        self._shown = current
        message = wire.frame(wire.Announcement(id=current[0], text=current[1]) if current
                             else wire.Announcement(id=None, text=None))
        self.frame = message if current else None
        for conn in self._sessions.sockets():
            conn.send(message)
        return True
