"""Worker processes on this machine: one job at a time each (a bot's decision, or one decision
of a review to judge), over a pipe.

Not a `ProcessPoolExecutor`: its own queue would take the order of jobs from the fair scheduler,
and one worker's death breaks the whole pool (every job in flight fails). Here each worker is a
spawned process with its own pipe, read by the event loop (`add_reader`, no thread): a dead
worker costs only its own job, which the service gives to another worker or answers with the
safe move, and the worker is started again on the next job. Workers run at a lower OS priority
(`nice`) than the socket process, ignore Ctrl-C (the terminal sends it to the whole process
group; the server stops them itself) and end when the server's end of their pipe closes, so a
killed server leaves none behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import signal
from collections.abc import Callable, Mapping
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from carroca.botservice.jobs import WORK, Work, think
from carroca.rules import Observation

#: How much lower the workers' OS priority is than the server's: the sockets come first.
NICE = 10
#: A worker still on a job this long after its budget has hung: it is killed and started again,
#: unless it spent less CPU than that on it (a starved worker: the machine is busy, and the
#: workers' idle scheduling class lets everything else run first; killing it would only add a
#: start's cost). A worker that waits this many times as long is killed whatever its CPU.
HANG_SECONDS = 10.0
STARVED_LIMIT = 6

Decide = Callable[[str, int, "int | None", Observation], str]
Answer = Callable[[int, "str | None", "str | None"], None]
Lost = Callable[[int], None]
Tasks = Mapping[str, Callable[[dict[str, Any]], str]]  # job kind -> what a worker does


def lower_priority(nice: int) -> None:
    """Below the sockets: a nicer process, and on Linux the idle scheduling class, so that the
    socket process preempts a thinking worker at once rather than after its time slice (the
    workers still have every core nobody else wants)."""
    if not nice:
        return
    with contextlib.suppress(OSError):
        os.nice(nice)
    with contextlib.suppress(OSError, AttributeError):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


def serve(conn: Connection, nice: int, decide: Decide, work: Tasks = WORK) -> None:
    """A worker's life: take a job, answer it, until the server's end of the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    lower_priority(nice)
    while True:
        try:
            job_id, kind, body = conn.recv()
        except (EOFError, OSError):
            return
        try:
            text = decide(*body) if kind == "decide" else work[kind](body)
            answer: tuple[Any, ...] = (job_id, text, None)
        except Exception as exc:  # the service falls back to the safe move
            answer = (job_id, None, f"{type(exc).__name__}: {exc}")
        try:
            conn.send(answer)
        except (BrokenPipeError, OSError):
            return


def cpu_seconds(pid: int | None) -> float | None:
    """The CPU a live process has used (Linux's /proc), None where it cannot be read."""
    if pid is None:
        return None
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / _TICKS


_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


class _Slot:
    __slots__ = ("conn", "cpu", "job", "process", "waited", "watch")

    def __init__(self) -> None:
        self.process: BaseProcess | None = None
        self.conn: Connection | None = None
        self.job: int | None = None
        self.watch: asyncio.TimerHandle | None = None
        self.cpu: float | None = None  # the worker's CPU when its job was sent
        self.waited = 0.0  # how long the job has been watched


class LocalBots:
    """`workers` processes on this machine (started at the first job)."""

    def __init__(self, workers: int, nice: int = NICE, decide: Decide = think,
                 work: Tasks = WORK) -> None:
        self.workers = max(1, workers)
        self.nice = nice
        self.decide = decide
        self.work = work
        self._slots = [_Slot() for _ in range(self.workers)]
        self._answer: Answer | None = None
        self._lost: Lost | None = None
        self.started = 0  # processes started, restarts included

    def connect(self, answer: Answer, lost: Lost) -> None:
        self._answer, self._lost = answer, lost

    async def start(self) -> None:
        """Nothing yet: the processes start with the first job (a server whose tables have no
        bots never pays for them)."""

    def busy(self) -> int:
        return sum(1 for s in self._slots if s.job is not None)

    def idle(self) -> int:
        return self.workers - self.busy()

    def alive(self) -> int:
        return sum(1 for p in self.processes if p.is_alive())

    @property
    def processes(self) -> list[BaseProcess]:
        """The worker processes alive now."""
        return [s.process for s in self._slots if s.process is not None]

    def send(self, job: Work, think_ms: int | None) -> None:
        slot = next(s for s in self._slots if s.job is None)
        if slot.process is None:
            self._start(slot)
        assert slot.conn is not None
        slot.job = job.id
        try:
            slot.conn.send((job.id, job.kind, job.body(think_ms)))
        except (BrokenPipeError, OSError):
            self._dead(slot)
            return
        budget = (think_ms or 0) / 1000
        assert slot.process is not None
        slot.cpu, slot.waited = cpu_seconds(slot.process.pid), 0.0
        self._watch(slot, job.id, budget + HANG_SECONDS)

    def _watch(self, slot: _Slot, job_id: int, seconds: float) -> None:
        slot.watch = asyncio.get_running_loop().call_later(
            seconds, self._hung, slot, job_id, seconds)

    def _start(self, slot: _Slot) -> None:
        ctx = multiprocessing.get_context("spawn")
        ours, theirs = ctx.Pipe(duplex=True)
        process = ctx.Process(target=serve, args=(theirs, self.nice, self.decide, self.work),
                              name="carroca-bot", daemon=True)
        process.start()
        theirs.close()  # the worker's death then reads as end of file here
        slot.process, slot.conn = process, ours
        asyncio.get_running_loop().add_reader(ours.fileno(), self._readable, slot)
        self.started += 1

    def _readable(self, slot: _Slot) -> None:
        conn = slot.conn
        if conn is None:
            return
        try:
            job_id, text, error = conn.recv()
        except (EOFError, OSError):
            self._dead(slot)
            return
        if job_id != slot.job:  # not the job it was given: a confused worker, replaced
            self._kill(slot)
            return
        self._free(slot)
        if self._answer is not None:
            self._answer(job_id, text, error)

    def _free(self, slot: _Slot) -> None:
        slot.job = None
        if slot.watch is not None:
            slot.watch.cancel()
            slot.watch = None

    def _dead(self, slot: _Slot) -> None:
        """The worker is gone: reap it; its job is the service's to place again."""
        job = slot.job
        self._free(slot)
        self._drop(slot)
        if job is not None and self._lost is not None:
            self._lost(job)

    def _drop(self, slot: _Slot, grace: float = 0.0) -> None:
        conn, process = slot.conn, slot.process
        slot.conn = slot.process = None
        if conn is not None:
            with contextlib.suppress(Exception):  # the loop may be closed already
                asyncio.get_running_loop().remove_reader(conn.fileno())
            conn.close()  # an idle worker reads end of file and exits by itself
        if process is not None:
            if grace and process.is_alive():
                process.terminate()
                process.join(timeout=grace)
            if process.is_alive():
                process.kill()
            process.join(timeout=2)

    def _hung(self, slot: _Slot, job_id: int, seconds: float) -> None:
        if slot.job != job_id:
            return
        slot.waited += seconds
        pid = slot.process.pid if slot.process is not None else None
        now, then = cpu_seconds(pid), slot.cpu
        starved = now is not None and then is not None and now - then < seconds
        if starved and slot.waited < seconds * STARVED_LIMIT:
            self._watch(slot, job_id, seconds)  # starved, not hung: wait for it
            return
        self._kill(slot)

    def _kill(self, slot: _Slot) -> None:
        if slot.process is not None and slot.process.is_alive():
            slot.process.kill()
        self._dead(slot)

    async def stop(self) -> None:
        self.close()

    def close(self) -> None:
        """Stop every worker (a job in flight is abandoned: its table is being stopped too)."""
        for slot in self._slots:
            self._free(slot)
            self._drop(slot, grace=2.0)
