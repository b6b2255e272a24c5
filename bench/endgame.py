"""The exact endgame solvers: driven through `Match` against the bitmask one, the same values.

Collects the positions where the expert solves exactly (nothing to draw, at most its
`planner.EXACT_TILES` for the ruleset — or `--tiles` — in hands, two or more plays, past the
opening) from `medium`-vs-`medium` matches on seeded deals, deals `--worlds` worlds per position
from the seat's view, and solves every play of each with both solvers in the same run, as the
searches do: through `Match` with a table of positions per world, on bitmasks with one table
for all the worlds of the position. Reports CPU milliseconds per position (mean, and the
slowest) by tiles in hands and checks the values agree; the two take turns going first, so
neither always finds the caches warm.

    python bench/endgame.py [--rulesets duplas-torneio,duplas-pontos] [--matches 20]
        [--tiles N] [--worlds 1] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import defaultdict

from carroca import driver
from carroca.bots.expert.knowledge import read
from carroca.bots.expert.planner import Config, exact_tiles
from carroca.bots.expert.sampler import deal
from carroca.bots.expert.search import Table, alphabeta, world_position
from carroca.bots.expert.solver import Bounds, solve
from carroca.bots.medium import MediumBot
from carroca.rules import Match, Observation, get_ruleset
from carroca.simulate import match_seeds


def positions(ruleset: str, matches: int, seed: int, tiles: int,
              worlds: int = 1) -> list[tuple[list[Match], int]]:
    """(worlds, team) for every exact decision of the matches, `worlds` worlds dealt for each."""
    rs = get_ruleset(ruleset)
    rng = random.Random(seed)
    found: list[tuple[list[Match], int]] = []

    class Collector(MediumBot):
        def choose(self, obs: Observation):  # type: ignore[no-untyped-def]
            k = read(obs, rs.spinner)
            plays = [a for a in obs.legal if a.kind == "play"]
            if (len(plays) > 1 and obs.table and k.boneyard == 0
                    and sum(k.sizes) <= tiles):
                found.append(([world_position(k, obs, *deal(k, rng)) for _ in range(worlds)],
                               k.seat % 2))
            return super().choose(obs)

    for i in range(matches):
        server, client = match_seeds(f"endgame-{seed}", i)
        driver.play_match(ruleset, None, [Collector() for _ in range(rs.seats)], server, client)
    return found


def solve_all(worlds: list[Match], team: int, bitmask: bool) -> tuple[list[float], float]:
    start = time.process_time()
    plays = [a for a in worlds[0].legal_actions() if a.kind == "play"]
    values: list[float] = []
    bounds: Bounds = {}
    for world in worlds:
        if bitmask:
            values += [float(solve(world, team, (a.tile, a.end), None, bounds)) for a in plays]
            continue
        table: Table = {}
        for action in plays:
            child = world.copy()
            child.apply(action)
            values.append(alphabeta(child, team, -1e9, 1e9, table))
    return values, time.process_time() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rulesets", default="duplas-torneio,duplas-pontos,mano-a-mano")
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--tiles", type=int, default=0, help="0: the expert's own threshold")
    parser.add_argument("--worlds", type=int, default=1, help="worlds dealt per position")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    for name in args.rulesets.split(","):
        tiles = args.tiles or exact_tiles(Config(), name)
        found = positions(name, args.matches, args.seed, tiles, args.worlds)
        spent: dict[int, list[tuple[float, float]]] = defaultdict(list)
        for i, (worlds, team) in enumerate(found):
            order = (True, False) if i % 2 else (False, True)
            results = {fast: solve_all(worlds, team, fast) for fast in order}
            if results[True][0] != results[False][0]:
                raise SystemExit(f"{name}: the solvers disagree: {results}")
            in_hands = sum(h.bit_count() for h in worlds[0].hands)
            spent[in_hands].append((results[False][1], results[True][1]))
        if not found:
            print(f"{name}: no exact positions in {args.matches} matches", flush=True)
            continue
        print(f"{name} (exact at {tiles} tiles or fewer, {args.worlds} worlds a position): CPU "
              f"ms per position, Match-driven / bitmask", flush=True)
        for in_hands in sorted(spent):
            rows = spent[in_hands]
            slow = sum(r[0] for r in rows) / len(rows)
            fast = sum(r[1] for r in rows) / len(rows)
            print(f"  {in_hands:2d} tiles: {len(rows):4d} positions, mean {1000 * slow:.2f} / "
                  f"{1000 * fast:.2f} ({slow / fast if fast else 0:.2f}x), slowest "
                  f"{1000 * max(r[0] for r in rows):.1f} / {1000 * max(r[1] for r in rows):.1f}",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
