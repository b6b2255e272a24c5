"""The Redis fan-out on its own: publishes the writer loses are made good.

After a Redis restart a node's pooled connections are dead until used; the reader reconnects
first (and the node republishes its matches' state), then the writer's next batch may still go
out on a dead connection and be lost — with the republished state in it. A lost batch must bring
the matches' whole view again once Redis takes publishes, or the sockets following them on
other nodes wait forever (a cluster test saw it under load).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
import redis.exceptions
from tests.cluster.conftest import RedisServer

from carroca.server.cluster.bus import CallFailed, RedisFanout


async def _until(check: Callable[[], bool], seconds: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + seconds
    while not check():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("not in time")
        await asyncio.sleep(0.02)


async def _lost_batch_is_made_good(url: str) -> None:
    a, b = RedisFanout(url, "bus-a", call_timeout=30.0), RedisFanout(url, "bus-b")
    await a.start()
    await b.start()
    try:
        got: list[str] = []
        b.subscribe("t:m1:0", got.append)
        await b.settled("t:m1:0")
        await _until(lambda: a.listening("t:m1:0"))
        ran: list[str] = []

        async def chat(args: dict[str, Any]) -> str:
            ran.append(args["text"])
            return "ok"

        b.handlers["chat"] = chat
        reconnects: list[int] = []
        a.on_reconnect = lambda: reconnects.append(1)
        real_pipeline, real_ping = a.redis.pipeline, a.redis.ping
        failures: list[str] = []
        down = True

        def pipeline(*args: Any, **kwargs: Any) -> Any:
            if down:  # a connection the restart closed, then Redis not answering
                failures.append("publish")
                raise redis.exceptions.ConnectionError("Connection closed by server.")
            return real_pipeline(*args, **kwargs)

        async def ping() -> Any:
            if down:
                failures.append("ping")
                raise redis.exceptions.ConnectionError("Connection refused.")
            return await real_ping()

        a.redis.pipeline = pipeline  # type: ignore[method-assign]
        a.redis.ping = ping  # type: ignore[method-assign]
        a.publish("t:m1:0", "lost")
        await _until(lambda: "publish" in failures)
        # Meanwhile: a seat on `a` follows another channel (its `sub` to the others is lost),
        # and a call is made (it fails at once rather than run after its caller gave up).
        a.subscribe("t:m2:0", lambda payload: None)
        await a.settled("t:m2:0")
        with pytest.raises(CallFailed):
            await a.call("bus-b", "chat", {"text": "stale"})
        await _until(lambda: "ping" in failures)
        assert reconnects == [] and got == [] and not b.listening("t:m2:0")
        down = False
        await _until(lambda: reconnects == [1])  # nothing else queued: it comes back anyway
        await _until(lambda: b.listening("t:m2:0"))  # the interest lost is told again
        a.publish("t:m1:0", "after")
        await _until(lambda: got == ["after"])
        assert await a.call("bus-b", "chat", {"text": "fresh"}) == "ok"
        await asyncio.sleep(0.3)
        assert reconnects == [1] and ran == ["fresh"]  # once per loss; the stale call never ran
    finally:
        await a.stop()
        await b.stop()


def test_a_batch_the_writer_lost_brings_the_view_again(redis_server: RedisServer) -> None:
    # A thread of its own: another test's browser may have left an event loop running in this one.
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, _lost_batch_is_made_good(redis_server.url)).result()


@pytest.fixture(autouse=True)
def _no_database() -> None:
    """This test needs Redis only."""
