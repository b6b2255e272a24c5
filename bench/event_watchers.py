"""What watchers of one running event cost the server while nothing changes.

`carroca serve` is started on a fresh SQLite database (bench/load.py's `Server`). A guest
creates a Swiss event of `--entrants` guests, who register and never come to their tables (the
show-up time is set out of reach), so the event runs with every table waiting: nothing changes.
Then `--watchers` pages watch it for `--seconds`, the way the event page does:

- `--mode poll`: each asks `GET /api/tournaments/{id}` every `--interval` seconds (2 s: what
  torneio.js did while an event ran), on its own keep-alive connection, signed in;
- `--mode push`: each opens a WebSocket and sends `watch` once (what torneio.js does now).

Reported: the server process's CPU (user + system, all threads) over the window, as a share of
one core and per watcher, the requests answered (poll) or frames received (push) in it, and
the server's memory.

    python bench/event_watchers.py --mode push [--watchers 1000] [--seconds 30] [--json]
        [--src DIR: another checkout's server, e.g. the code before, which polled]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import inspect
import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx2
from websockets.asyncio.client import connect

from load import Server, proc_stats  # bench/ is not a package

NO_PROXY: dict[str, Any] = {"proxy": None} if "proxy" in inspect.signature(connect).parameters \
    else {}
SETTINGS = {"CARROCA_TOURNAMENT_SHOW_UP_SECONDS": "1000000",  # nobody comes: nothing changes
            "CARROCA_MAX_SOCKETS_PER_SESSION": "100000", "CARROCA_MAX_CONNECTIONS_PER_IP": "0",
            "CARROCA_LIMIT_GUEST_IP": "1000000/minute"}


def running_event(url: str, entrants: int) -> tuple[str, str]:
    """A Swiss event whose entrants never come: its first round's tables wait. Returns its id
    and a watcher's token."""
    with httpx2.Client(base_url=url, timeout=30, trust_env=False) as c:
        tokens = [c.post("/api/guest", json={"name": f"Jogador {i}"}).json()["token"]
                  for i in range(entrants + 1)]
        auth = {"Authorization": f"Bearer {tokens[0]}"}
        r = c.post("/api/tournaments", headers=auth, json={
            "name": "Copa parada", "format": "swiss", "ruleset": "mano-a-mano",
            "capacity": entrants, "starts_in": 3600})
        r.raise_for_status()
        event_id = r.json()["id"]
        for token in tokens[1:]:
            c.post(f"/api/tournaments/{event_id}/register",
                   headers={"Authorization": f"Bearer {token}"}).raise_for_status()
        c.post(f"/api/tournaments/{event_id}/start", headers=auth).raise_for_status()
        page = c.get(f"/api/tournaments/{event_id}").json()
        assert page["status"] == "running" and page["rounds"], page["status"]
        viewer = c.post("/api/guest", json={"name": "Olheiro"}).json()["token"]
    return event_id, viewer


async def poll(port: int, event_id: str, token: str, watchers: int, seconds: float,
               interval: float) -> int:
    """`watchers` pages polling the event; returns the answers received in the window."""
    answered = 0
    request = (f"GET /api/tournaments/{event_id} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
               f"Authorization: Bearer {token}\r\n\r\n").encode()
    end = asyncio.get_running_loop().time() + seconds

    async def page(i: int) -> None:
        nonlocal answered
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        loop = asyncio.get_running_loop()
        await asyncio.sleep(interval * i / watchers)  # spread over the interval, as pages are
        try:
            while loop.time() < end:
                began = loop.time()
                writer.write(request)
                head = await reader.readuntil(b"\r\n\r\n")
                length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                              if line.lower().startswith(b"content-length"))
                await reader.readexactly(length)
                answered += 1
                await asyncio.sleep(max(0.0, interval - (loop.time() - began)))
        finally:
            writer.close()

    await asyncio.gather(*(page(i) for i in range(watchers)))
    return answered


async def push(port: int, event_id: str, token: str, watchers: int, seconds: float,
               mark: Any) -> int:
    """`watchers` sockets watching the event; returns the frames received in the window (after
    the answers to `watch`). `mark()` is called once all watch, when the window starts."""
    socks = []
    for start in range(0, watchers, 100):
        batch = await asyncio.gather(*(connect(
            f"ws://127.0.0.1:{port}/ws?token={token}", max_size=None, open_timeout=60,
            ping_interval=None, **NO_PROXY) for _ in range(start, min(watchers, start + 100))))
        for ws in batch:
            await ws.recv()  # hello
            await ws.send(json.dumps({"type": "watch", "data": {"event": event_id}}))
            frame = json.loads(await ws.recv())
            assert frame["type"] == "event", frame
        socks += batch
    received = 0

    async def read(ws: Any) -> None:
        nonlocal received
        with contextlib.suppress(Exception):
            async for _ in ws:
                received += 1

    mark()
    readers = [asyncio.create_task(read(ws)) for ws in socks]
    await asyncio.sleep(seconds)
    for task in readers:
        task.cancel()
    await asyncio.gather(*(ws.close() for ws in socks), return_exceptions=True)
    return received


def measure(args: argparse.Namespace) -> dict[str, Any]:
    os.environ.update(SETTINGS)
    if args.src:  # another checkout's server (its `src/` first on the path), e.g. the code before
        os.environ["PYTHONPATH"] = str(Path(args.src).resolve() / "src")
    server = Server(bot_delay_ms=0)
    try:
        server.wait_ready()
        event_id, token = running_event(server.url, args.entrants)
        window: dict[str, float] = {}

        def mark() -> None:
            window["cpu"], window["at"] = proc_stats(server.pid)["cpu_s"], time.monotonic()

        if args.mode == "poll":
            mark()
            count = asyncio.run(poll(server.port, event_id, token, args.watchers, args.seconds,
                                     args.interval))
        else:
            count = asyncio.run(push(server.port, event_id, token, args.watchers, args.seconds,
                                     mark))
        stats = proc_stats(server.pid)
        elapsed = time.monotonic() - window["at"]
        cpu = stats["cpu_s"] - window["cpu"]
        page = httpx2.get(f"{server.url}/api/tournaments/{event_id}", trust_env=False)
    finally:
        server.stop()
    return {"mode": args.mode, "watchers": args.watchers, "entrants": args.entrants,
            "seconds": round(elapsed, 1), "server_cpu_s": round(cpu, 2),
            "cpu_share_of_a_core": round(cpu / elapsed, 4),
            "cpu_ms_per_watcher_s": round(1000 * cpu / elapsed / args.watchers, 4),
            ("answers" if args.mode == "poll" else "frames"): count,
            "page_bytes": len(page.content), "rss_mb": round(stats["rss_mb"], 1)}


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=("poll", "push"), required=True)
    parser.add_argument("--watchers", type=int, default=1000)
    parser.add_argument("--entrants", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--interval", type=float, default=2.0, help="poll: seconds between GETs")
    parser.add_argument("--src", help="run the server of this checkout (the code before)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    report = measure(args)
    print(json.dumps(report) if args.json else "\n".join(f"{k}: {v}" for k, v in report.items()))
    return report


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
