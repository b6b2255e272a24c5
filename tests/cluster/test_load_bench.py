"""bench/load.py --nodes 2 on the run's PostgreSQL and Redis: a tiny load on two nodes, half of
each table's players on a node that does not own its match."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.support.clusterproc import ROOT, RedisServer


def test_a_tiny_run_on_two_nodes(postgres_server: str, redis_server: RedisServer,
                                 haproxy: str) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "load.py"), "--nodes", "2",
         "--database", postgres_server, "--redis", redis_server.url, "--players", "8",
         "--duration", "3", "--ramp", "0.5", "--think", "0.2", "--bot-delay-ms", "50",
         "--json", "--quiet"],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["connected_end"] == 8 and report["moves_acked"] > 0
    assert [n["sockets_end"] for n in report["per_node"]] == [4, 4]
    assert all(n["cpu_s"] > 0 and n["rss_end_mb"] > 0 for n in report["per_node"])
    assert report["server_moves_per_s"] >= report["moves_per_s"]
    # two of the four humans at each table of four, one of the two at a table with bots
    assert 0.2 < report["forwarded"]["move_share"] < 0.8
    assert report["redis"]["commands_per_s"] > 0 and "postgres" in report
    failures = {k: v for k, v in report["events"].items() if k != "http_retry"}
    assert failures == {}


def test_behind_the_proxy_sockets_move_to_their_tables_owner(
        postgres_server: str, redis_server: RedisServer, haproxy: str) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "load.py"), "--nodes", "2", "--front", "proxy",
         "--database", postgres_server, "--redis", redis_server.url, "--players", "16",
         "--duration", "4", "--ramp", "0.5", "--think", "0.3", "--bot-delay-ms", "50",
         "--bot-share", "0", "--json", "--quiet"],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["connected_end"] == 16 and report["moves_acked"] > 0
    # Round robin put some sockets on the node that does not run their table: told `owner`,
    # they connected again through the proxy to the owner, and few moves crossed Redis.
    assert report["events"].get("moved_to_owner", 0) > 0
    assert report["forwarded"]["move_share"] < 0.2
    failures = {k: v for k, v in report["events"].items()
                if k not in ("http_retry", "moved_to_owner")}
    assert failures == {}
