"""The `expert`'s worlds per decision that stand for the default thinking time.

`EXPERT1_WORLDS` are `expert-1`'s worlds in `DEFAULT_THINK_MS` on an idle machine (it plays
every world of every decision in full, so each of its decisions costs about that).
`DEFAULT_WORLDS` must stand for the same time of `expert`, whose worlds cost another amount of
CPU (belief weighting makes a world dearer; the endgame table and bitmask playouts make it
cheaper). Under wall time the expert stops early once racing leaves one action; the decisions
that do not, run to the deadline. So the count is the one at which those decisions (more than
one action still racing at the end) cost what `expert-1`'s decisions cost, both timed in the
same run on the same decisions of `medium`-vs-`medium` matches (alternating which goes first,
so a loaded machine bends both alike), found by a few rounds of scaling.

    python bench/budget.py [--rulesets duplas-pontos,pontos] [--positions 60] [--matches 8]
        [--rounds 2] [--seed 1] [--flat N] [--start N]
"""

from __future__ import annotations

import argparse
import random
import time

from carroca import driver
from carroca.bots.expert import DEFAULT_WORLDS, EXPERT1_WORLDS, planner, search
from carroca.bots.medium import MediumBot
from carroca.rules import RULESETS, Observation, get_ruleset
from carroca.simulate import match_seeds


def decisions(ruleset: str, matches: int, count: int, seed: int) -> list[Observation]:
    """`count` decisions with a choice, drawn evenly from the matches' decisions."""
    rs = get_ruleset(ruleset)
    found: list[Observation] = []

    class Collector(MediumBot):
        def choose(self, obs: Observation):  # type: ignore[no-untyped-def]
            if len(obs.legal) > 1 and obs.legal[0].kind != "five-doubles":
                found.append(obs)
            return super().choose(obs)

    for i in range(matches):
        server, client = match_seeds(f"budget-{seed}", i)
        driver.play_match(ruleset, None, [Collector() for _ in range(rs.seats)], server, client)
    return random.Random(seed).sample(found, min(count, len(found)))


def mean_cpu(found: list[Observation], worlds: int,
             flat_worlds: int) -> tuple[float, int, float]:
    """Mean CPU seconds of `expert`'s decisions at `worlds` that ran to the budget (and how
    many did), and of all of `expert-1`'s at `flat_worlds`."""
    spent, full, flat = 0.0, 0, 0.0
    for i, obs in enumerate(found):
        for which in ((0, 1) if i % 2 else (1, 0)):
            start = time.process_time()
            if which == 0:
                rated = planner.rate_actions(obs, random.Random(i), 0, worlds)
                cpu = time.process_time() - start
                most = max(r.worlds for r in rated)
                if most >= worlds and sum(r.worlds == most for r in rated) > 1:
                    spent += cpu
                    full += 1
            else:
                search.rate_actions(obs, random.Random(i), 0, flat_worlds)
                flat += time.process_time() - start
    return spent / max(1, full), full, flat / len(found)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rulesets", default=",".join(sorted(RULESETS)))
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--matches", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--flat", type=int, default=0,
                        help="expert-1's worlds (0: its calibrated count)")
    parser.add_argument("--start", type=int, default=0,
                        help="expert's worlds in the first round (0: its default count)")
    args = parser.parse_args(argv)
    print(f"{'ruleset':15s} {'expert-1':>8s} {'its ms':>7s} {'expert':>7s} {'its ms':>7s} "
          f"{'full':>5s} {'matching':>8s}")
    for name in args.rulesets.split(","):
        found = decisions(name, args.matches, args.positions, args.seed)
        flat = args.flat or EXPERT1_WORLDS[name]
        worlds = args.start or DEFAULT_WORLDS[name]
        for _ in range(args.rounds):
            cpu, full, flat_cpu = mean_cpu(found, worlds, flat)
            suggested = max(1, round(worlds * flat_cpu / cpu)) if full else worlds
            print(f"{name:15s} {flat:8d} {1000 * flat_cpu:7.1f} {worlds:7d} {1000 * cpu:7.1f} "
                  f"{full:5d} {suggested:8d}", flush=True)
            worlds = suggested


if __name__ == "__main__":
    main()
