"""What reading a client's message costs the server's WebSocket protocol, both ways.

A `move` message as the web client sends it (one masked text frame), read by the server's
protocol (`carroca.server.edge.guard`'s `GuardedWebSocket`, uvicorn's sans-I/O protocol) from
the bytes a `data_received` brings to the text its reader is handed: through `websockets`'
frame parser and uvicorn's dispatch (`parser`), or by `small_texts` (`direct`, where the
parser would do nothing more). Both sides run in the same process, alternated; CPU time.

    python bench/socket_read.py [--messages 20000] [--rounds 7]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time
from typing import Any

import uvicorn

from carroca.server.edge.guard import ConnectionGuard, guarded_protocols

HANDSHAKE = (b"GET /ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\n"
             b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
             b"Sec-WebSocket-Version: 13\r\n\r\n")
MESSAGE = '{"type":"move","data":{"id":17,"action":"play 5-3 left","version":42}}'


def client_frame(text: str) -> bytes:
    data, mask = text.encode(), os.urandom(4)
    return bytes((0x81, 0x80 | len(data))) + mask + bytes(
        b ^ mask[i % 4] for i, b in enumerate(data))


class Transport(asyncio.Transport):
    """Enough of a socket for the protocol: writes dropped, always open."""

    def __init__(self) -> None:
        super().__init__()

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return ("127.0.0.1", 5555) if name in ("peername", "sockname") else default

    def write(self, data: bytes | bytearray | memoryview) -> None:
        pass

    def is_closing(self) -> bool:
        return False

    def close(self) -> None:
        pass


async def opened(direct: bool) -> tuple[Any, list[str]]:
    """An open socket's protocol, its reader set as the tables' handler sets it."""
    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "websocket.accept"})
        await receive()  # the end (the messages go to the reader)

    config = uvicorn.Config(app, ws_per_message_deflate=False, log_level="error",
                            ws_ping_interval=None)
    config.load()
    _, ws = guarded_protocols(ConnectionGuard(0, 10.0), "off")
    make: Any = ws
    protocol: Any = make(config, uvicorn.server.ServerState(), {})
    protocol.connection_made(Transport())
    protocol.data_received(HANDSHAKE)
    for _ in range(5):
        await asyncio.sleep(0)
    got: list[str] = []
    protocol.reader = got.append
    if not direct:  # the parser's way: no frame is read before it
        protocol.reader = None
        protocol.send_receive_event_to_app = lambda: got.append(protocol.frames[0].decode())
    return protocol, got


async def measure(messages: int, rounds: int) -> dict[str, list[float]]:
    frames = [client_frame(MESSAGE) for _ in range(messages)]
    out: dict[str, list[float]] = {"parser": [], "direct": []}
    sides = {name: await opened(name == "direct") for name in out}
    for _ in range(rounds):
        for name, (protocol, got) in sides.items():
            got.clear()
            began = time.process_time()
            for frame in frames:
                protocol.data_received(frame)
            spent = time.process_time() - began
            assert got == [MESSAGE] * messages, name
            out[name].append(1e6 * spent / messages)
    for protocol, _ in sides.values():
        protocol.connection_lost(None)
    await asyncio.sleep(0.01)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    out = asyncio.run(measure(args.messages, args.rounds))
    for name, values in out.items():
        print(f"{name:7s} µs a message: median {statistics.median(values):.2f} "
              f"(runs: {' '.join(f'{v:.2f}' for v in values)})")
    ratio = statistics.median(out["direct"]) / statistics.median(out["parser"])
    print(f"direct / parser: {ratio:.2f}")


if __name__ == "__main__":
    main()
