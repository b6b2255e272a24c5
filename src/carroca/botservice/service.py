"""The server's side of the bot service: jobs in, checked moves out.

`BotService.decide` is the one call a table makes for a bot's move. It queues the job
(`FairQueue`), hands it to a free worker with a budget bent to the queue's depth (`bend`), and
answers with a `Decision` by the job's deadline whatever happens: a worker's move only if the
engine's legal moves for that seat include it, else the safe move (`safe_move`). A worker that
dies thinking costs its job one more try on another worker, or the safe move if too little time
is left. The workers are a backend (`LocalBots`: processes on this machine; `RedisBots`:
workers anywhere). `BotService.perform` runs the other jobs, a review's decisions to judge, on
the same workers behind every move.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from typing import Any, Protocol

from carroca.botservice.jobs import (
    INLINE_LEVELS,
    Decision,
    Job,
    Work,
    legal_texts,
    safe_move,
    think,
)
from carroca.botservice.local import LocalBots
from carroca.botservice.scheduler import FLOOR_MS, FairQueue, bend

#: A job taken with less time than this before its deadline is answered with the safe move.
MARGIN_SECONDS = 0.05

log = logging.getLogger("carroca.bots")


class Backend(Protocol):
    @property
    def workers(self) -> int: ...

    def connect(self, answer: Answer, lost: Lost) -> None: ...
    async def start(self) -> None: ...
    def idle(self) -> int: ...
    def busy(self) -> int: ...
    def alive(self) -> int:
        """Workers known to be there now (started processes alive, or heard from lately)."""

    def send(self, job: Work, think_ms: int | None) -> None: ...
    async def stop(self) -> None: ...


class Answer(Protocol):
    def __call__(self, job_id: int, text: str | None, error: str | None) -> None: ...


class Lost(Protocol):
    def __call__(self, job_id: int) -> None: ...


class JobFailed(RuntimeError):
    """A job that is not a move (a review's) got no answer: its worker failed, or its
    deadline passed. There is no safe answer to stand in for it: it may be asked again."""

    def __init__(self, kind: str, why: str) -> None:
        super().__init__(f"{kind} job {why}")
        self.why = why

    @property
    def late(self) -> bool:
        return self.why == "late"


class BotService:
    def __init__(self, backend: Backend, floor_ms: int = FLOOR_MS) -> None:
        self.backend = backend
        self.floor_ms = floor_ms
        self.queue = FairQueue()
        self._pending: dict[int, tuple[Work, asyncio.Future[Any]]] = {}
        self.outcomes: Counter[str] = Counter()  # decisions by source, for /api/stats and tests
        self.fallbacks: Counter[tuple[str, str]] = Counter()  # safe moves by (level, why)
        backend.connect(self._answered, self._lost)

    @property
    def workers(self) -> int:
        return self.backend.workers

    async def start(self) -> None:
        await self.backend.start()

    def depth(self) -> int:
        """Jobs waiting for a worker or being thought out."""
        return len(self.queue) + self.backend.busy()

    async def decide(self, job: Job) -> Decision:
        """The job's move, by its deadline (`job.deadline`, on the loop's clock)."""
        if len(job.view.legal) == 1:  # nothing to think about: every level plays it
            self.outcomes["forced"] += 1
            return Decision(str(job.view.legal[0]), "forced")
        if job.level in INLINE_LEVELS:
            self.outcomes["inline"] += 1
            return Decision(think(job.level, job.seed, None, job.view), "inline")
        decision: Decision = await self._queued(job)
        return decision

    async def perform(self, job: Work) -> str:
        """The worker's answer to a job that is not a move (`ReviewJob`), by its deadline;
        `JobFailed` if there is none. The caller checks the answer: workers are not trusted."""
        text: str = await self._queued(job)
        return text

    async def _queued(self, job: Work) -> Any:
        loop = asyncio.get_running_loop()
        done: asyncio.Future[Any] = loop.create_future()
        self._pending[job.id] = (job, done)
        self.queue.push(job)
        timer = loop.call_at(job.deadline, self._fall_back, job, "late")
        try:
            self._dispatch()
            return await done
        finally:  # answered, late, or the table gave up waiting (closed): forget the job
            timer.cancel()
            self._pending.pop(job.id, None)
            self.queue.remove(job)

    def _dispatch(self) -> None:
        loop = asyncio.get_running_loop()
        while self.backend.idle() > 0:
            job = self.queue.pop()
            if job is None:
                return
            entry = self._pending.get(job.id)
            if entry is None or entry[1].done():
                continue
            left = job.deadline - loop.time() - MARGIN_SECONDS
            if left <= 0:
                self._fall_back(job, "late")
                continue
            think_ms = job.think_ms
            if think_ms is not None:
                think_ms = bend(think_ms, self.queue.ahead(job.priority), self.backend.busy(),
                                self.backend.workers, self.floor_ms)
                think_ms = max(1, min(think_ms, int(left * 1000 / 2)))
            job.attempts += 1
            try:
                self.backend.send(job, think_ms)
            except Exception:  # no worker could be started (out of processes, memory)
                log.exception("a bot job could not be sent: safe move played")
                self._fall_back(job, "failed")

    def _answered(self, job_id: int, text: str | None, error: str | None) -> None:
        entry = self._pending.get(job_id)
        if entry is not None and not entry[1].done():
            job, done = entry
            if not isinstance(job, Job):  # checked by whoever asked for it
                if error is not None or text is None:
                    error = error or "an empty answer"
                    log.warning("a %s job failed: %s", job.kind, error)
                    self._fall_back(job, "failed")
                else:
                    self.outcomes[job.kind] += 1
                    done.set_result(text)
            elif error is not None:
                log.warning("bot job failed (%s), safe move played: %s", job.level, error)
                self._fall_back(job, "failed")
            elif text not in legal_texts(job.view):
                log.warning("a bot worker answered %r, not a legal move here: safe move played",
                            text)
                self._fall_back(job, "illegal")
            else:
                self.outcomes["worker"] += 1
                done.set_result(Decision(text, "worker", job.think_ms))
        self._dispatch()

    def _lost(self, job_id: int) -> None:
        """A worker died on this job: once more on another worker, if its deadline allows."""
        entry = self._pending.get(job_id)
        if entry is not None and not entry[1].done():
            job = entry[0]
            left = job.deadline - asyncio.get_running_loop().time() - MARGIN_SECONDS
            if left * 1000 > 2 * self.floor_ms and job.attempts < 2:
                log.warning("a bot worker died thinking; its job goes to another worker")
                self.queue.push(job, front=True)
            else:
                self._fall_back(job, "failed")
        self._dispatch()

    def _fall_back(self, job: Work, why: str) -> None:
        entry = self._pending.get(job.id)
        if entry is None or entry[1].done():
            return
        self.queue.remove(job)
        if isinstance(job, Job):
            self.outcomes[f"fallback:{why}"] += 1
            self.fallbacks[job.level, why] += 1
            entry[1].set_result(Decision(safe_move(job.view, job.seed), f"fallback:{why}"))
        else:
            self.outcomes[f"{job.kind}:{why}"] += 1
            entry[1].set_exception(JobFailed(job.kind, why))

    async def stop(self) -> None:
        """Stop the workers; a job still waiting is abandoned (its table is being stopped)."""
        for _job, done in list(self._pending.values()):
            if not done.done():
                done.cancel()
        self._pending.clear()
        await self.backend.stop()


def local_service(workers: int, floor_ms: int = FLOOR_MS) -> BotService:
    return BotService(LocalBots(workers), floor_ms)


__all__ = ["Backend", "BotService", "JobFailed", "LocalBots", "local_service"]
