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
import math
import secrets
from typing import Any

from carroca import record
from carroca.analysis import (
    DEFAULT_WORLDS,
    TOP_OPTIONS,
    Decision,
    Turn,
    assemble,
    decision_from_json,
    default_threshold,
    judge_turn,
    plan_match,
    to_json,
)
from carroca.botservice import BotService, JobFailed, ReviewJob
from carroca.botservice.jobs import REVIEW_SEED
from carroca.server.storage.store import Store

MAX_PENDING = 8  # reviews in progress at once: more waits for one of them to end
#: More points than any hand of any ruleset is worth: a figure beyond is not a judgement.
MOST_POINTS = 1000.0
#: Of a review's decisions, one in this many (at least two) is judged again here, in a
#: thread, and must come out the same: a worker's values cannot be checked otherwise.
RECHECK_ONE_IN = 8
#: A review's decisions wait behind every bot move; one still unanswered this long after it was
#: asked for is given up (asked again, it starts again).
DEADLINE_SECONDS = 600.0

log = logging.getLogger("carroca.server")


class ReviewsBusy(RuntimeError):
    """Too many reviews are being produced; ask again later."""


class BadAnswer(ValueError):
    """A worker's judged decision does not fit the record."""


def check(turn: Turn, text: str, threshold: float) -> Decision:
    """The worker's answer for `turn`, if it judges that decision of the record, and its
    figures hold together as the engine's judgement does (`analysis._judge`): every option is
    a legal action of that seat there, each once, best first; the best is the top option (or
    the one played, when as good); the loss is their difference, within the points a hand can
    be worth; a mistake is a loss from the ruleset's threshold. What only the worlds can tell
    (the values themselves) is recomputed for a sample (`Reviews._recheck`)."""
    try:
        decision = decision_from_json(turn.hand, json.loads(text))
    except ValueError as exc:  # JSONDecodeError included
        raise BadAnswer(f"not a judged decision: {exc}") from None
    where = f"hand {turn.hand} step {turn.index}"
    if (decision.index, decision.seat, decision.played) != (turn.index, turn.seat, turn.action):
        raise BadAnswer(f"an answer for another decision than {where}")
    actions = [o.action for o in decision.options]
    values = [o.value for o in decision.options]
    if any(a not in turn.legal for a in actions) or len(set(actions)) != len(actions) or \
            decision.best not in turn.legal:
        raise BadAnswer(f"an answer that rates actions the seat could not play ({where})")
    if decision.played not in actions or decision.best not in actions or \
            not all(abs(v) <= MOST_POINTS for v in values) or not 1 <= len(actions) <= \
            TOP_OPTIONS + 1 or decision.worlds < 0:
        raise BadAnswer(f"an answer that does not rate what it judges ({where})")
    top = max(values[:TOP_OPTIONS]) if values else 0.0
    shown = sorted(values[:TOP_OPTIONS], reverse=True) == values[:TOP_OPTIONS]
    played = values[actions.index(decision.played)]
    best = values[actions.index(decision.best)]
    loss = round(best - played, 3)
    if not shown or best < top or decision.loss != loss or \
            decision.mistake != (loss > 0 and loss >= threshold):
        raise BadAnswer(f"an answer whose figures do not hold together ({where})")
    return decision


def _sample(items: list[Decision], k: int) -> list[Decision]:
    """k of them, chosen by the node's own randomness (a worker cannot guess which)."""
    chosen = list(items)
    secrets.SystemRandom().shuffle(chosen)
    return chosen[:k]


class Reviews:
    def __init__(self, store: Store, bots: BotService) -> None:
        self.store = store
        self.bots = bots
        self._running: dict[str, asyncio.Task[None]] = {}
        self.failed: dict[str, str] = {}  # match -> why its review could not be produced
        self.stored: dict[str, str] = {}  # reviews this process stored, latest last
        self._closing = False

    @property
    def pending(self) -> int:
        """Reviews being produced now."""
        return len(self._running)

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

        threshold = default_threshold(match.ruleset.name)

        async def judged(turn: Turn) -> Decision:
            job = ReviewJob(key=key, record=record_text, hand=turn.hand, index=turn.index,
                            deadline=deadline)
            return check(turn, await self.bots.perform(job), threshold)

        # A task group: the first failure cancels the review's other jobs (dropped from the queue)
        try:
            async with asyncio.TaskGroup() as group:
                tasks = [group.create_task(judged(turn)) for turn in turns]
        except ExceptionGroup as failures:
            raise failures.exceptions[0] from None
        decisions = [t.result() for t in tasks]
        await self._recheck(match, decisions)
        analysis = assemble(match, rec["players"], plans, decisions,
                            seed=REVIEW_SEED, worlds=DEFAULT_WORLDS)
        text = json.dumps(to_json(analysis), separators=(",", ":"), ensure_ascii=False)
        await self.store.set_analysis(match_id, text)
        self.stored[match_id] = text
        while len(self.stored) > MAX_PENDING * 4:  # only the latest few: the database has them
            del self.stored[next(iter(self.stored))]

    async def _recheck(self, match: Any, decisions: list[Decision]) -> None:
        """Judge a random sample of the decisions again, here: the workers' answers must be
        the engine's (a review's worlds and seed make it the same on any machine). One that
        differs drops the whole review: its worker is not to be trusted with the rest."""
        if not decisions:
            return
        count = max(2, math.ceil(len(decisions) / RECHECK_ONE_IN))
        for d in _sample(decisions, min(count, len(decisions))):
            again = await asyncio.to_thread(judge_turn, match, d.hand, d.index,
                                            seed=REVIEW_SEED, worlds=DEFAULT_WORLDS)
            if again != d:
                raise BadAnswer(f"a worker's judgement of hand {d.hand} step {d.index} is not "
                                "the engine's")

    async def close(self) -> None:
        """Stop: a review still running is abandoned (it is produced again when asked); its
        jobs leave the queue (a worker on one of them finishes it, and the answer is dropped)."""
        self._closing = True
        tasks = list(self._running.values())
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks)
