"""Post-game reviews by the expert bot, produced on request for finished matches.

A review rates every decision of a match with sampled worlds: seconds of CPU in all. It is not
one long job: the node plans it (which steps are decisions: the engine replays the record in
milliseconds) and sends each decision to judge as a job of its own (`ReviewJob`) to the bot
service's workers, in the review class of the fair queue: behind every bot move, round robin
over the reviews asked for. So a review holds a worker for one decision at a time (~40 ms), and
never delays a move by more than that. Every answer is checked against the record (the same
step, seat and action played, rated among the options) before the review is put together and
stored with the match, so it is computed once.

Its budget is a count of worlds with seed 0, never wall time, so a review is the same on any
machine and the same as `carroca analyze` gives.
"""

from __future__ import annotations

import asyncio
import json
import logging

from carroca import record
from carroca.analysis import (
    DEFAULT_WORLDS,
    Decision,
    Turn,
    assemble,
    decision_from_json,
    plan_match,
    to_json,
)
from carroca.botservice import BotService, JobFailed, ReviewJob
from carroca.botservice.jobs import REVIEW_SEED
from carroca.server.storage.store import Store

MAX_PENDING = 8  # reviews in progress at once: more waits for one of them to end
#: A review's decisions wait behind every bot move; one still unanswered this long after it was
#: asked for is given up (asked again, it starts again).
DEADLINE_SECONDS = 600.0

log = logging.getLogger("carroca.server")


class ReviewsBusy(RuntimeError):
    """Too many reviews are being produced; ask again later."""


class BadAnswer(ValueError):
    """A worker's judged decision does not fit the record."""


def check(turn: Turn, text: str) -> Decision:
    """The worker's answer for `turn`, if it judges that decision of the record."""
    try:
        decision = decision_from_json(turn.hand, json.loads(text))
    except ValueError as exc:  # JSONDecodeError included
        raise BadAnswer(f"not a judged decision: {exc}") from None
    rated = {o.action for o in decision.options}
    if (decision.index, decision.seat, decision.played) != (turn.index, turn.seat, turn.action):
        raise BadAnswer(f"an answer for another decision than hand {turn.hand} step {turn.index}")
    if decision.played not in rated or decision.best not in rated or decision.loss < 0:
        raise BadAnswer(f"an answer that does not rate what it judges (step {turn.index})")
    return decision


class Reviews:
    def __init__(self, store: Store, bots: BotService) -> None:
        self.store = store
        self.bots = bots
        self._running: dict[str, asyncio.Task[None]] = {}
        self.failed: dict[str, str] = {}  # match -> why its review could not be produced
        self.stored: dict[str, str] = {}  # reviews this process stored, latest last
        self._closing = False

    def running(self, match_id: str) -> bool:
        """Being produced, or stored a moment ago (a reader may still hold the older row)."""
        return match_id in self._running or match_id in self.stored

    def request(self, match_id: str, record_text: str) -> None:
        """Start the review of a finished match unless it is already being produced."""
        if match_id in self._running:
            return
        if len(self._running) >= MAX_PENDING:
            raise ReviewsBusy(match_id)
        task = asyncio.get_running_loop().create_task(self._run(match_id, record_text))
        self._running[match_id] = task
        task.add_done_callback(lambda t: self._done(match_id, t))

    def _done(self, match_id: str, task: asyncio.Task[None]) -> None:
        self._running.pop(match_id, None)
        error = None if task.cancelled() else task.exception()
        if error is None or self._closing:  # stopped by `close` is not failed: asked again, it
            return                          # is produced again
        if isinstance(error, JobFailed):  # the workers are behind or away for a moment (late,
            log.warning("review of %s given up: %s", match_id, error)  # a worker died, Redis
            return  # down): not the match's fault; asked again, it starts again
        self.failed[match_id] = repr(error)
        log.error("review of %s failed", match_id, exc_info=error)

    async def _run(self, match_id: str, record_text: str) -> None:
        rec = record.loads(record_text)
        match = record.verify(rec)
        plans = plan_match(match)
        turns = [turn for plan in plans for turn in plan.turns]
        deadline = asyncio.get_running_loop().time() + DEADLINE_SECONDS
        key = f"review:{match_id}"

        async def judged(turn: Turn) -> Decision:
            job = ReviewJob(key=key, record=record_text, hand=turn.hand, index=turn.index,
                            deadline=deadline)
            return check(turn, await self.bots.perform(job))

        # A task group: the first failure cancels the review's other jobs (dropped from the queue)
        try:
            async with asyncio.TaskGroup() as group:
                tasks = [group.create_task(judged(turn)) for turn in turns]
        except ExceptionGroup as failures:
            raise failures.exceptions[0] from None
        analysis = assemble(match, rec["players"], plans, [t.result() for t in tasks],
                            seed=REVIEW_SEED, worlds=DEFAULT_WORLDS)
        text = json.dumps(to_json(analysis), separators=(",", ":"), ensure_ascii=False)
        await self.store.set_analysis(match_id, text)
        self.stored[match_id] = text
        while len(self.stored) > MAX_PENDING * 4:  # only the latest few: the database has them
            del self.stored[next(iter(self.stored))]

    async def close(self) -> None:
        """Stop: a review still running is abandoned (it is produced again when asked); its
        jobs leave the queue (a worker on one of them finishes it, and the answer is dropped)."""
        self._closing = True
        tasks = list(self._running.values())
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks)
