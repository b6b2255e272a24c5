"""Monitoring a cluster as an operator would: a real Prometheus (Debian's) scrapes two nodes
with deploy/prometheus/alerts.yml loaded; the figures each node gives match what the test did
(a match owned by one node, played from a socket on the other), every alert rule and every
panel of the Grafana dashboard evaluates, and a killed node raises its alert."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from prometheus_client.parser import text_string_to_metric_families
from tests.support.cluster_players import Player, guest, play, post
from tests.support.clusterproc import ROOT, Cluster
from tests.support.serverproc import wait_until

RULES = ROOT / "deploy" / "prometheus" / "alerts.yml"
DASHBOARD = ROOT / "deploy" / "grafana" / "dashboards" / "carroca.json"

Samples = dict[str, dict[tuple[tuple[str, str], ...], float]]


def scrape(base: str) -> Samples:
    """A node's /metrics (the test is on loopback: in the default allow-list)."""
    with httpx2.Client(base_url=base, timeout=10, trust_env=False) as c:
        r = c.get("/metrics")
    assert r.status_code == 200, r.text
    out: Samples = {}
    for family in text_string_to_metric_families(r.text):
        for s in family.samples:
            out.setdefault(s.name, {})[tuple(sorted(s.labels.items()))] = s.value
    return out


def one(samples: Samples, name: str, **labels: str) -> float:
    return float(samples.get(name, {}).get(tuple(sorted(labels.items())), 0.0))


def total(samples: Samples, name: str) -> float:
    return float(sum(samples.get(name, {}).values()))


class Prometheus:
    """A Prometheus server scraping `targets` every second, with the repository's rules."""

    def __init__(self, binary: str, workdir: Path, targets: list[str]) -> None:
        workdir.mkdir(parents=True, exist_ok=True)
        config = workdir / "prometheus.yml"
        config.write_text(json.dumps({  # JSON is YAML
            "global": {"scrape_interval": "1s", "evaluation_interval": "1s"},
            "rule_files": [str(RULES)],
            "scrape_configs": [{"job_name": "carroca",
                                "static_configs": [{"targets": targets}]}],
        }))
        self.port = free_port()
        self.log = workdir / "prometheus.log"
        with self.log.open("wb") as out:  # the child keeps its own descriptor
            self.proc = subprocess.Popen(
                [binary, f"--config.file={config}", f"--storage.tsdb.path={workdir / 'data'}",
                 f"--web.listen-address=127.0.0.1:{self.port}"],
                stdout=out, stderr=subprocess.STDOUT)
        self.http = httpx2.Client(base_url=f"http://127.0.0.1:{self.port}", timeout=10,
                                  trust_env=False)
        wait_until(self._ready, "Prometheus never became ready", 30)

    def _ready(self) -> bool:
        if self.proc.poll() is not None:
            raise AssertionError(f"Prometheus exited: {self.log.read_text()[-2000:]}")
        try:
            return self.http.get("/-/ready").status_code == 200
        except httpx2.HTTPError:
            return False

    def query(self, expr: str) -> list[dict[str, Any]]:
        r = self.http.get("/api/v1/query", params={"query": expr})
        body = r.json()
        assert r.status_code == 200 and body["status"] == "success", (expr, body)
        result: list[dict[str, Any]] = body["data"]["result"]
        return result

    def value(self, expr: str) -> float | None:
        result = self.query(expr)
        return float(result[0]["value"][1]) if result else None

    def stop(self) -> None:
        self.http.close()
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def two_nodes(cluster_factory: Callable[..., Cluster]) -> Cluster:
    return cluster_factory(nodes=2)


@pytest.fixture
def prometheus(prometheus_binary: str, two_nodes: Cluster, tmp_path: Path
               ) -> Iterator[Prometheus]:
    targets = [two_nodes.node_url(i).removeprefix("http://") for i in (1, 2)]
    server = Prometheus(prometheus_binary, tmp_path / "prometheus", targets)
    yield server
    server.stop()


def test_two_nodes_tell_prometheus_what_the_test_did(two_nodes: Cluster,
                                                     prometheus: Prometheus) -> None:
    n1, n2 = two_nodes.node_url(1), two_nodes.node_url(2)
    before = [scrape(n1), scrape(n2)]
    token = guest(n1, "Ana")
    made = post(n1, token, "/api/tables", {"ruleset": "bloqueio", "options": {"target": 1},
                                           "seats": ["me", "bot:greedy"]})
    ana = Player(two_nodes, token, made["id"], base=n2)  # her socket on the other node
    play([ana], lambda: ana.finished, 60)
    # The last move's ack may come after the state that ends the match: read it too.
    play([ana], lambda: ana.pending is None, 10)
    ana.close()
    assert ana.errors == [] and ana.acked
    after = [scrape(n1), scrape(n2)]

    # Her moves were answered on n2 (forwarded to n1, which owns the match), stored on n1.
    answered = [one(after[i], "carroca_move_ack_seconds_count")
                - one(before[i], "carroca_move_ack_seconds_count") for i in (0, 1)]
    assert answered == [0, len(ana.acked)]
    stored = [total(after[i], "carroca_moves_stored_total")
              - total(before[i], "carroca_moves_stored_total") for i in (0, 1)]
    assert stored[1] == 0 and stored[0] > len(ana.acked)
    # Every other stored move is the bot's: one decision each, on the owner.
    decisions = total(after[0], "carroca_bot_decisions_total") - \
        total(before[0], "carroca_bot_decisions_total")
    assert decisions == stored[0] - len(ana.acked)
    assert one(after[0], "carroca_tables", mode="friends", ruleset="bloqueio",
               status="finished") == 1
    assert total(after[1], "carroca_tables") == 0
    assert one(after[0], "carroca_node_leased") == 1 == one(after[1], "carroca_node_leased")

    # Prometheus scraped both, sees the same, and evaluates every rule and every panel.
    wait_until(lambda: prometheus.value('sum(up{job="carroca"})') == 2,
               "Prometheus never scraped both nodes")
    moves = total(after[0], "carroca_moves_stored_total")
    wait_until(lambda: prometheus.value("sum(carroca_moves_stored_total)") == moves,
               "Prometheus never saw the moves stored")
    wait_until(lambda: all_rules_evaluated(prometheus), "the alert rules never evaluated", 30)
    for expr in dashboard_queries():
        prometheus.query(expr)  # a query Prometheus refuses fails here
    assert prometheus.query("ALERTS") == []  # nothing is wrong with a healthy cluster

    # A node that dies is an alert at once (pending, firing after its `for`).
    two_nodes.kill(2)
    wait_until(lambda: any(a["labels"]["alertname"] == "CarrocaNodeDown"
                           and a["labels"]["instance"] == n2.removeprefix("http://")
                           for a in prometheus.http.get("/api/v1/alerts").json()
                           ["data"]["alerts"]), "no alert for the dead node", 30)


def all_rules_evaluated(prometheus: Prometheus) -> bool:
    groups = prometheus.http.get("/api/v1/rules").json()["data"]["groups"]
    rules = [r for g in groups for r in g["rules"]]
    assert len(rules) == RULES.read_text().count("- alert:")
    bad = [(r["name"], r.get("lastError")) for r in rules if r["health"] == "err"]
    assert not bad, bad
    return all(r["health"] == "ok" for r in rules)


def dashboard_queries() -> list[str]:
    board = json.loads(DASHBOARD.read_text())
    exprs = [t["expr"] for p in board["panels"] for t in p["targets"]]
    assert len(exprs) >= 15
    return exprs
