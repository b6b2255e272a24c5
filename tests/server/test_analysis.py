"""The expert's post-game review over HTTP: produced once on request, after the end only."""

from __future__ import annotations

import asyncio
import gc
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
        processes = reviews.workers.processes
        assert processes and all(p.is_alive() for p in processes)
        started = time.monotonic()
        reviews.close()
        while any(p.is_alive() for p in processes):  # reaped by close(), or a moment after
            assert time.monotonic() - started < 15, "the review process outlived close()"
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.1)
        assert not reviews.running("m1") and reviews.failed == {}

    asyncio.run(scenario())


def test_queued_reviews_given_up_then_the_process_dies() -> None:
    """Reviews waiting behind a running one are given up (their tasks cancelled, as `close`
    does) and the review process dies before the pool hears of any shutdown (a crash, or `close`
    ending it): the pool fails the queue itself, nothing raises in its manager thread, and `close`
    returns only once that thread is gone. (Cancelling the pool's futures from the event loop made
    the manager thread raise `InvalidStateError` when it then failed them as broken.)"""
    line = play_one("duplas-pontos", None, ("greedy",), 0, 0, record=True).line
    assert line is not None

    async def scenario() -> None:
        reviews = Reviews(_NoStore())  # type: ignore[arg-type]
        matches = ("m1", "m2", "m3", "m4")
        for match_id in matches:
            reviews.request(match_id, line)
        await asyncio.sleep(1.5)  # the review process is up, m1 runs, the others wait
        pool = reviews.workers.pool
        assert pool is not None
        manager = pool._executor_manager_thread  # type: ignore[attr-defined]
        processes = reviews.workers.processes
        assert manager is not None and manager.is_alive() and processes
        for task in list(reviews._running.values()):
            task.cancel()
        await asyncio.sleep(0.1)  # the loop runs: the cancellations reach what they reach
        for process in processes:
            process.kill()
        manager.join(timeout=15)  # the pool found its process dead and failed its queue
        assert not manager.is_alive()
        await asyncio.sleep(0.1)
        reviews.close()
        assert not any(reviews.running(m) for m in matches)
        assert reviews.failed == {}

    asyncio.run(scenario())


def test_close_returns_once_the_pool_is_down() -> None:
    """`close` waits for the pool's manager thread, not only for the review process: nothing of
    the pool is left running to race the event loop afterwards."""
    line = play_one("duplas-pontos", None, ("greedy",), 0, 0, record=True).line
    assert line is not None

    async def scenario() -> None:
        reviews = Reviews(_NoStore())  # type: ignore[arg-type]
        for match_id in ("m1", "m2", "m3", "m4"):
            reviews.request(match_id, line)
        await asyncio.sleep(1.5)
        pool = reviews.workers.pool
        assert pool is not None
        manager = pool._executor_manager_thread  # type: ignore[attr-defined]
        assert manager is not None and manager.is_alive()
        logged: list[dict[str, object]] = []
        asyncio.get_running_loop().set_exception_handler(lambda _loop, c: logged.append(c))
        reviews.close()
        assert not manager.is_alive()
        for _ in range(4):
            await asyncio.sleep(0.05)
        gc.collect()  # an asyncio future left holding the pool's error would log it now
        assert reviews.failed == {} and logged == []

    asyncio.run(scenario())


def test_a_dead_review_process_is_replaced() -> None:
    """The review process dies under a review (killed, out of memory): that review is failed and
    the next one starts a new process instead of failing at once until the server restarts."""
    line = play_one("duplas-pontos", None, ("greedy",), 0, 0, record=True).line
    assert line is not None

    async def scenario() -> None:
        reviews = Reviews(_NoStore())  # type: ignore[arg-type]
        reviews.request("m1", line)
        await asyncio.sleep(1.5)
        first = reviews.workers.pool
        assert first is not None
        for process in reviews.workers.processes:
            process.kill()
        end = time.monotonic() + 15
        while reviews.running("m1"):
            assert time.monotonic() < end, "the review of m1 outlived its process"
            await asyncio.sleep(0.05)
        assert "BrokenProcessPool" in reviews.failed["m1"]
        reviews.request("m2", line)
        await asyncio.sleep(1.5)
        second = reviews.workers.pool
        assert second is not None and second is not first
        alive = reviews.workers.processes
        assert alive and all(p.is_alive() for p in alive) and reviews.running("m2")
        reviews.close()
        await asyncio.sleep(0.1)

    asyncio.run(scenario())
