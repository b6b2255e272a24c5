"""Load: N players on real WebSockets, playing at a human pace against real server processes.

The benchmark starts `carroca serve` on a fresh SQLite database (or uses --server-url), signs in N
guests, and seats them at friends' tables of duplas-pontos: four humans each, or two humans
partnered against two bots for --bot-share of the players. Over --ramp seconds the tables open
(the host creates, the others join by invite) and their players connect, one WebSocket each. Each
player answers its turns with a random legal action after a think time drawn uniformly from
[0.5, 1.5] x --think seconds. The figures cover the --duration seconds after the ramp:

- players connected at the end, tables, moves per second: acknowledged moves of the players, and
  every move the servers stored (bots' included) beside the pace the tables would keep if the
  servers answered at once;
- move round trip: from sending a `move` frame to receiving its `ack` (p50/p95/p99/max, and the
  worst of each second, which shows periodic stalls);
- each server's memory (VmRSS) and CPU time, in all and on its event-loop thread; Redis's and
  PostgreSQL's CPU (the latter summed over its processes); the generator's CPU and event-loop
  lag; the machine's CPU and the share of it nobody here used: together they tell whether a
  server, the generator, a shared service or something else on the machine is the bottleneck;
- errors, failed connections, disconnects and listen-queue overflows.

The generator runs in --workers processes, each one event loop with the collector off, and speaks
WebSocket through the sans-I/O protocol of `websockets`: one protocol object per connection and no
task per connection, so the client side stays cheap next to the server. A match that ends is
replaced by a new table of the same players.

Several nodes (--nodes N, 2 to 6): a cluster as deployed (docs/server.md), N `carroca serve
--node nI` processes sharing a fresh PostgreSQL database and a Redis, started by
tests/support/clusterproc.py's `Cluster` with the settings a single server gets here (the crowd's
per-address limits lifted, production leases). PostgreSQL and Redis are throwaway servers
(scripts/test-postgres.sh, scripts/test-redis.sh, in temporary directories), or the servers that
--database and --redis name: a fresh database is created on that PostgreSQL server and dropped at
the end, and that Redis's database is emptied. --postgres (or --database) runs one node on
PostgreSQL too, without Redis: the like-for-like single node.

How players reach the nodes (--front). `direct`, the default: the generator spreads the players
over the nodes itself, as an L4 balancer would; the HAProxy that `Cluster` starts only checks the
nodes' health. Each match is owned by the node its host created it on, and where its players
connect decides what crosses Redis (--route):

- `player` (default): the players of table t go to the nodes in turn, the host first, from node
  t mod N (owners are spread evenly). At two nodes half the humans of every table are on a node
  that does not own their match: their moves are forwarded to the owner through Redis, and the
  table's frames reach them by Redis pub/sub. A round-robin balancer without stickiness does
  this, or worse (it may put the host elsewhere too).
- `table`: every player of a table on its owner, as a balancer routing by match would; nothing
  but the nodes' control messages crosses Redis.

`proxy`: everything through HAProxy (deploy/haproxy.cfg, round robin per request and per socket,
as deployed), which costs CPU on the same machine. As the web client does, a player whose socket
landed on a node that does not run its match follows the `owner` frame: it connects again with
`/ws?node=NAME`, which the proxy routes to the owner (counted as `moved_to_owner`). Its cap of
100 connections per client address is met by spreading the generator's connections over
127.0.0.0/8 source addresses, and it holds two descriptors per player (so about 9,900 players
at 20,000 open files per process).

The report counts, per node, the calls it forwarded to owners (`moves` among them) and the
payloads it published to Redis (from /api/stats), and the share of the players' moves that were
forwarded.

    python bench/load.py --players 1000 --duration 60 --think 2.0 --ramp 20 [--workers 2]
        [--bot-share 0.2] [--bot-delay-ms 1000] [--server-url http://HOST:PORT
        [--server-pid PID]] [--json]
    python bench/load.py --nodes 2 --players 20000 --ramp 150 [--route player|table]
        [--front direct|proxy] [--database postgresql://…] [--redis redis://…]
    python bench/load.py --postgres --players 10000 --ramp 90   # one node on PostgreSQL
    python bench/load.py --metrics 2 --players 2000 --ramp 30   # metrics off, on, off, on

--metrics PAIRS runs the same load 2 x PAIRS times, alternating the servers' metrics off
(CARROCA_METRICS=false: no instrument counts, no endpoint) and on (every instrument, and
/metrics scraped every SCRAPE_SECONDS over the window, as a Prometheus would, more often than its
default 15 s), and reports the CPU per move of each run and of the two sides.

Friends and presence. --friends K gives each player K friends among the crowd (its worker's
players, in a ring: the K/2 before it and the K/2 after it), made at set-up over the API (a
request each way), so that every socket's presence reaches K friends: a `friends` list when it
connects, a `presence` frame to each friend online whenever what it does changes. Playing on at
one table changes nothing; --away S makes each player step away from its table now and then (a
`leave`, then a `join` AWAY_SECONDS later: a look at the lobby and back), after an exponential
time of mean S seconds, which changes its presence twice (online, then playing again). The
report counts the `friends` and `presence` frames the players got over the window.
--presence PAIRS runs the same load 2 x PAIRS times, alternating no friends and K friends each
(--friends, 20 when not given), with the same --away, and reports the CPU per move of each run
and of the two sides: what presence costs a move.

    python bench/load.py --presence 2 --friends 20 [--away 60] [--players 1000 …]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import importlib.util
import json
import math
import multiprocessing as mp
import os
import random
import resource
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from array import array
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from multiprocessing.queues import Queue
from pathlib import Path
from queue import Empty
from typing import Any, cast

import httpx2
from websockets.client import ClientProtocol
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri

RULESET = "duplas-pontos"
OPTIONS = {"target": 300}  # the longest duplas-pontos match: ~140 moves, minutes at human pace
# Every simulated player comes from this machine's one address: the per-address limits meant
# for the open internet (docs/server.md, "Limits and abuse") are lifted for the crowd.
CROWD = {"CARROCA_LIMIT_GUEST_IP": "1000000/minute", "CARROCA_LIMIT_SIGNUPS": "1000000/minute",
         "CARROCA_MAX_CONNECTIONS_PER_IP": "0",
         "CARROCA_LIMIT_TABLES_PLAYER": "1000000/minute",
         "CARROCA_BOT_TABLES_PER_ADDRESS": "1000000",
         "CARROCA_LIMIT_FRIEND_REQUESTS_PLAYER": "1000000/hour"}
TURN_SECONDS = 120.0  # the longest clock: a slow server does not make the clock play for anyone
PROGRESS_SECONDS = 5.0
LAG_TICK = 0.1  # seconds between the event-loop lag probes of a worker
LINGER = 1.0  # seconds the players stay after the window (their moves then are not counted)
AWAY_SECONDS = 1.0  # how long a player that steps away (--away) stays off its table
PRESENCE_FRIENDS = 20  # friends a player has in the "with" runs of --presence, by default
ROOT = Path(__file__).resolve().parent.parent
POSTGRES_SCRIPT = ROOT / "scripts" / "test-postgres.sh"
REDIS_SCRIPT = ROOT / "scripts" / "test-redis.sh"
# --front proxy: HAProxy refuses a client address's 101st connection (deploy/haproxy.cfg), so
# the generator's connections come from many loopback addresses, this many from each: half the
# cap, since a socket that moves to its table's owner holds two connections for a moment.
PER_SOURCE = 45


# --------------------------------------------------------------------------- plan and helpers


@dataclass(frozen=True)
class Plan:
    """What every worker needs to know (pickled to the worker processes)."""

    urls: tuple[str, ...]  # where the players go: the nodes (or the server, or the proxy)
    think: float
    bot_level: str
    http_concurrency: int
    tag: str  # a per-run prefix of the guests' names, so runs can share a server
    seed: int
    route: str = "player"  # which node a seat goes to (several urls): "player" or "table"
    sources: bool = False  # spread connections over loopback source addresses (--front proxy)
    follow: bool = False  # connect again to a match's owner when told (`owner`, --front proxy)
    deflate: bool = False  # offer permessage-deflate, as browsers do (--deflate)
    friends: int = 0  # friends each player has among its worker's players (--friends)
    away: float = 0.0  # mean seconds between a player's steps away from its table (--away)


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


def tree_cpu(pid: int) -> tuple[float, int]:
    """CPU seconds (user + system) of a process and of its children, alive or reaped (for
    PostgreSQL: the postmaster, its backends and helpers), and how many children are alive."""
    hz = os.sysconf("SC_CLK_TCK")
    total, children = 0.0, 0
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/stat", encoding="ascii", errors="replace") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:  # gone meanwhile
            continue
        if int(entry.name) == pid or int(fields[1]) == pid:
            total += sum(int(x) for x in fields[11:15]) / hz  # utime stime cutime cstime
            children += int(entry.name) != pid
    return total, children


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


@dataclass(frozen=True)
class Node:
    """A server process the benchmark watches: its name, its own URL, its pid when known."""

    name: str
    url: str
    pid: int | None


def start_profiles(nodes: Sequence[Node], out: str, seconds: float) -> list[Any]:
    """py-spy on each server over the window: a flame graph (SVG) and the same samples as
    collapsed stacks (`name.txt`, one stack per line and its count: what flamegraph.pl and
    speedscope read, and what `bench/profile_summary.py` sums up). Only the thread holding the
    GIL is sampled (`--gil`): Python's CPU, not threads waiting for work; C code that releases
    the GIL (a commit's fsync, socket writes) is not counted. Sampling costs the server some CPU:
    a profiled run's CPU figures are not the benchmark's."""
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    Path(out).mkdir(parents=True, exist_ok=True)
    started = []
    for node in nodes:
        if not node.pid:
            continue
        for fmt, suffix in (("flamegraph", "svg"), ("raw", "txt")):
            started.append(subprocess.Popen(
                [spy, "record", "--pid", str(node.pid), "--duration", str(int(seconds)),
                 "--rate", "250", "--gil", "--threads", "--format", fmt,
                 "--output", str(Path(out) / f"{node.name}.{suffix}")],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    return started


def snapshot(nodes: Sequence[Node], clients: Sequence[httpx2.Client] | None,
             servers: Servers | None = None) -> dict[str, Any]:
    """Each server's memory, CPU and counters, Redis's, PostgreSQL's and HAProxy's CPU, and
    the machine's CPU, at one moment."""
    out: dict[str, Any] = dict(zip(("machine_busy_s", "machine_total_s"), machine_cpu(),
                                   strict=True))
    out["listen_overflows"] = listen_overflows()
    out["nodes"] = []
    for i, node in enumerate(nodes):
        figures: dict[str, Any] = {}
        if node.pid:
            with contextlib.suppress(OSError):
                figures.update(proc_stats(node.pid))
        if clients is not None:
            with contextlib.suppress(httpx2.HTTPError, ValueError):
                figures.update(clients[i].get("/api/stats").json())
        out["nodes"].append(figures)
    if servers is not None:
        out.update(servers.stats())
    return out


def source() -> dict[str, Any]:
    """The checkout's commit, how many files under src/ differ from it, and which build of
    carroca the servers run."""
    out: dict[str, Any] = {}
    with contextlib.suppress(OSError, subprocess.CalledProcessError):
        git = ["git", "-C", str(ROOT)]
        out["commit"] = subprocess.run([*git, "log", "-1", "--format=%h"], check=True,
                                       capture_output=True, text=True).stdout.strip()
        changed = subprocess.run([*git, "status", "--porcelain", "--", "src"], check=True,
                                 capture_output=True, text=True).stdout.splitlines()
        out["src_files_changed"] = sum(1 for line in changed if line.strip())
    # The servers run this interpreter's carroca: the checkout (an editable install) or an
    # installed copy, with the engine compiled by mypyc (`make .venv-fast/.installed`) or not.
    spec = importlib.util.find_spec("carroca.rules.game")
    origin = (spec.origin or "") if spec else ""
    out["engine"] = "compiled" if origin.endswith((".so", ".pyd")) else "pure"
    out["installed_copy"] = not origin.startswith(str(ROOT / "src"))
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
    """`carroca serve` in a subprocess, on a fresh SQLite database in a temporary directory or
    on `database` (a PostgreSQL URL)."""

    def __init__(self, bot_delay_ms: int, database: str | None = None,
                 memory: str | None = None) -> None:
        self.dir = tempfile.TemporaryDirectory(prefix="carroca-load-")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = Path(self.dir.name) / "server.log"
        # --memory: the allocation tracer on (bench/memtrace.py), its figures written on SIGUSR2
        start = [sys.executable, "-m", "carroca"] if memory is None else [
            sys.executable, "-X", "tracemalloc=1", str(ROOT / "bench" / "memtrace.py"),
            str(Path(memory).resolve())]
        cmd = [
            *start, "serve", "--port", str(self.port),
            "--database", database or f"sqlite:///{Path(self.dir.name) / 'load.db'}",
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


def reap(procs: Sequence[Any]) -> None:
    """Wait a little for each worker process to end, then kill those still running."""
    for proc in procs:
        proc.join(5)
        if proc.is_alive():
            proc.kill()


def run_script(script: Path, *args: str) -> str:
    """Runs scripts/test-postgres.sh or test-redis.sh; returns what it printed (a URL)."""
    done = subprocess.run(["bash", str(script), *args], capture_output=True, text=True,
                          timeout=900, check=False)
    if done.returncode:
        raise RuntimeError(f"{script.name} {' '.join(args)} failed:\n{done.stderr[-2000:]}")
    return done.stdout.strip()



@contextlib.contextmanager
def postgres_admin(server: str) -> Iterator[Any]:
    """An autocommit connection to the PostgreSQL server at `server` (a URL naming any database
    on it): CREATE and DROP DATABASE cannot run inside a transaction."""
    import sqlalchemy as sa

    from carroca.server.storage.db import normalize_url

    admin = sa.create_engine(normalize_url(server), isolation_level="AUTOCOMMIT",
                             poolclass=sa.pool.NullPool)
    try:
        with admin.connect() as conn:
            yield conn
    finally:
        admin.dispose()


def drop_database(server: str, name: str) -> None:
    """Drop the database `name` on the PostgreSQL server at `server`, whoever is connected."""
    import sqlalchemy as sa

    with postgres_admin(server) as conn:
        conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


class Services:
    """A fresh PostgreSQL database and, for a cluster, a Redis: on throwaway servers in
    temporary directories, or on the servers `database` and `redis_url` name (a fresh database
    is created on that PostgreSQL server and dropped by stop())."""

    def __init__(self, database: str | None, redis_url: str | None, with_redis: bool) -> None:
        self.dirs: dict[Path, Path] = {}  # throwaway server's directory -> its script
        self.dropped: tuple[str, str] | None = None  # (server URL, database) to drop at the end
        self.redis: str | None = None
        self.postmaster: int | None = None
        try:
            server = database or self._throwaway(POSTGRES_SCRIPT, "pg")
            self.database = self._fresh(server, dropped=database is not None)
            if with_redis:
                self.redis = redis_url or self._throwaway(REDIS_SCRIPT, "redis")
        except BaseException:
            self.stop()
            raise

    def _throwaway(self, script: Path, what: str) -> str:
        # Not under a directory only we may enter: PostgreSQL runs as `postgres` when we are root.
        workdir = Path(tempfile.mkdtemp(prefix=f"carroca-load-{what}-"))
        self.dirs[workdir] = script
        return run_script(script, "start", str(workdir))

    def _fresh(self, server: str, dropped: bool) -> str:
        """A new, empty database on the server (the nodes migrate it); its URL. Also finds the
        postmaster, whose process tree's CPU is PostgreSQL's, when it runs on this machine."""
        import sqlalchemy as sa

        from carroca.server.storage.db import normalize_url

        name = f"carroca_load_{secrets.token_hex(4)}"
        with postgres_admin(server) as conn:
            conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
            if dropped:
                self.dropped = (server, name)
            backend = conn.execute(sa.text("SELECT pg_backend_pid()")).scalar_one()
            with contextlib.suppress(OSError, ValueError, IndexError):
                stat = Path(f"/proc/{backend}/stat").read_text().rsplit(")", 1)[1].split()
                parent = int(stat[1])
                if Path(f"/proc/{parent}/comm").read_text().strip() in ("postgres", "postmaster"):
                    self.postmaster = parent
        url = sa.engine.make_url(normalize_url(server)).set(database=name)
        return url.render_as_string(hide_password=False)

    def stats(self) -> dict[str, Any]:
        """PostgreSQL's CPU (its process tree) and Redis's CPU, memory and traffic, now."""
        out: dict[str, Any] = {}
        if self.postmaster:
            cpu, children = tree_cpu(self.postmaster)
            out["postgres"] = {"cpu_s": cpu, "processes": children + 1}
        if self.redis:
            import redis

            with contextlib.suppress(redis.RedisError, OSError), \
                    redis.Redis.from_url(self.redis, socket_timeout=5) as client:
                info = client.info()
                out["redis"] = {
                    "cpu_s": float(info["used_cpu_sys"]) + float(info["used_cpu_user"]),
                    "rss_mb": int(info["used_memory_rss"]) / 2**20,
                    "commands": int(info["total_commands_processed"]),
                    "net_in": int(info["total_net_input_bytes"]),
                    "net_out": int(info["total_net_output_bytes"]),
                    "channels": int(info.get("pubsub_channels", 0)),
                    "clients": int(info.get("connected_clients", 0)),
                }
        return out

    def stop(self) -> None:
        if self.dropped is not None:
            import sqlalchemy as sa


            server, name = self.dropped
            self.dropped = None
            with contextlib.suppress(sa.exc.SQLAlchemyError):
                drop_database(server, name)
        for workdir, script in list(self.dirs.items()):
            with contextlib.suppress(RuntimeError, subprocess.TimeoutExpired):
                run_script(script, "stop", str(workdir))
            shutil.rmtree(workdir, ignore_errors=True)
            del self.dirs[workdir]


class Servers:
    """Whatever the players play against: a running server (--server-url), one `carroca serve`
    (SQLite, or PostgreSQL with --postgres or --database), or a cluster of --nodes nodes behind
    HAProxy (tests/support/clusterproc.py). `nodes`: the processes watched; `urls`: where players
    go."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.server: Server | None = None
        self.services: Services | None = None
        self.cluster: Any = None
        self.workdir: tempfile.TemporaryDirectory[str] | None = None
        self.nodes: list[Node] = []
        self.urls: list[str] = []
        if args.server_url:
            url = args.server_url.rstrip("/")
            self.nodes, self.urls = [Node("server", url, args.server_pid)], [url]
            return
        try:
            self._start(args)
        except BaseException:
            self.stop()
            raise

    def _start(self, args: argparse.Namespace) -> None:
        if args.nodes == 1:
            if args.postgres or args.database:
                self.services = Services(args.database, None, with_redis=False)
            database = self.services.database if self.services is not None else None
            self.server = Server(args.bot_delay_ms, database, args.memory)
            self.server.wait_ready()
            self.nodes = [Node("server", self.server.url, self.server.pid)]
            self.urls = [self.server.url]
            return
        self.services = Services(args.database, args.redis, with_redis=True)
        if str(ROOT) not in sys.path:  # tests/ is found from the repository's root
            sys.path.insert(0, str(ROOT))
        from tests.support.clusterproc import Cluster

        from carroca.server.settings import Settings

        defaults = Settings()
        # What the single server gets: the settings' defaults where tests/support/serverproc.py
        # changes them for tests, this environment's CARROCA_* settings, the crowd's limits lifted.
        env = {
            "CARROCA_HAND_PAUSE_SECONDS": str(defaults.hand_pause_seconds),
            "CARROCA_SOCKET_FRAMES_PER_SECOND": str(defaults.socket_frames_per_second),
            # Players' addresses come from the proxy's X-Forwarded-For only behind it.
            "CARROCA_FORWARDED_ALLOW_IPS": "127.0.0.1" if args.front == "proxy" else "",
            **{k: v for k, v in os.environ.items() if k.startswith("CARROCA_")},
            **CROWD,
        }
        self.workdir = tempfile.TemporaryDirectory(prefix="carroca-load-cluster-")
        assert self.services.redis is not None
        self.cluster = Cluster(
            self.services.database, self.services.redis, Path(self.workdir.name),
            nodes=args.nodes, lease_seconds=defaults.lease_seconds,
            lease_renew_seconds=defaults.lease_renew_seconds,
            takeover_seconds=defaults.takeover_seconds, env=env,
            flags=["--bot-delay-ms", str(args.bot_delay_ms)],
        )  # fmt: skip
        self.nodes = [Node(f"n{i}", self.cluster.node_url(i), self.cluster.node(i).proc.pid)
                      for i in range(1, args.nodes + 1)]
        self.urls = [self.cluster.url] if args.front == "proxy" else [n.url for n in self.nodes]

    def stats(self) -> dict[str, Any]:
        """PostgreSQL's, Redis's and the proxy's figures now (`Services.stats`)."""
        out = self.services.stats() if self.services is not None else {}
        if self.cluster is not None and self.cluster.proxy is not None:
            with contextlib.suppress(OSError):
                out["haproxy"] = proc_stats(self.cluster.proxy.pid)
        return out

    def tail(self) -> str:
        if self.server is not None:
            return self.server.tail()
        if self.cluster is not None:
            with contextlib.suppress(OSError):
                return str(self.cluster.logs())
        return ""

    def stop(self) -> None:
        try:
            if self.server is not None:
                self.server.stop()
            if self.cluster is not None:
                self.cluster.stop()
        finally:
            if self.services is not None:
                self.services.stop()
            if self.workdir is not None:
                self.workdir.cleanup()


# --------------------------------------------------------------------------- one player


class Player(asyncio.Protocol):
    """One WebSocket: joins its match and plays each of its turns after a think time."""

    def __init__(self, gen: Generator, group: Group, token: str, name: str = "") -> None:
        self.gen = gen
        self.group = group
        self.token = token
        self.name = name
        self.node = 0  # which of the plan's urls the player uses
        self.source: tuple[str, int] | None = None  # the local address of its socket
        self.match_id = ""
        self.owner = ""  # the node that runs the match, once a node said so (`owner` frame)
        self.moving = False  # closing its socket to connect again to the owner
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
        self.away: asyncio.TimerHandle | None = None  # the next step away, or the way back

    # ------------------------------------------------------------------ transport

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's are not subclasses
        node = f"&node={self.owner}" if self.owner else ""
        self.ws = ClientProtocol(
            parse_uri(f"{self.gen.ends[self.node][2]}?token={self.token}{node}"),
            max_size=1 << 22,
            extensions=[ClientPerMessageDeflateFactory()] if self.gen.plan.deflate else None)
        self.ws.send_request(self.ws.connect())
        self._flush()

    def data_received(self, data: bytes) -> None:
        ws = self.ws
        assert ws is not None
        self.gen.wire += len(data)
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
        if self.moving:  # on purpose: to the owner
            self.moving = False
            if self.hello:
                self.hello = False
                gen.connected -= 1
            if not gen.stopping:
                gen.spawn(gen.connect(self))
        elif self.hello:
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
        if self.away is not None:
            self.away.cancel()
            self.away = None
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

    # ------------------------------------------------------------------ stepping away (--away)

    def _away_later(self) -> None:
        gen = self.gen
        if gen.plan.away > 0 and not gen.stopping:
            self.away = gen.loop.call_later(gen.rng.expovariate(1 / gen.plan.away),
                                            self._step_away)

    def _step_away(self) -> None:
        """Off the table for a moment (`leave`): the player's presence is "online" meanwhile."""
        self.away = None
        if self.gen.stopping:
            return
        if not self.hello or not self.match_id or self.group.renewing:
            self._away_later()
            return
        if self.pending != -1:  # a move waits for its answer: a moment later
            self.away = self.gen.loop.call_later(AWAY_SECONDS, self._step_away)
            return
        self._cancel()
        self._send("leave", {})
        self.gen.count("stepped_away")
        self.away = self.gen.loop.call_later(AWAY_SECONDS, self._back)

    def _back(self) -> None:
        self.away = None
        if self.hello and not self.gen.stopping:
            self.join()
        self._away_later()

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
                if gen.window_start <= self.sent_at < gen.window_end:
                    gen.rtt.append((time.perf_counter() - self.sent_at) * 1000)
                    gen.rtt_at.append(int(self.sent_at - gen.window_start))
        elif kind == "error":
            gen.count(f"error_{data['code']}")
            if data.get("id") == self.pending:
                self.pending = -1
        elif kind == "owner":
            if gen.plan.follow and data["match"] == self.match_id and data["node"] != self.owner:
                self.owner = data["node"]
                gen.count("moved_to_owner")
                self.moving = True
                self.close()
        elif kind == "presence" or kind == "friends":
            if gen.window_start <= time.perf_counter() < gen.window_end:
                gen.presence_frames += 1
        elif kind == "hello":
            self.hello = True
            gen.connected += 1
            gen.connect_ms.append((time.perf_counter() - self.started) * 1000)
            if self.match_id:
                self.join()
            if self.away is None:
                self._away_later()

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
        if gen.window_start <= self.sent_at < gen.window_end:
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
        self.ends: list[tuple[str, int, str]] = []  # per url: host, port, WebSocket URL
        for url in plan.urls:
            split = url.split("://", 1)
            host, _, port = split[1].partition(":")
            self.ends.append((host, int(port or 80), f"ws://{split[1]}/ws"))
        self.loop = asyncio.get_running_loop()
        concurrency = plan.http_concurrency
        if plan.sources:  # one source address for the worker's HTTP, under the proxy's cap
            concurrency = min(concurrency, PER_SOURCE)
        limits = httpx2.Limits(max_connections=concurrency,
                               max_keepalive_connections=concurrency)
        self.http = [
            httpx2.AsyncClient(base_url=url, timeout=120.0, transport=httpx2.AsyncHTTPTransport(
                limits=limits, local_address=f"127.{worker + 1}.255.1" if plan.sources else None))
            for url in plan.urls
        ]  # fmt: skip
        self.gate = asyncio.Semaphore(concurrency)
        self.groups: list[Group] = []
        self.players: list[Player] = []
        self.window_start = math.inf
        self.window_end = math.inf
        self.stopping = False
        self.connected = 0
        self.moves_sent = 0
        self.frames = 0
        self.presence_frames = 0  # `friends` and `presence` frames over the window
        self.bytes = 0  # frames' payloads, as the players read them
        self.wire = 0  # bytes off the sockets (compressed, with WebSocket framing)
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

    async def _post(self, path: str, body: dict[str, Any], token: str | None = None,
                    node: int = 0) -> dict[str, Any]:
        headers = {"authorization": f"Bearer {token}"} if token else None
        async with self.gate:
            for attempt in range(3):
                try:
                    r = await self.http[node].post(path, json=body, headers=headers)
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
        reply = await self._post("/api/guest", {"name": name}, node=self._names % len(self.http))
        group.players.append(Player(self, group, reply["token"], name))

    async def seat(self, group: Group) -> None:
        """A new friends' table for the group: the first player hosts, the others join."""
        host, *others = group.players
        bot = f"bot:{self.plan.bot_level}"
        seats = {4: ["me", "open", "open", "open"], 2: ["me", bot, "open", bot],
                 1: ["me", bot, bot, bot]}[group.seats]
        made = await self._post("/api/tables", {
            "ruleset": RULESET, "options": OPTIONS, "seats": seats,
            "turn_seconds": TURN_SECONDS,
        }, host.token, host.node)  # the host's node owns the match
        for p in others:
            await self._post("/api/tables/join", {"invite": made["invite"]}, p.token, p.node)
        group.match_id = made["id"]
        for p in group.players:
            p.match_id = made["id"]

    async def setup(self) -> dict[str, float]:
        """Sign in every guest; tables are opened during the ramp, as their players arrive."""
        start = time.perf_counter()
        self.groups = [Group(self, n) for n in self.tables]
        await asyncio.gather(*(self._guest(g) for g in self.groups for _ in range(g.seats)))
        self.players = [p for g in self.groups for p in g.players]
        self._place()
        out = {"guests": len(self.players), "guest_seconds": time.perf_counter() - start}
        if self.plan.friends:
            start = time.perf_counter()
            out["friendships"] = await self._befriend()
            out["friends_seconds"] = time.perf_counter() - start
        return out

    async def _befriend(self) -> int:
        """Each player befriends the `friends // 2` players after it in the worker's ring (so
        each has `friends`, the ones before it asking it): a request each way."""
        ring = self.players
        reach = min(self.plan.friends // 2, (len(ring) - 1) // 2)
        pairs = [(a, ring[(i + d) % len(ring)]) for i, a in enumerate(ring)
                 for d in range(1, reach + 1)]

        async def befriend(a: Player, b: Player) -> None:
            await self._post("/api/friends", {"name": b.name}, a.token, a.node)
            answer = await self._post("/api/friends", {"name": a.name}, b.token, b.node)
            if answer.get("status") != "friends":
                raise RuntimeError(f"{a.name} and {b.name} are not friends: {answer}")

        await asyncio.gather(*(befriend(a, b) for a, b in pairs))
        return len(pairs)

    def _place(self) -> None:
        """Each player's node (--route) and, behind the proxy, its socket's source address."""
        nodes = len(self.ends)
        for i, group in enumerate(self.groups):
            first = i + self.worker  # owners spread evenly over the nodes, whatever the worker
            for j, p in enumerate(group.players):
                p.node = (first + (j if self.plan.route == "player" else 0)) % nodes
        if self.plan.sources:
            for k, p in enumerate(self.players):
                block = k // PER_SOURCE
                p.source = (f"127.{self.worker + 1}.{block // 250}.{block % 250 + 1}", 0)

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
            await self.connect(p)

    async def connect(self, p: Player) -> None:
        p.started = time.perf_counter()
        host, port, _ = self.ends[p.node]
        try:
            await self.loop.create_connection(partial(_same, p), host, port,
                                              local_addr=p.source)
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
        end = self.window_end = self.window_start + duration
        n = len(self.groups)
        for i, g in enumerate(self.groups):
            at = start + ramp * i / max(1, n)
            self.loop.call_later(max(0.0, at - time.perf_counter()), self._open, g)
        self.spawn(self._probe_lag(end))
        cpu0 = math.nan
        frames0 = bytes0 = wire0 = 0
        next_report = time.perf_counter() + PROGRESS_SECONDS
        while (now := time.perf_counter()) < end:
            if math.isnan(cpu0) and now >= self.window_start:
                cpu0 = time.process_time()
                frames0, bytes0, wire0 = self.frames, self.bytes, self.wire
            if now >= next_report:
                progress(self.connected, self.moves_sent)
                next_report += PROGRESS_SECONDS
            await asyncio.sleep(min(0.05, end - now))
        cpu = time.process_time() - (time.process_time() if math.isnan(cpu0) else cpu0)
        connected = self.connected
        frames, received, wire = self.frames - frames0, self.bytes - bytes0, self.wire - wire0
        # The last moves get their answers, and the conductor's last look at the servers
        # (at the window's end) still sees every socket; nothing more is counted.
        await asyncio.sleep(LINGER)
        self.stopping = True
        for p in self.players:
            p.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.sleep(0.1)
        for client in self.http:
            await client.aclose()
        return {
            "connected": connected,
            "moves_sent": self.moves_sent,
            "acks": len(self.rtt),
            "frames": frames,
            "presence_frames": self.presence_frames,
            "bytes": received,
            "wire": wire,
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

    def say(text: str) -> None:
        if not args.quiet:
            print(f"[load {time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)

    procs: list[Any] = []
    if args.nodes > 1 or args.postgres or args.database:
        say("starting " + ("a PostgreSQL and a Redis" if args.nodes > 1 else "a PostgreSQL")
            + (" and the nodes" if args.nodes > 1 else ""))
    code = source()
    servers = Servers(args)
    nodes = servers.nodes
    try:
        for node in nodes:
            if node.pid:
                say(f"{node.name} pid {node.pid} at {node.url}")
        if len(servers.urls) < len(nodes):
            say(f"players go through the proxy at {servers.urls[0]}")
        idle = snapshot(nodes, None, servers)
        plan = Plan(urls=tuple(servers.urls), think=args.think, bot_level=args.bot_level,
                    http_concurrency=args.http_concurrency, tag=secrets.token_hex(2),
                    seed=args.seed, route=args.route, sources=args.front == "proxy",
                    follow=args.front == "proxy", deflate=args.deflate,
                    friends=args.friends, away=args.away)
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
        if args.friends:
            say(f"{sum(int(x.get('friendships', 0)) for x in setups)} friendships made, "
                f"{max(x.get('friends_seconds', 0.0) for x in setups):.1f} s")
        say(f"{args.players} guests signed in, {setup_wall:.1f} s; opening tables and "
            f"connecting over {args.ramp:g} s")
        after_setup = snapshot(nodes, None, servers)
        t0.value = time.time() + 0.5
        go.set()
        window_start = t0.value + args.ramp
        window_end = window_start + args.duration
        results: dict[int, dict[str, Any]] = {}
        progress: dict[int, tuple[int, int]] = {}
        begin: dict[str, Any] = {}
        end: dict[str, Any] = {}
        last_say = time.time()
        profilers: list[subprocess.Popen[bytes]] = []
        clients = [httpx2.Client(base_url=n.url, timeout=30.0, trust_env=False) for n in nodes]
        scrapes = 0
        next_scrape = window_start if getattr(args, "scrape", False) else math.inf
        try:
            while len(results) < workers:
                now = time.time()
                if now >= next_scrape and now < window_end:
                    next_scrape = now + SCRAPE_SECONDS
                    for client in clients:  # as Prometheus reads each node
                        answer = client.get("/metrics")
                        if answer.status_code != 200:
                            raise RuntimeError(f"/metrics answered {answer.status_code}")
                        scrapes += 1
                if not begin and now >= window_start:
                    begin = snapshot(nodes, clients, servers)
                    if args.profile:
                        profilers = start_profiles(nodes, args.profile, args.duration)
                if not end and now >= window_end:
                    end = snapshot(nodes, clients, servers)
                    if args.memory and nodes[0].pid:  # while every player is still connected
                        written = Path(args.memory)
                        written.unlink(missing_ok=True)
                        os.kill(nodes[0].pid, signal.SIGUSR2)
                        # The server writes it while its loop stands still: wait for the whole
                        # file before the players leave and the server stops.
                        deadline = time.monotonic() + 300
                        while not written.exists() and time.monotonic() < deadline:
                            time.sleep(0.2)
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
                end = snapshot(nodes, clients, servers)
        finally:
            for client in clients:
                client.close()
            for profiler in profilers:
                profiler.wait(timeout=args.duration + 60)
    finally:
        reap(procs)
        servers.stop()
    out = report(args, tables, workers, setups, idle, after_setup, begin, end,
                 list(results.values()), nodes)
    out["window_unix"] = [round(window_start, 3), round(window_end, 3)]  # to match server logs
    if getattr(args, "scrape", False):
        out["metrics_scrapes"] = scrapes
    if not args.server_url:
        out["code"] = code
    return out


def _delta(begin: dict[str, Any], end: dict[str, Any], key: str) -> float | None:
    if begin.get(key) is None or end.get(key) is None:
        return None
    return float(end[key] - begin[key])


def node_report(node: Node, idle: dict[str, Any], after_setup: dict[str, Any],
                begin: dict[str, Any], end: dict[str, Any], seconds: float,
                players: float) -> dict[str, Any]:
    """One server's figures over the window (`players`: connected to it, when it does not say
    itself)."""
    out: dict[str, Any] = {"name": node.name}
    if node.pid:
        out["pid"] = node.pid
    if "sockets" in end:
        players = end["sockets"]
        out["sockets_end"] = players
    cpu = _delta(begin, end, "cpu_s")
    if cpu is not None:
        rss_idle = idle.get("rss_mb", 0)
        out.update({
            "rss_idle_mb": round(rss_idle, 1),
            "rss_after_guests_mb": round(after_setup.get("rss_mb", 0), 1),
            "rss_end_mb": round(end["rss_mb"], 1),
            "rss_peak_mb": round(end["peak_mb"], 1),
            "kb_per_player": round((end["rss_mb"] - rss_idle) * 1024 / players, 1)
            if players else None,
            "cpu_s": round(cpu, 2),
            "cpu_pct": round(100 * cpu / seconds, 1),
            "loop_thread_cpu_pct": round(100 * (end["loop_cpu_s"] - begin["loop_cpu_s"])
                                         / seconds, 1),
        })
    moves, commits = _delta(begin, end, "moves"), _delta(begin, end, "commits")
    if moves is not None and commits is not None:
        out["moves_stored"] = int(moves)
        out["moves_per_s"] = round(moves / seconds, 1)
        out["commits_per_s"] = round(commits / seconds, 1)
        if cpu is not None:
            out["cpu_ms_per_move"] = round(1000 * cpu / moves, 3) if moves else None
    if "calls" in end and "calls" in begin:
        out["calls"] = {m: n - begin["calls"].get(m, 0) for m, n in sorted(end["calls"].items())
                        if n - begin["calls"].get(m, 0)}
        published = end["redis_published"] - begin["redis_published"]
        out["redis_published_per_s"] = round(published / seconds, 1)
    if "tables" in end:
        out["tables_end"] = end["tables"]
    return out


def report(args: argparse.Namespace, tables: list[int], workers: int,
           setups: list[dict[str, float]], idle: dict[str, Any],
           after_setup: dict[str, Any], begin: dict[str, Any], end: dict[str, Any],
           results: list[dict[str, Any]], nodes: Sequence[Node]) -> dict[str, Any]:
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
    generator_cpu = sum(r["cpu_seconds"] for r in results)
    out: dict[str, Any] = {
        "players": args.players,
        "tables": len(tables),
        "tables_with_bots": sum(1 for t in tables if t < 4),
        "workers": workers,
        "nodes": len(nodes),
        "database": "postgresql" if args.nodes > 1 or args.postgres or args.database
        else "sqlite" if not args.server_url else None,
        "front": (args.front if args.nodes > 1 else "direct") if not args.server_url else None,
        "route": args.route if args.nodes > 1 and args.front == "direct" else None,
        "think_s": args.think,
        "deflate": args.deflate,
        "friends": getattr(args, "friends", 0),
        "friendships": sum(int(s.get("friendships", 0)) for s in setups),
        "away_s": getattr(args, "away", 0.0),
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
            "cpu_pct": round(100 * generator_cpu / args.duration, 1),
            "frames_per_s": round(sum(r["frames"] for r in results) / args.duration, 1),
            "presence_frames_per_s": round(sum(r.get("presence_frames", 0) for r in results)
                                           / args.duration, 1),
            "kb_received_per_s": round(sum(r["bytes"] for r in results) / 1024 / args.duration, 1),
            "kb_wire_per_s": round(sum(r.get("wire", 0) for r in results) / 1024 / args.duration,
                                   1),
            "loop_lag_ms": spread(lag),
        },
    }
    # Server-side figures over the time between the two snapshots, about --duration.
    window = (end["machine_total_s"] - begin["machine_total_s"]) / (os.cpu_count() or 1)
    window = window if window > 0 else args.duration
    per_node = [
        node_report(node, idle["nodes"][i], after_setup["nodes"][i], begin["nodes"][i],
                    end["nodes"][i], window, connected / len(nodes))
        for i, node in enumerate(nodes)
    ]
    if all("moves_stored" in n for n in per_node):
        moves = sum(n["moves_stored"] for n in per_node)
        commits = sum(n["commits_per_s"] for n in per_node)
        out["server_moves_per_s"] = round(moves / window, 1)
        out["server_commits_per_s"] = round(commits, 1)
        out["moves_per_commit"] = round(moves / window / commits, 2) if commits else None
    if len(per_node) == 1:
        if "cpu_s" in per_node[0]:
            server = {k: v for k, v in per_node[0].items() if k not in ("name", "moves_stored")}
            server.setdefault("pid", nodes[0].pid)
            out["server"] = server
    else:
        out["per_node"] = per_node
        if all("cpu_s" in n for n in per_node):
            cpu = sum(n["cpu_s"] for n in per_node)
            moves_stored = sum(n.get("moves_stored", 0) for n in per_node)
            out["server"] = {  # the nodes together; the event loop: the busiest node's
                "pids": [n["pid"] for n in per_node],
                **{key: round(sum(n[key] for n in per_node), 1)
                   for key in ("rss_idle_mb", "rss_after_guests_mb", "rss_end_mb",
                               "rss_peak_mb", "cpu_s", "cpu_pct")},
                "kb_per_player": round(sum(n["rss_end_mb"] - n["rss_idle_mb"] for n in per_node)
                                       * 1024 / connected, 1) if connected else None,
                "cpu_ms_per_move": round(1000 * cpu / moves_stored, 3) if moves_stored
                else None,
                "loop_thread_cpu_pct": max(n["loop_thread_cpu_pct"] for n in per_node),
            }
        if all("calls" in n for n in per_node):
            calls: Counter[str] = Counter()
            for n in per_node:
                calls.update(n["calls"])
            out["forwarded"] = {
                "calls": dict(sorted(calls.items())),
                "move_share": round(calls["move"] / acks, 3) if acks else None,
                "redis_published_per_s": round(sum(n["redis_published_per_s"]
                                                   for n in per_node), 1),
            }
    used = generator_cpu / args.duration * 100 + sum(n.get("cpu_pct", 0) for n in per_node)
    if "redis" in begin and "redis" in end:
        b, e = begin["redis"], end["redis"]
        out["redis"] = {
            "cpu_pct": round(100 * (e["cpu_s"] - b["cpu_s"]) / window, 1),
            "rss_end_mb": round(e["rss_mb"], 1),
            "commands_per_s": round((e["commands"] - b["commands"]) / window, 1),
            "kb_in_per_s": round((e["net_in"] - b["net_in"]) / 1024 / window, 1),
            "kb_out_per_s": round((e["net_out"] - b["net_out"]) / 1024 / window, 1),
            "channels_end": e["channels"],
            "clients_end": e["clients"],
        }
        used += out["redis"]["cpu_pct"]
    if "haproxy" in begin and "haproxy" in end:
        cpu = end["haproxy"]["cpu_s"] - begin["haproxy"]["cpu_s"]
        out["haproxy"] = {"cpu_pct": round(100 * cpu / window, 1),
                          "rss_end_mb": round(end["haproxy"]["rss_mb"], 1)}
        used += out["haproxy"]["cpu_pct"]
    if "postgres" in begin and "postgres" in end:
        cpu = end["postgres"]["cpu_s"] - begin["postgres"]["cpu_s"]
        out["postgres"] = {"cpu_pct": round(100 * cpu / window, 1),
                           "processes_end": end["postgres"]["processes"]}
        used += out["postgres"]["cpu_pct"]
    busy = end["machine_busy_s"] - begin["machine_busy_s"]
    total = end["machine_total_s"] - begin["machine_total_s"]
    out["machine"] = {
        "cores": os.cpu_count(),
        "busy_pct": round(100 * busy / total, 1) if total else None,
        # busy time in % of one core, and what of it none of the processes above used: other
        # work on the machine, the kernel's own threads, this conductor
        "busy_core_pct": round(100 * busy / window, 1),
        "other_core_pct": round(100 * busy / window - used, 1),
        "loadavg_1m": float(Path("/proc/loadavg").read_text().split()[0]),
        "listen_overflows": end["listen_overflows"] - idle["listen_overflows"],
    }
    return out


def render(r: dict[str, Any]) -> str:
    rtt, s, g = r["rtt_ms"], r.get("server", {}), r["generator"]
    where = f"{r['nodes']} node(s)" + (f" on {r['database']}" if r.get("database") else "")
    if r.get("front") == "proxy":
        where += ", through HAProxy"
    elif r.get("route"):
        where += f", players spread per {r['route']}"
    if r.get("deflate"):
        where += ", permessage-deflate offered"
    if r.get("friends"):
        where += f", {r['friends']} friends each ({r['friendships']} friendships)"
    if r.get("away_s"):
        where += f", a step away every {r['away_s']:g} s"
    lines = [
        f"players {r['players']} at {r['tables']} tables ({r['tables_with_bots']} with bots), "
        f"{r['workers']} worker(s), think {r['think_s']:g} s, ramp {r['ramp_s']:g} s, "
        f"window {r['duration_s']:g} s; {where}",
        f"guests signed in: {r['guests']['seconds']:.1f} s = {r['guests']['per_s']} /s; a table "
        f"opened (create + joins) p50 {r['table_open_ms']['p50']} ms, p99 "
        f"{r['table_open_ms']['p99']} ms",
        f"connected at the end: {r['connected_end']}  (connect p50 {r['connect_ms']['p50']} ms, "
        f"p99 {r['connect_ms']['p99']} ms)",
        f"moves: {r['moves_acked']} acked = {r['moves_per_s']} /s; servers stored "
        f"{r.get('server_moves_per_s', '?')} /s (pace offered {r['offered_moves_per_s']} /s) in "
        f"{r.get('server_commits_per_s', '?')} commits/s",
        f"round trip ms: p50 {rtt['p50']}  p95 {rtt['p95']}  p99 {rtt['p99']}  max {rtt['max']}"
        f"  (n={rtt['n']})",
    ]
    if s:
        lines.append(
            f"server{'s together' if 'pids' in s else ''}: RSS {s['rss_end_mb']} MiB (idle "
            f"{s['rss_idle_mb']}, peak {s['rss_peak_mb']}) = {s['kb_per_player']} KiB/player; "
            f"CPU {s['cpu_pct']}% of a core (event-loop thread {s['loop_thread_cpu_pct']}%"
            f"{', the busiest node' if 'pids' in s else ''}), {s['cpu_ms_per_move']} ms/move")
    for n in r.get("per_node", []):
        if "cpu_pct" not in n:
            continue
        lines.append(
            f"  {n['name']}: {n.get('sockets_end', '?')} sockets, {n.get('tables_end', '?')} "
            f"tables, stores {n.get('moves_per_s', '?')} moves/s; CPU {n['cpu_pct']}% (loop "
            f"{n['loop_thread_cpu_pct']}%), RSS {n['rss_end_mb']} MiB; calls to owners "
            f"{n.get('calls') or 'none'}, Redis publishes {n.get('redis_published_per_s', '?')}/s")
    f = r.get("forwarded")
    if f:
        share = f["move_share"]
        lines.append(f"forwarded to the owner: {'?' if share is None else f'{100 * share:.1f}%'}"
                     f" of the acked moves; {f['redis_published_per_s']} Redis publishes/s")
    if "redis" in r:
        x = r["redis"]
        lines.append(f"redis: CPU {x['cpu_pct']}%, RSS {x['rss_end_mb']} MiB, "
                     f"{x['commands_per_s']} commands/s, {x['kb_in_per_s']} KiB/s in, "
                     f"{x['kb_out_per_s']} KiB/s out, {x['channels_end']} channels")
    if "postgres" in r:
        x = r["postgres"]
        lines.append(f"postgresql: CPU {x['cpu_pct']}% ({x['processes_end']} processes)")
    if "haproxy" in r:
        x = r["haproxy"]
        lines.append(f"haproxy: CPU {x['cpu_pct']}%, RSS {x['rss_end_mb']} MiB")
    lines.append(
        f"generator: CPU {g['cpu_pct']}% of a core, {g['frames_per_s']} frames/s "
        f"({g.get('presence_frames_per_s', 0)} of them friends' presence) "
        f"({g['kb_received_per_s']} KiB/s of payload, {g.get('kb_wire_per_s', '?')} KiB/s off "
        f"the sockets), loop lag p99 "
        f"{g['loop_lag_ms']['p99']} ms, max {g['loop_lag_ms']['max']} ms")
    m = r["machine"]
    lines.append(f"machine: {m['cores']} cores {m['busy_pct']}% busy over the window "
                 f"(everything on it: {m['busy_core_pct']}% of a core, {m['other_core_pct']}% "
                 f"not by the processes above), load average {m['loadavg_1m']}, listen-queue "
                 f"overflows {m['listen_overflows']}")
    lines.append(f"matches finished {r['matches_finished']}; events {r['events'] or 'none'}")
    if r.get("code"):
        c = r["code"]
        lines.append(f"code: {c.get('commit', '?')}, {c.get('src_files_changed', '?')} files "
                     f"under src/ changed since; engine {c.get('engine', '?')}"
                     f"{', an installed copy' if c.get('installed_copy') else ''}")
    return "\n".join(lines)


SCRAPE_SECONDS = 5.0


def _alternated(args: argparse.Namespace, say: Callable[[str], None], pairs: int,
                sides: tuple[Any, Any], apply: Callable[[Any], str],
                extra: Callable[[Any, dict[str, Any]], dict[str, Any]]) -> list[dict[str, Any]]:
    """`pairs` pairs of runs of the same load, the two sides in turn (`apply` sets a side up
    and names it): each run's server figures, and what `extra` takes of its report."""
    runs: list[dict[str, Any]] = []
    for pair in range(pairs):
        for side in sides:
            say(f"pair {pair + 1}/{pairs}: {apply(side)}")
            r = run(args)
            s = r.get("server", {})
            runs.append({"cpu_ms_per_move": s.get("cpu_ms_per_move"),
                         "cpu_pct": s.get("cpu_pct"), "kb_per_player": s.get("kb_per_player"),
                         "moves_per_s": r.get("server_moves_per_s"),
                         "rtt_p99_ms": r["rtt_ms"]["p99"], **extra(side, r)})
    return runs


def _median(runs: list[dict[str, Any]], key: str, keep: Callable[[dict[str, Any]], bool]
            ) -> float | None:
    figures = [x[key] for x in runs if keep(x) and x[key] is not None]
    return round(statistics.median(figures), 4) if figures else None


def _ratio(a: float | None, b: float | None) -> float | None:
    return round(a / b, 3) if a and b else None


def compare_metrics(args: argparse.Namespace, say: Callable[[str], None]) -> dict[str, Any]:
    """The same load with the servers' metrics off and on, alternated, one run after another."""

    def apply(on: bool) -> str:
        os.environ["CARROCA_METRICS"] = "true" if on else "false"
        args.scrape = on
        return f"metrics {'on' if on else 'off'}"

    runs = _alternated(args, say, args.metrics, (False, True), apply,
                       lambda on, r: {"metrics": on, "scrapes": r.get("metrics_scrapes", 0)})
    os.environ.pop("CARROCA_METRICS", None)
    off = _median(runs, "cpu_ms_per_move", lambda x: x["metrics"] is False)
    on_ = _median(runs, "cpu_ms_per_move", lambda x: x["metrics"] is True)
    return {"players": args.players, "duration_s": args.duration, "runs": runs,
            "cpu_ms_per_move_off": off, "cpu_ms_per_move_on": on_,
            "on_over_off": _ratio(on_, off)}


def compare_presence(args: argparse.Namespace, say: Callable[[str], None]) -> dict[str, Any]:
    """The same load without friends and with `args.friends` each (presence frames flowing),
    alternated, one run after another."""
    friends = args.friends or PRESENCE_FRIENDS

    def apply(each: int) -> str:
        args.friends = each
        return f"{each} friends each"

    runs = _alternated(args, say, args.presence, (0, friends), apply, lambda each, r: {
        "friends": each,
        "presence_frames_per_s": r["generator"]["presence_frames_per_s"],
        "stepped_away": r["events"].get("stepped_away", 0),
        "other_core_pct": r["machine"]["other_core_pct"]})
    args.friends = friends

    def without(x: dict[str, Any]) -> bool:
        return not x["friends"]

    def with_(x: dict[str, Any]) -> bool:
        return bool(x["friends"])

    off, on = _median(runs, "cpu_ms_per_move", without), _median(runs, "cpu_ms_per_move", with_)
    kb_off, kb_on = _median(runs, "kb_per_player", without), _median(runs, "kb_per_player", with_)
    return {"players": args.players, "duration_s": args.duration, "friends": friends,
            "away_s": args.away, "runs": runs, "cpu_ms_per_move_without": off,
            "cpu_ms_per_move_with": on, "with_over_without": _ratio(on, off),
            "kb_per_player_without": kb_off, "kb_per_player_with": kb_on,
            "kb_with_over_without": _ratio(kb_on, kb_off)}


def presence_lines(presence: dict[str, Any]) -> list[str]:
    return ([f"{x['friends']:>3} friends: {x['cpu_ms_per_move']} ms/move, CPU {x['cpu_pct']}%, "
             f"{x['moves_per_s']} moves/s, {x['presence_frames_per_s']} presence frames/s, "
             f"RTT p99 {x['rtt_p99_ms']} ms, other work {x['other_core_pct']}% of a core"
             for x in presence["runs"]]
            + [f"median CPU a move: without friends {presence['cpu_ms_per_move_without']} ms, "
               f"with {presence['friends']} each {presence['cpu_ms_per_move_with']} ms: "
               f"with/without {presence['with_over_without']}",
               f"median memory a player: without {presence['kb_per_player_without']} KiB, "
               f"with {presence['kb_per_player_with']} KiB: "
               f"with/without {presence['kb_with_over_without']}"])


def metrics_lines(compared: dict[str, Any]) -> list[str]:
    return ([f"metrics {'on ' if x['metrics'] else 'off'}: {x['cpu_ms_per_move']} ms/move, "
             f"CPU {x['cpu_pct']}%, {x['moves_per_s']} moves/s, RTT p99 {x['rtt_p99_ms']} ms, "
             f"{x['scrapes']} scrapes" for x in compared["runs"]]
            + [f"median CPU a move: off {compared['cpu_ms_per_move_off']} ms, on "
               f"{compared['cpu_ms_per_move_on']} ms: on/off {compared['on_over_off']}"])


#: The comparisons that start their own servers, by flag: how each is run and written out.
COMPARISONS: dict[str, tuple[Callable[[argparse.Namespace, Callable[[str], None]], dict[str, Any]],
                             Callable[[dict[str, Any]], list[str]]]] = {
    "presence": (compare_presence, presence_lines),
    "metrics": (compare_metrics, metrics_lines),
}


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--duration", type=float, default=60.0, help="measured seconds")
    parser.add_argument("--think", type=float, default=2.0, help="mean seconds before a move")
    parser.add_argument("--deflate", action="store_true",
                        help="the players offer permessage-deflate, as browsers do (Chromium's "
                             "offer: client_max_window_bits, context takeover)")
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
    parser.add_argument("--nodes", type=int, default=1,
                        help="servers: 1 (default), or 2 to 6 nodes of a cluster on PostgreSQL "
                             "and Redis")
    parser.add_argument("--postgres", action="store_true",
                        help="one node on a throwaway PostgreSQL instead of SQLite")
    parser.add_argument("--database", default=None,
                        help="a PostgreSQL server's URL instead of a throwaway one: a fresh "
                             "database is created on it, and dropped at the end")
    parser.add_argument("--redis", default=None,
                        help="a Redis URL instead of a throwaway one (its database is EMPTIED)")
    parser.add_argument("--front", choices=("direct", "proxy"), default="direct",
                        help="with --nodes: players connect to the nodes themselves (direct), "
                             "or through HAProxy")
    parser.add_argument("--route", choices=("player", "table"), default="player",
                        help="with --front direct: a table's players go to the nodes in turn "
                             "(player), or all to its owner (table)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", default=None, metavar="DIR",
                        help="py-spy each server over the window: DIR/NAME.svg and .txt")
    parser.add_argument("--memory", default=None, metavar="FILE",
                        help="one node: the server's live allocations at the window's end, by "
                             "line and file, written to FILE (bench/memtrace.py; slows it)")
    parser.add_argument("--metrics", type=int, default=0, metavar="PAIRS",
                        help="compare metrics off and on: PAIRS runs of each, alternated")
    parser.add_argument("--friends", type=int, default=0, metavar="K",
                        help="each player has K friends among the crowd, so that presence "
                             "frames flow (made at set-up)")
    parser.add_argument("--away", type=float, default=0.0, metavar="S",
                        help="each player steps away from its table (leave, then join again "
                             "a second later) every S seconds on average: presence changes")
    parser.add_argument("--presence", type=int, default=0, metavar="PAIRS",
                        help="compare no friends and --friends K each (20 by default): PAIRS "
                             "runs of each, alternated")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    args = parser.parse_args(argv)
    if args.players < 1 or args.duration <= 0 or args.think <= 0 or args.ramp < 0:
        parser.error("--players, --duration and --think must be positive, --ramp not negative")
    if not 0 <= args.bot_share <= 1:
        parser.error("--bot-share is a share of the players, from 0 to 1")
    if not 1 <= args.nodes <= 6:
        parser.error("--nodes: 1 to 6 (deploy/haproxy.cfg names six)")
    if args.server_url and (args.nodes > 1 or args.postgres or args.database or args.redis):
        parser.error("--server-url uses a running server: no --nodes, --postgres, --database, "
                     "--redis")
    if args.database and not args.database.startswith(("postgresql", "postgres:")):
        parser.error("--database names a PostgreSQL server (postgresql://…)")
    if args.redis and args.nodes == 1:
        parser.error("--redis is for a cluster: --nodes 2 or more")
    if args.friends < 0 or args.away < 0 or args.presence < 0:
        parser.error("--friends, --away and --presence are not negative")
    if args.metrics and args.presence:
        parser.error("one comparison at a time: --metrics or --presence")
    gc.disable()

    def say(text: str) -> None:
        if not args.quiet:
            print(f"[load {time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)

    for flag, (compare, lines) in COMPARISONS.items():
        if getattr(args, flag):
            if args.server_url:
                parser.error(f"--{flag} starts its own servers: no --server-url")
            compared = compare(args, say)
            print(json.dumps(compared) if args.json else "\n".join(lines(compared)), flush=True)
            return compared
    result = run(args)
    print(json.dumps(result) if args.json else render(result), flush=True)
    return result


if __name__ == "__main__":
    main()
