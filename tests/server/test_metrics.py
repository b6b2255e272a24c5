"""`/metrics`: Prometheus's text format, read with prometheus-client's own parser, whose figures
match what the test did (a match played over the socket, a refused move, a rate limit), and
which answers nobody outside its allow-list without the operator's token."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from tests.support.server_app import guest, settings_for
from tests.support.wsplay import Client, play

from carroca.server.app import create_app

TOKEN = "operador-de-teste"
BEARER = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture
def metered(database: str) -> Iterator[TestClient]:
    settings = settings_for(database, metrics_token=TOKEN, limit_guest_ip="3/minute")
    with TestClient(create_app(settings)) as c:
        yield c


def scrape(client: TestClient) -> dict[str, dict[tuple[tuple[str, str], ...], float]]:
    """Every sample by name, then by its labels."""
    r = client.get("/metrics", headers=BEARER)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain; version=0.0.4")
    out: dict[str, dict[tuple[tuple[str, str], ...], float]] = {}
    for family in text_string_to_metric_families(r.text):
        for s in family.samples:
            out.setdefault(s.name, {})[tuple(sorted(s.labels.items()))] = s.value
    return out


def one(samples: dict[str, Any], name: str, **labels: str) -> float:
    return float(samples.get(name, {}).get(tuple(sorted(labels.items())), 0.0))


def test_the_figures_follow_a_match_played_over_the_socket(metered: TestClient) -> None:
    before = scrape(metered)
    token = guest(metered, "Ana")
    r = metered.post("/api/tables", json={"ruleset": "bloqueio", "options": {"target": 1},
                                          "seats": ["me", "bot:greedy"]})
    assert r.status_code == 201, r.text
    match_id = r.json()["id"]
    with metered.websocket_connect(f"/ws?token={token}") as ws:
        c = Client(ws, "ana")
        assert c.recv()["type"] == "hello"
        c.join(match_id)
        during = scrape(metered)
        assert one(during, "carroca_sockets") == 1
        assert one(during, "carroca_players_online") == 1
        c.move("jogada-que-nao-existe")  # refused: an error answer, counted by its code
        c.drain_acks()
        state = play(c, match_id)  # joined again: the state to answer from
    assert state["status"] == "finished"
    after = scrape(metered)

    acked = len(c.acks())
    refused = [e["code"] for e in c.errors()]
    assert acked > 0 and len(refused) == 1
    # Every move answered over the socket is one observation of the latency histogram.
    answered = one(after, "carroca_move_ack_seconds_count") - \
        one(before, "carroca_move_ack_seconds_count")
    assert answered == acked + 1
    assert one(after, "carroca_errors_total", code=refused[0]) - \
        one(before, "carroca_errors_total", code=refused[0]) == 1
    # Moves stored: the person's and the bot's, each in some commit.
    stored = one(after, "carroca_moves_stored_total")
    assert stored >= acked + 1  # the bot moved at least once in a match of bloqueio
    batches = one(after, "carroca_commit_batch_moves_count") - \
        one(before, "carroca_commit_batch_moves_count")
    moved = one(after, "carroca_commit_batch_moves_sum") - \
        one(before, "carroca_commit_batch_moves_sum")
    assert moved == stored and 0 < batches <= stored
    assert one(after, "carroca_commits_total") >= batches
    assert one(after, "carroca_tables", mode="friends", ruleset="bloqueio",
               status="finished") == 1
    assert one(after, "process_resident_memory_bytes") > 0
    assert one(after, "process_cpu_seconds_total") > 0


def test_rate_limit_refusals_are_counted_by_rule(metered: TestClient) -> None:
    before = one(scrape(metered), "carroca_rate_limited_total", rule="guest-ip")
    codes = [metered.post("/api/guest", json={"name": f"Convidado {i}"}).status_code
             for i in range(5)]
    assert codes == [200, 200, 200, 429, 429]
    after = one(scrape(metered), "carroca_rate_limited_total", rule="guest-ip")
    assert after - before == 2


def test_nobody_outside_the_allow_list_reads_it_without_the_token(metered: TestClient) -> None:
    # The test client's address ("testclient") is not in the default allow-list (loopback).
    plain = metered.get("/metrics")
    assert plain.status_code == 404
    assert plain.json()["error"]["code"] == "not_found"
    assert metered.get("/metrics", headers={"Authorization": "Bearer outro"}).status_code == 404
    assert metered.get("/metrics", headers=BEARER).status_code == 200


def test_off_means_no_endpoint(database: str) -> None:
    settings = settings_for(database, metrics=False, metrics_token=TOKEN)
    with TestClient(create_app(settings)) as c:
        assert c.get("/metrics", headers=BEARER).status_code == 404
