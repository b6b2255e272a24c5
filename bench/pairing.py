"""Swiss pairing: the time to pair one round of a large field (on demand).

A Swiss of `--entrants` (default 1,000) is played round after round with random results (the
higher-ranked wins 60%), and each round's pairing (`carroca.tournament.swiss.pair_swiss`, what
the director calls) is timed. The goal is under one second per round. Fields above
`swiss.EXACT_LIMIT` are matched in blocks of `swiss.BLOCK` along the score groups, because
networkx's blossom over every pair grows as n³: the last lines time that exact matching over
every pair on smaller fields, to show why. Also printed per round: repeated pairs (should be
none), floaters (pairs of unequal score) and the largest score gap in a pair.

    python bench/pairing.py [--entrants 1000] [--rounds 9] [--exact 64,128,192] [--seed 1]
                            [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from carroca.tournament import seeds, swiss
from carroca.tournament.swiss import Contender, pair_swiss

GOAL_SECONDS = 1.0


def run(entrants: int, rounds: int, seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    event_seed = seeds.offline_seed(f"bench-{seed}")
    ids = [f"e{i:04d}" for i in range(entrants)]
    points = dict.fromkeys(ids, 0)
    byes = dict.fromkeys(ids, 0)
    met: dict[frozenset[str], int] = {}
    rows = []
    for number in range(1, rounds + 1):
        order = sorted(ids, key=lambda e: (-points[e], e))
        contenders = [Contender(e, points[e], byes[e]) for e in order]
        keys = seeds.round_keys(event_seed, number, ids)
        started = time.perf_counter()
        pairing = pair_swiss(contenders, met, keys)
        seconds = time.perf_counter() - started
        gaps = [abs(points[a] - points[b]) for a, b in pairing.pairs]
        rows.append({
            "round": number,
            "seconds": round(seconds, 3),
            "repeats": sum(1 for a, b in pairing.pairs if frozenset((a, b)) in met),
            "floaters": sum(1 for g in gaps if g),
            "max_gap": max(gaps, default=0),
        })
        for a, b in pairing.pairs:
            met[frozenset((a, b))] = met.get(frozenset((a, b)), 0) + 1
            points[a if rng.random() < 0.6 else b] += 1
        if pairing.bye is not None:
            points[pairing.bye] += 1
            byes[pairing.bye] += 1
    return rows


def exact_seconds(entrants: int) -> float:
    """Round 1 of `entrants` matched in one piece, over every pair."""
    ids = [f"e{i:04d}" for i in range(entrants)]
    keys = seeds.round_keys(seeds.offline_seed("bench-exact"), 1, ids)
    started = time.perf_counter()
    pair_swiss([Contender(e, 0) for e in ids], {}, keys, exact_limit=entrants)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--entrants", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--exact", default="64,128,192",
                        help="field sizes to match in one piece, for comparison ('' for none)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = run(args.entrants, args.rounds, args.seed)
    times = [r["seconds"] for r in rows]
    exact = {int(n): round(exact_seconds(int(n)), 3) for n in args.exact.split(",") if n}
    summary = {
        "entrants": args.entrants,
        "block": swiss.BLOCK,
        "exact_limit": swiss.EXACT_LIMIT,
        "median_seconds": round(statistics.median(times), 3),
        "worst_seconds": max(times),
        "goal_seconds": GOAL_SECONDS,
        "goal_met": max(times) < GOAL_SECONDS,
        "repeats": sum(r["repeats"] for r in rows),
        "rounds": rows,
        "exact_round_one_seconds": exact,
    }
    if args.json:
        print(json.dumps(summary))
        return
    print(f"Swiss pairing, {args.entrants} entrants, {args.rounds} rounds (blocks of "
          f"{swiss.BLOCK} above {swiss.EXACT_LIMIT} entrants)")
    print(f"{'round':>5} {'seconds':>8} {'repeats':>8} {'floaters':>9} {'max gap':>8}")
    for r in rows:
        print(f"{r['round']:>5} {r['seconds']:>8.3f} {r['repeats']:>8} {r['floaters']:>9} "
              f"{r['max_gap']:>8}")
    verdict = "met" if summary["goal_met"] else "NOT met"
    print(f"median {summary['median_seconds']:.3f} s, worst {summary['worst_seconds']:.3f} s "
          f"per round: the goal (< {GOAL_SECONDS:g} s) is {verdict}")
    if exact:
        shown = ", ".join(f"{n} entrants {s:.3f} s" for n, s in exact.items())
        print(f"blossom over every pair in one piece, round 1: {shown}")


if __name__ == "__main__":
    main()
