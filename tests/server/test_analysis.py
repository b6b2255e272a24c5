"""The expert's post-game review over HTTP: produced once on request, after the end only."""

from __future__ import annotations

import asyncio
import time

import pytest
from fastapi.testclient import TestClient
from tests.server.conftest import guest, settings_for, wait_finished

from carroca.server.app import create_app
from carroca.server.reviews import MAX_PENDING, Reviews
from carroca.simulate import play_one


def test_review_of_a_finished_match(client: TestClient) -> None:
    guest(client, "ana")
    created = client.post("/api/matches", json={
        "ruleset": "bloqueio", "options": {"target": 2}, "seats": ["bot:greedy", "bot:random"],
    }).json()
    wait_finished(client, created["id"])
    first = client.get(f"/api/matches/{created['id']}/analysis")
    assert first.status_code in (200, 202)
    end = time.monotonic() + 120
    while first.status_code == 202 and time.monotonic() < end:
        time.sleep(0.2)
        first = client.get(f"/api/matches/{created['id']}/analysis")
    assert first.status_code == 200, first.text
    review = first.json()
    assert review["format"] == "carroca-analysis/1"
    assert review["players"] == ["bot:greedy", "bot:random"]
    again = client.get(f"/api/matches/{created['id']}/analysis")
    assert again.status_code == 200 and again.json() == review  # stored, not recomputed


def test_no_review_before_the_end_or_of_unknown_matches(client: TestClient) -> None:
    guest(client, "rita")
    table = client.post("/api/tables", json={"ruleset": "bloqueio", "seats": ["me", "open"]})
    r = client.get(f"/api/matches/{table.json()['id']}/analysis")
    assert r.status_code == 409 and r.json()["error"]["code"] == "not_finished"
    assert client.get("/api/matches/nope/analysis").status_code == 404


def test_a_review_that_fails_says_so(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    guest(client, "bia")
    created = client.post("/api/matches", json={
        "ruleset": "bloqueio", "options": {"target": 1}, "seats": ["bot:greedy", "bot:greedy"],
    }).json()
    wait_finished(client, created["id"])
    reviews = client.app.state.reviews  # type: ignore[attr-defined]
    monkeypatch.setattr(reviews, "request", lambda match_id, text: reviews.failed.update(
        {match_id: "RuntimeError()"}))
    client.get(f"/api/matches/{created['id']}/analysis")
    r = client.get(f"/api/matches/{created['id']}/analysis")
    assert r.status_code == 500 and r.json()["error"]["code"] == "analysis_failed"


def test_reviews_queue_is_bounded(database: str) -> None:
    client = TestClient(create_app(settings_for(database, max_bot_matches_per_player=20)))
    with client:
        reviews_fill_the_queue(client)


def reviews_fill_the_queue(client: TestClient) -> None:
    guest(client, "caio")
    ids = []
    for _ in range(MAX_PENDING + 1):
        created = client.post("/api/matches", json={
            "ruleset": "bloqueio", "options": {"target": 1}, "seats": ["bot:greedy"] * 2,
        }).json()
        ids.append(created["id"])
    for match_id in ids:
        wait_finished(client, match_id)
    answers = [client.get(f"/api/matches/{m}/analysis").status_code for m in ids]
    assert answers.count(503) >= 1, answers  # the reviews take seconds each: the queue fills
    assert set(answers) <= {200, 202, 503}


class _NoStore:
    async def set_analysis(self, match_id: str, text: str) -> None:
        raise AssertionError("the review was stopped: nothing to store")


def test_close_ends_a_running_review_and_its_process() -> None:
    """Stopping the server abandons a review in progress and waits for the review process, so
    nothing is left behind (no process, no semaphores, no error logged)."""
    line = play_one("duplas-pontos", None, ("greedy",), 0, 0, record=True).line
    assert line is not None

    async def scenario() -> None:
        reviews = Reviews(_NoStore())  # type: ignore[arg-type]
        reviews.request("m1", line)
        await asyncio.sleep(1.5)  # the review process is up and reviewing
        assert reviews.running("m1")
        processes = list(reviews._pool._processes.values())  # type: ignore[union-attr]
        assert processes and all(p.is_alive() for p in processes)
        started = time.monotonic()
        reviews.close()
        while any(p.is_alive() for p in processes):  # reaped by close(), or a moment after
            assert time.monotonic() - started < 15, "the review process outlived close()"
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.1)
        assert not reviews.running("m1") and reviews.failed == {}

    asyncio.run(scenario())
