"""Durable storage behind a small async interface, with group commits for moves: the plumbing.

All database work runs on one thread of its own, so the event loop never blocks on I/O and
statements reach the database in the order the loop issued them. Moves arriving while a commit is
in flight are batched into the next transaction: one commit (one fsync) serves many tables, and
each move's future resolves only after its transaction committed — the runner broadcasts a move
after that, never before.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from carroca.server import metrics
from carroca.server.storage import db
from carroca.server.storage.rows import HistoryRow, MatchRow

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
    """The match (or event) was taken over by another node (its epoch moved on): this node's
    write is refused, and it is no longer this node's to run."""


def update_fenced(conn: Connection, match_id: str, epoch: int | None,
                  fields: Mapping[str, object]) -> None:
    """Update a match's row; with `epoch`, only while the row still has it, else `Fenced`."""
    query = db.matches.update().where(db.matches.c.id == match_id)
    if epoch is not None:
        query = query.where(db.matches.c.epoch == epoch)
    if conn.execute(query.values(**fields)).rowcount == 0 and epoch is not None:
        raise Fenced(match_id)


def take_over(conn: Connection, table: sa.Table, ids: list[str], node_id: str,
              order: sa.ColumnElement[Any]) -> list[dict[str, object]]:
    """Make `node_id` the owner of the rows `ids` of `table` (matches or events) with a new
    epoch, which fences off the old owner's writes; the rows as they are now, in `order` (each
    its table's row: the caller names which)."""
    c = table.c
    conn.execute(table.update().where(c.id.in_(ids)).values(owner=node_id, epoch=c.epoch + 1))
    rows = conn.execute(sa.select(table).where(c.id.in_(ids)).order_by(order)).mappings()
    return [dict(r) for r in rows]


def owner_and_status(conn: Connection, table: sa.Table,
                     row_id: str) -> tuple[str | None, str] | None:
    """(owner node, status) of a match or an event, or None when there is no such row."""
    c = table.c
    row = conn.execute(sa.select(c.owner, c.status).where(c.id == row_id)).first()
    return None if row is None else (row[0], row[1])


COMMIT_GAP = 0.002  # seconds between two batches of moves at least (`append_move`)
MOVE_COLUMNS = ("match_id", "seq", "seat", "action", "auto", "at", "client_id")
SIDE_THREADS = 4  # database threads for players, sessions and lookups (PostgreSQL)
RANKED_WAIT = 10 * 60.0  # seconds a player stays in the shared ranked queue


def with_moves(
    conn: Connection, rows: list[MatchRow]
) -> list[tuple[MatchRow, list[MoveRow]]]:
    """Each match row with its move log, in order."""
    out = []
    for r in rows:
        logged = conn.execute(
            sa.select(db.moves).where(db.moves.c.match_id == r["id"]).order_by(db.moves.c.seq)
        ).mappings()
        out.append((r, [MoveRow(**dict(m)) for m in logged]))
    return out


def history_row(game: dict[str, object], player_id: int) -> HistoryRow:
    """A match of a profile's history (its columns read as they are): `hosted` when the
    profile's player was its host."""
    game["private"] = bool(game["private"])
    game["hosted"] = game.pop("host_id") == player_id
    return cast(HistoryRow, game)


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


class Storage:
    """The database's threads and the group commit of moves: what every part of `Store` runs on."""

    def __init__(self, url: str, commit_gap: float = COMMIT_GAP) -> None:
        self.url = url
        self.commit_gap = commit_gap
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
        self._last_batch = float("-inf")  # when the last batch was handed to the thread
        # The moves' own connection, kept open on the database thread (see `_flush`).
        self._moves_conn: Any = None
        insert = db.moves.insert().compile(dialect=self.engine.dialect,
                                           column_keys=list(MOVE_COLUMNS))
        self._insert_sql = str(insert)
        self._insert_order = insert.positiontup if insert.positional else None
        self.commits = 0  # transactions that carried moves (for the load benchmark)
        self.moves_written = 0
        self.outage = Outage()

    # ------------------------------------------------------------------ plumbing

    async def run(self, fn: Callable[[Connection], T],
                  pool: ThreadPoolExecutor | None = None, track: bool = True) -> T:
        """Run `fn(conn)` in one transaction on the database thread (or on `pool`). `track`:
        its failure or success opens or closes an outage in the log; a periodic read of the
        node's own (every few seconds) does not, or a write lock that lets reads through would
        be logged as an outage ending and starting again each time."""

        def job() -> T:
            with self.engine.begin() as conn:
                return fn(conn)

        try:
            result = await asyncio.get_running_loop().run_in_executor(pool or self._pool, job)
        except Fenced:  # the database answered: a refusal, not an outage
            raise
        except Exception as exc:
            if track:
                self.outage.failed(exc)
            raise
        if track:
            self.outage.succeeded()
        return result

    async def run_side(self, fn: Callable[[Connection], T], track: bool = True) -> T:
        """Work that needs no order with the matches' writes (see `__init__`)."""
        return await self.run(fn, self._side, track)

    async def run_lease(self, fn: Callable[[Connection], T]) -> T:
        return await self.run(fn, self._lease)

    def db_now(self) -> Any:
        """The database's clock in epoch seconds: leases never depend on the nodes' clocks."""
        if self.postgres:
            return sa.func.extract("epoch", sa.func.clock_timestamp())
        return sa.literal(time.time())

    def append_move(self, row: MoveRow) -> asyncio.Future[None]:
        """Queue a move; the future resolves once the transaction holding it has committed.

        Batches start `commit_gap` apart at least: a move arriving sooner after the last batch
        waits that little for the moves behind it, so that under load one commit (its round
        trips, its fsync, its CPU) serves several; a lone move goes at once."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[None] = loop.create_future()
        with self._lock:
            self._pending.append((row, fut))
            queue = not self._flush_queued
            self._flush_queued = True
        if queue:
            wait = self._last_batch + self.commit_gap - loop.time()
            if wait > 0:
                loop.call_later(wait, self._submit, loop)
            else:
                self._submit(loop)
        return fut

    def _submit(self, loop: asyncio.AbstractEventLoop) -> None:
        self._last_batch = loop.time()
        try:
            self._pool.submit(self._flush, loop)
        except RuntimeError as exc:  # stopped: what waits is not stored
            with self._lock:
                batch, self._pending = self._pending, []
                self._flush_queued = False
            self._settle([f for _, f in batch], [exc] * len(batch), exc)

    def _flush(self, loop: asyncio.AbstractEventLoop) -> None:
        """Store the waiting moves in one transaction, on the database thread.

        Moves are most of the writes, a batch every few milliseconds: they go through a
        database connection of their own, kept open, with one prepared statement, not through
        a pooled connection and the query compiler each time (which cost more than the insert
        on SQLite). A failure closes that connection; the next batch opens another."""
        with self._lock:
            batch, self._pending = self._pending, []
            self._flush_queued = False
        if not batch:
            return
        error: BaseException | None = None
        fenced: set[str] = set()
        rows: list[Any] = []
        began = time.perf_counter()
        try:
            conn = self._moves_conn
            if conn is None:
                conn = self._moves_conn = self.engine.raw_connection()
            cursor = conn.cursor()
            try:
                fenced = self._fence(cursor, [r for r, _ in batch])
                order = self._insert_order
                for r, _ in batch:
                    if r.match_id in fenced:
                        continue
                    values = {"match_id": r.match_id, "seq": r.seq, "seat": r.seat,
                              "action": r.action, "auto": r.auto, "at": r.at,
                              "client_id": r.client_id}
                    rows.append(values if order is None else tuple(values[k] for k in order))
                if len(rows) == 1:  # most batches at a modest load: cheaper alone
                    cursor.execute(self._insert_sql, rows[0])
                elif rows:
                    cursor.executemany(self._insert_sql, rows)
                conn.commit()
            finally:
                cursor.close()
            self.commits += 1
            self.moves_written += len(rows)
            metrics.batch_committed(len(rows), time.perf_counter() - began)
        except Exception as exc:  # every waiter learns that its move was not stored
            error = exc
            self._drop_moves_conn()
        results = [
            error if error is not None else
            Fenced(r.match_id) if r.match_id in fenced else None
            for r, _ in batch
        ]
        loop.call_soon_threadsafe(self._settle, [f for _, f in batch], results, error)

    def _drop_moves_conn(self) -> None:
        conn, self._moves_conn = self._moves_conn, None
        if conn is None:
            return
        with contextlib.suppress(Exception):
            conn.rollback()
        with contextlib.suppress(Exception):
            conn.invalidate()  # not back to the pool: it may be broken

    def _fence(self, cursor: Any, rows: list[MoveRow]) -> set[str]:
        """The matches of `rows` whose epoch moved on (taken over by another node).

        The match rows are read FOR SHARE: a takeover's claim (`FOR UPDATE SKIP LOCKED`)
        skips a row this transaction holds until the next scan, and this transaction waits
        for a claim in progress and then sees the new epoch; so a takeover never misses a move
        that committed under the old epoch, and no move commits under the old epoch after it.
        (SQLite has no row locks: its one writer at a time gives the same.)"""
        held = {r.match_id: r.epoch for r in rows if r.epoch is not None}
        if not held:
            return set()
        mark = "?" if self.engine.dialect.paramstyle == "qmark" else "%s"
        lock = " FOR SHARE" if self.postgres else ""
        cursor.execute(f"SELECT id, epoch FROM matches WHERE id IN "
                       f"({', '.join([mark] * len(held))}){lock}", list(held))
        current = {row[0]: row[1] for row in cursor.fetchall()}
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
        conn, self._moves_conn = self._moves_conn, None  # the threads are done with it
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.close()
        self.engine.dispose()
