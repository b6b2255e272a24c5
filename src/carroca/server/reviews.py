"""Post-game reviews by the expert bot, produced on request for finished matches.

A review replays the record and rates every decision with sampled worlds: seconds of CPU. It
runs in a separate process (one at a time), so live tables never wait for it, and is stored with
the match so it is computed once.
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
from concurrent.futures import ProcessPoolExecutor

from carroca.server.store import Store


def _review(record_text: str) -> str:
    from carroca import record
    from carroca.analysis import analyze_match, to_json

    rec = record.loads(record_text)
    match = record.verify(rec)
    return json.dumps(to_json(analyze_match(match, rec["players"], seed=0)),
                      separators=(",", ":"), ensure_ascii=False)


MAX_PENDING = 8  # reviews queued at once: more waits for the queue to drain


class ReviewsBusy(RuntimeError):
    """Too many reviews are being produced; ask again later."""


class Reviews:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._pool: ProcessPoolExecutor | None = None
        self._running: dict[str, asyncio.Task[None]] = {}
        self.failed: dict[str, str] = {}  # match -> why its review could not be produced

    def running(self, match_id: str) -> bool:
        return match_id in self._running

    def request(self, match_id: str, record_text: str) -> None:
        """Start the review of a finished match unless it is already being produced."""
        if match_id in self._running:
            return
        if len(self._running) >= MAX_PENDING:
            raise ReviewsBusy(match_id)
        if self._pool is None:
            self._pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
        task = asyncio.get_running_loop().create_task(self._run(match_id, record_text))
        self._running[match_id] = task
        task.add_done_callback(lambda t: self._done(match_id, t))

    def _done(self, match_id: str, task: asyncio.Task[None]) -> None:
        self._running.pop(match_id, None)
        if not task.cancelled() and task.exception() is not None:
            self.failed[match_id] = repr(task.exception())
            logging.getLogger("carroca.server").error(
                "review of %s failed", match_id, exc_info=task.exception()
            )

    async def _run(self, match_id: str, record_text: str) -> None:
        assert self._pool is not None
        text = await asyncio.get_running_loop().run_in_executor(self._pool, _review, record_text)
        await self.store.set_analysis(match_id, text)

    def close(self) -> None:
        for task in self._running.values():
            task.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
