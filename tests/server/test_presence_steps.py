"""Presence's timing, on one node without a database: a step down (a table left, the last
socket closed) waits a whole gap, so a player who sits at the next table or reloads the page
at once costs their friends no frame; a step up is told at once."""

from __future__ import annotations

import asyncio

from carroca.server.realtime.fanout import LocalFanout
from carroca.server.realtime.presence import Presence


class Sock:
    """A socket as presence reads it."""

    def __init__(self, pid: int) -> None:
        self.player = {"id": pid, "name": f"p{pid}", "kind": "guest"}
        self.match_id: str | None = None
        self.seat: int | None = None
        self.mode: str | None = None
        self.event_id: str | None = None
        self.frames: list[str] = []

    def send(self, payload: str) -> None:
        self.frames.append(payload)


def test_a_step_down_undone_within_the_gap_is_never_told() -> None:
    async def scenario() -> list[int]:
        gap = 0.2

        async def friends_of(pid: int) -> dict[int, str]:
            return {2: "p2"} if pid == 1 else {1: "p1"}

        presence = Presence(LocalFanout(), "n1", friends_of, gap)
        friend, me = Sock(2), Sock(1)
        presence.opened(friend)
        presence.opened(me)
        await asyncio.sleep(gap * 1.5)
        told = [presence.published]
        me.match_id, me.seat, me.mode = "m1", 0, "friends"  # sits: told at once
        presence.changed(1)
        await asyncio.sleep(gap * 0.25)
        told.append(presence.published)
        await asyncio.sleep(gap * 1.5)
        me.match_id, me.seat, me.mode = None, None, None  # the match ends…
        presence.changed(1)
        await asyncio.sleep(gap * 0.25)
        me.match_id, me.seat, me.mode = "m2", 0, "friends"  # …and the next table at once
        presence.changed(1)
        await asyncio.sleep(gap * 1.5)
        told.append(presence.published)
        presence.closed(me)  # a reload: closed and opened again at once
        again = Sock(1)
        again.match_id, again.seat, again.mode = "m2", 0, "friends"
        presence.opened(again)
        await asyncio.sleep(gap * 1.5)
        told.append(presence.published)
        presence.closed(again)  # gone for good: told, a gap later
        await asyncio.sleep(gap * 0.5)
        told.append(presence.published)
        await asyncio.sleep(gap)
        told.append(presence.published)
        presence.stop()
        return [n - told[0] for n in told]

    assert asyncio.run(scenario()) == [0, 1, 1, 1, 1, 2]
