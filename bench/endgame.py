"""The exact endgame solver with and without its table of positions reached again.

Collects the positions where the searching levels solve exactly (nothing to draw, at most 9
tiles in hands, two or more legal actions) from `medium`-vs-`medium` matches on seeded deals,
deals one world per position from the seat's view, and solves every legal action of it twice in
the same run: with one table shared by the world's actions (what the searches do) and without.
Reports CPU milliseconds per position (mean, and the slowest) and checks the values agree; the
two solvers take turns going first, so neither always finds the caches warm.

    python bench/endgame.py [--rulesets mano-a-mano,classico,duplas-torneio] [--matches 40]
        [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import sys
import time

from carroca import driver
from carroca.bots.expert.knowledge import read
from carroca.bots.expert.sampler import deal
from carroca.bots.expert.search import EXACT_TILES, Table, _solve, world_position
from carroca.bots.medium import MediumBot
from carroca.rules import Match, Observation, get_ruleset
from carroca.simulate import match_seeds


def positions(ruleset: str, matches: int, seed: int) -> list[tuple[Match, int]]:
    """(world, team) for every exact decision of the matches, one world dealt for each."""
    rs = get_ruleset(ruleset)
    rng = random.Random(seed)
    found: list[tuple[Match, int]] = []

    class Collector(MediumBot):
        def choose(self, obs: Observation):  # type: ignore[no-untyped-def]
            k = read(obs, rs.spinner)
            if len(obs.legal) > 1 and k.boneyard == 0 and sum(k.sizes) <= EXACT_TILES[k.seats]:
                hands, boneyard = deal(k, rng)
                found.append((world_position(k, obs, hands, boneyard), k.seat % 2))
            return super().choose(obs)

    for i in range(matches):
        server, client = match_seeds(f"endgame-{seed}", i)
        driver.play_match(ruleset, None, [Collector() for _ in range(rs.seats)], server, client)
    return found


def solve_all(world: Match, team: int, shared: bool) -> tuple[list[float], float]:
    table: Table | None = {} if shared else None
    values = []
    start = time.process_time()
    for action in world.legal_actions():
        child = world.copy()
        child.apply(action)
        values.append(_solve(child, team, -1e9, 1e9, table))
    return values, time.process_time() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rulesets", default="mano-a-mano,classico,duplas-torneio")
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    for name in args.rulesets.split(","):
        found = positions(name, args.matches, args.seed)
        plain_times, table_times = [], []
        for i, (world, team) in enumerate(found):
            if i % 2:
                shared, t_table = solve_all(world, team, True)
                plain, t_plain = solve_all(world, team, False)
            else:
                plain, t_plain = solve_all(world, team, False)
                shared, t_table = solve_all(world, team, True)
            if plain != shared:
                raise SystemExit(f"{name}: the table changed a value: {plain} != {shared}")
            plain_times.append(t_plain)
            table_times.append(t_table)
        n = len(found)
        if not n:
            print(f"{name}: no exact positions in {args.matches} matches", flush=True)
            continue
        mean_plain, mean_table = sum(plain_times) / n, sum(table_times) / n
        print(f"{name}: {n} exact positions; CPU ms per position without / with the table: "
              f"mean {1000 * mean_plain:.2f} / {1000 * mean_table:.2f} "
              f"({mean_plain / mean_table:.2f}x), slowest {1000 * max(plain_times):.1f} / "
              f"{1000 * max(table_times):.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
