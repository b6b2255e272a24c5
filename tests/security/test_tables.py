"""Bots-only floods, friends' tables without end, and rating farming.

Before: anyone, signed in or not, filled the cap of 200 bots-only expert matches in 12 s and
the expert bots of real players' tables then took 19–20 s a move; one guest made 500 waiting
four-seat tables, restored on every restart; two fresh guests farmed +3.44 rating in 60 s by
letting a puppet abandon a ranked bloqueio match.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.support.attacks import account, error_of, guest, http, play_first_legal, socket_for
from tests.support.serverproc import Server, wait_until

EXPERTS = {"ruleset": "duplas-pontos", "seats": ["bot:expert"] * 4}


def children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        found.extend(int(c) for c in text)
    return found


def nice_of(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])


def test_bots_only_matches_need_a_player_and_are_capped(servers: Callable[..., Server]) -> None:
    server = servers("--bot-delay-ms", "0", env={"CARROCA_MAX_BOT_MATCHES": "3"})
    with http(server) as anonymous:
        r = anonymous.post("/api/matches", json=EXPERTS)
        assert r.status_code == 401 and error_of(r)["code"] == "login_required"
    first = guest(server, "Demo")
    with http(server, token=first) as c:
        assert c.post("/api/matches", json=EXPERTS).status_code == 201
        assert c.post("/api/matches", json=EXPERTS).status_code == 201
        third = c.post("/api/matches", json=EXPERTS)
        assert third.status_code == 429 and error_of(third)["code"] == "too_many_bot_matches"
        assert "retry-after" in third.headers
    # Other players from other addresses (one address has a budget of its own too: below).
    with http(server, "127.0.0.2", token=guest(server, "Outra", "127.0.0.2")) as c:
        assert c.post("/api/matches", json=EXPERTS).status_code == 201
    with http(server, "127.0.0.3", token=guest(server, "Mais", "127.0.0.3")) as c:
        full = c.post("/api/matches", json=EXPERTS)  # the server's cap: 3 in all
        assert full.status_code == 503 and error_of(full)["code"] == "too_many_matches"
    # Their experts think in worker processes at a lower priority than the server's.
    def lowered() -> bool:
        workers = [p for p in children(server.proc.pid)
                   if b"spawn_main" in Path(f"/proc/{p}/cmdline").read_bytes()]
        return bool(workers) and all(nice_of(p) >= nice_of(server.proc.pid) + 10
                                     for p in workers)

    wait_until(lowered, "the bots-only worker process, at a lower priority")


def test_waiting_friends_tables_are_capped_and_expire(servers: Callable[..., Server]) -> None:
    env = {"CARROCA_WAITING_TABLE_MINUTES": "0.05", "CARROCA_PURGE_SECONDS": "0.5"}
    server = servers(env=env)
    host = guest(server, "Mesas")
    four = {"ruleset": "duplas-pontos", "seats": ["me", "open", "open", "open"]}
    with http(server, token=host) as c:
        tables = [c.post("/api/tables", json=four).json() for _ in range(3)]
        fourth = c.post("/api/tables", json=four)
        assert fourth.status_code == 429 and error_of(fourth)["code"] == "too_many_tables"
        # A table with bots in every other seat starts at once, so it never waits.
        assert c.post("/api/tables", json={"ruleset": "bloqueio",
                                           "seats": ["me", "bot:greedy"]}).status_code == 201
        for t in tables:
            wait_until(lambda t=t: c.get(f"/api/matches/{t['id']}").json()["status"]
                       == "expired", "the waiting table to expire")
        assert c.get("/api/me").json()["tables"] == [
            m for m in c.get("/api/me").json()["tables"] if m not in {t["id"] for t in tables}]
        assert c.post("/api/tables", json=four).status_code == 201  # room for new ones
    with http(server, token=guest(server, "Atrasado")) as c:
        late = c.post("/api/tables/join", json={"invite": tables[0]["invite"]})
        assert late.status_code == 404 and error_of(late)["code"] == "no_table"


def test_a_restart_does_not_restore_expired_tables(servers: Callable[..., Server]) -> None:
    env = {"CARROCA_WAITING_TABLE_MINUTES": "0.02", "CARROCA_PURGE_SECONDS": "3600"}
    first = servers(env=env)
    host = guest(first, "Antiga")
    with http(first, token=host) as c:
        table = c.post("/api/tables", json={"ruleset": "bloqueio",
                                            "seats": ["me", "open"]}).json()
    first.kill()
    time.sleep(1.5)  # the table's 1.2 s pass while no server runs
    second = servers(env=env)
    with http(second, token=host) as c:
        assert c.get(f"/api/matches/{table['id']}").json()["status"] == "expired"
        assert c.get("/api/me").json()["tables"] == []
        assert table["id"] not in [t["id"] for t in c.get("/api/matches").json()["live"]]


def test_ranked_is_for_accounts_and_early_abandonment_is_unrated(
    servers: Callable[..., Server]
) -> None:
    server = servers("--turn-seconds", "1")
    with http(server, token=guest(server, "Convidado")) as c:
        r = c.post("/api/ranked", json={"ruleset": "bloqueio"})
        assert r.status_code == 403 and error_of(r)["code"] == "account_required"
    # From two addresses: accounts seen at one are never paired (test_ranked_integrity.py)
    farmer = account(server, "Fazendeiro", ip="127.0.0.2")
    puppet = account(server, "Fantoche", ip="127.0.0.3")
    with http(server, "127.0.0.2", token=farmer) as c:
        assert c.post("/api/ranked", json={"ruleset": "bloqueio"}).json()["status"] == "queued"
    with http(server, "127.0.0.3", token=puppet) as c:
        matched = c.post("/api/ranked", json={"ruleset": "bloqueio"}).json()
    assert matched["status"] == "matched"
    with http(server) as c:
        players = c.get(f"/api/matches/{matched['id']}").json()["players"]
    with socket_for(server, token=farmer) as ws:  # the puppet never moves
        end, _ = play_first_legal(ws, players.index("Fazendeiro"), matched["id"])
    assert end["rating"] == {"before": None, "after": None}
    with http(server) as c:
        info = c.get(f"/api/matches/{matched['id']}").json()
        assert info["result"]["reason"] == "abandon"
        assert c.get("/api/players/Fazendeiro").json()["ratings"] == {}
        assert c.get("/api/leaderboard/mano").json()["players"] == []


def lock_database(database: str) -> Any:
    """Another writer holds SQLite's write lock: the server's writes fail after its busy wait,
    as on a full disk or a database locked by an operator's tool."""
    import sqlite3

    conn = sqlite3.connect(database.removeprefix("sqlite:///"), isolation_level=None)
    conn.execute("BEGIN EXCLUSIVE")
    return conn


def test_a_seat_is_taken_only_once_stored(servers: Callable[..., Server],
                                          database: str) -> None:
    first = servers()
    host, friend = guest(first, "Dona"), guest(first, "Convidada")
    with http(first, token=host) as c:
        table = c.post("/api/tables", json={"ruleset": "bloqueio",
                                            "seats": ["me", "open"]}).json()
    lock = lock_database(database)
    try:
        with http(first, token=friend) as c:
            refused = c.post("/api/tables/join", json={"invite": table["invite"]})
    finally:
        lock.rollback() if lock.in_transaction else None
        lock.close()
    assert refused.status_code == 503 and error_of(refused)["code"] == "not_stored"
    with http(first) as c:  # the seat is still open, in memory as in the database
        info = c.get(f"/api/matches/{table['id']}").json()
        assert info["status"] == "waiting" and info["players"][1] is None
    with http(first, token=friend) as c:
        assert c.post("/api/tables/join", json={"invite": table["invite"]}).status_code == 200
        wait_until(lambda: c.get(f"/api/matches/{table['id']}").json()["status"] == "playing",
                   "the full table to start")
    first.kill()
    second = servers()
    with http(second) as c:
        info = c.get(f"/api/matches/{table['id']}").json()
        assert info["status"] == "playing" and info["players"] == ["Dona", "Convidada"]


def test_a_storage_outage_is_logged_once_and_bots_back_off(servers: Callable[..., Server],
                                                           database: str) -> None:
    server = servers("--bot-delay-ms", "0")
    with http(server, token=guest(server, "Demo")) as c:
        created = c.post("/api/matches", json={
            "ruleset": "mano-a-mano", "options": {"target": 300},
            "seats": ["bot:greedy", "bot:random"]}).json()
        wait_until(lambda: c.get("/api/stats").json()["moves"] > 5, "some moves")
    log_before = len(server.log_path.read_text().splitlines())
    lock = lock_database(database)
    try:
        time.sleep(12)  # two busy waits of 5 s at least: the bots keep retrying meanwhile
        with http(server) as c:  # HTTP during the outage: the JSON error shape, 503
            r = c.post("/api/guest", json={"name": "Durante"})
            assert r.status_code == 503 and error_of(r)["code"] in ("storage_unavailable",
                                                                    "not_stored")
    finally:
        lock.close()
    with http(server) as c:
        moves = c.get("/api/stats").json()["moves"]
        wait_until(lambda: c.get("/api/stats").json()["moves"] > moves + 5,
                   "the bots to play on once the database is back")
        assert c.get(f"/api/matches/{created['id']}").json()["status"] in ("playing", "finished")
    lines = server.log_path.read_text().splitlines()[log_before:]
    assert sum("storage unavailable" in line for line in lines) == 1, lines
    assert sum("storage back after" in line for line in lines) == 1, lines
    assert not any("Traceback" in line for line in lines), lines
    assert len(lines) <= 6, lines  # was 7,000 lines in 8 s
    assert os.path.exists(database.removeprefix("sqlite:///"))


def test_table_creation_and_reviews_are_rate_limited(servers: Callable[..., Server]) -> None:
    server = servers("--bot-delay-ms", "0", env={"CARROCA_LIMIT_TABLES_PLAYER": "2/minute",
                                                 "CARROCA_LIMIT_REVIEWS_IP": "1/10 minutes"})
    quick = {"ruleset": "bloqueio", "options": {"target": 1}, "seats": ["bot:greedy"] * 2}
    with http(server, token=guest(server, "Criadora")) as c:
        ids = [c.post("/api/matches", json=quick).json()["id"] for _ in range(2)]
        third = c.post("/api/tables", json={"ruleset": "bloqueio", "seats": ["me", "open"]})
        assert third.status_code == 429 and error_of(third)["code"] == "rate_limited"
        assert "retry-after" in third.headers
        for match_id in ids:
            wait_until(lambda m=match_id: c.get(f"/api/matches/{m}").json()["status"]
                       == "finished", "the demo to finish")
        assert c.get(f"/api/matches/{ids[0]}/analysis").status_code in (200, 202)
        assert c.get(f"/api/matches/{ids[0]}/analysis").status_code in (200, 202)  # the same
        second = c.get(f"/api/matches/{ids[1]}/analysis")
        assert second.status_code == 429 and error_of(second)["code"] == "rate_limited"


def test_caps_hold_under_concurrent_requests(servers: Callable[..., Server]) -> None:
    import concurrent.futures

    server = servers("--bot-delay-ms", "0")
    token = guest(server, "Rajada")

    def create(path_body: tuple[str, dict[str, Any]]) -> int:
        with http(server, token=token) as c:
            return c.post(path_body[0], json=path_body[1]).status_code

    with concurrent.futures.ThreadPoolExecutor(10) as pool:
        bots = list(pool.map(create, [("/api/matches", EXPERTS)] * 10))
    assert bots.count(201) == 2, bots
    waiting = {"ruleset": "bloqueio", "seats": ["me", "open"]}
    with concurrent.futures.ThreadPoolExecutor(10) as pool:
        tables = list(pool.map(create, [("/api/tables", waiting)] * 10))
    assert tables.count(201) == 3, tables


def test_friends_tables_with_searching_bots_count_like_bots_only_matches(
    servers: Callable[..., Server]
) -> None:
    server = servers()
    experts = {"ruleset": "bloqueio", "seats": ["me", "bot:expert"]}
    with http(server, token=guest(server, "Mestra")) as c:
        assert c.post("/api/tables", json=experts).status_code == 201
        assert c.post("/api/tables", json=experts).status_code == 201
        third = c.post("/api/tables", json=experts)
        assert third.status_code == 429 and error_of(third)["code"] == "too_many_bot_matches"
        easy = c.post("/api/tables", json={"ruleset": "bloqueio", "seats": ["me", "bot:greedy"]})
        assert easy.status_code == 201  # bots that do not search cost nothing to speak of
