"""The `greedy` level: take the most points now, then shed the heaviest tile.

It reads nothing but the seat's `Observation`, so it has to rebuild how each open end counts
(a double at an end counts twice, the spinner's uncovered arms count as a double, `up`/`down`
count only once covered) from the public table; `count_after` does that and is tested on its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from carroca.rules import Action, Observation, get_ruleset
from carroca.rules import actions as A
from carroca.rules import tiles as T
from carroca.rules.rulesets import bloqueio_batida, is_capicu

_END_ORDER = ("left", "right", "up", "down")
TableEntry = tuple[int, int, str | None]


def end_weights(table: Sequence[TableEntry]) -> dict[str, int]:
    """How many times each end's number counts: 2 under a double, 1 under a tile, 0 if bare.

    `left`/`right` with no tile of their own still expose the opening tile (in duplas-pontos
    that is the spinner, always a double); `up`/`down` expose nothing until a tile lands there.
    """
    if not table:
        return {}
    opening = table[0][1]
    weights = {"left": 2 if T.IS_DOUBLE[opening] else 1}
    weights["right"] = weights["left"]
    weights["up"] = weights["down"] = 0
    for _seat, tile, end in table[1:]:
        if end is not None:
            weights[end] = 2 if T.IS_DOUBLE[tile] else 1
    return weights


def count_after(table: Sequence[TableEntry], ends: Mapping[str, int], action: Action) -> int:
    """The table count (rules.md §1) right after `action` is played on this table.

    `table` and `ends` are as in `Observation`. A non-play action leaves the count as it is.
    """
    if action.kind != A.PLAY:
        return _count(end_weights(table), ends) if table else 0
    if action.end == A.OPENING or not table:
        return T.PIPS[action.tile]
    end = A.END_NAMES[action.end]
    weights = end_weights(table)
    after = dict(ends)
    after[end] = T.OTHER_HALF[action.tile][ends[end]]
    weights[end] = 2 if T.IS_DOUBLE[action.tile] else 1
    return _count(weights, after)


def _count(weights: Mapping[str, int], ends: Mapping[str, int]) -> int:
    return sum(ends[e] * weights[e] for e in _END_ORDER if e in ends)


def points_now(obs: Observation, action: Action) -> int:
    """Points the action scores at once under the observation's ruleset, as far as a seat knows.

    The table count where the ruleset scores it, and for the last tile the batida points that
    do not depend on hidden hands (batida de carroça, capicú bonus, bloqueio batida type).
    Cinco carroças `points` scores 10 per double.
    """
    rs = get_ruleset(obs.ruleset)
    if action.kind == A.FIVE_DOUBLES:
        doubles = sum(1 for t in obs.hand if T.IS_DOUBLE[t])
        return 10 * doubles if action.choice == "points" else 0
    if action.kind != A.PLAY:
        return 0
    points = 0
    if rs.table_points:
        count = count_after(obs.table, obs.ends, action)
        if count > 0 and count % 5 == 0:
            points += count
    if len(obs.hand) == 1 and obs.table:
        points += _batida_bonus(rs.name, obs.options, obs.ends, action.tile)
    return points


def _batida_bonus(
    ruleset: str, options: Mapping[str, Any], ends: Mapping[str, int], tile: int
) -> int:
    before = (ends.get("left", -1), ends.get("right", -1))
    if ruleset == "duplas-pontos":
        return 20 if T.IS_DOUBLE[tile] else 0
    if ruleset == "duplas-torneio":
        return int(options.get("capicu_bonus", 0)) if is_capicu(tile, before) else 0
    if ruleset == "bloqueio":
        return bloqueio_batida(tile, before)[1]
    return 0


class GreedyBot:
    """Most points now, then the heaviest tile, then a double; ties go to the legal order."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed  # deterministic: kept only so every level is built the same way

    def choose(self, obs: Observation) -> Action:
        legal = obs.legal
        if not legal:
            raise ValueError("no legal action for this seat now")
        if len(legal) == 1:
            return legal[0]
        if legal[0].kind == A.FIVE_DOUBLES:
            return A.FIVE_POINTS
        best = legal[0]
        best_key: tuple[int, int, int] | None = None
        for action in legal:
            key = (
                points_now(obs, action),
                T.PIPS[action.tile] if action.kind == A.PLAY else -1,
                1 if action.kind == A.PLAY and T.IS_DOUBLE[action.tile] else 0,
            )
            if best_key is None or key > best_key:  # strict: the first of equals wins
                best, best_key = action, key
        return best
