"""Marks that tie accounts to one person: digests of the addresses and device cookies they came
from. The ranked queue reads them so that nobody meets their own second account as an opponent
(`linked_pairs`); they are kept `MARK_DAYS` after they were last seen, and never shown."""

from __future__ import annotations

import hashlib
import ipaddress
import random
import time
from collections.abc import Callable, Iterable, Sequence
from itertools import permutations
from typing import TypeVar

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection

from carroca.server.storage import db
from carroca.server.storage.plumbing import Storage, token_hash

MARK_DAYS = 30.0
T = TypeVar("T")


def address_mark(address: str) -> str | None:
    """The mark of an address as limits count it (`guard.address_key`: IPv4, or an IPv6 /64);
    None for what is no address (a test client's name)."""
    try:
        ipaddress.ip_network(address, strict=False)
    except ValueError:
        return None
    return hashlib.sha256(f"address:{address}".encode()).hexdigest()


def device_mark(device_token: str) -> str:
    """The mark of a device cookie (by the digest the devices table keeps of it)."""
    return hashlib.sha256(f"device:{token_hash(device_token)}".encode()).hexdigest()


def linked_pairs(conn: Connection, player_ids: Iterable[int]) -> set[frozenset[int]]:
    """The pairs among `player_ids` that share a mark seen in the last `MARK_DAYS`."""
    ids = sorted(set(player_ids))
    if len(ids) < 2:
        return set()
    m = db.player_marks.c
    rows = conn.execute(
        sa.select(m.mark, m.player_id).where(m.player_id.in_(ids))
        .where(m.seen_at > time.time() - MARK_DAYS * 86400)
    ).all()
    by_mark: dict[str, set[int]] = {}
    for mark, pid in rows:
        by_mark.setdefault(mark, set()).add(int(pid))
    return {frozenset((a, b)) for group in by_mark.values() for a in group for b in group
            if a < b}


class LinkRows(Storage):
    async def add_marks(self, player_id: int, marks: Iterable[str | None]) -> None:
        """Note that the player came from these addresses or devices (now)."""
        kept = sorted({m for m in marks if m})
        if not kept:
            return
        now = time.time()

        def fn(conn: Connection) -> None:
            insert = (pg_insert if self.postgres else sqlite_insert)(db.player_marks)
            conn.execute(insert.values([
                {"player_id": player_id, "mark": m, "seen_at": now} for m in kept
            ]).on_conflict_do_update(index_elements=["player_id", "mark"],
                                     set_={"seen_at": now}))

        await self.run_side(fn)

    async def linked(self, player_ids: Iterable[int]) -> set[frozenset[int]]:
        ids = list(player_ids)
        return await self.run_side(lambda conn: linked_pairs(conn, ids))


def _arrangements(ids: list[int], n: int,
                  linked: set[frozenset[int]]) -> list[tuple[int, ...]]:
    """Seatings (seat of each of `ids`, among `n` seats) that keep every linked pair on one
    team (seats of one parity): linked accounts may be partners, never opponents."""
    pairs = [(i, j) for i in range(len(ids)) for j in range(i + 1, len(ids))
             if frozenset((ids[i], ids[j])) in linked]
    return [seats for seats in permutations(range(n), len(ids))
            if all(seats[i] % 2 == seats[j] % 2 for i, j in pairs)]


def pick_group(queue: Sequence[T], n: int, id_of: Callable[[T], int],
               linked: set[frozenset[int]]) -> list[T] | None:
    """The first `n` of `queue` (in its order) that can sit together, in seat order (a random
    seating among the allowed ones), skipping whoever would have to face an account linked to
    theirs; None until there are enough."""
    group: list[T] = []
    for entry in queue:
        trial = [*group, entry]
        if _arrangements([id_of(e) for e in trial], n, linked):
            group = trial
            if len(group) == n:
                seats = random.choice(_arrangements([id_of(e) for e in group], n, linked))
                seated: list[T | None] = [None] * n
                for entry_, seat in zip(group, seats, strict=True):
                    seated[seat] = entry_
                return [e for e in seated if e is not None]
    return None
