"""permessage-deflate on the game's WebSocket (`ws_compression`): by default each message is
compressed on its own (no zlib state kept per open socket: ~48 KiB less each than with the window
carried between messages, bench/load.py --deflate), `context` keeps uvicorn's own offer, `off`
none. A browser-like client (websockets offers deflate with client_max_window_bits) talks to
each."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from tests.serverproc import Server

from carroca.server.edge.guard import guarded_protocols


@pytest.mark.parametrize(("mode", "extension"), [
    (None, "permessage-deflate; server_no_context_takeover; client_no_context_takeover; "
           "server_max_window_bits=12; client_max_window_bits=12"),
    ("context", "permessage-deflate; server_max_window_bits=12; client_max_window_bits=12"),
    ("off", None),
])
def test_the_negotiated_compression(servers: Callable[..., Server], mode: str | None,
                                    extension: str | None) -> None:
    server = servers(env={"CARROCA_WS_COMPRESSION": mode} if mode else {})
    with server.http() as c:
        token = c.post("/api/guest", json={"name": "Zipada"}).json()["token"]
    with server.socket(token) as ws:
        assert ws.response is not None
        assert ws.response.headers.get("Sec-WebSocket-Extensions") == extension
        for _ in range(3):  # messages after the first decode too (no state carried over)
            ws.send(json.dumps({"type": "ping", "data": {}}))
        kinds = [json.loads(ws.recv(timeout=10))["type"] for _ in range(4)]
        assert kinds == ["hello", "pong", "pong", "pong"]


def test_an_unknown_mode_is_refused() -> None:
    with pytest.raises(ValueError, match="ws_compression"):
        guarded_protocols(None, "gzip")  # type: ignore[arg-type]
