"""Friends: requests, acceptance, removal and blocks, worded for players.

A block is silent: a blocked player's request answers as any other would ("requested") and
stays pending on their side; the blocker never sees it. Each change is told to `changed`
(presence keeps its friend lists in memory and listens).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Literal, NotRequired, TypedDict

from carroca.server import records
from carroca.server.edge.ratelimits import RateLimits
from carroca.server.errors import (
    BlockSelf,
    FriendBlocking,
    FriendSelf,
    FriendTarget,
    NoFriendRequest,
    PlayerNotFound,
    TheirFriendsFull,
    TooManyFriends,
)
from carroca.server.settings import Settings
from carroca.server.storage.friends import Asked
from carroca.server.storage.rows import FriendsPage
from carroca.server.storage.store import Store

#: Told the two players whose link changed (their friend lists may have).
Changed = Callable[[int, int], None]


class RequestAnswer(TypedDict):
    """A request's answer: requested (or kept silently: see the module), or friends at once;
    the other player."""

    status: Asked
    player: records.Player


class Done(TypedDict):
    status: Literal["friends", "declined", "removed", "blocked", "unblocked"]
    player: NotRequired[records.Player]  # the one blocked


class Page(FriendsPage):
    """The player's friends page, and how many friends one may have."""

    max: int


class Friends:
    def __init__(self, store: Store, settings: Settings, limits: RateLimits) -> None:
        self.store, self.settings, self.limits = store, settings, limits
        self.listeners: list[Changed] = []
        # Told of a player's own blocks and unblocks before the answer goes back, so that a
        # block is in force from the next chat line on (`tables.chat.Blocks.load`).
        self.block_listeners: list[Callable[[int], Awaitable[None]]] = []

    def _changed(self, a: int, b: int) -> None:
        for listener in self.listeners:
            listener(a, b)

    async def target(self, me: records.Player, name: str | None, player_id: int | None,
                     self_error: type[FriendSelf] | type[BlockSelf] = FriendSelf
                     ) -> records.Player:
        """The other player, by nickname or by id (a seat's, a profile's), never oneself."""
        if (name is None) == (player_id is None):
            raise FriendTarget
        other = await self.store.open_player(player_id, name)
        if other is None:
            raise PlayerNotFound
        if other["id"] == me["id"]:
            raise self_error
        return other

    def _refuse(self, outcome: str) -> None:
        if outcome == "full":
            raise TooManyFriends(self.settings.max_friends)
        if outcome == "their_full":
            raise TheirFriendsFull
        if outcome == "blocking":
            raise FriendBlocking

    async def ask(self, me: records.Player, name: str | None = None,
                  player_id: int | None = None) -> RequestAnswer:
        """Send a request (counted, whatever comes of it, once it names someone); friends at
        once when the other had asked too."""
        if (name is None) == (player_id is None):
            raise FriendTarget
        self.limits.friend_requests_player.hit(str(me["id"]))
        other = await self.target(me, name, player_id)
        outcome = await self.store.ask_friend(me["id"], other["id"], self.settings.max_friends)
        self._refuse(outcome)
        if outcome == "friends":
            self._changed(me["id"], other["id"])
        return {"status": outcome, "player": _shown(other)}

    async def accept(self, me: records.Player, other: int) -> Done:
        outcome = await self.store.accept_friend(me["id"], other, self.settings.max_friends)
        if outcome == "none":
            raise NoFriendRequest
        self._refuse(outcome)
        self._changed(me["id"], other)
        return {"status": "friends"}

    async def decline(self, me: records.Player, other: int) -> Done:
        if not await self.store.decline_friend(me["id"], other):
            raise NoFriendRequest
        return {"status": "declined"}

    async def remove(self, me: records.Player, other: int) -> Done:
        if not await self.store.unfriend(me["id"], other):
            raise PlayerNotFound
        self._changed(me["id"], other)
        return {"status": "removed"}

    async def block(self, me: records.Player, name: str | None = None,
                    player_id: int | None = None) -> Done:
        other = await self.target(me, name, player_id, BlockSelf)
        await self.store.block(me["id"], other["id"])
        for reload in self.block_listeners:
            await reload(me["id"])
        self._changed(me["id"], other["id"])
        return {"status": "blocked", "player": _shown(other)}

    async def unblock(self, me: records.Player, other: int) -> Done:
        if not await self.store.unblock(me["id"], other):
            raise PlayerNotFound
        for reload in self.block_listeners:
            await reload(me["id"])
        self._changed(me["id"], other)
        return {"status": "unblocked"}

    async def page(self, me: records.Player) -> Page:
        return {**await self.store.friends_page(me["id"]), "max": self.settings.max_friends}


def _shown(player: records.Player) -> records.Player:
    return {"id": player["id"], "name": player["name"], "kind": player["kind"]}
