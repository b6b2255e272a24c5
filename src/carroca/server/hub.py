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
import random
import secrets
import time
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from carroca.bots import BOT_LEVELS, SEARCHING_LEVELS, level_names
from carroca.botservice import BotService, LocalBots
from carroca.rules import get_ruleset
from carroca.rules.rulesets import options_dict
from carroca.server.botbudget import BotBudget, Charge
from carroca.server.errors import NOT_STORED, LobbyError, RateLimited
from carroca.server.fanout import Fanout, LocalFanout
from carroca.server.ratings import Ratings
from carroca.server.settings import Settings
from carroca.server.store import Fenced, Store
from carroca.server.table import Table

if TYPE_CHECKING:
    from carroca.server.cluster import Cluster
    from carroca.server.connection import Connection
    from carroca.server.ratelimits import RateLimits

MODES = ("casual", "ranked", "friends", "bots")
MIN_TURN, MAX_TURN = 1.0, 120.0


def bot_seat(level: str) -> dict[str, Any]:
    if level not in BOT_LEVELS:
        raise LobbyError(
            422, "unknown_bot",
            f"Nível de bot desconhecido: {level!r}. Os níveis são: "
            f"{level_names(tuple(BOT_LEVELS))}.",
        )
    return {"bot": level, "name": f"bot:{level}"}


def player_seat(player: dict[str, Any]) -> dict[str, Any]:
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
        self.sockets: dict[str, set[Connection]] = {}  # session (token hash) -> open sockets
        # Players whose session was looked up lately (the app plugs in the session cache).
        self.recently_seen: Callable[[], set[int]] = set
        self.log = logging.getLogger("carroca.server")
        self.lobby_lock = asyncio.Lock()
        self.ranked_queue: dict[str, list[dict[str, Any]]] = {}
        self.mutes: dict[tuple[str, int], set[int]] = {}  # (match, player) -> muted seats
        # Several nodes: this node's part (None: the server is one process).
        self.cluster: Cluster | None = None
        self.node: str | None = None  # its id: the name it was started with, a suffix per start
        self._tasks: set[asyncio.Task[Any]] = set()
        self._stopping = False

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
            self.spawn(self._start(table))
        elif table.mode == "casual":
            self.spawn(self._fill_with_bots(table))
        return table

    async def _finish_stored(self, table: Table) -> None:
        async with table.lock:
            try:
                await table._finish()
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
        with contextlib.suppress(LobbyError):  # seated at tables other nodes run
            keep.update(s["player"] for r in await self._elsewhere()
                        for s in r["seats"] if s is not None and "player" in s)
        keep.update(p["id"] for q in self.ranked_queue.values() for p in q)
        keep.update(c.player["id"] for conns in self.sockets.values() for c in conns)
        keep.update(self.recently_seen())  # signed in a moment ago: maybe sitting down now
        guests_before = time.time() - self.settings.guest_unplayed_hours * 3600
        sessions, guests = await self.store.purge(guests_before, keep)
        if expired or guests:
            self.log.info("expired %d waiting tables, %d sessions, %d unplayed guests",
                          expired, sessions, guests)
        return expired, sessions, guests

    # ------------------------------------------------------------------ sockets per session

    def socket_opened(self, session: str, conn: Connection) -> None:
        self.sockets.setdefault(session, set()).add(conn)

    def socket_closed(self, session: str, conn: Connection) -> None:
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
        table.notify_players("matched", {"match": table.id, "mode": table.mode})

    def table_finished(self, table: Table) -> None:
        loop = asyncio.get_running_loop()
        loop.call_later(self.settings.finished_keep_seconds, self._drop, table.id)

    def _drop(self, table_id: str) -> None:
        table = self.tables.get(table_id)
        if table is not None and table.status == "finished":
            table.close()
            del self.tables[table_id]
            for key in [k for k in self.mutes if k[0] == table_id]:
                del self.mutes[key]

    # ------------------------------------------------------------------ creating tables

    def _check(self, ruleset: str, options: dict[str, Any] | None, turn_seconds: float | None
               ) -> tuple[dict[str, Any], float]:
        rs = get_ruleset(ruleset)  # raises UnknownRuleset (a RulesError) in pt-BR
        opts = options_dict(rs.make_options(options or {}))
        if turn_seconds is None:
            return opts, self.settings.turn_seconds
        seconds = float(turn_seconds)
        if not MIN_TURN <= seconds <= MAX_TURN:
            raise LobbyError(422, "bad_turn_seconds",
                             f"O tempo por jogada vai de {MIN_TURN:g} a {MAX_TURN:g} segundos.")
        return opts, seconds

    async def _new_table(self, client_seeds: list[str | None] | None = None, **kw: Any
                         ) -> Table:
        row = Table.new_row(**kw)
        if client_seeds is not None:
            row["client_seeds"] = client_seeds
        if self.node is not None:
            row["owner"] = self.node
        try:
            await self.store.insert_match(row)
        except Exception:  # logged once per outage by the store
            raise LobbyError(503, "not_stored", NOT_STORED) from None
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
                self.bot_budget.check(self.bot_charges(), player["id"], address)
            if spend:
                self.spend_table(player)
            table = await self._new_table(client_seeds, **row)
            table.address = address
            return table

    async def _start(self, table: Table) -> None:
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
        await self._start(table)

    def spend_table(self, player: dict[str, Any]) -> None:
        if self.limits is not None:
            self.limits.tables_player.hit(str(player["id"]))

    async def create_bots_match(
        self, player: dict[str, Any], ruleset: str, options: dict[str, Any] | None,
        seats: list[str], turn_seconds: float | None, address: str | None = None,
    ) -> Table:
        """A demo match of bots, for a signed-in player: a few at a time per player, and a cap
        for the whole server."""
        opts, seconds = self._check(ruleset, options, turn_seconds)
        n = get_ruleset(ruleset).seats
        if len(seats) != n:
            raise LobbyError(422, "bad_seats", f"{ruleset} tem {n} lugares; vieram {len(seats)}.")
        specs = []
        for s in seats:
            if not isinstance(s, str) or not s.startswith("bot:"):
                raise LobbyError(422, "bad_seats",
                                 "Nesta rota todos os lugares são bots: use 'bot:nível'.")
            specs.append(bot_seat(s[4:]))
        async with self.lobby_lock:  # the caps are checked and the table made in one step
            live = [t for t in self.tables.values()
                    if t.mode == "bots" and t.status in ("waiting", "playing")]
            mine = sum(1 for t in live if t.host_id == player["id"])
            per_player = self.settings.max_bot_matches_per_player
            if mine >= per_player:
                raise RateLimited(
                    30, f"Você já tem {mine} partidas só de bots em andamento (o limite é "
                    f"{per_player}); espere uma terminar.", code="too_many_bot_matches",
                )
            if len(live) >= self.settings.max_bot_matches:
                raise LobbyError(503, "too_many_matches",
                                 "Muitas partidas só de bots em andamento; tente daqui a pouco.")
            table = await self.create_table(
                player, address, spend=True, mode="bots", ruleset=ruleset, options=opts,
                seats=specs, turn_seconds=seconds, bot_level=specs[0]["bot"],
                host_id=player["id"],
            )
        self.spawn(self._start(table))
        return table

    async def casual(
        self, player: dict[str, Any], ruleset: str, bot_level: str, client_seed: str | None,
        match_id: str | None = None, address: str | None = None,
    ) -> dict[str, Any]:
        """Seat the player at the chosen casual table, at an open one of the ruleset, or at a
        new one; the lobby's answer (`Table.answer`)."""
        opts, seconds = self._check(ruleset, None, None)
        bot_seat(bot_level)
        async with self.lobby_lock:
            for table in self.tables.values():
                seat = table.seat_of(player["id"])
                if table.mode == "casual" and seat is not None and table.status != "finished":
                    return table.answer(seat)
            for row in await self._elsewhere("casual", player_id=player["id"]):
                seat = _seat_in(row, player["id"])
                if seat is not None:
                    return _answer(row, seat)
            if match_id is not None:  # a table chosen from the lobby's list
                chosen = self.tables.get(match_id)
                elsewhere = [] if chosen is not None else \
                    await self._elsewhere("casual", match_id=match_id)
                if chosen is not None:
                    seat = await self._sit_casual(chosen, player, client_seed)
                elif elsewhere:
                    seat = await self._sit_elsewhere(match_id, player, client_seed)
                else:
                    seat = None
                if seat is None:
                    raise LobbyError(409, "table_full",
                                     "Essa mesa já começou ou está cheia; escolha outra.")
                if chosen is not None:
                    return chosen.answer(seat)
                return _answer(next(r for r in elsewhere if r["id"] == match_id), seat)
            for table in list(self.tables.values()):  # a snapshot: sitting awaits
                if table.ruleset.name == ruleset and table.bot_level == bot_level:
                    seat = await self._sit_casual(table, player, client_seed)
                    if seat is not None:
                        return table.answer(seat)
            for row in await self._elsewhere("casual", ruleset=ruleset, bot_level=bot_level,
                                             waiting=True):
                if None in row["seats"]:
                    seat = await self._sit_elsewhere(row["id"], player, client_seed)
                    if seat is not None:
                        return _answer(row, seat)
            n = get_ruleset(ruleset).seats
            table = await self.create_table(
                player, address, mode="casual", ruleset=ruleset, options=opts,
                seats=[player_seat(player)] + [None] * (n - 1), turn_seconds=seconds,
                bot_level=bot_level, client_seeds=[client_seed] + [None] * (n - 1),
            )
            self.spawn(self._fill_with_bots(table))
            return table.answer(0)

    async def _elsewhere(self, mode: str | None = None, **where: Any) -> list[dict[str, Any]]:
        """Live matches run by other nodes (none for a single process), narrowed by `where`
        (`Store.live_matches`)."""
        if self.cluster is None:
            return []
        try:
            rows = await self.store.live_matches(mode, **where)
        except Exception:
            raise LobbyError(503, "not_stored", NOT_STORED) from None
        return [r for r in rows if r["id"] not in self.tables
                and (mode is None or r["mode"] == mode)]

    async def _sit_elsewhere(
        self, match_id: str, player: dict[str, Any], client_seed: str | None
    ) -> int | None:
        assert self.cluster is not None
        try:
            seat = await self.cluster.call_owner(
                match_id, "sit", {"player": player, "client_seed": client_seed})
        except LobbyError as exc:
            if exc.code == "not_found":
                return None
            raise  # its owner is changing (the sit may have happened): the player asks again
        return None if seat is None else int(seat)

    @staticmethod
    async def _sit_casual(
        table: Table, player: dict[str, Any], client_seed: str | None
    ) -> int | None:
        """The seat taken at a waiting casual table (the player's own seat when they have one
        there already: asking twice never takes two), or None when it has none left."""
        if table.mode != "casual":
            return None
        async with table.lock:
            if table.status not in ("waiting", "playing"):  # over: never a table to sit at
                return None
            mine = table.seat_of(player["id"])
            if mine is not None:
                return mine
            if table.status != "waiting" or not table.open_seats():  # its bots came first
                return None
            seat = table.open_seats()[0]
            await table.sit(seat, player_seat(player), client_seed)
            return seat

    async def _fill_with_bots(self, table: Table) -> None:
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

    async def friends(
        self, host: dict[str, Any], ruleset: str, options: dict[str, Any] | None,
        seats: list[str], turn_seconds: float | None, client_seed: str | None,
        address: str | None = None,
    ) -> dict[str, Any]:
        """A private table: `seats` holds "me", "open" or "bot:nível" for each seat."""
        opts, seconds = self._check(ruleset, options, turn_seconds)
        n = get_ruleset(ruleset).seats
        if len(seats) != n or seats.count("me") != 1:
            raise LobbyError(422, "bad_seats",
                             f"{ruleset} tem {n} lugares, e um deles é o seu ('me').")
        specs: list[dict[str, Any] | None] = []
        for s in seats:
            if s == "me":
                specs.append(player_seat(host))
            elif s == "open":
                specs.append(None)
            elif isinstance(s, str) and s.startswith("bot:"):
                specs.append(bot_seat(s[4:]))
            else:
                raise LobbyError(422, "bad_seats", f"Lugar inválido: {s!r}.")
        me = seats.index("me")
        async with self.lobby_lock:  # the caps are checked and the table made in one step
            hosted = [t for t in self.tables.values() if t.mode == "friends"
                      and t.status in ("waiting", "playing") and t.host_id == host["id"]]
            others = await self._elsewhere("friends", host_id=host["id"])
            waiting = sum(1 for t in hosted if t.status == "waiting") + \
                sum(1 for r in others if r["status"] == "waiting")
            most = self.settings.max_waiting_tables_per_player
            if specs.count(None) and waiting >= most:
                raise RateLimited(
                    60, f"Você já tem {waiting} mesas esperando jogadores (o limite é {most}); "
                    "comece ou espere uma delas.", code="too_many_tables",
                )
            table = await self.create_table(
                host, address, spend=True, mode="friends", ruleset=ruleset, options=opts,
                seats=specs,
                turn_seconds=seconds, bot_level=self.settings.autoplay_bot, host_id=host["id"],
                invite=secrets.token_urlsafe(6),
                client_seeds=[client_seed if i == me else None for i in range(n)],
            )
        if not table.open_seats():
            self.spawn(self._start(table))
        return table.answer(me)

    async def join_invite(
        self, player: dict[str, Any], invite: str, client_seed: str | None, local: bool = False
    ) -> tuple[Table, int]:
        for table in self.tables.values():
            if table.invite == invite and table.mode == "friends":
                break
        else:
            raise LobbyError(404, "no_table", "Convite inválido ou mesa encerrada.")
        async with table.lock:
            seat = table.seat_of(player["id"])
            if seat is not None:
                return table, seat
            free = table.open_seats()
            if table.status != "waiting" or not free:
                raise LobbyError(409, "table_full", "A mesa já está completa; você pode assistir.")
            seat = free[0]
            await table.sit(seat, player_seat(player), client_seed)
        return table, seat

    async def join_invite_anywhere(
        self, player: dict[str, Any], invite: str, client_seed: str | None
    ) -> dict[str, Any]:
        """Sit at a friends' table by its invitation, on whichever node runs it."""
        if self.cluster is None or any(t.invite == invite for t in self.tables.values()):
            table, seat = await self.join_invite(player, invite, client_seed)
            return table.answer(seat)
        try:
            found = await self.store.match_by_invite(invite)
        except Exception:
            raise LobbyError(503, "not_stored", NOT_STORED) from None
        if found is None:
            raise LobbyError(404, "no_table", "Convite inválido ou mesa encerrada.")
        answer: dict[str, Any] = await self.cluster.call_owner(
            found[0], "invite",
            {"player": player, "invite": invite, "client_seed": client_seed})
        return answer

    async def queue_ranked(
        self, player: dict[str, Any], ruleset: str, client_seed: str | None
    ) -> dict[str, Any] | None:
        """Queue for a ranked match; returns the lobby's answer for the table once enough
        players are waiting (or the one the player has a seat at already)."""
        opts, seconds = self._check(ruleset, None, None)
        if self.settings.ranked_requires_account and player.get("kind") != "account":
            raise LobbyError(403, "account_required",
                             "As partidas ranqueadas são para quem tem conta: crie a sua "
                             "(você mantém o apelido e o histórico de convidado).")
        n = get_ruleset(ruleset).seats
        async with self.lobby_lock:
            for table in self.tables.values():
                mine = table.seat_of(player["id"])
                if table.mode == "ranked" and table.status != "finished" and mine is not None:
                    return table.answer(mine)
            if self.cluster is not None:  # the queue every node shares, in the database
                for row in await self._elsewhere("ranked", player_id=player["id"]):
                    seat = _seat_in(row, player["id"])
                    if seat is not None:
                        return _answer(row, seat)
                try:
                    taken = await self.store.ranked_enqueue(player, ruleset, client_seed, n)
                except Exception:
                    raise LobbyError(503, "not_stored", NOT_STORED) from None
                if taken is None:
                    return None
                group = [{"id": g["player_id"], "name": g["name"], "seed": g["seed"]}
                         for g in taken]
            else:
                for q in self.ranked_queue.values():
                    q[:] = [p for p in q if p["id"] != player["id"]]
                queue = self.ranked_queue.setdefault(ruleset, [])
                queue.append({"id": player["id"], "name": player["name"], "seed": client_seed})
                if len(queue) < n:
                    return None
                group = queue[:n]
            random.shuffle(group)
            table = await self._new_table(
                mode="ranked", ruleset=ruleset, options=opts,
                seats=[player_seat(p) for p in group], turn_seconds=seconds,
                bot_level=self.settings.autoplay_bot, client_seeds=[p["seed"] for p in group],
            )
            if self.cluster is None:
                queue[:] = [p for p in queue if p not in group]  # matched once stored
            try:
                async with table.lock:
                    await table.start()
            except Exception:  # the database refused: started as soon as it is back
                self.spawn(self._start(table))
            return table.answer(table.seat_of(player["id"]))

    async def leave_ranked(self, player_id: int) -> bool:
        if self.cluster is not None:
            try:
                return await self.store.ranked_leave(player_id)
            except Exception:
                raise LobbyError(503, "not_stored", NOT_STORED) from None
        left = False
        for q in self.ranked_queue.values():
            before = len(q)
            q[:] = [p for p in q if p["id"] != player_id]
            left = left or len(q) != before
        return left

    async def queued(self, player_id: int) -> str | None:
        if self.cluster is not None:
            with contextlib.suppress(Exception):
                return await self.store.ranked_queued(player_id)
            return None
        for ruleset, q in self.ranked_queue.items():
            if any(p["id"] == player_id for p in q):
                return ruleset
        return None

    async def tables_of(self, player_id: int) -> list[str]:
        """The live tables where the player has a seat, on any node."""
        found = [t.id for t in self.tables.values()
                 if t.status != "finished" and t.seat_of(player_id) is not None]
        with contextlib.suppress(LobbyError):
            found += [r["id"] for r in await self._elsewhere(player_id=player_id)]
        return found

    async def lobby(self) -> list[dict[str, Any]]:
        """Tables a player may join (casual with an open seat) or watch (in play)."""
        out = []
        for t in self.tables.values():
            if t.mode == "friends" or t.status == "finished":
                continue
            out.append({
                "id": t.id, "mode": t.mode, "ruleset": t.ruleset.name, "status": t.status,
                "bot_level": t.bot_level,
                "players": t.names(), "open_seats": len(t.open_seats()),
                "score": t.score if t.match else None,
            })
        with contextlib.suppress(LobbyError):
            for r in await self._elsewhere():
                if r["mode"] == "friends":
                    continue
                out.append({
                    "id": r["id"], "mode": r["mode"], "ruleset": r["ruleset"],
                    "status": r["status"], "bot_level": r["bot_level"],
                    "players": [s["name"] if s else "" for s in r["seats"]],
                    "open_seats": sum(1 for s in r["seats"] if s is None),
                    # The owner stores it between hands (none yet: the first hand is on).
                    "score": (r["score"] or [0, 0]) if r["status"] == "playing" else None,
                })
        return out


def _seat_in(row: dict[str, Any], player_id: int) -> int | None:
    for i, s in enumerate(row["seats"]):
        if s is not None and s.get("player") == player_id:
            return i
    return None


def _answer(row: dict[str, Any], seat: int) -> dict[str, Any]:
    """`Table.answer` for a match another node runs."""
    out: dict[str, Any] = {"id": row["id"], "seat": seat, "mode": row["mode"],
                           "commitment": row["commitment"]}
    if row.get("invite") and row["mode"] == "friends":
        out["invite"] = row["invite"]
    return out
