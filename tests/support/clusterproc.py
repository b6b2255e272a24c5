"""A local cluster for tests: several `carroca serve` nodes sharing one PostgreSQL database and
one Redis, behind HAProxy (deploy/haproxy.cfg, round robin) on a free port.

    with Cluster(database, redis, tmp_path, nodes=3, redis_dir=redis_dir) as cluster:
        httpx2.get(f"{cluster.url}/api/health")    # through the proxy, any node answers
        cluster.kill(2)                             # SIGKILL node n2
        cluster.restart_node(2)                     # n2 again, on the same port
        cluster.restart_redis()                     # the same URL afterwards

Nodes are numbered from 1, as they are named: node i runs `--node n{i}`, and the proxy names it n{i}
in the `X-Carroca-Node` response header. Each node is a `Server` of tests/support/serverproc.py in a
process group of its own (its bot and review workers die with it); `stop()` (or leaving the `with`
block) kills every process the cluster started, whatever state they are in. The fixtures are in
tests/cluster/conftest.py.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

import httpx2
import redis
from tests.support.serverproc import (
    LOCAL_TLS,
    START_SECONDS,
    Server,
    free_port,
    http_client,
    ws_connect,
)
from websockets.sync.client import ClientConnection

ROOT = Path(__file__).resolve().parents[2]  # the repository: tests/support/ is two down
REDIS_SCRIPT = ROOT / "scripts" / "test-redis.sh"
HAPROXY_SCRIPT = ROOT / "scripts" / "test-haproxy.sh"
NODE_HEADER = "X-Carroca-Node"  # which node answered a request through the proxy
MAX_NODES = 6  # deploy/haproxy.cfg's servers


class Cluster:
    """`nodes` nodes on `database` (a PostgreSQL URL, migrated or empty) and `redis`, with the
    proxy in front. `redis_dir`: the scripts/test-redis.sh directory of that Redis, which
    `stop_redis`, `start_redis` and `restart_redis` need. Leases are short so that a dead node
    is noticed within a test's patience; `env` adds or overrides nodes' `CARROCA_*` settings,
    `flags` adds `carroca serve` flags. The Redis database is emptied first: tests share one
    Redis, and a node of an earlier test may have left keys under the same node names."""

    def __init__(self, database: str, redis_url: str, workdir: Path, *, nodes: int = 3,
                 redis_dir: Path | None = None, lease_seconds: float = 2.0,
                 lease_renew_seconds: float = 0.5, takeover_seconds: float = 0.5,
                 env: dict[str, str] | None = None, flags: list[str] | None = None,
                 flush_redis: bool = True) -> None:
        if not 1 <= nodes <= MAX_NODES:
            raise ValueError(f"1 to {MAX_NODES} nodes (deploy/haproxy.cfg), not {nodes}")
        self.database = database
        self.redis = redis_url
        self.redis_dir = redis_dir
        self.workdir = workdir
        self.count = nodes
        self.env = {
            "CARROCA_FORWARDED_ALLOW_IPS": "127.0.0.1",  # the proxy: nodes see players' addresses
            "CARROCA_LEASE_SECONDS": str(lease_seconds),
            "CARROCA_LEASE_RENEW_SECONDS": str(lease_renew_seconds),
            "CARROCA_TAKEOVER_SECONDS": str(takeover_seconds),
            # Every test player comes from 127.0.0.1: the ranked queue's address marks would
            # never pair them (tests/security checks the marks).
            "CARROCA_RANKED_ADDRESS_MARKS": "false",
        } | (env or {})
        self.flags = list(flags or [])
        self.nodes: dict[int, Server] = {}
        self.proxy: subprocess.Popen[bytes] | None = None
        self.proxy_port = 0
        self.proxy_log = workdir / "haproxy.log"
        self._starts: dict[int, int] = {}  # starts per node, for log names
        try:
            if flush_redis:
                with redis.Redis.from_url(redis_url, socket_timeout=5) as client:
                    client.flushdb()
            self._start_nodes(range(1, nodes + 1))
            self._start_proxy()
        except BaseException:
            self.stop()
            raise

    # ------------------------------------------------------------------ addresses

    @property
    def url(self) -> str:
        """The proxy: what players use."""
        return f"http://127.0.0.1:{self.proxy_port}"

    def node(self, i: int) -> Server:
        """Node i (1, 2, …): the `Server` running `--node n{i}`."""
        if i not in self.nodes:
            raise IndexError(f"no node {i}: nodes are numbered 1 to {self.count}")
        return self.nodes[i]

    def node_url(self, i: int) -> str:
        return self.node(i).base

    def http(self, token: str | None = None) -> httpx2.Client:
        """A client of the proxy (a new connection per client: round robin works per request
        anyway, keep-alive or not)."""
        return http_client(self.url, token)

    def socket(self, token: str) -> ClientConnection:
        """A WebSocket through the proxy, to whichever node is next in the rotation."""
        return ws_connect(self.proxy_port, token)

    # ------------------------------------------------------------------ failures

    def kill(self, i: int) -> None:
        """SIGKILL node i and its workers: no shutdown code runs, its lease just stops."""
        self.node(i).kill()

    def pause(self, i: int) -> None:
        """SIGSTOP node i: alive for the kernel (connections are accepted, never answered), dead
        for the cluster once its lease runs out. Like a long GC pause or a frozen VM."""
        os.killpg(self.node(i).proc.pid, signal.SIGSTOP)

    def resume(self, i: int) -> None:
        os.killpg(self.node(i).proc.pid, signal.SIGCONT)

    def restart_node(self, i: int) -> Server:
        """Node i again (killed first if it runs), on its port: the proxy's config names it."""
        old = self.node(i)
        old.kill()
        self._start_nodes([i], port=old.port)
        return self.nodes[i]

    def stop_redis(self) -> None:
        """Stops the shared Redis (nodes lose their connections, and everything Redis held)."""
        self._redis_script("stop")

    def start_redis(self) -> None:
        """Starts it again, on the same port: the nodes' URL is still right."""
        url = self._redis_script("start")
        if url != self.redis:
            raise AssertionError(f"Redis came back at {url}, not {self.redis}")

    def restart_redis(self) -> None:
        self.stop_redis()
        self.start_redis()

    # ------------------------------------------------------------------ the end

    def stop(self) -> None:
        """Kills every process of the cluster (proxy and nodes, paused ones too). The Redis and
        the database are the caller's: they stay, Redis running (started again if a test
        stopped it and failed before starting it)."""
        errors: list[BaseException] = []
        if self.proxy is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proxy.pid, signal.SIGKILL)
            self.proxy.wait(timeout=30)
        for node in self.nodes.values():
            try:
                node.kill()
            except Exception as exc:  # the others must be killed too
                errors.append(exc)
        if self.redis_dir is not None:
            try:
                self.start_redis()
            except Exception as exc:
                errors.append(exc)
        if errors:
            raise errors[0]

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()

    def logs(self) -> str:
        """The end of every process's log, for a failing test's report."""
        parts = [f"--- {node.log_path.name} ({node.base})\n{node.log()}"
                 for _, node in sorted(self.nodes.items())]
        if self.proxy_log.exists():
            parts.append(f"--- haproxy.log ({self.url})\n"
                         f"{self.proxy_log.read_text(errors='replace')[-4000:]}")
        return "\n".join(parts)

    # ------------------------------------------------------------------ inside

    def _start_nodes(self, numbers: list[int] | range, port: int | None = None) -> None:
        """Starts the nodes at once (each waits for its health check), keeping those that
        started in `self.nodes` even when another failed, so that stop() finds them."""
        def start(i: int) -> Server:
            self._starts[i] = self._starts.get(i, 0) + 1
            name = f"n{i}" if self._starts[i] == 1 else f"n{i}.{self._starts[i]}"
            return Server(self.database, self.workdir,
                          ["--redis", self.redis, "--node", f"n{i}", "--host", "127.0.0.1",
                           *self.flags],
                          name, self.env, port=port, group=True)

        with ThreadPoolExecutor(len(numbers)) as pool:
            futures = {i: pool.submit(start, i) for i in numbers}
        failures = []
        for i, future in futures.items():
            try:
                self.nodes[i] = future.result()
            except Exception as exc:
                failures.append(exc)
        if failures:
            raise failures[0]

    def _start_proxy(self) -> None:
        backends = [f"127.0.0.1:{self.nodes[i].port}" for i in sorted(self.nodes)]
        for _ in range(3):
            self.proxy_port = free_port()
            with self.proxy_log.open("wb") as log:
                self.proxy = subprocess.Popen(
                    ["bash", str(HAPROXY_SCRIPT), "run", f"127.0.0.1:{self.proxy_port}",
                     *backends],
                    stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                )
            deadline = time.monotonic() + START_SECONDS
            while time.monotonic() < deadline and self.proxy.poll() is None:
                with contextlib.suppress(httpx2.HTTPError):
                    if httpx2.get(f"{self.url}/api/health", timeout=5, trust_env=False,
                                  verify=LOCAL_TLS).status_code == 200:
                        return
                time.sleep(0.05)
            self.proxy.kill()
            self.proxy.wait(timeout=30)
            if "cannot bind" not in self.proxy_log.read_text(errors="replace"):
                break
        raise AssertionError(f"HAProxy did not start:\n{self.proxy_log.read_text()[-4000:]}")

    def _redis_script(self, action: str) -> str:
        if self.redis_dir is None:
            raise RuntimeError("this cluster's Redis is not ours to stop (CARROCA_TEST_REDIS "
                               "without CARROCA_TEST_REDIS_DIR)")
        done = subprocess.run(["bash", str(REDIS_SCRIPT), action, str(self.redis_dir)],
                              capture_output=True, text=True, timeout=60, check=False)
        if done.returncode:
            raise AssertionError(f"test-redis.sh {action} failed:\n{done.stderr}")
        return done.stdout.strip()


@dataclass(frozen=True)
class RedisServer:
    """The tests' Redis: its URL, and its scripts/test-redis.sh directory when the tests may
    restart it."""

    url: str
    dir: Path | None
