"""The live side of the server: every table in play, the lobby's queues, background tasks.

The hub owns no state that the database could not rebuild: tables are restored from their rows
and move logs at start (`resume`), queues are short-lived by nature (a restart empties them and
players queue again).

Bots think in the bot service (`carroca.botservice`): worker processes at a lower OS priority
than this one, fed fairly by table, people's tables first; this process only checks their moves.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, Protocol

from carroca import fair
from carroca.bots import BOT_LEVELS, SEARCHING_LEVELS, level_names
from carroca.botservice import BotService, LocalBots
from carroca.server.errors import NotStored, ServerError
from carroca.server.players.ratings import Ratings
from carroca.server.realtime import wire
from carroca.server.realtime.fanout import Fanout, LocalFanout
from carroca.server.records import BotSeat, PersonSeat
from carroca.server.settings import Settings
from carroca.server.storage.store import Fenced, Store
from carroca.server.tables.botbudget import NOWHERE, BotBudget, Charge, Elsewhere
from carroca.server.tables.table import Table

if TYPE_CHECKING:
    from carroca.server.edge.ratelimits import RateLimits



class Socket(Protocol):
    """An open WebSocket, as the hub counts it (`carroca.server.routes.connection`)."""

    @property
    def player(self) -> dict[str, Any]: ...
    def end_session(self) -> None:
        """Its sign-in ended: close it (4401)."""


class Directory(Protocol):
    """This node's part in a cluster, as the hub and the lobby use it
    (`carroca.server.cluster.node`)."""

    async def take_over(self) -> int:
        """Run the unfinished matches no live node holds."""

    def give_up(self, table: Table) -> None:
        """Another node runs this match now: stop running it here."""

    async def call_owner(self, match_id: str, method: str, args: dict[str, Any]) -> Any:
        """`method` on the node that runs the match."""

    async def call(self, node: str, match_id: str, method: str, args: dict[str, Any]) -> Any:
        """`method` on that node, about that match."""

    def owner_heard(self, match_id: str) -> str | None:
        """The node last heard to run the match (None: not known here)."""

    def charges_elsewhere(self) -> Elsewhere:
        """The searching tables the other live nodes run, per player and per address."""

    def charges_changed(self) -> None:
        """This node admitted a searching table: the others should know at once."""


class Listener(Protocol):
    """A service above the hub that follows tables it made
    (`carroca.server.tournaments.service`): the
    hub tells it when a table finishes, and asks whom it holds (players the clean-up keeps)."""

    def table_finished(self, table: Table) -> None: ...
    async def players_held(self) -> set[int]: ...


def bot_seat(level: str) -> BotSeat:
    if level not in BOT_LEVELS:
        raise ServerError(
            422, "unknown_bot",
            f"Nível de bot desconhecido: {level!r}. Os níveis são: "
            f"{level_names(tuple(BOT_LEVELS))}.",
        )
    return {"bot": level, "name": f"bot:{level}"}


def player_seat(player: dict[str, Any]) -> PersonSeat:
    return {"player": player["id"], "name": player["name"]}


class Hub:
    def __init__(self, settings: Settings, store: Store, fanout: Fanout | None = None) -> None:
        self.settings = settings
        self.store = store
        self.fanout: Fanout = fanout or LocalFanout()
        self.ratings = Ratings(store, settings.ranked_min_moves)
        self.tables: dict[str, Table] = {}
        # Local worker processes (started at the first job); a cluster node may use Redis
        # Streams instead (`app.join_cluster`).
        self.bots = BotService(LocalBots(settings.workers()), settings.bot_floor_ms)
        self.bot_budget = BotBudget(settings, lambda: self.bots.workers)
        self._admission = asyncio.Lock()  # innermost: held only to check the budget and insert
        self.limits: RateLimits | None = None  # set by the app
        self.sockets: dict[str, set[Socket]] = {}  # session (token hash) -> open sockets
        # Players whose session was looked up lately (the app plugs in the session cache).
        self.recently_seen: Callable[[], set[int]] = set
        self.log = logging.getLogger("carroca.server")
        self.ranked_queue: dict[str, list[dict[str, Any]]] = {}
        self.mutes: dict[tuple[str, int], set[int]] = {}  # (match, player) -> muted seats
        # Several nodes: this node's part (None: the server is one process).
        self.cluster: Directory | None = None
        self.node: str | None = None  # its id: the name it was started with, a suffix per start
        self._tasks: set[asyncio.Task[Any]] = set()
        self._stopping = False
        self.listeners: list[Listener] = []  # services told when a table finishes

    @property
    def clustered(self) -> bool:
        return self.cluster is not None

    @staticmethod
    def node_name(node: str) -> str:
        """The name a node was started with (`--node`), as the front names it: a node's id is
        that name and a suffix per start (`n1/5f0c2a9e`)."""
        return node.rsplit("/", 1)[0]

    # ------------------------------------------------------------------ life cycle

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        if self._stopping:
            coro.close()
            return
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            self.log.error("background task failed", exc_info=task.exception())

    async def resume(self) -> int:
        """Rebuild every unfinished match from its log and restart its clock (one process; a
        cluster's nodes take over the matches of dead nodes instead, `Cluster.take_over`)."""
        if self.cluster is not None:
            return await self.cluster.take_over()
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

    def adopt(self, row: dict[str, Any], moves: list[Any]) -> Table:
        """Run a stored match here: rebuilt from its log, its clock (or its start) going on."""
        table = Table(self, row)
        table.restore(moves)
        self.tables[table.id] = table
        if table.status == "playing":
            match = table.match
            if match is not None and match.is_over:  # stopped between last move and end
                self.spawn(self._finish_stored(table))
            else:
                table.schedule()
        elif not table.open_seats():  # full, stopped before the first deal
            self.spawn(self.start_table(table))
        elif table.mode == "casual":
            self.spawn(self.fill_with_bots(table))
        return table

    async def _finish_stored(self, table: Table) -> None:
        async with table.lock:
            try:
                await table.finish()
            except Fenced:
                self.lost(table)

    def lost(self, table: Table) -> None:
        """The database refused a write of this table: another node runs it now."""
        self.log.warning("match %s is run by another node now", table.id)
        if self.cluster is not None:
            self.cluster.give_up(table)
        else:
            table.close()
            self.tables.pop(table.id, None)

    async def stop(self) -> None:
        self._stopping = True
        for table in self.tables.values():
            table.close()
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.bots.stop()

    async def upkeep(self) -> None:
        """Every `purge_seconds`: close waiting friends' tables past their time, then drop
        expired sessions and the guests who never played."""
        while True:
            await asyncio.sleep(self.settings.purge_seconds)
            with contextlib.suppress(Exception):  # an outage: the store logs it once
                await self.purge()

    async def purge(self) -> tuple[int, int, int]:
        """Returns (tables, sessions, guests) removed."""
        cutoff = time.time() - self.settings.waiting_table_minutes * 60
        expired = 0
        for table in list(self.tables.values()):
            if table.mode != "friends" or table.status != "waiting" or table.created_at >= cutoff:
                continue
            async with table.lock:
                if table.status != "waiting":
                    continue
                if await self.store.expire_match(table.id, table.fence):
                    expired += 1
                elif self.cluster is not None:  # another node runs it now
                    self.lost(table)
                    continue
                table.status = "expired"
                table.publish()
                table.close()
                self.tables.pop(table.id, None)
        keep = {pid for t in self.tables.values() for _, pid in t.humans()}
        with contextlib.suppress(ServerError):  # seated at tables other nodes run
            keep.update(s["player"] for r in await self.elsewhere()
                        for s in r["seats"] if s is not None and "player" in s)
        keep.update(p["id"] for q in self.ranked_queue.values() for p in q)
        keep.update(c.player["id"] for conns in self.sockets.values() for c in conns)
        keep.update(self.recently_seen())  # signed in a moment ago: maybe sitting down now
        for listener in self.listeners:  # registered for an event, say
            keep.update(await listener.players_held())
        guests_before = time.time() - self.settings.guest_unplayed_hours * 3600
        sessions, guests = await self.store.purge(guests_before, keep)
        if expired or guests:
            self.log.info("expired %d waiting tables, %d sessions, %d unplayed guests",
                          expired, sessions, guests)
        return expired, sessions, guests

    # ------------------------------------------------------------------ sockets per session

    def socket_opened(self, session: str, conn: Socket) -> None:
        self.sockets.setdefault(session, set()).add(conn)

    def socket_closed(self, session: str, conn: Socket) -> None:
        conns = self.sockets.get(session)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self.sockets[session]

    def end_session(self, session: str) -> int:
        """Logout: that sign-in's open sockets are closed (4401)."""
        conns = self.sockets.pop(session, set())
        for conn in conns:
            conn.end_session()
        return len(conns)

    def table_started(self, table: Table) -> None:
        table.notify_players(wire.Matched(match=table.id, mode=table.mode))

    def table_finished(self, table: Table) -> None:
        loop = asyncio.get_running_loop()
        loop.call_later(self.settings.finished_keep_seconds, self._drop, table.id)
        for listener in self.listeners:
            try:
                listener.table_finished(table)
            except Exception:  # a service's fault must not stop the table's end
                self.log.exception("a listener failed on the end of match %s", table.id)

    def _drop(self, table_id: str) -> None:
        table = self.tables.get(table_id)
        if table is not None and table.status == "finished":
            table.close()
            del self.tables[table_id]
            for key in [k for k in self.mutes if k[0] == table_id]:
                del self.mutes[key]

    # ------------------------------------------------------------------ creating tables

    async def new_table(self, client_seeds: list[str | None] | None = None,
                        seeds: tuple[str, str] | None = None, **kw: Any) -> Table:
        """A table stored and kept here. `seeds`: (server seed, client seed) fixed in advance,
        as an event's match has them (derived from the event's seed): then no seat adds its
        own client seed."""
        row = Table.new_row(**kw)
        if client_seeds is not None:
            row["client_seeds"] = client_seeds
        if seeds is not None:
            server_seed, client_seed = seeds
            row.update(server_seed=server_seed, commitment=fair.commitment(server_seed),
                       client_seed=client_seed)
        if self.node is not None:
            row["owner"] = self.node
        try:
            await self.store.insert_match(row)
        except Exception:  # logged once per outage by the store
            raise NotStored() from None
        table = Table(self, row)
        self.tables[table.id] = table
        return table

    def bot_charges(self) -> list[Charge]:
        """The live tables here whose bots search, each with whom and where it is charged to."""
        return [Charge(t.charged_player(), t.address) for t in self.tables.values()
                if t.bot_work()]

    async def create_table(self, player: dict[str, Any], address: str | None,
                           client_seeds: list[str | None] | None = None, spend: bool = False,
                           **row: Any) -> Table:
        """A new table (`Table.new_row`'s fields); one whose bots search only within the bot
        budget (`BotBudget`), checked and made in one step whatever the route. `spend`: it
        counts against the player's tables created (`LIMIT_TABLES_PLAYER`), spent only once
        the budget allowed it, and before anything is stored."""
        searching = any(s is not None and s.get("bot") in SEARCHING_LEVELS
                        for s in row["seats"]) or \
            (row["mode"] == "casual" and row["bot_level"] in SEARCHING_LEVELS)
        async with self._admission:
            if searching:
                elsewhere = self.cluster.charges_elsewhere() if self.cluster else NOWHERE
                self.bot_budget.check(self.bot_charges(), player["id"], address, elsewhere)
            if spend:
                self.spend_table(player)
            table = await self.new_table(client_seeds, **row)
            table.address = address
            if searching and self.cluster is not None:
                self.cluster.charges_changed()
            return table

    async def start_table(self, table: Table) -> None:
        """Start a full table; while the database refuses, try again with a growing pause."""
        await asyncio.sleep(0)  # let the creator answer with the commitment first
        pause = 0.5
        while not table.closed:
            try:
                async with table.lock:
                    if table.status == "waiting" and not table.open_seats():
                        await table.start()
                return
            except Exception:  # logged once per outage by the store
                await asyncio.sleep(pause)
                pause = min(10.0, pause * 2)

    async def start_when_stored(self, table: Table) -> None:
        """A full table whose start the database refused (its seats are stored)."""
        await asyncio.sleep(0.5)
        await self.start_table(table)

    def spend_table(self, player: dict[str, Any]) -> None:
        if self.limits is not None:
            self.limits.tables_player.hit(str(player["id"]))

    async def elsewhere(self, mode: str | None = None, **where: Any) -> list[dict[str, Any]]:
        """Live matches run by other nodes (none for a single process), narrowed by `where`
        (`Store.live_matches`)."""
        if self.cluster is None:
            return []
        try:
            rows = await self.store.live_matches(mode, **where)
        except Exception:
            raise NotStored() from None
        return [r for r in rows if r["id"] not in self.tables
                and (mode is None or r["mode"] == mode)]

    async def fill_with_bots(self, table: Table) -> None:
        await asyncio.sleep(self.settings.casual_wait_seconds)
        pause = 0.5
        while not table.closed:
            try:
                async with table.lock:
                    if table.status != "waiting":
                        return
                    await table.start([s or bot_seat(table.bot_level) for s in table.seats])
                return
            except Exception:  # the database refused: logged once by the store; try again
                await asyncio.sleep(pause)
                pause = min(10.0, pause * 2)

