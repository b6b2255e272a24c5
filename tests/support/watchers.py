"""Many pages watching one tournament event over real WebSockets (`watch`): each keeps every
frame it received and the event's page as its frames build it, the way `torneio-live.js` does."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import inspect
import json
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

NO_PROXY: dict[str, Any] = {"proxy": None} if "proxy" in inspect.signature(connect).parameters \
    else {}
PERSONAL = ("me", "my_match", "creator", "invite")  # a page's own part, not pushed


def apply_change(view: dict[str, Any], change: dict[str, Any]) -> dict[str, Any]:
    """An `event_change` applied to the page it follows (docs/protocol.md)."""
    out = copy.deepcopy(view)
    out.update(change["set"])
    if change["standings"]:
        lines = {s["entrant"]: s for s in out["standings"]}
        lines.update({s["entrant"]: s for s in change["standings"]})
        out["standings"] = sorted(lines.values(), key=lambda s: s["rank"])
    for rnd in change["rounds"]:
        have = next((r for r in out["rounds"] if r["round"] == rnd["round"]), None)
        if have is None:
            out["rounds"].append(rnd)
            continue
        have.update({k: v for k, v in rnd.items() if k != "tables"})
        for table in rnd["tables"]:
            at = next((i for i, t in enumerate(have["tables"]) if t["table"] == table["table"]),
                      None)
            if at is None:
                have["tables"].append(table)
            else:
                have["tables"][at] = table
    return out


@dataclass
class Watcher:
    """One socket watching an event: its frames, and the page they make."""

    ws: ClientConnection
    frames: list[dict[str, Any]] = field(default_factory=list)
    view: dict[str, Any] | None = None
    version: int | None = None
    gaps: int = 0  # changes that did not follow the page's version

    def take(self, frame: dict[str, Any]) -> None:
        self.frames.append(frame)
        data = frame["data"]
        if frame["type"] == "event":
            self.view, self.version = data["view"], data["version"]
        elif frame["type"] == "event_change":
            if self.view is None or self.version is None or data["version"] <= self.version:
                return
            if data["version"] != self.version + 1:
                self.gaps += 1
                return
            self.view, self.version = apply_change(self.view, data), data["version"]

    def pushed(self) -> list[dict[str, Any]]:
        """The event's frames after the answer to `watch`."""
        return [f for f in self.frames[1:] if f["type"] in ("event", "event_change")]

    async def read(self) -> None:
        with contextlib.suppress(Exception):
            async for text in self.ws:
                self.take(json.loads(text))


@dataclass
class Watchers:
    """`count` sockets on `port`, signed in with `tokens` in turn, all watching `event_id`."""

    port: int
    tokens: list[str]
    event_id: str
    count: int
    code: str | None = None
    all: list[Watcher] = field(default_factory=list)
    _readers: list[asyncio.Task[None]] = field(default_factory=list)

    async def __aenter__(self) -> Watchers:
        async def one(i: int) -> Watcher:
            token = self.tokens[i % len(self.tokens)]
            ws = await connect(f"ws://127.0.0.1:{self.port}/ws?token={token}", open_timeout=60,
                               close_timeout=1, max_size=None, **NO_PROXY)
            hello = json.loads(await asyncio.wait_for(ws.recv(), 30))
            assert hello["type"] == "hello", hello
            await ws.send(json.dumps({"type": "watch", "data": {
                "event": self.event_id, **({"code": self.code} if self.code else {})}}))
            w = Watcher(ws)
            w.take(json.loads(await asyncio.wait_for(ws.recv(), 30)))
            return w

        for start in range(0, self.count, 100):  # a hundred handshakes at a time
            self.all += await asyncio.gather(*(one(i) for i in range(
                start, min(self.count, start + 100))))
        self._readers = [asyncio.get_running_loop().create_task(w.read()) for w in self.all]
        return self

    async def __aexit__(self, *exc: object) -> None:
        await asyncio.gather(*(w.ws.close() for w in self.all), return_exceptions=True)
        for task in self._readers:
            task.cancel()
        await asyncio.gather(*self._readers, return_exceptions=True)

    def frames_seen(self) -> int:
        return sum(len(w.frames) for w in self.all)

    async def settle(self, quiet: float = 1.0, timeout: float = 60.0) -> None:
        """Wait until no frame arrived for `quiet` seconds."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        seen, since = self.frames_seen(), loop.time()
        while loop.time() < end:
            await asyncio.sleep(0.1)
            now = self.frames_seen()
            if now != seen:
                seen, since = now, loop.time()
            elif loop.time() - since >= quiet:
                return
        raise AssertionError("the watchers never went quiet")


def public(page: dict[str, Any]) -> dict[str, Any]:
    """A page without the asker's own part."""
    return {k: v for k, v in page.items() if k not in PERSONAL}
