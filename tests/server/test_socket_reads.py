"""A socket's messages on the real server: read straight from uvicorn's WebSocket protocol
(`GuardedWebSocket.reader`, not ASGI's queue), handled one at a time in the order they came,
with the same refusals as ever: a binary frame closes with 1003, a frame over the limit with
1009, a malformed one gets an error and the socket stays."""

from __future__ import annotations

import json

import pytest
from tests.support.serverproc import Server
from websockets.exceptions import ConnectionClosed

from carroca.server.realtime.protocol import MAX_FRAME


def _token(server: Server, name: str) -> str:
    with server.http() as c:
        token: str = c.post("/api/guest", json={"name": name}).json()["token"]
    return token


def test_messages_sent_at_once_are_answered_in_order(shared_server: Server) -> None:
    server = shared_server  # frames at any rate: tests/support/serverproc.py sets it
    with server.socket(_token(server, "Apressada")) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "hello"
        sent = []
        for i in range(30):  # pipelined: many arrive in one read of the socket
            if i % 3 == 1:
                sent.append("error")
                ws.send('{"type": "ping", "data": ')
            else:
                sent.append("pong")
                ws.send(json.dumps({"type": "ping", "data": {}}))
        assert [json.loads(ws.recv(timeout=10))["type"] for _ in sent] == sent


@pytest.mark.parametrize(("payload", "code"), [
    (b"\x00\x01", 1003),
    ("x" * (MAX_FRAME + 1), 1009),
])
def test_refused_frames_close_the_socket(shared_server: Server, payload: str | bytes,
                                         code: int) -> None:
    server = shared_server
    with server.socket(_token(server, f"Teimosa{code}")) as ws, \
            pytest.raises(ConnectionClosed) as closed:
        assert json.loads(ws.recv(timeout=10))["type"] == "hello"
        ws.send(payload)
        while True:
            ws.recv(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == code
