"""The HTTP API end to end: a bots-only match created, watched, finished and verified."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient

from carroca import fair, record


def wait_finished(client: TestClient, match_id: str, timeout: float = 30) -> dict:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        info = client.get(f"/api/matches/{match_id}").json()
        if info["status"] == "finished":
            return info
        time.sleep(0.02)
    raise AssertionError(f"match {match_id} did not finish")


def test_health(client: TestClient) -> None:
    assert client.get("/api/health").json() == {"status": "ok"}


def test_bots_match_finishes_and_its_record_verifies(client: TestClient) -> None:
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
