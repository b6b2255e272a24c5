"""Seats played from the test over a WebSocket of their own, for browser tests whose point is not
the moves: the player's page (signed in as the same player) only watches the table, and shows
each state, the hand's summaries and the end as it would after its own clicks. A move clicked
through a page costs the browser several times the CPU of showing it; the tests whose point is
the playing itself click (test_match.py, test_friends.py's whole match, test_accessible_play.py).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from tests.support.serverproc import NO_PROXY
from websockets.sync.client import connect

from carroca.server.players.accounts import COOKIE

TIMEOUT_S = 90.0  # without a frame: the table is stuck (the turn clock is 60 s)
MATCH_S = 600.0

State = dict[str, Any]


def token_of(context: Any) -> str:
    """The session token of the player a browser context is signed in as."""
    token = next((c["value"] for c in context.cookies() if c["name"] == COOKIE), None)
    assert token, "the context is not signed in"
    return str(token)


def hand_over(state: State) -> bool:
    """The first hand ended (or the match): a `stop` for `Seat.play`."""
    view = state["view"]
    return state["status"] == "finished" or bool(view and view["hand_number"] > 0)


class Seat:
    """A player at a table on a socket of their own: there from `join` on (an event's table
    counts them as come), playing the first legal action at each of their turns from `play`."""

    def __init__(self, server: str, token: str, match_id: str) -> None:
        self.match_id = match_id
        self.ws = connect(server.replace("http", "ws", 1) + f"/ws?token={token}",
                          open_timeout=30, close_timeout=1, legacy=True, **NO_PROXY)
        self.ws.send(json.dumps({"type": "join", "data": {"match": match_id}}))
        self.state: State | None = None

    def _read(self, timeout: float) -> bool:
        """Read a frame (False: none within `timeout`); an error frame fails the test."""
        try:
            frame = json.loads(self.ws.recv(timeout=timeout))
        except TimeoutError:
            return False
        if frame["type"] == "error":
            raise AssertionError(f"refused at {self.match_id}: {frame}")
        if frame["type"] == "state":
            self.state = frame["data"]
        return True

    def play(self, stop: Callable[[State], bool] | None = None) -> State:
        """Play until the match is finished or `stop(state)`; returns that state. Each move
        answers the newest state (its version, an id above the seat's last move, which the
        page may have made)."""
        answered, move_id = -1, 0
        deadline = time.monotonic() + MATCH_S
        while time.monotonic() < deadline:
            if not self._read(TIMEOUT_S):
                raise AssertionError(f"no frame from {self.match_id} in {TIMEOUT_S} s")
            while self._read(0):  # the newest state only
                pass
            state = self.state
            if state is None:
                continue
            if state["status"] == "finished" or (stop is not None and stop(state)):
                return state
            view = state["view"]
            if view and view["legal"] and view["turn"] == state["seat"] \
                    and state["version"] != answered:
                answered = state["version"]
                move_id = max(move_id, state.get("last_move_id") or 0) + 1
                self.ws.send(json.dumps({"type": "move", "data": {
                    "id": move_id, "action": view["legal"][0], "version": answered}}))
        raise AssertionError(f"match {self.match_id} did not end")

    def close(self) -> None:
        self.ws.close()


def play_seats(seats: Sequence[Seat], stop: Callable[[State], bool] | None = None) -> list[State]:
    """`Seat.play` for several players of one table at once, a thread each; then their sockets
    close."""
    try:
        with ThreadPoolExecutor(len(seats)) as pool:
            futures = [pool.submit(seat.play, stop) for seat in seats]
            return [f.result(timeout=MATCH_S) for f in futures]
    finally:
        for seat in seats:
            seat.close()


def play_match(server: str, tokens: Sequence[str], match_id: str,
               stop: Callable[[State], bool] | None = None) -> list[State]:
    """The players of `tokens` join `match_id` and play it (see `play_seats`)."""
    return play_seats([Seat(server, token, match_id) for token in tokens], stop)
