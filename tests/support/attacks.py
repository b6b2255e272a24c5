"""Clients for the attack tests (tests/security: attacks on a real `carroca serve`, each shown to
fail against the limits): HTTP from a chosen loopback address, raw sockets, WebSockets.

Clients bind to other loopback addresses (127.0.0.2, 127.0.0.3, …) to stand for other players'
addresses: the server sees each as its own client, as it would across the internet.
"""

from __future__ import annotations

import contextlib
import inspect
import json
import socket
import time
from typing import Any

import httpx2
from tests.support.serverproc import LOCAL_TLS, NO_PROXY, Server
from websockets.sync.client import ClientConnection, connect

# Sockets held outside a `with` block (websockets >= 17.1 asks for `legacy=True` then).
DIRECT: dict[str, Any] = {"legacy": True} if "legacy" in inspect.signature(connect).parameters \
    else {}


def http(server: Server, ip: str = "127.0.0.1", token: str | None = None,
         timeout: float = 30) -> httpx2.Client:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return httpx2.Client(base_url=server.base, headers=headers, timeout=timeout,
                         trust_env=False,
                         transport=httpx2.HTTPTransport(local_address=ip, verify=LOCAL_TLS))


def guest(server: Server, name: str, ip: str = "127.0.0.1") -> str:
    with http(server, ip) as c:
        r = c.post("/api/guest", json={"name": name})
        assert r.status_code == 200, r.text
        token: str = r.json()["token"]
        return token


def account(server: Server, name: str, password: str = "senha-secreta",
            ip: str = "127.0.0.1") -> str:
    with http(server, ip) as c:
        r = c.post("/api/register", json={"name": name, "password": password})
        assert r.status_code == 200, r.text
        token: str = r.json()["token"]
        return token


def raw(server: Server, ip: str = "127.0.0.1", timeout: float = 10) -> socket.socket:
    """A plain TCP connection to the server from `ip`."""
    return socket.create_connection(("127.0.0.1", server.port), timeout=timeout,
                                    source_address=(ip, 0))


def read_all(sock: socket.socket, timeout: float) -> bytes | None:
    """What the server sends until it closes the connection, or None if it is still open after
    `timeout` seconds."""
    sock.settimeout(0.2)
    data = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            continue
        except (ConnectionResetError, BrokenPipeError):
            return data
        if not chunk:
            return data
        data += chunk
    return None


def socket_for(server: Server, token: str | None = None, origin: str | None = None,
               cookie: str | None = None) -> ClientConnection:
    url = f"ws://127.0.0.1:{server.port}/ws" + (f"?token={token}" if token else "")
    headers: dict[str, str] = {}
    if cookie:
        headers["Cookie"] = f"carroca_session={cookie}"
    ws: ClientConnection = connect(url, origin=origin, additional_headers=headers,  # type: ignore[arg-type]
                                   open_timeout=30, close_timeout=2, **NO_PROXY, **DIRECT)
    return ws


def error_of(response: httpx2.Response) -> dict[str, Any]:
    """The documented error shape: {"error": {"code", "message"}}, message in pt-BR."""
    assert response.headers["content-type"].startswith("application/json"), response.text
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}, body
    error: dict[str, Any] = body["error"]
    return error


def close_quietly(*socks: socket.socket) -> None:
    for s in socks:
        with contextlib.suppress(OSError):
            s.close()


def play_first_legal(ws: Any, seat: int, match_id: str, limit: int | None = None,
                     seconds: float = 60) -> tuple[dict[str, Any], int]:
    """Join `match_id` on `ws` and answer `seat`'s turns with its first legal action (the first
    `limit` ones only, then idle) until the match is over, within `seconds`: the final state and
    the moves made."""
    ws.send(json.dumps({"type": "join", "data": {"match": match_id}}))
    made = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        frame = json.loads(ws.recv(timeout=30))
        if frame["type"] != "state":
            continue
        state: dict[str, Any] = frame["data"]
        if state["status"] == "finished":
            return state, made
        view = state["view"]
        if view and view["turn"] == seat and view["legal"] and (limit is None or made < limit):
            made += 1
            ws.send(json.dumps({"type": "move", "data": {"id": made, "action": view["legal"][0]}}))
    raise AssertionError("the match did not end")
