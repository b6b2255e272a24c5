"""Tournament events across the nodes of a cluster: which node runs each, its takeover when that
node dies, and the calls other nodes make to it.

An event is run by one node, its owner (`tournaments.owner`), under that node's lease, as a match
is (docs/server.md, "Several nodes"): the node that created it, or the one that took it over.
Every `takeover_seconds` each live node claims the upcoming and running events of dead nodes
(`SKIP LOCKED`: one claimer each; the claim raises the event's epoch, which fences off the old
owner's writes) and rebuilds them from their stored record and seed, as a restart does. The
owner learns that a game ended from the hub when the match runs on its own node, and otherwise
from the match's row, read at the takeover and at every scan (`Tournaments.catch_up_all`): a
result stored by any node is never lost, whichever nodes die meanwhile. Registering,
withdrawing and starting go to the owner (`forward`, answered by `_on_event`), and so does an
event's page (`view`: a page or a watcher on another node); the `tournament` frames and the
event's changes (`e:<event id>`) go through the fan-out to whichever node the sockets are on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from carroca.server.cluster.node import Cluster
from carroca.server.errors import LoginRequired, NoMethod, NotOwner, ServerError
from carroca.server.records import Player
from carroca.server.storage.tournaments import LIVE
from carroca.server.tournaments.entries import EntryAnswer, Withdrawn
from carroca.server.tournaments.service import Tournaments
from carroca.server.tournaments.state import (
    EventCall,
    EventMethod,
    EventMoved,
    ViewAnswer,
    no_event,
)

FORWARD_TRIES = 3  # calls to an event's owner before the player is told to try again
FORWARD_PAUSE = 0.3  # seconds between two (the event may be changing nodes)
RETRY = ("not_owner", "moving")  # an owner's answers that mean: ask again


class EventOwners:
    """This node's part in running the cluster's events (the `Relay` of its `Tournaments`)."""

    def __init__(self, tournaments: Tournaments, cluster: Cluster) -> None:
        self.tournaments = tournaments
        self.cluster = cluster
        self.store = cluster.store
        self.log = logging.getLogger("carroca.server")
        self.taken_over = 0  # events this node took from dead nodes
        tournaments.relay = self
        cluster.bus.handlers["event"] = self._on_event
        cluster.lease_lost.append(tournaments.give_up_all)

    async def start(self) -> None:
        """Take the events no live node runs, then keep doing so (and catching up with games
        that ended on other nodes) every `takeover_seconds`."""
        with contextlib.suppress(Exception):  # the store logs an outage once; the loop retries
            await self.scan()
        self.cluster.hub.spawn(self._loop())

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(self.cluster.settings.takeover_seconds)
            if not self.cluster.leased:
                continue
            with contextlib.suppress(Exception):
                await self.scan()

    async def scan(self) -> int:
        """Claim and run the events of dead nodes (returns how many), then record the games
        of this node's events that ended elsewhere."""
        count = 0
        started = time.monotonic()
        for row in await self.store.claim_events(self.cluster.node):
            old = self.tournaments.events.get(row["id"])
            if old is not None:  # a stale copy from before this node lost its lease
                self.tournaments.drop(old)
            ev = await self.tournaments.adopt(row)
            if ev is None:
                continue
            count += 1
            with contextlib.suppress(EventMoved):
                await self.tournaments.resume_event(ev)
        if count:
            self.taken_over += count
            self.log.warning("took over %d tournaments in %.2f s", count,
                             time.monotonic() - started)
        await self.tournaments.catch_up_all()
        return count

    # ------------------------------------------------------------------ calling the owner

    async def forward(self, event_id: str, method: EventMethod, args: EventCall) -> Any:
        """`method` run by the event's owner node. Raises its ServerError, 404 when the event is
        not live, 503 `moving` while nobody runs it (its owner died and no node took it yet)."""
        for attempt in range(FORWARD_TRIES):
            if attempt:
                await asyncio.sleep(FORWARD_PAUSE)
            try:
                found = await self.store.tournament_owner(event_id)
            except Exception:
                raise EventMoved from None
            if found is None or found[1] not in LIVE:
                raise no_event()
            owner = found[0]
            if owner is None or owner == self.cluster.node:  # being claimed, or adopted here
                local = self.tournaments.events.get(event_id)
                if local is not None:
                    return await self._run(method, event_id, args)
                continue
            try:
                return await self.cluster.call_node(owner, "event",
                                                    {**args, "event": event_id, "m": method})
            except ServerError as exc:
                if exc.code not in RETRY:
                    raise
        raise EventMoved

    async def _on_event(self, args: EventCall) -> ViewAnswer | EntryAnswer | Withdrawn | None:
        """A call from another node about an event this node runs."""
        event_id = str(args["event"])
        if event_id not in self.tournaments.events:
            raise NotOwner
        return await self._run(str(args["m"]), event_id, args)

    async def _run(self, method: str, event_id: str, args: EventCall
                   ) -> ViewAnswer | EntryAnswer | Withdrawn | None:
        t = self.tournaments
        if method == "view":  # an event's page and version, for a page or a watcher elsewhere
            who = args.get("player")
            viewer = None if who is None else Player(
                id=int(who["id"]), name=str(who["name"]), kind=who.get("kind", "guest"))
            view, version = await t.watched(viewer, event_id, args.get("code"))
            return {"view": view, "version": version}
        who = args.get("player")
        if who is None:  # only a page's view may come from nobody signed in
            raise LoginRequired
        player = Player(id=int(who["id"]), name=str(who["name"]), kind=who.get("kind", "guest"))
        if method == "register":
            return await t.register(player, event_id, partner=bool(args.get("partner")),
                                    invite=args.get("invite"), code=args.get("code"))
        if method == "withdraw":
            return await t.withdraw(player, event_id)
        if method == "start":
            await t.start(event_id, by=player)
            return None
        raise NoMethod(method)
