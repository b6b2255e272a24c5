"""Presence: what a player with many friends coming online costs (`realtime.presence`).

A database (SQLite, in a temporary directory) with one player and `--friends` friends; every
friend has a socket open on this node (stand-ins that count the frames they are given). The
player's socket opens: counted are the SQL statements run until their friends are loaded and
their presence told, the publishes on the presence channel, the frames each friend got, and the
CPU time of it. Then the player goes to a table and back, `--changes` times within one presence
gap: the friends' frames show the coalescing.

    python bench/presence.py [--friends 500] [--changes 10] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # tests/support/presence_socks.py
    sys.path.insert(0, str(ROOT))

import sqlalchemy as sa  # noqa: E402
from tests.support.presence_socks import Sock  # noqa: E402

from carroca.server.realtime.fanout import LocalFanout  # noqa: E402
from carroca.server.realtime.presence import Presence  # noqa: E402
from carroca.server.storage import db  # noqa: E402
from carroca.server.storage.store import Store  # noqa: E402


async def run(friends: int, changes: int, gap: float) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'bench.db'}"
        db.migrate(url)
        store = Store(url)
        engine = store.engine
        with engine.begin() as conn:
            conn.execute(db.players.insert(), [
                {"id": i, "name": f"p{i}", "name_key": f"p{i}", "kind": "guest",
                 "created_at": 0.0, "name_skeleton": f"p{i}", "name_skeleton_folded": f"p{i}"}
                for i in range(1, friends + 2)])
            rows = [{"player_id": a, "other_id": b, "state": "friend", "at": 0.0}
                    for f in range(2, friends + 2) for a, b in ((1, f), (f, 1))]
            conn.execute(db.friend_links.insert(), rows)
        statements = [0]
        sa.event.listen(engine, "before_cursor_execute",
                        lambda *a: statements.__setitem__(0, statements[0] + 1))
        fanout = LocalFanout()
        presence = Presence(fanout, "n1", store.friend_names, gap)
        others = [Sock(i) for i in range(2, friends + 2)]
        for s in others:
            presence.opened(s)
        await asyncio.sleep(gap * 2)
        while presence.tasks:
            await asyncio.sleep(0.01)
        for s in others:
            s.frames.clear()
        statements[0] = 0
        published = presence.published
        me = Sock(1)
        began = time.process_time()
        presence.opened(me)
        while presence.tasks or presence.due:
            await asyncio.sleep(0.001)
        cpu = time.process_time() - began
        online = {"statements": statements[0], "publishes": presence.published - published,
                  "frames_to_friends": sum(len(s.frames) for s in others),
                  "friends_told": sum(1 for s in others if s.frames),
                  "snapshot_frames": len(me.frames), "snapshot_bytes": len(me.frames[0]),
                  "cpu_ms": round(cpu * 1000, 2)}
        for s in others:
            s.frames.clear()
        published = presence.published
        for i in range(changes):  # sits, leaves, sits…: within one gap, seated at the end
            me.match_id, me.seat, me.mode = (f"m{i}", 0, "casual") if (changes - 1 - i) % 2 == 0 \
                else (None, None, None)
            presence.changed(1)
        while presence.due:
            await asyncio.sleep(0.001)
        burst = {"changes": changes, "publishes": presence.published - published,
                 "friends_told": sum(1 for s in others if s.frames),
                 "frames_per_friend": max(len(s.frames) for s in others)}
        presence.stop()
        store.close()
        return {"friends": friends, "coming_online": online, "burst": burst}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--friends", type=int, default=500)
    ap.add_argument("--changes", type=int, default=10)
    ap.add_argument("--gap", type=float, default=0.2)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    out = asyncio.run(run(a.friends, a.changes, a.gap))
    print(json.dumps(out, indent=None if a.json else 2))


if __name__ == "__main__":
    main()
