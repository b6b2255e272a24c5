"""bench/load.py: its table split and percentiles, and a tiny run against a started server."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import os
import subprocess
import sys
from array import array
from collections import Counter
from pathlib import Path
from typing import Any

# bench/ is not a package: its scripts are found through sys.path, as they find each other
_BENCH = Path(__file__).resolve().parents[2] / "bench"
if str(_BENCH) not in sys.path:
    sys.path.insert(0, str(_BENCH))
L = importlib.import_module("load")


def test_tables_seat_every_player_once() -> None:
    for players in range(1, 40):
        for share in (0.0, 0.2, 0.5, 1.0):
            tables = L.tables_for(players, share)
            assert sum(tables) == players
            assert all(t in (1, 2, 4) for t in tables)
            assert tables.count(1) <= 1
    assert L.tables_for(10_000, 0.2) == [4] * 2000 + [2] * 1000
    assert L.tables_for(8, 0.0) == [4, 4]


def test_offered_pace_counts_each_seat_to_move() -> None:
    # four humans thinking 2 s: a move every 2 s; two humans and two bots at 1 s: 4 moves in 6 s
    assert L.offered_pace([4], 2.0, 1000) == 0.5
    assert L.offered_pace([2], 2.0, 1000) == 4 / 6
    assert L.offered_pace([4, 4, 2], 2.0, 1000) == 1 + 4 / 6


def test_nearest_rank_percentiles() -> None:
    values = [float(v) for v in range(1, 101)]
    assert (L.percentile(values, 50), L.percentile(values, 99)) == (50.0, 99.0)
    assert L.percentile(values, 100) == 100.0
    assert L.percentile([], 99) == 0.0
    assert L.spread([3.0, 1.0, 2.0]) == {"n": 3, "p50": 2.0, "p95": 3.0, "p99": 3.0, "max": 3.0}


def test_a_tiny_run_reports_moves_and_round_trips() -> None:
    """Eight players for three seconds: a server is started, everyone plays, nothing fails."""
    done = subprocess.run(
        [sys.executable, str(_BENCH / "load.py"), "--players", "8", "--duration", "3",
         "--ramp", "0.5", "--think", "0.2", "--bot-delay-ms", "50", "--json", "--quiet"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["connected_end"] == 8
    assert report["tables"] == 3 and report["tables_with_bots"] == 2
    assert report["moves_acked"] > 0 and report["moves_per_s"] > 0
    rtt = report["rtt_ms"]
    assert rtt["n"] == report["moves_acked"]
    assert 0 < rtt["p50"] <= rtt["p95"] <= rtt["p99"] <= rtt["max"]
    assert report["server_moves_per_s"] >= report["moves_per_s"]  # the bots' moves too
    assert report["offered_moves_per_s"] > 0
    assert report["server"]["rss_end_mb"] > 0 and report["server"]["cpu_s"] > 0
    failures = {k: v for k, v in report["events"].items() if k != "http_retry"}
    assert failures == {}


def test_metrics_off_and_on_side_by_side() -> None:
    """--metrics 1: the same tiny load with the server's metrics off, then on and scraped."""
    done = subprocess.run(
        [sys.executable, str(_BENCH / "load.py"), "--players", "4", "--duration", "6",
         "--ramp", "0.5", "--think", "0.2", "--bot-delay-ms", "50", "--metrics", "1", "--json",
         "--quiet"],
        capture_output=True, text=True, timeout=90, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    off, on = report["runs"]
    assert (off["metrics"], on["metrics"]) == (False, True)
    assert off["scrapes"] == 0 and on["scrapes"] >= 2  # every 5 s over a 6 s window
    assert off["cpu_ms_per_move"] > 0 and on["cpu_ms_per_move"] > 0
    assert report["on_over_off"] == round(on["cpu_ms_per_move"] / off["cpu_ms_per_move"], 3)


def test_presence_without_and_with_friends_side_by_side() -> None:
    """--presence 1: the same tiny load without friends, then with four each (a ring of eight),
    everyone stepping away from the table now and then: friends' presence reaches the players
    in the second run only."""
    done = subprocess.run(
        [sys.executable, str(_BENCH / "load.py"), "--players", "8", "--duration", "4",
         "--ramp", "0.5", "--think", "0.2", "--bot-delay-ms", "50", "--presence", "1",
         "--friends", "4", "--away", "1", "--json", "--quiet"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    without, with_friends = report["runs"]
    assert (without["friends"], with_friends["friends"]) == (0, 4)
    assert without["stepped_away"] > 0 and with_friends["stepped_away"] > 0
    assert without["presence_frames_per_s"] == 0 < with_friends["presence_frames_per_s"]
    assert report["with_over_without"] == round(
        with_friends["cpu_ms_per_move"] / without["cpu_ms_per_move"], 3)
    assert report["kb_with_over_without"] == round(
        with_friends["kb_per_player"] / without["kb_per_player"], 3)


def _placed(route: str, worker: int, urls: int = 2, sources: bool = False
            ) -> list[list[Any]]:
    """Each player's node (or, with `sources`, socket address) at tables of 4, 4, 2 and 2."""
    async def place() -> list[list[Any]]:
        plan = L.Plan(urls=tuple(f"http://127.0.0.1:{9000 + i}" for i in range(urls)),
                      think=1.0, bot_level="greedy", http_concurrency=4, tag="t", seed=1,
                      route=route, sources=sources)
        gen = L.Generator(plan, worker, [4, 4, 2, 2])
        gen.groups = [L.Group(gen, n) for n in gen.tables]
        for group in gen.groups:
            group.players = [L.Player(gen, group, "token") for _ in range(group.seats)]
        gen.players = [p for g in gen.groups for p in g.players]
        gen._place()
        for client in gen.http:
            await client.aclose()
        return [[p.source if sources else p.node for p in g.players] for g in gen.groups]

    return asyncio.run(place())


def test_a_tables_players_take_the_nodes_in_turn_from_its_owner() -> None:
    # --route player: the host (who creates the table, so its node owns the match) first, the
    # others on the nodes in turn; owners alternate from table to table, and from worker to
    # worker
    assert _placed("player", 0) == [[0, 1, 0, 1], [1, 0, 1, 0], [0, 1], [1, 0]]
    assert _placed("player", 1) == [[1, 0, 1, 0], [0, 1, 0, 1], [1, 0], [0, 1]]
    assert _placed("player", 0, urls=3) == [[0, 1, 2, 0], [1, 2, 0, 1], [2, 0], [0, 1]]
    # --route table: everyone on the owner
    assert _placed("table", 0) == [[0, 0, 0, 0], [1, 1, 1, 1], [0, 0], [1, 1]]
    # one url (a single server, or the proxy): everyone there
    assert _placed("player", 1, urls=1) == [[0] * 4, [0] * 4, [0] * 2, [0] * 2]


def test_behind_the_proxy_sockets_come_from_many_loopback_addresses() -> None:
    sources = [s for table in _placed("player", 0, urls=1, sources=True) for s in table]
    assert all(host.startswith("127.1.") and port == 0 for host, port in sources)
    assert max(Counter(sources).values()) <= L.PER_SOURCE


def _snapshot(t: float, busy: float, nodes: list[dict[str, Any]], redis_cpu: float,
              pg_cpu: float) -> dict[str, Any]:
    return {
        "machine_busy_s": busy, "machine_total_s": (os.cpu_count() or 1) * t,
        "listen_overflows": 0,
        "nodes": nodes,
        "redis": {"cpu_s": redis_cpu, "rss_mb": 8.0, "commands": 100 * t, "net_in": 1024 * t,
                  "net_out": 2048 * t, "channels": 40, "clients": 6},
        "postgres": {"cpu_s": pg_cpu, "processes": 9},
    }


def _node(cpu: float, moves: int, calls: int, published: int, rss: float = 100.0
          ) -> dict[str, Any]:
    return {"rss_mb": rss, "peak_mb": rss, "cpu_s": cpu, "loop_cpu_s": cpu / 2, "moves": moves,
            "commits": moves // 2, "calls": {"move": calls, "join": 3}, "sockets": 4,
            "redis_published": published, "tables": 2}


def test_the_report_adds_up_the_nodes_and_says_where_the_cpu_went() -> None:
    args = argparse.Namespace(players=8, duration=10.0, think=2.0, ramp=1.0, bot_delay_ms=1000,
                              nodes=2, postgres=False, database=None, server_url=None,
                              front="direct", route="player", deflate=False)
    idle = _snapshot(0, 0, [_node(0, 0, 0, 0, rss=90.0), _node(0, 0, 0, 0, rss=90.0)], 0, 0)
    begin = _snapshot(100, 50, [_node(10, 0, 0, 0), _node(20, 0, 0, 0)], 1, 2)
    end = _snapshot(110, 63, [_node(13, 60, 10, 100, rss=110.0), _node(24, 40, 20, 200)], 2, 4)
    rtt = array("d", [5.0] * 60)
    results = [{
        "connected": 8, "moves_sent": 60, "acks": 60, "frames": 500, "bytes": 10240,
        "finished": 0, "events": {}, "cpu_seconds": 1.0, "rtt_ms": rtt.tobytes(),
        "rtt_at": array("H", [i // 6 for i in range(60)]).tobytes(),
        "connect_ms": array("d", [1.0] * 8).tobytes(), "table_ms": array("d", [2.0]).tobytes(),
        "lag_ms": array("d", [0.1]).tobytes(),
    }]
    nodes = [L.Node("n1", "http://a", 11), L.Node("n2", "http://b", 12)]
    r = L.report(args, [4, 2, 2], 1, [{"guest_seconds": 1.0}], idle, idle, begin, end, results,
                 nodes)
    n1, n2 = r["per_node"]
    assert (n1["cpu_pct"], n1["loop_thread_cpu_pct"], n2["cpu_pct"]) == (30.0, 15.0, 40.0)
    assert (n1["moves_per_s"], n2["moves_per_s"], r["server_moves_per_s"]) == (6.0, 4.0, 10.0)
    assert n1["calls"] == {"move": 10} and n1["redis_published_per_s"] == 10.0
    assert n1["kb_per_player"] == 20 * 1024 / 4  # RSS over idle, per socket of its own
    assert r["server"]["cpu_pct"] == 70.0 and r["server"]["loop_thread_cpu_pct"] == 20.0
    assert r["server"]["cpu_ms_per_move"] == 70.0  # 7 CPU seconds for 100 stored moves
    assert r["forwarded"] == {"calls": {"move": 30}, "move_share": 0.5,
                              "redis_published_per_s": 30.0}
    assert (r["redis"]["cpu_pct"], r["redis"]["commands_per_s"]) == (10.0, 100.0)
    assert r["postgres"]["cpu_pct"] == 20.0 and r["generator"]["cpu_pct"] == 10.0
    # 13 busy seconds in a 10-second window: 130% of a core, 70 + 10 + 20 + 10 of it accounted
    assert r["machine"]["busy_core_pct"] == 130.0 and r["machine"]["other_core_pct"] == 20.0
    assert "2 node(s) on postgresql" in L.render(r)
