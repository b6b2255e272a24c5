"""How likely a sampled world makes what the other seats chose: beliefs from their play.

Passes and draws exclude tiles for certain (`knowledge`); choices say more, softly. A player who
opened with a double, kept a number open or scored on the table usually did so because of the
tiles in hand. Each other seat is modelled as a soft-max over a cheap score of the plays it had
(heavier tiles and doubles first, leaving open a number it holds, table points), and a world is
weighted by the product, over that seat's past plays, of P(the play it made | the plays that
world's hand allowed then). A seat's hand at a past play is its hand in the world plus the tiles
it played since — exact unless it drew since, so plays before a seat's last draw are left out.

Everything here is read from the observation (public steps and the seat's own tiles), never from
the match: the weights of two deals that agree with the observation depend only on the deals.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final, NamedTuple

from carroca.rules import Observation, get_ruleset
from carroca.rules import tiles as T
from carroca.rules.actions import END_NAMES, OPENING

_END_INDEX: Final = {name: i for i, name in enumerate(END_NAMES)}
_NM: Final = T.NUMBER_MASK
_PIPS: Final = T.PIPS
_DOUBLE: Final = T.IS_DOUBLE
_OTHER: Final = T.OTHER_HALF
_BIT: Final = T.BIT
_LOW: Final = T.LOW
_HIGH: Final = T.HIGH

#: How the opening tile of this hand was chosen: the seat could play any tile, or any double.
ANY: Final = 1
DOUBLES: Final = 2


@dataclass(frozen=True, slots=True)
class Params:
    """Weights of the play score, already divided by the soft-max temperature."""

    pips: float = 0.1  # per pip of the tile played
    double: float = 1.1  # a double
    keep: float = 0.35  # per tile left in hand with the number the play leaves open
    points: float = 1.2  # per 5 table points the play scores (rulesets with table points)
    scale: float = 1.0  # inverse temperature on top of the weights (0: uniform worlds)


class Decision(NamedTuple):
    """One past play of another seat, with what the table looked like just before it."""

    seat: int
    tile: int
    end: int  # 0-3, or OPENING
    later: int  # tiles that seat played from this play on, this one included
    ends: tuple[int, int, int, int]
    mult: tuple[int, int, int, int]
    opening: int  # 0 not the opening, ANY or DOUBLES


def opening_kind(obs: Observation) -> int:
    """Whether the opener of this hand chose its tile freely (ANY, DOUBLES) or was forced (0).

    The opening rule of a hand follows from the previous hand's end, which the observation shows
    in `last_hand`; the first hand (the 6-6 or the highest double) and unknown rulesets are 0.
    """
    last = obs.last_hand
    if last is None:
        return 0
    end = last.get("end") or {}
    kind = end.get("kind")
    if kind in (None, "redeal", "abandon"):
        return 0
    name = obs.ruleset
    if name == "duplas-pontos":
        if obs.options.get("always_six_six") or kind == "fechado":
            return 0
        return DOUBLES
    if name in ("duplas-torneio", "mano-a-mano"):
        return ANY
    if name in ("classico", "bloqueio", "pontos"):
        return ANY if end.get("winner") is not None else 0
    return 0


def decisions(obs: Observation) -> list[Decision]:
    """The other seats' plays of this hand that say something about their tiles now."""
    if obs.seat is None:
        raise ValueError("a spectator has no beliefs to weigh")
    try:
        spinner_rule = get_ruleset(obs.ruleset).spinner
    except Exception:  # a ruleset registered elsewhere: no cross
        spinner_rule = False
    steps = obs.steps
    last_draw = [-1] * len(obs.hand_sizes)
    for i, step in enumerate(steps):
        if step.kind == "draw":
            last_draw[step.seat] = i
    ends = [-1, -1, -1, -1]
    mult = [0, 0, 0, 0]
    spinner = -1
    arms = 0
    found: list[tuple[int, int, int, int, tuple[int, ...], tuple[int, ...], int]] = []
    opening = opening_kind(obs)
    for i, step in enumerate(steps):
        if step.kind != "play":
            continue
        tile = step.tile
        end = OPENING if step.end is None else _END_INDEX[step.end]
        if step.seat != obs.seat and i > last_draw[step.seat]:
            kind = opening if end == OPENING else 0
            if end != OPENING or kind:
                found.append((i, step.seat, tile, end, tuple(ends), tuple(mult), kind))
        if end == OPENING:
            ends[0], ends[1] = _LOW[tile], _HIGH[tile]
            mult[0] = mult[1] = 2 if _DOUBLE[tile] else 1
            if spinner_rule:
                spinner = _LOW[tile]
        else:
            ends[end] = _OTHER[tile][ends[end]]
            mult[end] = 2 if _DOUBLE[tile] else 1
            if spinner >= 0 and end < 2:
                arms |= end + 1
                if arms == 3:
                    ends[2] = ends[3] = spinner
                    spinner = -1
    out: list[Decision] = []
    for i, seat, tile, end, e, m, kind in found:
        later = 0
        for step in steps[i:]:
            if step.seat == seat and step.kind == "play":
                later |= _BIT[step.tile]
        out.append(Decision(seat, tile, end, later, e, m, kind))  # type: ignore[arg-type]
    return out


class Belief:
    """Log-likelihood of a world's hands under the play model, from one observation."""

    def __init__(self, obs: Observation, params: Params | None = None) -> None:
        p = params or Params()
        self.params = p
        try:
            self.table_points = get_ruleset(obs.ruleset).table_points
        except Exception:
            self.table_points = False
        self.decisions = decisions(obs) if p.scale > 0 else []
        self._memo: dict[int, float] = {}  # (decision, hand then) -> log P: worlds repeat hands
        by_seat: dict[int, list[tuple[int, Decision]]] = {}
        for i, d in enumerate(self.decisions):
            by_seat.setdefault(d.seat, []).append((i, d))
        self._by_seat = sorted(by_seat.items())
        self._seat_memo: dict[int, float] = {}  # (seat, hand now) -> that seat's Σ log P

    @property
    def informative(self) -> bool:
        """False when every world weighs the same (no play to read)."""
        return bool(self.decisions)

    def log_weight(self, hands: list[int]) -> float:
        """Σ over the other seats' past plays of log P(that play | the world's hand then)."""
        total = 0.0
        memo = self._memo
        seat_memo = self._seat_memo
        for seat, items in self._by_seat:
            hand = hands[seat]
            seat_key = (seat << 28) | hand
            part = seat_memo.get(seat_key)
            if part is None:  # a new hand for this seat: its plays one by one (hands then repeat)
                part = 0.0
                for i, d in items:
                    key = (i << 28) | hand | d.later
                    value = memo.get(key)
                    if value is None:
                        value = memo[key] = self._log_p(d, hand | d.later)
                    part += value
                seat_memo[seat_key] = part
            total += part
        return total

    def _log_p(self, d: Decision, hand: int) -> float:
        """log P(the play d made | the seat held `hand` then) under the soft-max."""
        p = self.params
        s = p.scale
        wp, wd, wk, wt = p.pips * s, p.double * s, p.keep * s, p.points * s / 5.0
        points = self.table_points and wt != 0.0
        scores: list[float] = []
        chosen = 0.0
        if d.opening:
            m = hand if d.opening == ANY else hand & T.DOUBLES_MASK
            while m:
                low = m & -m
                t = low.bit_length() - 1
                m ^= low
                rest = hand ^ low
                keep = (rest & (_NM[_LOW[t]] | _NM[_HIGH[t]])).bit_count()
                sc = wp * _PIPS[t] + (wd if _DOUBLE[t] else 0.0) + wk * keep
                if points and not _PIPS[t] % 5:
                    sc += wt * _PIPS[t]
                scores.append(sc)
                if t == d.tile:
                    chosen = sc
        else:
            ends = d.ends
            mult = d.mult
            base = 0
            if points:
                base = ends[0] * mult[0] + ends[1] * mult[1]
                if ends[2] >= 0:
                    base += ends[2] * mult[2]
                if ends[3] >= 0:
                    base += ends[3] * mult[3]
            for e in range(4):
                v = ends[e]
                if v < 0:
                    continue
                m = hand & _NM[v]
                while m:
                    low = m & -m
                    t = low.bit_length() - 1
                    m ^= low
                    new = _OTHER[t][v]
                    sc = wp * _PIPS[t] + wk * ((hand ^ low) & _NM[new]).bit_count()
                    if _DOUBLE[t]:
                        sc += wd
                    if points:
                        after = base - v * mult[e] + new * (2 if _DOUBLE[t] else 1)
                        if after and not after % 5:
                            sc += wt * after
                    scores.append(sc)
                    if t == d.tile and e == d.end:
                        chosen = sc
        if len(scores) < 2:
            return 0.0
        top = max(scores)
        return chosen - top - math.log(sum(math.exp(x - top) for x in scores))


def resample(log_weights: list[float], count: int, u: float) -> list[int]:
    """Systematic resampling: `count` indices drawn in proportion to the weights (`u` in [0, 1))."""
    top = max(log_weights)
    weights = [math.exp(w - top) for w in log_weights]
    total = sum(weights)
    step = total / count
    out: list[int] = []
    target = u * step
    acc = 0.0
    i = 0
    last = len(weights) - 1
    for _ in range(count):
        while i < last and acc + weights[i] <= target:
            acc += weights[i]
            i += 1
        out.append(i)
        target += step
    return out
