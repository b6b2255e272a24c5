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
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from carroca.server import db

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
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="carroca-db")
        self._lock = threading.Lock()
        self._pending: list[tuple[MoveRow, asyncio.Future[None]]] = []
        self._flush_queued = False
        self.commits = 0  # transactions that carried moves (for the load benchmark)
        self.moves_written = 0
        self.outage = Outage()

    # ------------------------------------------------------------------ plumbing

    async def run(self, fn: Callable[[Connection], T]) -> T:
        """Run `fn(conn)` in one transaction on the database thread."""

        def job() -> T:
            with self.engine.begin() as conn:
                return fn(conn)

        try:
            result = await asyncio.get_running_loop().run_in_executor(self._pool, job)
        except Exception as exc:
            self.outage.failed(exc)
            raise
        self.outage.succeeded()
        return result

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
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    db.moves.insert(),
                    [
                        {"match_id": r.match_id, "seq": r.seq, "seat": r.seat,
                         "action": r.action, "auto": r.auto, "at": r.at,
                         "client_id": r.client_id}
                        for r, _ in batch
                    ],
                )
            self.commits += 1
            self.moves_written += len(batch)
        except Exception as exc:  # every waiter learns that its move was not stored
            error = exc
        loop.call_soon_threadsafe(self._settle, [f for _, f in batch], error)

    def _settle(self, futures: list[asyncio.Future[None]], error: BaseException | None) -> None:
        if error is None:
            self.outage.succeeded()
        else:
            self.outage.failed(error)
        for f in futures:
            if f.done():
                continue
            if error is None:
                f.set_result(None)
            else:
                f.set_exception(error)

    def close(self) -> None:
        self._pool.shutdown(wait=True)
        self.engine.dispose()

    # ------------------------------------------------------------------ players and sessions

    async def create_player(
        self, name: str, kind: str, password_hash: str | None = None,
        guest_key_hash: str | None = None,
    ) -> dict[str, Any] | None:
        """A new player, or None when the name is taken (names compare case-insensitively)."""

        def fn(conn: Connection) -> dict[str, Any] | None:
            key = name.casefold()
            if conn.execute(
                sa.select(db.players.c.id).where(db.players.c.name_key == key)
            ).first():
                return None
            inserted = conn.execute(
                db.players.insert().values(
                    name=name, name_key=key, kind=kind, password_hash=password_hash,
                    created_at=time.time(), guest_key_hash=guest_key_hash,
                )
            ).inserted_primary_key
            assert inserted is not None
            pid = inserted[0]
            return {"id": pid, "name": name, "kind": kind}

        return await self.run(fn)

    async def player_by_name(self, name: str) -> dict[str, Any] | None:
        def fn(conn: Connection) -> dict[str, Any] | None:
            row = conn.execute(
                sa.select(db.players).where(db.players.c.name_key == name.casefold())
            ).mappings().first()
            return dict(row) if row else None

        return await self.run(fn)

    async def set_password(self, player_id: int, password_hash: str) -> None:
        def fn(conn: Connection) -> None:
            conn.execute(
                db.players.update().where(db.players.c.id == player_id)
                .values(password_hash=password_hash, kind="account", guest_key_hash=None)
            )

        await self.run(fn)

    async def create_session(self, token: str, player_id: int, ttl: float) -> None:
        now = time.time()

        def fn(conn: Connection) -> None:
            conn.execute(db.sessions.insert().values(
                token_hash=token_hash(token), player_id=player_id, created_at=now,
                expires_at=now + ttl,
            ))

        await self.run(fn)

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

        return await self.run(fn)

    async def add_device(self, token: str, player_id: int, ttl: float) -> None:
        now = time.time()

        def fn(conn: Connection) -> None:
            conn.execute(db.devices.insert().values(
                token_hash=token_hash(token), player_id=player_id, created_at=now,
                expires_at=now + ttl,
            ))

        await self.run(fn)

    async def device_player(self, token: str) -> int | None:
        """The account a device cookie was given to, while it lasts."""

        def fn(conn: Connection) -> int | None:
            found = conn.execute(
                sa.select(db.devices.c.player_id)
                .where(db.devices.c.token_hash == token_hash(token))
                .where(db.devices.c.expires_at > time.time())
            ).scalar()
            return int(found) if found is not None else None

        return await self.run(fn)

    async def delete_session(self, token: str) -> None:
        def fn(conn: Connection) -> None:
            conn.execute(db.sessions.delete().where(db.sessions.c.token_hash == token_hash(token)))

        await self.run(fn)

    # ------------------------------------------------------------------ matches

    async def insert_match(self, row: dict[str, Any]) -> None:
        await self.run(lambda conn: conn.execute(db.matches.insert().values(**row)))

    async def update_match(self, match_id: str, **fields: Any) -> None:
        await self.run(
            lambda conn: conn.execute(
                db.matches.update().where(db.matches.c.id == match_id).values(**fields)
            )
        )

    async def finish_match(
        self,
        match_id: str,
        fields: dict[str, Any],
        participants: list[dict[str, Any]],
        ratings: list[dict[str, Any]],
    ) -> None:
        """The end of a match, its participants and rating changes, in one transaction."""

        def fn(conn: Connection) -> None:
            conn.execute(db.matches.update().where(db.matches.c.id == match_id).values(**fields))
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

    async def set_analysis(self, match_id: str, text: str) -> None:
        await self.update_match(match_id, analysis=text)

    async def get_match(self, match_id: str) -> dict[str, Any] | None:
        def fn(conn: Connection) -> dict[str, Any] | None:
            row = conn.execute(
                sa.select(db.matches).where(db.matches.c.id == match_id)
            ).mappings().first()
            return dict(row) if row else None

        return await self.run(fn)

    async def unfinished(self) -> list[tuple[dict[str, Any], list[MoveRow]]]:
        """Every match not finished, with its move log: what a restart resumes."""

        def fn(conn: Connection) -> list[tuple[dict[str, Any], list[MoveRow]]]:
            rows = conn.execute(
                sa.select(db.matches).where(db.matches.c.status.in_(("waiting", "playing")))
                .order_by(db.matches.c.created_at)
            ).mappings().all()
            out = []
            for r in rows:
                logged = conn.execute(
                    sa.select(db.moves).where(db.moves.c.match_id == r["id"])
                    .order_by(db.moves.c.seq)
                ).mappings()
                out.append((dict(r), [MoveRow(**dict(m)) for m in logged]))
            return out

        return await self.run(fn)

    async def expire_match(self, match_id: str) -> bool:
        """Close a table that is still waiting for players (it never started)."""

        def fn(conn: Connection) -> bool:
            done = conn.execute(
                db.matches.update().where(db.matches.c.id == match_id)
                .where(db.matches.c.status == "waiting")
                .values(status="expired", finished_at=time.time())
            )
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
                .where(m.status == "finished")
                .order_by(m.finished_at.desc()).limit(limit)
            ).mappings()
            return [dict(r) for r in rows]

        return await self.run(fn)

    # ------------------------------------------------------------------ ratings and history

    async def ratings_of(self, player_ids: list[int], family: str) -> dict[int, dict[str, Any]]:
        def fn(conn: Connection) -> dict[int, dict[str, Any]]:
            rows = conn.execute(
                sa.select(db.ratings).where(db.ratings.c.player_id.in_(player_ids))
                .where(db.ratings.c.family == family)
            ).mappings()
            return {r["player_id"]: dict(r) for r in rows}

        return await self.run(fn)

    async def player_profile(self, name: str, history: int = 20) -> dict[str, Any] | None:
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
            games = conn.execute(
                sa.select(m.id, m.mode, m.ruleset, m.result, m.score, m.finished_at, pt.seat,
                          pt.rating_before, pt.rating_after)
                .join(db.participants, pt.match_id == m.id)
                .where(pt.player_id == p["id"])
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
                "history": [dict(g) for g in games],
            }

        return await self.run(fn)

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

        return await self.run(fn)

