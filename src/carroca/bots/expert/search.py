"""Determinized search: sample worlds consistent with the seat's knowledge, play each legal
action in every world to the end of the hand, and average the points it wins.

Each world is played out by a fast greedy-with-noise policy for all four seats, or solved
exactly by alpha-beta once few tiles remain in the hands. The value of an action is the change
in (our team's score − theirs) up to the end of the hand, so every ruleset's scoring — table
points, passe, galo, garagem, batida types, trancado counts — is the engine's own.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from carroca.bots.expert.knowledge import Knowledge, read
from carroca.bots.expert.sampler import sample
from carroca.rules import Action, Match, Observation, get_ruleset
from carroca.rules import tiles as T

#: Solve exactly when at most this many tiles remain in all hands together (and none to draw).
EXACT_TILES = {2: 9, 4: 9}
#: Worlds sampled at the least, whatever the budget says.
MIN_WORLDS = 4


@dataclass(frozen=True, slots=True)
class Rated:
    """An action with the points it is expected to win by the end of the hand."""

    action: Action
    value: float
    worlds: int


def _policy(m: Match, legal: list[Action], rng: random.Random, table_points: bool) -> Action:
    """Playout move: points on the table first, then the heaviest tile, with a little noise."""
    best = legal[0]
    best_score = -1.0
    for a in legal:
        if a.kind != "play":
            return a
        score = T.PIPS[a.tile] + rng.random() * 3.0
        if table_points:
            score += 2.0 * m.points_after(a)
        if score > best_score:
            best, best_score = a, score
    return best


def rollout(m: Match, team: int, rng: random.Random, table_points: bool) -> int:
    while m.current_player is not None:
        legal = m.legal_actions()
        m.apply(legal[0] if len(legal) == 1 else _policy(m, legal, rng, table_points))
    return m.score[team] - m.score[1 - team]


#: A position's bounds on the points still to come: (lower, upper), relative to its score now.
Table = dict[tuple[int, ...], tuple[float, float]]


def position_key(m: Match) -> tuple[int, ...]:
    """What the rest of a hand depends on, once there is nothing to draw and the opening is past
    (the only positions solved exactly): hands, ends and what counts them, the spinner's arms,
    the turn, the run of passes and the last player (the locker; who scores a passe)."""
    return (*m.hands, *m.ends, *m.mult, m.turn, m.pass_run, m.last_player, m.spinner, m.arms)


def alphabeta(m: Match, team: int, alpha: float, beta: float, table: Table | None = None) -> float:
    """Exact value (our score minus theirs at the end of the hand) by alpha-beta.

    With `table`, positions reached again by another order of the same plays (a seat that plays
    on while the others pass goes through every order of its tiles) are looked up, not searched
    again. What a position is still worth does not depend on how it was reached (its
    `position_key`); the points scored before it are left out of the stored value.
    """
    if m.current_player is None:
        return m.score[team] - m.score[1 - team]
    legal = list(m.legal_actions())
    if len(legal) == 1:
        m.push(legal[0])
        value = alphabeta(m, team, alpha, beta, table)
        m.pop()
        return value
    key: tuple[int, ...] = ()
    here = 0
    low, high = -1e9, 1e9
    if table is not None:
        here = m.score[team] - m.score[1 - team]
        key = position_key(m)
        bounds = table.get(key)
        if bounds is not None:
            low, high = bounds
            if low == high or here + low >= beta:
                return here + low
            if here + high <= alpha:
                return here + high
            alpha = max(alpha, here + low)
            beta = min(beta, here + high)
    first_alpha, first_beta = alpha, beta
    maximizing = m.turn % 2 == team
    best = -1e9 if maximizing else 1e9
    for a in sorted(legal, key=lambda a: -T.PIPS[a.tile] if a.tile >= 0 else 0):
        m.push(a)
        value = alphabeta(m, team, alpha, beta, table)
        m.pop()
        if maximizing:
            best = max(best, value)
            alpha = max(alpha, value)
        else:
            best = min(best, value)
            beta = min(beta, value)
        if alpha >= beta:
            break
    if table is not None:  # fail low: an upper bound; fail high: a lower bound; else exact
        if best <= first_alpha:
            high = min(high, best - here)
        elif best >= first_beta:
            low = max(low, best - here)
        else:
            low = high = best - here
        table[key] = (low, high)
    return best


def world_position(k: Knowledge, obs: Observation, hands: list[int], boneyard: list[int]) -> Match:
    rs = get_ruleset(obs.ruleset)
    opening_mask = -1
    if not k.table:
        opening_mask = T.mask_of(a.tile for a in obs.legal if a.kind == "play")
    return Match.from_position(
        rs,
        rs.make_options(obs.options),
        hands=hands,
        table=k.table,
        turn=k.seat,
        score=obs.score,
        boneyard=boneyard,
        pass_run=k.pass_run,
        opening_mask=opening_mask,
    )


def without_search(legal: list[Action]) -> list[Rated] | None:
    """The ratings that need no search: a lone legal action, or the cinco-carroças choice (ten
    points a double now beat a fresh deal); None when the actions must be searched."""
    if len(legal) <= 1:
        return [Rated(a, 0.0, 0) for a in legal]
    if legal[0].kind == "five-doubles":
        return [Rated(a, 0.0 if a.choice == "points" else -1.0, 0) for a in legal]
    return None


def rate_actions(
    obs: Observation, rng: random.Random, think_ms: float, worlds: int = MIN_WORLDS
) -> list[Rated]:
    """Every legal action of the seat to move with its expected points, best first.

    The budget: at least `worlds` sampled worlds (never fewer than `MIN_WORLDS`), and more while
    `think_ms` of wall time has not passed. With `think_ms=0` the count of worlds, and so the
    result, follows from `rng` alone: the same seed gives the same ratings on any machine.
    """
    legal = list(obs.legal)
    if (rated := without_search(legal)) is not None:
        return rated
    rs = get_ruleset(obs.ruleset)
    k = read(obs, rs.spinner)
    team = k.seat % 2
    deadline = time.perf_counter() + think_ms / 1000.0
    totals = [0.0] * len(legal)
    least = max(MIN_WORLDS, worlds)
    worlds = 0
    in_hands = sum(k.sizes)
    exact = k.boneyard == 0 and in_hands <= EXACT_TILES[k.seats]
    while worlds < least or (think_ms > 0 and time.perf_counter() < deadline):
        hands, boneyard = sample(k, rng)
        position = world_position(k, obs, hands, boneyard)
        base = position.score[team] - position.score[1 - team]
        table: Table = {}  # one per world: the actions' endgames share positions
        for i, a in enumerate(legal):
            child = position.copy()
            child.apply(a)
            if exact:
                value = alphabeta(child, team, -1e9, 1e9, table)
            else:
                value = rollout(child, team, rng, rs.table_points)
            totals[i] += value - base
        worlds += 1
    rated = [Rated(a, totals[i] / worlds, worlds) for i, a in enumerate(legal)]
    rated.sort(key=lambda r: -r.value)  # stable: ties keep the legal order
    return rated
