"""The bot service with real worker processes: answers checked by the engine, deadlines kept,
workers that die or misbehave replaced by the safe move or another worker."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tests.support import bot_workers as W
from tests.support.bot_workers import a_view

from carroca.botservice import BotService, Job, LocalBots, Priority, local, safe_move
from carroca.botservice.local import Decide


def job(level: str = "medium", deadline: float = 5.0, think_ms: int | None = None,
        key: str = "t") -> Job:
    loop = asyncio.get_running_loop()
    return Job(key=key, level=level, view=a_view(), seed=7, priority=Priority.PEOPLE,
               think_ms=think_ms, deadline=loop.time() + deadline)


def run(body: Callable[[BotService], Any], workers: int = 1, decide: Decide | None = None
        ) -> Any:
    async def main() -> Any:
        backend = LocalBots(workers, nice=0, **({"decide": decide} if decide else {}))
        service = BotService(backend)
        try:
            return await body(service)
        finally:
            await service.stop()
            assert not any(p.is_alive() for p in backend.processes)
    return asyncio.run(main())


def test_a_worker_thinks_and_its_move_is_legal() -> None:
    async def body(service: BotService) -> None:
        for level in ("medium", "expert"):
            j = job(level, think_ms=50)
            decision = await service.decide(j)
            assert decision.source == "worker"
            assert decision.action in {str(a) for a in j.view.legal}
        assert service.outcomes["worker"] == 2
    run(body)


def test_cheap_levels_are_decided_in_place() -> None:
    async def body(service: BotService) -> None:
        decision = await service.decide(job("greedy"))
        assert decision.source == "inline"
        assert service.backend.busy() == 0 and not service.backend.processes  # type: ignore
    run(body)


@pytest.mark.parametrize("decide", [W.another_seats_tile, W.nonsense])
def test_an_illegal_answer_is_refused_and_the_safe_move_played(decide: Decide) -> None:
    async def body(service: BotService) -> None:
        j = job()
        decision = await service.decide(j)
        assert decision.source == "fallback:illegal"
        assert decision.action == safe_move(j.view, j.seed)
        assert decision.action in {str(a) for a in j.view.legal}
    run(body, decide=decide)


def test_another_seats_tile_is_what_the_malicious_worker_sends() -> None:
    """The refusal above is the engine's: the worker's move really is a tile the seat lacks."""
    async def body() -> None:
        j = job()
        text = W.another_seats_tile(j.level, j.seed, None, j.view)
        assert text not in {str(a) for a in j.view.legal}
        tile = text.split(":")[0]
        assert tile not in {str(a).split(":")[0] for a in j.view.legal}
    asyncio.run(body())


def test_a_failing_worker_answers_with_the_safe_move() -> None:
    async def body(service: BotService) -> None:
        decision = await service.decide(job())
        assert decision.source == "fallback:failed"
    run(body, decide=W.crash)


@pytest.mark.slow
def test_a_late_worker_is_not_waited_for() -> None:
    async def body(service: BotService) -> None:
        loop = asyncio.get_running_loop()
        # The worker starts with the first job (its 3 s included): started before the timing.
        await service.decide(job(deadline=10.0))
        started = loop.time()
        decision = await service.decide(job(deadline=1.0))
        waited = loop.time() - started
        assert decision.source == "fallback:late"
        assert waited < 2.5  # the deadline (1 s), not the worker's 3 s
    run(body, decide=W.slow)


@pytest.mark.slow
@pytest.mark.parametrize(("decide", "killed"), [(W.slow, False), (W.spin, True)])
def test_a_worker_that_overstays_is_killed_only_when_it_spins(
        decide: Decide, killed: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past its budget and the hang allowance (1 s here), a worker that burned that much CPU
    is hung and replaced; one that waited without the CPU (starved by a busy machine: here
    asleep for 3 s) is let finish and answers."""
    monkeypatch.setattr(local, "HANG_SECONDS", 1.0)

    async def body(service: BotService) -> None:
        backend: LocalBots = service.backend  # type: ignore[assignment]
        decision = await service.decide(job(deadline=4.0 if killed else 20.0))
        if killed:
            # Killed once it burned the allowance: before the move's deadline, and its job went
            # to a new worker; or, on a machine so busy that even a spinning worker gets
            # little CPU, after it (when its starved waits run out), with no job left to place.
            spinning = backend.processes[0] if backend.started == 1 else None
            limit = asyncio.get_running_loop().time() + 30.0
            while spinning is not None and spinning.is_alive() and \
                    asyncio.get_running_loop().time() < limit:
                await asyncio.sleep(0.05)
            assert backend.started >= 2 or (spinning is not None and not spinning.is_alive())
        else:
            assert decision.source == "worker" and backend.started == 1
    run(body, decide=decide)


def test_a_worker_killed_mid_think_costs_one_late_move(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """SIGKILL while thinking: its job goes to another worker and is answered by a worker,
    within its deadline; the dead worker is replaced."""
    monkeypatch.setenv("CARROCA_TEST_MARKS", str(tmp_path))

    async def body(service: BotService) -> None:
        backend: LocalBots = service.backend  # type: ignore[assignment]
        loop = asyncio.get_running_loop()
        j = job(deadline=20.0)
        task = loop.create_task(service.decide(j))
        while not list(tmp_path.iterdir()):  # the worker took it and marked itself
            await asyncio.sleep(0.02)
        pid = int(next(tmp_path.iterdir()).name)
        os.kill(pid, signal.SIGKILL)
        # The new worker's first job would sleep too: mark every future pid as having thought.
        started = loop.time()
        while backend.started < 2:
            await asyncio.sleep(0.01)
        new = [p.pid for p in backend.processes if p.pid != pid]
        for p in new:
            (tmp_path / str(p)).touch()
        decision = await task
        assert decision.source == "worker" and j.attempts == 2
        assert loop.time() - started < 15
        assert pid not in [p.pid for p in backend.processes]
    run(body, decide=W.pid_then_think)


def test_a_worker_killed_with_too_little_time_left_gives_the_safe_move(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No second try when less than two floors' time is left: the safe move at once (here the
    floor is 3 s and the deadline 5 s, so whenever the worker dies, too little is left)."""
    monkeypatch.setenv("CARROCA_TEST_MARKS", str(tmp_path))

    async def main() -> None:
        backend = LocalBots(1, nice=0, decide=W.pid_then_think)
        service = BotService(backend, floor_ms=3000)
        loop = asyncio.get_running_loop()
        try:
            j = job(deadline=5.0)
            task = loop.create_task(service.decide(j))
            while not list(tmp_path.iterdir()):
                await asyncio.sleep(0.02)
            os.kill(int(next(tmp_path.iterdir()).name), signal.SIGKILL)
            decision = await task
            assert decision.source == "fallback:failed" and j.attempts == 1
            assert loop.time() < j.deadline  # at once, not at the deadline
        finally:
            await service.stop()
    asyncio.run(main())


@pytest.mark.slow
def test_two_workers_think_at_once() -> None:
    async def body(service: BotService) -> None:
        loop = asyncio.get_running_loop()
        tasks = [loop.create_task(service.decide(job(key=k, deadline=20))) for k in "ab"]
        await asyncio.sleep(0.1)
        assert service.backend.busy() == 2 and len(service.queue) == 0
        decisions = await asyncio.gather(*tasks)
        assert [d.source for d in decisions] == ["worker", "worker"]
    run(body, workers=2, decide=W.slow)


def test_more_jobs_than_workers_wait_their_turn_and_think_less() -> None:
    """Three tables' expert moves for one worker: the second and third wait in the queue, and
    the budget each gets is bent to the queue's depth when it is taken."""
    sent: list[int | None] = []

    async def body(service: BotService) -> None:
        backend: LocalBots = service.backend  # type: ignore[assignment]
        send = backend.send

        def spy(j: Job, think_ms: int | None) -> None:
            sent.append(think_ms)
            send(j, think_ms)

        backend.send = spy  # type: ignore[method-assign]
        loop = asyncio.get_running_loop()
        tasks = [loop.create_task(service.decide(job("expert", 20, 200, key=k))) for k in "abc"]
        await asyncio.sleep(0)
        assert backend.busy() == 1 and len(service.queue) == 2
        decisions = await asyncio.gather(*tasks)
        assert all(d.source == "worker" for d in decisions)
    run(body)
    assert sent == [200, 100, 200]  # alone when taken; then with one waiting; then alone
