"""`carroca serve` as a person runs it: a busy port, the line to open, the logs, Ctrl-C."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import httpx2
import pytest
from tests.support.bot_matches import bots_matches
from tests.support.serverproc import Server, free_port, wait_until

from carroca.server.preflight import problem
from carroca.server.settings import Settings


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("CARROCA_")}


def _serve_on_busy_port(tmp_path: Path,
                        how: Callable[[int], tuple[list[str], dict[str, str]]]
                        ) -> tuple[int, subprocess.CompletedProcess[str]]:
    """`carroca serve` told to use a port another socket listens on, with the arguments and
    the environment `how` gives for that port: the port, and how the command ended."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        args, env = how(port)
        done = subprocess.run([sys.executable, "-m", "carroca", "serve", *args], cwd=tmp_path,
                              env=env, capture_output=True, text=True, timeout=60, check=False)
    return port, done


@pytest.mark.slow
def test_a_busy_port_fails_at_once_and_prints_no_url(tmp_path: Path) -> None:
    port, done = _serve_on_busy_port(tmp_path, lambda port: (
        ["--port", str(port), "--database", f"sqlite:///{tmp_path / 'busy.db'}"], _env()))
    assert done.returncode == 1
    assert "open http" not in done.stdout + done.stderr
    busy = f"error: cannot listen on 127.0.0.1:{port}: address already in use"
    assert done.stderr.startswith(busy)
    assert "--port" in done.stderr and "CARROCA_PORT" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "busy.db").exists()  # nothing started: not even the migrations


@pytest.mark.slow
def test_the_port_from_the_environment(tmp_path: Path) -> None:
    """`CARROCA_PORT=9000 make run` works as `carroca serve` reads CARROCA_PORT."""
    port, done = _serve_on_busy_port(tmp_path, lambda port: (
        [], _env() | {"CARROCA_PORT": str(port), "CARROCA_DATABASE": "sqlite:///x.db"}))
    assert done.returncode == 1
    assert f"cannot listen on 127.0.0.1:{port}" in done.stderr


@pytest.mark.slow
def test_one_unwrapped_url_line_and_no_alembic_chatter(tmp_path: Path) -> None:
    # a long database path: the line is far wider than 80 columns, and must stay one line
    folder = tmp_path / ("a-rather-long-folder-name-for-the-database-" * 2)
    folder.mkdir()
    database = f"sqlite:///{folder / 'carroca.db'}"
    server = Server(database, tmp_path, [], "serve")
    try:
        wait_until(lambda: "open http" in server.log(), "the URL line")
        lines = server.log().splitlines()
    finally:
        server.kill()
    opened = [line for line in lines if "open http" in line]
    assert opened == [
        f"carroca: open http://localhost:{server.port}/ in your browser (database {database})"
    ]
    assert not [line for line in lines if "alembic" in line]


def test_the_url_line_hides_the_database_password(tmp_path: Path) -> None:
    from carroca.cli import database_shown

    shown = database_shown("postgresql://carroca:secret@db/carroca")
    assert "secret" not in shown and shown.startswith("postgresql://carroca:")
    assert database_shown("sqlite:///x.db") == "sqlite:///x.db"


@pytest.mark.slow
def test_ctrl_c_while_a_review_runs_leaves_no_traceback(tmp_path: Path) -> None:
    """Ctrl-C reaches the server's whole process group, the review process included."""
    port = free_port()
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "carroca", "serve", "--port", str(port), "--database",
             f"sqlite:///{tmp_path / 'c.db'}", "--bot-delay-ms", "0"],
            cwd=tmp_path, env=_env(), stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        base = f"http://127.0.0.1:{port}"

        def healthy() -> bool:
            try:
                return httpx2.get(f"{base}/api/health", trust_env=False).status_code == 200
            except httpx2.HTTPError:
                return False

        wait_until(healthy, "the server", timeout=90)
        with httpx2.Client(base_url=base, trust_env=False, timeout=30) as http:
            assert http.post("/api/guest", json={"name": "ana"}).status_code == 200
            ids = []
            for target in (1, 3):  # a short match reviewed to the end, then a longer one
                created = http.post("/api/matches", json={
                    "ruleset": "bloqueio", "options": {"target": target},
                    "seats": ["bot:greedy", "bot:random"],
                })
                assert created.status_code == 201, created.text
                ids.append(created.json()["id"])
            for match_id in ids:
                wait_until(lambda m=match_id: http.get(f"/api/matches/{m}").json()["status"]
                           == "finished", "the end of the match", timeout=120)
            wait_until(lambda: http.get(f"/api/matches/{ids[0]}/analysis").status_code == 200,
                       "the first review", timeout=120)
            assert http.get(f"/api/matches/{ids[1]}/analysis").status_code == 202
        time.sleep(0.3)  # the second review is running in the review process
        os.killpg(proc.pid, signal.SIGINT)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)
    text = log.read_text(errors="replace")
    for bad in ("Traceback", "KeyboardInterrupt", "leaked", "BrokenProcessPool", "ERROR"):
        assert bad not in text, text


@pytest.mark.slow
@pytest.mark.parametrize("how", ["ctrl-c", "sigterm"])
def test_stopping_after_an_expert_match_is_quiet_and_leaves_no_process(
        tmp_path: Path, how: str) -> None:
    """Ctrl-C (to the whole process group, as a terminal sends it) or SIGTERM (to the server
    alone, as a service manager sends it) after a bots-only expert match: exit 0, no traceback,
    and no bot worker left behind."""
    port = free_port()
    log = tmp_path / "serve.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "carroca", "serve", "--port", str(port), "--database",
             f"sqlite:///{tmp_path / 'c.db'}", "--bot-delay-ms", "0", "--bot-workers", "2"],
            cwd=tmp_path, env=_env(), stdout=out, stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        base = f"http://127.0.0.1:{port}"
        wait_until(lambda: _healthy(base), "the server", timeout=90)
        with httpx2.Client(base_url=base, trust_env=False, timeout=30) as http:
            assert http.post("/api/guest", json={"name": "ana"}).status_code == 200
            # A worker starts with the expert's first move that is not forced; a one-hand match
            # may have none (passes and single fits), so matches are played until one had it
            # (the workers then stay until the server stops).
            bots_matches(http, lambda _: bool(_children(proc.pid)))
        workers = _children(proc.pid)
        assert workers, "the bots thought in worker processes"
        if how == "ctrl-c":
            os.killpg(proc.pid, signal.SIGINT)
        else:
            proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
        for pid in workers:
            wait_until(lambda p=pid: not _alive(p), f"worker {pid} to exit", timeout=10)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=30)
    text = log.read_text(errors="replace")
    for bad in ("Traceback", "KeyboardInterrupt", "leaked", "ERROR"):
        assert bad not in text, text


def _healthy(base: str) -> bool:
    try:
        return httpx2.get(f"{base}/api/health", trust_env=False).status_code == 200
    except httpx2.HTTPError:
        return False


def _children(pid: int) -> list[int]:
    """The live child processes of `pid` (from /proc)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == pid and fields[0] != "Z":
            found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.slow
def test_a_postgresql_url_without_its_driver_says_how_to_install_it(tmp_path: Path) -> None:
    code = ("import sys; sys.modules['psycopg'] = None\n"
            "from carroca.cli import app\n"
            "app(['serve', '--database', 'postgresql://u:pw@127.0.0.1:1/db'])")
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=_env(),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "pip install 'carroca[postgres]'" in lines[0], done.stderr
    assert "Traceback" not in done.stderr and "pw" not in done.stderr


@pytest.mark.parametrize(("flags", "said"), [
    (["--database", "nonsense"], "is not a database URL"),
    (["--database", "mysql://x/y"], "only SQLite and PostgreSQL"),
    (["--database", "postgresql://u@127.0.0.1:1/db"], "cannot reach the database"),
])
@pytest.mark.slow
def test_a_bad_or_unreachable_database_is_one_line(tmp_path: Path, flags: list[str],
                                                    said: str) -> None:
    done = subprocess.run([sys.executable, "-m", "carroca", "serve", *flags], cwd=tmp_path,
                          env=_env(), capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and said in lines[0], done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize(("address", "said"), [
    ("redis://:secret@127.0.0.1:1/0", "cannot reach Redis at redis://:***@127.0.0.1:1/0"),
    ("http://nowhere", "is not a Redis URL"),
])
def test_a_bad_or_unreachable_redis_is_named(address: str, said: str) -> None:
    why = problem(Settings(database="sqlite:///:memory:", redis=address))
    assert why is not None and said in why and "secret" not in why
