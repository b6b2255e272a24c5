"""A rogue bot worker's reviews are refused, whatever it forges.

Before: a consumer on the jobs stream answered 131 review jobs with forged judgements (a loss
of 99.5, "best" moves with tiles the player never held) and every review was stored and shown
publicly. After: an answer that rates actions the seat could not play, or whose figures do not
hold together, fails its review at once; a forgery whose figures do hold together is caught by
the node judging a sample of the decisions again, and the review is dropped, not stored.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest
from tests.support.reviews import ReviewStore, a_record, analyzed, finished

from carroca.botservice import BotService
from carroca.botservice.jobs import WORK, Work
from carroca.server.tables.reviews import Reviews

Forge = Callable[[dict[str, Any]], dict[str, Any]]


class RogueWorkers:
    """A backend whose workers judge as the engine does, then forge what `forge` says."""

    def __init__(self, forge: Forge) -> None:
        self.forge = forge
        self.workers = 2
        self._answer: Any = None

    def connect(self, answer: Any, lost: Any) -> None:
        self._answer = answer

    async def start(self) -> None:
        return None

    def idle(self) -> int:
        return self.workers

    def busy(self) -> int:
        return 0

    def alive(self) -> int:
        return self.workers

    def send(self, job: Work, think_ms: int | None) -> None:
        honest = json.loads(WORK[job.kind](job.message(think_ms)))
        text = json.dumps(self.forge(honest))
        asyncio.get_running_loop().call_soon(self._answer, job.id, text, None)

    async def stop(self) -> None:
        return None


def tiles_never_held(d: dict[str, Any]) -> dict[str, Any]:
    return {**d, "best": "6-6:left", "loss": 99.5, "mistake": True,
            "options": [{"action": "6-6:left", "value": 120.0}, *d["options"]]}


def a_consistent_lie(d: dict[str, Any]) -> dict[str, Any]:
    """The played action made out to be a blunder, every figure agreeing with the others."""
    options = [dict(o) for o in d["options"]]
    played = next(o for o in options if o["action"] == d["played"])
    others = [o for o in options if o is not played]
    if not others:
        return d
    played["value"] = round(others[0]["value"] - 99.5, 3)
    shown = [*sorted(others, key=lambda o: -o["value"]), played]
    best = shown[0]
    return {**d, "best": best["action"], "loss": round(best["value"] - played["value"], 3),
            "mistake": True, "options": shown}


@pytest.mark.parametrize("forge", [tiles_never_held, a_consistent_lie],
                         ids=["actions-not-legal", "figures-consistent"])
def test_a_forged_review_is_not_stored(forge: Forge) -> None:
    line = a_record("mano-a-mano", 3)

    async def scenario() -> tuple[ReviewStore, Reviews]:
        store = ReviewStore()
        reviews = Reviews(store, BotService(RogueWorkers(forge)))  # type: ignore[arg-type]
        try:
            reviews.request("m1", line)
            await finished(reviews, "m1")
        finally:
            await reviews.close()
        return store, reviews

    store, reviews = asyncio.run(scenario())
    assert store.analyses == {}
    assert "m1" in reviews.failed


def test_an_honest_worker_passes_the_same_checks() -> None:
    line = a_record("mano-a-mano", 3)

    async def scenario() -> ReviewStore:
        store = ReviewStore()
        reviews = Reviews(store, BotService(RogueWorkers(lambda d: d)))  # type: ignore[arg-type]
        try:
            reviews.request("m1", line)
            await finished(reviews, "m1")
        finally:
            await reviews.close()
        assert reviews.failed == {}
        return store

    assert asyncio.run(scenario()).analyses["m1"] == analyzed(line)
