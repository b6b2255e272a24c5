"""bench/failover.py's machinery on a short run: one round (a node SIGKILLed under two tables it
owns) on tests/cluster's cluster, with short leases; its report, and no acked move lost.

Here and not in tests/bench: it needs PostgreSQL, Redis and HAProxy, which tests/cluster's
fixtures provide (and `make unit-cluster` runs).
"""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from tests.support.clusterproc import Cluster

# bench/ is not a package: its scripts are found through sys.path, as they find each other
_BENCH = str(Path(__file__).resolve().parents[2] / "bench")
if _BENCH not in sys.path:
    sys.path.insert(0, _BENCH)
F = importlib.import_module("failover")

LEASE, RENEW, SCAN = 2.0, 0.5, 0.5


def test_one_round_measures_the_takeover_and_loses_no_acked_move(
        cluster_factory: Callable[..., Cluster], tmp_path: Path) -> None:
    cluster = cluster_factory(**F.cluster_options(
        lease_seconds=LEASE, lease_renew_seconds=RENEW, takeover_seconds=SCAN, bot_delay_ms=50))
    report = F.measure(cluster, F.Options(rounds=1, tables=2, moves_before=4, after=1.0))

    assert report["settings"]["lease_s"] == LEASE
    assert report["settings"]["takeover_scan_s"] == SCAN
    [r] = report["rounds"]
    assert r["killed"] == "n1" and r["killed_id"].startswith("n1/")
    assert r["complete"] and r["tables"] == 2 and r["matches_moved"] == 2
    assert not r["not_taken_over"]
    assert sum(r["new_owners"].values()) == 2 and set(r["new_owners"]) <= {"n2", "n3"}
    # Nobody may claim before the lease ran out; a scan later at most (+ a loaded machine).
    assert r["lease_left_s"] is not None and 0 < r["lease_left_s"] <= LEASE
    assert r["lease_left_s"] - 0.1 <= r["takeover_s"] <= LEASE + SCAN + 3
    assert len(r["takeover_match_s"]) == 2 and max(r["takeover_match_s"]) == r["takeover_s"]
    assert len(r["resumed_match_s"]) == 2 and max(r["resumed_match_s"]) == r["resumed_s"]
    assert r["resumed_s"] > r["lease_left_s"]  # no frame of the dead node counted
    assert r["moves_after_kill"] > 0 and r["acked"] > 0
    assert r["lost"] == 0 and r["lost_moves"] == [] and r["log_gaps"] == []
    assert r["restart_s"] > 0 and cluster.node(1).proc.poll() is None  # n1 is back

    s = report["summary"]
    assert s["rounds"] == 1 and s["incomplete_rounds"] == 0
    assert s["takeover_s"]["n"] == 1 and s["takeover_s"]["median"] == r["takeover_s"]
    assert s["resumed_s"]["max"] == r["resumed_s"] and s["resumed_match_s"]["n"] == 2
    assert s["bound_s"] == LEASE + SCAN
    assert (s["matches_moved"], s["acked"], s["lost"]) == (2, r["acked"], 0)

    report["node_logs"] = F.node_logs(tmp_path)
    assert {"n1.log", "n1.2.log", "n2.log", "n3.log"} <= set(report["node_logs"])
    assert all(v["tracebacks"] == 0 for v in report["node_logs"].values())
    json.dumps(report)  # --json
    text = F.render(report)
    assert "takeover (every match)" in text and "acked moves lost 0" in text


def test_summary_statistics_and_arguments() -> None:
    assert F.stats([3.0, None, 1.0, 2.0, 10.0]) == {
        "n": 4, "min": 1.0, "median": 2.5, "mean": 4.0, "max": 10.0}
    assert F.stats([None])["median"] is None
    with pytest.raises(SystemExit):
        F.main(["--rounds", "0"])
    with pytest.raises(SystemExit):
        F.main(["--database", "sqlite:///x.db"])
