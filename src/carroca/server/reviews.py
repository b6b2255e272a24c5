"""Post-game reviews by the expert bot, produced on request for finished matches.

A review replays the record and rates every decision with sampled worlds: seconds of CPU. It
runs in a separate process (one at a time), so live tables never wait for it, and is stored with
the match so it is computed once. Its budget is a count of worlds with seed 0, never wall time,
so a review is the same on any machine (and the same as `carroca analyze` gives).

The review process ignores Ctrl-C (a terminal sends it to the server's whole process group): the
server stops it itself when it shuts down, so no traceback and no leaked semaphores are left.
"""

from __future__ import annotations

import asyncio
import json
import logging
import signal

from carroca.server.store import Store
from carroca.server.workers import ProcessWorkers


def _review(record_text: str) -> str:
    from carroca import record
    from carroca.analysis import DEFAULT_WORLDS, analyze_match, to_json

    rec = record.loads(record_text)
    match = record.verify(rec)
    analysis = analyze_match(match, rec["players"], think_ms=0, seed=0, worlds=DEFAULT_WORLDS)
    return json.dumps(to_json(analysis), separators=(",", ":"), ensure_ascii=False)


def _in_review_process() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


MAX_PENDING = 8  # reviews queued at once: more waits for the queue to drain


class ReviewsBusy(RuntimeError):
    """Too many reviews are being produced; ask again later."""


class Reviews:
    def __init__(self, store: Store) -> None:
        self.store = store
        self.workers = ProcessWorkers(1, initializer=_in_review_process)
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
        self.failed[match_id] = repr(error)
        logging.getLogger("carroca.server").error("review of %s failed", match_id, exc_info=error)

    async def _run(self, match_id: str, record_text: str) -> None:
        text = await self.workers.run(_review, record_text)
        await self.store.set_analysis(match_id, text)
        self.stored[match_id] = text
        while len(self.stored) > MAX_PENDING * 4:  # only the latest few: the database has them
            del self.stored[next(iter(self.stored))]

    def close(self) -> None:
        """Stop: a review still running is abandoned (it is produced again when asked), and the
        review process is ended and waited for, its queues released."""
        self._closing = True
        for task in self._running.values():
            task.cancel()
        self.workers.close()  # a review takes seconds of CPU: nobody waits for it now
