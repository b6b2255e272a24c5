"""The expert's decisions with playouts on bare bitmasks and through `Match`, in one run.

Collects the positions where the expert would search by playouts (two or more legal actions, not
an exact endgame) from `medium`-vs-`medium` matches on seeded deals, and rates every one twice
with the same seed and budget: with the bitmask playout (the default) and with the same policy
driven through `Match` (the reference the bitmask one equals). Reports CPU milliseconds per
decision of each and their ratio, and checks the two ratings are identical; the two take turns
going first, so neither always finds the caches warm.

    python bench/playout.py [--rulesets duplas-pontos,duplas-torneio] [--matches 6]
        [--worlds 120] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from carroca import driver
from carroca.bots.expert import Config
from carroca.bots.expert.knowledge import read
from carroca.bots.expert.planner import exact_tiles, rate_actions
from carroca.bots.medium import MediumBot
from carroca.rules import RULESETS, Observation, get_ruleset
from carroca.simulate import match_seeds


def decisions(ruleset: str, matches: int, seed: int, exact_tiles: int) -> list[Observation]:
    """Every decision of the matches that the expert searches by playouts."""
    rs = get_ruleset(ruleset)
    found: list[Observation] = []

    class Collector(MediumBot):
        def choose(self, obs: Observation):  # type: ignore[no-untyped-def]
            k = read(obs, rs.spinner)
            if len(obs.legal) > 1 and obs.legal[0].kind == "play" and not (
                    k.boneyard == 0 and sum(k.sizes) <= exact_tiles):
                found.append(obs)
            return super().choose(obs)

    for i in range(matches):
        server, client = match_seeds(f"playout-{seed}", i)
        driver.play_match(ruleset, None, [Collector() for _ in range(rs.seats)], server, client)
    return found


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rulesets", default=",".join(sorted(RULESETS)))
    parser.add_argument("--matches", type=int, default=6)
    parser.add_argument("--worlds", type=int, default=120)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    bitmask, engine = Config(), Config(bitmask=False)
    print(f"{'ruleset':15s} {'decisions':>9s} {'Match ms':>9s} {'bitmask ms':>10s} {'ratio':>6s}")
    for name in args.rulesets.split(","):
        found = decisions(name, args.matches, args.seed, exact_tiles(bitmask, name))
        spent = {True: 0.0, False: 0.0}
        for i, obs in enumerate(found):
            ratings = {}
            for fast in ((True, False) if i % 2 else (False, True)):
                cfg = bitmask if fast else engine
                start = time.process_time()
                ratings[fast] = rate_actions(obs, random.Random(i), 0, args.worlds, cfg)
                spent[fast] += time.process_time() - start
            if ratings[True] != ratings[False]:
                sys.exit(f"{name}: decision {i} rated differently by the two playouts")
        n = max(1, len(found))
        slow, fast_ms = 1000 * spent[False] / n, 1000 * spent[True] / n
        ratio = slow / fast_ms if fast_ms else float("nan")
        print(f"{name:15s} {len(found):9d} {slow:9.2f} {fast_ms:10.2f} {ratio:6.2f}")


if __name__ == "__main__":
    main()
