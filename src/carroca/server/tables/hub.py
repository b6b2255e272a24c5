"""This node: its id, its settings, its bot service and its background tasks.

What every owner of a job on the server shares, and nothing more: the live tables are
`tables.Tables`', the sockets per sign-in `sessions.Sessions`', the mutes `chat.Mutes`', the
ranked queue `ranked.RankedQueue`', the bot budget `botbudget.BotAdmission`'s, the periodic
clean-up `upkeep.Upkeep`'s; each is made once in the app's lifespan and handed to whoever uses
it.

Bots think in the bot service (`carroca.botservice`): worker processes at a lower OS priority
than this one, fed fairly by table, people's tables first; this process only checks their moves.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

from carroca.botservice import BotService, LocalBots
from carroca.server.settings import Settings


class Hub:
    """The node's shared services and the background tasks that stop with it."""

    def __init__(self, settings: Settings, bots: BotService | None = None,
                 node: str | None = None) -> None:
        self.settings = settings
        # Local worker processes (started at the first job) unless given: a cluster node may
        # use Redis Streams instead (`app.cluster_node`).
        self.bots = bots or BotService(LocalBots(settings.workers()), settings.bot_floor_ms)
        self.node = node  # in a cluster: its id, the name it was started with and a suffix
        self.log = logging.getLogger("carroca.server")
        self._tasks: set[asyncio.Task[Any]] = set()
        self._stopping = False

    @staticmethod
    def node_name(node: str) -> str:
        """The name a node was started with (`--node`), as the front names it: a node's id is
        that name and a suffix per start (`n1/5f0c2a9e`)."""
        return node.rsplit("/", 1)[0]

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run a background task until it ends or the server stops."""
        if self._stopping:
            coro.close()
            return
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            self.log.error("background task failed", exc_info=task.exception())

    async def stop(self) -> None:
        """Stop the background tasks, then the bot workers (after the tables closed)."""
        self._stopping = True
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.bots.stop()
