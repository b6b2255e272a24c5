"""The ranked queue: players waiting for a ranked match, per ruleset.

One process keeps it in memory (a restart empties it, and players queue again); the nodes of a
cluster share it in the database (`Store.ranked_enqueue`), so a group is matched once wherever
its players queued.

Accounts that share a device or an address (`storage.links`) are never matched as opponents:
such a player waits for someone else, and in duplas they may only be partners.
"""

from __future__ import annotations

from dataclasses import dataclass

from carroca.server.errors import NotStored
from carroca.server.records import Player
from carroca.server.storage.friends import kept_apart
from carroca.server.storage.links import pick_group
from carroca.server.storage.store import Store


@dataclass(frozen=True, slots=True)
class Waiting:
    """A player in the queue: who, and the client seed they bring to the match."""

    id: int
    name: str
    seed: str | None


class RankedQueue:
    """Who waits for a ranked match, and the groups it matches (`join`)."""

    def __init__(self, store: Store, shared: bool = False) -> None:
        self._store = store
        self.shared = shared  # in the database, for every node of a cluster
        self._queues: dict[str, list[Waiting]] = {}

    async def join(self, player: Player, ruleset: str, client_seed: str | None,
                   n: int) -> list[Waiting] | None:
        """Queue the player (once, for one ruleset); returns the group of `n`, in seat order,
        once that many wait who may meet, still queued until `matched` (in the database: taken
        out already)."""
        if self.shared:
            try:
                taken = await self._store.ranked_enqueue(player, ruleset, client_seed, n)
            except Exception:
                raise NotStored() from None
            if taken is None:
                return None
            return [Waiting(g["player_id"], g["name"], g["seed"]) for g in taken]
        for q in self._queues.values():
            q[:] = [p for p in q if p.id != player["id"]]
        queue = self._queues.setdefault(ruleset, [])
        queue.append(Waiting(player["id"], player["name"], client_seed))
        if len(queue) < n:
            return None
        try:
            linked = await self._store.linked(p.id for p in queue)
            apart = await self._store.blocked_pairs([p.id for p in queue])
        except Exception:
            raise NotStored() from None
        return pick_group(kept_apart(queue, apart, lambda p: p.id), n, lambda p: p.id, linked)

    def matched(self, ruleset: str, group: list[Waiting]) -> None:
        """The group's table is stored: its players leave the queue (in memory)."""
        queue = self._queues.get(ruleset)
        if queue is not None:
            queue[:] = [p for p in queue if p not in group]

    async def leave(self, player_id: int) -> bool:
        """Whether the player was queued."""
        if self.shared:
            try:
                return await self._store.ranked_leave(player_id)
            except Exception:
                raise NotStored() from None
        left = False
        for q in self._queues.values():
            before = len(q)
            q[:] = [p for p in q if p.id != player_id]
            left = left or len(q) != before
        return left

    async def queued(self, player_id: int) -> str | None:
        """The ruleset the player waits for (None: not queued, or not known now)."""
        if self.shared:
            try:
                return await self._store.ranked_queued(player_id)
            except Exception:
                return None
        for ruleset, q in self._queues.items():
            if any(p.id == player_id for p in q):
                return ruleset
        return None

    def players(self) -> set[int]:
        """The players queued here (the clean-up keeps them)."""
        return {p.id for q in self._queues.values() for p in q}


