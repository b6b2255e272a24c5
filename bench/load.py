"""Load: N players on real WebSockets, playing at a human pace against a real server process.

The benchmark starts `carroca serve` on a fresh SQLite database (or uses --server-url), signs in N
guests, and seats them at friends' tables of duplas-pontos: four humans each, or two humans
partnered against two bots for --bot-share of the players. Over --ramp seconds the tables open
(the host creates, the others join by invite) and their players connect, one WebSocket each. Each
player answers its turns with a random legal action after a think time drawn uniformly from
[0.5, 1.5] x --think seconds. The figures cover the --duration seconds after the ramp:

- players connected at the end, tables, moves per second: acknowledged moves of the players, and
  every move the server stored (bots' included) beside the pace the tables would keep if the
  server answered at once;
- move round trip: from sending a `move` frame to receiving its `ack` (p50/p95/p99/max, and the
  worst of each second, which shows periodic stalls);
- the server's memory (VmRSS) and CPU time, in all and on its event-loop thread; the generator's
  CPU and event-loop lag; the machine's CPU: together they tell whether the server, the generator
  or something else on the machine is the bottleneck;
- errors, failed connections, disconnects and listen-queue overflows.

The generator runs in --workers processes, each one event loop with the collector off, and speaks
WebSocket through the sans-I/O protocol of `websockets`: one protocol object per connection and no
task per connection, so the client side stays cheap next to the server. A match that ends is
replaced by a new table of the same players.

    python bench/load.py --players 1000 --duration 60 --think 2.0 --ramp 20 [--workers 2]
        [--bot-share 0.2] [--bot-delay-ms 1000] [--server-url http://HOST:PORT
        [--server-pid PID]] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import math
import multiprocessing as mp
import os
import random
import resource
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from array import array
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from multiprocessing.queues import Queue
from pathlib import Path
from queue import Empty
from typing import Any, cast

import httpx2
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri

RULESET = "duplas-pontos"
OPTIONS = {"target": 300}  # the longest duplas-pontos match: ~140 moves, minutes at human pace
# Every simulated player comes from this machine's one address: the per-address limits meant
# for the open internet (docs/server.md, "Limits and abuse") are lifted for the crowd.
CROWD = {"CARROCA_LIMIT_GUEST_IP": "1000000/minute", "CARROCA_MAX_CONNECTIONS_PER_IP": "0",
         "CARROCA_LIMIT_TABLES_PLAYER": "1000000/minute"}
TURN_SECONDS = 120.0  # the longest clock: a slow server does not make the clock play for anyone
PROGRESS_SECONDS = 5.0
LAG_TICK = 0.1  # seconds between the event-loop lag probes of a worker


# --------------------------------------------------------------------------- plan and helpers


@dataclass(frozen=True)
class Plan:
    """What every worker needs to know (pickled to the worker processes)."""

    base_url: str
    think: float
    bot_level: str
    http_concurrency: int
    tag: str  # a per-run prefix of the guests' names, so runs can share a server
    seed: int


def raise_fd_limit() -> int:
    """Soft limit of open files up to the hard limit: one descriptor per connection."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def percentile(ordered: Sequence[float], q: float) -> float:
    """Nearest-rank percentile of sorted values (0 when there are none)."""
    if not ordered:
        return 0.0
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


def spread(values: Sequence[float]) -> dict[str, float]:
    ordered = sorted(values)
    return {
        "n": len(ordered),
        "p50": round(percentile(ordered, 50), 2),
        "p95": round(percentile(ordered, 95), 2),
        "p99": round(percentile(ordered, 99), 2),
        "max": round(ordered[-1], 2) if ordered else 0.0,
    }


def proc_stats(pid: int) -> dict[str, float]:
    """RSS, peak RSS (MiB) and CPU seconds (user + system) of a process: all its threads, and
    its main thread alone (the event loop, which saturates first: one core at most)."""
    out: dict[str, float] = {}
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            key = {"VmRSS:": "rss_mb", "VmHWM:": "peak_mb"}.get(line.split(maxsplit=1)[0])
            if key:
                out[key] = int(line.split()[1]) / 1024
    hz = os.sysconf("SC_CLK_TCK")
    paths = {"cpu_s": f"/proc/{pid}/stat", "loop_cpu_s": f"/proc/{pid}/task/{pid}/stat"}
    for key, path in paths.items():
        with open(path, encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        out[key] = (int(fields[11]) + int(fields[12])) / hz
    return out


def machine_cpu() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine, every core, from /proc/stat."""
    with open("/proc/stat", encoding="ascii") as f:
        ticks = [int(x) for x in f.readline().split()[1:]]
    idle = ticks[3] + ticks[4]  # idle + iowait
    hz = os.sysconf("SC_CLK_TCK")
    return (sum(ticks[:8]) - idle) / hz, sum(ticks[:8]) / hz


def listen_overflows() -> int:
    """Connections the kernel refused because a listen queue was full (machine-wide): each one
    costs its client a SYN retransmission, 1 s then 3 s, 7 s, ... of connect time."""
    with open("/proc/net/netstat", encoding="ascii") as f:
        lines = f.read().splitlines()
    for names, values in zip(lines[::2], lines[1::2], strict=False):
        if names.startswith("TcpExt:"):
            row = dict(zip(names.split()[1:], values.split()[1:], strict=True))
            return int(row.get("ListenOverflows", 0))
    return 0


def snapshot(pid: int | None, client: httpx2.Client | None) -> dict[str, float]:
    """The server's memory, CPU and counters, and the machine's CPU, at one moment."""
    out: dict[str, float] = dict(zip(("machine_busy_s", "machine_total_s"), machine_cpu(),
                                     strict=True))
    out["listen_overflows"] = listen_overflows()
    if pid:
        out.update(proc_stats(pid))
    if client is not None:
        with contextlib.suppress(httpx2.HTTPError, ValueError):
            out.update(client.get("/api/stats").json())
    return out


def tables_for(players: int, bot_share: float) -> list[int]:
    """Humans per table: tables of four humans, and tables of two humans with two bots."""
    with_bots = min(players, 2 * round(players * bot_share / 2))
    humans = players - with_bots
    if humans % 4:  # the remainder of a four-human split goes to two-human tables
        with_bots += humans % 4
        humans -= humans % 4
    tables = [4] * (humans // 4) + [2] * (with_bots // 2)
    if with_bots % 2:
        tables.append(1)
    return tables


def offered_pace(tables: list[int], think: float, bot_delay_ms: int) -> float:
    """Moves per second of all tables (bots' included) if every answer came at once: a table
    moves once per mean think time of the seat to move, bots after their delay."""
    bot = bot_delay_ms / 1000
    return sum(4 / (humans * think + (4 - humans) * bot) for humans in tables)


# --------------------------------------------------------------------------- the server


class Server:
    """`carroca serve` in a subprocess on a fresh SQLite database in a temporary directory."""

    def __init__(self, bot_delay_ms: int) -> None:
        self.dir = tempfile.TemporaryDirectory(prefix="carroca-load-")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = Path(self.dir.name) / "server.log"
        cmd = [
            sys.executable, "-m", "carroca", "serve", "--port", str(self.port),
            "--database", f"sqlite:///{Path(self.dir.name) / 'load.db'}",
            "--bot-delay-ms", str(bot_delay_ms),
        ]  # fmt: skip
        self.log = self.log_path.open("wb")
        self.proc = subprocess.Popen(
            cmd, cwd=self.dir.name, stdout=self.log, stderr=subprocess.STDOUT,
            preexec_fn=raise_fd_limit, env={**os.environ, "PYTHONUNBUFFERED": "1", **CROWD},
        )  # fmt: skip
        self.pid = self.proc.pid

    def wait_ready(self, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        with httpx2.Client(base_url=self.url, timeout=2.0, trust_env=False) as client:
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"the server exited:\n{self.tail()}")
                with contextlib.suppress(httpx2.HTTPError):
                    if client.get("/api/health").status_code == 200:
                        return
                time.sleep(0.1)
        raise RuntimeError(f"the server did not answer in {timeout:g} s:\n{self.tail()}")

    def tail(self, lines: int = 30) -> str:
        self.log.flush()
        text = self.log_path.read_text(encoding="utf-8", errors="replace")
        return "\n".join(text.splitlines()[-lines:])

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.log.close()
        self.dir.cleanup()


# --------------------------------------------------------------------------- one player


class Player(asyncio.Protocol):
    """One WebSocket: joins its match and plays each of its turns after a think time."""

    def __init__(self, gen: Generator, group: Group, token: str) -> None:
        self.gen = gen
        self.group = group
        self.token = token
        self.match_id = ""
        self.transport: asyncio.Transport | None = None
        self.ws: ClientProtocol | None = None
        self.hello = False
        self.started = 0.0
        self.planned = -1  # the version of the last state a move was planned for
        self.timer: asyncio.TimerHandle | None = None
        self.move_id = 0
        self.pending = -1  # id of the move waiting for its ack
        self.sent_at = 0.0
        self.parts: list[bytes] = []

    # ------------------------------------------------------------------ transport

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's are not subclasses
        self.ws = ClientProtocol(parse_uri(f"{self.gen.ws_url}?token={self.token}"),
                                 max_size=1 << 22)
        self.ws.send_request(self.ws.connect())
        self._flush()

    def data_received(self, data: bytes) -> None:
        ws = self.ws
        assert ws is not None
        ws.receive_data(data)
        for event in ws.events_received():
            if isinstance(event, Frame):
                if event.opcode is Opcode.TEXT or event.opcode is Opcode.CONT:
                    if event.fin and not self.parts:
                        self._message(bytes(event.data))
                    elif event.fin:
                        self._message(b"".join([*self.parts, event.data]))
                        self.parts = []
                    else:
                        self.parts.append(bytes(event.data))
            elif isinstance(event, Response) and ws.handshake_exc is not None:
                self.gen.count("handshake_failed")
        self._flush()

    def connection_lost(self, exc: Exception | None) -> None:
        gen = self.gen
        self.transport = None
        self._cancel()
        if self.hello:
            self.hello = False
            gen.connected -= 1
            if not gen.stopping:
                code = self.ws.close_rcvd.code if self.ws and self.ws.close_rcvd else None
                gen.count(f"disconnect_{code}" if code else "disconnect")
        elif not gen.stopping:
            gen.count("connect_failed")

    def _flush(self) -> None:
        ws, transport = self.ws, self.transport
        if ws is None or transport is None:
            return
        for chunk in ws.data_to_send():
            if chunk:
                transport.write(chunk)
            else:
                transport.close()
                return

    def _send(self, kind: str, data: dict[str, Any]) -> None:
        if self.ws is None or self.transport is None:
            return
        self.ws.send_text(json.dumps({"type": kind, "data": data}).encode())
        self._flush()

    def close(self) -> None:
        self._cancel()
        if self.transport is not None:
            self.transport.abort()

    def _cancel(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None

    # ------------------------------------------------------------------ protocol

    def join(self) -> None:
        self.planned = -1
        self._cancel()
        self._send("join", {"match": self.match_id})

    def _message(self, raw: bytes) -> None:
        gen = self.gen
        gen.frames += 1
        gen.bytes += len(raw)
        msg = json.loads(raw)
        kind, data = msg["type"], msg["data"]
        if kind == "state":
            self._state(data)
        elif kind == "ack":
            if data["id"] == self.pending:
                self.pending = -1
                if "duplicate" in data:
                    gen.count("duplicate_ack")
                if self.sent_at >= gen.window_start:
                    gen.rtt.append((time.perf_counter() - self.sent_at) * 1000)
                    gen.rtt_at.append(int(self.sent_at - gen.window_start))
        elif kind == "error":
            gen.count(f"error_{data['code']}")
            if data.get("id") == self.pending:
                self.pending = -1
        elif kind == "hello":
            self.hello = True
            gen.connected += 1
            gen.connect_ms.append((time.perf_counter() - self.started) * 1000)
            if self.match_id:
                self.join()

    def _state(self, data: dict[str, Any]) -> None:
        if data["id"] != self.match_id:
            return  # the last frames of a finished table
        if data["status"] == "finished":
            self._cancel()
            self.group.finished(self.match_id)
            return
        view = data["view"]
        if view is None or view["turn"] != data["seat"] or not view["legal"]:
            self._cancel()
            return
        version = data["version"]
        if version == self.planned:
            return  # the same position again (somebody connected)
        self.planned = version
        self._cancel()
        think = self.gen.think * (0.5 + self.gen.rng.random())
        self.timer = self.gen.loop.call_later(think, self._move, view["legal"])

    def _move(self, legal: list[str]) -> None:
        self.timer = None
        gen = self.gen
        self.move_id += 1
        self.pending = self.move_id
        self.sent_at = time.perf_counter()
        if self.sent_at >= gen.window_start:
            gen.moves_sent += 1
        self._send("move", {"id": self.move_id, "action": gen.rng.choice(legal)})


def _same(player: Player) -> Player:
    """The protocol factory of one connection: that player."""
    return player


class Group:
    """The humans of one table; when its match ends, the first one opens a new table."""

    def __init__(self, gen: Generator, seats: int) -> None:
        self.gen = gen
        self.seats = seats
        self.players: list[Player] = []
        self.match_id = ""
        self.renewing = False

    def finished(self, match_id: str) -> None:
        if match_id != self.match_id or self.renewing or self.gen.stopping:
            return
        self.renewing = True
        self.gen.finished += 1
        self.gen.spawn(self.renew())

    async def renew(self) -> None:
        try:
            await self.gen.seat(self)
        except Exception:
            self.gen.count("rematch_failed")
            return
        finally:
            self.renewing = False
        for p in self.players:
            if p.hello:
                p.join()


# --------------------------------------------------------------------------- one worker


class Generator:
    """One worker process: its share of the tables, their players and their figures."""

    def __init__(self, plan: Plan, worker: int, tables: list[int]) -> None:
        self.plan = plan
        self.worker = worker
        self.tables = tables
        self.think = plan.think
        self.rng = random.Random(plan.seed * 1000 + worker)
        split = plan.base_url.split("://", 1)
        self.host, _, port = split[1].partition(":")
        self.port = int(port or 80)
        self.ws_url = f"ws://{split[1]}/ws"
        self.loop = asyncio.get_running_loop()
        self.http = httpx2.AsyncClient(
            base_url=plan.base_url, timeout=120.0,
            limits=httpx2.Limits(max_connections=plan.http_concurrency,
                                 max_keepalive_connections=plan.http_concurrency),
        )  # fmt: skip
        self.gate = asyncio.Semaphore(plan.http_concurrency)
        self.groups: list[Group] = []
        self.players: list[Player] = []
        self.window_start = math.inf
        self.stopping = False
        self.connected = 0
        self.moves_sent = 0
        self.frames = 0
        self.bytes = 0
        self.finished = 0
        self.events: Counter[str] = Counter()
        self.rtt = array("d")
        self.rtt_at = array("H")  # the second of the window each round trip started in
        self.connect_ms = array("d")
        self.table_ms = array("d")
        self.lag_ms = array("d")
        self._tasks: set[asyncio.Task[Any]] = set()
        self._names = 0

    def count(self, what: str) -> None:
        self.events[what] += 1

    def spawn(self, coro: Any) -> None:
        task = self.loop.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------------ set-up over HTTP

    async def _post(self, path: str, body: dict[str, Any], token: str | None = None
                    ) -> dict[str, Any]:
        headers = {"authorization": f"Bearer {token}"} if token else None
        async with self.gate:
            for attempt in range(3):
                try:
                    r = await self.http.post(path, json=body, headers=headers)
                except httpx2.TransportError:
                    if attempt == 2:
                        raise
                    self.count("http_retry")
                    await asyncio.sleep(0.5)
                    continue
                if r.status_code >= 400:
                    raise RuntimeError(f"POST {path}: {r.status_code} {r.text[:200]}")
                result: dict[str, Any] = r.json()
                return result
        raise AssertionError("unreachable")

    async def _guest(self, group: Group) -> None:
        self._names += 1
        name = f"L{self.plan.tag}w{self.worker}n{self._names}"
        reply = await self._post("/api/guest", {"name": name})
        group.players.append(Player(self, group, reply["token"]))

    async def seat(self, group: Group) -> None:
        """A new friends' table for the group: the first player hosts, the others join."""
        host, *others = group.players
        bot = f"bot:{self.plan.bot_level}"
        seats = {4: ["me", "open", "open", "open"], 2: ["me", bot, "open", bot],
                 1: ["me", bot, bot, bot]}[group.seats]
        made = await self._post("/api/tables", {
            "ruleset": RULESET, "options": OPTIONS, "seats": seats,
            "turn_seconds": TURN_SECONDS,
        }, host.token)
        for p in others:
            await self._post("/api/tables/join", {"invite": made["invite"]}, p.token)
        group.match_id = made["id"]
        for p in group.players:
            p.match_id = made["id"]

    async def setup(self) -> dict[str, float]:
        """Sign in every guest; tables are opened during the ramp, as their players arrive."""
        start = time.perf_counter()
        self.groups = [Group(self, n) for n in self.tables]
        await asyncio.gather(*(self._guest(g) for g in self.groups for _ in range(g.seats)))
        self.players = [p for g in self.groups for p in g.players]
        return {"guests": len(self.players), "guest_seconds": time.perf_counter() - start}

    # ------------------------------------------------------------------ the run

    def _open(self, group: Group) -> None:
        self.spawn(self._arrive(group))

    async def _arrive(self, group: Group) -> None:
        """Open the group's table (host creates, the others join by invite), then connect."""
        began = time.perf_counter()
        try:
            await self.seat(group)
        except Exception:
            self.count("table_failed")
            return
        self.table_ms.append((time.perf_counter() - began) * 1000)
        for p in group.players:
            p.started = time.perf_counter()
            try:
                await self.loop.create_connection(partial(_same, p), self.host, self.port)
            except OSError:
                self.count("connect_failed")

    async def _probe_lag(self, until: float) -> None:
        expected = time.perf_counter() + LAG_TICK
        while expected < until:
            await asyncio.sleep(max(0.0, expected - time.perf_counter()))
            now = time.perf_counter()
            if now >= self.window_start:
                self.lag_ms.append((now - expected) * 1000)
            expected = max(expected + LAG_TICK, now)

    async def run(self, t0: float, ramp: float, duration: float,
                  progress: Callable[[int, int], None]) -> dict[str, Any]:
        """Connect over the ramp from wall time t0, then play for `duration` seconds."""
        start = time.perf_counter() + (t0 - time.time())
        self.window_start = start + ramp
        end = self.window_start + duration
        n = len(self.groups)
        for i, g in enumerate(self.groups):
            at = start + ramp * i / max(1, n)
            self.loop.call_later(max(0.0, at - time.perf_counter()), self._open, g)
        self.spawn(self._probe_lag(end))
        cpu0 = math.nan
        frames0 = bytes0 = 0
        next_report = time.perf_counter() + PROGRESS_SECONDS
        while (now := time.perf_counter()) < end:
            if math.isnan(cpu0) and now >= self.window_start:
                cpu0 = time.process_time()
                frames0, bytes0 = self.frames, self.bytes
            if now >= next_report:
                progress(self.connected, self.moves_sent)
                next_report += PROGRESS_SECONDS
            await asyncio.sleep(min(0.05, end - now))
        cpu = time.process_time() - (time.process_time() if math.isnan(cpu0) else cpu0)
        connected = self.connected
        self.stopping = True
        for p in self.players:
            p.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.sleep(0.1)
        await self.http.aclose()
        return {
            "connected": connected,
            "moves_sent": self.moves_sent,
            "acks": len(self.rtt),
            "frames": self.frames - frames0,
            "bytes": self.bytes - bytes0,
            "finished": self.finished,
            "events": dict(self.events),
            "cpu_seconds": cpu,
            "rtt_ms": self.rtt.tobytes(),
            "rtt_at": self.rtt_at.tobytes(),
            "connect_ms": self.connect_ms.tobytes(),
            "table_ms": self.table_ms.tobytes(),
            "lag_ms": self.lag_ms.tobytes(),
        }


def worker_main(plan: Plan, worker: int, tables: list[int], queue: Queue[Any],
                go: Any, t0: Any, ramp: float, duration: float) -> None:
    """A generator process: set up, report ready, wait for the start, run, report figures."""
    gc.disable()  # the generator's own pauses would show up as round-trip time

    async def main() -> None:
        gen = Generator(plan, worker, tables)
        try:
            queue.put(("ready", worker, await gen.setup()))
        except Exception as exc:
            queue.put(("failed", worker, f"{type(exc).__name__}: {exc}"))
            return
        gc.freeze()
        await asyncio.get_running_loop().run_in_executor(None, go.wait)

        def progress(connected: int, moves: int) -> None:
            queue.put(("progress", worker, (connected, moves)))

        try:
            queue.put(("result", worker, await gen.run(t0.value, ramp, duration, progress)))
        except Exception as exc:
            queue.put(("failed", worker, f"{type(exc).__name__}: {exc}"))

    try:
        import uvloop

        uvloop.run(main())
    except ImportError:
        asyncio.run(main())


# --------------------------------------------------------------------------- the conductor


def run(args: argparse.Namespace) -> dict[str, Any]:
    raise_fd_limit()
    tables = tables_for(args.players, args.bot_share)
    workers = args.workers or max(1, min(os.cpu_count() or 1, math.ceil(args.players / 3000)))
    workers = min(workers, len(tables))
    server = None if args.server_url else Server(args.bot_delay_ms)
    pid = server.pid if server is not None else args.server_pid
    base_url = server.url if server is not None else args.server_url.rstrip("/")

    def say(text: str) -> None:
        if not args.quiet:
            print(f"[load {time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)

    procs: list[Any] = []
    try:
        if server is not None:
            server.wait_ready()
            say(f"server pid {server.pid} at {server.url}")
        idle = snapshot(pid, None)
        plan = Plan(base_url=base_url, think=args.think, bot_level=args.bot_level,
                    http_concurrency=args.http_concurrency, tag=secrets.token_hex(2),
                    seed=args.seed)
        ctx = mp.get_context("spawn")
        queue: Queue[Any] = ctx.Queue()
        go = ctx.Event()
        t0 = ctx.Value("d", 0.0)
        setup_start = time.perf_counter()
        for w in range(workers):
            proc = ctx.Process(target=worker_main, daemon=True, args=(
                plan, w, tables[w::workers], queue, go, t0, args.ramp, args.duration))
            proc.start()
            procs.append(proc)
        say(f"{workers} worker(s) signing in {args.players} guests at {len(tables)} tables")
        setups: list[dict[str, float]] = []
        while len(setups) < workers:
            kind, w, body = queue.get(timeout=args.setup_timeout)
            if kind == "failed":
                raise RuntimeError(f"worker {w} failed in set-up: {body}")
            if kind == "ready":
                setups.append(body)
        setup_wall = time.perf_counter() - setup_start
        say(f"{args.players} guests signed in, {setup_wall:.1f} s; opening tables and "
            f"connecting over {args.ramp:g} s")
        after_setup = snapshot(pid, None)
        t0.value = time.time() + 0.5
        go.set()
        window_start = t0.value + args.ramp
        window_end = window_start + args.duration
        results: dict[int, dict[str, Any]] = {}
        progress: dict[int, tuple[int, int]] = {}
        begin: dict[str, float] = {}
        end: dict[str, float] = {}
        last_say = time.time()
        with httpx2.Client(base_url=base_url, timeout=30.0) as client:
            while len(results) < workers:
                now = time.time()
                if not begin and now >= window_start:
                    begin = snapshot(pid, client)
                if not end and now >= window_end:
                    end = snapshot(pid, client)
                if now > window_end + args.setup_timeout:
                    raise RuntimeError("the workers did not report their figures")
                try:
                    kind, w, body = queue.get(timeout=0.05)
                except Empty:
                    kind = ""
                if kind == "failed":
                    raise RuntimeError(f"worker {w} failed: {body}")
                if kind == "progress":
                    progress[w] = body
                elif kind == "result":
                    results[w] = body
                if progress and now - last_say >= PROGRESS_SECONDS:
                    last_say = now
                    say(f"connected {sum(c for c, _ in progress.values())}, moves sent "
                        f"{sum(m for _, m in progress.values())} in the window")
            if not end:
                end = snapshot(pid, client)
    finally:
        for proc in procs:
            proc.join(5)
            if proc.is_alive():
                proc.kill()
        if server is not None:
            server.stop()
    out = report(args, tables, workers, setups, idle, after_setup, begin, end,
                 list(results.values()), pid)
    out["window_unix"] = [round(window_start, 3), round(window_end, 3)]  # to match server logs
    return out


def report(args: argparse.Namespace, tables: list[int], workers: int,
           setups: list[dict[str, float]], idle: dict[str, float],
           after_setup: dict[str, float], begin: dict[str, float], end: dict[str, float],
           results: list[dict[str, Any]], pid: int | None) -> dict[str, Any]:
    def joined(key: str) -> list[float]:
        values = array("d")
        for r in results:
            values.frombytes(r[key])
        return values.tolist()

    rtt, lag = joined("rtt_ms"), joined("lag_ms")
    at = array("H")
    for r in results:
        at.frombytes(r["rtt_at"])
    seconds: list[list[float]] = [[] for _ in range(math.ceil(args.duration))]
    for ms, second in zip(rtt, at, strict=True):
        seconds[min(second, len(seconds) - 1)].append(ms)
    events: Counter[str] = Counter()
    for r in results:
        events.update(r["events"])
    connected = sum(r["connected"] for r in results)
    acks = sum(r["acks"] for r in results)
    guest_wall = max(s["guest_seconds"] for s in setups)
    out: dict[str, Any] = {
        "players": args.players,
        "tables": len(tables),
        "tables_with_bots": sum(1 for t in tables if t < 4),
        "workers": workers,
        "think_s": args.think,
        "ramp_s": args.ramp,
        "duration_s": args.duration,
        "bot_delay_ms": args.bot_delay_ms,
        "guests": {
            "seconds": round(guest_wall, 2),
            "per_s": round(args.players / guest_wall, 1) if guest_wall else None,
        },
        "table_open_ms": spread(joined("table_ms")),
        "connected_end": connected,
        "connect_ms": spread(joined("connect_ms")),
        "moves_sent": sum(r["moves_sent"] for r in results),
        "moves_acked": acks,
        "moves_per_s": round(acks / args.duration, 1),
        "offered_moves_per_s": round(offered_pace(tables, args.think, args.bot_delay_ms), 1),
        "rtt_ms": spread(rtt),
        "rtt_max_ms_by_second": [round(max(v), 1) if v else None for v in seconds],
        "matches_finished": sum(r["finished"] for r in results),
        "events": dict(sorted(events.items())),
        "generator": {
            "cpu_pct": round(100 * sum(r["cpu_seconds"] for r in results) / args.duration, 1),
            "frames_per_s": round(sum(r["frames"] for r in results) / args.duration, 1),
            "kb_received_per_s": round(sum(r["bytes"] for r in results) / 1024 / args.duration, 1),
            "loop_lag_ms": spread(lag),
        },
    }
    busy = end["machine_busy_s"] - begin["machine_busy_s"]
    total = end["machine_total_s"] - begin["machine_total_s"]
    out["machine"] = {
        "cores": os.cpu_count(),
        "busy_pct": round(100 * busy / total, 1) if total else None,
        "loadavg_1m": float(Path("/proc/loadavg").read_text().split()[0]),
        "listen_overflows": end["listen_overflows"] - idle["listen_overflows"],
    }
    if begin.get("moves") is not None and end.get("moves") is not None:
        moves = end["moves"] - begin["moves"]
        commits = end["commits"] - begin["commits"]
        out["server_moves_per_s"] = round(moves / args.duration, 1)
        out["server_commits_per_s"] = round(commits / args.duration, 1)
        out["moves_per_commit"] = round(moves / commits, 2) if commits else None
    if pid and "cpu_s" in begin and "cpu_s" in end:
        cpu = end["cpu_s"] - begin["cpu_s"]
        moves = out.get("server_moves_per_s", 0) * args.duration
        out["server"] = {
            "pid": pid,
            "rss_idle_mb": round(idle.get("rss_mb", 0), 1),
            "rss_after_guests_mb": round(after_setup.get("rss_mb", 0), 1),
            "rss_end_mb": round(end["rss_mb"], 1),
            "rss_peak_mb": round(end["peak_mb"], 1),
            "kb_per_player": round((end["rss_mb"] - idle.get("rss_mb", 0)) * 1024 / connected, 1)
            if connected else None,
            "cpu_s": round(cpu, 2),
            "cpu_pct": round(100 * cpu / args.duration, 1),
            "cpu_ms_per_move": round(1000 * cpu / moves, 3) if moves else None,
            "loop_thread_cpu_pct": round(100 * (end["loop_cpu_s"] - begin["loop_cpu_s"])
                                         / args.duration, 1),
        }
    return out


def render(r: dict[str, Any]) -> str:
    rtt, s, g = r["rtt_ms"], r.get("server", {}), r["generator"]
    lines = [
        f"players {r['players']} at {r['tables']} tables ({r['tables_with_bots']} with bots), "
        f"{r['workers']} worker(s), think {r['think_s']:g} s, ramp {r['ramp_s']:g} s, "
        f"window {r['duration_s']:g} s",
        f"guests signed in: {r['guests']['seconds']:.1f} s = {r['guests']['per_s']} /s; a table "
        f"opened (create + joins) p50 {r['table_open_ms']['p50']} ms, p99 "
        f"{r['table_open_ms']['p99']} ms",
        f"connected at the end: {r['connected_end']}  (connect p50 {r['connect_ms']['p50']} ms, "
        f"p99 {r['connect_ms']['p99']} ms)",
        f"moves: {r['moves_acked']} acked = {r['moves_per_s']} /s; server stored "
        f"{r.get('server_moves_per_s', '?')} /s (pace offered {r['offered_moves_per_s']} /s) in "
        f"{r.get('server_commits_per_s', '?')} commits/s",
        f"round trip ms: p50 {rtt['p50']}  p95 {rtt['p95']}  p99 {rtt['p99']}  max {rtt['max']}"
        f"  (n={rtt['n']})",
    ]
    if s:
        lines.append(
            f"server: RSS {s['rss_end_mb']} MiB (idle {s['rss_idle_mb']}, peak {s['rss_peak_mb']})"
            f" = {s['kb_per_player']} KiB/player; CPU {s['cpu_pct']}% of a core (event-loop "
            f"thread {s['loop_thread_cpu_pct']}%), {s['cpu_ms_per_move']} ms/move")
    lines.append(
        f"generator: CPU {g['cpu_pct']}% of a core, {g['frames_per_s']} frames/s, loop lag p99 "
        f"{g['loop_lag_ms']['p99']} ms, max {g['loop_lag_ms']['max']} ms")
    m = r["machine"]
    lines.append(f"machine: {m['cores']} cores {m['busy_pct']}% busy over the window "
                 f"(everything on it), load average {m['loadavg_1m']}, listen-queue overflows "
                 f"{m['listen_overflows']}")
    lines.append(f"matches finished {r['matches_finished']}; events {r['events'] or 'none'}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--duration", type=float, default=60.0, help="measured seconds")
    parser.add_argument("--think", type=float, default=2.0, help="mean seconds before a move")
    parser.add_argument("--ramp", type=float, default=20.0, help="seconds to connect everyone")
    parser.add_argument("--bot-share", type=float, default=0.2,
                        help="share of the players seated with two bots (default 0.2)")
    parser.add_argument("--bot-level", default="greedy")
    parser.add_argument("--bot-delay-ms", type=int, default=1000,
                        help="the started server's pause before a bot acts")
    parser.add_argument("--workers", type=int, default=0,
                        help="generator processes (default: one per 3,000 players, up to the "
                             "CPU count)")
    parser.add_argument("--http-concurrency", type=int, default=128,
                        help="HTTP requests in flight per worker (sign-ins, tables)")
    parser.add_argument("--setup-timeout", type=float, default=900.0)
    parser.add_argument("--server-url", default=None, help="use a running server")
    parser.add_argument("--server-pid", type=int, default=None,
                        help="with --server-url: its process, for memory and CPU figures")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    args = parser.parse_args(argv)
    if args.players < 1 or args.duration <= 0 or args.think <= 0 or args.ramp < 0:
        parser.error("--players, --duration and --think must be positive, --ramp not negative")
    if not 0 <= args.bot_share <= 1:
        parser.error("--bot-share is a share of the players, from 0 to 1")
    gc.disable()
    result = run(args)
    print(json.dumps(result) if args.json else render(result), flush=True)
    return result


if __name__ == "__main__":
    main()
