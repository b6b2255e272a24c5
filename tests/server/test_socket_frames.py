"""A client's frames as the server's WebSocket protocol reads them (`GuardedWebSocket`): what its
reader is handed, what it writes back, and when it closes, on a socket of its own."""

from __future__ import annotations

import asyncio

import pytest
from tests.support.socket_protocol import client_frame, ended, masked, opened

from carroca.server.edge import guard

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


Read = tuple[list[str], bytes, bool]


def read_both_ways(data: bytes, monkeypatch: pytest.MonkeyPatch) -> list[Read]:
    """What the reader got, what was written and whether the socket closed, for `data` in one
    read: with small frames read directly, then with every frame through the parser."""
    async def scenario() -> Read:
        protocol, transport = await opened()
        got: list[str] = []
        protocol.reader = got.append
        protocol.data_received(data)
        read = got, b"".join(transport.written), transport.closed
        await ended(protocol)
        return read

    direct = asyncio.run(scenario())
    with monkeypatch.context() as patched:
        patched.setattr(guard, "small_texts", lambda conn, data: (0, []))
        parsed = asyncio.run(scenario())
    return [direct, parsed]


@pytest.mark.parametrize("bad", [
    bytes((0x81, 0x02)) + b"ok",  # unmasked
    masked(0x83, b"x"),  # a reserved opcode
    masked(0xC1, b"x"),  # RSV1 without an extension
    masked(0x80, b"x"),  # a continuation with nothing to continue
], ids=["unmasked", "reserved-opcode", "rsv1", "stray-continuation"])
def test_texts_read_with_a_failing_frame_are_dropped_either_way(
        bad: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    """Valid texts, then a frame that fails, in one read: the parser hands on none of them,
    nor does the direct reading; both close with 1002."""
    direct, parsed = read_both_ways(client_frame("ok") + client_frame("dois") + bad,
                                    monkeypatch)
    assert direct == parsed
    got, written, closed = direct
    assert not got and closed and written[0] == 0x88 and written[2:4] == b"\x03\xea"  # 1002
    # The texts alone are handed on, either way.
    direct, parsed = read_both_ways(client_frame("ok") + client_frame("dois"), monkeypatch)
    assert direct == parsed == (["ok", "dois"], b"", False)
