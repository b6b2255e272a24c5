"""Crash durability: a real server process killed with SIGKILL mid-match loses no accepted move.

The server acknowledges a move (and broadcasts it) only after its transaction committed, so
whatever a client was told must survive a crash of the process; a move in flight at the crash
may or may not be there. A restart on the same database rebuilds every unfinished table from its
move log: bots play on, humans rejoin with the same session and play to the end, and the finished
record verifies. Runs on SQLite, and on PostgreSQL when `CARROCA_TEST_POSTGRES` is set.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable
from typing import Any

import pytest
from tests.support.move_log import move_log, record_steps
from tests.support.serverproc import WAIT_SECONDS, Server

from carroca import fair, record

# Stored state is this module's subject: `make unit-postgres` runs it again on PostgreSQL.
pytestmark = pytest.mark.postgres


def crashed_log(database: str, match_id: str) -> list[tuple[int, str, bool]]:
    """The log right after the crash, of a match that was still in play."""
    status, moves = move_log(database, match_id)
    assert status == "playing", "the match was not in play at the crash: nothing was tested"
    return moves


def wait_finished(server: Server, match_id: str) -> dict[str, Any]:
    with server.http() as http:
        deadline = time.monotonic() + WAIT_SECONDS
        while time.monotonic() < deadline:
            info: dict[str, Any] = http.get(f"/api/matches/{match_id}").json()
            if info["status"] == "finished":
                return info
            time.sleep(0.05)
    raise AssertionError(f"match {match_id} did not finish:\n{server.log()}")


def finished_record(server: Server, match_id: str, token: str | None = None) -> Any:
    """The record, fetched as the player of `token` (a friends' match is its players')."""
    with server.http(token) as http:
        r = http.get(f"/api/matches/{match_id}/record")
    assert r.status_code == 200, r.text
    return record.loads(r.text)


class Seat:
    """A scripted player on a real WebSocket: one move in flight at a time, every ack kept."""

    def __init__(self, server: Server, token: str, match_id: str, next_id: int = 0) -> None:
        self._exit = contextlib.ExitStack()
        self.ws = self._exit.enter_context(server.socket(token))
        self.hello = self.receive()
        assert self.hello["type"] == "hello", self.hello
        self.ws.send(json.dumps({"type": "join", "data": {"match": match_id}}))
        self.next_id = next_id
        self.pending: dict[int, str] = {}
        self.acked: list[str] = []  # the actions of the acked moves, in order
        self.acks: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self._sent_for = -1

    def receive(self) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(self.ws.recv(timeout=60))
        return frame

    def _handle(self, frame: dict[str, Any]) -> None:
        kind, data = frame["type"], frame["data"]
        if kind == "error":
            raise AssertionError(frame)
        if kind == "ack":
            self.acked.append(self.pending.pop(data["id"]))
            self.acks.append(data)
        elif kind == "state":
            self.state = data

    @property
    def my_turn(self) -> bool:
        state = self.state
        if state is None or state["status"] != "playing" or state["version"] == self._sent_for:
            return False
        view = state["view"]
        return bool(view and view["legal"] and view["turn"] == state["seat"])

    @property
    def finished(self) -> bool:
        return self.state is not None and self.state["status"] == "finished"

    def send_move(self, move_id: int, action: str) -> None:
        self.pending[move_id] = action
        self.ws.send(json.dumps({"type": "move", "data": {"id": move_id, "action": action}}))

    def move(self) -> tuple[int, str]:
        """Send the first legal action of the current state; returns its id and action."""
        assert self.state is not None and self.my_turn and not self.pending
        action: str = self.state["view"]["legal"][0]
        self._sent_for = self.state["version"]
        move_id = self.next_id
        self.next_id += 1
        self.send_move(move_id, action)
        return move_id, action

    def play(self, done: Callable[[Seat], bool]) -> None:
        """Answer every turn until `done`, checked whenever no move is in flight."""
        while True:
            if not self.pending:
                if done(self):
                    return
                if self.my_turn:
                    self.move()
                    continue
            self._handle(self.receive())

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._exit.close()


@pytest.mark.slow
@pytest.mark.parametrize("pause", [0.0, 0.3], ids=["kill-at-once", "kill-after-the-commit"])
def test_sigkill_mid_match_keeps_every_acked_move(
    servers: Callable[..., Server], database: str, pause: float
) -> None:
    flags = ("--bot-delay-ms", "0", "--turn-seconds", "120")
    first = servers(*flags)
    with first.http() as http:
        r = http.post("/api/guest", json={"name": "ana"})
        assert r.status_code == 200, r.text
        token, me = r.json()["token"], r.json()["player"]
    with first.http(token) as http:
        r = http.post("/api/tables", json={  # the longest target: the crash comes mid-match
            "ruleset": "duplas-pontos", "seats": ["me", "bot:greedy", "bot:random", "bot:greedy"],
            "options": {"target": 300},
        })
    assert r.status_code == 201, r.text
    match_id = r.json()["id"]

    seat = Seat(first, token, match_id)
    seat.play(lambda s: len(s.acked) >= 8 and s.my_turn)
    before = seat.state
    assert before is not None and before["status"] == "playing"
    # The crash comes before this move's ack is read: it may or may not be stored (after a
    # pause it most likely is, and its ack is lost with the connection).
    in_flight_id, in_flight = seat.move()
    time.sleep(pause)
    first.kill()
    seat.close()

    # Every acked move is in the log, in order; at most the move in flight is added.
    logged = crashed_log(database, match_id)
    mine = [a for s, a, _ in logged if s == 0]
    assert mine in (seat.acked, [*seat.acked, in_flight]), (mine, seat.acked, in_flight)
    stored = len(mine) > len(seat.acked)

    second = servers(*flags)
    with second.http(token) as http:  # the session survived the crash
        me_after = http.get("/api/me").json()
    assert me_after["player"]["id"] == me["id"] and match_id in me_after["tables"]
    again = Seat(second, token, match_id, next_id=seat.next_id)
    assert again.hello["data"]["player"]["id"] == me["id"]
    again.play(lambda s: s.state is not None)
    after = again.state
    assert after is not None and after["status"] == "playing"
    # Everything published before the crash is still on the table; the version never goes back.
    view_before, view_after = before["view"], after["view"]
    if view_after["deal_index"] == view_before["deal_index"]:
        assert view_after["steps"][: len(view_before["steps"])] == view_before["steps"]
    else:
        assert view_after["deal_index"] > view_before["deal_index"]
    assert all(b <= a for b, a in zip(view_before["score"], view_after["score"], strict=True))
    assert after["version"] >= before["version"]
    assert after["version"] > before["version"] or not stored

    # Never told the outcome, the client sends the move again: a stored move is acked as a
    # duplicate (not played twice), a lost one is played now.
    again.send_move(in_flight_id, in_flight)
    again.play(lambda s: not s.pending)
    assert again.acks[0]["id"] == in_flight_id
    assert again.acks[0].get("duplicate", False) is stored, (again.acks[0], stored)
    again.play(lambda s: s.finished)
    again.close()
    rec = finished_record(second, match_id, token)
    steps = record_steps(rec)
    assert [a for s, a, auto in steps if s == 0 and not auto] == seat.acked + again.acked
    assert steps[: len(logged)] == logged  # nothing stored before the crash was rewritten
    assert move_log(database, match_id) == ("finished", steps)
    assert rec["players"][0] == "ana"
    assert fair.commitment(rec["fairness"]["server_seed"]) == rec["fairness"]["commitment"]


@pytest.mark.slow
def test_sigkill_mid_bots_matches_then_they_resume_and_finish(
    servers: Callable[..., Server], database: str
) -> None:
    first = servers("--bot-delay-ms", "50")  # slow enough to be killed well before the end
    # Targets of about 4, 30 and 30 hands (a few at the least): a bot waits 50 ms a move, so no
    # match can end in the ~8 moves each before the crash, however slow the machine; after the
    # restart they are played out at full speed.
    games = {
        "duplas-pontos": (["bot:greedy", "bot:random", "bot:greedy", "bot:random"], 300),
        "mano-a-mano": (["bot:greedy", "bot:random"], 300),  # draws from the boneyard too
        "bloqueio": (["bot:random", "bot:greedy"], 20),  # no drawing: passes
    }
    created: dict[str, str] = {}
    with first.http() as http:
        for i, (ruleset, (seats, target)) in enumerate(games.items()):
            # Bots-only matches are for signed-in players, two at a time each.
            token = http.post("/api/guest", json={"name": f"demo{i}"}).json()["token"]
            r = http.post("/api/matches", json={"ruleset": ruleset, "seats": seats,
                                                "options": {"target": target}},
                          headers={"Authorization": f"Bearer {token}"})
            assert r.status_code == 201, r.text
            created[r.json()["id"]] = r.json()["commitment"]
        deadline = time.monotonic() + WAIT_SECONDS
        while http.get("/api/stats").json()["moves"] < 8 * len(games):  # ~8 moves each
            assert time.monotonic() < deadline, first.log()
            time.sleep(0.02)
        committed = http.get("/api/stats").json()["moves"]
    first.kill()

    logged = {match_id: crashed_log(database, match_id) for match_id in created}
    assert sum(len(moves) for moves in logged.values()) >= committed
    assert all(logged.values())

    second = servers("--bot-delay-ms", "0")
    for match_id, commitment in created.items():
        info = wait_finished(second, match_id)
        assert info["commitment"] == commitment == fair.commitment(info["server_seed"])
        rec = finished_record(second, match_id)
        steps = record_steps(rec)
        assert steps[: len(logged[match_id])] == logged[match_id]
        assert len(steps) > len(logged[match_id])  # the bots played on after the restart
        assert list(record.verify(rec).score) == info["score"]
