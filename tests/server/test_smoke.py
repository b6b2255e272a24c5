"""The HTTP API end to end: a bots-only match created, watched, finished and verified."""

from __future__ import annotations

from fastapi.testclient import TestClient
from tests.server.conftest import guest, wait_finished

from carroca import fair, record


def test_health(client: TestClient) -> None:
    assert client.get("/api/health").json() == {"status": "ok"}


def test_bots_match_finishes_and_its_record_verifies(client: TestClient) -> None:
    guest(client, "Beto")  # bots-only matches are for signed-in players
    r = client.post("/api/matches", json={
        "ruleset": "duplas-torneio", "seats": ["bot:greedy", "bot:random"] * 2,
    })
    assert r.status_code == 201
    created = r.json()
    info = wait_finished(client, created["id"])
    assert info["commitment"] == created["commitment"]
    assert fair.commitment(info["server_seed"]) == created["commitment"]
    rec = client.get(f"/api/matches/{created['id']}/record")
    assert rec.status_code == 200
    match = record.verify(record.loads(rec.text))
    assert match.is_over
    assert list(match.score) == info["score"]
