"""Real `carroca serve` processes for a fraction of a start's cost: one process per test process
imports the server once (2 of the 3 CPU-seconds a start costs), then forks a child for each
server asked for.

A child is what `python -m carroca serve …` would be: its own argv, environment (exactly the one
given), working directory, log file on stdout and stderr, /dev/null on stdin and, if asked, a
session of its own; it runs the same command, and ends through the interpreter's normal exit.
It is safe to fork because the server reads its settings when it starts, from the environment,
not when imported, and importing it starts no thread (`main` checks). The child's `__main__`
is the zygote's `-c` program, not `carroca.__main__`: the bot workers it spawns import nothing
for it, where a `carroca` command's would import the command line again.

The zygote reaps its children and reports each exit status; `Child` is the test's handle,
with the subset of `subprocess.Popen` the tests use (`pid`, `poll`, `wait`, `kill`). The zygote
ends when its test process closes the connection, and the test process waits for it then, so
the servers' CPU is counted in the test run's (`/usr/bin/time`, rusage of children).
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import select
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[2]  # the repository: tests/support/ is two down
#: What a server imports when it starts, beyond what importing the command line brings: the
#: event loop, the migrations' machinery, the databases' drivers. Missing ones are skipped.
PRELOAD = (
    "carroca.cli", "carroca.server.app", "carroca.server.edge.guard", "carroca.server.logs",
    "carroca.server.preflight", "carroca.server.settings", "uvicorn", "uvicorn.loops.uvloop",
    "uvloop", "sqlite3", "argparse", "alembic.command", "alembic.config",
    "alembic.runtime.migration", "alembic.script", "mako.template", "sqlalchemy.ext.compiler",
    "python_multipart", "psycopg", "redis.asyncio",
)
_BOOT = "import sys; sys.path.insert(0, sys.argv[1]); from tests.support.zygote import main; main()"


def _send(sock: socket.socket, message: dict[str, Any]) -> None:
    sock.sendall(json.dumps(message).encode() + b"\n")


class Zygote:
    """The test process's end: starts the zygote on first use; thread-safe (a cluster starts its
    nodes from several threads)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._sock: socket.socket | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._buffer = b""
        self._exits: dict[int, int] = {}
        self.cpu = 0.0  # CPU-seconds of the children reaped so far, their own children's too
        self._answers: list[dict[str, Any]] = []  # to spawn requests, in order
        self._errors: IO[bytes] | None = None  # the zygote's own output

    def _connect(self) -> socket.socket:
        if self._sock is None:
            self._errors = tempfile.TemporaryFile()  # noqa: SIM115 (closed by close())
            ours, theirs = socket.socketpair()
            env = {k: v for k, v in os.environ.items() if not k.startswith("CARROCA_")}
            self._proc = subprocess.Popen(
                [sys.executable, "-c", _BOOT, str(ROOT), str(theirs.fileno())],
                cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=self._errors,
                stderr=self._errors, pass_fds=[theirs.fileno()])
            theirs.close()
            self._sock = ours
        return self._sock

    def _read(self, timeout: float | None) -> None:
        """Takes in what the zygote said within `timeout` (None: until something came)."""
        sock = self._connect()
        if not select.select([sock], [], [], timeout)[0]:
            return
        data = sock.recv(1 << 16)
        if not data:
            said = ""
            if self._errors is not None:
                self._errors.seek(0)
                said = self._errors.read().decode(errors="replace")[-4000:]
            raise RuntimeError(f"the server zygote died:\n{said}")
        self._buffer += data
        *lines, self._buffer = self._buffer.split(b"\n")
        for line in lines:
            message = json.loads(line)
            if "exit" in message:
                self._exits[message["exit"]] = message["code"]
                self.cpu += message["cpu"]
            else:
                self._answers.append(message)

    def spawn(self, args: list[str], *, env: dict[str, str], cwd: Path, log: Path,
              new_session: bool) -> Child:
        """A `carroca` process with these arguments (after the program's name)."""
        with self._lock:
            sock = self._connect()
            _send(sock, {"args": args, "env": env, "cwd": str(cwd), "log": str(log),
                         "new_session": new_session})
            while not self._answers:
                self._read(None)
            answer = self._answers.pop(0)
            if "error" in answer:
                raise RuntimeError(f"the server zygote could not fork: {answer['error']}")
            return Child(self, int(answer["pid"]))

    def returncode(self, pid: int, timeout: float = 0.0) -> int | None:
        """The child's exit status once the zygote reaped it; waits up to `timeout` for news."""
        with self._lock:
            if pid not in self._exits:
                self._read(timeout)
            return self._exits.get(pid)

    def close(self) -> None:
        """Ends the zygote (its running children, if any, live on) and reaps it."""
        with self._lock:
            if self._sock is not None:
                self._sock.close()
                self._sock = None
            if self._proc is not None:
                self._proc.wait(timeout=30)
                self._proc = None
            if self._errors is not None:
                self._errors.close()
                self._errors = None


class Child:
    """A server forked by the zygote: the part of `subprocess.Popen` the tests use."""

    def __init__(self, zygote: Zygote, pid: int) -> None:
        self._zygote = zygote
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            self.returncode = self._zygote.returncode(self.pid)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            left = 0.2 if deadline is None else min(0.2, deadline - time.monotonic())
            if left <= 0:
                raise subprocess.TimeoutExpired(f"pid {self.pid}", timeout or 0.0)
            self.returncode = self._zygote.returncode(self.pid, left)
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:  # reaped: the pid may be another process's now
            os.kill(self.pid, sig)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)


# ---------------------------------------------------------------------- the zygote's side


def main() -> None:
    """The zygote: preload, then fork on request until the test process hangs up. Returns only
    in a child, which then runs the command and exits as the interpreter does."""
    for name in PRELOAD:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)
    threads = os.listdir("/proc/self/task")
    if len(threads) != 1 or threading.active_count() != 1:
        raise SystemExit(f"the server zygote has {len(threads)} threads after its imports: "
                         "forking it is not safe")
    sock = socket.socket(fileno=int(sys.argv[2]))
    request = _serve(sock)
    _become(request)
    from carroca.cli import app

    app(args=request["args"], prog_name="carroca")


def _serve(sock: socket.socket) -> dict[str, Any]:
    children: dict[int, int] = {}  # pidfd -> pid
    buffer = b""
    while True:
        ready = select.select([sock, *children], [], [])[0]
        for fd in ready:
            if fd is not sock:
                pid = children.pop(fd)
                os.close(fd)
                _, status, usage = os.wait4(pid, 0)
                _send(sock, {"exit": pid, "code": os.waitstatus_to_exitcode(status),
                             "cpu": usage.ru_utime + usage.ru_stime})
                continue
            data = sock.recv(1 << 16)
            if not data:
                raise SystemExit(0)
            buffer += data
            *lines, buffer = buffer.split(b"\n")
            for line in lines:
                request = json.loads(line)
                sys.stdout.flush()
                sys.stderr.flush()
                try:
                    pid = os.fork()
                except OSError as exc:
                    _send(sock, {"error": str(exc)})
                    continue
                if pid == 0:
                    sock.close()
                    for pidfd in children:
                        os.close(pidfd)
                    return request  # type: ignore[no-any-return]
                children[os.pidfd_open(pid)] = pid
                _send(sock, {"pid": pid})


def _become(request: dict[str, Any]) -> None:
    """In the child: the process `subprocess.Popen` would have made."""
    if request["new_session"]:
        os.setsid()
    os.chdir(request["cwd"])
    log = os.open(request["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.close(log)
    os.close(null)
    os.environ.clear()
    os.environ.update(request["env"])
    sys.argv = ["carroca", *request["args"]]
    if "multiprocessing.process" in sys.modules:  # read at its import: the zygote's directory
        sys.modules["multiprocessing.process"].ORIGINAL_DIR = request["cwd"]
    # As `python -m`: the working directory first (not the zygote's "" and repository).
    sys.path[:] = [request["cwd"], *(p for p in sys.path if p not in ("", str(ROOT)))]
