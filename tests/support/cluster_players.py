"""Players for cluster tests: each has a WebSocket to some node, plays its legal moves at once,
and takes what a real client does through failures: a socket that dies is opened again (through
the proxy: another node), a move answered `moving` (its node is changing) is sent again with the
same id after the table is joined again. Every acknowledged move is remembered, so a test can
check that none was lost."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import httpx2
from tests.support.clusterproc import Cluster
from tests.support.serverproc import LOCAL_TLS, NO_PROXY
from websockets.sync.client import ClientConnection, connect

RETRYABLE = ("moving", "not_owner", "not_stored")


def guest(base: str, name: str) -> str:
    with httpx2.Client(base_url=base, timeout=30, trust_env=False, verify=LOCAL_TLS) as c:
        r = c.post("/api/guest", json={"name": name})
        assert r.status_code == 200, r.text
        token: str = r.json()["token"]
        return token


def post(base: str, token: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    with httpx2.Client(base_url=base, timeout=30, trust_env=False, verify=LOCAL_TLS,
                       headers={"Authorization": f"Bearer {token}"}) as c:
        r = c.post(path, json=body)
        assert r.status_code in (200, 201), r.text
        answer: dict[str, Any] = r.json()
        return answer


class Player:
    def __init__(self, cluster: Cluster, token: str, match: str, base: str | None = None) -> None:
        self.cluster = cluster
        self.token = token
        self.match = match
        self.base = base  # a node's URL (the proxy when None)
        self.ws: ClientConnection | None = None
        self.state: dict[str, Any] | None = None
        self.next_id = 1
        self.pending: dict[str, Any] | None = None  # the move sent and not answered yet
        self.acked: list[tuple[int, str]] = []  # (move id, action) the server acknowledged
        self.errors: list[str] = []
        self.retry_at = 0.0
        self.reconnects = 0
        self.open()

    def open(self) -> None:
        url = (self.base or self.cluster.url).replace("http", "ws", 1)
        self.ws = connect(f"{url}/ws?token={self.token}", open_timeout=30, close_timeout=1,
                          legacy=True, **NO_PROXY)
        self.send("join", {"match": self.match})

    def reopen(self) -> None:
        """The node of this socket died: a new one through the proxy (any live node)."""
        if self.ws is not None:
            self.ws.close()
        self.base = None
        self.reconnects += 1
        deadline = time.monotonic() + 30
        while True:
            try:
                self.open()
                return
            except Exception:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def send(self, kind: str, data: dict[str, Any]) -> None:
        assert self.ws is not None
        try:
            self.ws.send(json.dumps({"type": kind, "data": data}))
        except Exception:  # its node died: another one, then the frame again
            if kind == "join":
                raise
            self.reopen()
            self.ws.send(json.dumps({"type": kind, "data": data}))

    @property
    def seat(self) -> int | None:
        return None if self.state is None else self.state["seat"]

    @property
    def finished(self) -> bool:
        return self.state is not None and self.state["status"] == "finished"

    def pump(self, timeout: float = 0.0) -> bool:
        """Read one frame if one arrived and answer it (False: none); a dead socket is opened
        again."""
        assert self.ws is not None
        try:
            raw = self.ws.recv(timeout=timeout)
        except TimeoutError:
            self._retry()
            return False
        except Exception:
            self.reopen()
            return True
        frame = json.loads(raw)
        kind, data = frame["type"], frame["data"]
        if kind == "state":
            if self.state is None or data["version"] >= self.state["version"] or \
                    data["status"] == "finished":
                self.state = data
                self._play()
        elif kind == "ack" and self.pending is not None and data["id"] == self.pending["id"]:
            self.acked.append((self.pending["id"], self.pending["action"]))
            self.pending = None
            if self.state is not None:  # the state came first: our turn again, maybe
                self._play()
        elif kind == "error":
            self.errors.append(data["code"])
            if data.get("id") is None and data["code"] in RETRYABLE:  # the join: again soon
                self.retry_at = time.monotonic() + 0.3
            elif self.pending is not None and data.get("id") == self.pending["id"]:
                if data["code"] in RETRYABLE:
                    self.retry_at = time.monotonic() + 0.3
                else:  # stale state, not your turn…: a new move from the next state
                    self.pending = None
        return True

    def _retry(self) -> None:
        if self.retry_at and time.monotonic() >= self.retry_at:
            self.retry_at = 0.0
            self.send("join", {"match": self.match})  # the view again, from the new owner
            if self.pending is not None:
                self.send("move", self.pending)

    def _play(self) -> None:
        state = self.state
        assert state is not None
        view = state["view"]
        if self.pending is not None or view is None or not view["legal"] \
                or view.get("turn") != state["seat"]:
            return
        self.pending = {"id": self.next_id, "action": view["legal"][0],
                        "version": state["version"]}
        self.next_id += 1
        self.send("move", self.pending)

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()


def play(players: list[Player], until: Callable[[], bool], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not until():
        if time.monotonic() > deadline:
            states = [(p.seat, p.state and p.state["version"], p.state and p.state["status"],
                       p.pending, p.errors[-5:]) for p in players]
            raise AssertionError(f"no progress in {seconds} s: {states}")
        if not any([p.pump() for p in players]):
            time.sleep(0.005)


def now_and_then(check: Callable[[], bool], seconds: float = 0.25) -> Callable[[], bool]:
    """`check` (a database query, say) asked at most every `seconds` by `play`'s loop."""
    last = [0.0, False]

    def ask() -> bool:
        if not last[1] and time.monotonic() - last[0] >= seconds:
            last[0], last[1] = time.monotonic(), check()
        return bool(last[1])

    return ask
