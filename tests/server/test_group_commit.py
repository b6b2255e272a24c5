"""Group commits of moves (`Storage.append_move`, setting `commit_gap_ms`): a lone move is stored
at once; moves that arrive within the gap after a batch wait for the next one and share its
commit; none is acknowledged (its future done) before the commit that holds it."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest

from carroca.server.storage.db import migrate
from carroca.server.storage.store import MoveRow, Store
from carroca.server.tables.table import Table

GAP = 0.5  # seconds: long beside a commit on any machine, so the batches are unambiguous


@pytest.fixture
def store(database: str) -> Iterator[Store]:
    migrate(database)
    s = Store(database, commit_gap=GAP)
    yield s
    s.close()


async def _matches(store: Store, n: int) -> list[str]:
    ids = []
    for _ in range(n):
        row = Table.new_row(mode="friends", ruleset="bloqueio", options={}, seats=[None, None],
                            turn_seconds=20, bot_level="medium")
        row["status"] = "playing"
        row["client_seed"] = "a:b"
        await store.insert_match(row)
        ids.append(str(row["id"]))
    return ids


def _move(match: str, seq: int) -> MoveRow:
    return MoveRow(match, seq, 0, "pass", False, time.time(), seq + 1, None)


def test_moves_within_the_gap_share_one_commit_and_wait_for_it(store: Store) -> None:
    async def go() -> None:
        ids = await _matches(store, 4)
        commits = store.commits
        started = time.monotonic()
        await store.append_move(_move(ids[0], 0))  # alone: at once, not after a gap
        assert time.monotonic() - started < GAP
        assert store.commits == commits + 1
        # Three more right behind it: they wait for the gap to end, then share one commit.
        waiting = [store.append_move(_move(m, 0)) for m in ids[1:]]
        await asyncio.sleep(0)
        assert not any(f.done() for f in waiting)  # nothing acknowledged before its commit
        await asyncio.gather(*waiting)
        assert time.monotonic() - started >= GAP * 0.9
        assert store.commits == commits + 2
        rows = await store.unfinished()
        assert sorted(r["id"] for r, moves in rows if [m.seq for m in moves] == [0]) == \
            sorted(ids)
        # Once the gap has passed since the last batch, a move goes at once again.
        await asyncio.sleep(GAP)
        again = time.monotonic()
        await store.append_move(_move(ids[0], 1))
        assert time.monotonic() - again < GAP
        assert store.commits == commits + 3

    asyncio.run(go())
