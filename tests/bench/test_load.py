"""bench/load.py: its table split and percentiles, and a tiny run against a started server."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

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
