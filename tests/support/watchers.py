"""Many pages watching one tournament event over real WebSockets (`watch`): each keeps every
frame it received and the event's page as its frames build it, the way `torneio-live.js` does."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import inspect
import json
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

import httpx2
from tests.support.serverproc import LOCAL_TLS
from websockets.asyncio.client import ClientConnection, connect

NO_PROXY: dict[str, Any] = {"proxy": None} if "proxy" in inspect.signature(connect).parameters \
    else {}
T = TypeVar("T")
PERSONAL = ("me", "my_match", "creator", "invite")  # a page's own part, not pushed


def run_apart(coro: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run(coro)` on a thread of its own: in a test process whose main thread already
    runs an event loop (the session's Playwright browser does), `asyncio.run` there refuses."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


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
    """Sockets on each port (`{port: how many}`), signed in with `tokens` in turn, all watching
    `event_id`."""

    ports: dict[int, int]
    tokens: list[str]
    event_id: str
    code: str | None = None
    all: list[Watcher] = field(default_factory=list)
    _readers: list[asyncio.Task[None]] = field(default_factory=list)

    async def __aenter__(self) -> Watchers:
        async def one(i: int, port: int) -> Watcher:
            token = self.tokens[i % len(self.tokens)]
            ws = await connect(f"ws://127.0.0.1:{port}/ws?token={token}", open_timeout=60,
                               close_timeout=1, max_size=None, **NO_PROXY)
            hello = json.loads(await asyncio.wait_for(ws.recv(), 30))
            assert hello["type"] == "hello", hello
            await ws.send(json.dumps({"type": "watch", "data": {
                "event": self.event_id, **({"code": self.code} if self.code else {})}}))
            w = Watcher(ws)
            w.take(json.loads(await asyncio.wait_for(ws.recv(), 30)))
            return w

        places = [port for port, count in self.ports.items() for _ in range(count)]
        for start in range(0, len(places), 100):  # a hundred handshakes at a time
            self.all += await asyncio.gather(*(one(i, places[i]) for i in range(
                start, min(len(places), start + 100))))
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


def guests(base: str, count: int, prefix: str) -> list[str]:
    with httpx2.Client(base_url=base, timeout=30, trust_env=False, verify=LOCAL_TLS) as c:
        return [c.post("/api/guest", json={"name": f"{prefix}{i}"}).json()["token"]
                for i in range(count)]


def wait_status(base: str, event_id: str, status: str, timeout: float = 120
                ) -> dict[str, Any]:
    end = time.monotonic() + timeout
    with httpx2.Client(base_url=base, timeout=30, trust_env=False, verify=LOCAL_TLS) as c:
        while time.monotonic() < end:
            page: dict[str, Any] = c.get(f"/api/tournaments/{event_id}").json()
            if page["status"] == status:
                return page
            time.sleep(0.02)  # often: a page asked for while a change is being made
    raise AssertionError(f"{event_id} never reached {status}")


async def run_event(base: str, watchers: Watchers, event_id: str, creator: str,
                    players: list[str]) -> dict[str, Any]:
    """Quiet while upcoming; two register and withdraw; the creator starts it, bots fill it
    and play it to its end; quiet again. Returns the final page."""
    def post(token: str, path: str) -> None:
        with httpx2.Client(base_url=base, timeout=30, trust_env=False, verify=LOCAL_TLS,
                           headers={"Authorization": f"Bearer {token}"}) as c:
            r = c.post(f"/api/tournaments/{event_id}/{path}", json={})
            assert r.status_code == 200, r.text

    async def call(fn: Callable[..., Any], *args: Any) -> Any:
        return await asyncio.to_thread(fn, *args)

    before = watchers.frames_seen()
    await asyncio.sleep(1.5)
    assert watchers.frames_seen() == before, "frames while nothing changed"
    for token in players:
        await call(post, token, "register")
    for token in players:
        await call(post, token, "withdraw")
    await call(post, creator, "start")
    final: dict[str, Any] = await call(wait_status, base, event_id, "finished")
    await watchers.settle()
    quiet = watchers.frames_seen()
    await asyncio.sleep(1.5)
    assert watchers.frames_seen() == quiet, "frames after the end"
    return final


def check_watchers(watchers: Watchers, final: dict[str, Any], games: int) -> None:
    """Every watcher got the same changes, each once and in order, and they make the page."""
    first = watchers.all[0]
    pushed = first.pushed()
    versions = [f["data"]["version"] for f in pushed]
    assert all(f["type"] == "event_change" for f in pushed), [f["type"] for f in pushed]
    assert versions == list(range(versions[0], versions[0] + len(versions)))
    assert versions[0] == first.frames[0]["data"]["version"] + 1
    # 4 registrations and withdrawals, the start with its first round, a change a result
    # at most (a round's last result and the next pairing are one), the end with the last.
    assert 4 + 1 + 1 <= len(pushed) <= 4 + 1 + games, len(pushed)
    for w in watchers.all:
        assert w.gaps == 0 and w.frames[0]["type"] == "event"
        assert w.pushed() == pushed  # the same frames, each once
        assert w.view is not None and public(w.view) == public(final)
