"""The node's periodic clean-up: waiting friends' tables past their time are closed, then the
expired sessions and the guests who never played are dropped, except the players something here
still holds (a seat, the ranked queue, an open socket, an event). Then a batch of the matches
stored before the profile's figures were kept is counted (`players.stats.count_stored`)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable

from carroca.server.errors import ServerError
from carroca.server.players.stats import COUNT_BATCH, count_stored
from carroca.server.realtime.sessions import Sessions
from carroca.server.records import is_person
from carroca.server.settings import Settings
from carroca.server.storage.store import Store
from carroca.server.tables.ranked import RankedQueue
from carroca.server.tables.registry import Tables


class Upkeep:
    """Every `purge_seconds`, `purge`. `recently_seen`: players whose session was looked up a
    moment ago (maybe sitting down now); `held`: the players services above hold (an event's
    entrants)."""

    def __init__(self, settings: Settings, store: Store, tables: Tables, sessions: Sessions,
                 ranked: RankedQueue, recently_seen: Callable[[], set[int]] = set,
                 held: Callable[[], Awaitable[set[int]]] | None = None) -> None:
        self._settings = settings
        self._store = store
        self._tables = tables
        self._sessions = sessions
        self._ranked = ranked
        self._recently_seen = recently_seen
        self._held = held
        self._all_counted = False

    async def run(self) -> None:
        while True:
            await asyncio.sleep(self._settings.purge_seconds)
            with contextlib.suppress(Exception):  # an outage: the store logs it once
                await self.purge()
            if not self._all_counted:
                with contextlib.suppress(Exception):
                    # A short batch: the matches kept before the figures are all counted (new
                    # ones are counted as they end), so the query stops here.
                    self._all_counted = await count_stored(self._store) < COUNT_BATCH

    async def purge(self) -> tuple[int, int, int]:
        """Returns (tables, sessions, guests) removed."""
        tables = self._tables
        expired = await tables.expire_waiting()
        keep = tables.players()
        with contextlib.suppress(ServerError):  # seated at tables other nodes run
            keep.update(s["player"] for r in await tables.elsewhere()
                        for s in r["seats"] if s is not None and is_person(s))
        keep.update(self._ranked.players())
        keep.update(self._sessions.players())
        keep.update(self._recently_seen())
        if self._held is not None:
            keep.update(await self._held())
        guests_before = time.time() - self._settings.guest_unplayed_hours * 3600
        sessions, guests = await self._store.purge(guests_before, keep)
        if expired or guests:
            tables.log.info("expired %d waiting tables, %d sessions, %d unplayed guests",
                            expired, sessions, guests)
        return expired, sessions, guests
