"""Durable storage behind a small async interface, with group commits for moves.

All database work runs on one thread of its own, so the event loop never blocks on I/O and
statements reach the database in the order the loop issued them. Moves arriving while a commit is
in flight are batched into the next transaction: one commit (one fsync) serves many tables, and
each move's future resolves only after its transaction committed — the runner broadcasts a move
after that, never before.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import threading
import time
import zlib
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection

from carroca.server import db
from carroca.server.names import lookalike_keys

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class MoveRow:
    match_id: str
    seq: int
    seat: int
    action: str
    auto: bool
    at: float
    client_id: int | None = None  # the player's move id, so a resent move stays a duplicate
    epoch: int | None = None  # several nodes: stored only while the match has this epoch


class NameTaken(Exception):
    """The nickname is another player's, or looks like another player's (`lookalike`)."""

    def __init__(self, lookalike: bool) -> None:
        super().__init__("look-alike name" if lookalike else "name taken")
        self.lookalike = lookalike


class Fenced(Exception):
    """The match was taken over by another node (its epoch moved on): this node's write is
    refused, and the match is no longer this node's to run."""


def _update_fenced(conn: Connection, match_id: str, epoch: int | None,
                   fields: dict[str, Any]) -> None:
    """Update a match's row; with `epoch`, only while the row still has it, else `Fenced`."""
    query = db.matches.update().where(db.matches.c.id == match_id)
    if epoch is not None:
        query = query.where(db.matches.c.epoch == epoch)
    if conn.execute(query.values(**fields)).rowcount == 0 and epoch is not None:
        raise Fenced(match_id)


SIDE_THREADS = 4  # database threads for players, sessions and lookups (PostgreSQL)
RANKED_WAIT = 10 * 60.0  # seconds a player stays in the shared ranked queue


def _with_moves(
    conn: Connection, rows: list[dict[str, Any]]
) -> list[tuple[dict[str, Any], list[MoveRow]]]:
    """Each match row with its move log, in order."""
    out = []
    for r in rows:
        logged = conn.execute(
            sa.select(db.moves).where(db.moves.c.match_id == r["id"]).order_by(db.moves.c.seq)
        ).mappings()
        out.append((r, [MoveRow(**dict(m)) for m in logged]))
    return out


def _history_row(game: dict[str, Any], player_id: int) -> dict[str, Any]:
    """A match of a profile's history: `hosted` when the profile's player was its host."""
    game["private"] = bool(game["private"])
    game["hosted"] = game.pop("host_id") == player_id
    return game


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Outage:
    """Storage failures are logged once per outage, with a count when it ends, not per retry:
    a table retrying through a full disk must not write thousands of tracebacks."""

    def __init__(self) -> None:
        self.log = logging.getLogger("carroca.server")
        self.since: float | None = None
        self.failures = 0
        self.outages = 0

    def failed(self, exc: BaseException) -> None:
        self.failures += 1
        if self.since is None:
            self.since = time.monotonic()
            self.outages += 1
            self.log.error("storage unavailable: %s: %s (logged once until it is back)",
                           type(exc).__name__, str(exc).splitlines()[0] if str(exc) else "")

    def succeeded(self) -> None:
        if self.since is not None:
            self.log.warning("storage back after %d failed operations in %.1f s",
                             self.failures, time.monotonic() - self.since)
            self.since = None
            self.failures = 0

    @property
    def down(self) -> bool:
        return self.since is not None


class Store:
    """The server's durable state: players, sessions, matches, their move logs and ratings."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = db.make_engine(url)
        self.postgres = self.engine.dialect.name == "postgresql"
        # Matches' writes (moves, seats, ends, claims) on one thread, in order. On PostgreSQL,
        # whose every commit waits for its fsync, what needs no order with them (players,
        # sessions, lookups, the ranked queue) runs beside on a few threads, and the lease on
        # a thread of its own: a long queue of writes must never make a node miss its renewal.
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="carroca-db")
        self._side = ThreadPoolExecutor(SIDE_THREADS, thread_name_prefix="carroca-db-side") \
            if self.postgres else self._pool
        self._lease = ThreadPoolExecutor(1, thread_name_prefix="carroca-db-lease") \
            if self.postgres else self._pool
        self._lock = threading.Lock()
        self._pending: list[tuple[MoveRow, asyncio.Future[None]]] = []
        self._flush_queued = False
        self.commits = 0  # transactions that carried moves (for the load benchmark)
        self.moves_written = 0
        self.outage = Outage()

    # ------------------------------------------------------------------ plumbing

    async def run(self, fn: Callable[[Connection], T],
                  pool: ThreadPoolExecutor | None = None) -> T:
        """Run `fn(conn)` in one transaction on the database thread (or on `pool`)."""

        def job() -> T:
            with self.engine.begin() as conn:
                return fn(conn)

        try:
            result = await asyncio.get_running_loop().run_in_executor(pool or self._pool, job)
        except Exception as exc:
            self.outage.failed(exc)
            raise
        self.outage.succeeded()
        return result

    async def _run_side(self, fn: Callable[[Connection], T]) -> T:
        """Work that needs no order with the matches' writes (see `__init__`)."""
        return await self.run(fn, self._side)

    async def _run_lease(self, fn: Callable[[Connection], T]) -> T:
        return await self.run(fn, self._lease)

    def append_move(self, row: MoveRow) -> asyncio.Future[None]:
        """Queue a move; the future resolves once the transaction holding it has committed."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        with self._lock:
            self._pending.append((row, fut))
            queue = not self._flush_queued
            self._flush_queued = True
        if queue:
            self._pool.submit(self._flush, loop)
        return fut

    def _flush(self, loop: asyncio.AbstractEventLoop) -> None:
        with self._lock:
            batch, self._pending = self._pending, []
            self._flush_queued = False
        if not batch:
            return
        error: BaseException | None = None
        fenced: set[str] = set()
        try:
            with self.engine.begin() as conn:
                fenced = self._fence(conn, [r for r, _ in batch])
                rows = [
                    {"match_id": r.match_id, "seq": r.seq, "seat": r.seat,
                     "action": r.action, "auto": r.auto, "at": r.at,
                     "client_id": r.client_id}
                    for r, _ in batch if r.match_id not in fenced
                ]
                if rows:
                    conn.execute(db.moves.insert(), rows)
            self.commits += 1
            self.moves_written += len(rows)
        except Exception as exc:  # every waiter learns that its move was not stored
            error = exc
        results = [
            error if error is not None else
            Fenced(r.match_id) if r.match_id in fenced else None
            for r, _ in batch
        ]
        loop.call_soon_threadsafe(self._settle, [f for _, f in batch], results, error)

    @staticmethod
    def _fence(conn: Connection, rows: list[MoveRow]) -> set[str]:
        """The matches of `rows` whose epoch moved on (taken over by another node).

        The match rows are read FOR SHARE: a takeover's claim (`FOR UPDATE SKIP LOCKED`)
        skips a row this transaction holds until the next scan, and this transaction waits
        for a claim in progress and then sees the new epoch; so a takeover never misses a move
        that committed under the old epoch, and no move commits under the old epoch after it."""
        held = {r.match_id: r.epoch for r in rows if r.epoch is not None}
        if not held:
            return set()
        m = db.matches.c
        current = {row[0]: row[1] for row in conn.execute(
            sa.select(m.id, m.epoch).where(m.id.in_(list(held))).with_for_update(read=True)
        )}
        return {mid for mid, epoch in held.items() if current.get(mid) != epoch}

    def _settle(self, futures: list[asyncio.Future[None]],
                results: list[BaseException | None], error: BaseException | None) -> None:
        if error is None:
            self.outage.succeeded()
        else:
            self.outage.failed(error)
        for f, result in zip(futures, results, strict=True):
            if f.done():
                continue
            if result is None:
                f.set_result(None)
            else:
                f.set_exception(result)

    def close(self) -> None:
        for pool in {self._pool, self._side, self._lease}:
            pool.shutdown(wait=True)
        self.engine.dispose()

    # ------------------------------------------------------------------ players and sessions

    async def create_player(
        self, name: str, kind: str, password_hash: str | None = None,
        guest_key_hash: str | None = None,
    ) -> dict[str, Any]:
        """A new player; `NameTaken` when another has the name (compared case-insensitively) or
        one that looks like it (`names.lookalike_keys`). The unique indexes decide between two
        sign-ups racing for a name: the loser inserts nothing."""

        def fn(conn: Connection) -> dict[str, Any] | NameTaken:
            key, (typed, folded) = name.casefold(), lookalike_keys(name)
            p = db.players.c
            held = conn.execute(
                sa.select(p.name_key).where(sa.or_(p.name_key == key, p.name_skeleton == typed,
                                                   p.name_skeleton_folded == folded))
            ).scalars().all()
            if held:  # an answer, not a failure: the transaction must not count as one
                return NameTaken(lookalike=key not in held)
            insert = (pg_insert if self.postgres else sqlite_insert)(db.players)
            pid = conn.execute(
                insert.values(
                    name=name, name_key=key, name_skeleton=typed,
                    name_skeleton_folded=folded, kind=kind,
                    password_hash=password_hash, created_at=time.time(),
                    guest_key_hash=guest_key_hash,
                ).on_conflict_do_nothing().returning(p.id)
            ).scalar()
            if pid is None:
                return NameTaken(lookalike=False)
            return {"id": pid, "name": name, "kind": kind}

        made = await self._run_side(fn)
        if isinstance(made, NameTaken):
            raise made
        return made

    async def player_by_name(self, name: str) -> dict[str, Any] | None:
        def fn(conn: Connection) -> dict[str, Any] | None:
            row = conn.execute(
                sa.select(db.players).where(db.players.c.name_key == name.casefold())
            ).mappings().first()
            return dict(row) if row else None

        return await self._run_side(fn)

    async def set_password(self, player_id: int, password_hash: str) -> None:
        def fn(conn: Connection) -> None:
            conn.execute(
                db.players.update().where(db.players.c.id == player_id)
                .values(password_hash=password_hash, kind="account", guest_key_hash=None)
            )

        await self._run_side(fn)

    async def create_session(self, token: str, player_id: int, ttl: float) -> None:
        now = time.time()

        def fn(conn: Connection) -> None:
            conn.execute(db.sessions.insert().values(
                token_hash=token_hash(token), player_id=player_id, created_at=now,
                expires_at=now + ttl,
            ))

        await self._run_side(fn)

    async def session_player(self, token: str) -> dict[str, Any] | None:
        def fn(conn: Connection) -> dict[str, Any] | None:
            row = conn.execute(
                sa.select(db.players.c.id, db.players.c.name, db.players.c.kind,
                          db.sessions.c.expires_at)
                .join(db.sessions, db.sessions.c.player_id == db.players.c.id)
                .where(db.sessions.c.token_hash == token_hash(token))
                .where(db.sessions.c.expires_at > time.time())
            ).mappings().first()
            return dict(row) if row else None

        return await self._run_side(fn)

    async def add_device(self, token: str, player_id: int, ttl: float) -> None:
        now = time.time()

        def fn(conn: Connection) -> None:
            conn.execute(db.devices.insert().values(
                token_hash=token_hash(token), player_id=player_id, created_at=now,
                expires_at=now + ttl,
            ))

        await self._run_side(fn)

    async def device_player(self, token: str) -> int | None:
        """The account a device cookie was given to, while it lasts."""

        def fn(conn: Connection) -> int | None:
            found = conn.execute(
                sa.select(db.devices.c.player_id)
                .where(db.devices.c.token_hash == token_hash(token))
                .where(db.devices.c.expires_at > time.time())
            ).scalar()
            return int(found) if found is not None else None

        return await self._run_side(fn)

    async def forget_guest(self, player_id: int) -> list[str]:
        """A guest who forgot their device: their key no longer signs in and every session of
        theirs ends, in one transaction. Returns the ended sessions' token hashes."""

        def fn(conn: Connection) -> list[str]:
            p, s = db.players.c, db.sessions.c
            conn.execute(db.players.update().where(p.id == player_id).where(p.kind == "guest")
                         .values(guest_key_hash=None))
            ended = [r[0] for r in conn.execute(
                sa.select(s.token_hash).where(s.player_id == player_id))]
            conn.execute(db.sessions.delete().where(s.player_id == player_id))
            return ended

        return await self._run_side(fn)

    async def delete_session(self, token: str) -> None:
        def fn(conn: Connection) -> None:
            conn.execute(db.sessions.delete().where(db.sessions.c.token_hash == token_hash(token)))

        await self._run_side(fn)

    # ------------------------------------------------------------------ matches

    async def insert_match(self, row: dict[str, Any]) -> None:
        await self.run(lambda conn: conn.execute(db.matches.insert().values(**row)))

    async def update_match(self, match_id: str, epoch: int | None = None, **fields: Any) -> None:
        """Change a match's row; with `epoch`, only while the match still has it (`Fenced`)."""

        await self.run(lambda conn: _update_fenced(conn, match_id, epoch, fields))

    async def finish_match(
        self,
        match_id: str,
        fields: dict[str, Any],
        participants: list[dict[str, Any]],
        ratings: list[dict[str, Any]],
        epoch: int | None = None,
    ) -> None:
        """The end of a match, its participants and rating changes, in one transaction."""

        def fn(conn: Connection) -> None:
            _update_fenced(conn, match_id, epoch, fields)
            if participants:
                conn.execute(db.participants.insert(), participants)
            for r in ratings:
                done = conn.execute(
                    db.ratings.update()
                    .where(db.ratings.c.player_id == r["player_id"])
                    .where(db.ratings.c.family == r["family"])
                    .values(**r)
                )
                if done.rowcount == 0:
                    conn.execute(db.ratings.insert().values(**r))

        await self.run(fn)

    async def set_private(self, match_id: str, private: bool) -> None:
        await self.update_match(match_id, private=private)

    async def set_analysis(self, match_id: str, text: str) -> None:
        await self.update_match(match_id, analysis=text)

    async def get_match(self, match_id: str) -> dict[str, Any] | None:
        def fn(conn: Connection) -> dict[str, Any] | None:
            row = conn.execute(
                sa.select(db.matches).where(db.matches.c.id == match_id)
            ).mappings().first()
            return dict(row) if row else None

        return await self._run_side(fn)

    async def unfinished(self) -> list[tuple[dict[str, Any], list[MoveRow]]]:
        """Every match not finished, with its move log: what a restart resumes."""

        def fn(conn: Connection) -> list[tuple[dict[str, Any], list[MoveRow]]]:
            rows = conn.execute(
                sa.select(db.matches).where(db.matches.c.status.in_(("waiting", "playing")))
                .order_by(db.matches.c.created_at)
            ).mappings().all()
            return _with_moves(conn, [dict(r) for r in rows])

        return await self.run(fn)

    # ------------------------------------------------------------------ several nodes

    def _db_now(self) -> Any:
        """The database's clock in epoch seconds: leases never depend on the nodes' clocks."""
        if self.postgres:
            return sa.func.extract("epoch", sa.func.clock_timestamp())
        return sa.literal(time.time())

    async def register_node(self, node_id: str, name: str, lease: float) -> None:
        def fn(conn: Connection) -> None:
            conn.execute(db.nodes.insert().values(
                id=node_id, name=name, started_at=time.time(),
                lease_until=self._db_now() + lease,
            ))

        await self._run_lease(fn)

    async def renew_lease(self, node_id: str, lease: float) -> bool:
        """Extend this node's lease; False when it had already run out (the node is dead to
        the others, who may have taken its matches: it must not run them any more)."""

        def fn(conn: Connection) -> bool:
            n = db.nodes.c
            done = conn.execute(
                db.nodes.update().where(n.id == node_id).where(n.lease_until > self._db_now())
                .values(lease_until=self._db_now() + lease)
            )
            return bool(done.rowcount)

        return await self._run_lease(fn)

    async def end_lease(self, node_id: str) -> None:
        """A node that stops: its matches are free for the others at once."""
        await self._run_lease(lambda conn: conn.execute(
            db.nodes.update().where(db.nodes.c.id == node_id).values(lease_until=0)
        ))

    async def release_matches(self, node_id: str) -> int:
        """A node whose lease ran out gives back the matches nobody took meanwhile."""

        def fn(conn: Connection) -> int:
            m = db.matches.c
            return int(conn.execute(
                db.matches.update().where(m.owner == node_id)
                .where(m.status.in_(("waiting", "playing"))).values(owner=None)
            ).rowcount)

        return await self.run(fn)

    async def revive_node(self, node_id: str, name: str, lease: float) -> None:
        """A new lease for a node whose lease ran out; its row again if a live node deleted it
        meanwhile (dead for a day: `forget_nodes`)."""

        def fn(conn: Connection) -> None:
            until = self._db_now() + lease
            done = conn.execute(db.nodes.update().where(db.nodes.c.id == node_id)
                                .values(lease_until=until))
            if not done.rowcount:
                conn.execute(db.nodes.insert().values(id=node_id, name=name,
                                                      started_at=time.time(), lease_until=until))

        await self._run_lease(fn)

    async def forget_nodes(self, dead_for: float) -> int:
        """Delete the rows of nodes dead for `dead_for` seconds that own no unfinished match
        (a row per process start would otherwise pile up); finished matches keep the name."""

        def fn(conn: Connection) -> int:
            n, m = db.nodes.c, db.matches.c
            owning = sa.select(m.owner).where(m.owner.is_not(None)) \
                .where(m.status.in_(("waiting", "playing")))
            return int(conn.execute(
                db.nodes.delete().where(n.lease_until < self._db_now() - dead_for)
                .where(n.id.not_in(owning))
            ).rowcount)

        return await self._run_lease(fn)

    async def live_nodes(self) -> set[str]:
        def fn(conn: Connection) -> set[str]:
            n = db.nodes.c
            return {r[0] for r in conn.execute(
                sa.select(n.id).where(n.lease_until > self._db_now()))}

        return await self._run_lease(fn)

    async def claim_orphans(
        self, node_id: str, limit: int = 100, grace: float = 3.0
    ) -> list[tuple[dict[str, Any], list[MoveRow]]]:
        """Take unfinished matches whose owner's lease ran out (or that have none): each gets
        this node as owner and a new epoch, which fences off the old owner's writes. Rows
        locked by another claimer are skipped, so two nodes never take the same match.

        The survivors split a dead node's matches at once: each live node takes those that a
        hash of the match id gives it among the live nodes (in one scan each, however many
        there are), and any live node takes the rest once the owner's lease is `grace` seconds
        past (a part whose node did not come for it: it died too, say)."""

        def fn(conn: Connection) -> list[tuple[dict[str, Any], list[MoveRow]]]:
            m, n = db.matches.c, db.nodes.c
            now = float(conn.execute(sa.select(self._db_now())).scalar() or 0.0)
            live = [r[0] for r in conn.execute(
                sa.select(n.id).where(n.lease_until > now).order_by(n.id))]
            if node_id not in live:  # a node without a lease takes nothing
                return []
            me = live.index(node_id)
            orphaned = sa.and_(
                m.status.in_(("waiting", "playing")),
                sa.or_(m.owner.is_(None), m.owner.not_in(
                    sa.select(n.id).where(n.lease_until > now))))
            candidates = conn.execute(
                sa.select(m.id, n.lease_until)
                .select_from(db.matches.outerjoin(db.nodes, n.id == m.owner))
                .where(orphaned).order_by(m.created_at)
            ).all()
            mine = [match for match, lease in candidates
                    if zlib.crc32(match.encode()) % len(live) == me
                    or (lease is not None and lease < now - grace)][:limit]
            if not mine:
                return []
            ids = [r[0] for r in conn.execute(
                sa.select(m.id).where(m.id.in_(mine)).where(orphaned)
                .with_for_update(skip_locked=True)
            )]
            if not ids:
                return []
            conn.execute(db.matches.update().where(m.id.in_(ids))
                         .values(owner=node_id, epoch=m.epoch + 1))
            rows = conn.execute(
                sa.select(db.matches).where(m.id.in_(ids)).order_by(m.created_at)
            ).mappings().all()
            return _with_moves(conn, [dict(r) for r in rows])

        return await self.run(fn)

    async def owner_of(self, match_id: str) -> tuple[str | None, str] | None:
        """(owner node, status) of a match, or None when there is no such match."""

        def fn(conn: Connection) -> tuple[str | None, str] | None:
            m = db.matches.c
            row = conn.execute(sa.select(m.owner, m.status).where(m.id == match_id)).first()
            return None if row is None else (row[0], row[1])

        return await self._run_side(fn)

    async def seating(self, match_id: str) -> dict[str, Any] | None:
        """A match's mode, status and seats (who sits where), or None."""

        def fn(conn: Connection) -> dict[str, Any] | None:
            m = db.matches.c
            row = conn.execute(
                sa.select(m.mode, m.status, m.seats).where(m.id == match_id)
            ).mappings().first()
            return dict(row) if row else None

        return await self._run_side(fn)

    async def match_by_invite(self, invite: str) -> tuple[str, str | None] | None:
        """(match id, owner node) of a live friends' table with this invitation."""

        def fn(conn: Connection) -> tuple[str, str | None] | None:
            m = db.matches.c
            row = conn.execute(
                sa.select(m.id, m.owner).where(m.invite == invite).where(m.mode == "friends")
                .where(m.status.in_(("waiting", "playing")))
            ).first()
            return None if row is None else (row[0], row[1])

        return await self._run_side(fn)

    async def live_matches(
        self, mode: str | None = None, *, match_id: str | None = None,
        host_id: int | None = None, player_id: int | None = None, ruleset: str | None = None,
        bot_level: str | None = None, waiting: bool = False,
    ) -> list[dict[str, Any]]:
        """Matches waiting or in play, on any node (the lobby of a cluster), narrowed by the
        database: a lobby call must not read every live match (thousands) to find a few."""

        def fn(conn: Connection) -> list[dict[str, Any]]:
            m = db.matches.c
            query = sa.select(m.id, m.mode, m.ruleset, m.status, m.bot_level, m.seats, m.owner,
                              m.host_id, m.created_at, m.commitment, m.invite, m.score) \
                .where(m.status.in_(("waiting",) if waiting else ("waiting", "playing")))
            for column, value in ((m.mode, mode), (m.id, match_id), (m.host_id, host_id),
                                  (m.ruleset, ruleset), (m.bot_level, bot_level)):
                if value is not None:
                    query = query.where(column == value)
            if player_id is not None and self.postgres:  # a seat holding {"player": id}
                query = query.where(sa.cast(m.seats, JSONB).contains([{"player": player_id}]))
            rows = [dict(r) for r in conn.execute(query.order_by(m.created_at)).mappings()]
            if player_id is not None and not self.postgres:
                rows = [r for r in rows
                        if any(s and s.get("player") == player_id for s in r["seats"])]
            return rows

        return await self._run_side(fn)

    async def expire_match(self, match_id: str, epoch: int | None = None) -> bool:
        """Close a table that is still waiting for players (it never started)."""

        def fn(conn: Connection) -> bool:
            query = db.matches.update().where(db.matches.c.id == match_id) \
                .where(db.matches.c.status == "waiting")
            if epoch is not None:
                query = query.where(db.matches.c.epoch == epoch)
            done = conn.execute(query.values(status="expired", finished_at=time.time()))
            return bool(done.rowcount)

        return await self.run(fn)

    async def purge(self, guests_before: float, keep: set[int]) -> tuple[int, int]:
        """Drop expired sessions, and guests created before `guests_before` who never finished a
        match (their names free up), except the players in `keep` (seated at live tables).
        Returns (sessions, guests) removed."""
        now = time.time()

        def fn(conn: Connection) -> tuple[int, int]:
            p, s, m = db.players.c, db.sessions.c, db.matches.c
            sessions = conn.execute(db.sessions.delete().where(s.expires_at <= now)).rowcount
            conn.execute(db.devices.delete().where(db.devices.c.expires_at <= now))
            played = sa.select(db.participants.c.player_id)
            hosted = sa.select(m.host_id).where(m.host_id.is_not(None))
            candidates = [
                r[0] for r in conn.execute(
                    sa.select(p.id).where(p.kind == "guest").where(p.created_at < guests_before)
                    .where(p.id.not_in(played)).where(p.id.not_in(hosted))
                ) if r[0] not in keep
            ]
            guests = 0
            for chunk in range(0, len(candidates), 500):
                ids = candidates[chunk:chunk + 500]
                conn.execute(db.sessions.delete().where(s.player_id.in_(ids)))
                conn.execute(db.devices.delete().where(db.devices.c.player_id.in_(ids)))
                conn.execute(db.ratings.delete().where(db.ratings.c.player_id.in_(ids)))
                guests += conn.execute(db.players.delete().where(p.id.in_(ids))).rowcount
            return sessions, guests

        return await self.run(fn)

    async def recent_matches(self, limit: int = 50) -> list[dict[str, Any]]:
        def fn(conn: Connection) -> list[dict[str, Any]]:
            m = db.matches.c
            rows = conn.execute(
                sa.select(m.id, m.mode, m.ruleset, m.seats, m.status, m.score, m.result,
                          m.created_at, m.finished_at)
                .where(m.status == "finished", sa.not_(m.private))
                .order_by(m.finished_at.desc()).limit(limit)
            ).mappings()
            return [dict(r) for r in rows]

        return await self._run_side(fn)

    # ------------------------------------------------------------------ ranked queue (cluster)

    async def ranked_enqueue(
        self, player: dict[str, Any], ruleset: str, seed: str | None, seats: int
    ) -> list[dict[str, Any]] | None:
        """Queue a player (again); when `seats` players wait for the ruleset, take the first
        ones out and return them: the caller makes their match. One transaction, serialized
        over the whole queue, so a player is never matched twice, whichever node they queued on."""

        def fn(conn: Connection) -> list[dict[str, Any]] | None:
            q = db.ranked_queue.c
            if self.postgres:
                # One lock for the whole queue: a player moving to another ruleset's queue
                # while their old group fills must not end up in two groups.
                conn.execute(sa.text("SELECT pg_advisory_xact_lock(hashtext(:key))"),
                             {"key": "ranked"})
            # A player who queued and went away long ago is not matched with the others.
            conn.execute(db.ranked_queue.delete().where(
                sa.or_(q.player_id == player["id"], q.queued_at < time.time() - RANKED_WAIT)))
            conn.execute(db.ranked_queue.insert().values(
                player_id=player["id"], ruleset=ruleset, name=player["name"], seed=seed,
                queued_at=time.time(),
            ))
            group = [dict(r) for r in conn.execute(
                sa.select(db.ranked_queue).where(q.ruleset == ruleset)
                .order_by(q.queued_at).limit(seats)
            ).mappings()]
            if len(group) < seats:
                return None
            conn.execute(db.ranked_queue.delete().where(
                q.player_id.in_([g["player_id"] for g in group])))
            return group

        return await self._run_side(fn)

    async def ranked_leave(self, player_id: int) -> bool:
        return bool(await self._run_side(lambda conn: conn.execute(
            db.ranked_queue.delete().where(db.ranked_queue.c.player_id == player_id)
        ).rowcount))

    async def ranked_queued(self, player_id: int) -> str | None:
        return await self._run_side(lambda conn: conn.execute(
            sa.select(db.ranked_queue.c.ruleset)
            .where(db.ranked_queue.c.player_id == player_id)
        ).scalar())

    # ------------------------------------------------------------------ ratings and history

    async def ratings_of(self, player_ids: list[int], family: str) -> dict[int, dict[str, Any]]:
        def fn(conn: Connection) -> dict[int, dict[str, Any]]:
            rows = conn.execute(
                sa.select(db.ratings).where(db.ratings.c.player_id.in_(player_ids))
                .where(db.ratings.c.family == family)
            ).mappings()
            return {r["player_id"]: dict(r) for r in rows}

        return await self._run_side(fn)

    async def player_profile(self, name: str, history: int = 20, viewer: int | None = None
                             ) -> dict[str, Any] | None:
        """A player's ratings and last matches; a private match among them only when `viewer`
        (the asking player's id) played it too."""

        def fn(conn: Connection) -> dict[str, Any] | None:
            p = conn.execute(
                sa.select(db.players.c.id, db.players.c.name, db.players.c.kind,
                          db.players.c.created_at)
                .where(db.players.c.name_key == name.casefold())
            ).mappings().first()
            if p is None:
                return None
            rates = conn.execute(
                sa.select(db.ratings).where(db.ratings.c.player_id == p["id"])
            ).mappings()
            m, pt = db.matches.c, db.participants.c
            shown = sa.not_(m.private)
            if viewer is not None:
                shown = sa.or_(shown, m.id.in_(sa.select(pt.match_id)
                                               .where(pt.player_id == viewer)))
            games = conn.execute(
                sa.select(m.id, m.mode, m.ruleset, m.result, m.score, m.finished_at, pt.seat,
                          pt.rating_before, pt.rating_after, m.private, m.host_id)
                .join(db.participants, pt.match_id == m.id)
                .where(pt.player_id == p["id"]).where(shown)
                .order_by(m.finished_at.desc()).limit(history)
            ).mappings()
            return {
                "name": p["name"],
                "kind": p["kind"],
                "ratings": {
                    r["family"]: {"mu": r["mu"], "sigma": r["sigma"], "rating": r["ordinal"],
                                  "games": r["games"], "wins": r["wins"]}
                    for r in rates
                },
                "history": [_history_row(dict(g), p["id"]) for g in games],
            }

        return await self._run_side(fn)

    async def leaderboard(self, family: str, limit: int = 50) -> list[dict[str, Any]]:
        def fn(conn: Connection) -> list[dict[str, Any]]:
            r = db.ratings.c
            rows = conn.execute(
                sa.select(db.players.c.name, r.mu, r.sigma, r.ordinal, r.games, r.wins)
                .join(db.players, db.players.c.id == r.player_id)
                .where(r.family == family)
                .order_by(r.ordinal.desc()).limit(limit)
            ).mappings()
            return [
                {"name": x["name"], "rating": round(x["ordinal"], 2), "mu": x["mu"],
                 "sigma": x["sigma"], "games": x["games"], "wins": x["wins"]}
                for x in rows
            ]

        return await self._run_side(fn)

