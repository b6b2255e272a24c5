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

from carroca.server.bus import RedisFanout


async def _until(check: Callable[[], bool], seconds: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + seconds
    while not check():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("not in time")
        await asyncio.sleep(0.02)


async def _lost_batch_is_made_good(url: str) -> None:
    a, b = RedisFanout(url, "bus-a"), RedisFanout(url, "bus-b")
    await a.start()
    await b.start()
    try:
        got: list[str] = []
        b.subscribe("t:m1:0", got.append)
        await b.settled("t:m1:0")
        await _until(lambda: a.listening("t:m1:0"))
        reconnects: list[int] = []
        a.on_reconnect = lambda: reconnects.append(1)
        real = a.redis.pipeline
        failures: list[int] = []

        def closed_once(*args: Any, **kwargs: Any) -> Any:
            if not failures:  # the first batch meets a connection the restart closed
                failures.append(1)
                raise redis.exceptions.ConnectionError("Connection closed by server.")
            return real(*args, **kwargs)

        a.redis.pipeline = closed_once  # type: ignore[method-assign]
        a.publish("t:m1:0", "lost")
        await _until(lambda: reconnects == [1])  # nothing else queued: it comes back anyway
        assert failures == [1] and got == []
        a.publish("t:m1:0", "after")
        await _until(lambda: got == ["after"])
        await asyncio.sleep(0.3)
        assert reconnects == [1]  # once per loss, not per batch
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
