"""The expert's playout: the rest of a hand played by a fast policy on bare bitmasks.

A decision plays hundreds of worlds out, each once per legal action, so the playout is most of a
move's CPU. Driving `Match` for it builds an `Action`, a `Step` and a legal list per ply; this
loop keeps only what the rest of the hand needs (hands, ends and how they count, the spinner's
arms, turn, passes, boneyard) and hands the finished hand to the ruleset's own `score_hand`, so
the scoring rules live in one place. Its moves and points equal those of the same policy driven
through `Match` (tests/bots/test_expert_playout.py checks every ruleset against that reference).

The policy (`crn_playout`): each seat plays its best-scoring tile by pips, plus a fixed noise per
(seat, tile) shared by every action's playout of a world (common random numbers), a bonus for
shedding a double, per tile kept of the number the play leaves open and, where the table
scores, twice a multiple of five made. Ties go to the first play in the engine's legal order
(ends 0-3, tiles ascending).
"""

from __future__ import annotations

from collections.abc import Sequence

from carroca.bots.expert.solver import TILES_OF, Bounds, solve_from
from carroca.rules import Match
from carroca.rules.rulesets import HandEnding
from carroca.rules.tiles import BIT as _BIT
from carroca.rules.tiles import IS_DOUBLE as _DOUBLE
from carroca.rules.tiles import NUMBER_MASK as _NM
from carroca.rules.tiles import OTHER_HALF as _OTHER
from carroca.rules.tiles import PIPS as _PIPS


def crn_playout(m: Match, team: int, noise: list[float], keep: float, double: float,
                table_points: bool, first: tuple[int, int] | None = None,
                hands: list[int] | None = None, boneyard: Sequence[int] | None = None,
                exact_at: int = 0, table: Bounds | None = None) -> int:
    """Play the hand of `m` out (without changing `m`); the points `team` gains on the other.

    `first`: (tile, end) of a legal play of the seat to move, played before the policy takes
    over (the action being rated: no copy of `m` is needed). `hands` and `boneyard` (both or
    neither), when given, stand for those of `m`, still undrawn: another world of the same
    public position. `m` must be past the opening (`opening_mask < 0`); the result is `team`'s
    score minus the other team's when the hand ends, as `Match` would have it.

    `exact_at`: once at most that many tiles are in the hands and nothing is left to draw, the
    rest of the hand is solved exactly (`solver.solve_from`, with `table`) instead of played
    by the policy.
    """
    if (hands is None) != (boneyard is None):
        raise ValueError("give a world's hands and boneyard together, or neither")
    if m.current_player is None:  # the action played out the hand
        return m.score[team] - m.score[1 - team]
    rs = m.ruleset
    options = m.options
    n = m.n
    hands = list(m.hands if hands is None else hands)
    e0, e1, e2, e3 = m.ends
    m0, m1, m2, m3 = m.mult
    spinner = m.spinner
    arms = m.arms
    turn = m.turn
    pass_run = m.pass_run
    last = m.last_player
    bone_pos = m.bone_pos
    if boneyard is None:
        boneyard = m.boneyard
    else:
        bone_pos = 0
    bones = len(boneyard) if rs.draws else 0
    table_scores = rs.table_points  # `table_points` is the policy's, this the ruleset's
    pass_points = getattr(options, "pass_points", 0) if rs.pass_points else 0
    galo_points = getattr(options, "galo_points", 0) if rs.pass_points else 0
    score = list(m.score)
    held = 0  # every tile still in a hand
    for h in hands:
        held |= h
    _, last_tile, last_end = m.table[-1]
    forced = first
    while True:
        hand = hands[turn]
        if forced is not None:
            best_tile, best_end = forced
            forced = None
        elif exact_at and bone_pos >= bones and held.bit_count() <= exact_at:
            return score[team] - score[1 - team] + solve_from(
                m, team, hands, (e0, e1, e2, e3, m0, m1, m2, m3, spinner, arms, turn, pass_run,
                                 last), table)
        else:
            p0 = hand & _NM[e0]
            p1 = hand & _NM[e1]
            p2 = hand & _NM[e2] if e2 >= 0 else 0
            p3 = hand & _NM[e3] if e3 >= 0 else 0
            if not (p0 or p1 or p2 or p3):
                if bone_pos < bones:  # draw one; the same seat moves again
                    tile = boneyard[bone_pos]
                    bone_pos += 1
                    hands[turn] |= _BIT[tile]
                    held |= _BIT[tile]
                    if bone_pos == bones:
                        fits = _NM[e0] | _NM[e1]
                        if e2 >= 0:
                            fits |= _NM[e2] | _NM[e3]
                        if not held & fits:
                            return _ended(m, score, team, "fechado", last, hands, last_tile,
                                          (-1, -1), last_end)
                    continue
                if pass_points and pass_run == 0:
                    score[last % 2] += pass_points
                if galo_points and pass_run == n - 2:
                    score[last % 2] += galo_points
                pass_run += 1
                turn = (turn + 1) % n
                continue
            if p0.bit_count() + p1.bit_count() + p2.bit_count() + p3.bit_count() == 1:
                # one legal play: no choice to score
                best_end = 0 if p0 else 1 if p1 else 2 if p2 else 3
                best_tile = (p0 | p1 | p2 | p3).bit_length() - 1
            else:
                best_tile, best_end = _choose(
                    hand, (p0, p1, p2, p3), (e0, e1, e2, e3), (m0, m1, m2, m3),
                    noise, turn * 32, keep, double, table_points)
        # play best_tile on best_end, as Match._play does
        t = best_tile
        seat = turn
        hands[seat] ^= _BIT[t]
        held ^= _BIT[t]
        before = (e0, e1)
        weight = 2 if _DOUBLE[t] else 1
        if best_end == 0:
            e0, m0 = _OTHER[t][e0], weight
        elif best_end == 1:
            e1, m1 = _OTHER[t][e1], weight
        elif best_end == 2:
            e2, m2 = _OTHER[t][e2], weight
        else:
            e3, m3 = _OTHER[t][e3], weight
        if spinner >= 0 and best_end < 2:
            arms |= best_end + 1
            if arms == 3:  # both arms covered: up and down open on the spinner, counting 0
                e2 = e3 = spinner
                spinner = -1
        if table_scores:
            count = e0 * m0 + e1 * m1
            if e2 >= 0:
                count += e2 * m2
            if e3 >= 0:
                count += e3 * m3
            if count and not count % 5:
                score[seat % 2] += count
        last = seat
        last_tile, last_end = t, best_end
        pass_run = 0
        if not hands[seat]:
            return _ended(m, score, team, "batida", seat, hands, t, before, best_end)
        if bone_pos >= bones:
            fits = _NM[e0] | _NM[e1]
            if e2 >= 0:
                fits |= _NM[e2] | _NM[e3]
            if not held & fits:
                return _ended(m, score, team, "fechado", seat, hands, t, before, best_end)
        turn = (seat + 1) % n


def _choose(hand: int, playable: tuple[int, int, int, int], ends: tuple[int, int, int, int],
            mult: tuple[int, int, int, int], noise: list[float], row: int, keep: float,
            double: float, table_points: bool) -> tuple[int, int]:
    """The policy's (tile, end) among several plays; ties to the first in legal order."""
    best_tile = best_end = -1
    best_score = -1e9
    count = 0
    if table_points:
        for j in range(4):
            if ends[j] >= 0:
                count += ends[j] * mult[j]
    for e in range(4):
        can = playable[e]
        if not can:
            continue
        at = ends[e]
        if table_points:
            rest_count = count - at * mult[e]
        for t in TILES_OF[can]:
            new = _OTHER[t][at]
            score = _PIPS[t] + noise[row + t]
            if keep:
                if _DOUBLE[t]:
                    score += double
                score += keep * ((hand ^ _BIT[t]) & _NM[new]).bit_count()
            if table_points:
                made = rest_count + new * (2 if _DOUBLE[t] else 1)
                if made and not made % 5:
                    score += 2.0 * made
            if score > best_score:
                best_tile, best_end, best_score = t, e, score
    return best_tile, best_end


def _ended(m: Match, score: list[int], team: int, kind: str, seat: int, hands: list[int],
           last_tile: int, before: tuple[int, int], last_end: int) -> int:
    ending = HandEnding(kind, seat, tuple(hands), last_tile, before, last_end,  # type: ignore[arg-type]
                        m.opener, m.hand_rule)
    for points_team, points, _reason in m.ruleset.score_hand(m.options, ending).points:
        score[points_team] += points
    return score[team] - score[1 - team]
