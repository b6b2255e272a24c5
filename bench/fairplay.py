"""Agreement with the expert's review, level against level: what the fair-play signal
(`carroca.server.moderation.agreement`) sees of two bot levels' play, and what a review costs.

    python bench/fairplay.py --ruleset bloqueio --a expert --b medium --matches 10 \
        [--judge-worlds 128] [--a-worlds N] [--b-worlds N] [--seed 1] [--workers 2] [--json]

Level A sits on team 0 in even matches and on team 1 in odd ones. Every match is reviewed as the
server reviews it (`analyze_match`, seed 0, `--judge-worlds`: the server's 128 by default), and
each level's decisions are counted as the signal counts them (played == the expert's choice).
The searching levels play with `--a-worlds`/`--b-worlds` worlds (default: their own default
budget), so the moves follow from the seed.

Reported per level: decisions, agreed, the share with its 95% Wilson interval, and the spread of
the per-match shares; then the review's cost: judged decisions per match and CPU seconds per
judged decision (the worker's time a background review of a ranked match takes).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from carroca.analysis import DEFAULT_WORLDS, analyze_match
from carroca.rules import get_ruleset
from carroca.simulate import Budget, play_match

Z95 = 1.959963984540054


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


@dataclass(frozen=True)
class Job:
    ruleset: str
    a: str
    b: str
    a_worlds: int | None
    b_worlds: int | None
    judge_worlds: int
    seed: int
    index: int


@dataclass(frozen=True)
class Counted:
    """One match: per side (A, B) its decisions and agreements, and the review's CPU."""

    decisions: tuple[int, int]
    agreed: tuple[int, int]
    judge_cpu: float
    play_cpu: float


def one(job: Job) -> Counted:
    flip = job.index % 2 == 1  # A on team 1 in odd matches
    names = (job.b, job.a) if flip else (job.a, job.b)
    worlds = (job.b_worlds, job.a_worlds) if flip else (job.a_worlds, job.b_worlds)
    # One budget per level is what `play_match` takes: the searching level's own, if any.
    searching = [w for n, w in zip(names, worlds, strict=True) if n in ("expert", "expert1")]
    budget = Budget(worlds=searching[0]) if searching and searching[0] else None
    start = time.process_time()
    match, players, _, _ = play_match(job.ruleset, None, names, job.seed, job.index, budget)
    played = time.process_time() - start
    start = time.process_time()
    review = analyze_match(match, players, seed=0, worlds=job.judge_worlds)
    judged = time.process_time() - start
    made, agreed = [0, 0], [0, 0]
    for d in review.decisions:
        side = (d.seat % 2) ^ int(flip)  # 0: A, 1: B
        made[side] += 1
        agreed[side] += d.played == d.best
    return Counted((made[0], made[1]), (agreed[0], agreed[1]), judged, played)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ruleset", default="bloqueio")
    ap.add_argument("--a", default="expert")
    ap.add_argument("--b", default="medium")
    ap.add_argument("--matches", type=int, default=10)
    ap.add_argument("--judge-worlds", type=int, default=DEFAULT_WORLDS)
    ap.add_argument("--a-worlds", type=int)
    ap.add_argument("--b-worlds", type=int)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    if args.a in ("expert", "expert1") and args.b in ("expert", "expert1") and \
            args.a_worlds != args.b_worlds:
        ap.error("two searching levels play with one budget here")
    rs = get_ruleset(args.ruleset)
    if rs.seats != 2 and rs.seats != 4:
        ap.error("a ruleset of 2 or 4 seats")
    jobs = [Job(rs.name, args.a, args.b, args.a_worlds, args.b_worlds, args.judge_worlds,
                args.seed, i) for i in range(args.matches)]
    wall = time.perf_counter()
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            counted = list(pool.map(one, jobs))
    else:
        counted = [one(j) for j in jobs]
    wall = time.perf_counter() - wall
    out: dict[str, Any] = {"ruleset": rs.name, "matches": args.matches,
                           "judge_worlds": args.judge_worlds, "levels": {}}
    for side, level in enumerate((args.a, args.b)):
        made = sum(c.decisions[side] for c in counted)
        agreed = sum(c.agreed[side] for c in counted)
        per_match = [c.agreed[side] / c.decisions[side] for c in counted if c.decisions[side]]
        mean = sum(per_match) / len(per_match) if per_match else 0.0
        sd = math.sqrt(sum((x - mean) ** 2 for x in per_match) / (len(per_match) - 1)) \
            if len(per_match) > 1 else 0.0
        low, high = wilson(agreed, made)
        out["levels"][f"{'AB'[side]}:{level}"] = {
            "decisions": made, "agreed": agreed, "share": round(agreed / made, 4) if made else 0,
            "interval95": [round(low, 4), round(high, 4)],
            "per_match_sd": round(sd, 4),
        }
    judged = sum(sum(c.decisions) for c in counted)
    out["review"] = {
        "decisions_per_match": round(judged / len(counted), 1),
        "cpu_ms_per_decision": round(1000 * sum(c.judge_cpu for c in counted) / judged, 1)
        if judged else 0.0,
        "cpu_s_per_match": round(sum(c.judge_cpu for c in counted) / len(counted), 2),
    }
    out["wall_seconds"] = round(wall, 1)
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"{rs.name}: {args.matches} matches, reviews of {args.judge_worlds} worlds")
    for name, figures in out["levels"].items():
        low, high = figures["interval95"]
        print(f"  {name:<12} {figures['agreed']:>5}/{figures['decisions']:<5} agree "
              f"{figures['share']:.1%} [{low:.1%}, {high:.1%}]  per match sd "
              f"{figures['per_match_sd']:.1%}")
    r = out["review"]
    print(f"  review: {r['decisions_per_match']} decisions a match, {r['cpu_ms_per_decision']} ms "
          f"CPU each, {r['cpu_s_per_match']} s a match; wall {out['wall_seconds']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
