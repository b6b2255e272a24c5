"""The expert's exact endgame: alpha-beta over the rest of a hand on bare bitmasks.

Once nothing is left to draw and few tiles remain in the hands, a world is solved exactly, every
seat playing its best with the world's hands in view. Solving earlier pays (the playout policy's
bias is what holds the search back past a few hundred worlds), so the solver's speed sets how
early it can start. `search.alphabeta` drives `Match` (`push`/`pop`, an `Action` and a legal list
per node); this one keeps what the rest of the hand needs as locals, as `playout.crn_playout`
does, and hands a finished hand to the ruleset's own `score_hand`. Its values equal
`search.alphabeta`'s (tests/bots/test_expert_solver.py, every ruleset).

Ends that mirror each other (the same number shown as many times, no spinner arm telling them
apart) give the same values, so only one of them is searched; the scoring hooks read the two
ends before the last tile as a pair, never which was which.

Values are relative: a node returns the points its team gains on the other from there to the
end of the hand, so the table of positions reached again (a seat that plays on while the others
pass goes through every order of its tiles) stores them as they are.
"""

from __future__ import annotations

from typing import Final

from carroca.rules import Match
from carroca.rules import tiles as T
from carroca.rules.rulesets import HandEnding
from carroca.rules.tiles import BIT as _BIT
from carroca.rules.tiles import IS_DOUBLE as _DOUBLE
from carroca.rules.tiles import NUMBER_MASK as _NM
from carroca.rules.tiles import OTHER_HALF as _OTHER
from carroca.rules.tiles import PIPS as _PIPS

#: The tiles of a hand's plays on one end, ascending: every non-empty set of one number's tiles.
TILES_OF: Final[dict[int, tuple[int, ...]]] = {
    T.mask_of(chosen): tuple(sorted(chosen))
    for n in T.NUMBERS
    for subset in range(1, 128)
    for chosen in [[t for i, t in enumerate(T.TILES_WITH[n]) if subset >> i & 1]]
}

#: Beyond any hand's points: the window of a search that knows nothing yet.
_WIDE: Final = 1 << 30

#: A position's bounds on the points still to come, (lower, upper), and the best play found
#: there (its code, below), tried first when the position is met again.
Bounds = dict[tuple[int, ...], tuple[int, int, int]]

#: A position of a hand as bare values: the four ends (-1: not open), how many times each
#: counts, the spinner (-1: none or open), its covered arms, the seat to move, the passes since
#: the last play and the seat that made it.
State = tuple[int, int, int, int, int, int, int, int, int, int, int, int, int]

# A play is coded `tile << 2 | end`. Per end, the plays of each subset of a number's tiles,
# heaviest first (cut-offs come sooner), and each code's sort key: plays gathered from several
# ends are ordered by one C-level sort, no Python key function per node.
_PLAYS_AT: Final = tuple(
    {mask: tuple(t << 2 | end for t in sorted(tiles, key=lambda t: -_PIPS[t]))
     for mask, tiles in TILES_OF.items()}
    for end in range(4)
)
_HEAVIER: Final = tuple(-_PIPS[code >> 2] for code in range(28 << 2))


def solve(m: Match, team: int, first: tuple[int, int] | None = None,
          hands: list[int] | None = None, table: Bounds | None = None) -> int:
    """Exact value of the hand of `m` (not changed): `team`'s score minus the other's at its end.

    `first`: (tile, end) of a legal play of the seat to move, played before the search (the
    action being rated). `hands`, when given, stand for those of `m` (another world of the same
    public position). `table`: bounds of positions met before, shared by the actions and the
    worlds of one decision (a key holds every hand; the team, the options and the hand's opening
    are the decision's), never by two decisions. `m` must be past the opening with nothing left
    to draw.
    """
    if m.current_player is None:
        return m.score[team] - m.score[1 - team]
    if m.ruleset.draws and m.bone_pos < len(m.boneyard):
        raise ValueError("the exact solver needs a hand with nothing left to draw")
    e0, e1, e2, e3 = m.ends
    m0, m1, m2, m3 = m.mult
    state = (e0, e1, e2, e3, m0, m1, m2, m3, m.spinner, m.arms, m.turn, m.pass_run,
             m.last_player)
    here = m.score[team] - m.score[1 - team]
    return here + _search(m, team, list(m.hands if hands is None else hands), state, first,
                          table)


def solve_from(m: Match, team: int, hands: list[int], state: State,
               table: Bounds | None = None) -> int:
    """The points `team` gains on the other from a later position of the hand of `m` (a
    playout's, given by its `hands` and `state`) to the hand's end, everyone playing their
    best. The hand must go on there with nothing left to draw; `table` as for `solve`."""
    return _search(m, team, list(hands), state, None, table)


def _search(m: Match, team: int, hands: list[int], state: State, first: tuple[int, int] | None,
            table: Bounds | None) -> int:
    rs = m.ruleset
    options = m.options
    score_hand = rs.score_hand
    opener, hand_rule = m.opener, m.hand_rule
    n = m.n
    table_scores = rs.table_points
    pass_points = getattr(options, "pass_points", 0) if rs.pass_points else 0
    galo_points = getattr(options, "galo_points", 0) if rs.pass_points else 0
    bounds: Bounds = {} if table is None else table
    held = 0
    for h in hands:
        held |= h
    at0, at1, at2, at3 = _PLAYS_AT

    def ended(kind: str, seat: int, tile: int, before: tuple[int, int], end: int) -> int:
        ending = HandEnding(kind, seat, tuple(hands), tile, before, end,  # type: ignore[arg-type]
                            opener, hand_rule)
        gained = 0
        for points_team, points, _reason in score_hand(options, ending).points:
            gained += points if points_team == team else -points
        return gained

    def node(e0: int, e1: int, e2: int, e3: int, m0: int, m1: int, m2: int, m3: int,
             spinner: int, arms: int, turn: int, pass_run: int, last: int, alpha: int,
             beta: int, only: tuple[int, int] | None = None) -> int:
        """Points to come from this position, within the window (alpha, beta); with `only`,
        once the seat to move has made that play (the root's rated action)."""
        nonlocal held
        hand = hands[turn]
        p0 = hand & _NM[e0]
        # An end that mirrors another (same number, same count, no spinner arm telling them
        # apart) gives the same values as it: its plays are left out.
        p1 = hand & _NM[e1] if e1 != e0 or m1 != m0 or (spinner >= 0 and arms) else 0
        p2 = hand & _NM[e2] if e2 >= 0 else 0
        p3 = hand & _NM[e3] if e3 >= 0 and (e3 != e2 or m3 != m2) else 0
        if not (p0 or p1 or p2 or p3):  # a pass: someone else can play, or the hand had ended
            gain = 0
            if pass_points and pass_run == 0:
                gain += pass_points
            if galo_points and pass_run == n - 2:
                gain += galo_points
            if gain and last % 2 != team:
                gain = -gain
            return gain + node(e0, e1, e2, e3, m0, m1, m2, m3, spinner, arms, (turn + 1) % n,
                               pass_run + 1, last, alpha - gain, beta - gain)
        key: tuple[int, ...] = ()
        low, high = -_WIDE, _WIDE
        hint = -1
        if only is None:
            key = (*hands, e0, e1, e2, e3, m0, m1, m2, m3, turn, pass_run, last, spinner, arms)
            known = bounds.get(key)
            if known is not None:
                low, high, hint = known
                if low == high or low >= beta:
                    return low
                if high <= alpha:
                    return high
                if low > alpha:
                    alpha = low
                if high < beta:
                    beta = high
            plays = list(at0[p0]) if p0 else []
            if p1:
                plays += at1[p1]
            if p2:
                plays += at2[p2]
            if p3:
                plays += at3[p3]
            if len(plays) > 1:  # heaviest first; stable: ends in order
                plays.sort(key=_HEAVIER.__getitem__)
                if hint >= 0 and hint != plays[0]:  # the best play found before first
                    plays.remove(hint)
                    plays.insert(0, hint)
        else:
            plays = [only[0] << 2 | only[1]]
        first_alpha, first_beta = alpha, beta
        maximizing = turn % 2 == team
        best = -_WIDE if maximizing else _WIDE
        best_play = plays[0]
        before = (e0, e1)
        mine = turn % 2 == team
        for play in plays:
            t = play >> 2
            end = play & 3
            # the play, as Match._play makes it (the playout's steps, inline: a call per node
            # would cost more than the node)
            bit = _BIT[t]
            hands[turn] ^= bit
            held ^= bit
            weight = 2 if _DOUBLE[t] else 1
            f0, f1, f2, f3, n0, n1, n2, n3 = e0, e1, e2, e3, m0, m1, m2, m3
            spin, covered = spinner, arms
            if end == 0:
                f0, n0 = _OTHER[t][e0], weight
            elif end == 1:
                f1, n1 = _OTHER[t][e1], weight
            elif end == 2:
                f2, n2 = _OTHER[t][e2], weight
            else:
                f3, n3 = _OTHER[t][e3], weight
            if spin >= 0 and end < 2:
                covered |= end + 1
                if covered == 3:  # both arms covered: up and down open on the spinner, at 0
                    f2 = f3 = spin
                    spin = -1
            gain = 0
            if table_scores:
                count = f0 * n0 + f1 * n1
                if f2 >= 0:
                    count += f2 * n2
                if f3 >= 0:
                    count += f3 * n3
                if count and not count % 5:
                    gain = count if mine else -count
            if not hands[turn]:
                value = gain + ended("batida", turn, t, before, end)
            else:
                fits = _NM[f0] | _NM[f1]
                if f2 >= 0:
                    fits |= _NM[f2] | _NM[f3]
                if not held & fits:
                    value = gain + ended("fechado", turn, t, before, end)
                else:
                    value = gain + node(f0, f1, f2, f3, n0, n1, n2, n3, spin, covered,
                                        (turn + 1) % n, 0, turn, alpha - gain, beta - gain)
            hands[turn] ^= bit
            held ^= bit
            if maximizing:
                if value > best:
                    best, best_play = value, play
                    if value > alpha:
                        alpha = value
            else:
                if value < best:
                    best, best_play = value, play
                    if value < beta:
                        beta = value
            if alpha >= beta:
                break
        if only is None:
            if best <= first_alpha:  # fail low: an upper bound
                if best < high:
                    high = best
            elif best >= first_beta:  # fail high: a lower bound
                if best > low:
                    low = best
            else:
                low = high = best
            bounds[key] = (low, high, best_play)
        return best

    return node(*state, -_WIDE, _WIDE, first)
