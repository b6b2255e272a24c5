"""`carroca backup` while a match is played, `carroca restore` after the server died: the
restored database holds exactly the moves stored when the backup was taken, and the match
resumes from there to its end with a record that verifies. Runs on SQLite, and on PostgreSQL
(pg_dump, pg_restore) when `CARROCA_TEST_POSTGRES` is set."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from tests.support.move_log import move_log, record_steps
from tests.support.serverproc import WAIT_SECONDS, Server
from websockets.sync.client import ClientConnection

from carroca import record

# Stored state is this module's subject: `make unit-postgres` runs it again on PostgreSQL.
pytestmark = [pytest.mark.postgres, pytest.mark.slow]

FLAGS = ("--bot-delay-ms", "0", "--turn-seconds", "120")


def carroca(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "carroca", *args], capture_output=True,
                          text=True, timeout=120, check=False)


class Me:
    """One seat on a real socket, answering its turns with its first legal action."""

    def __init__(self, ws: ClientConnection, match_id: str, first_id: int = 0) -> None:
        self.ws = ws
        assert self.frame()["type"] == "hello"
        ws.send(json.dumps({"type": "join", "data": {"match": match_id}}))
        self.state: dict[str, Any] | None = None
        self.next_id = first_id
        self.waiting: int | None = None  # the move sent and not acked
        self.answered = -1  # the version last answered

    def frame(self) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(self.ws.recv(timeout=60))
        assert frame["type"] != "error", frame
        return frame

    def my_turn(self) -> bool:
        s = self.state
        return bool(s and s["status"] == "playing" and s["version"] != self.answered
                    and s["view"] and s["view"]["legal"] and s["view"]["turn"] == s["seat"])

    def play(self, moves: int | None) -> None:
        """Play `moves` of this seat's moves (None: to the end), then wait for its turn again
        (or the end): nothing is in flight when it returns."""
        played = 0
        while True:
            if self.waiting is None:
                over = self.state is not None and self.state["status"] == "finished"
                if over or (moves is not None and played == moves and self.my_turn()):
                    return
                if self.my_turn() and (moves is None or played < moves):
                    assert self.state is not None
                    self.answered = self.state["version"]
                    self.waiting = self.next_id
                    self.next_id += 1
                    self.ws.send(json.dumps({"type": "move", "data": {
                        "id": self.waiting, "action": self.state["view"]["legal"][0]}}))
                    played += 1
                    continue
            frame = self.frame()
            if frame["type"] == "state":
                self.state = frame["data"]
            elif frame["type"] == "ack" and frame["data"]["id"] == self.waiting:
                self.waiting = None


def test_a_backup_taken_mid_match_restores_and_resumes(
        servers: Callable[..., Server], database: str, tmp_path: Path) -> None:
    first = servers(*FLAGS)
    with first.http() as http:
        token = http.post("/api/guest", json={"name": "ana"}).json()["token"]
    # A hand can score 100 (about one match in a hundred ends within her first five moves): a
    # match over before the backup is not this test's subject, and another one is played.
    for _ in range(5):
        with first.http(token) as http:
            r = http.post("/api/tables", json={
                "ruleset": "duplas-pontos", "options": {"target": 100},
                "seats": ["me", "bot:greedy", "bot:random", "bot:greedy"]})
            assert r.status_code == 201, r.text
            match_id = r.json()["id"]
        held = contextlib.ExitStack()
        me = Me(held.enter_context(first.socket(token)), match_id)
        me.play(5)  # then her turn: nothing moves until she does
        status, at_backup = move_log(database, match_id)
        if status == "playing":
            break
        held.close()
    with held:
        assert status == "playing" and len(at_backup) >= 5, (status, at_backup)
        copy = tmp_path / "carroca-backup.db"
        made = carroca("backup", "--database", database, str(copy))
        assert made.returncode == 0, made.stderr
        assert made.stdout.startswith(f"backup: {copy}")
        me.play(3)  # stored after the backup: the restore must not have them
        next_id = me.next_id
    first.kill()
    assert len(move_log(database, match_id)[1]) > len(at_backup)

    refused = carroca("restore", "--database", database, str(copy))
    assert refused.returncode == 1 and "--force" in refused.stderr
    done = carroca("restore", "--database", database, "--force", str(copy))
    assert done.returncode == 0, done.stderr
    assert move_log(database, match_id) == ("playing", at_backup)

    second = servers(*FLAGS)  # the same sign-in: the sessions came back with the backup
    with second.socket(token) as ws:
        me = Me(ws, match_id, first_id=next_id)
        me.play(None)
    deadline = time.monotonic() + WAIT_SECONDS
    with second.http(token) as http:
        while http.get(f"/api/matches/{match_id}").json()["status"] != "finished":
            assert time.monotonic() < deadline, second.log()
            time.sleep(0.05)
        rec = record.loads(http.get(f"/api/matches/{match_id}/record").text)
    assert record_steps(rec)[:len(at_backup)] == at_backup


def test_a_backup_never_overwrites_and_a_restore_checks_its_file(
        database: str, tmp_path: Path) -> None:
    taken = tmp_path / "b.db"
    assert carroca("backup", "--database", database, str(taken)).returncode == 0
    again = carroca("backup", "--database", database, str(taken))
    assert again.returncode == 1 and "exists already" in again.stderr
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"not a backup at all" * 100)
    bad = carroca("restore", "--database", database, "--force", str(junk))
    assert bad.returncode == 1 and "error:" in bad.stderr
    missing = carroca("restore", "--database", database, str(tmp_path / "none.db"))
    assert missing.returncode == 1 and "no backup" in missing.stderr
