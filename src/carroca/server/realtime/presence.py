"""Friends' presence, derived from the sockets the server holds, told to friends only.

A player's presence is what their open sockets do: sitting at a table ("playing"), watching one,
following a tournament's page, or only open ("online"); none open is "offline", with the time
they were last seen. Each node derives it for its own sockets and publishes it on one fan-out
channel (`CHANNEL`: in a cluster every node hears every change, through Redis), at most once
every `gap` seconds a player: changes in between are coalesced into the next. Every node keeps
the presence of every player online anywhere (a few tuples), and, for each player with a socket
on it, their friends, read once when their first socket opens (one query, whatever the number of
friends), with the reverse index (friend -> local players) that routes a change to the sockets
of those who have that player as a friend, and to nobody else. A friendship held on a node costs
it about two machine words (the friend's id in a packed array, the player's in the friend's
list), and each friend one name whoever watches them: no dict or set entry a pair.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from array import array
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Literal, Protocol, TypedDict

from carroca.server.realtime import wire
from carroca.server.realtime.fanout import Fanout

CHANNEL = "presence"
#: The tables whose id a friend may see: a friends' table is its players' own.
PUBLIC_MODES = ("casual", "ranked", "bots", "tournament")
_RANK = {"offline": 0, "online": 1, "tournament": 2, "watching": 3, "playing": 4}
#: Each state's one string: every status heard keeps it, not a copy parsed from the message.
_STATE = {state: state for state in _RANK}

#: (state, match, event): a player's presence on one node.
Status = tuple[str, str | None, str | None]


# The channel's messages (JSON), each node's to every node.


class StatusMessage(TypedDict):
    """A player's state on node `n` (`s`: state, match, event), with their name."""

    k: Literal["s"]
    n: str
    p: int
    name: str
    s: list[str | None]
    at: float


class LinksMessage(TypedDict):
    """Two players' friendship changed: every node reads their friends again."""

    k: Literal["links"]
    p: list[int]


class SyncMessage(TypedDict):
    """Node `n` (re)joined: the others say again what they published."""

    k: Literal["sync"]
    n: str


Message = StatusMessage | LinksMessage | SyncMessage
OFFLINE: Status = ("offline", None, None)


class Conn(Protocol):
    """An open socket as presence reads it (`routes.connection.Connection`)."""

    @property
    def player(self) -> Any: ...
    @property
    def match_id(self) -> str | None: ...
    @property
    def seat(self) -> int | None: ...
    @property
    def mode(self) -> str | None: ...
    @property
    def event_id(self) -> str | None: ...
    def send(self, payload: str) -> None: ...


def status_of(conns: Iterable[Conn]) -> Status:
    """The most telling of the sockets' doings: playing, watching, a tournament, online."""
    best: Status = OFFLINE
    for c in conns:
        match = c.match_id if c.mode in PUBLIC_MODES else None
        if c.match_id is not None:
            here: Status = ("playing" if c.seat is not None else "watching", match, None)
        elif c.event_id is not None:
            here = ("tournament", None, c.event_id)
        else:
            here = ("online", None, None)
        if _RANK[here[0]] > _RANK[best[0]]:
            best = here
    return best


class Presence:
    def __init__(self, fanout: Fanout, node: str,
                 friends_of: Callable[[int], Awaitable[dict[int, str]]], gap: float) -> None:
        self.fanout, self.node, self.friends_of, self.gap = fanout, node, friends_of, gap
        self.local: dict[int, list[Conn]] = {}  # this node's sockets, by player (mostly one)
        self.names: dict[int, str] = {}
        self.friends: dict[int, array[int]] = {}  # a local player's friends' ids
        self.watchers: dict[int, list[int]] = {}  # a player -> local players who are friends
        self.friend_names: dict[int, str] = {}  # the name of every player in `watchers`
        self.states: dict[int, dict[str, Status]] = {}  # every player online: node -> status
        self.seen: dict[int, float] = {}  # last seen, for players gone offline since the start
        self.sent: dict[int, Status] = {}  # what this node last published for a local player
        self.last: dict[int, float] = {}  # when (monotonic)
        self.due: dict[int, asyncio.TimerHandle] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        self.published = 0  # publishes on CHANNEL, for the bench and the tests
        # Told of each local player whose links changed on any node (`links` messages).
        self.links_heard: list[Callable[[int], Awaitable[None]]] = []
        fanout.subscribe(CHANNEL, self._heard)

    async def start(self) -> None:
        """Ask the other nodes for their players' presence (a node that joins late)."""
        settled = getattr(self.fanout, "settled", None)
        if settled is not None:
            await settled(CHANNEL)
        self._publish_raw({"k": "sync", "n": self.node})

    def stop(self) -> None:
        for handle in self.due.values():
            handle.cancel()
        self.fanout.unsubscribe(CHANNEL, self._heard)

    # ------------------------------------------------------------------ local sockets

    def opened(self, conn: Conn) -> None:
        pid = int(conn.player["id"])
        conns = self.local.setdefault(pid, [])
        first = not conns
        if conn not in conns:
            conns.append(conn)
        self.names[pid] = str(conn.player["name"])
        if first:
            self._spawn(self._load(pid))
        elif self.friends.get(pid):
            conn.send(self.snapshot(pid))
        self.changed(pid)

    def closed(self, conn: Conn) -> None:
        pid = int(conn.player["id"])
        conns = self.local.get(pid)
        if conns is None:
            return
        if conn in conns:
            conns.remove(conn)
        if not conns:
            del self.local[pid]
            self._forget_friends(pid)
        self.changed(pid)

    def changed(self, pid: int) -> None:
        """A local player's sockets changed: publish now, or at the end of their gap. A step
        down (a table left, the last socket closed) waits a whole gap first, so that a player
        who sits at the next table or reloads the page at once costs their friends nothing:
        the status is the same again when the gap ends, and nothing is published."""
        if pid in self.due:
            return
        wait = self.last.get(pid, -self.gap) + self.gap - time.monotonic()
        sent = self.sent.get(pid, OFFLINE)
        if _RANK[status_of(self.local.get(pid, ()))[0]] < _RANK[sent[0]]:
            wait = max(wait, self.gap)
        loop = asyncio.get_running_loop()
        self.due[pid] = loop.call_later(max(0.0, wait), self._due, pid)

    def _due(self, pid: int) -> None:
        self.due.pop(pid, None)
        status = status_of(self.local.get(pid, ()))
        if self.sent.get(pid, OFFLINE) == status:
            return
        self.last[pid] = time.monotonic()
        if status == OFFLINE:
            self.sent.pop(pid, None)
        else:
            self.sent[pid] = status
        self._announce(pid, status)

    def _announce(self, pid: int, status: Status) -> None:
        self._publish_raw({"k": "s", "n": self.node, "p": pid, "name": self.names.get(pid, ""),
                           "s": list(status), "at": time.time()})
        if status == OFFLINE and pid not in self.local:
            self.last.pop(pid, None)
            self.names.pop(pid, None)

    def links(self, a: int, b: int) -> None:
        """Two players' friendship changed (`players.friends`): every node reads theirs again."""
        self._publish_raw({"k": "links", "p": [a, b]})

    # ------------------------------------------------------------------ friends lists

    async def _load(self, pid: int, again: bool = False) -> None:
        """Read a local player's friends; tell their sockets (`friends`), unless they have
        none and never had on this socket (`again`: the list changed, an empty one included)."""
        friends = await self.friends_of(pid)
        if pid not in self.local:  # gone meanwhile
            return
        if not friends and not again:
            return
        self._forget_friends(pid)
        self.friends[pid] = array("q", friends)
        names, watchers = self.friend_names, self.watchers
        for fid, name in friends.items():
            names[fid] = name
            watching = watchers.get(fid)
            if watching is None:
                watchers[fid] = [pid]
            else:
                watching.append(pid)
        frame = self.snapshot(pid)
        for conn in self.local[pid]:
            conn.send(frame)

    def _forget_friends(self, pid: int) -> None:
        for fid in self.friends.pop(pid, ()):
            watching = self.watchers.get(fid)
            if watching is not None and pid in watching:
                watching.remove(pid)
                if not watching:
                    del self.watchers[fid]
                    self.friend_names.pop(fid, None)

    def merged(self, pid: int) -> Status:
        best = OFFLINE
        for status in self.states.get(pid, {}).values():
            if _RANK[status[0]] > _RANK[best[0]]:
                best = status
        return best

    def _entry(self, pid: int, name: str) -> wire.FriendPresence:
        state, match, event = self.merged(pid)
        return wire.FriendPresence(id=pid, name=name, state=state,  # type: ignore[arg-type]
                                   match=match, event=event,
                                   seen=self.seen.get(pid) if state == "offline" else None)

    def snapshot(self, pid: int) -> str:
        names = self.friend_names
        return wire.frame(wire.Friends(friends=[
            self._entry(fid, names.get(fid, "")) for fid in self.friends.get(pid, ())]))

    # ------------------------------------------------------------------ the channel

    def _publish_raw(self, message: Message) -> None:
        self.published += 1
        self.fanout.publish(CHANNEL, json.dumps(message, separators=(",", ":")))

    def _heard(self, payload: str) -> None:
        msg = json.loads(payload)
        kind = msg.get("k")
        if kind == "s":
            self._status(msg)
        elif kind == "links":
            for pid in msg["p"]:
                if pid in self.local:
                    self._spawn(self._load(int(pid), again=True))
                    for heard in self.links_heard:
                        self._spawn(heard(int(pid)))
        elif kind == "sync" and msg.get("n") != self.node:
            for pid, status in self.sent.items():
                self._announce(pid, status)

    def _status(self, msg: StatusMessage) -> None:
        pid, node = int(msg["p"]), sys.intern(str(msg["n"]))
        state, match, event = msg["s"]
        before = self.merged(pid)
        nodes = self.states.setdefault(pid, {})
        if state == "offline":
            nodes.pop(node, None)
            if not nodes:
                del self.states[pid]
                self.seen[pid] = float(msg["at"])
        else:
            nodes[node] = (_STATE.get(str(state), str(state)), match, event)
        if self.merged(pid) == before:
            return
        watching = self.watchers.get(pid)
        if not watching:
            return
        frame = wire.frame(wire.Presence(friend=self._entry(pid, str(msg["name"]))))
        for local in watching:
            for conn in self.local.get(local, ()):
                conn.send(frame)

    def node_gone(self, node: str) -> None:
        """A node was taken for dead (its lease ran out): what it said of its players no longer
        holds, and those it alone had online are offline from now, for their friends too."""
        now = time.time()
        for pid in [p for p, nodes in self.states.items() if node in nodes]:
            name = self.friend_names.get(pid, "")
            self._status({"k": "s", "n": node, "p": pid, "name": name,
                          "s": ["offline", None, None], "at": now})

    def resync(self) -> None:
        """A node came back from the dead: every node says again what its players do."""
        self._publish_raw({"k": "sync", "n": self.node})

    def _spawn(self, coro: Awaitable[None]) -> None:
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
