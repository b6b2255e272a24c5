"""A socket's frames: written together at the end of the loop's turn, straight to the server's
protocol when it can take them, through ASGI's `send` otherwise, always in order. (The real
protocol's `write_frames`, with each compression mode: tests/server/test_socket_compression.py.)"""

from __future__ import annotations

import asyncio

from websockets.frames import Frame, Opcode

from carroca.server.edge.guard import text_frame_header
from carroca.server.routes.connection import Connection


class Protocol:
    """The server's protocol as `Connection` sees it: takes frames now, or says it cannot."""

    def __init__(self) -> None:
        self.writes: list[list[str]] = []
        self.open = True

    def write_frames(self, texts: list[str]) -> bool:
        if not self.open:
            return False
        self.writes.append(list(texts))
        return True


class Asgi:
    """ASGI's way (a Starlette WebSocket's `send_text`), which may wait for the transport."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.gate = asyncio.Event()
        self.gate.set()

    async def send_text(self, text: str) -> None:
        await self.gate.wait()
        self.sent.append(text)


def connection(ws: Asgi, writer: Protocol | None) -> Connection:
    return Connection(ws, {"id": 1, "name": "Ana"}, None, writer)  # type: ignore[arg-type]


async def turn() -> None:
    for _ in range(3):
        await asyncio.sleep(0)


def test_frames_of_one_turn_go_in_one_write() -> None:
    async def scenario() -> tuple[Protocol, Asgi]:
        ws, protocol = Asgi(), Protocol()
        conn = connection(ws, protocol)
        conn.send("state 1")
        conn.send("ack 1")
        await turn()
        conn.send("state 2")
        await turn()
        return protocol, ws

    protocol, ws = asyncio.run(scenario())
    assert protocol.writes == [["state 1", "ack 1"], ["state 2"]]
    assert ws.sent == []


def test_a_protocol_that_cannot_take_them_now_leaves_them_to_asgi_in_order() -> None:
    async def scenario() -> tuple[Protocol, Asgi]:
        ws, protocol = Asgi(), Protocol()
        conn = connection(ws, protocol)
        protocol.open = False  # its buffer is full: ASGI's `send` waits for the transport
        ws.gate.clear()
        conn.send("1")
        await turn()
        protocol.open = True
        conn.send("2")  # behind "1", which is still waiting: not written before it
        await turn()
        assert protocol.writes == [] and ws.sent == []
        ws.gate.set()
        await turn()
        conn.send("3")  # the writing task is done: straight to the protocol again
        await turn()
        return protocol, ws

    protocol, ws = asyncio.run(scenario())
    assert ws.sent == ["1", "2"]
    assert protocol.writes == [["3"]]


def test_without_a_protocol_every_frame_goes_through_asgi() -> None:
    async def scenario() -> Asgi:
        ws = Asgi()
        conn = connection(ws, None)
        for text in ("a", "b", "c"):
            conn.send(text)
        await turn()
        conn.send("d")
        await conn.drain(1.0)
        return ws

    assert asyncio.run(scenario()).sent == ["a", "b", "c", "d"]


def test_drain_writes_what_waits_for_the_end_of_the_turn() -> None:
    async def scenario() -> Protocol:
        protocol = Protocol()
        conn = connection(Asgi(), protocol)
        conn.send("bye")
        conn.closed = True
        await conn.drain(1.0)  # the socket is closing: what was sent before still goes out
        return protocol

    assert asyncio.run(scenario()).writes == [["bye"]]



def test_a_frame_written_without_extensions_is_what_websockets_would_write() -> None:
    """`write_frames` builds uncompressed text frames itself (`text_frame_header`): byte for
    byte the frame that `websockets` serializes, at every length encoding (7, 16, 64 bits)."""
    for n in (0, 1, 125, 126, 127, 2600, 65535, 65536, 70000):
        data = ("ç" * (n // 2) + "a" * (n % 2)).encode()
        assert len(data) == n
        expected = Frame(Opcode.TEXT, data).serialize(mask=False, extensions=[])
        assert text_frame_header(n) + data == expected, n
