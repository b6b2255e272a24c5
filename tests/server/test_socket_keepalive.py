"""Keep-alive pings: only to a client that said nothing for a whole interval, counted from the
last bytes it sent (a pong among them); one that never answers is dropped after the ping's
timeout, as uvicorn does. A peer that goes silent is dropped at most an interval and a timeout
after its last bytes, whatever they were.

The protocol's timers run on a clock the tests move (`Clock`), not the machine's."""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

import pytest
from tests.support.socket_protocol import Clock, Transport, client_frame, ended, masked, opened

INTERVAL, TIMEOUT = 60.0, 30.0
PING = 0x89


def ping_payload(transport: Transport) -> bytes | None:
    """The payload of the ping the server wrote since last asked (its frames unmasked), if any;
    what was written is forgotten."""
    payload = None
    for data in transport.written:
        if data[0] == PING:
            payload = data[2:2 + data[1]]
    transport.written.clear()
    return payload


def pong(payload: bytes) -> bytes:
    return masked(0x8A, payload)


async def socket_on(clock: Clock) -> tuple[Any, Transport]:
    return await opened(ping_interval=INTERVAL, ping_timeout=TIMEOUT, clock=clock)


def test_pings_go_to_silent_clients_only() -> None:
    async def scenario() -> None:
        clock = Clock()
        protocol, transport = await socket_on(clock)
        for _ in range(2):  # the client speaks every 50 s: never pinged
            clock.advance(50)
            protocol.data_received(client_frame("{}"))
            assert ping_payload(transport) is None and protocol.ping_timer is not None
        clock.advance(INTERVAL - 0.5)  # silent for almost an interval: not yet
        assert ping_payload(transport) is None
        clock.advance(0.5)  # for a whole interval: pinged
        assert ping_payload(transport) is not None and protocol.pong_timer is not None
        clock.advance(TIMEOUT)  # no pong: dropped
        assert transport.closed
        await ended(protocol)

    asyncio.run(scenario())


def test_a_pong_counts_as_the_client_speaking() -> None:
    """An idle client answering each ping is pinged an interval after its pong, not two."""
    async def scenario() -> None:
        clock = Clock()
        protocol, transport = await socket_on(clock)
        pinged_at = []
        for _ in range(4):
            for _ in range(int(2 * INTERVAL)):
                clock.advance(1)
                payload = ping_payload(transport)
                if payload is not None:
                    break
            assert payload is not None, "not pinged within two intervals"
            pinged_at.append(clock.now)
            clock.advance(1)  # the round trip
            protocol.data_received(pong(payload))
        assert not transport.closed
        gaps = [b - a for a, b in itertools.pairwise(pinged_at)]
        assert gaps == [INTERVAL + 1] * 3, pinged_at
        await ended(protocol)

    asyncio.run(scenario())


@pytest.mark.parametrize(("last", "later"), [
    ("handshake", 0.0), ("pong", 0.0),
    ("text", 0.0), ("text", 1.0), ("text", 29.0), ("text", 59.0)])
def test_a_peer_gone_silent_is_dropped_within_an_interval_and_a_timeout(
        last: str, later: float) -> None:
    """The client's last bytes: its handshake, the pong to its first ping, or a message `later`
    seconds after that pong; then nothing. It is pinged an interval after them and dropped a
    timeout after that: never later (nor earlier) whatever the timers' phase."""
    async def scenario() -> None:
        clock = Clock()
        protocol, transport = await socket_on(clock)
        last_bytes = clock.now
        if last != "handshake":
            clock.advance(INTERVAL)
            payload = ping_payload(transport)
            assert payload is not None
            clock.advance(1)
            protocol.data_received(pong(payload))
            clock.advance(later)
            if last == "text":
                protocol.data_received(client_frame("{}"))
            last_bytes = clock.now
        ping_payload(transport)
        clock.advance(INTERVAL - 0.01)
        assert ping_payload(transport) is None and not transport.closed
        clock.advance(0.01)
        assert ping_payload(transport) is not None
        clock.advance(TIMEOUT - 0.01)
        assert not transport.closed
        clock.advance(0.01)
        assert transport.closed and clock.now == pytest.approx(last_bytes + INTERVAL + TIMEOUT)
        await ended(protocol)

    asyncio.run(scenario())
