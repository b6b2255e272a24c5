"""A real `carroca serve` process on a free port, for tests that crash, attack or time it.

The process runs with the environment's `CARROCA_*` variables removed and the test's own added,
so a developer's settings never leak into a test. It is forked from a process that imported the
server already (tests/support/zygote.py), which saves two thirds of a start's CPU;
CARROCA_TEST_FORK=0 starts each with `python -m carroca serve` instead.
"""

from __future__ import annotations

import contextlib
import inspect
import os
import signal
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from tests.support.server_app import CHEAP_PASSWORDS, fresh_database
from tests.support.zygote import Child, Zygote
from websockets.sync.client import ClientConnection, connect

START_SECONDS = 90.0  # a cold start on a busy machine (imports, migrations) can be slow
WAIT_SECONDS = 120.0  # a whole match, played out
# The servers are local: never through a proxy the environment may name (websockets >= 15
# follows HTTP(S)_PROXY by default, as httpx2 does unless trust_env is off).
NO_PROXY: dict[str, Any] = {"proxy": None} if "proxy" in inspect.signature(connect).parameters \
    else {}


#: One TLS context for every client of the test servers (`verify=LOCAL_TLS`): they speak plain
#: HTTP, but httpx2 loads the CA bundle for each new client otherwise, 45 ms of CPU, more than a
#: request; polling a starting server did it 20 times a second.
LOCAL_TLS = ssl.create_default_context()

#: The test process's zygote, started on the first server, ended with the session.
ZYGOTE = Zygote() if os.environ.get("CARROCA_TEST_FORK", "1") != "0" else None


def pytest_sessionfinish() -> None:
    if ZYGOTE is not None:
        ZYGOTE.close()


def http_client(base: str, token: str | None = None) -> httpx2.Client:
    """A client of the local server at `base`, acting as `token`'s player when given."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx2.Client(base_url=base, headers=headers, timeout=30, trust_env=False,
                         verify=LOCAL_TLS)


def ws_connect(port: int, token: str) -> ClientConnection:
    """A WebSocket to the local server on `port`, as `token`'s player."""
    ws: ClientConnection = connect(f"ws://127.0.0.1:{port}/ws?token={token}",
                                   open_timeout=30, close_timeout=1, **NO_PROXY)
    return ws


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Server:
    """One `carroca serve` process on a free port, its output kept in a log file."""

    def __init__(self, database: str, workdir: Path, flags: list[str], name: str,
                 env: dict[str, str] | None = None, *, port: int | None = None,
                 group: bool = False) -> None:
        """`port`: this one (a restarted node keeps its own), else a free one. `group`: the
        process leads a process group of its own, and kill() kills its children too."""
        self.log_path = workdir / f"{name}.log"
        self.database = database
        self.group = group
        env = {k: v for k, v in os.environ.items() if not k.startswith("CARROCA_")} | {
            "CARROCA_HAND_PAUSE_SECONDS": "0",  # no pause between hands unless a test asks
            "CARROCA_SOCKET_FRAMES_PER_SECOND": "0",  # test clients play at machine speed
            "CARROCA_FAIRPLAY_REVIEWS": "false",  # no background reviews unless a test asks
        } | {f"CARROCA_{k.upper()}": str(v) for k, v in CHEAP_PASSWORDS.items()} | (env or {})
        self.proc: subprocess.Popen[bytes] | Child
        for attempt in range(3):
            self.port = port or free_port()
            args = ["serve", "--port", str(self.port), "--database", database, *flags]
            if ZYGOTE is not None:
                self.proc = ZYGOTE.spawn(args, env=env, cwd=workdir, log=self.log_path,
                                         new_session=group)
            else:
                with self.log_path.open("wb") as log:
                    self.proc = subprocess.Popen(
                        [sys.executable, "-m", "carroca", *args], cwd=workdir, env=env,
                        stdout=log, stderr=subprocess.STDOUT, start_new_session=group)
            if self._wait_ready():
                return
            if "address already in use" not in self.log().lower() or attempt == 2:
                self.kill()
                raise AssertionError(f"the server did not start:\n{self.log()}")

    def _wait_ready(self) -> bool:
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                return False
            with contextlib.suppress(httpx2.HTTPError):
                health = httpx2.get(f"{self.base}/api/health", timeout=5, trust_env=False,
                                    verify=LOCAL_TLS)
                if health.status_code == 200:
                    return True
            time.sleep(0.05)
        return False

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def http(self, token: str | None = None) -> httpx2.Client:
        return http_client(self.base, token)

    def socket(self, token: str) -> ClientConnection:
        return ws_connect(self.port, token)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")[-4000:]

    def tail(self, lines: int = 50) -> str:
        """The log's last lines."""
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as when the machine's OOM killer strikes."""
        if self.group:
            with contextlib.suppress(ProcessLookupError):  # no process of the group is left
                os.killpg(self.proc.pid, signal.SIGKILL)
        elif self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)


@pytest.fixture
def servers(database: str, tmp_path: Path) -> Iterator[Callable[..., Server]]:
    """Starts servers on the test's database; every one still running is killed at the end."""
    started: list[Server] = []

    def start(*flags: str, env: dict[str, str] | None = None) -> Server:
        server = Server(database, tmp_path, list(flags), f"server-{len(started)}", env)
        started.append(server)
        return server

    yield start
    for server in started:
        server.kill()


@pytest.fixture(scope="module")
def shared_server(tmp_path_factory: pytest.TempPathFactory,
                  template_database: str) -> Iterator[Server]:
    """One server with the default test settings for the tests of a module that cannot disturb
    each other (each signs in its own players): a start costs seconds."""
    workdir = tmp_path_factory.mktemp("shared-server")
    with fresh_database(workdir, template_database) as database:
        server = Server(database, workdir, [], "server")
        try:
            yield server
        finally:
            server.kill()


def wait_until(check: Callable[[], Any], what: str, timeout: float = 30) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)
