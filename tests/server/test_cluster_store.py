"""The database side of several nodes: leases, takeover claims, epochs that fence a stale owner,
and the shared ranked queue (on SQLite and, in `make unit-postgres`, on PostgreSQL)."""

from __future__ import annotations

import asyncio
import time
import zlib
from collections.abc import Iterator
from typing import Any

import pytest

from carroca.server.settings import Settings
from carroca.server.storage.db import migrate
from carroca.server.storage.links import address_mark
from carroca.server.storage.store import Fenced, MoveRow, Store
from carroca.server.tables.table import Table
from carroca.server.tournaments.state import new_event

# Stored state is this module's subject: `make unit-postgres` runs it again on PostgreSQL.
pytestmark = pytest.mark.postgres


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
        # in seat order, which is drawn at random
        assert sorted(g["player_id"] for g in group) == [players[0]["id"], players[1]["id"]]
        assert next(g for g in group if g["player_id"] == players[0]["id"])["seed"] == "s0b"
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


def test_the_shared_ranked_queue_keeps_linked_accounts_apart(store: Store) -> None:
    async def go() -> None:
        ana, twin, caio = [await _player(store, n) for n in ("ana", "gemea", "caio")]
        for p in (ana, twin):
            await store.add_marks(p["id"], [address_mark("203.0.113.7")])
        assert await store.ranked_enqueue(ana, "bloqueio", None, 2) is None
        assert await store.ranked_enqueue(twin, "bloqueio", None, 2) is None  # not her opponent
        group = await store.ranked_enqueue(caio, "bloqueio", None, 2)
        assert group is not None
        assert sorted(g["player_id"] for g in group) == sorted([ana["id"], caio["id"]])
        assert await store.ranked_queued(twin["id"]) == "bloqueio"

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
        # One scan each: every match goes to the node its id hashes to among the live ones.
        live = ["n2/b", "n3/c"]
        for node, claimed in (("n2/b", first), ("n3/c", second)):
            assert sorted(r["id"] for r, _ in claimed) == sorted(
                d for d in dead if zlib.crc32(d.encode()) % 2 == live.index(node))
        assert sorted(r["id"] for r, _ in first + second) == sorted(dead)
        assert await store.claim_orphans("n2/b") == []

    run(go())


def test_a_part_nobody_came_for_is_taken_after_the_grace(store: Store) -> None:
    async def go() -> None:
        await store.register_node("n1/a", "n1", 0.05)
        dead = [await _match(store, "n1/a") for _ in range(4)]
        while all(zlib.crc32(d.encode()) % 2 == 0 for d in dead):  # n3 must have a part
            dead.append(await _match(store, "n1/a"))
        await asyncio.sleep(0.1)
        for node in ("n2/b", "n3/c"):  # n3 is alive but never scans (stuck)
            await store.register_node(node, node.split("/")[0], 30)
        mine = await store.claim_orphans("n2/b", grace=30)
        assert len(mine) < len(dead)  # its part only: n3's part waits for n3
        await asyncio.sleep(0.3)
        rest = await store.claim_orphans("n2/b", grace=0.2)  # n1's lease is 0.2 s past
        assert sorted(r["id"] for r, _ in mine + rest) == sorted(dead)
        # A node whose lease ran out takes nothing.
        await store.register_node("n4/d", "n4", 0.01)
        await asyncio.sleep(0.05)
        await _match(store, None)
        assert await store.claim_orphans("n4/d", grace=0) == []

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


def test_live_matches_are_narrowed_by_the_database(store: Store) -> None:
    async def go() -> None:
        ana, bia = await _player(store, "ana"), await _player(store, "bia")
        rows = []
        for mode, seats, status in (("casual", [ana, None], "waiting"),
                                    ("friends", [bia, ana], "playing"),
                                    ("ranked", [bia, None], "playing"),
                                    ("casual", [bia, None], "finished")):
            row = Table.new_row(mode=mode, ruleset="bloqueio", options={},
                                seats=[{"player": p["id"], "name": p["name"]} if p else None
                                       for p in seats], turn_seconds=20, bot_level="medium")
            row["status"], row["host_id"] = status, seats[0]["id"]
            await store.insert_match(row)
            rows.append(row["id"])

        def ids(found: list[dict[str, object]]) -> list[object]:
            return [r["id"] for r in found]

        assert ids(await store.live_matches()) == rows[:3]
        assert ids(await store.live_matches(player_id=ana["id"])) == rows[:2]
        assert ids(await store.live_matches("ranked", player_id=bia["id"])) == [rows[2]]
        assert ids(await store.live_matches(player_id=bia["id"] + 100)) == []
        assert ids(await store.live_matches("friends", host_id=bia["id"])) == [rows[1]]
        assert ids(await store.live_matches("casual", ruleset="bloqueio", bot_level="medium",
                                            waiting=True)) == [rows[0]]
        assert ids(await store.live_matches(match_id=rows[3])) == []  # finished

    run(go())


def test_an_event_of_a_dead_node_is_claimed_once_and_its_old_owner_fenced(store: Store) -> None:
    async def go() -> None:
        creator = await _player(store, "organizadora")
        row, _ = new_event(Settings(), creator, {"name": "Copa", "format": "swiss",
                                                 "ruleset": "bloqueio"})
        event = row["id"]
        await store.register_node("n1/a", "n1", 0.05)
        await store.insert_tournament({**row, "owner": "n1/a", "epoch": 0})
        match = await _match(store, "n1/a")
        await asyncio.sleep(0.1)  # n1's lease runs out
        await store.register_node("n2/b", "n2", 30)
        await store.register_node("n3/c", "n3", 30)
        claimed = await store.claim_events("n2/b")
        assert [(r["id"], r["owner"], r["epoch"]) for r in claimed] == [(event, "n2/b", 1)]
        assert await store.claim_events("n3/c") == []  # claimed once
        # n1 wakes up and goes on: every write of the event under epoch 0 is refused.
        with pytest.raises(Fenced):
            await store.update_tournament(event, 0, status="running")
        with pytest.raises(Fenced):
            await store.add_tournament_game(event, (1, 1, 1), match, epoch=0)
        assert await store.tournament_games(event) == {}  # nothing of it stored
        await store.add_tournament_game(event, (1, 1, 1), match, epoch=1)
        assert await store.tournament_owner(event) == ("n2/b", "upcoming")
        # n2's lease lapses and comes back: it gives the event back, and anyone may take it.
        assert await store.release_matches("n2/b") == 0
        assert await store.tournament_owner(event) == (None, "upcoming")
        assert [r["epoch"] for r in await store.claim_events("n3/c")] == [2]

    run(go())
