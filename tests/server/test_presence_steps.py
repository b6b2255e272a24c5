"""Presence's timing, on one node without a database: a step down (a table left, the last
socket closed) waits a whole gap, so a player who sits at the next table or reloads the page
at once costs their friends no frame; a step up is told at once."""

from __future__ import annotations

import asyncio
import json

from tests.support.presence_socks import Sock

from carroca.server.realtime.fanout import LocalFanout
from carroca.server.realtime.presence import Presence


def test_a_step_down_undone_within_the_gap_is_never_told() -> None:
    async def scenario() -> list[int]:
        # Wide enough that a busy machine's late wake-up (a step down undone a quarter gap
        # later) still lands within the gap.
        gap = 0.5

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
        await asyncio.sleep(0)
        told.append(presence.published)
        await asyncio.sleep(gap)
        told.append(presence.published)
        presence.stop()
        return [n - told[0] for n in told]

    assert asyncio.run(scenario()) == [0, 1, 1, 1, 1, 2]


def test_the_friends_index_routes_to_watchers_only_and_empties_when_they_leave() -> None:
    """The reverse index (a friend -> the local players who have them) is what routes a change:
    a friend's change reaches the sockets of those who have them as a friend and nobody else's,
    the snapshot lists friends in the order they were read; and once the last of those closes,
    nothing of that friend stays on the node (no name, no empty list)."""

    async def scenario() -> None:
        links = {1: {3: "p3", 2: "p2"}, 2: {1: "p1"}, 3: {1: "p1"}, 4: {}}

        async def friends_of(pid: int) -> dict[int, str]:
            return dict(links[pid])

        presence = Presence(LocalFanout(), "n1", friends_of, 0.01)
        ana, bia, caio, dora = Sock(1), Sock(2), Sock(3), Sock(4)
        for sock in (ana, bia, caio, dora):
            presence.opened(sock)
        await asyncio.sleep(0.05)
        snapshot = json.loads(ana.frames[0])
        assert snapshot["type"] == "friends"
        assert [(f["id"], f["name"]) for f in snapshot["data"]["friends"]] == \
            [(3, "p3"), (2, "p2")]
        for sock in (ana, bia, caio, dora):
            sock.frames.clear()
        ana.match_id, ana.seat, ana.mode = "m1", 0, "casual"
        presence.changed(1)
        await asyncio.sleep(0.05)
        told = {s.player["id"]: [json.loads(f) for f in s.frames] for s in (bia, caio, dora)}
        assert [f["data"]["friend"]["state"] for f in told[2]] == ["playing"]
        assert [f["data"]["friend"]["name"] for f in told[3]] == ["p1"]
        assert told[4] == [] and ana.frames == []
        presence.closed(bia)
        presence.closed(caio)
        assert 1 not in presence.watchers and 1 not in presence.friend_names
        assert sorted(presence.watchers) == [2, 3] and presence.friend_names == \
            {2: "p2", 3: "p3"}
        presence.closed(ana)
        presence.closed(dora)
        assert presence.watchers == {} and presence.friend_names == {} and presence.friends == {}
        presence.stop()

    asyncio.run(scenario())
