"""Bot jobs over Redis Streams: workers on any machine (`carroca bots --redis URL`).

A node sends each job it would give a local worker to a stream of its priority class
(`bots:jobs:0` people, `:1` bots-only, `:2` reviews) with `XADD`; worker processes read them in a
consumer group (`XREADGROUP`: each job goes to one worker), the most urgent stream first, think,
answer on the node's own stream (`bots:done:<node>`) and acknowledge the job (`XACK`, then
`XDEL`). A job a worker took and never acknowledged (the worker died, or takes jobs and never
answers) stays pending in the group; any worker claims it once it has been idle `CLAIM_IDLE_MS`
(`XPENDING`, `XCLAIM`) and thinks it out if its deadline still allows; that consumer is then
known to let jobs sit, and its jobs are claimed once `THIEF_IDLE_MS` old. The node trusts
nothing that comes back: `BotService` checks the move against the seat's legal actions and
falls back to the safe move at the job's deadline, so a lost job, a dead worker or Redis
restarting costs at most that one move. Workers announce themselves
every second (`bots:workers`, a sorted set by last heartbeat); the node counts the live ones to
know how many jobs to have in flight and what its bot capacity is, but only those it heard
answer lately (every answer names its worker; the nodes write who answered them into
`bots:answered` once a second): a heartbeat costs nothing to forge, an answer costs a job
thought out. Until some worker has answered, one counts (enough to be sent jobs).

Fair order is kept by each node's `FairQueue`: a node releases only as many jobs as there are
live workers, so what waits, waits in the node's queue, round robin over its tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
import socket
import time
from typing import Any

from carroca.botservice.jobs import WORK, Priority, Work, think
from carroca.botservice.local import Decide, lower_priority
from carroca.botservice.service import Answer, Lost
from carroca.rules import Observation

GROUP = "workers"
WORKERS = "bots:workers"  # sorted set: worker name -> last heartbeat (epoch seconds)
NODES = "bots:nodes"  # sorted set: node -> last heartbeat (the nodes sharing the workers)
ANSWERED = "bots:answered"  # sorted set: worker -> its last answer to any node (nodes write)
JOBS_MAXLEN = 10_000  # jobs kept at most on a stream (none are left when workers run)
STREAMS = tuple(f"bots:jobs:{p.value}" for p in Priority)
CLAIM_IDLE_MS = 1000  # a job taken this long ago and not answered: its worker is presumed dead
CLAIM_COUNT = 32  # jobs claimed at once per stream (each still thought out only in its time)
THIEF_IDLE_MS = 100  # a job of a consumer known to let jobs sit is claimed this old
THIEF_BLOCK_MS = 50  # the wait for new jobs while such a consumer is about
THIEF_SECONDS = 60.0  # how long a consumer stays known as one after it was last seen at it
HEARTBEAT_SECONDS = 1.0
LIVE_SECONDS = 5.0  # a worker not heard from this long is not counted
IN_FLIGHT_SECONDS = 30.0  # the longest a job counts as busy without an answer
ANSWERED_SECONDS = 120.0  # a worker whose last answer is older is not counted
READ_BLOCK_MS = 500  # the node's wait for answers, between looks at whether it is stopping
#: A consumer of the group silent this long, with no job pending, is a worker that stopped (a
#: consumer is per process: restarts leave one each); the live workers delete it.
GONE_IDLE_MS = 10 * 60 * 1000
SWEEP_SECONDS = 60.0
DONE_MAXLEN = 10_000  # answers kept at most on a node's stream (it deletes what it reads)

log = logging.getLogger("carroca.bots")


def done_stream(node: str) -> str:
    return f"bots:done:{node}"


class RedisBots:
    """The node's side: a `Backend` of `BotService` whose workers read Redis Streams."""

    def __init__(self, url: str, node: str) -> None:
        import redis.asyncio as aioredis

        self.url = url
        self.node = node
        self.redis: Any = aioredis.Redis.from_url(url, decode_responses=True,
                                                  socket_connect_timeout=2.0)
        self._answer: Answer | None = None
        self._lost: Lost | None = None
        self._in_flight: dict[int, float] = {}  # job id -> when to stop counting it (loop time)
        self._outbox: asyncio.Queue[tuple[Work, int | None]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[Any]] = []
        self._stopping = False
        self.live = 0  # workers heard from lately that answered lately
        self.announced = 0  # workers whose heartbeat is live, answering or not
        self._heard: set[str] = set()  # workers that answered since the last census
        self.nodes = 1  # nodes heard from lately, this one included
        self.sent = 0

    @property
    def workers(self) -> int:
        """This node's share of the live workers (every node sends to the same streams)."""
        return max(1, self.live // max(1, self.nodes))

    def connect(self, answer: Answer, lost: Lost) -> None:
        self._answer, self._lost = answer, lost

    def busy(self) -> int:
        now = asyncio.get_running_loop().time()
        for job_id in [j for j, until in self._in_flight.items() if until < now]:
            del self._in_flight[job_id]  # past its deadline: the node played the safe move
        return len(self._in_flight)

    def idle(self) -> int:
        return max(0, self.workers - self.busy())

    def alive(self) -> int:
        return self.live

    def send(self, job: Work, think_ms: int | None) -> None:
        loop = asyncio.get_running_loop()
        if not self._tasks:
            self._start(loop)
        if self.live == 0:  # nobody would take it: the safe move now, not at the deadline
            loop.call_soon(self._refuse, job.id, "no bot worker is running")
            return
        # counted busy until answered, or past its deadline; a review's job (10 min deadline)
        # whose answer was lost with Redis must not hold a worker's place that long
        self._in_flight[job.id] = min(job.deadline, loop.time() + IN_FLIGHT_SECONDS) + 1.0
        self._outbox.put_nowait((job, think_ms))

    def _refuse(self, job_id: int, why: str) -> None:
        self._in_flight.pop(job_id, None)
        if self._answer is not None:
            self._answer(job_id, None, why)

    def _start(self, loop: asyncio.AbstractEventLoop) -> None:
        self._tasks = [loop.create_task(self._writer()), loop.create_task(self._reader()),
                       loop.create_task(self._census())]

    async def start(self) -> None:
        """Count the workers now (the bot budget's capacity needs it before the first job)."""
        self._start(asyncio.get_running_loop())
        with contextlib.suppress(Exception):
            await self.count()

    async def _writer(self) -> None:
        while True:
            job, think_ms = await self._outbox.get()
            loop = asyncio.get_running_loop()
            entry = {
                "job": json.dumps({
                    "id": job.id, "reply": done_stream(self.node), "kind": job.kind,
                    # the time left, not a clock reading: the worker measures the job's age on
                    # Redis's clock (its entry id), so machines' clocks need not agree
                    "ttl_ms": int(1000 * (job.deadline - loop.time())),
                    **job.message(think_ms),
                }, separators=(",", ":")),
            }
            try:
                await self.redis.xadd(STREAMS[job.priority], entry, maxlen=JOBS_MAXLEN,
                                      approximate=True)
                self.sent += 1
            except Exception as exc:  # Redis is down: the safe move now, not at the deadline
                self._refuse(job.id, f"Redis: {exc}")

    async def _reader(self) -> None:
        stream = done_stream(self.node)
        last = "0-0"  # the stream is this node's, per start, and emptied as it is read
        pause = 0.1
        while not self._stopping:  # redis-py may swallow a cancel in a blocking read
            try:
                found = await self.redis.xread({stream: last}, count=100, block=READ_BLOCK_MS)
                pause = 0.1
            except asyncio.CancelledError:
                raise
            except Exception:
                await asyncio.sleep(pause)
                pause = min(2.0, pause * 2)
                continue
            for _, entries in found or ():
                ids = []
                for entry_id, fields in entries:
                    last = entry_id
                    ids.append(entry_id)
                    self._answered(fields)
                with contextlib.suppress(Exception):
                    await self.redis.xdel(stream, *ids)

    def _answered(self, fields: dict[str, str]) -> None:
        try:
            job_id = int(fields["id"])
        except (KeyError, ValueError):
            return
        self._in_flight.pop(job_id, None)
        worker = fields.get("worker")
        if worker and len(self._heard) < 1000:  # names are the workers': bounded anyway
            self._heard.add(worker[:100])
        if self._answer is not None:
            self._answer(job_id, fields.get("text") or None, fields.get("error") or None)

    async def count(self) -> None:
        """Count the live workers and nodes now (the census does it every heartbeat)."""
        now = time.time()
        await self.redis.zadd(NODES, {self.node: now})
        heard, self._heard = self._heard, set()
        if heard:
            await self.redis.zadd(ANSWERED, dict.fromkeys(heard, now))
            await self.redis.zremrangebyscore(ANSWERED, "-inf", now - ANSWERED_SECONDS)
        beating = set(await self.redis.zrangebyscore(WORKERS, now - LIVE_SECONDS, "+inf"))
        answered = set(await self.redis.zrangebyscore(ANSWERED, now - ANSWERED_SECONDS, "+inf"))
        self.announced = len(beating)
        self.live = len(beating & answered) or min(1, len(beating))
        self.nodes = max(1, int(await self.redis.zcount(NODES, now - LIVE_SECONDS, "+inf")))

    async def _census(self) -> None:
        while True:
            with contextlib.suppress(Exception):
                await self.count()
            await asyncio.sleep(HEARTBEAT_SECONDS)

    async def stop(self) -> None:
        self._stopping = True
        for task in self._tasks:
            task.cancel()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=2 * READ_BLOCK_MS / 1000)
        self._tasks = []
        with contextlib.suppress(Exception):  # this start's answers and place are done with
            await self.redis.delete(done_stream(self.node))
            await self.redis.zrem(NODES, self.node)
        with contextlib.suppress(Exception):
            await self.redis.aclose()


# --------------------------------------------------------------------------- the workers


class StreamWorker:
    """One worker process's loop: claim a dead worker's job or read a new one, most urgent
    stream first; think; answer; acknowledge. Survives Redis going away (waits, reconnects)."""

    def __init__(self, url: str, name: str, decide: Decide = think) -> None:
        import redis

        # Any: redis-py's reply types cover every protocol; these replies are decoded strings.
        self.redis: Any = redis.Redis.from_url(url, decode_responses=True, socket_timeout=5.0,
                                               socket_connect_timeout=2.0)
        self.name = name
        self.decide = decide
        self._beat = 0.0
        self._claimed = 0.0
        self._swept = 0.0
        # Consumers that took jobs and let them sit (a dead worker, or one that takes and never
        # answers): their jobs are claimed as soon as they are a moment old, and this worker
        # waits for jobs only briefly while one is known, to look again.
        self._thieves: dict[str, float] = {}  # consumer -> when last seen sitting on a job
        self.done = 0

    def ensure_groups(self) -> None:
        import redis

        for stream in STREAMS:
            try:
                self.redis.xgroup_create(stream, GROUP, id="0", mkstream=True)
            except redis.ResponseError as exc:
                if "BUSYGROUP" not in str(exc):
                    raise

    def heartbeat(self) -> None:
        now = time.time()
        if now - self._beat >= HEARTBEAT_SECONDS:
            self.redis.zadd(WORKERS, {self.name: now})
            self.redis.zremrangebyscore(WORKERS, "-inf", now - 60)
            self._beat = now
        if now - self._swept >= SWEEP_SECONDS:
            self._swept = now
            self.sweep_consumers()

    def sweep_consumers(self, idle_ms: int = GONE_IDLE_MS) -> list[str]:
        """Delete the group's consumers of workers that stopped: silent `idle_ms`, nothing
        pending (a stopped worker's pending job is claimed first, by `next_jobs`; deleting its
        consumer before would drop the job). The deleted names, per stream."""
        gone = []
        for stream in STREAMS:
            for consumer in self.redis.xinfo_consumers(stream, GROUP):
                name = consumer["name"]
                if name != self.name and int(consumer["pending"]) == 0 and \
                        int(consumer["idle"]) >= idle_ms:
                    self.redis.xgroup_delconsumer(stream, GROUP, name)
                    gone.append(f"{stream}:{name}")
        return gone

    def next_jobs(self, block_ms: int = 1000) -> list[tuple[str, str, dict[str, str]]]:
        """The jobs to think out now, most urgent first: a dead worker's, or the first of the
        most urgent stream; else what arrives within `block_ms` (the wait on every stream may
        bring one job of each: all are this worker's then, and are taken in order)."""
        now = time.monotonic()
        for name, seen in list(self._thieves.items()):
            if now - seen > THIEF_SECONDS:
                del self._thieves[name]
        if self._thieves or now - self._claimed >= CLAIM_IDLE_MS / 1000:
            self._claimed = now
            claimed_jobs = self._claim()
            if claimed_jobs:
                return claimed_jobs
        for stream in STREAMS:  # the most urgent class first, without waiting
            found = self.redis.xreadgroup(GROUP, self.name, {stream: ">"}, count=1)
            if found:
                _, entries = found[0]
                return [(stream, entries[0][0], entries[0][1])]
        if self._thieves:  # look again soon: new jobs may go to them first
            block_ms = min(block_ms, THIEF_BLOCK_MS)
        found = self.redis.xreadgroup(GROUP, self.name, dict.fromkeys(STREAMS, ">"), count=1,
                                      block=block_ms) or []
        jobs = [(stream, entry_id, fields) for stream, entries in found
                for entry_id, fields in entries]
        return sorted(jobs, key=lambda j: STREAMS.index(j[0]))

    def _claim(self) -> list[tuple[str, str, dict[str, str]]]:
        """The jobs other consumers let sit: every one idle `CLAIM_IDLE_MS`, and a known
        thief's once `THIEF_IDLE_MS` old; their consumers are thieves from now on."""
        now = time.monotonic()
        jobs = []
        for stream in STREAMS:
            pending = self.redis.xpending_range(stream, GROUP, "-", "+", CLAIM_COUNT,
                                                idle=THIEF_IDLE_MS)
            ids = []
            for entry in pending or ():
                owner = entry["consumer"]
                if owner == self.name:
                    continue
                if owner in self._thieves or entry["time_since_delivered"] >= CLAIM_IDLE_MS:
                    self._thieves[owner] = now
                    ids.append(entry["message_id"])
            if ids:
                for entry_id, fields in self.redis.xclaim(stream, GROUP, self.name,
                                                          THIEF_IDLE_MS, ids) or ():
                    if fields:  # an entry deleted meanwhile comes back empty
                        jobs.append((stream, entry_id, fields))
        if jobs:
            log.warning("claimed %d jobs another consumer let sit", len(jobs))
        return jobs

    def handle(self, stream: str, entry_id: str, fields: dict[str, str]) -> None:
        try:
            job = json.loads(fields["job"])
            seconds, micros = self.redis.time()  # Redis's clock, which wrote the entry's id
            age_ms = seconds * 1000 + micros // 1000 - int(entry_id.split("-")[0])
            left = (int(job["ttl_ms"]) - age_ms) / 1000
            if left > 0.02:
                try:
                    text, error = self._work(job, left), ""
                except Exception as exc:  # the node plays the safe move
                    text, error = "", f"{type(exc).__name__}: {exc}"
                self.redis.xadd(str(job["reply"]), {"id": str(job["id"]), "text": text,
                                                     "error": error, "worker": self.name},
                                maxlen=DONE_MAXLEN, approximate=True)
                self.done += 1
        except (KeyError, ValueError, TypeError) as exc:  # a malformed job: dropped
            log.warning("dropped a malformed bot job %s: %s", entry_id, exc)
        self.redis.xack(stream, GROUP, entry_id)
        self.redis.xdel(stream, entry_id)

    def _work(self, job: dict[str, Any], left: float) -> str:
        kind = job.get("kind", "decide")
        if kind != "decide":
            return WORK[str(kind)](job)
        think_ms = job.get("think_ms")
        if think_ms is not None:  # a claimed job has less time than it was given
            think_ms = max(1, min(int(think_ms), int(left * 1000 / 2)))
        view = Observation.from_dict(job["view"])
        return self.decide(str(job["level"]), int(job["seed"]), think_ms, view)

    def run(self, stop: Any = None) -> None:
        import redis

        pause = 0.2
        ready = False
        while stop is None or not stop():
            try:
                if not ready:
                    self.ensure_groups()
                    ready = True
                self.heartbeat()
                for found in self.next_jobs():
                    self.handle(*found)
                pause = 0.2
            except redis.ResponseError as exc:
                ready = False  # NOGROUP: Redis came back empty, the groups are made again
                if "NOGROUP" not in str(exc):  # read-only replica, no permission, out of memory
                    log.warning("Redis refused the bot worker: %s", exc)
                    time.sleep(pause)
                    pause = min(2.0, pause * 2)
            except (redis.ConnectionError, redis.TimeoutError, OSError):
                ready = False
                time.sleep(pause)
                pause = min(2.0, pause * 2)


def worker_main(url: str, name: str, nice: int, decide: Decide = think) -> None:
    """A worker process of `carroca bots`: quiet on Ctrl-C (its parent stops it)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    lower_priority(nice)
    StreamWorker(url, name, decide).run()


def worker_name(index: int) -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{index}"
