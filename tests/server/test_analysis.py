"""The expert's post-game review over HTTP: produced once on request, after the end only."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import threading
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.support import bot_workers as W
from tests.support.reviews import ReviewStore, a_record, analyzed, finished
from tests.support.server_app import guest, settings_for, wait_finished

from carroca.botservice import BotService, Job, LocalBots, Priority
from carroca.rules import observation
from carroca.server.app import create_app
from carroca.server.tables.reviews import MAX_PENDING, Reviews

# Stored state is this module's subject: `make unit-postgres` runs it again on PostgreSQL.
pytestmark = pytest.mark.postgres


@pytest.mark.slow
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


def test_reviews_queue_is_bounded(database: str, monkeypatch: pytest.MonkeyPatch) -> None:
    client = TestClient(create_app(settings_for(database, max_bot_matches_per_player=20)))
    with client:
        reviews_fill_the_queue(client, monkeypatch)


def reviews_fill_the_queue(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Reviews held before they are stored (the workers that judge them are real; a match may
    have no decision to judge): the ninth asked for while eight are running is refused with
    503, and accepted once one of them ends."""
    guest(client, "caio")
    ids = []
    for _ in range(MAX_PENDING + 1):
        created = client.post("/api/matches", json={
            "ruleset": "bloqueio", "options": {"target": 1}, "seats": ["bot:greedy"] * 2,
        }).json()
        ids.append(created["id"])
    for match_id in ids:
        wait_finished(client, match_id)
    store = client.app.state.reviews.store  # type: ignore[attr-defined]
    gate = threading.Event()
    set_analysis = store.set_analysis

    async def held(match_id: str, text: str) -> None:  # every review ends here, jobs or none
        while not gate.is_set():
            await asyncio.sleep(0.01)
        await set_analysis(match_id, text)

    monkeypatch.setattr(store, "set_analysis", held)
    answers = [client.get(f"/api/matches/{m}/analysis").status_code for m in ids]
    assert answers == [202] * MAX_PENDING + [503], answers
    gate.set()
    end = time.monotonic() + 120
    while client.get(f"/api/matches/{ids[-1]}/analysis").status_code == 503:
        assert time.monotonic() < end, "no review ended: the queue stays full"
        time.sleep(0.1)


def service(workers: int = 1, **backend: Any) -> BotService:
    return BotService(LocalBots(workers, nice=0, **backend))


async def review_then_stop(reviews: Reviews, bots: BotService, line: str,
                           seconds: float = 120) -> None:
    """Ask for the review of `line` (as match "m1") and wait for it to end; the reviews and the
    bots are stopped whatever happens."""
    try:
        reviews.request("m1", line)
        await finished(reviews, "m1", seconds)
    finally:
        await reviews.close()
        await bots.stop()


@pytest.mark.slow
def test_a_review_in_jobs_is_what_carroca_analyze_says() -> None:
    """Split into one job per decision on two workers, put back together: the same review, to
    the byte, as the one-process analysis (the same worlds and seeds)."""
    line = a_record("mano-a-mano", 3)

    async def scenario() -> None:
        bots, store = service(2), ReviewStore()
        reviews = Reviews(store, bots)  # type: ignore[arg-type]
        await review_then_stop(reviews, bots, line)
        assert reviews.failed == {}
        assert store.analyses["m1"] == analyzed(line)
        assert bots.outcomes["judge"] == sum(
            len(h["decisions"]) for h in json.loads(store.analyses["m1"])["hands"])

    asyncio.run(scenario())


def test_a_move_waits_for_one_judged_decision_at_most() -> None:
    """A review on the only worker does not hold a table's bot: the move is the next job the
    worker takes, and is answered while the review is still going on."""
    line = a_record()

    async def scenario() -> None:
        bots, store = service(1), ReviewStore()
        reviews = Reviews(store, bots)  # type: ignore[arg-type]
        try:
            reviews.request("m1", line)
            while bots.outcomes["judge"] < 2:  # the worker is up and judging
                await asyncio.sleep(0.02)
            job = a_move_job()
            started = time.monotonic()
            decision = await bots.decide(job)
            waited = time.monotonic() - started
            assert decision.source == "worker", decision
            assert reviews.running("m1") and "m1" not in store.analyses, (
                "the review ended before the move: nothing was shown")
            assert waited < 1.5, waited  # one decision judged (~40 ms) and the move's think
        finally:
            await reviews.close()
            await bots.stop()

    asyncio.run(scenario())


def a_move_job() -> Job:
    """A medium bot's move (a job, not decided in place) early in a 2v2 hand."""
    from carroca.rules import Match

    match = Match("duplas-pontos")
    match.deal(list(range(28)))
    while True:  # the first seat with a choice
        seat = match.current_player
        assert seat is not None
        view = observation(match, seat)
        if len(view.legal) > 1:
            break
        match.apply(view.legal[0], seat)
    return Job(key="t", level="medium", view=view, seed=1, priority=Priority.PEOPLE,
               deadline=asyncio.get_running_loop().time() + 5)


def test_close_abandons_a_running_review() -> None:
    """Stopping the server abandons a review in progress: its jobs leave the queue, nothing is
    stored or counted as failed, and the worker it was on is stopped with the bot service."""
    line = a_record()

    async def scenario() -> None:
        backend = LocalBots(1, nice=0)
        bots, store = BotService(backend), ReviewStore()
        reviews = Reviews(store, bots)  # type: ignore[arg-type]
        reviews.request("m1", line)
        while bots.outcomes["judge"] < 1:
            await asyncio.sleep(0.02)
        processes = backend.processes
        assert processes and all(p.is_alive() for p in processes)
        await reviews.close()
        assert not reviews.running("m1") and reviews.failed == {} and len(bots.queue) == 0
        await bots.stop()
        assert not any(p.is_alive() for p in processes)
        assert store.analyses == {}

    asyncio.run(scenario())


@pytest.mark.slow
def test_a_worker_killed_under_a_review_costs_one_retry(tmp_path: Any) -> None:
    """The worker dies on one of the review's decisions: that decision goes to the restarted
    worker and the review is the same as if nothing had happened."""
    line = a_record("mano-a-mano", 3)

    async def scenario() -> None:
        backend = LocalBots(1, nice=0)
        bots, store = BotService(backend), ReviewStore()
        reviews = Reviews(store, bots)  # type: ignore[arg-type]
        try:
            reviews.request("m1", line)
            while bots.outcomes["judge"] < 1:
                await asyncio.sleep(0.01)
            first = backend.processes[0]
            assert first.pid is not None
            os.kill(first.pid, signal.SIGKILL)
            await finished(reviews, "m1")
            assert backend.started == 2
        finally:
            await reviews.close()
            await bots.stop()
        assert reviews.failed == {} and store.analyses["m1"] == analyzed(line)

    asyncio.run(scenario())


def test_a_worker_that_judges_another_decision_is_refused() -> None:
    """A malicious or broken worker's judged decision that does not fit the record (another
    step, another action, values that do not rate it): the review fails, nothing is stored."""
    line = a_record("mano-a-mano", 3)

    async def scenario() -> None:
        for kind in ("judge_another_step", "judge_nonsense"):
            bots = service(1, work={"judge": getattr(W, kind)})
            store = ReviewStore()
            reviews = Reviews(store, bots)  # type: ignore[arg-type]
            await review_then_stop(reviews, bots, line, 60)
            assert "BadAnswer" in reviews.failed["m1"], (kind, reviews.failed)
            assert store.analyses == {}

    asyncio.run(scenario())


def test_a_review_late_behind_the_moves_is_given_up_not_failed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A review whose decisions wait past its deadline (the workers busy with moves) is given
    up, not marked failed: asked again, it starts again."""
    line = a_record()

    async def scenario() -> None:
        bots, store = service(1, work={"judge": W.judge_slowly}), ReviewStore()
        reviews = Reviews(store, bots)  # type: ignore[arg-type]
        monkeypatch.setattr("carroca.server.tables.reviews.DEADLINE_SECONDS", 0.5)
        await review_then_stop(reviews, bots, line, 30)
        assert reviews.failed == {} and store.analyses == {}
        assert bots.outcomes["judge:late"] >= 1

    asyncio.run(scenario())

