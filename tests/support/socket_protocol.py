"""The server's WebSocket protocol (`carroca.server.edge.guard`'s `GuardedWebSocket`) on a
socket of its own: an in-memory transport that keeps what is written, the opening handshake
done, the timers those of the loop the test runs."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

import uvicorn
from uvicorn.server import ServerState

from carroca.server.edge.guard import WS_MAX_BYTES, ConnectionGuard, guarded_protocols

HANDSHAKE = (b"GET /ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\n"
             b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
             b"Sec-WebSocket-Version: 13\r\n\r\n")


class Transport(asyncio.Transport):
    """Enough of a socket for the protocol: what it writes kept, closed when it says so."""

    def __init__(self) -> None:
        super().__init__()
        self.written: list[bytes] = []
        self.closed = False

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return ("127.0.0.1", 5555) if name in ("peername", "sockname") else default

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.written.append(bytes(data))

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


def masked(opcode_byte: int, payload: bytes, mask: bytes = b"\x01\x02\x03\x04") -> bytes:
    """A client's frame with a 7-bit length: its first byte as given (FIN, RSV, opcode)."""
    assert len(payload) < 126
    return bytes((opcode_byte, 0x80 | len(payload))) + mask + bytes(
        b ^ mask[i % 4] for i, b in enumerate(payload))


def client_frame(text: str) -> bytes:
    """A client's final text frame (masked, as browsers send them)."""
    return masked(0x81, text.encode())


class Timer:
    def __init__(self, when: float, callback: Callable[..., object], args: tuple[Any, ...]
                 ) -> None:
        self.when, self.callback, self.args = when, callback, args
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class Clock:
    """The protocol's loop as far as its timers go, on a clock of its own that moves only when
    told (`advance`): timers run in order, each at its time, whatever the machine's load. Tasks
    go to the running loop."""

    def __init__(self) -> None:
        self.now = 0.0
        self.timers: list[Timer] = []

    def time(self) -> float:
        return self.now

    def call_later(self, delay: float, callback: Callable[..., object], *args: Any) -> Timer:
        timer = Timer(self.now + delay, callback, args)
        self.timers.append(timer)
        return timer

    def create_task(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        return asyncio.get_running_loop().create_task(coro)

    def advance(self, seconds: float) -> None:
        """To `seconds` later, running the timers due on the way (and those they set)."""
        until = self.now + seconds
        while True:
            due = [t for t in self.timers if not t.cancelled and t.when <= until]
            if not due:
                break
            timer = min(due, key=lambda t: t.when)
            self.timers.remove(timer)
            self.now = max(self.now, timer.when)
            timer.callback(*timer.args)
        self.now = until


async def opened(ping_interval: float | None = None, ping_timeout: float | None = None,
                 clock: Clock | None = None, max_size: int = WS_MAX_BYTES
                 ) -> tuple[Any, Transport]:
    """A protocol past its opening handshake, as the server configures it (no compression,
    messages up to `max_size` bytes); its ASGI app accepts, then waits for the end. Its timers
    on `clock` if given, else on the running loop."""
    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "websocket.accept"})
        while (await receive())["type"] != "websocket.disconnect":
            pass

    config = uvicorn.Config(app, ws_per_message_deflate=False, log_level="error",
                            ws_max_size=max_size, ws_ping_interval=ping_interval,
                            ws_ping_timeout=ping_timeout)
    config.load()
    make: Any = guarded_protocols(ConnectionGuard(0, 10.0), "off")[1]
    protocol: Any = make(config, ServerState(), {}, clock)
    transport = Transport()
    protocol.connection_made(transport)
    protocol.data_received(HANDSHAKE)
    for _ in range(5):
        await asyncio.sleep(0)
    assert protocol.handshake_complete
    transport.written.clear()
    return protocol, transport


async def ended(protocol: Any) -> None:
    """The socket is gone: the app sees its end and returns."""
    protocol.connection_lost(None)
    for _ in range(3):
        await asyncio.sleep(0)
