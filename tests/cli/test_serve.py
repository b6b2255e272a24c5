"""`carroca serve` as a person runs it: a busy port, the line to open, the logs, Ctrl-C."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx2
from tests.serverproc import Server, free_port, wait_until


def _env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("CARROCA_")}


def test_a_busy_port_fails_at_once_and_prints_no_url(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "carroca", "serve", "--port", str(port),
             "--database", f"sqlite:///{tmp_path / 'busy.db'}"],
            cwd=tmp_path, env=_env(), capture_output=True, text=True, timeout=60, check=False,
        )
    assert done.returncode == 1
    assert "open http" not in done.stdout + done.stderr
    busy = f"error: cannot listen on 127.0.0.1:{port}: address already in use"
    assert done.stderr.startswith(busy)
    assert "--port" in done.stderr and "CARROCA_PORT" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "busy.db").exists()  # nothing started: not even the migrations


def test_the_port_from_the_environment(tmp_path: Path) -> None:
    """`CARROCA_PORT=9000 make run` works as `carroca serve` reads CARROCA_PORT."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "carroca", "serve"], cwd=tmp_path,
            env=_env() | {"CARROCA_PORT": str(port), "CARROCA_DATABASE": "sqlite:///x.db"},
            capture_output=True, text=True, timeout=60, check=False,
        )
    assert done.returncode == 1
    assert f"cannot listen on 127.0.0.1:{port}" in done.stderr


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
    from carroca.cli import _database_shown

    shown = _database_shown("postgresql://carroca:secret@db/carroca")
    assert "secret" not in shown and shown.startswith("postgresql://carroca:")
    assert _database_shown("sqlite:///x.db") == "sqlite:///x.db"


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
