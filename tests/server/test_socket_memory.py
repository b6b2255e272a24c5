"""What an open socket keeps and how it reads: the handshake's request and headers let go once
answered (the frames after it parsed as before), uvicorn's receive queue and `writable` event
without deques (which must still behave as asyncio's own), and a client's small text frames
read without the protocol's parser, as it would read them."""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
import tomllib
import weakref
from pathlib import Path
from typing import Any

import pytest
import uvicorn
import websockets
from packaging.requirements import Requirement
from starlette.websockets import WebSocket
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState
from websockets.frames import Frame, Opcode
from websockets.http11 import Request
from websockets.server import ServerProtocol

from carroca.server.edge.guard import (
    ConnectionGuard,
    forget_request,
    guarded_protocols,
    small_texts,
)
from carroca.server.edge.lean import LeanEvent, LeanQueue
from carroca.server.routes.connection import HANDSHAKE_CACHES, forget_handshake

ROOT = Path(__file__).resolve().parents[2]
HANDSHAKE = (b"GET /ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\n"
             b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
             b"Sec-WebSocket-Version: 13\r\n\r\n")


def client_frame(text: str, mask: bytes = b"\x01\x02\x03\x04") -> bytes:
    data = text.encode()
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
    length = bytes((0x80 | len(data),)) if len(data) < 126 else \
        bytes((0x80 | 126,)) + len(data).to_bytes(2, "big")
    return b"\x81" + length + mask + masked


def handshake() -> tuple[ServerProtocol, weakref.ref[Request]]:
    conn = ServerProtocol()
    conn.receive_data(HANDSHAKE)
    [request] = conn.events_received()
    assert isinstance(request, Request)
    conn.send_response(conn.accept(request))
    conn.data_to_send()
    return conn, weakref.ref(request)


def strict(data: bytes) -> str | bytes:
    """The text, or the bytes themselves where they are not UTF-8 (never a text with
    replacement characters, which a reading that replaced bad bytes would hand on)."""
    try:
        return data.decode()
    except UnicodeDecodeError:
        return data


def texts(conn: ServerProtocol) -> list[str | bytes]:
    return [strict(bytes(e.data)) for e in conn.events_received()
            if isinstance(e, Frame) and e.opcode is Opcode.TEXT]


def test_the_request_is_let_go_and_frames_still_parse() -> None:
    conn, request = handshake()
    assert request() is not None  # the parser's frame holds it
    forget_request(conn)
    assert request() is None
    whole = client_frame("um") + client_frame("dois")
    conn.receive_data(whole[:3])  # a frame in pieces, then the rest
    conn.receive_data(whole[3:])
    assert texts(conn) == ["um", "dois"]
    conn.receive_data(bytes((0x88, 0x82)) + b"\x00\x00\x00\x00" + (1000).to_bytes(2, "big"))
    assert conn.close_rcvd is not None and conn.close_rcvd.code == 1000


def test_a_parser_inside_a_frame_is_left_as_it_is() -> None:
    conn, request = handshake()
    frame = client_frame("três")
    conn.receive_data(frame[:4])  # its header and part of the mask: the parser is inside it
    parser = conn.parser
    forget_request(conn)
    assert conn.parser is parser and request() is not None
    conn.receive_data(frame[4:])
    assert texts(conn) == ["três"]


def test_the_lean_queue_and_event_behave_as_asyncios() -> None:
    async def scenario() -> None:
        queue, event = LeanQueue(), LeanEvent()
        assert queue.empty() and not event.is_set()
        getter = asyncio.ensure_future(queue.get())
        waiter = asyncio.ensure_future(event.wait())
        await asyncio.sleep(0)
        queue.put_nowait("connect")
        queue.put_nowait("disconnect")
        event.set()
        assert await getter == "connect" and await waiter is True
        assert queue.get_nowait() == "disconnect"
        cancelled = asyncio.ensure_future(queue.get())  # a cancelled getter leaves no trace
        await asyncio.sleep(0)
        cancelled.cancel()
        with pytest.raises(asyncio.CancelledError):
            await cancelled
        queue.put_nowait(1)
        assert await asyncio.wait_for(queue.get(), 1) == 1
        queue.task_done()
        queue.task_done()
        queue.task_done()
        await asyncio.wait_for(queue.join(), 1)
        event.clear()
        assert not event.is_set()

    asyncio.run(scenario())


def read_both(chunks: list[bytes]) -> tuple[list[str | bytes], list[str | bytes], int]:
    """The messages a parser alone reads from `chunks`, and those read with `small_texts`
    first (the rest to the parser), and how many frames `small_texts` took."""
    plain, quick = handshake()[0], handshake()[0]
    forget_request(quick)
    alone: list[str | bytes] = []
    both: list[str | bytes] = []
    taken_frames = 0
    for chunk in chunks:
        plain.receive_data(chunk)
        alone.extend(texts(plain))
        taken, read = small_texts(quick, chunk)
        both.extend(read)
        taken_frames += len(read)
        if taken < len(chunk):
            quick.receive_data(chunk[taken:])
            both.extend(texts(quick))
    assert plain.state is quick.state and plain.close_rcvd == quick.close_rcvd
    return alone, both, taken_frames


def test_small_text_frames_are_read_as_the_parser_reads_them() -> None:
    rng = random.Random(7)
    kinds = [client_frame("move 1"), client_frame("é" * 70),  # a 2-byte length
             bytes((0x89, 0x80)) + b"\x00\x00\x00\x00",  # a ping
             bytes((0x01, 0x82)) + b"\x00\x00\x00\x00ab" + bytes((0x80, 0x81)) + b"\x00" * 4 + b"c",
             client_frame("x" * 130)]
    for _ in range(200):
        stream = b"".join(rng.choice(kinds) for _ in range(rng.randint(1, 8)))
        cuts = sorted(rng.sample(range(1, len(stream)), k=min(3, len(stream) - 1)))
        chunks = [stream[a:b] for a, b in zip([0, *cuts], [*cuts, len(stream)], strict=True)]
        alone, both, _ = read_both(chunks)
        assert both == alone
    alone, both, taken = read_both([client_frame("um") + client_frame("dois")])
    assert both == alone == ["um", "dois"] and taken == 2


def test_what_small_texts_leaves_to_the_parser() -> None:
    bad = bytes((0x81, 0x82)) + b"\x00\x00\x00\x00" + b"\xc3\x28"  # not UTF-8: uvicorn's to close
    alone, both, taken = read_both([client_frame("ok") + bad + client_frame("fim")])
    assert both == alone == ["ok", b"\xc3\x28", "fim"] and taken == 1
    # Unmasked, a protocol error, the parser's to answer; long enough, and followed by enough,
    # to be read as a masked frame (its first four bytes the mask, its text "okmais").
    unmasked = bytes((0x81, 0x06)) + b"\x00\x00\x00\x00ok" + b"mais"
    assert small_texts(handshake()[0], unmasked) == (0, [])
    assert read_both([bytes((0x01, 0x81)) + b"\x00" * 4 + b"a", client_frame("b")])[2] == 0
    wide = bytes((0x81, 0xFF)) + (2).to_bytes(8, "big") + b"\x00" * 4 + b"ok"  # 64-bit length
    assert small_texts(handshake()[0], wide) == (0, [])


def test_small_texts_keeps_to_the_size_limit_and_an_open_connection() -> None:
    conn, _ = handshake()
    conn.max_message_size = 125  # as `ws_max_size` sets it
    frames = client_frame("x" * 125) + client_frame("y" * 126)  # the 2nd's the parser's: 1009
    assert small_texts(conn, frames) == (len(client_frame("x" * 125)), ["x" * 125])
    conn.send_close(1000)  # the server's close sent: the connection is closing
    assert small_texts(conn, client_frame("tarde")) == (0, [])


def test_the_handshake_is_forgotten_once_answered() -> None:
    async def receive() -> dict[str, object]:
        return {}

    async def send(_: object) -> None:
        return None

    scope = {"type": "websocket", "path": "/ws", "raw_path": b"/ws", "query_string": b"token=t",
             "headers": [(b"host", b"localhost"), (b"cookie", b"carroca_session=abc")],
             "scheme": "ws", "server": ("127.0.0.1", 8000), "client": ("127.0.0.1", 5555),
             "root_path": ""}
    ws = WebSocket(scope, receive, send)
    assert ws.query_params["token"] == "t" and ws.cookies["carroca_session"] == "abc"
    assert ws.headers["host"] == "localhost" and ws.url.scheme == "ws"
    forget_handshake(ws)
    assert scope["headers"] == [] and not set(vars(ws)) & set(HANDSHAKE_CACHES)
    assert ws.url.path == "/ws" and "host" not in ws.headers  # made again, without them


WITHOUT_SPEEDUPS = """
import sys
sys.modules["websockets.speedups"] = None  # its import fails, as without the C extension
from websockets.server import ServerProtocol
from carroca.server.edge.guard import small_texts
conn = ServerProtocol()
conn.receive_data(HANDSHAKE)
conn.send_response(conn.accept(conn.events_received()[0]))
frame = bytes((0x81, 0x82)) + b"\\x01\\x02\\x03\\x04" + bytes((ord("o") ^ 1, ord("k") ^ 2))
assert small_texts(conn, frame) == (len(frame), ["ok"]), small_texts(conn, frame)
"""


def test_frames_are_read_without_websockets_c_extension() -> None:
    """websockets installs without its C extension where it cannot build it: its pure-Python
    masking is used then."""
    code = f"HANDSHAKE = {HANDSHAKE!r}\n{WITHOUT_SPEEDUPS}"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr


def test_websockets_and_uvicorn_are_required_in_the_series_read_here() -> None:
    """The guard reads websockets' parser state and subclasses uvicorn's sans-I/O protocol, by
    names that change between series: pyproject.toml admits the installed series only
    (constraints.txt's), not older ones that lack those names."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    required = {r.name: r.specifier for r in map(Requirement, project["dependencies"])}
    for name, installed, older, newer in [
            ("websockets", websockets.__version__, ["12.0", "16.0"], ["18.0"]),
            ("uvicorn", uvicorn.__version__, ["0.30.0", "0.53.0"], ["0.55.0"])]:
        assert required[name].contains(installed), (name, installed)
        assert not any(required[name].contains(v) for v in older + newer), name


def test_the_sockets_protocols_keep_what_they_share_once() -> None:
    """What uvicorn's `__init__` sets to the same object for every socket (the configuration,
    the app, the loop, the server's sets, the ping settings) is kept once, not in each
    protocol's dictionary, which then shares its keys with the others' (a fraction of uvicorn's
    own); each still reads the same objects, and one given a loop of its own reads its own."""
    async def scenario() -> None:
        async def app(scope: Any, receive: Any, send: Any) -> None:
            await receive()

        config = uvicorn.Config(app, ws_per_message_deflate=False, log_level="error",
                                ws_ping_interval=60.0, ws_ping_timeout=30.0)
        config.load()
        state = ServerState()
        guarded: Any = guarded_protocols(ConnectionGuard(0, 10.0), "off")[1]
        ours = [guarded(config, state, {}) for _ in range(3)]
        theirs = [WebSocketsSansIOProtocol(config, state, {}) for _ in range(3)]
        loop = asyncio.get_running_loop()
        for p in ours:
            assert p.config is config and p.loop is loop and p.connections is state.connections
            assert p.ping_interval == 60.0 and p.ping_timeout == 30.0
            assert p.app is config.loaded_app and p.tasks is state.tasks
            assert not {"config", "loop", "app", "connections", "logger"} & set(vars(p))
        assert 3 * sys.getsizeof(vars(ours[0])) < sys.getsizeof(vars(theirs[0]))
        other = asyncio.new_event_loop()
        try:
            own = guarded(config, state, {}, other)
            assert own.loop is other and ours[0].loop is loop
            assert guarded(config, state, {}).loop is loop
        finally:
            other.close()

    asyncio.run(scenario())
