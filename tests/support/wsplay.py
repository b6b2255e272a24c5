"""Scripted WebSocket players for the protocol tests: they play their legal moves until the end.

`receive_text` waits with a deadline, so a server that stops answering fails the test instead of
blocking the run. `Client` keeps every frame it received (raw text and parsed), which the leak and
protocol checks read afterwards. `run_together` drives several clients at once, one thread each,
the way separate people at one table act independently.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any

import anyio
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

TIMEOUT = 30.0  # seconds without any frame before a client gives up (the turn clock is 20 s)

Frame = dict[str, Any]


def send(ws: WebSocketTestSession, kind: str, data: dict[str, Any] | None = None) -> None:
    ws.send_text(json.dumps({"type": kind, "data": data or {}}))


async def _next_message(ws: WebSocketTestSession, timeout: float) -> dict[str, Any]:
    with anyio.fail_after(timeout):
        message: dict[str, Any] = await ws._send_rx.receive()
        return message


def receive_text(ws: WebSocketTestSession, timeout: float = TIMEOUT) -> str:
    """The next text frame. A close raises `WebSocketDisconnect` with its code; silence for
    `timeout` seconds raises `TimeoutError`."""
    message = ws.portal.call(_next_message, ws, timeout)
    if message["type"] == "websocket.close":
        raise WebSocketDisconnect(code=message.get("code", 1000), reason=message.get("reason"))
    text: str = message["text"]
    return text


def auth(token: str) -> dict[str, str]:
    """Request headers acting as one guest (the test client's cookie is the last guest's)."""
    return {"Authorization": f"Bearer {token}"}


def recv(ws: WebSocketTestSession, timeout: float = 15.0) -> dict[str, Any]:
    """The next frame, parsed, or a failure after `timeout`: a lost frame must not hang the run."""
    frame: dict[str, Any] = json.loads(receive_text(ws, timeout))
    return frame


def until(ws: WebSocketTestSession, *kinds: str, limit: int = 500) -> dict[str, Any]:
    """The next frame of one of `kinds`, skipping the others."""
    for _ in range(limit):
        frame = recv(ws)
        if frame["type"] in kinds:
            return frame
    raise AssertionError(f"no frame of {kinds!r}")


def sit(ws: WebSocketTestSession, match_id: str) -> dict[str, Any]:
    """After the hello, join `match_id` and return its first state."""
    assert recv(ws)["type"] == "hello"
    send(ws, "join", {"match": match_id})
    state: dict[str, Any] = until(ws, "state")["data"]
    return state


def say(ws: WebSocketTestSession, text: str) -> None:
    send(ws, "chat", {"text": text})


def quiet(ws: WebSocketTestSession) -> list[str]:
    """The kinds of the frames before the answer to a ping: frames are sent in order."""
    send(ws, "ping")
    kinds = []
    while (kind := recv(ws)["type"]) != "pong":
        kinds.append(kind)
    return kinds


@dataclass
class Client:
    """One WebSocket client that keeps every frame it received and every move it sent."""

    ws: WebSocketTestSession
    label: str = ""
    raw: list[str] = field(default_factory=list)
    frames: list[Frame] = field(default_factory=list)
    sent: list[tuple[int, str]] = field(default_factory=list)
    next_id: int = 0

    def send(self, kind: str, data: dict[str, Any] | None = None) -> None:
        send(self.ws, kind, data)

    def recv(self, timeout: float = TIMEOUT) -> Frame:
        text = receive_text(self.ws, timeout)
        frame: Frame = json.loads(text)
        self.raw.append(text)
        self.frames.append(frame)
        return frame

    def until(self, accept: Callable[[Frame], bool], timeout: float = TIMEOUT) -> Frame:
        """Read frames until one is accepted; returns it."""
        deadline = time.monotonic() + timeout
        while True:
            frame = self.recv(max(0.01, deadline - time.monotonic()))
            if accept(frame):
                return frame

    def until_type(self, kind: str, timeout: float = TIMEOUT) -> Frame:
        return self.until(lambda f: f["type"] == kind, timeout)

    def join(self, match_id: str, **extra: Any) -> Frame:
        """Join (play or watch) a match; returns the state frame answering it."""
        self.send("join", {"match": match_id, **extra})
        return self.until_type("state")["data"]  # type: ignore[no-any-return]

    def ping(self, timeout: float = TIMEOUT) -> list[Frame]:
        """Send a ping and read until its pong: returns the frames that came before it."""
        start = len(self.frames)
        self.send("ping")
        self.until_type("pong", timeout)
        return self.frames[start:-1]

    def move(self, action: str, move_id: int | None = None) -> int:
        if move_id is None:
            move_id = self.next_id
        self.next_id = max(self.next_id, move_id + 1)
        self.sent.append((move_id, action))
        self.send("move", {"id": move_id, "action": action})
        return move_id

    def drain_acks(self) -> None:
        """Read until every move sent has its ack (or error)."""
        answered = {f["data"].get("id") for f in self.frames if f["type"] in ("ack", "error")}
        for move_id, _ in self.sent:
            if move_id not in answered:
                self.until(lambda f, i=move_id: f["type"] in ("ack", "error")  # type: ignore[misc]
                           and f["data"].get("id") == i)

    def states(self) -> list[Frame]:
        return [f["data"] for f in self.frames if f["type"] == "state"]

    def acks(self) -> list[Frame]:
        return [f["data"] for f in self.frames if f["type"] == "ack"]

    def errors(self) -> list[Frame]:
        return [f["data"] for f in self.frames if f["type"] == "error"]


def connect(stack: ExitStack, client: TestClient, token: str, label: str = "") -> Client:
    """Open a socket as `token` (closed when `stack` closes) and read its hello."""
    ws = stack.enter_context(client.websocket_connect(f"/ws?token={token}"))
    c = Client(ws, label)
    hello = c.recv()
    assert hello["type"] == "hello", hello
    return c


def random_chooser(seed: int) -> Callable[[Frame], str]:
    rng = random.Random(seed)
    return lambda view: str(rng.choice(view["legal"]))


def play(
    c: Client,
    match_id: str | None,
    choose: Callable[[Frame], str] | None = None,
    stop: Callable[[Frame], bool] | None = None,
    max_frames: int = 20000,
    sent_for: int = -1,
) -> Frame:
    """Join (unless `match_id` is None: already joined), then answer every turn with `choose`'s
    action until the match is finished or `stop(state)` is true; returns that state.
    `sent_for` is the version already answered, if any.

    Any error frame fails the player: a well-behaved client never gets one."""
    choose = choose or (lambda view: str(view["legal"][0]))
    if match_id is not None:
        c.send("join", {"match": match_id})
    for _ in range(max_frames):
        frame = c.recv()
        if frame["type"] == "error":
            raise AssertionError(f"{c.label}: {frame}")
        if frame["type"] != "state":
            continue
        state = frame["data"]
        if state["status"] == "finished" or (stop is not None and stop(state)):
            c.drain_acks()  # a move's ack comes after the state it made
            return state  # type: ignore[no-any-return]
        view = state["view"]
        if view and view["legal"] and view["turn"] == state["seat"] and \
                state["version"] != sent_for:
            sent_for = state["version"]
            c.move(choose(view))
    raise AssertionError(f"{c.label}: the match did not end")


def watch(c: Client, match_id: str | None) -> Frame:
    """Join as a spectator (or follow an already joined match) until it is finished."""
    if match_id is not None:
        c.send("join", {"match": match_id})
    while True:
        frame = c.recv()
        if frame["type"] == "state" and frame["data"]["status"] == "finished":
            return frame["data"]  # type: ignore[no-any-return]


def run_together(jobs: Sequence[Callable[[], Frame]], timeout: float = 120.0) -> list[Frame]:
    """Run every job on its own thread; returns their results in order (re-raising the first
    failure)."""
    with ThreadPoolExecutor(len(jobs)) as pool:
        futures = [pool.submit(job) for job in jobs]
        return [f.result(timeout=timeout) for f in futures]


def play_until_over(
    ws: WebSocketTestSession, match_id: str, pick: int = 0, max_frames: int = 20000
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Join, then answer every turn with the `pick`-th legal action; returns the last state and
    every frame received."""
    c = Client(ws)

    def choose(view: Frame) -> str:
        legal = view["legal"]
        return str(legal[min(pick, len(legal) - 1)])

    state = play(c, match_id, choose, max_frames=max_frames)
    return state, c.frames
