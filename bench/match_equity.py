"""Fit the expert's match-equity model: the chance to win the match from the score between hands.

The expert can score a playout by the chance its team then has to win the match rather than by
the points of the hand (`carroca.bots.expert.equity`): near the target, a hand's points matter by
what they do to that chance. The model is a race to the goal g (target, or hands to win):

    P(win) = Phi((rb - ra) / (k * sqrt(ra + rb))),   ra = g - a, rb = g - b

(what is still missing on each side; the points still to be scored spread like a sum of hands,
so their noise grows as the square root of the distance). One constant k per ruleset, fitted here
by maximum likelihood on the score after every hand of `medium`-vs-`medium` matches dealt from a
seeded shuffle (`--seed`): the same command prints the same k.

    python bench/match_equity.py [--rulesets all] [--matches 2000] [--seed 1]
"""

from __future__ import annotations

import argparse
import math
import random
import sys

from carroca.bots.expert.equity import GOAL, win_chance
from carroca.bots.medium import MediumBot
from carroca.rules import RULESETS, Match, observation


def between_hands(ruleset: str, matches: int, seed: int) -> list[tuple[int, int, float]]:
    """(score of team 0, score of team 1, team 0's match result: 1, 0.5 or 0) after each hand
    that did not end its match."""
    rng = random.Random(seed)
    bot = MediumBot()
    rows: list[tuple[int, int, float]] = []
    for _ in range(matches):
        m = Match(ruleset)
        seen: list[tuple[int, int]] = []
        while not m.is_over:
            if m.needs_deal:
                if m.hand_number:
                    seen.append((m.score[0], m.score[1]))
                order = list(range(28))
                rng.shuffle(order)
                m.deal(order)
                continue
            m.apply(bot.choose(observation(m, m.turn)))
        result = 1.0 if m.score[0] > m.score[1] else 0.0 if m.score[0] < m.score[1] else 0.5
        rows += [(a, b, result) for a, b in seen]
    return rows


def log_likelihood(rows: list[tuple[int, int, float]], goal: int, k: float) -> float:
    total = 0.0
    for a, b, won in rows:
        p = min(max(win_chance(a, b, goal, k), 1e-9), 1 - 1e-9)
        total += won * math.log(p) + (1 - won) * math.log(1 - p)
    return total


def fit(rows: list[tuple[int, int, float]], goal: int) -> float:
    """The k of highest likelihood (golden-section search on log k)."""
    lo, hi = math.log(0.05), math.log(50.0)
    ratio = (math.sqrt(5) - 1) / 2
    for _ in range(60):
        x1 = hi - ratio * (hi - lo)
        x2 = lo + ratio * (hi - lo)
        if log_likelihood(rows, goal, math.exp(x1)) > log_likelihood(rows, goal, math.exp(x2)):
            hi = x2
        else:
            lo = x1
    return math.exp((lo + hi) / 2)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rulesets", default="all")
    parser.add_argument("--matches", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    names = list(RULESETS) if args.rulesets == "all" else args.rulesets.split(",")
    for name in names:
        rows = between_hands(name, args.matches, args.seed)
        goal = GOAL[name]
        k = fit(rows, goal)
        brier = sum((win_chance(a, b, goal, k) - w) ** 2 for a, b, w in rows) / len(rows)
        print(f"{name}: k = {k:.3f} from {len(rows)} scores between hands "
              f"(goal {goal}, Brier {brier:.3f})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
