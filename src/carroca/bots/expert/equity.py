"""Match equity: the chance to win the match from the score between hands.

Points are not what a match is won by: at 180 to 150 of 200, a hand that scores 20 for sure can be
worth more than one that scores 40 half of the time. Scoring a playout by the chance to win the
match it leaves (instead of by its points) lets the search take that into account; far from the
target the chance is close to linear in the points and nothing changes.

The model is a race to the goal (the target, or hands to win): with ra and rb still missing on
each side, P(win) = Phi((rb - ra) / (k * sqrt(ra + rb))), the noise of the points still to come
growing as the square root of the distance. `K` holds one constant per ruleset, fitted by maximum
likelihood on the scores after every hand of 2,000 `medium`-vs-`medium` matches
(`bench/match_equity.py --matches 2000 --seed 1`).
"""

from __future__ import annotations

import math
from typing import Final

#: Per ruleset, the race model's spread (see the module docstring; measured, not tuned).
K: Final[dict[str, float]] = {
    "duplas-pontos": 5.61,
    "duplas-torneio": 8.18,
    "mano-a-mano": 7.02,
    "classico": 0.79,
    "bloqueio": 1.24,
    "pontos": 2.77,
}
#: The default goal of each ruleset's match (its default `target` or `hands_to_win`).
GOAL: Final[dict[str, int]] = {
    "duplas-pontos": 200,
    "duplas-torneio": 100,
    "mano-a-mano": 50,
    "classico": 2,
    "bloqueio": 6,
    "pontos": 100,
}
_SQRT2: Final = math.sqrt(2.0)


def goal_of(options: object) -> int:
    """The match's goal: its `target`, or its `hands_to_win` (classico)."""
    target = getattr(options, "target", None)
    return int(target) if target is not None else int(getattr(options, "hands_to_win", 0))


def win_chance(a: int, b: int, goal: int, k: float) -> float:
    """Side a's chance to win the match at a to b between hands (1, 0 or 0.5 once decided or
    level at or above the goal, when another hand is played)."""
    ra = goal - a
    rb = goal - b
    if ra <= 0 or rb <= 0:
        return 1.0 if a > b else 0.0 if a < b else 0.5
    return 0.5 * (1.0 + math.erf((rb - ra) / (k * math.sqrt(ra + rb) * _SQRT2)))
