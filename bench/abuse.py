"""Abuse: what one client's flood costs the others, against a real server process.

Each scenario starts `carroca serve` (or --server-cmd, or the checkout --src) on a fresh SQLite
file in a temporary directory and a free port, drives it from this machine only (127.0.0.0/8),
for a bounded time, then stops it.

`--scenario bots`: the expert's time per move at a table with a human, without and with N
bots-only matches of experts running elsewhere on the server. The server runs with
`--bot-delay-ms 0`. A measuring guest opens a friends' table (`me` and three `bot:expert`; a 1v1
ruleset with one), follows it over a WebSocket and answers its own turns at once with a random
legal action. A bot move's time is the wall time from the `state` frame in which that bot's seat
became the seat to move to the `state` frame of the next version. Each of --rounds rounds starts
a fresh server and measures a baseline block (no other match), then signs in ceil(N/2) guests
who create two bots-only matches each (`POST /api/matches`, bearer token: servers that require a
sign-in and cap bots-only matches per player take them as well as servers that do not), then
measures a flood block. A block ends after its share of --moves bot moves or --phase-seconds,
whichever comes first; a bot move still pending at the end is reported apart (a lower bound).
Reported: mean/p50/p95/max per block, the ratio flood/baseline, the own moves' round trip (move
to ack), the server's CPU (main process and its children) and the moves it stored per second.

`--flood guests` (the probe of the bot budget): instead of bots-only matches, --flood-guests
guests sign up from --flood-ips addresses (127.0.0.2 on) and each opens what it is allowed of
PER_GUEST tables with experts, a friends' table (`me` and experts) and a casual expert table,
and plays them at once, as the measuring player does, opening another when one ends (a refused
table is asked for again every 5 s). The answers to their requests are reported; with
--bot-delay-ms 50 this is the probe that took an expert's move at a real player's table from
0.13 s to 2.1-3.3 s before the bot service and its budget.

`--scenario login`: an honest player's login time while another address floods wrong passwords.
On a fresh server per target, an account is registered; the honest player (from 127.0.0.1) logs
in with the right password every --login-interval seconds (one login at a time: the next starts
at once when one took longer), first alone (--baseline-seconds), then while --concurrency
attackers from 127.0.0.2 (or --attack-ips addresses from 127.0.0.2 on) fire wrong-password
logins back to back for --attack-seconds, at the honest account (`same`) or at another account
(`other`). The attackers run in their own process, so their loop does not
delay the honest client's. Reported: the honest logins' latency and status codes, the attackers'
request rate and status codes.

Server settings are `CARROCA_*` variables: inherited ones are dropped, the scenario sets what it
needs (bots: guest sign-ups and table creation unlimited, no per-address connection cap; login:
nothing, the limits under test keep their defaults) and --server-env KEY=VALUE adds or overrides.

    python bench/abuse.py --scenario bots [--bots-matches 200] [--moves 80] [--rounds 2]
        [--phase-seconds 60] [--ruleset duplas-pontos] [--src CHECKOUT | --server-cmd CMD]
        [--server-env KEY=VALUE ...] [--json]
    python bench/abuse.py --scenario login [--concurrency 32] [--targets same,other]
        [--attack-ips 1] [--baseline-seconds 10] [--attack-seconds 30] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
import json
import math
import multiprocessing as mp
import os
import random
import secrets
import shlex
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing.queues import Queue
from pathlib import Path
from typing import Any

import httpx2
from websockets.asyncio.client import ClientConnection, connect

from load import Server as LoadServer  # bench/ is not a package
from load import free_port, machine_cpu, percentile, raise_fd_limit, reap

HOST = "127.0.0.1"
ATTACK_BASE = "127.0.0.2"  # the attackers' first source address (the server listens on HOST)
FLOOD_RULESET = "duplas-pontos"
PER_GUEST = 2  # bots-only matches each flooding guest creates (the new per-player cap)
TURN_SECONDS = 120.0  # the measuring player answers at once; the clock never matters
WARMUP_MOVES = 4  # bot moves of each round not counted: the first searches warm up
FLOOD_SETTLE = 3.0  # seconds from the guests' flood to the measured block (casual tables fill)
QUICK_MS = 50.0  # a bot move under this (past the bot delay) had one legal action (no search)
REFUSED_RETRY = 5.0  # seconds before a flooding guest asks again for a refused table
HTTP_CONCURRENCY = 16  # set-up requests in flight
PASSWORD = "correct horse 9"
BOTS_ENV = {  # the flood comes from one address: it must not hit the set-up limits
    "CARROCA_LIMIT_GUEST_IP": "100000/minute",
    "CARROCA_LIMIT_SIGNUPS": "100000/minute",
    "CARROCA_CASUAL_WAIT_SECONDS": "1",
    "CARROCA_HAND_PAUSE_SECONDS": "0",  # the summary's pause between hands is no bot's time
    "CARROCA_LIMIT_TABLES_PLAYER": "100000/minute",
    "CARROCA_MAX_CONNECTIONS_PER_IP": "0",
}
# The honest player logs in every 0.5 s to be measured, far more often than anyone does: the
# per-address cap on all password checks (30 per 10 minutes) is lifted so it is not what is
# measured; the limits on failures keep their defaults.
LOGIN_ENV = {"CARROCA_LIMIT_PASSWORD_IP": "100000/minute"}


QUIET = False


def say(text: str) -> None:
    if not QUIET:
        print(f"[abuse {time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


def summary(values: Sequence[float]) -> dict[str, Any]:
    ordered = sorted(values)
    return {
        "n": len(ordered),
        "mean": round(sum(ordered) / len(ordered), 1) if ordered else None,
        "p50": round(percentile(ordered, 50), 1) if ordered else None,
        "p95": round(percentile(ordered, 95), 1) if ordered else None,
        "max": round(ordered[-1], 1) if ordered else None,
    }


async def wait_idle(limit: float, busy_pct: float = 40.0) -> float | None:
    """Wait up to `limit` seconds for a second in which the machine (other work: nothing of this
    run is going on) is less than `busy_pct` busy; returns the last second's busy share."""
    if limit <= 0:
        return None
    deadline = time.monotonic() + limit
    while True:
        before = machine_cpu()
        await asyncio.sleep(1.0)
        after = machine_cpu()
        busy = 100 * (after[0] - before[0]) / max(1e-9, after[1] - before[1])
        if busy < busy_pct or time.monotonic() >= deadline:
            if busy >= busy_pct:
                say(f"the machine is still {busy:.0f}% busy after {limit:g} s: going on")
            return round(busy, 1)


def ratio(a: float | None, b: float | None) -> float | None:
    return round(a / b, 2) if a is not None and b else None


def client(url: str, local_address: str | None = None, connections: int = HTTP_CONCURRENCY,
           timeout: float = 60.0) -> httpx2.AsyncClient:
    transport = httpx2.AsyncHTTPTransport(
        local_address=local_address, trust_env=False,
        limits=httpx2.Limits(max_connections=connections, max_keepalive_connections=connections),
    )  # fmt: skip
    return httpx2.AsyncClient(base_url=url, timeout=timeout, transport=transport,
                              trust_env=False)


def answer(r: httpx2.Response) -> str:
    """The status code, with the error's code when there is one: "429 rate_limited"."""
    if r.status_code < 400:
        return str(r.status_code)
    with contextlib.suppress(ValueError, KeyError, TypeError, AttributeError):
        return f"{r.status_code} {r.json()['error']['code']}"
    return str(r.status_code)


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


async def post(http: httpx2.AsyncClient, path: str, body: dict[str, Any],
               token: str | None = None) -> dict[str, Any]:
    r = await http.post(path, json=body, headers=bearer(token) if token else None)
    if r.status_code >= 400:
        raise RuntimeError(f"POST {path}: {r.status_code} {r.text[:300]}")
    answer: dict[str, Any] = r.json()
    return answer


# --------------------------------------------------------------------------- the server


def process_tree_cpu(pid: int) -> tuple[float, float]:
    """CPU seconds (user + system) of a process and of all its live descendants."""
    hz = os.sysconf("SC_CLK_TCK")
    parent: dict[int, int] = {}
    cpu: dict[int, float] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            with open(f"/proc/{entry.name}/stat", encoding="ascii", errors="replace") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            parent[int(entry.name)] = int(fields[1])
            cpu[int(entry.name)] = (int(fields[11]) + int(fields[12])) / hz
    children: dict[int, list[int]] = {}
    for child, ppid in parent.items():
        children.setdefault(ppid, []).append(child)
    below, todo = 0.0, list(children.get(pid, []))
    while todo:
        p = todo.pop()
        below += cpu.get(p, 0.0)
        todo.extend(children.get(p, []))
    return cpu.get(pid, 0.0), below


def code_of(src: str | None) -> dict[str, Any]:
    """Where the server's code comes from, its commit and whether its src/ has edits."""
    if src:
        root = Path(src).resolve()
    else:
        spec = importlib.util.find_spec("carroca")
        origin = spec.origin if spec is not None else None
        root = Path(origin).resolve().parent.parent.parent if origin else Path.cwd()
    out: dict[str, Any] = {"checkout": str(root)}
    with contextlib.suppress(OSError, subprocess.CalledProcessError):
        git = ["git", "-C", str(root)]
        commit = subprocess.run([*git, "log", "-1", "--format=%h %s"], check=True,
                                capture_output=True, text=True).stdout.strip()
        out["commit"] = commit if len(commit) <= 80 else commit[:77] + "..."
        dirty = subprocess.run([*git, "status", "--porcelain", "--", "src"], check=True,
                               capture_output=True, text=True).stdout.split("\n")
        out["src_files_changed_since_commit"] = sum(1 for line in dirty if line.strip())
    return out


class Server(LoadServer):
    """`carroca serve` (or another command or checkout) on a fresh SQLite database; waiting,
    logs and stopping as in bench/load.py."""

    def __init__(self, cmd: Sequence[str], src: str | None, env: dict[str, str],
                 extra: Sequence[str] = ()) -> None:
        self.dir = tempfile.TemporaryDirectory(prefix="carroca-abuse-")
        self.port = free_port()
        self.url = f"http://{HOST}:{self.port}"
        self.log_path = Path(self.dir.name) / "server.log"
        args = [
            *cmd, "serve", "--host", HOST, "--port", str(self.port),
            "--database", f"sqlite:///{Path(self.dir.name) / 'abuse.db'}", *extra,
        ]  # fmt: skip
        full = {k: v for k, v in os.environ.items() if not k.startswith("CARROCA_")}
        full.update(PYTHONUNBUFFERED="1", **env)
        if src:
            paths = [str(Path(src).resolve() / "src"), os.environ.get("PYTHONPATH", "")]
            full["PYTHONPATH"] = os.pathsep.join(p for p in paths if p)
        self.log = self.log_path.open("wb")
        self.proc = subprocess.Popen(
            args, cwd=self.dir.name, stdout=self.log, stderr=subprocess.STDOUT,
            preexec_fn=raise_fd_limit, env=full,
        )  # fmt: skip
        self.pid = self.proc.pid

    def cpu(self) -> tuple[float, float]:
        return process_tree_cpu(self.pid)


@dataclass
class Window:
    """The server's CPU, its stored moves and the machine's CPU over one measured block."""

    server: Server
    http: httpx2.AsyncClient
    began: float = 0.0
    cpu0: tuple[float, float] = (0.0, 0.0)
    machine0: tuple[float, float] = (0.0, 0.0)
    moves0: int | None = None

    async def _moves(self) -> int | None:
        with contextlib.suppress(httpx2.HTTPError, ValueError, KeyError, TypeError):
            moves: int = (await self.http.get("/api/stats")).json()["moves"]
            return moves
        return None

    async def start(self) -> None:
        self.moves0 = await self._moves()
        self.began = time.perf_counter()
        self.cpu0, self.machine0 = self.server.cpu(), machine_cpu()

    async def end(self) -> dict[str, Any]:
        seconds = time.perf_counter() - self.began
        cpu, machine = self.server.cpu(), machine_cpu()
        moves = await self._moves()
        total = machine[1] - self.machine0[1]
        return {
            "seconds": round(seconds, 1),
            "server_cpu_pct": round(100 * (cpu[0] - self.cpu0[0]) / seconds, 1),
            # a child's CPU is missed if it ended within the block
            "children_cpu_pct": round(100 * max(0.0, cpu[1] - self.cpu0[1]) / seconds, 1),
            "machine_busy_pct": round(100 * (machine[0] - self.machine0[0]) / total, 1)
            if total else None,
            "server_moves_per_s": round((moves - self.moves0) / seconds, 1)
            if moves is not None and self.moves0 is not None else None,
        }


# --------------------------------------------------------------------------- scenario: bots


@dataclass
class Pending:
    version: int
    since: float
    block: str


@dataclass
class Measurer:
    """The human at the measured table: answers at once, times the bots' moves."""

    url: str
    http: httpx2.AsyncClient
    token: str
    ruleset: str
    seats: list[str]
    rng: random.Random
    block: str = "warmup"
    match_id: str = ""
    times: dict[str, list[float]] = field(default_factory=dict)
    acks: dict[str, list[float]] = field(default_factory=dict)
    events: Counter[str] = field(default_factory=Counter)
    pending: Pending | None = None
    answered: int = -1
    move_id: int = 0
    sent_at: dict[int, tuple[float, str]] = field(default_factory=dict)

    async def new_table(self, ws: ClientConnection) -> None:
        made = await post(self.http, "/api/tables", {
            "ruleset": self.ruleset, "seats": self.seats, "turn_seconds": TURN_SECONDS,
        }, self.token)
        self.match_id, self.pending, self.answered = made["id"], None, -1
        await ws.send(json.dumps({"type": "join", "data": {"match": self.match_id}}))

    async def play(self) -> None:
        host = self.url.split("://", 1)[1]
        async with connect(f"ws://{host}/ws?token={self.token}", origin=None, proxy=None,
                           max_size=1 << 22, open_timeout=30, ping_interval=None,
                           compression=None) as ws:
            hello = json.loads(await ws.recv())
            if hello["type"] != "hello":
                raise RuntimeError(f"no hello: {hello}")
            await self.new_table(ws)
            async for raw in ws:
                now = time.perf_counter()
                msg = json.loads(raw)
                kind, data = msg["type"], msg["data"]
                if kind == "state":
                    await self._state(ws, data, now)
                elif kind == "ack":
                    sent = self.sent_at.pop(data["id"], None)
                    if sent is not None and sent[1] == self.block:
                        self.acks.setdefault(sent[1], []).append((now - sent[0]) * 1000)
                elif kind == "error":
                    self.events[f"error_{data.get('code')}"] += 1
                    self.sent_at.pop(data.get("id", -1), None)

    async def _state(self, ws: ClientConnection, data: dict[str, Any], now: float) -> None:
        if data["id"] != self.match_id:
            return
        version = data["version"]
        pending = self.pending
        if pending is not None and version > pending.version:
            self.pending = None
            if version != pending.version + 1:
                self.events["version_jump"] += 1
            if pending.block == self.block:  # a move across two blocks counts in neither
                self.times.setdefault(self.block, []).append((now - pending.since) * 1000)
        if data["status"] == "finished":
            self.events["matches_finished"] += 1
            await self.new_table(ws)
            return
        view = data.get("view")
        if data["status"] != "playing" or not view or view.get("turn") is None:
            return
        turn = view["turn"]
        if turn == data["seat"]:
            if view.get("legal") and version != self.answered:
                self.answered = version
                self.move_id += 1
                self.sent_at[self.move_id] = (time.perf_counter(), self.block)
                await ws.send(json.dumps({"type": "move", "data": {
                    "id": self.move_id, "action": self.rng.choice(view["legal"])}}))
            return
        seat = data["players"][turn]
        if seat and seat.get("bot") and self.pending is None:  # not a repeat of this version
            self.pending = Pending(version, now, self.block)

    async def measure(self, block: str, moves: int, seconds: float,
                      task: asyncio.Task[None]) -> dict[str, Any]:
        """Count the bot moves of one block: `moves` of them, or for `seconds` at most."""
        self.block = block
        self.times.setdefault(block, [])
        deadline = time.perf_counter() + seconds
        while len(self.times[block]) < moves and time.perf_counter() < deadline:
            if task.done():
                task.result()
                raise RuntimeError("the measuring player stopped")
            await asyncio.sleep(0.02)
        pending = self.pending
        self.block = "between"
        unfinished = None  # a lower bound of one more move, when the block ran out of time
        timed_out = len(self.times[block]) < moves
        if timed_out and pending is not None and pending.block == block:
            unfinished = round((time.perf_counter() - pending.since) * 1000, 1)
        return {"times_ms": self.times[block][:moves], "acks_ms": list(self.acks.get(block, [])),
                "unfinished_ms": unfinished, "timed_out": timed_out}


@dataclass
class FloodPlayer(Measurer):
    """A flooding guest's table: played at once like the measured one, another opened when it
    ends; `kind` is `friends` (`me` and experts) or `casual` (experts fill it)."""

    kind: str = "friends"
    answers: Counter[str] = field(default_factory=Counter)

    async def new_table(self, ws: ClientConnection) -> None:
        while True:
            if self.kind == "casual":
                body: dict[str, Any] = {"ruleset": self.ruleset, "bot_level": "expert"}
                path = "/api/casual"
            else:
                body = {"ruleset": self.ruleset, "seats": self.seats,
                        "turn_seconds": TURN_SECONDS}
                path = "/api/tables"
            try:
                r = await self.http.post(path, json=body, headers=bearer(self.token))
                self.answers[f"{self.kind} {answer(r)}"] += 1
                if r.status_code < 400:
                    break
            except httpx2.HTTPError as exc:
                self.answers[f"{self.kind} {type(exc).__name__}"] += 1
            await asyncio.sleep(REFUSED_RETRY)
        self.match_id, self.pending, self.answered = r.json()["id"], None, -1
        await ws.send(json.dumps({"type": "join", "data": {"match": self.match_id}}))


@dataclass
class GuestFlood:
    """--flood-guests guests from --flood-ips addresses, PER_GUEST expert tables each."""

    players: list[FloodPlayer]
    clients: list[httpx2.AsyncClient]
    tasks: list[asyncio.Task[None]]
    began: float

    def report(self) -> dict[str, Any]:
        answers: Counter[str] = sum((p.answers for p in self.players), Counter())
        errors = [repr(t.exception()) for t in self.tasks
                  if t.done() and not t.cancelled() and t.exception() is not None]
        return {"seconds": round(time.perf_counter() - self.began, 1),
                "created": sum(n for k, n in answers.items() if k.endswith((" 200", " 201"))),
                "statuses": dict(sorted(answers.items())), "player_errors": errors[:3]}

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        for c in self.clients:
            await c.aclose()


async def guest_flood(url: str, args: argparse.Namespace, seats: list[str], tag: str
                      ) -> GuestFlood:
    began = time.perf_counter()
    addresses = attack_addresses(args.flood_ips)
    clients = [client(url, a) for a in addresses]
    players: list[FloodPlayer] = []
    for i in range(args.flood_guests):
        http = clients[i % len(clients)]
        token = (await post(http, "/api/guest", {"name": f"F{tag}g{i}"}))["token"]
        for k in range(PER_GUEST):
            players.append(FloodPlayer(url, http, token, args.ruleset, seats,
                                       random.Random(args.seed * 7919 + i * 10 + k),
                                       block="flood-player",
                                       kind=("friends", "casual")[k % 2]))
    tasks = [asyncio.create_task(p.play()) for p in players]
    return GuestFlood(players, clients, tasks, began)


async def flood(http: httpx2.AsyncClient, count: int, tag: str) -> dict[str, Any]:
    """ceil(count / PER_GUEST) guests create PER_GUEST bots-only matches each."""
    began = time.perf_counter()
    gate = asyncio.Semaphore(HTTP_CONCURRENCY)
    statuses: Counter[str] = Counter()
    guests = math.ceil(count / PER_GUEST)

    async def guest(i: int) -> str | None:
        try:
            async with gate:
                r = await http.post("/api/guest", json={"name": f"F{tag}g{i}"})
        except httpx2.HTTPError as exc:
            statuses[f"guest_{type(exc).__name__}"] += 1
            return None
        statuses[f"guest_{r.status_code}"] += 1
        return str(r.json()["token"]) if r.status_code == 200 else None

    tokens = await asyncio.gather(*(guest(i) for i in range(guests)))
    body = {"ruleset": FLOOD_RULESET, "seats": ["bot:expert"] * 4}

    async def match(token: str) -> None:
        try:
            async with gate:
                r = await http.post("/api/matches", json=body, headers=bearer(token))
        except httpx2.HTTPError as exc:
            statuses[f"match_{type(exc).__name__}"] += 1
            return
        code = r.json().get("error", {}).get("code", "") if r.status_code >= 400 else ""
        statuses[f"match_{r.status_code}{'_' + code if code else ''}"] += 1

    jobs = [t for t in tokens if t is not None for _ in range(PER_GUEST)][:count]
    await asyncio.gather(*(match(t) for t in jobs))
    return {"seconds": round(time.perf_counter() - began, 1),
            "created": statuses.get("match_201", 0), "statuses": dict(sorted(statuses.items()))}


async def live_bot_matches(http: httpx2.AsyncClient) -> int | None:
    with contextlib.suppress(httpx2.HTTPError, ValueError, KeyError, TypeError):
        live = (await http.get("/api/matches")).json()["live"]
        return sum(1 for t in live if t.get("mode") == "bots" and t.get("status") == "playing")
    return None


async def bots_round(args: argparse.Namespace, r: int, moves: int) -> dict[str, Any]:
    env = {**BOTS_ENV, **args.env}
    idle = await wait_idle(args.wait_idle)
    out: dict[str, Any] = {"round": r + 1, "machine_busy_before_pct": idle}
    server = Server(args.cmd, args.src, env, ["--bot-delay-ms", str(args.bot_delay_ms)])
    guests: GuestFlood | None = None
    try:
        await asyncio.to_thread(server.wait_ready)
        say(f"round {r + 1}: server pid {server.pid} at {server.url}")
        tag = secrets.token_hex(2)
        async with client(server.url) as http:
            rulesets = {x["name"]: x["seats"] for x in (await http.get("/api/rulesets")).json()}
            seats = ["me"] + ["bot:expert"] * (rulesets[args.ruleset] - 1)
            me = await post(http, "/api/guest", {"name": f"M{tag}"})
            player = Measurer(server.url, http, me["token"], args.ruleset, seats,
                              random.Random(args.seed + r))
            task = asyncio.create_task(player.play())
            try:
                await player.measure("warmup", WARMUP_MOVES, 60.0, task)
                for block in ("baseline", "flood"):
                    if block == "flood" and args.flood == "guests":
                        say(f"round {r + 1}: {args.flood_guests} guests from "
                            f"{args.flood_ips} address(es) open expert tables")
                        guests = await guest_flood(server.url, args, seats, tag)
                        await asyncio.sleep(FLOOD_SETTLE)  # casual tables fill, all play
                        out["flood_setup"] = guests.report()
                        say(f"round {r + 1}: flood {out['flood_setup']}")
                    elif block == "flood":
                        say(f"round {r + 1}: {args.bots_matches} bots-only matches")
                        made = await flood(http, args.bots_matches, tag)
                        made["live_at_start"] = await live_bot_matches(http)
                        out["flood_setup"] = made
                        say(f"round {r + 1}: flood {made}")
                    window = Window(server, http)
                    await window.start()
                    found = await player.measure(block, moves, args.phase_seconds, task)
                    found.update(await window.end())
                    if block == "flood" and guests is not None:
                        out["flood_setup"]["at_end"] = guests.report()
                    elif block == "flood":
                        out["flood_setup"]["live_at_end"] = await live_bot_matches(http)
                    out[block] = found
                    s = summary(found["times_ms"])
                    say(f"round {r + 1} {block}: {s['n']} bot moves, mean {s['mean']} ms, "
                        f"p95 {s['p95']} ms in {found['seconds']} s")
            finally:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
                if guests is not None:
                    await guests.stop()
            out["events"] = dict(player.events)
    except BaseException:
        if server.proc.poll() is not None or not QUIET:
            print(server.tail(), file=sys.stderr)
        raise
    finally:
        server.stop()
    return out


def bots_report(args: argparse.Namespace, rounds: list[dict[str, Any]]) -> dict[str, Any]:
    quick = args.bot_delay_ms + QUICK_MS
    blocks: dict[str, Any] = {}
    for block in ("baseline", "flood"):
        times = [t for r in rounds for t in r[block]["times_ms"]]
        acks = [t for r in rounds for t in r[block]["acks_ms"]]
        unfinished = [r[block]["unfinished_ms"] for r in rounds if r[block]["unfinished_ms"]]

        def mean(key: str, b: str = block) -> float | None:
            values = [r[b][key] for r in rounds if r[b].get(key) is not None]
            return round(sum(values) / len(values), 1) if values else None

        blocks[block] = {
            "bot_move_ms": summary(times),
            "quick_share": round(sum(1 for t in times if t < quick) / len(times), 2)
            if times else None,
            # the share of forced moves swings from deal to deal: the searched ones alone
            "searched_mean_ms": summary([t for t in times if t >= quick])["mean"],
            "unfinished_at_end_ms": unfinished,
            "timed_out_rounds": sum(1 for r in rounds if r[block]["timed_out"]),
            "own_move_ack_ms": summary(acks),
            "seconds": round(sum(r[block]["seconds"] for r in rounds), 1),
            "server_cpu_pct": mean("server_cpu_pct"),
            "children_cpu_pct": mean("children_cpu_pct"),
            "machine_busy_pct": mean("machine_busy_pct"),
            "server_moves_per_s": mean("server_moves_per_s"),
        }
    b, f = blocks["baseline"]["bot_move_ms"], blocks["flood"]["bot_move_ms"]
    return {
        "scenario": "bots",
        "server": {"cmd": args.cmd, "code": code_of(args.src), "env": {**BOTS_ENV, **args.env}},
        "ruleset": args.ruleset,
        "bots_matches": args.bots_matches,
        "flood_label": f"{args.bots_matches} bots-only expert matches"
        if args.flood == "bots-only" else
        f"{args.flood_guests} guests from {args.flood_ips} address(es), up to {PER_GUEST} "
        f"expert tables each, played at once (bot delay {args.bot_delay_ms} ms)",
        "rounds": len(rounds),
        "moves_per_block": args.moves,
        "phase_seconds": args.phase_seconds,
        "blocks": blocks,
        "ratio_mean": ratio(f["mean"], b["mean"]),
        "ratio_p50": ratio(f["p50"], b["p50"]),
        "ratio_searched_mean": ratio(blocks["flood"]["searched_mean_ms"],
                                     blocks["baseline"]["searched_mean_ms"]),
        "ratio_by_round": [ratio(summary(r["flood"]["times_ms"])["mean"],
                                 summary(r["baseline"]["times_ms"])["mean"]) for r in rounds],
        "flood": [r["flood_setup"] for r in rounds],
        "machine_busy_before_pct": [r["machine_busy_before_pct"] for r in rounds],
        "events": dict(sum((Counter(r["events"]) for r in rounds), Counter())),
        "by_round": rounds,  # every time measured
    }


def server_line(out: dict[str, Any]) -> str:
    """Which code the server ran: checkout, commit and how many files of src/ had changed."""
    code = out["server"]["code"]
    return (f"server: {code.get('checkout')} @ {code.get('commit', '?')} "
            f"({code.get('src_files_changed_since_commit', '?')} files of src/ changed)")


def bots_render(out: dict[str, Any]) -> str:
    lines = [
        server_line(out),
        f"{out['rounds']} round(s), fresh server each: expert's moves at a '{out['ruleset']}' "
        f"table with a human; flood = {out['flood_label']}",
        "",
        "| block | bot moves | mean ms | p50 | p95 | max | forced (<delay+50 ms) "
        "| mean of the others "
        "| pending at end ms "
        "| own move→ack p50/p95 ms | server CPU % (children) | machine busy % | moves stored/s "
        "| seconds |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|---|---|---:|---:|---:|",
    ]
    for block, s in out["blocks"].items():
        m, a = s["bot_move_ms"], s["own_move_ack_ms"]
        pending = ", ".join(str(u) for u in s["unfinished_at_end_ms"]) or "-"
        lines.append(
            f"| {block} | {m['n']} | {m['mean']} | {m['p50']} | {m['p95']} | {m['max']} | "
            f"{s['quick_share']} | {s['searched_mean_ms']} | {pending}"
            f" | {a['p50']} / {a['p95']} | {s['server_cpu_pct']} ({s['children_cpu_pct']}) | "
            f"{s['machine_busy_pct']} | {s['server_moves_per_s']} | {s['seconds']} |")
    lines.append("")
    lines.append(f"ratio flood/baseline: mean {out['ratio_mean']}, p50 {out['ratio_p50']}, mean "
                 f"of the searched moves {out['ratio_searched_mean']}; mean by round "
                 f"{out['ratio_by_round']}")
    for i, f in enumerate(out["flood"], 1):
        if "at_end" in f:
            lines.append(f"round {i} flood: answers at start {f['statuses']}, by the end "
                         f"{f['at_end']['statuses']}")
            continue
        lines.append(f"round {i} flood: created {f['created']} in {f['seconds']} s, live at start "
                     f"{f.get('live_at_start')}, at end {f.get('live_at_end')}; "
                     f"answers {f['statuses']}")
    lines.append(f"events: {out['events'] or 'none'}")
    return "\n".join(lines)


async def run_bots(args: argparse.Namespace) -> dict[str, Any]:
    per_round = math.ceil(args.moves / args.rounds)
    rounds = [await bots_round(args, r, per_round) for r in range(args.rounds)]
    return bots_report(args, rounds)


# --------------------------------------------------------------------------- scenario: login


def attack_addresses(count: int) -> list[str]:
    first = [int(x) for x in ATTACK_BASE.split(".")]
    return [f"127.0.{first[2]}.{first[3] + i}" for i in range(count)]


def attacker_main(url: str, target: str, addresses: list[str], concurrency: int,
                  seconds: float, queue: Queue[Any], go: Any) -> None:
    """The attackers' process: wrong passwords back to back from `addresses`, for `seconds`."""

    async def main() -> dict[str, Any]:
        clients = [client(url, a, concurrency, timeout=30.0) for a in addresses]
        statuses: Counter[str] = Counter()
        latency: list[float] = []
        rng = random.Random()
        queue.put(("ready", None))
        await asyncio.get_running_loop().run_in_executor(None, go.wait)
        began = time.perf_counter()
        deadline = began + seconds
        cpu0 = time.process_time()

        async def one(i: int) -> None:
            http = clients[i % len(clients)]
            while time.perf_counter() < deadline:
                t = time.perf_counter()
                try:
                    r = await http.post("/api/login", json={
                        "name": target, "password": f"wrong-{rng.getrandbits(40):x}"})
                    statuses[answer(r)] += 1
                    latency.append((time.perf_counter() - t) * 1000)
                except httpx2.HTTPError as exc:
                    statuses[type(exc).__name__] += 1
                    await asyncio.sleep(0.01)  # a refused connection fails at once

        await asyncio.gather(*(one(i) for i in range(concurrency)))
        wall = time.perf_counter() - began
        cpu = time.process_time() - cpu0
        for c in clients:
            await c.aclose()
        return {"requests": sum(statuses.values()),
                "per_s": round(sum(statuses.values()) / wall, 1),
                "statuses": dict(sorted(statuses.items())), "latency_ms": summary(latency),
                "cpu_pct": round(100 * cpu / wall, 1)}

    try:
        queue.put(("result", asyncio.run(main())))
    except Exception as exc:
        queue.put(("failed", f"{type(exc).__name__}: {exc}"))


async def honest(url: str, name: str, seconds: float, interval: float,
                 cookies: httpx2.Cookies) -> dict[str, Any]:
    """Log in with the right password, one login at a time, starting one every `interval`
    seconds (or as soon as the previous one answered, when it took longer), for `seconds`.
    `cookies` is the honest browser's jar, kept from one phase to the next (a browser that
    signed in before keeps its device cookie)."""
    statuses: Counter[str] = Counter()
    latency: list[float] = []
    async with client(url, HOST, timeout=30.0) as http:
        http.cookies = cookies
        began = time.perf_counter()
        start = began
        while start < began + seconds:
            await asyncio.sleep(max(0.0, start - time.perf_counter()))
            t = time.perf_counter()
            try:
                r = await http.post("/api/login", json={"name": name, "password": PASSWORD})
                statuses[answer(r)] += 1
                latency.append((time.perf_counter() - t) * 1000)
            except httpx2.HTTPError as exc:
                statuses[type(exc).__name__] += 1
            start = max(t + interval, time.perf_counter())
    return {"latency_ms": summary(latency), "ok": statuses.get("200", 0),
            "statuses": dict(sorted(statuses.items()))}


async def login_target(args: argparse.Namespace, target: str) -> list[dict[str, Any]]:
    idle = await wait_idle(args.wait_idle)
    server = Server(args.cmd, args.src, {**LOGIN_ENV, **args.env})
    rows: list[dict[str, Any]] = []
    procs: list[Any] = []
    try:
        await asyncio.to_thread(server.wait_ready)
        say(f"login/{target}: server pid {server.pid} at {server.url}")
        tag = secrets.token_hex(2)
        name, other = f"H{tag}", f"O{tag}"
        async with client(server.url, HOST) as http:
            await post(http, "/api/register", {"name": name, "password": PASSWORD})
            if target == "other":
                await post(http, "/api/register", {"name": other, "password": PASSWORD})
            window = Window(server, http)
            await window.start()
            jar = httpx2.Cookies()
            row = {"target": target, "phase": "alone", "machine_busy_before_pct": idle,
                   "honest": await honest(server.url, name, args.baseline_seconds,
                                          args.login_interval, jar)}
            row.update(await window.end())
            rows.append(row)
            say(f"login/{target} alone: {row['honest']}")

            ctx = mp.get_context("spawn")
            queue: Queue[Any] = ctx.Queue()
            go = ctx.Event()
            addresses = attack_addresses(args.attack_ips)
            proc = ctx.Process(target=attacker_main, daemon=True, args=(
                server.url, name if target == "same" else other, addresses, args.concurrency,
                args.attack_seconds, queue, go))
            proc.start()
            procs.append(proc)
            kind, body = await asyncio.to_thread(queue.get, True, 60)
            if kind != "ready":
                raise RuntimeError(f"the attackers failed: {body}")
            await window.start()
            go.set()
            found = await honest(server.url, name, args.attack_seconds, args.login_interval,
                                 jar)
            kind, body = await asyncio.to_thread(queue.get, True, args.attack_seconds + 90)
            if kind != "result":
                raise RuntimeError(f"the attackers failed: {body}")
            row = {"target": target, "phase": f"flood from {len(addresses)} address(es)",
                   "honest": found, "attacker": body}
            row.update(await window.end())
            rows.append(row)
            say(f"login/{target} flood: honest {found}; attackers {body}")
    except BaseException:
        if server.proc.poll() is not None or not QUIET:
            print(server.tail(), file=sys.stderr)
        raise
    finally:
        reap(procs)
        server.stop()
    return rows


def login_render(out: dict[str, Any]) -> str:
    lines = [
        server_line(out),
        f"honest logins every {out['login_interval_s']} s from {HOST}; {out['concurrency']} "
        f"concurrent wrong-password logins from {', '.join(out['attack_addresses'])}",
        "",
        "| target | phase | honest n (200) | mean ms | p50 | p95 | max | honest statuses "
        "| attacker req/s | attacker statuses | attacker p50 ms | attacker CPU % | server CPU % "
        "| machine busy % |",
        "|---|---|---:|---:|---:|---:|---:|---|---:|---|---:|---:|---:|---:|",
    ]
    for row in out["rows"]:
        h, a = row["honest"], row.get("attacker")
        m = h["latency_ms"]
        lines.append(
            f"| {row['target']} | {row['phase']} | {m['n']} ({h['ok']}) | {m['mean']} | "
            f"{m['p50']} | {m['p95']} | {m['max']} | {h['statuses']} | "
            f"{a['per_s'] if a else '-'} | {a['statuses'] if a else '-'} | "
            f"{a['latency_ms']['p50'] if a else '-'} | {a['cpu_pct'] if a else '-'} | "
            f"{row['server_cpu_pct']} | "
            f"{row['machine_busy_pct']} |")
    return "\n".join(lines)


async def run_login(args: argparse.Namespace) -> dict[str, Any]:
    rows = []
    for target in args.targets:
        rows += await login_target(args, target)
    return {
        "scenario": "login",
        "server": {"cmd": args.cmd, "code": code_of(args.src), "env": args.env},
        "concurrency": args.concurrency,
        "attack_addresses": attack_addresses(args.attack_ips),
        "login_interval_s": args.login_interval,
        "rows": rows,
    }


# --------------------------------------------------------------------------- main


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    global QUIET
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--scenario", choices=("bots", "login"), required=True)
    parser.add_argument("--src", default=None,
                        help="a checkout whose src/ the server runs (PYTHONPATH=SRC/src)")
    parser.add_argument("--server-cmd", default=f"{shlex.quote(sys.executable)} -m carroca",
                        help="the command before `serve ...` (default: this Python -m carroca)")
    parser.add_argument("--server-env", action="append", default=[], metavar="KEY=VALUE",
                        help="a setting for the server (repeatable), e.g. "
                             "CARROCA_BOT_WORKERS=2")
    parser.add_argument("--wait-idle", type=float, default=0.0, metavar="SECONDS",
                        help="before each server: wait up to SECONDS for the machine to be "
                             "under 40%% busy (a shared machine; default 0: do not wait)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--out", default=None, metavar="FILE",
                        help="also write the JSON object to FILE")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    bots = parser.add_argument_group("scenario bots")
    bots.add_argument("--bots-matches", type=int, default=200,
                      help="bots-only matches of the flood (default 200)")
    bots.add_argument("--moves", type=int, default=80,
                      help="bot moves measured per block, over all rounds (default 80)")
    bots.add_argument("--rounds", type=int, default=2,
                      help="fresh servers, each a baseline block then a flood block")
    bots.add_argument("--phase-seconds", type=float, default=60.0,
                      help="a block ends after this many seconds at most (default 60)")
    bots.add_argument("--flood", choices=("bots-only", "guests"), default="bots-only",
                      help="bots-only matches (--bots-matches), or guests' expert tables")
    bots.add_argument("--flood-guests", type=int, default=9,
                      help="--flood guests: how many guests (default 9)")
    bots.add_argument("--flood-ips", type=int, default=1,
                      help=f"--flood guests: their addresses, from {ATTACK_BASE} on (default 1)")
    bots.add_argument("--bot-delay-ms", type=int, default=0,
                      help="the server's bot delay (default 0; the probe used 50)")
    bots.add_argument("--ruleset", default="duplas-pontos",
                      help="of the measured table: duplas-pontos (three experts) or a 1v1 one")
    login = parser.add_argument_group("scenario login")
    login.add_argument("--concurrency", type=int, default=32,
                       help="wrong-password logins in flight at once (default 32)")
    login.add_argument("--attack-ips", type=int, default=1,
                       help=f"attacker addresses from {ATTACK_BASE} on (default 1)")
    login.add_argument("--targets", default="same,other",
                       help="the attacked account: same (the honest one), other (default both)")
    login.add_argument("--baseline-seconds", type=float, default=10.0)
    login.add_argument("--attack-seconds", type=float, default=30.0)
    login.add_argument("--login-interval", type=float, default=0.5)
    args = parser.parse_args(argv)
    QUIET = args.quiet
    args.cmd = shlex.split(args.server_cmd)
    args.env = {}
    for item in args.server_env:
        key, sep, value = item.partition("=")
        if not sep or not key:
            parser.error(f"--server-env takes KEY=VALUE, not {item!r}")
        args.env[key] = value
    args.targets = [t.strip() for t in args.targets.split(",") if t.strip()]
    if not set(args.targets) <= {"same", "other"} or not args.targets:
        parser.error("--targets: same, other or both")
    if args.rounds < 1 or args.moves < 1 or args.bots_matches < 0 or args.phase_seconds <= 0:
        parser.error("--rounds, --moves and --phase-seconds must be positive")
    if not 1 <= args.attack_ips <= 250 or args.concurrency < 1:
        parser.error("--attack-ips from 1 to 250, --concurrency positive")
    raise_fd_limit()
    if args.scenario == "bots":
        result = asyncio.run(run_bots(args))
        text = bots_render(result)
    else:
        result = asyncio.run(run_login(args))
        text = login_render(result)
    if args.out:
        Path(args.out).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(result) if args.json else text, flush=True)
    return result


if __name__ == "__main__":
    main()
