"""A bots-only tournament through the real server: what one event of many entrants costs a node.

`carroca serve` is started on a fresh SQLite database (bench/load.py's `Server`, with the
operator's options an event of this size needs: bots allowed, `--entrants` places). One guest
creates a Swiss event of `--ruleset` (default `mano-a-mano`, 1v1: an entrant is one bot, so
the entrants are the players, and every round seats entrants / 2 tables at once) whose free
places are filled with bots of `--bots` (default `greedy`: cheap, so the bots' thinking does not
hide the server's own work; greedy and random bots play in the server process, as bench/load.py's
do, only the searching levels think in the bot workers), starts it, and waits for its end. A
round lasts as long as its longest match: bot delay × moves, plus the server's pause between
hands (`CARROCA_HAND_PAUSE_SECONDS`, 5 s, taken from the environment). Reported:

- the time to run the event, its rounds and games, moves stored and moves per second;
- the server process's CPU (all its threads: the event loop, the database's thread) per move
  stored, beside the bot workers' CPU (its child processes), and its memory (RSS at the end,
  peak);
- the pairing time of each round, as the server logs it (`round N paired in S s`);
- the stored event row's size at the end, and the record downloaded (match records embedded).

With `--compare-players N` (default 0: not run) bench/load.py runs first, on its own server,
with N players at a human pace for `--compare-duration` seconds, and its server CPU per move is
printed beside the event's: the issue's goal is an event of 2,000 entrants on one node with
load.py's per-move figure unchanged. Both servers run the same code, one after the other.

    python bench/tournament_load.py --entrants 2000 [--rounds 11] [--bots greedy]
        [--ruleset mano-a-mano] [--option target=50] [--bot-delay-ms 800]
        [--compare-players 400] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sqlite3
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx2

from load import Server, proc_stats, source, tree_cpu  # bench/ is not a package

ROOT = Path(__file__).resolve().parent.parent
PAIRED = re.compile(r"tournament (\S+): round (\d+) paired in ([0-9.]+) s")
POLL_SECONDS = 1.0


def server_figures(server: Server, client: httpx2.Client) -> dict[str, float]:
    """The server's CPU (its own, and its children's: the bot workers), memory, moves stored."""
    out = dict(proc_stats(server.pid))
    tree, _ = tree_cpu(server.pid)
    out["bots_cpu_s"] = max(0.0, tree - out["cpu_s"])
    stats = client.get("/api/stats").json()
    out["moves"] = stats["moves"]
    out["commits"] = stats["commits"]
    return out


def run_event(args: argparse.Namespace) -> dict[str, Any]:
    os.environ.update({
        "CARROCA_TOURNAMENT_BOTS": "true",
        "CARROCA_MAX_TOURNAMENT_CAPACITY": str(max(256, args.entrants)),
        "CARROCA_TOURNAMENT_SHOW_UP_SECONDS": "60",
    })
    server = Server(args.bot_delay_ms)
    try:
        server.wait_ready()
        with httpx2.Client(base_url=server.url, timeout=120.0, trust_env=False) as client:
            token = client.post("/api/guest", json={"name": "Organizador"}).json()["token"]
            client.headers["Authorization"] = f"Bearer {token}"
            body: dict[str, Any] = {"name": "Copa de carga", "format": "swiss",
                                    "ruleset": args.ruleset, "capacity": args.entrants,
                                    "bots": args.bots, "starts_in": 3600}
            if args.rounds:
                body["rounds"] = args.rounds
            if args.option:
                body["options"] = {k: int(v) if v.isdigit() else v
                                   for k, v in (o.split("=", 1) for o in args.option)}
            r = client.post("/api/tournaments", json=body)
            if r.status_code != 201:
                raise RuntimeError(f"the event was refused: {r.status_code} {r.text}")
            event_id = r.json()["id"]
            idle = server_figures(server, client)
            began = time.monotonic()
            r = client.post(f"/api/tournaments/{event_id}/start")
            if r.status_code != 200:
                raise RuntimeError(f"the event did not start: {r.status_code} {r.text}")
            status, last_say = "running", 0.0
            while status == "running":  # the listing: cheap, unlike the event's page
                time.sleep(POLL_SECONDS)
                listing = client.get("/api/tournaments").json()
                if not any(e["id"] == event_id for e in listing["live"]):
                    status = "over"
                if not args.quiet and time.monotonic() - last_say >= 10:
                    last_say = time.monotonic()
                    print(f"{time.monotonic() - began:.0f} s: "
                          f"{client.get('/api/stats').json()['moves'] - idle['moves']} moves",
                          file=sys.stderr, flush=True)
                if time.monotonic() - began > args.timeout:
                    raise RuntimeError(f"the event did not end in {args.timeout:g} s")
            seconds = time.monotonic() - began
            end = server_figures(server, client)
            page = client.get(f"/api/tournaments/{event_id}").json()
            record = client.get(f"/api/tournaments/{event_id}/record").content
        db = Path(server.dir.name) / "load.db"
        with sqlite3.connect(db) as conn:
            stored = conn.execute("SELECT length(record) FROM tournaments WHERE id = ?",
                                  (event_id,)).fetchone()[0]
        server.log.flush()
        pairing = [float(m.group(3)) for m in PAIRED.finditer(server.log_path.read_text())
                   if m.group(1) == event_id]
    finally:
        server.stop()
    moves = end["moves"] - idle["moves"]
    cpu = end["cpu_s"] - idle["cpu_s"]
    games = sum(len(t["games"]) for rnd in page["rounds"] for t in rnd["tables"])
    return {
        "entrants": len(page["entrants"]),
        "ruleset": args.ruleset,
        "bots": args.bots,
        "bot_delay_ms": args.bot_delay_ms,
        "status": page["status"],
        "rounds": len(page["rounds"]),
        "games": games,
        "seconds": round(seconds, 1),
        "moves_stored": moves,
        "moves_per_s": round(moves / seconds, 1) if seconds else None,
        "commits": end["commits"] - idle["commits"],
        "server": {
            "cpu_s": round(cpu, 2),
            "cpu_pct": round(100 * cpu / seconds, 1) if seconds else None,
            "loop_thread_cpu_pct": round(100 * (end["loop_cpu_s"] - idle["loop_cpu_s"])
                                         / seconds, 1) if seconds else None,
            "cpu_ms_per_move": round(1000 * cpu / moves, 3) if moves else None,
            "rss_idle_mb": round(idle["rss_mb"], 1),
            "rss_end_mb": round(end["rss_mb"], 1),
            "rss_peak_mb": round(end["peak_mb"], 1),
        },
        "bot_workers_cpu_s": round(end["bots_cpu_s"] - idle["bots_cpu_s"], 2),
        "pairing_s": [round(s, 3) for s in pairing],
        "stored_record_kb": round((stored or 0) / 1024, 1),
        "downloaded_record_mb": round(len(record) / 2**20, 2),
    }


def run_load(args: argparse.Namespace) -> dict[str, Any]:
    """bench/load.py's own run (its server, its players), for its per-move figure."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "load.py"), "--players", str(args.compare_players),
         "--duration", str(args.compare_duration), "--ramp", str(args.compare_ramp),
         "--json", "--quiet"],
        capture_output=True, text=True, check=False,
        timeout=args.compare_duration + args.compare_ramp + 900)
    if done.returncode:
        raise RuntimeError(f"bench/load.py failed:\n{done.stderr[-3000:]}")
    report = json.loads(done.stdout.strip().splitlines()[-1])
    server = report.get("server", {})
    return {"players": report["players"], "duration_s": report["duration_s"],
            "moves_per_s": report.get("server_moves_per_s"),
            "cpu_pct": server.get("cpu_pct"), "cpu_ms_per_move": server.get("cpu_ms_per_move"),
            "rss_end_mb": server.get("rss_end_mb")}


def render(r: dict[str, Any]) -> str:
    s = r["server"]
    pairing = r["pairing_s"]
    lines = [
        f"event: {r['entrants']} entrants of {r['bots']} bots, {r['ruleset']}, Swiss of "
        f"{r['rounds']} rounds, {r['games']} games, {r['status']} in {r['seconds']} s "
        f"(bot delay {r['bot_delay_ms']} ms)",
        f"moves: {r['moves_stored']} stored = {r['moves_per_s']} /s in {r['commits']} commits",
        f"server: CPU {s['cpu_s']} s = {s['cpu_pct']}% of a core (event-loop thread "
        f"{s['loop_thread_cpu_pct']}%), {s['cpu_ms_per_move']} ms/move; RSS {s['rss_end_mb']} "
        f"MiB (idle {s['rss_idle_mb']}, peak {s['rss_peak_mb']}); bot workers CPU "
        f"{r['bot_workers_cpu_s']} s",
        "pairing per round (s): " + (", ".join(f"{p:g}" for p in pairing) or "none logged")
        + (f"; max {max(pairing):g}" if pairing else ""),
        f"event record: {r['stored_record_kb']} KiB stored (matches by id), "
        f"{r['downloaded_record_mb']} MiB downloaded (matches embedded)",
    ]
    if "load" in r:
        x = r["load"]
        lines.append(f"bench/load.py, {x['players']} players for {x['duration_s']:g} s: "
                     f"{x['moves_per_s']} moves/s, server CPU {x['cpu_pct']}%, "
                     f"{x['cpu_ms_per_move']} ms/move, RSS {x['rss_end_mb']} MiB")
    code = r.get("code", {})
    lines.append(f"code: {code.get('commit', '?')}, {code.get('src_files_changed', '?')} files "
                 f"under src/ changed since; engine {code.get('engine', '?')}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--entrants", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=0,
                        help="Swiss rounds (default: the director's, ceil(log2 entrants))")
    parser.add_argument("--ruleset", default="mano-a-mano")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                        help="the ruleset's options (docs: README.md)")
    parser.add_argument("--bots", default="greedy", help="the bots' level (greedy, random)")
    parser.add_argument("--bot-delay-ms", type=int, default=800,
                        help="the server's pause before a bot acts (its default: 800)")
    parser.add_argument("--timeout", type=float, default=6 * 3600.0,
                        help="seconds the event may take")
    parser.add_argument("--compare-players", type=int, default=0,
                        help="run bench/load.py first with this many players (0: not run)")
    parser.add_argument("--compare-duration", type=float, default=60.0)
    parser.add_argument("--compare-ramp", type=float, default=20.0)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    args = parser.parse_args(argv)
    if args.entrants < 2 or args.rounds < 0:
        parser.error("--entrants: at least 2; --rounds: not negative")
    load = run_load(args) if args.compare_players > 0 else None
    result = run_event(args)
    if load is not None:
        result["load"] = load
    result["code"] = source()
    print(json.dumps(result) if args.json else render(result), flush=True)
    return result


if __name__ == "__main__":
    main()
