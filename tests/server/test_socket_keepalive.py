"""Keep-alive pings: only to a client that said nothing for a whole interval; one that never
answers is dropped after the ping's timeout, as uvicorn does."""

from __future__ import annotations

import asyncio
from typing import Any

import uvicorn
from uvicorn.server import ServerState

from carroca.server.edge.guard import ConnectionGuard, guarded_protocols

HANDSHAKE = (b"GET /ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\n"
             b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
             b"Sec-WebSocket-Version: 13\r\n\r\n")
PING = 0x89


class Transport(asyncio.Transport):
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


def client_frame(text: str) -> bytes:
    data = text.encode()
    return bytes((0x81, 0x80 | len(data))) + b"\x00\x00\x00\x00" + data


def pinged(transport: Transport) -> bool:
    sent = any(w[0] == PING for w in transport.written)
    transport.written.clear()
    return sent


def test_pings_go_to_silent_clients_only() -> None:
    async def scenario() -> None:
        async def app(scope: Any, receive: Any, send: Any) -> None:
            await receive()
            await send({"type": "websocket.accept"})
            while (await receive())["type"] != "websocket.disconnect":
                pass

        # The timers are run by hand here (an interval nobody waits for).
        config = uvicorn.Config(app, ws_per_message_deflate=False, log_level="error",
                                ws_ping_interval=3600, ws_ping_timeout=3600)
        config.load()
        make: Any = guarded_protocols(ConnectionGuard(0, 10.0), "off")[1]
        protocol: Any = make(config, ServerState(), {})
        transport = Transport()
        protocol.connection_made(transport)
        protocol.data_received(HANDSHAKE)
        for _ in range(3):
            await asyncio.sleep(0)
        assert protocol.handshake_complete and protocol.ping_timer is not None
        transport.written.clear()
        for _ in range(2):  # the client spoke in the interval: no ping, the next one armed
            protocol.data_received(client_frame("{}"))
            protocol.send_keepalive_ping()
            assert not pinged(transport) and protocol.ping_timer is not None
        protocol.send_keepalive_ping()  # silent for an interval: pinged
        assert pinged(transport) and protocol.pong_timer is not None
        protocol.keepalive_timeout()  # no pong: dropped
        assert transport.closed
        protocol.connection_lost(None)
        await asyncio.sleep(0)

    asyncio.run(scenario())
