"""Arena: for a fixed time, whoever finishes a match is paired again at once.

Those waiting are paired in standings order, each with the next one down (so scores are near),
skipping an entrant's last opponent when another is within reach. Two who just played each
other are not paired again while some other match is still running (someone else will be free
soon); when nobody else can come, they play again. With an odd count the lowest waits.
Scoring (`standings.arena_points`): a win 2, or 4 after two wins in a row, until a match not won.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

#: How far down the waiting list a partner is looked for to avoid a rematch.
REACH = 3


def pair_waiting(
    waiting: Sequence[str], last_opponent: Mapping[str, str], others_playing: bool
) -> list[tuple[str, str]]:
    """Pairs among `waiting` (in standings order), higher-ranked first in each pair."""
    left = list(waiting)
    pairs: list[tuple[str, str]] = []
    while len(left) >= 2:
        a = left.pop(0)
        pick = None
        for b in left[:REACH]:
            if last_opponent.get(a) != b and last_opponent.get(b) != a:
                pick = b
                break
        if pick is None:
            b = left[0]
            rematch = last_opponent.get(a) == b or last_opponent.get(b) == a
            if rematch and (others_playing or len(left) > 1):
                continue  # `a` waits for someone new
            pick = b
        left.remove(pick)
        pairs.append((a, pick))
    return pairs
