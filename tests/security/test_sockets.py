"""WebSocket hijacking from another origin, sockets after logout, sockets per sign-in, chat.

Before: a page on another port of the same host opened the WebSocket with the visitor's cookie
and played and chatted for them; an open socket kept working after logout; chat relayed NUL,
ESC and bidi overrides.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from tests.support.attacks import guest, http, socket_for
from tests.support.serverproc import Server, wait_until
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection


def frames_until(ws: ClientConnection, kind: str, timeout: float = 20) -> dict[str, Any]:
    while True:
        frame: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
        if frame["type"] == kind:
            return frame


def test_a_foreign_origin_is_refused_before_the_upgrade(servers: Callable[..., Server]) -> None:
    server = servers(env={"CARROCA_ALLOWED_ORIGINS": "https://dominó.example, https://app.example"})
    token = guest(server, "Vitima")
    for origin in (f"http://localhost:{server.port + 1}", "http://127.0.0.1:1",
                   "https://evil.example", "null"):
        with pytest.raises(InvalidStatus) as refused:
            socket_for(server, cookie=token, origin=origin)
        assert refused.value.response.status_code == 403, origin
        assert b"bad_origin" in refused.value.response.body
    assert "ERROR" not in server.log()  # a refusal is an answer, not a failure to log
    # The server's own pages, a listed origin, and programs that send no Origin all connect.
    for origin in (f"http://127.0.0.1:{server.port}", "https://app.example", None):
        with socket_for(server, cookie=token, origin=origin) as ws:
            assert frames_until(ws, "hello")["data"]["player"]["name"] == "Vitima"
    with socket_for(server, token=token) as ws:
        assert frames_until(ws, "hello")["data"]["player"]["name"] == "Vitima"


def test_logout_closes_that_sessions_sockets(servers: Callable[..., Server]) -> None:
    server = servers()
    token, other = guest(server, "Saindo"), guest(server, "Ficando")
    mine, theirs = socket_for(server, token=token), socket_for(server, token=other)
    frames_until(mine, "hello")
    frames_until(theirs, "hello")
    with http(server, token=token) as c:
        assert c.post("/api/logout").status_code == 200
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            mine.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    theirs.send(json.dumps({"type": "ping", "data": {}}))  # another sign-in is untouched
    assert frames_until(theirs, "pong")["type"] == "pong"
    theirs.close()
    with pytest.raises(ConnectionClosed) as closed:  # and the old token opens nothing any more
        socket_for(server, token=token).recv(timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401


def test_sockets_per_sign_in_are_capped(servers: Callable[..., Server]) -> None:
    server = servers(env={"CARROCA_MAX_SOCKETS_PER_SESSION": "3"})
    token = guest(server, "Abas")
    tabs = [socket_for(server, token=token) for _ in range(3)]
    try:
        for ws in tabs:
            frames_until(ws, "hello")
        with pytest.raises(InvalidStatus) as refused:
            socket_for(server, token=token)
        assert refused.value.response.status_code == 429
        tabs.pop().close()

        def reopened() -> bool:
            try:
                tabs.append(socket_for(server, token=token))
            except InvalidStatus:
                return False
            return True

        wait_until(reopened, "a socket once another tab closed")
    finally:
        for ws in tabs:
            ws.close()


def test_chat_strips_control_and_bidi_characters(servers: Callable[..., Server]) -> None:
    server = servers()
    host, friend = guest(server, "Anfitria"), guest(server, "Amiga")
    with http(server, token=host) as c:
        table = c.post("/api/tables", json={"ruleset": "bloqueio", "seats": ["me", "open"]}).json()
    with http(server, token=friend) as c:
        assert c.post("/api/tables/join", json={"invite": table["invite"]}).status_code == 200
    with socket_for(server, token=host) as a, socket_for(server, token=friend) as b:
        for ws in (a, b):
            ws.send(json.dumps({"type": "join", "data": {"match": table["id"]}}))
            frames_until(ws, "state")
        nasty = "oi\x00\x1b[31m \u202egnp.exe\u2066x\u2069 \u200b👍🏽 \u200d"
        a.send(json.dumps({"type": "chat", "data": {"text": nasty}}))
        line = frames_until(b, "chat")["data"]["text"]
        assert line == "oi[31m gnp.exex 👍🏽 \u200d".strip()
        a.send(json.dumps({"type": "chat", "data": {"text": "\u202e\u200b\x07"}}))
        assert frames_until(a, "error")["data"]["code"] == "bad_message"


def test_a_flood_of_frames_closes_the_socket(servers: Callable[..., Server]) -> None:
    server = servers(env={"CARROCA_SOCKET_FRAMES_PER_SECOND": "10"})  # the default
    token = guest(server, "Metralha")
    ws = socket_for(server, token=token)
    frames_until(ws, "hello")
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(500):  # a person sends a few frames a second
            ws.send(json.dumps({"type": "ping", "data": {}}))
        while True:
            ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    with socket_for(server, token=token) as again:  # the player may come back at once
        assert frames_until(again, "hello")["type"] == "hello"
