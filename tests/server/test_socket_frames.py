"""A client's frames as the server's WebSocket protocol reads them (`GuardedWebSocket`): what its
reader is handed, what it writes back, and when it closes, on a socket of its own."""

from __future__ import annotations

import asyncio

import pytest
from tests.support.socket_protocol import ended, masked, opened

CLOSE_1000 = masked(0x88, (1000).to_bytes(2, "big"))
NOT_UTF8 = masked(0x81, b"\xc3\x28")


@pytest.mark.parametrize("reading", [True, False], ids=["reader", "asgi-queue"])
def test_invalid_utf8_then_a_close_in_one_read(reading: bool) -> None:
    """The client's close is read with the broken text: the connection is closing already, so
    the text is dropped and the close answered, rather than a 1007 the protocol cannot send
    any more (an exception out of `data_received`, which asyncio logs with a traceback, and the
    socket dropped without a close frame)."""
    async def scenario() -> None:
        protocol, transport = await opened()
        got: list[str] = []
        if reading:
            protocol.reader = got.append
        protocol.data_received(NOT_UTF8 + CLOSE_1000)
        assert b"".join(transport.written) == bytes((0x88, 2)) + (1000).to_bytes(2, "big")
        assert transport.closed and not got
        await ended(protocol)

    asyncio.run(scenario())
