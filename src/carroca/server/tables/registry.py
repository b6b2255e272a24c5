"""The tables this node runs: their registry, their creation (within the bot budget), their
resumption after a restart or a takeover, and their clean-up.

`Tables` owns no state the database could not rebuild: tables are restored from their rows and
move logs at start (`resume`). It is each table's host (`table.TableHost`): a table reports its
start, its end and a lost write here, and its timers run as the node's background tasks. Where a
match runs on another node, `Tables` asks that node through the cluster (`Directory`).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Coroutine, Iterator
from typing import TYPE_CHECKING, Any, Final, Protocol

from carroca import fair
from carroca.bots import SEARCHING_LEVELS
from carroca.botservice import BotService
from carroca.server.errors import MatchGone, NotStored, ServerError
from carroca.server.players.ratings import Ratings
from carroca.server.realtime import wire
from carroca.server.realtime.fanout import Fanout
from carroca.server.records import Player, Seat, is_bot
from carroca.server.settings import Settings
from carroca.server.storage.rows import LiveMatch, MatchRow, Seating
from carroca.server.storage.store import MoveRow, Store
from carroca.server.tables.botbudget import BotAdmission, Charge
from carroca.server.tables.calls import Method, TableCall
from carroca.server.tables.chat import Mutes
from carroca.server.tables.hub import Hub
from carroca.server.tables.table import Table
from carroca.server.tables.tablerow import bot_seat

if TYPE_CHECKING:
    import logging

    from carroca.server.edge.ratelimits import RateLimits


class Directory(Protocol):
    """This node's part in a cluster, as the tables use it (`carroca.server.cluster.node`)."""

    async def take_over(self) -> int:
        """Run the unfinished matches no live node holds."""

    def give_up(self, table: Table) -> None:
        """Another node runs this match now: stop running it here."""

    async def call_owner(self, match_id: str, method: Method, args: TableCall) -> Any:
        """`method` on the node that runs the match: its answer (`calls`)."""

    async def call(self, node: str, match_id: str, method: Method, args: TableCall) -> Any:
        """`method` on that node, about that match."""

    def owner_heard(self, match_id: str) -> str | None:
        """The node last heard to run the match (None: not known here)."""


class Listener(Protocol):
    """A service that follows tables it made (`carroca.server.tournaments.service`): told when one
    finishes, or closes unplayed (`expired`; a tournament's table at its show-up time names the
    teams that never came, `Table.absent`)."""

    def table_finished(self, table: Table) -> None: ...

    def table_expired(self, table: Table) -> None: ...


SHOW_UP_POLL = 0.2  # seconds between two looks at a tournament table's seats


class Tables:
    """The live tables of this node, by match id, and their life cycle. `store`, `fanout` and
    `ratings`, the services its tables use, are set once here (`Final`)."""

    def __init__(self, hub: Hub, store: Store, fanout: Fanout, admission: BotAdmission,
                 mutes: Mutes, directory: Directory | None = None,
                 limits: RateLimits | None = None) -> None:
        self._hub = hub
        self.store: Final = store
        self.fanout: Final = fanout
        self._admission = admission
        self._mutes = mutes
        self._directory = directory
        self._limits = limits
        self._tables: dict[str, Table] = {}
        self.ratings: Final = Ratings(
            store, hub.settings.ranked_min_moves, hub.settings.ranked_min_hands,
            hub.settings.ranked_min_share)
        self._listeners: list[Listener] = []

    # ------------------------------------------------------------------ the tables' host

    @property
    def settings(self) -> Settings:
        return self._hub.settings

    @property
    def bots(self) -> BotService:
        return self._hub.bots

    @property
    def log(self) -> logging.Logger:
        return self._hub.log

    @property
    def clustered(self) -> bool:
        return self._directory is not None

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        self._hub.spawn(coro)

    def table_started(self, table: Table) -> None:
        table.notify_players(wire.Matched(match=table.id, mode=table.mode))

    def table_finished(self, table: Table) -> None:
        table.notify_players(wire.GameEnd(match=table.id, status="finished"))
        loop = asyncio.get_running_loop()
        loop.call_later(self.settings.finished_keep_seconds, self._drop, table.id)
        for listener in self._listeners:
            try:
                listener.table_finished(table)
            except Exception:  # a service's fault must not stop the table's end
                self.log.exception("a listener failed on the end of match %s", table.id,
                                   extra={"match": table.id})

    def table_closed(self, table: Table) -> None:
        """A table expired or was closed unplayed: it is gone, and its mutes with it."""
        self.remove(table)
        self._mutes.forget(table.id)
        if table.status == "expired":
            table.notify_players(wire.GameEnd(match=table.id, status="expired"))
            for listener in self._listeners:
                try:
                    listener.table_expired(table)
                except Exception:
                    self.log.exception("a listener failed on the close of match %s", table.id)

    def lost(self, table: Table) -> None:
        """The database refused a write of this table: another node runs it now."""
        self.log.warning("match %s is run by another node now", table.id,
                         extra={"match": table.id})
        if self._directory is not None:
            self._directory.give_up(table)
        else:
            self.remove(table)

    async def start_when_stored(self, table: Table) -> None:
        """A full table whose start the database refused (its seats are stored)."""
        await asyncio.sleep(0.5)
        await self.start_table(table)

    # ------------------------------------------------------------------ the registry

    def get(self, match_id: str) -> Table | None:
        """The table of that match when this node runs it."""
        table = self._tables.get(match_id)
        return None if table is None or table.closed else table

    def __iter__(self) -> Iterator[Table]:
        """Every table registered here: during a stop, closed ones too (`get` hides them)."""
        return iter(list(self._tables.values()))  # a snapshot: callers may await meanwhile

    def __len__(self) -> int:
        return len(self._tables)

    def ids(self) -> set[str]:
        return set(self._tables)

    def listen(self, listener: Listener) -> None:
        """Tell `listener` of every table's end."""
        self._listeners.append(listener)

    def remove(self, table: Table) -> None:
        """Stop running a table here (it expired, or another node has it now)."""
        table.close()
        if self._tables.get(table.id) is table:
            del self._tables[table.id]

    def _drop(self, table_id: str) -> None:
        table = self._tables.get(table_id)
        if table is not None and table.status == "finished":
            table.close()
            del self._tables[table_id]
            self._mutes.forget(table_id)

    def players(self) -> set[int]:
        """The players seated at the tables here."""
        return {pid for t in self._tables.values() for _, pid in t.humans()}

    def bot_charges(self) -> list[Charge]:
        """The live tables here whose bots search, each with whom and where it is charged to;
        an event's tables are counted by what it holds (`reserve_bots`), not one by one."""
        return [Charge(t.charged_player(), t.address) for t in self._tables.values()
                if t.mode != "tournament" and t.bot_work()] + self._admission.reserved()

    def bot_room(self, player: int | None, address: str | None) -> int:
        """How many more searching tables `player` may have from `address` now."""
        return self._admission.room(self.bot_charges, player, address)

    async def reserve_bots(self, key: str, tables: int, player: int | None,
                           address: str | None, force: bool = False) -> int:
        """Hold searching tables for an event (`BotAdmission.reserve`): the room there was."""
        return await self._admission.reserve(key, tables, self.bot_charges, player, address,
                                             force)

    def release_bots(self, key: str) -> None:
        self._admission.release(key)

    # ------------------------------------------------------------------ life cycle

    async def resume(self) -> int:
        """Rebuild every unfinished match from its log and restart its clock (one process; a
        cluster's nodes take over the matches of dead nodes instead, `Cluster.take_over`)."""
        if self._directory is not None:
            return await self._directory.take_over()
        count = 0
        cutoff = time.time() - self.settings.waiting_table_minutes * 60
        for row, moves in await self.store.unfinished():
            if row["mode"] == "friends" and row["status"] == "waiting" \
                    and row["created_at"] < cutoff:
                await self.store.expire_match(row["id"])
                continue
            self.adopt(row, moves)
            count += 1
        return count

    def adopt(self, row: MatchRow, moves: list[MoveRow]) -> Table:
        """Run a stored match here: rebuilt from its log, its clock (or its start) going on. A
        stale copy of it (from before this node lost it) is closed."""
        old = self._tables.pop(row["id"], None)
        if old is not None:
            old.close()
        table = Table(self, row)
        table.restore(moves)
        self._tables[table.id] = table
        if table.status == "playing":
            match = table.match
            if match is not None and match.is_over:  # stopped between last move and end
                self.spawn(table.finish_stored())
            else:
                table.schedule()
        elif table.show_up_by is not None:  # a tournament's: its players' time goes on
            self.spawn(self.await_players(table))
        elif not table.open_seats():  # full, stopped before the first deal
            self.spawn(self.start_table(table))
        elif table.mode == "casual":
            self.spawn(self.fill_with_bots(table))
        return table

    def stop(self) -> None:
        """The server stops: no table runs any more."""
        for table in self._tables.values():
            table.close()

    async def expire_waiting(self) -> int:
        """Close the waiting friends' tables past their time; returns how many were stored
        expired."""
        cutoff = time.time() - self.settings.waiting_table_minutes * 60
        expired = 0
        for table in self:
            if table.mode == "friends" and table.status == "waiting" \
                    and table.created_at < cutoff:
                expired += await table.expire()
        return expired

    # ------------------------------------------------------------------ creating tables

    async def new_table(self, client_seeds: list[str | None] | None = None,
                        seeds: tuple[str, str] | None = None, address: str | None = None,
                        **kw: Any) -> Table:
        """A table stored and kept here. `seeds`: (server seed, client seed) fixed in advance,
        as an event's match has them (derived from the event's seed): then no seat adds its
        own client seed. `address`: where it was made from (the bot budget's count)."""
        row = Table.new_row(**kw)
        if client_seeds is not None:
            row["client_seeds"] = client_seeds
        if seeds is not None:
            server_seed, client_seed = seeds
            row["server_seed"] = server_seed
            row["commitment"] = fair.commitment(server_seed)
            row["client_seed"] = client_seed
        if self._hub.node is not None:
            row["owner"] = self._hub.node
        try:
            await self.store.insert_match(row)
        except Exception:  # logged once per outage by the store
            raise NotStored() from None
        table = Table(self, row, address)
        self._tables[table.id] = table
        return table

    async def create_table(self, player: Player, address: str | None,
                           client_seeds: list[str | None] | None = None, spend: bool = False,
                           **row: Any) -> Table:
        """A new table (`Table.new_row`'s fields); one whose bots search only within the bot
        budget (`BotAdmission`), checked and made in one step whatever the route. `spend`: it
        counts against the player's tables created (`LIMIT_TABLES_PLAYER`), spent only once
        the budget allowed it, and before anything is stored."""
        seats: list[Seat | None] = row["seats"]
        searching = any(s is not None and is_bot(s) and s["bot"] in SEARCHING_LEVELS
                        for s in seats) or \
            (row["mode"] == "casual" and row["bot_level"] in SEARCHING_LEVELS)
        async with self._admission.admit(searching, self.bot_charges, player["id"], address):
            if spend and self._limits is not None:
                self._limits.tables_player.hit(str(player["id"]))
            return await self.new_table(client_seeds, address=address, **row)

    async def start_table(self, table: Table) -> None:
        """Start a full table; while the database refuses, try again with a growing pause."""
        await asyncio.sleep(0)  # let the creator answer with the commitment first
        pause = 0.5
        while not table.closed:
            try:
                await table.start()
                return
            except Exception:  # logged once per outage by the store
                await asyncio.sleep(pause)
                pause = min(10.0, pause * 2)

    async def await_players(self, table: Table) -> None:
        """A tournament's table starts once every player came (joined it: a socket on any node
        followed their seat), or at its show-up time (`show_up_by`, stored with the table, so
        whichever node runs it keeps it): then a team none of whose players came makes it
        close unplayed, that team absent (stored with it: the event records the forfeit,
        `Listener.table_expired`); otherwise it starts, and who is missing is the clock's."""
        humans = [seat for seat, _ in table.humans()]
        seen: set[int] = set()
        deadline = table.show_up_by or 0.0
        while not table.closed and table.status == "waiting":
            seen.update(s for s in humans if table.seat_connected(s))
            if len(seen) == len(humans) or time.time() >= deadline:
                break
            await asyncio.sleep(SHOW_UP_POLL)
        if table.closed or table.status != "waiting":
            return
        seats = range(len(table.seats))
        absent = [team for team in (0, 1)
                  if all(s in humans and s not in seen for s in seats if s % 2 == team)]
        if not absent:
            await self.start_table(table)
            return
        pause = 0.5
        while not table.closed and table.status == "waiting":
            try:
                await table.expire(absent=absent)
                return
            except Exception:  # the database refused: logged once by the store; try again
                await asyncio.sleep(pause)
                pause = min(10.0, pause * 2)

    async def fill_with_bots(self, table: Table) -> None:
        """A casual table whose players did not come in time starts with its bots."""
        await asyncio.sleep(self.settings.casual_wait_seconds)
        pause = 0.5
        while not table.closed:
            try:
                await table.start_with_bots(bot_seat(table.bot_level))
                return
            except Exception:  # the database refused: logged once by the store; try again
                await asyncio.sleep(pause)
                pause = min(10.0, pause * 2)

    # ------------------------------------------------------------------ other nodes' tables

    async def elsewhere(self, mode: str | None = None, **where: Any) -> list[LiveMatch]:
        """Live matches run by other nodes (none for a single process), narrowed by `where`
        (`Store.live_matches`)."""
        if self._directory is None:
            return []
        try:
            rows = await self.store.live_matches(mode, **where)
        except Exception:
            raise NotStored() from None
        return [r for r in rows if r["id"] not in self._tables
                and (mode is None or r["mode"] == mode)]

    async def seating(self, match_id: str) -> Seating | None:
        """The stored seats, mode and status of a match another node runs (None alone)."""
        if self._directory is None:
            return None
        return await self.store.seating(match_id)

    async def call_owner(self, match_id: str, method: Method, args: TableCall) -> Any:
        """`method` on the node that runs the match, its answer (`calls`); `MatchGone` for a
        single process (the table is not here, so it is gone)."""
        if self._directory is None:
            raise MatchGone()
        return await self._directory.call_owner(match_id, method, args)

    async def call_stored_owner(self, match_id: str, method: Method,
                                args: TableCall) -> Any | None:
        """`method` on the node the row names as the match's last owner (a finished match
        kept there a while); None when no other node has it."""
        if self._directory is None:
            return None
        found = await self.store.owner_of(match_id)
        if found is None or found[0] in (None, self._hub.node):
            return None
        try:
            return await self._directory.call(found[0], match_id, method, args)
        except ServerError as exc:
            if exc.code not in ("not_owner", "moving"):
                raise
        return None

    async def tell_owner(self, node: str | None, match_id: str, method: Method,
                         args: TableCall) -> None:
        """`method` on the node that ran a match, when there is one and it answers."""
        if self._directory is not None and node:
            with contextlib.suppress(ServerError):  # gone from there: the row says it all
                await self._directory.call(node, match_id, method, args)

    def owner_heard(self, match_id: str) -> str | None:
        return None if self._directory is None else self._directory.owner_heard(match_id)
