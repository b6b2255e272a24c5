"""What an arena writes to the database over its life, before and after its waves append their
log entries (`tournament_log`) instead of writing the whole event record again.

An arena of bots is run offline on simulated time, as `carroca tournament --format arena` runs
it (`carroca.tournament.offline`: a match lasts 3 s an action), and each step is stored the way
the server stores it: after each game's end the free entrants are paired (a wave) and what the
stored state lacks is written. The server keeps no match record in the event's (only its id:
the match's row holds it), so neither does this run. Two policies, on the same event:

- before: any input but a result writes the whole record (`dumps(to_record(t))`);
- after: a wave, with the results before it, appends its log entries (one JSON row each); the
  start, a close, the end and anything else write the whole record.

    python bench/arena_writes.py [--players 64] [--duration 1800] [--ruleset mano-a-mano]
        [--bots random] [--seed 1] [--json]
"""

from __future__ import annotations

import argparse
import heapq
import json
import sys
from collections.abc import Sequence
from typing import Any

from carroca import record as rec
from carroca.tournament import EventSpec, Tournament, to_record
from carroca.tournament.director import Round
from carroca.tournament.eventrecord import dumps
from carroca.tournament.offline import bot_entrants, bot_seed, match_seconds, play_game
from carroca.tournament.seeds import offline_seed


class Writes:
    """Bytes and writes of one policy."""

    def __init__(self) -> None:
        self.bytes = 0
        self.writes = 0
        self.stored = 0  # log entries stored

    def add(self, size: int, stored: int) -> None:
        self.bytes += size
        self.writes += 1
        self.stored = stored


def run(args: argparse.Namespace) -> dict[str, Any]:
    spec = EventSpec("arena", args.ruleset, {}, duration=float(args.duration))
    registrations, level_of = bot_entrants(spec, [args.bots], args.players, "duplas")
    t = Tournament.create(spec, f"offline-{args.seed}", offline_seed(args.seed))
    for e in registrations:
        t.register(e)
    t.start()
    before, after = Writes(), Writes()
    running: list[tuple[float, tuple[int, int, int], dict[str, Any]]] = []
    games = 0

    def flush() -> None:
        for policy, appends in ((before, False), (after, True)):
            new = t.log[policy.stored:]
            if all("result" in e for e in new):  # results alone: their matches' rows
                continue
            if appends and not t.is_finished and all("pair" in e or "result" in e for e in new):
                policy.add(sum(len(json.dumps(e, separators=(",", ":"))) for e in new),
                           len(t.log))
            else:
                policy.add(len(dumps(to_record(t))), len(t.log))

    def launch(rnd: Round | None, at: float) -> None:
        if rnd is None:
            return
        for tie in rnd.ties:
            game = tie.games[0]
            job = (spec.ruleset, dict(spec.options), tuple(level_of[p] for p in game.players),
                   game.players, game.server_seed, game.client_seed,
                   tuple(bot_seed(t.event_seed, game.key, s) for s in range(len(game.players))),
                   None)
            record = rec.loads(play_game(job))
            heapq.heappush(running, (at + match_seconds(record), game.key, record))

    launch(t.pair_waiting(0.0), 0.0)
    flush()
    duration = float(args.duration)
    while running:
        end, key, record = heapq.heappop(running)
        if end >= duration and not t.closed:
            t.close(duration)
        t.record_game(key, record, record_id=f"m{games}", at=end, keep=False)
        games += 1
        if not t.closed:
            launch(t.pair_waiting(end), end)
        flush()
    if not t.closed:
        t.close(max(duration, t.clock))
    flush()
    return {"players": args.players, "duration_s": args.duration, "ruleset": args.ruleset,
            "waves": len(t.rounds), "games": games,
            "before": {"writes": before.writes, "mb": round(before.bytes / 2**20, 2)},
            "after": {"writes": after.writes, "mb": round(after.bytes / 2**20, 3)},
            "final_record_kb": round(len(dumps(to_record(t))) / 1024, 1)}


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--duration", type=int, default=1800, help="simulated seconds")
    parser.add_argument("--ruleset", default="mano-a-mano")
    parser.add_argument("--bots", default="random")
    parser.add_argument("--seed", default="1")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    report = run(args)
    print(json.dumps(report) if args.json else "\n".join(f"{k}: {v}" for k, v in report.items()))
    return report


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
