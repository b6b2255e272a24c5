"""The loop of a node's background pollers (closed accounts, ended tables, moderation's upkeep):
one way to wait, take a step and outlive a store outage."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable


async def poll(seconds: float, step: Callable[[], Awaitable[object]]) -> None:
    """`step` every `seconds`, for ever (until cancelled); a step that fails waits for the next
    turn: an outage, which the store logs once, must not end the loop."""
    while True:
        await asyncio.sleep(seconds)
        with contextlib.suppress(Exception):
            await step()
