"""Worker processes for CPU-heavy jobs (bots-only tables' decisions, post-game reviews).

One `ProcessPoolExecutor` (spawned, so no event loop or sockets are inherited), with the two
things the standard pool leaves to its user:

- a job awaited from a task that gets cancelled must not cancel the pool's future: only the pool's
  manager thread may settle it. A future cancelled from the event loop and then failed by that
  thread (its process died) raises `InvalidStateError` there, and the queue behind it is lost;
- a pool whose process died (killed, out of memory) is broken for good: the next job starts a new
  pool instead of failing at once until the server restarts.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

T = TypeVar("T")


class ProcessWorkers:
    def __init__(self, workers: int, initializer: Callable[[], None] | None = None) -> None:
        self.workers = max(1, workers)
        self._initializer = initializer
        self._pool: ProcessPoolExecutor | None = None

    @property
    def processes(self) -> list[BaseProcess]:
        """The pool's processes now (none before the first job)."""
        return list((getattr(self._pool, "_processes", None) or {}).values())

    @property
    def pool(self) -> ProcessPoolExecutor | None:
        return self._pool

    async def run(self, job: Callable[..., T], *args: Any) -> T:
        pool = self._pool
        if pool is None or getattr(pool, "_broken", False):
            pool = self._pool = ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context("spawn"),
                initializer=self._initializer,
            )
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[T] = loop.create_future()

        def settle(done: Future[T]) -> None:  # in the pool's thread, or here if already done
            def hand_over() -> None:
                if waiter.done():  # cancelled: nobody wants the result or the error any more
                    return
                if done.cancelled():
                    waiter.cancel()
                elif (error := done.exception()) is not None:
                    waiter.set_exception(error)
                else:
                    waiter.set_result(done.result())

            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
                loop.call_soon_threadsafe(hand_over)

        # Not `wrap_future`: cancelling the waiter must not cancel the pool's future, and a
        # result or error that comes after the waiter was cancelled is dropped, not left in an
        # asyncio future to be logged as never retrieved.
        pool.submit(job, *args).add_done_callback(settle)
        try:
            return await waiter
        except BrokenProcessPool:
            if self._pool is pool:
                self._pool = None
            raise

    def close(self) -> None:
        """Stop: running jobs are abandoned (whoever awaits them is being stopped too), their
        processes ended and reaped, and the pool's manager thread waited for."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        processes = list((getattr(pool, "_processes", None) or {}).values())
        for process in processes:
            if process.is_alive():
                process.terminate()
        # One call that waits: a first `shutdown(wait=False)` forgets the manager thread, and a
        # later `shutdown(wait=True)` then waits for nothing.
        pool.shutdown(wait=True, cancel_futures=True)
        for process in processes:
            process.join(timeout=5)
            if process.is_alive():  # it did not take the hint: no job is worth a hang
                process.kill()
                process.join(timeout=5)
