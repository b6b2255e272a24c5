"""The server's own work for a move, without sockets or a load generator: what a move costs in
`carroca.server` alone, reproducible to the function (`--profile`).

A real `Hub` on a fresh SQLite file (group commits on the database thread, as served), with
`--tables` friends' tables of duplas-pontos, four players each, every seat followed by a
`Connection` whose socket keeps what it is sent (the server's WebSocket protocol stands behind
`write_frames`; its cost and the kernel's are `bench/load.py`'s). Every table's seat to move
answers its first legal action, the tables all at once as a crowd would, through
`Table.human_move` as a socket's move goes; the ack is sent back as the socket would. A match
that ends is replaced. Printed: CPU per move (all threads of the process, the database's
included), moves, commits.

    python bench/move_path.py [--tables 200] [--moves 20000] [--profile FILE.prof]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import pstats
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from carroca.server.routes.connection import Connection
from carroca.server.settings import Settings
from carroca.server.storage.db import migrate
from carroca.server.storage.store import Store
from carroca.server.tables.hub import Hub
from carroca.server.tables.table import Table


class Socket:
    """A Starlette WebSocket's part a `Connection` uses, and the protocol's `write_frames`."""

    def __init__(self) -> None:
        self.frames = 0
        self.bytes = 0

    def write_frames(self, texts: list[str]) -> bool:
        self.frames += len(texts)
        self.bytes += sum(len(t) for t in texts)
        return True

    async def send_text(self, text: str) -> None:  # pragma: no cover - write_frames takes all
        self.write_frames([text])


async def new_table(hub: Hub, n: int, players: list[dict[str, Any]]
                    ) -> tuple[Table, list[Connection]]:
    table = await hub.new_table(
        mode="friends", ruleset="duplas-pontos", options={},
        seats=[{"player": p["id"], "name": p["name"]} for p in players],
        turn_seconds=60.0, bot_level="medium", host_id=players[0]["id"], invite=f"c{n}",
    )
    conns = []
    for seat, player in enumerate(players):
        socket = Socket()
        conn = Connection(socket, player, hub, socket)  # type: ignore[arg-type]
        conn.attach(table.id, seat, table.mode)
        conns.append(conn)
    async with table.lock:
        await table.start()
    return table, conns


async def play(tables: int, moves: int, profile: str | None) -> dict[str, Any]:
    workdir = tempfile.TemporaryDirectory(prefix="carroca-move-path-")
    url = f"sqlite:///{Path(workdir.name) / 'moves.db'}"
    migrate(url)
    store = Store(url)
    hub = Hub(Settings(database=url, hand_pause_seconds=0.0, turn_seconds=60.0), store)
    guests = [await store.create_player(f"Jogador{i}", "guest") for i in range(4 * tables)]
    crowd = [guests[4 * n:4 * n + 4] for n in range(tables)]  # each table's four, for good
    seated = [await new_table(hub, n, crowd[n]) for n in range(tables)]
    made = tables
    ids = [[0] * 4 for _ in range(tables)]

    async def one(i: int) -> int:
        nonlocal made
        table, conns = seated[i]
        match = table.match
        if table.status == "finished" or match is None or match.is_over:
            number, made = made, made + 1  # before the await: the others run meanwhile
            seated[i] = await new_table(hub, number, crowd[i])
            ids[i] = [0] * 4
            return 0
        seat = match.current_player
        if seat is None:
            return 0
        ids[i][seat] += 1
        reply = await table.human_move(seat, ids[i][seat], str(match.legal_actions()[0]),
                                       table.version)
        conns[seat].send(reply)
        return 1 if '"type":"ack"' in reply else 0

    await asyncio.gather(*(one(i) for i in range(tables)))  # warm up
    profiler = cProfile.Profile() if profile else None
    done = 0
    commits = store.commits
    start_cpu, start = time.process_time(), time.perf_counter()
    start_loop = time.thread_time()
    if profiler:
        profiler.enable()
    while done < moves:
        done += sum(await asyncio.gather(*(one(i) for i in range(tables))))
    if profiler:
        profiler.disable()
    cpu, wall = time.process_time() - start_cpu, time.perf_counter() - start
    loop_cpu = time.thread_time() - start_loop
    commits = store.commits - commits
    for table, _ in seated:
        table.close()
    await hub.stop()
    store.close()
    workdir.cleanup()
    if profiler and profile:
        profiler.dump_stats(profile)
    return {"tables": tables, "moves": done, "commits": commits,
            "cpu_ms_per_move": round(cpu / done * 1000, 4),
            "loop_ms_per_move": round(loop_cpu / done * 1000, 4), "wall_s": round(wall, 2)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--moves", type=int, default=20_000)
    parser.add_argument("--profile", default=None, metavar="FILE",
                        help="cProfile stats of the measured moves (its CPU figure is not then)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    try:  # the server's loop: uvicorn takes uvloop when it is installed
        import uvloop
        run = uvloop.run
    except ImportError:
        run = asyncio.run
    out = run(play(args.tables, args.moves, args.profile))
    if args.json:
        print(json.dumps(out))
    else:
        print(f"{out['moves']} moves at {out['tables']} tables in {out['commits']} commits: "
              f"{out['cpu_ms_per_move']:.3f} ms of CPU per move, {out['loop_ms_per_move']:.3f} on "
              f"the event loop's thread ({out['wall_s']} s)")
    if args.profile:
        pstats.Stats(args.profile, stream=sys.stdout).sort_stats("tottime").print_stats(25)


if __name__ == "__main__":
    main()
