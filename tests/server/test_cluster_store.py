"""The database side of several nodes: leases, takeover claims, epochs that fence a stale owner,
and the shared ranked queue (on SQLite and, in `make unit-postgres`, on PostgreSQL)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import pytest

from carroca.server.db import migrate
from carroca.server.store import Fenced, MoveRow, Store
from carroca.server.table import Table


@pytest.fixture
def store(database: str) -> Iterator[Store]:
    migrate(database)
    s = Store(database)
    yield s
    s.close()


def run(coro: Any) -> Any:
    return asyncio.run(coro)


async def _player(store: Store, name: str) -> dict[str, Any]:
    made = await store.create_player(name, "account")
    assert made is not None
    return made


async def _match(store: Store, owner: str | None) -> str:
    row = Table.new_row(mode="friends", ruleset="bloqueio", options={}, seats=[None, None],
                        turn_seconds=20, bot_level="medium")
    row["owner"] = owner
    row["status"] = "playing"
    row["client_seed"] = "a:b"
    await store.insert_match(row)
    return str(row["id"])


def test_a_stale_epoch_is_refused_and_stores_nothing(store: Store) -> None:
    async def go() -> None:
        await store.register_node("n1/a", "n1", 0.05)
        match = await _match(store, "n1/a")
        await store.append_move(MoveRow(match, 0, 0, "pass", False, time.time(), 1, 0))
        await asyncio.sleep(0.1)  # n1's lease runs out
        await store.register_node("n2/b", "n2", 30)
        claimed = await store.claim_orphans("n2/b")
        assert [(r["id"], r["owner"], r["epoch"]) for r, _ in claimed] == [(match, "n2/b", 1)]
        assert [m.seq for m in claimed[0][1]] == [0]  # the log came with it
        # n1 wakes up and goes on: every write under epoch 0 is refused.
        with pytest.raises(Fenced):
            await store.append_move(MoveRow(match, 1, 1, "pass", False, time.time(), 7, 0))
        with pytest.raises(Fenced):
            await store.update_match(match, 0, status="finished")
        with pytest.raises(Fenced):
            await store.finish_match(match, {"status": "finished"}, [], [], 0)
        # The new owner writes under epoch 1; a move of another match in the same group commit
        # is not held back by a fenced one.
        other = await _match(store, "n2/b")
        await asyncio.gather(
            store.append_move(MoveRow(match, 1, 1, "draw", False, time.time(), 2, 1)),
            store.append_move(MoveRow(other, 0, 0, "pass", False, time.time(), 1, 0)),
        )
        rows = await store.unfinished()
        logs = {r["id"]: [(m.seq, m.action) for m in moves] for r, moves in rows}
        assert logs[match] == [(0, "pass"), (1, "draw")]
        assert logs[other] == [(0, "pass")]
        assert (await store.get_match(match) or {})["status"] == "playing"

    run(go())


def test_a_live_nodes_matches_are_not_claimed(store: Store) -> None:
    async def go() -> None:
        await store.register_node("n1/a", "n1", 30)
        await store.register_node("n2/b", "n2", 30)
        mine = await _match(store, "n1/a")
        assert await store.claim_orphans("n2/b") == []
        assert await store.live_nodes() == {"n1/a", "n2/b"}
        await store.end_lease("n1/a")  # a clean stop: its matches are free at once
        assert [r["id"] for r, _ in await store.claim_orphans("n2/b")] == [mine]
        assert await store.claim_orphans("n2/b") == []  # claimed once

    run(go())


def test_a_lapsed_lease_is_not_renewed_and_gives_back_what_nobody_took(store: Store) -> None:
    async def go() -> None:
        await store.register_node("n1/a", "n1", 30)
        kept = await _match(store, "n1/a")
        assert await store.renew_lease("n1/a", 0.3)
        await asyncio.sleep(0.4)
        assert not await store.renew_lease("n1/a", 30)  # too late: it must stop its matches
        assert await store.release_matches("n1/a") == 1
        await store.revive_node("n1/a", "n1", 30)
        assert await store.renew_lease("n1/a", 30)
        claimed = await store.claim_orphans("n1/a")
        assert [(r["id"], r["epoch"]) for r, _ in claimed] == [(kept, 1)]

    run(go())


def test_the_shared_ranked_queue_matches_each_player_once(store: Store) -> None:
    async def go() -> None:
        players = [await _player(store, f"jogador{i}") for i in range(5)]
        assert await store.ranked_enqueue(players[0], "bloqueio", "s0", 2) is None
        assert await store.ranked_enqueue(players[0], "bloqueio", "s0b", 2) is None  # again
        assert await store.ranked_queued(players[0]["id"]) == "bloqueio"
        group = await store.ranked_enqueue(players[1], "bloqueio", None, 2)
        assert group is not None
        assert [g["player_id"] for g in group] == [players[0]["id"], players[1]["id"]]
        assert group[0]["seed"] == "s0b"
        assert await store.ranked_queued(players[0]["id"]) is None
        # Three at once for two seats: one match, one player left waiting.
        results = await asyncio.gather(*[
            store.ranked_enqueue(p, "bloqueio", None, 2) for p in players[2:]])
        groups = [g for g in results if g is not None]
        assert len(groups) == 1
        waiting = [p for p in players[2:]
                   if await store.ranked_queued(p["id"]) == "bloqueio"]
        assert len(waiting) == 1
        assert await store.ranked_leave(waiting[0]["id"])
        assert not await store.ranked_leave(waiting[0]["id"])

    run(go())


def test_survivors_split_a_dead_nodes_matches(store: Store) -> None:
    async def go() -> None:
        await store.register_node("n1/a", "n1", 0.05)
        dead = [await _match(store, "n1/a") for _ in range(5)]
        await asyncio.sleep(0.1)
        await store.register_node("n2/b", "n2", 30)
        await store.register_node("n3/c", "n3", 30)
        first = await store.claim_orphans("n2/b")
        second = await store.claim_orphans("n3/c")
        assert (len(first), len(second)) == (3, 1)  # ceil(5 / 2), then ceil(2 / 2)
        third = await store.claim_orphans("n2/b")
        taken = [r["id"] for r, _ in first + second + third]
        assert sorted(taken) == sorted(dead)

    run(go())


def test_long_dead_nodes_are_forgotten_unless_they_own_a_live_match(store: Store) -> None:
    async def go() -> None:
        for node in ("old/a", "old/b", "new/c"):
            await store.register_node(node, node.split("/")[0], 0.01)
        await store.register_node("live/d", "live", 30)
        await _match(store, "old/b")  # unfinished: its row stays until someone takes it
        await asyncio.sleep(0.3)
        assert await store.forget_nodes(dead_for=60) == 0  # dead, but not for long
        assert await store.forget_nodes(dead_for=0.2) == 2  # old/a and new/c
        assert await store.forget_nodes(dead_for=0.2) == 0
        assert await store.live_nodes() == {"live/d"}
        claimed = await store.claim_orphans("live/d")
        assert len(claimed) == 1
        assert await store.forget_nodes(dead_for=0.2) == 1  # old/b, whose match moved on
        # A node cut off for that long comes back: it is alive again, its row made anew.
        assert not await store.renew_lease("old/a", 30)
        await store.revive_node("old/a", "old", 30)
        assert await store.live_nodes() == {"live/d", "old/a"}
        assert await store.renew_lease("old/a", 30)

    run(go())
