"""Bot workers on any machine: jobs over Redis Streams (moves and reviews), a dead worker's job
claimed by another, a malicious worker refused, Redis restarted, and a cluster node whose bots
think in `carroca bots` workers playing a whole match."""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from tests.support import bot_workers as W
from tests.support.bot_matches import bots_matches
from tests.support.bot_workers import a_view
from tests.support.clusterproc import REDIS_SCRIPT, Cluster, RedisServer
from tests.support.reviews import ReviewStore, a_record, analyzed, finished
from tests.support.serverproc import wait_until

from carroca import record
from carroca.botservice import BotService, Decision, Job, Priority, think
from carroca.botservice.local import Decide
from carroca.botservice.streams import (
    GROUP,
    STREAMS,
    WORKERS,
    RedisBots,
    StreamWorker,
    worker_main,
)
from carroca.rules import Match
from carroca.server.tables.reviews import Reviews


@pytest.fixture
def redis_url(redis_server: RedisServer) -> str:
    with redis.Redis.from_url(redis_server.url, socket_timeout=5) as client:
        client.flushdb()
    return redis_server.url


@pytest.fixture
def workers(redis_url: str) -> Iterator[Callable[..., list[Any]]]:
    """Starts stream worker processes (`decide`: what they think with)."""
    started: list[Any] = []
    ctx = multiprocessing.get_context("spawn")

    def start(count: int = 1, decide: Decide = think) -> list[Any]:
        procs = [ctx.Process(target=worker_main,
                             args=(redis_url, f"w{len(started) + i}", 0, decide), daemon=True)
                 for i in range(count)]
        for p in procs:
            p.start()
        started.extend(procs)
        return procs

    yield start
    for p in started:
        p.kill()
        p.join(timeout=10)


def job(deadline: float = 5.0, level: str = "medium", think_ms: int | None = None) -> Job:
    loop = asyncio.get_running_loop()
    return Job(key="t", level=level, view=a_view(), seed=3, priority=Priority.PEOPLE,
               think_ms=think_ms, deadline=loop.time() + deadline)


async def node(url: str, live: int) -> BotService:
    """A node's bot service over the streams, once `live` workers have said they are there
    (counted as the node's capacity once they answer: one until then)."""
    backend = RedisBots(url, "n1/test")
    service = BotService(backend)
    await service.start()
    for _ in range(200):
        if backend.announced >= live:
            return service
        await asyncio.sleep(0.05)
        await backend.count()
    raise AssertionError(f"{live} workers never showed up ({backend.announced})")


def test_workers_on_the_streams_answer_and_are_checked(redis_url: str,
                                                       workers: Callable[..., list[Any]]) -> None:
    workers(2)

    async def main() -> None:
        service = await node(redis_url, 2)
        try:
            found = await asyncio.gather(*(service.decide(job(level=lv, think_ms=60))
                                           for lv in ("medium", "expert", "expert-1")))
            for d in found:
                assert d.source == "worker"
                assert d.action in {str(a) for a in a_view().legal}
        finally:
            await service.stop()
    asyncio.run(main())


def test_a_review_over_the_streams_is_what_carroca_analyze_says(
        redis_url: str, workers: Callable[..., list[Any]]) -> None:
    """A review's decisions judged by stream workers, one job each: the same review, to the
    byte, as the one-process analysis."""
    line = a_record("mano-a-mano", 3)
    workers(2)

    async def main() -> dict[str, str]:
        service = await node(redis_url, 2)
        store = ReviewStore()
        reviews = Reviews(store, service)  # type: ignore[arg-type]
        try:
            reviews.request("m1", line)
            await finished(reviews, "m1")
        finally:
            await reviews.close()
            await service.stop()
        assert reviews.failed == {}
        return store.analyses
    assert asyncio.run(main())["m1"] == analyzed(line)


def test_forged_heartbeats_add_no_capacity(redis_url: str,
                                           workers: Callable[..., list[Any]]) -> None:
    """Before: 8 fake heartbeats in `bots:workers` made a node count 10 workers and raise its
    bot capacity. After: a worker counts once it has answered a job."""
    workers(2)

    async def main() -> tuple[int, int, int]:
        service = await node(redis_url, 2)
        backend = service.backend
        assert isinstance(backend, RedisBots)
        try:
            with redis.Redis.from_url(redis_url) as r:
                for i in range(8):
                    r.zadd(WORKERS, {f"fake-{i}": time.time() + 3600})
            for _ in range(6):  # jobs for both real workers to answer (4 at once)
                await asyncio.gather(*(service.decide(job(think_ms=60)) for _ in range(4)))
            await backend.count()
            return backend.announced, backend.live, service.workers
        finally:
            await service.stop()
    announced, live, capacity = asyncio.run(main())
    assert announced == 10  # the heartbeats are there
    assert live == capacity == 2  # but only the two that answered count


def test_a_consumer_that_takes_jobs_and_never_answers_delays_them_briefly(
        redis_url: str, workers: Callable[..., list[Any]]) -> None:
    """Before: a consumer of the jobs' group that read every job and never answered made each
    move wait its whole deadline (a safe move at the end). After: the real worker claims
    every job it left idle a second, all at once, not one a second: each move comes from the
    worker, a second or so late."""
    stop = threading.Event()

    def rogue() -> None:
        with redis.Redis.from_url(redis_url, decode_responses=True) as r:
            while not stop.is_set():
                with contextlib.suppress(redis.ResponseError):  # before the group exists
                    r.xreadgroup(GROUP, "rogue", dict.fromkeys(STREAMS, ">"), count=100,
                                 block=50)

    taker = threading.Thread(target=rogue, daemon=True)
    taker.start()
    workers(1)

    async def main() -> list[tuple[str, float]]:
        service = await node(redis_url, 1)
        try:
            out = []
            for _ in range(3):
                found = await asyncio.gather(*(timed(service, job(deadline=4.0, think_ms=40))
                                               for _ in range(4)))
                out.extend(found)
            return out
        finally:
            await service.stop()
            stop.set()

    decided = asyncio.run(main())
    taker.join(timeout=5)
    assert [source for source, _ in decided] == ["worker"] * 12, decided
    assert max(waited for _, waited in decided) < 3.0, decided


async def timed(service: BotService, j: Job) -> tuple[str, float]:
    started = time.monotonic()
    decision = await service.decide(j)
    return decision.source, time.monotonic() - started


def test_a_malicious_stream_worker_is_refused(redis_url: str,
                                              workers: Callable[..., list[Any]]) -> None:
    workers(1, W.another_seats_tile)

    async def main() -> Decision:
        service = await node(redis_url, 1)
        try:
            return await service.decide(job())
        finally:
            await service.stop()
    decision = asyncio.run(main())
    assert decision.source == "fallback:illegal"
    assert decision.action in {str(a) for a in a_view().legal}


def test_a_worker_killed_mid_think_has_its_job_claimed(
        redis_url: str, workers: Callable[..., list[Any]], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """SIGKILL while thinking: the job stays pending in the group, another worker claims it
    once it has been idle a second, and answers within the deadline."""
    monkeypatch.setenv("CARROCA_TEST_MARKS", str(tmp_path))
    procs = workers(2, W.pid_then_think)

    async def main() -> Decision:
        service = await node(redis_url, 2)
        try:
            task = asyncio.get_running_loop().create_task(service.decide(job(deadline=8.0)))
            while not list(tmp_path.iterdir()):  # one worker took it and marked itself
                await asyncio.sleep(0.02)
            victim = int(next(tmp_path.iterdir()).name)
            os.kill(victim, signal.SIGKILL)
            for p in procs:  # the other thinks at once when it claims the job
                (tmp_path / str(p.pid)).touch()
            return await task
        finally:
            await service.stop()
    decision = asyncio.run(main())
    assert decision.source == "worker"


def test_redis_restarted_costs_safe_moves_then_workers_answer_again(
        redis_server: RedisServer, redis_url: str, workers: Callable[..., list[Any]]) -> None:
    if redis_server.dir is None:
        pytest.skip("Redis cannot be restarted here (CARROCA_TEST_REDIS_DIR is not set)")
    workers(1)

    def script(action: str) -> None:
        subprocess.run(["bash", str(REDIS_SCRIPT), action, str(redis_server.dir)], check=True,
                       capture_output=True, timeout=120)

    async def main() -> list[str]:
        service = await node(redis_url, 1)
        sources = []
        try:
            sources.append((await service.decide(job())).source)
            script("stop")
            started = time.monotonic()
            down = await service.decide(job(deadline=2.0))
            assert time.monotonic() - started < 2.5  # never past its deadline
            sources.append(down.source)
            script("start")
            for _ in range(60):  # the worker and the node find Redis again
                d = await service.decide(job(deadline=2.0))
                if d.source == "worker":
                    sources.append(d.source)
                    break
                await asyncio.sleep(0.5)
            return sources
        finally:
            await service.stop()
            script("start")
    sources = asyncio.run(main())
    assert sources[0] == "worker" and sources[1].startswith("fallback:")
    assert sources[-1] == "worker" and len(sources) == 3


def choices(rec: Any) -> tuple[int, int]:
    """A finished match's steps, and those of them with two or more legal actions (a bot's
    decision a worker thinks out; the others are played without asking one)."""
    played = record.verify(rec)
    replay = Match(played.ruleset, played.options)
    steps = chosen = 0
    for hand in played.history:
        replay.deal([t for part in hand.dealt for t in part] + list(hand.boneyard))
        for step in hand.steps:
            steps += 1
            chosen += len(replay.legal_actions()) > 1
            replay.apply(step.action, step.seat, auto=step.auto)
    return steps, chosen


def test_a_node_with_stream_workers_plays_a_whole_match(
        cluster_factory: Callable[..., Cluster], redis_url: str, tmp_path: Path) -> None:
    """Every move of a bots' match is the worker's, or had no choice: counted against the
    records. A bloqueio hand can block at its opening (about one deal in a hundred: the
    opener's suit all out of play), a match with no choice in it: matches are played until one
    had some, a few at most."""
    cluster = cluster_factory(nodes=1, flags=["--bot-streams"], env={
        "CARROCA_BOT_DELAY_MS": "0", "CARROCA_HAND_PAUSE_SECONDS": "0"})
    env = {k: v for k, v in os.environ.items() if not k.startswith("CARROCA_")}
    with (tmp_path / "bots.log").open("wb") as log:
        bots = subprocess.Popen([sys.executable, "-m", "carroca", "bots", "--redis", redis_url,
                                 "--workers", "2"], env=env, stdout=log,
                                stderr=subprocess.STDOUT, start_new_session=True)
    try:
        with cluster.http() as http:
            # One counts until the workers have answered (a heartbeat alone is no capacity).
            wait_until(lambda: http.get("/api/stats").json()["bots"]["alive"] >= 1,
                       "the node to count a worker")
            token = http.post("/api/guest", json={"name": "Nina"}).json()["token"]
            http.headers["Authorization"] = f"Bearer {token}"
            steps = chosen = 0

            def counted(match_id: str) -> bool:
                nonlocal steps, chosen
                found = choices(record.loads(http.get(f"/api/matches/{match_id}/record").text))
                steps, chosen = steps + found[0], chosen + found[1]
                return chosen > 0

            bots_matches(http, counted)
            decisions = http.get("/api/stats").json()["bots"]["decisions"]
        assert chosen > 0
        assert decisions == {"worker": chosen, "forced": steps - chosen}, decisions
        bots.send_signal(signal.SIGTERM)
        assert bots.wait(timeout=30) == 0
    finally:
        if bots.poll() is None:
            os.killpg(bots.pid, signal.SIGKILL)
            bots.wait()
    text = (tmp_path / "bots.log").read_text()
    assert "Traceback" not in text, text


def test_the_consumers_of_stopped_workers_are_deleted(redis_url: str) -> None:
    """Each worker process is a consumer of the group (restarts leave one each): a live worker
    deletes those silent long enough with nothing pending; one with a job pending stays until
    its job is claimed, and a live one stays."""
    live = StreamWorker(redis_url, "live")
    live.ensure_groups()
    client = live.redis
    stream = STREAMS[0]
    client.xgroup_createconsumer(stream, GROUP, "stopped")  # nothing pending
    client.xadd(stream, {"job": "{}"})
    assert client.xreadgroup(GROUP, "died-thinking", {stream: ">"}, count=1)  # one pending
    client.xgroup_createconsumer(stream, GROUP, "live")
    time.sleep(0.05)
    assert live.sweep_consumers(idle_ms=10_000) == []  # not silent long enough
    assert live.sweep_consumers(idle_ms=20) == [f"{stream}:stopped"]
    names = {c["name"] for c in client.xinfo_consumers(stream, GROUP)}
    assert names == {"died-thinking", "live"}


ACL_FILE = Path(__file__).resolve().parents[2] / "deploy" / "redis" / "users.acl"


def acl_users(redis_url: str) -> dict[str, str]:
    """The users of deploy/redis/users.acl created on the test's Redis, each with a password
    of its own; their URLs by name."""
    urls = {}
    with redis.Redis.from_url(redis_url) as admin:
        for line in ACL_FILE.read_text().splitlines():
            if not line.startswith("user "):
                continue
            _, name, *rules = line.split()
            password = f"senha-{name}"
            rules = [f">{password}" if r.startswith(">") else r for r in rules]
            admin.execute_command("ACL", "SETUSER", name, "reset", *rules)
            urls[name] = redis_url.replace("redis://", f"redis://{name}:{password}@", 1)
    return urls


def test_workers_and_nodes_with_the_least_rights(redis_url: str) -> None:
    """A node and a worker each with its user of deploy/redis/users.acl: a move is thought out
    and answered, and the worker's user is refused what is not a worker's."""
    urls = acl_users(redis_url)
    try:
        ctx = multiprocessing.get_context("spawn")
        proc = ctx.Process(target=worker_main, args=(urls["carroca-bots"], "w-acl", 0),
                           daemon=True)
        proc.start()

        async def main() -> Decision:
            service = await node(urls["carroca-node"], 1)
            try:
                return await service.decide(job(think_ms=40))
            finally:
                await service.stop()

        assert asyncio.run(main()).source == "worker"
        with redis.Redis.from_url(urls["carroca-bots"]) as worker:
            for attempt in (lambda: worker.zadd("bots:answered", {"w-acl": time.time()}),
                            lambda: worker.publish("p:1", "{}"),
                            lambda: worker.set("LIMITS:x", 1),
                            lambda: worker.zadd("bots:nodes", {"n9": time.time()}),
                            lambda: worker.flushdb()):
                with pytest.raises(redis.exceptions.NoPermissionError):
                    attempt()
        proc.kill()
        proc.join(timeout=10)
    finally:
        with redis.Redis.from_url(redis_url) as admin:
            for name in ("carroca-bots", "carroca-node"):
                admin.execute_command("ACL", "DELUSER", name)

