"""A client's frames as the server's WebSocket protocol reads them (`GuardedWebSocket`): what its
reader is handed, what it writes back, and when it closes, on a socket of its own."""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import dataclass
from typing import Any
from unittest import mock

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from tests.support.examples import examples
from tests.support.socket_protocol import client_frame, ended, masked, opened

from carroca.server.edge import guard
from carroca.server.edge.guard import WS_MAX_BYTES

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


# ---------------------------------------------------------------- any frames, any reads

def frame_bytes(first: int, payload: bytes, mask: bytes | None, width: int) -> bytes:
    """A frame: its first byte (FIN, RSV, opcode), its length in `width` bits (7, 16 or 64,
    minimal or not), masked with `mask` (None: unmasked, which a client must not send)."""
    n = len(payload)
    if width == 7:
        head = bytes((first, n))
    elif width == 16:
        head = bytes((first, 126)) + n.to_bytes(2, "big")
    else:
        head = bytes((first, 127)) + n.to_bytes(8, "big")
    if mask is None:
        return head + payload
    key = (mask * (n // 4 + 1))[:n]  # XORed as one integer: quick for 64 KiB, and not the
    body = (int.from_bytes(payload, "big") ^ int.from_bytes(key, "big")).to_bytes(n, "big")
    return bytes((head[0], head[1] | 0x80)) + head[2:] + mask + body  # server's own masking


TEXTS = st.text(max_size=30).map(str.encode)
BROKEN = st.sampled_from([b"\xc3\x28", b"\xff", b"\xed\xa0\x80", b"\xe2\x82", b"\xc0\xaf"])
SIZES = st.sampled_from([0, 1, 124, 125, 126, 127, 200, 65535, 65536, 65537]) | \
    st.integers(0, 300)
#: The largest message the socket takes: the server's own, and smaller ones (the edges of the
#: 7-bit and 16-bit lengths), where the limit, not the length's width, decides.
LIMITS = st.sampled_from([WS_MAX_BYTES, WS_MAX_BYTES, 200, 126, 125])


def widths(n: int) -> list[int]:
    """The length widths that can say `n`: the minimal one three times, the others once."""
    fit = [w for w in (7, 16, 64) if not (w == 7 and n >= 126) and not (w == 16 and n >= 1 << 16)]
    return [fit[0]] * 3 + fit


@st.composite
def payloads(draw: st.DrawFn) -> bytes:
    """Valid UTF-8 mostly, some with invalid UTF-8 inside, some random bytes; at sizes around
    the length encodings' and the limit's edges (which may cut through a character)."""
    base = draw(TEXTS | TEXTS | st.binary(max_size=30) | st.tuples(TEXTS, BROKEN, TEXTS).map(
        b"".join))
    if draw(st.booleans()):
        return base
    size = draw(SIZES)
    return (base + b"x" * size)[:size]


MASKS = st.binary(min_size=4, max_size=4) | st.just(b"\x00\x00\x00\x00")


@st.composite
def messages(draw: st.DrawFn) -> bytes:
    """What a client sends most: a final text frame, most often masked, of valid UTF-8, its
    length minimal."""
    payload = draw(TEXTS | TEXTS | TEXTS | payloads())
    mask = None if draw(st.integers(0, 7)) == 0 else draw(MASKS)
    return frame_bytes(0x81, payload, mask, draw(st.sampled_from(widths(len(payload)))))


@st.composite
def controls(draw: st.DrawFn) -> bytes:
    """A masked ping or pong (between a client's messages), or a close that parses."""
    if draw(st.integers(0, 3)) == 0:
        code = draw(st.sampled_from([1000, 1001, 3000, 4999]))
        return frame_bytes(0x88, code.to_bytes(2, "big") + draw(TEXTS)[:100], draw(MASKS), 7)
    return frame_bytes(draw(st.sampled_from([0x89, 0x8A])), draw(st.binary(max_size=125)),
                       draw(MASKS), 7)


@st.composite
def frames(draw: st.DrawFn) -> bytes:
    """Any frame: any opcode (reserved ones too), FIN or not, any reserved bits, masked or not,
    any length width."""
    opcode = draw(st.sampled_from([1, 1, 0, 2, 8, 9, 10]) | st.integers(0, 15))
    fin = draw(st.sampled_from([True, True, False]))
    rsv = draw(st.sampled_from([0, 0, 0, 1, 2, 4, 7]))
    payload = draw(payloads())
    mask = None if draw(st.integers(0, 3)) == 0 else draw(MASKS)
    return frame_bytes(fin << 7 | rsv << 4 | opcode, payload, mask,
                       draw(st.sampled_from(widths(len(payload)))))


@dataclass(frozen=True)
class Reads:
    chunks: list[bytes]  # what each `data_received` brings
    closing: int | None  # before which read the server closes the socket itself, if it does
    limit: int  # the largest message the socket takes


@st.composite
def reads(draw: st.DrawFn) -> Reads:
    """Frames (a client's messages most, among pings and pongs, any other some), their bytes
    cut into reads at frame boundaries or anywhere."""
    parts = draw(st.lists(messages() | messages() | messages() | controls() | frames(),
                          min_size=1, max_size=6))
    stream = b"".join(parts)
    bounds = list(itertools.accumulate(len(p) for p in parts))[:-1]
    cuts = set(draw(st.lists(st.sampled_from(bounds), max_size=3))) if bounds else set()
    cuts |= set(draw(st.lists(st.integers(1, max(1, len(stream) - 1)), max_size=2)))
    edges = [0, *sorted(c for c in cuts if 0 < c < len(stream)), len(stream)]
    chunks = [stream[a:b] for a, b in itertools.pairwise(edges)]
    closing = draw(st.sampled_from([None] * 4 + list(range(len(chunks)))))
    return Reads(chunks, closing, draw(LIMITS))


Seen = tuple[list[str], bytes, bool, bool, str, list[Any]]


async def seen(given: Reads) -> Seen:
    """What the reader got, the bytes written, whether the socket was closed, whether the server
    sent its close, the connection's state, and the events for the app (its end)."""
    protocol, transport = await opened(max_size=given.limit)
    got: list[str] = []
    protocol.reader = got.append
    for i, chunk in enumerate(given.chunks):
        if i == given.closing and not transport.closed:
            await protocol.send({"type": "websocket.close", "code": 1000})
        protocol.data_received(chunk)
    events = []
    while not protocol.queue.empty():
        events.append(protocol.queue.get_nowait())
    result = (got, b"".join(transport.written), transport.closed, protocol.close_sent,
              protocol.conn.state.name, events)
    await ended(protocol)
    return result


def text(payload: bytes, width: int = 7, mask: bytes | None = b"\x0f\xf0\x3c\xc3") -> bytes:
    return frame_bytes(0x81, payload, mask, width)


PING = frame_bytes(0x89, b"hi", b"\x01\x02\x03\x04", 7)
CLOSE = frame_bytes(0x88, (1000).to_bytes(2, "big"), b"\x01\x02\x03\x04", 7)


@settings(max_examples=examples(200), deadline=None)
@given(reads())
# The cases a reading of its own could get wrong, tried every time besides the drawn ones:
@example(Reads([text(b"okokok", mask=None)], None, WS_MAX_BYTES))  # unmasked
@example(Reads([text(b"\0\0\0\0ok", mask=None) + b"abcd"], None, WS_MAX_BYTES))  # read as masked
@example(Reads([text(b"ok") + text(b"tr\xc3\xaas", 64, b"\0\0\0\0")], None, WS_MAX_BYTES))
@example(Reads([text(b"ok") + text(b"\xc3\x28") + text(b"ok")], None, WS_MAX_BYTES))  # not UTF-8
@example(Reads([text(b"\xc3\x28") + CLOSE], None, WS_MAX_BYTES))
@example(Reads([text(b"um") + PING + text(b"dois"), text(b"tr\xc3\xaas")], None, WS_MAX_BYTES))
@example(Reads([text(b"um") + text(b"dois", 16) + text(b"tr\xc3\xaas", 64)], None, WS_MAX_BYTES))
@example(Reads([text(b"x" * 125) + text(b"x" * 126, 16) + text(b"ok")], None, 125))  # limit
@example(Reads([text(b"x" * 65535, 16), text(b"x" * 65536, 64)], None, WS_MAX_BYTES))
@example(Reads([text(b"x" * 65535, 16) + text(b"ok")], None, 65534))
@example(Reads([text(b"um"), text(b"dois") + text(b"tr\xc3\xaas")], 1, WS_MAX_BYTES))
@example(Reads([text(b"um") + text(b"dois") + frame_bytes(0xC1, b"x", b"abcd", 7)], None,
               WS_MAX_BYTES))  # RSV1
@example(Reads([text(b"um") + text(b"dois")[:5], text(b"dois")[5:] + text(b"tr\xc3\xaas")],
               None, WS_MAX_BYTES))  # a frame across reads
def test_any_frames_in_any_reads_are_read_as_the_parser_reads_them(given: Reads) -> None:
    """Small text frames read straight from the bytes, or every frame through the parser: the
    same texts for the reader, the same bytes written (pongs, closes and their codes), the same
    end, for any frames (any opcode, reserved bits, masked or not, lengths in 7, 16 or 64 bits,
    minimal or not, at the limit's edges, payloads of valid or invalid UTF-8), cut into reads
    anywhere, the server closing the socket itself or not. (The socket is fed every read, even
    once closed: what a transport would not deliver any more changes nothing either way.)"""
    direct = asyncio.run(seen(given))
    with mock.patch.object(guard, "small_texts", lambda conn, data: (0, [])):
        parsed = asyncio.run(seen(given))
    assert direct == parsed
