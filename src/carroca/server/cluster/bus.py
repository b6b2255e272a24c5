"""The fan-out of a cluster over Redis pub/sub, and calls from one node to another.

Every node keeps its sockets' subscriptions in a `LocalFanout` and mirrors them in Redis: a channel
with a local listener is subscribed in Redis, and the other nodes are told (`interest`), so that a
publisher sends a payload through Redis only when another node listens. A payload published on a
node reaches its own sockets at once and the other nodes' through Redis, prefixed with the sender's
id so that it is not delivered twice.

Channels in Redis:

- `t:…`, `p:…`, `e:…` (see `fanout`): frames for sockets, as in one process;
- `c:all`: the cluster's control messages, JSON: `sub`/`unsub` (a node's interest in channels),
  `hello` (all of a node's interest, sent at start and after Redis came back; `ask` asks the others
  for theirs), `gone` (a node is dead: forget its interest), `owner` (a match moved to a node);
- `n:<node>`: calls to a node (`call`, answered by `reply` on the caller's channel).

Redis keeps nothing: a restart of Redis loses the messages in flight only. Each node subscribes
again, says `hello`, and republishes the state of its matches (`on_reconnect`, also after a batch
of publishes was lost), so every socket gets the whole view again; a forwarded move lost in flight
fails at its caller, whose player sends it again (moves are idempotent by their id).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Literal, NotRequired, TypedDict

import redis.asyncio as aioredis

from carroca.server.errors import ErrorDescription, NodeFault, NoMethod
from carroca.server.realtime.fanout import LocalFanout, Sink

CONTROL = "c:all"
BATCH = 2000  # publishes per pipeline round trip

#: A call's handler: its method's arguments (each handler declares their shape), its answer.
Handler = Callable[[Any], Awaitable[object]]


# The control messages (`c:all`), each with its sender (`n`, added by `broadcast`).


class Interest(TypedDict):
    """A node's sockets started (`sub`) or stopped (`unsub`) following these channels."""

    k: Literal["sub", "unsub"]
    c: list[str]
    n: NotRequired[str]


class Hello(TypedDict):
    """All the channels a node follows; `ask`: the others answer with theirs."""

    k: Literal["hello"]
    c: list[str]
    ask: bool
    n: NotRequired[str]


class Gone(TypedDict):
    """A node is dead (said by itself at its stop)."""

    k: Literal["gone"]
    node: str
    n: NotRequired[str]


class OwnerMoved(TypedDict):
    """The sender runs this match now."""

    k: Literal["owner"]
    m: str
    n: NotRequired[str]


class Charges(TypedDict):
    """The sender's searching bot tables, by player (`p`, its id as text) and address (`a`)."""

    k: Literal["charges"]
    p: dict[str, int]
    a: dict[str, int]
    n: NotRequired[str]


Control = Interest | Hello | Gone | OwnerMoved | Charges

# A call to a node (`n:<node>`), and its answer on the caller's channel.
Call = TypedDict("Call", {"k": Literal["call"], "id": int, "from": str, "m": str,
                          "a": Mapping[str, object]})


class Reply(TypedDict):
    """A call's answer (`r`), or its refusal (`error`)."""

    k: Literal["reply"]
    id: int
    r: NotRequired[object]
    error: NotRequired[ErrorDescription]


def node_channel(node: str) -> str:
    return f"n:{node}"


class CallFailed(Exception):
    """A call to another node got no answer (the node is gone, or Redis is unreachable)."""


class RemoteError(Exception):
    """The called node answered with an error: `data` as its handler described it."""

    def __init__(self, data: ErrorDescription) -> None:
        super().__init__(data.get("message", "remote error"))
        self.data = data


class RedisFanout:
    def __init__(self, url: str, node: str, call_timeout: float = 3.0) -> None:
        self.url = url
        self.node = node
        self.call_timeout = call_timeout
        self.log = logging.getLogger("carroca.server")
        self.local = LocalFanout()
        self.remote: dict[str, set[str]] = {}  # channel -> other nodes listening
        self.by_node: dict[str, set[str]] = {}  # node -> channels it listens to
        self.handlers: dict[str, Handler] = {}
        # Hooks the hub sets: another node's interest in a channel changed; Redis came back;
        # a match has a new owner.
        self.on_interest: Callable[[str], None] = lambda channel: None
        self.on_reconnect: Callable[[], None] = lambda: None
        self.on_owner: Callable[[str, str], None] = lambda match, node: None
        self.on_hello: Callable[[list[str]], None] = lambda channels: None
        self.on_gone: Callable[[str], None] = lambda node: None
        # Another node's bot charges (`Cluster`): the node, and its message.
        self.on_charges: Callable[[str, Charges], None] = lambda node, msg: None
        self.redis = aioredis.Redis.from_url(url, decode_responses=True,
                                             socket_connect_timeout=2.0)
        self._pubsub: Any = None
        self._subscribed: set[str] = set()  # data channels subscribed in Redis
        self._dirty: set[str] = set()  # channels whose local listening changed
        self._out: list[tuple[str, str, int | None]] = []
        self._wake_writer = asyncio.Event()
        self._wake_control = asyncio.Event()
        self._confirm: dict[str, asyncio.Future[None]] = {}
        self._settling: dict[str, list[asyncio.Future[None]]] = {}
        self._calls: dict[int, asyncio.Future[Any]] = {}
        self._ids = itertools.count(1)
        self._tasks: list[asyncio.Task[Any]] = []
        self._connected = asyncio.Event()
        self._down_since: float | None = None
        self._ever_connected = False
        self.published = 0  # payloads sent through Redis (for the load benchmark)
        self.calls: dict[str, int] = {}  # calls made to other nodes, by method (likewise)

    # ------------------------------------------------------------------ life cycle

    async def start(self) -> None:
        """Connect (Redis must answer now: a node does not start without it)."""
        await self.redis.ping()
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._reader()), loop.create_task(self._writer()),
                       loop.create_task(self._control())]
        await asyncio.wait_for(self._connected.wait(), 10.0)

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    # ------------------------------------------------------------------ Fanout

    def subscribe(self, channel: str, sink: Sink) -> None:
        was = self.local.listening(channel)
        self.local.subscribe(channel, sink)
        if not was:
            self._dirty.add(channel)
            self._wake_control.set()

    def unsubscribe(self, channel: str, sink: Sink) -> None:
        self.local.unsubscribe(channel, sink)
        if not self.local.listening(channel):
            self._dirty.add(channel)
            self._wake_control.set()

    def publish(self, channel: str, payload: str) -> int:
        delivered = self.local.publish(channel, payload)
        if self.remote.get(channel):
            self._send(channel, f"{self.node}|{payload}")
            delivered += 1
        return delivered

    def listening(self, channel: str) -> bool:
        return self.local.listening(channel) or bool(self.remote.get(channel))

    def listening_here(self, channel: str) -> bool:
        return self.local.listening(channel)

    # ------------------------------------------------------------------ calls

    async def call(self, node: str, method: str, args: Mapping[str, object],
                   timeout: float | None = None) -> Any:
        """Run `method` on `node`; raises `RemoteError` (its handler's error) or `CallFailed`."""
        call_id = next(self._ids)
        self.calls[method] = self.calls.get(method, 0) + 1
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._calls[call_id] = fut
        call: Call = {"k": "call", "id": call_id, "from": self.node, "m": method, "a": args}
        self._send(node_channel(node), json.dumps(call), call_id)
        try:
            return await asyncio.wait_for(fut, timeout or self.call_timeout)
        except TimeoutError:
            raise CallFailed(f"{node} did not answer {method}") from None
        finally:
            self._calls.pop(call_id, None)

    def broadcast(self, message: Control) -> None:
        self._send(CONTROL, json.dumps({**message, "n": self.node}))

    async def settled(self, channel: str, timeout: float = 5.0) -> None:
        """Wait until this node's interest in `channel` is subscribed in Redis and announced:
        whatever is published on it from then on reaches this node."""
        if channel in self._subscribed and channel not in self._dirty:
            return
        fut = asyncio.get_running_loop().create_future()
        self._settling.setdefault(channel, []).append(fut)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(fut, timeout)

    def announce(self) -> None:
        """Tell every node all the channels this one follows, and ask for theirs."""
        self.broadcast({"k": "hello", "c": sorted(self._subscribed), "ask": True})

    def forget(self, node: str) -> None:
        """A node is dead: nothing is published for its sockets any more."""
        for channel in self.by_node.pop(node, set()):
            nodes = self.remote.get(channel)
            if nodes is not None:
                nodes.discard(node)
                if not nodes:
                    del self.remote[channel]
                    self.on_interest(channel)

    def nodes_heard(self) -> set[str]:
        return set(self.by_node)

    # ------------------------------------------------------------------ sending

    def _send(self, channel: str, data: str, call_id: int | None = None) -> None:
        self._out.append((channel, data, call_id))
        self._wake_writer.set()

    async def _writer(self) -> None:
        """Publishes in order, on one connection, many per round trip.

        A batch Redis did not take is lost (a dead connection after a Redis restart, Redis
        down), and so is what is queued while Redis does not answer (its calls fail at once,
        never to run after their caller gave up). Once Redis answers again, the node tells
        the others all it follows and the hub sends its matches' whole view again, as after
        the reader reconnects: what was lost may be that very interest and state."""
        lost = False
        while True:
            await self._wake_writer.wait()
            self._wake_writer.clear()
            if lost:
                try:
                    await self.redis.ping()
                except Exception as exc:
                    self._down(exc)
                    self._drop_queued()
                    await asyncio.sleep(0.2)
                    self._wake_writer.set()
                    continue
                lost = False
                self._up()
                self.announce()
                try:
                    self.on_reconnect()
                except Exception:  # the writer must outlive a failing hook
                    self.log.exception("republishing after lost publishes failed")
            while self._out:
                batch, self._out = self._out[:BATCH], self._out[BATCH:]
                try:
                    async with self.redis.pipeline(transaction=False) as pipe:
                        for channel, data, _ in batch:
                            pipe.publish(channel, data)
                        results = await pipe.execute()
                except Exception as exc:
                    self._down(exc)
                    for _, _, call_id in batch:  # a lost call fails now, not at its timeout
                        self._fail_call(call_id)
                    lost = True
                    await asyncio.sleep(0.2)
                    self._wake_writer.set()  # make it good even if nothing else is queued
                    break
                self.published += len(batch)
                for (_, _, call_id), receivers in zip(batch, results, strict=True):
                    if call_id is not None and not receivers:  # nobody listens: node gone
                        self._fail_call(call_id)

    def _drop_queued(self) -> None:
        queued, self._out = self._out, []
        for _, _, call_id in queued:
            self._fail_call(call_id)

    def _fail_call(self, call_id: int | None) -> None:
        fut = self._calls.get(call_id) if call_id is not None else None
        if fut is not None and not fut.done():
            fut.set_exception(CallFailed("the node is not reachable"))

    def _down(self, exc: BaseException) -> None:
        if self._down_since is None:
            self._down_since = time.monotonic()
            self.log.error("redis unavailable: %s: %s (logged once until it is back)",
                           type(exc).__name__, exc)

    def _up(self) -> None:
        if self._down_since is not None:
            self.log.warning("redis back after %.1f s", time.monotonic() - self._down_since)
            self._down_since = None

    # ------------------------------------------------------------------ subscriptions

    async def _control(self) -> None:
        """Mirror local listening in Redis: subscribe, wait for Redis to confirm, then tell
        the other nodes (so that nothing they publish after hearing it is lost)."""
        while True:
            await self._wake_control.wait()
            self._wake_control.clear()
            await self._connected.wait()
            dirty, self._dirty = self._dirty, set()
            want = {c for c in dirty if self.local.listening(c)}
            drop = {c for c in dirty if c not in want and c in self._subscribed}
            want -= self._subscribed
            try:
                if drop:
                    self.broadcast({"k": "unsub", "c": sorted(drop)})
                    await self._pubsub.unsubscribe(*drop)
                    self._subscribed -= drop
                if want:
                    await self._subscribe(want)
                    self._subscribed |= want
                    self.broadcast({"k": "sub", "c": sorted(want)})
                for channel in want | drop:
                    for fut in self._settling.pop(channel, []):
                        if not fut.done():
                            fut.set_result(None)
            except Exception as exc:  # the reader reconnects and subscribes everything again
                self._down(exc)
                self._dirty |= want | drop
                await asyncio.sleep(0.2)
                self._wake_control.set()

    async def _subscribe(self, channels: set[str]) -> None:
        loop = asyncio.get_running_loop()
        waits = []
        for c in channels:
            fut = self._confirm.get(c)
            if fut is None or fut.done():
                fut = self._confirm[c] = loop.create_future()
            waits.append(fut)
        await self._pubsub.subscribe(*channels)
        await asyncio.wait_for(asyncio.gather(*waits), 5.0)

    async def _reader(self) -> None:
        pause = 0.2
        while True:
            try:
                self._pubsub = self.redis.pubsub()
                self._confirm[CONTROL] = asyncio.get_running_loop().create_future()
                await self._pubsub.subscribe(CONTROL, node_channel(self.node),
                                             *self._subscribed)
                await self._read()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self._connected.clear()
                self._down(exc)
                with contextlib.suppress(Exception):
                    await self._pubsub.aclose()
                await asyncio.sleep(pause)
                pause = min(2.0, pause * 2)
            else:
                pause = 0.2

    async def _read(self) -> None:
        async for msg in self._pubsub.listen():
            kind = msg["type"]
            channel = msg["channel"]
            if kind == "message":
                self._message(channel, msg["data"])
            elif kind == "subscribe":
                fut = self._confirm.pop(channel, None)
                if fut is not None and not fut.done():
                    fut.set_result(None)
                if channel == CONTROL:  # connected, or connected again
                    self._connected_again()

    def _connected_again(self) -> None:
        again = self._ever_connected
        self._ever_connected = True
        self._connected.set()
        self._up()
        self.announce()
        if again:  # messages were lost meanwhile: the hub sends its matches' state again
            self.on_reconnect()

    def _message(self, channel: str, data: str) -> None:
        if channel == CONTROL:
            self._control_message(json.loads(data))
        elif channel.startswith("n:"):
            self._node_message(json.loads(data))
        else:
            sender, _, payload = data.partition("|")
            if sender != self.node:
                self.local.publish(channel, payload)

    def _control_message(self, msg: Control) -> None:
        node = msg.get("n")
        if not isinstance(node, str) or node == self.node or "k" not in msg:
            return
        if msg["k"] == "sub":
            mine = self.by_node.setdefault(node, set())
            for channel in msg["c"]:
                mine.add(channel)
                nodes = self.remote.setdefault(channel, set())
                if node not in nodes:
                    nodes.add(node)
                    if len(nodes) == 1:
                        self.on_interest(channel)
        elif msg["k"] == "unsub":
            theirs = self.by_node.get(node, set())
            for channel in msg["c"]:
                theirs.discard(channel)
                gone = self.remote.get(channel)
                if gone is not None and node in gone:
                    gone.discard(node)
                    if not gone:
                        del self.remote[channel]
                        self.on_interest(channel)
        elif msg["k"] == "hello":
            channels = list(msg.get("c", []))
            self.forget(node)
            self._control_message({"k": "sub", "n": node, "c": channels})
            if msg.get("ask"):  # it (re)connected: it may have missed frames, and our interest
                self.broadcast({"k": "hello", "c": sorted(self._subscribed), "ask": False})
                self.on_hello(channels)
        elif msg["k"] == "gone":
            self.forget(msg.get("node", ""))
            self.on_gone(msg.get("node", ""))
        elif msg["k"] == "owner":
            self.on_owner(msg["m"], node)
        elif msg["k"] == "charges":
            self.on_charges(node, msg)

    def _node_message(self, msg: Call | Reply) -> None:
        if "k" not in msg:
            return
        if msg["k"] == "reply":
            fut = self._calls.get(msg.get("id", -1))
            if fut is not None and not fut.done():
                if "error" in msg:
                    fut.set_exception(RemoteError(msg["error"]))
                else:
                    fut.set_result(msg.get("r"))
        elif msg["k"] == "call":
            task = asyncio.get_running_loop().create_task(self._answer(msg))
            task.add_done_callback(_ignore)

    async def _answer(self, msg: Call) -> None:
        reply: Reply = {"k": "reply", "id": msg["id"]}
        handler = self.handlers.get(msg.get("m", ""))
        try:
            if handler is None:
                raise NoMethod(msg.get("m", ""))
            reply["r"] = await handler(msg.get("a") or {})
        except RemoteError as exc:
            reply["error"] = exc.data
        except Exception as exc:
            described = getattr(exc, "describe", None)
            if callable(described):
                reply["error"] = described()
            else:
                self.log.exception("call %s failed", msg.get("m"))
                reply["error"] = NodeFault().describe()
        self._send(node_channel(str(msg.get("from"))), json.dumps(reply))


def _ignore(task: asyncio.Task[Any]) -> None:
    if not task.cancelled():
        task.exception()
