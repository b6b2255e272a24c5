"""What a client can make the server write to its log.

Before: a text frame of invalid UTF-8 made the server log an ERROR and two tracebacks (14
lines) and close the socket; one guest opening sockets to send one each wrote about 700 lines a
second (some 150 MB an hour). After: the socket is closed with 1007 (or, when the client's close
came in the same read, that close is answered) and nothing is logged; a line that repeats is
held back after a few a minute; `--log-format json` writes one JSON object a line.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from tests.support.attacks import guest, socket_for
from tests.support.serverproc import Server
from websockets.exceptions import ConnectionClosed


def send_broken(server: Server, token: str, frame: bytes, close: bool) -> int | None:
    """Open a socket, send `frame` as a text frame that is not UTF-8 (websockets checks nothing
    here) and, with `close`, the client's close in the same write (so in the same read of the
    server's); the close code the server sent, None if it sent none."""
    ws = socket_for(server, token=token)
    try:
        json.loads(ws.recv(timeout=20))  # hello
        ws.protocol.send_text(frame)
        if close:
            ws.protocol.send_close(1000)
        ws.socket.sendall(b"".join(ws.protocol.data_to_send()))
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                ws.recv(timeout=10)
        return closed.value.rcvd.code if closed.value.rcvd is not None else None
    finally:
        ws.close()


def broken_frame(server: Server, token: str) -> int | None:
    """A text frame that is not UTF-8: the close code the server sent."""
    return send_broken(server, token, b"\xff\xfe{\"type\": \"ping\"}", close=False)


def broken_frame_and_close(server: Server, token: str) -> int | None:
    """The same broken frame and the client's close in one write: the close code the server
    answered with, None if it sent none."""
    return send_broken(server, token, b"\xc3\x28", close=True)


def test_invalid_utf8_frames_are_refused_without_a_line_in_the_log(
        servers: Callable[..., Server]) -> None:
    server = servers()
    token = guest(server, "Quebrado")
    before = server.log_path.read_text().count("\n")
    codes = [broken_frame(server, token) for _ in range(30)]
    assert codes == [1007] * 30
    # Read with the client's close, the frame is dropped and the close answered.
    assert [broken_frame_and_close(server, token) for _ in range(10)] == [1000] * 10
    with socket_for(server, token=token) as ws:  # the server answers as before
        assert json.loads(ws.recv(timeout=20))["type"] == "hello"
    log = server.log_path.read_text()
    assert "Traceback" not in log and "ERROR" not in log, log[-3000:]
    assert log.count("\n") == before


def test_json_lines_when_asked(servers: Callable[..., Server]) -> None:
    server = servers("--log-format", "json")
    guest(server, "Registrado")
    lines = [line for line in server.log_path.read_text().splitlines()
             if line.startswith("{")]
    assert lines, server.log()
    for line in lines:
        entry = json.loads(line)
        assert {"time", "level", "logger", "message"} <= entry.keys()
    assert any(json.loads(x)["message"].startswith("resumed") for x in lines)
