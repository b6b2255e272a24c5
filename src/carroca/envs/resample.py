"""Deals that agree with everything one seat knows of a hand in progress (determinization).

Search over hidden information (OpenSpiel's ISMCTS and friends) needs, for the seat to move, a
whole world it cannot tell from the real one: the other seats' tiles and the boneyard's order.
`sample_deal` builds such a deal order: the seat's own tiles and draws stay where they are, each
tile another seat played goes to one of that seat's slots (dealt, or drawn before the play), the
rest of the unseen tiles are spread over the other slots, and every slot respects what passes and
draws showed (a seat that passed facing a 3 held no 3 then). The candidate is then replayed on
the engine from the hand's start: every step must be the same seat's legal action and the same
seat must be to move, so what the shortcuts above miss (who opens, cinco carroças) is checked by
the rules themselves.

The fill is random but not exactly the uniform posterior over consistent deals; search only needs
consistent, varied worlds.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import carroca.rules.tiles as T
from carroca.rules import Match, RulesError, Step
from carroca.rules.actions import DRAW, FIVE_DOUBLES, PASS, PLAY

#: Candidates tried before giving up (a consistent deal always exists: the real one).
MAX_ATTEMPTS = 5000
_NEVER = 1 << 30  # the play time of a tile still held


class NoConsistentDeal(RuntimeError):
    """No candidate deal replayed the hand within the attempts allowed."""


def _facing(match: Match) -> int:
    """The tiles that would fit now: what a pass or a draw shows the seat lacks."""
    if not match.table:  # the saída passed: no double in hand
        return T.DOUBLES_MASK
    mask = 0
    for v in match.ends:
        if v >= 0:
            mask |= T.NUMBER_MASK[v]
    return mask


class _Hand:
    """What the replayed hand says about every seat's slots, computed once per question."""

    def __init__(self, start: Match, order: Sequence[int], steps: Sequence[Step]) -> None:
        n = start.n
        self.n = n
        self.order = tuple(order)
        self.steps = tuple(steps)
        # slots[s]: (position in the deal order, time the seat got it: -1 dealt, else the step)
        self.slots: list[list[tuple[int, int]]] = [
            [(7 * s + i, -1) for i in range(7)] for s in range(n)
        ]
        self.events: list[list[tuple[int, int]]] = [[] for _ in range(n)]  # (time, fitting tiles)
        self.plays: list[list[tuple[int, int]]] = [[] for _ in range(n)]  # (tile, time)
        self.chooser = -1
        replay = start.copy()
        replay.deal(self.order)
        draws = 0
        for i, step in enumerate(self.steps):
            kind = step.action.kind
            if kind in (PASS, DRAW):
                self.events[step.seat].append((i, _facing(replay)))
            if kind == DRAW:
                self.slots[step.seat].append((7 * n + draws, i))
                draws += 1
            elif kind == PLAY:
                self.plays[step.seat].append((step.action.tile, i))
            elif kind == FIVE_DOUBLES:
                self.chooser = step.seat
            replay.apply(step.action, step.seat)
        self.draws = draws
        self.turn = replay.current_player

    def forbidden(self, seat: int, got: int, until: int) -> int:
        """Tiles the seat cannot have held from `got` to `until` (its passes and draws)."""
        mask = 0
        for time, fits in self.events[seat]:
            if got < time < until:
                mask |= fits
        return mask


def sample_deal(
    start: Match,
    order: Sequence[int],
    steps: Sequence[Step],
    viewer: int,
    rng: random.Random,
    attempts: int = MAX_ATTEMPTS,
) -> tuple[int, ...]:
    """A deal order `viewer` cannot tell from `order`, given the hand's `steps` so far.

    `start` is the match before the deal (it is copied, never changed); the result replays
    `steps` exactly on it.
    """
    hand = _Hand(start, order, steps)
    n = hand.n
    fixed: dict[int, int] = {}  # position -> tile the viewer knows
    for pos, _got in hand.slots[viewer]:
        fixed[pos] = hand.order[pos]
    seen = set(fixed.values())
    for s in range(n):
        if s != viewer:
            seen.update(tile for tile, _time in hand.plays[s])
    unseen = [t for t in range(T.TILE_COUNT) if t not in seen]
    # The allowed slots of each tile another seat played, and the allowed tiles of a held slot.
    played: list[tuple[int, list[int]]] = []
    held_limits: dict[int, int] = {}  # position -> tiles it may not hold
    for s in range(n):
        if s == viewer:
            continue
        for pos, got in hand.slots[s]:
            held_limits[pos] = hand.forbidden(s, got, _NEVER)
        for tile, time in hand.plays[s]:
            allowed = [
                pos
                for pos, got in hand.slots[s]
                if got < time and not hand.forbidden(s, got, time) >> tile & 1
            ]
            played.append((tile, allowed))
    boneyard_free = list(range(7 * n + hand.draws, T.TILE_COUNT))
    chooser = hand.chooser if hand.chooser != viewer else -1
    for _ in range(attempts):
        candidate = _fill(fixed, played, held_limits, chooser, unseen, boneyard_free, rng)
        if candidate is not None and _replays(start, candidate, hand.steps, hand.turn):
            return candidate
    raise NoConsistentDeal(f"no deal replays this hand after {attempts} tries")


def _fill(
    fixed: dict[int, int],
    played: list[tuple[int, list[int]]],
    held_limits: dict[int, int],
    chooser: int,
    unseen: list[int],
    boneyard_free: list[int],
    rng: random.Random,
) -> tuple[int, ...] | None:
    placed = dict(fixed)
    # Played tiles first, the most constrained first.
    shuffled = list(played)
    rng.shuffle(shuffled)
    shuffled.sort(key=lambda item: len(item[1]))
    for tile, allowed in shuffled:
        free = [pos for pos in allowed if pos not in placed]
        if not free:
            return None
        placed[rng.choice(free)] = tile
    pool = list(unseen)
    rng.shuffle(pool)
    if chooser >= 0:
        # Cinco carroças: the seat that chose holds at least five doubles among its dealt 7.
        dealt = range(7 * chooser, 7 * chooser + 7)
        doubles = sum(1 for pos in dealt if pos in placed and T.IS_DOUBLE[placed[pos]])
        open_pos = [pos for pos in dealt if pos not in placed]
        spare = [t for t in pool if T.IS_DOUBLE[t]]
        need = 5 - doubles
        if need > 0:
            if need > len(open_pos) or need > len(spare):
                return None
            for pos, tile in zip(rng.sample(open_pos, need), spare[:need], strict=True):
                placed[pos] = tile
                pool.remove(tile)
    slots = [pos for pos in held_limits if pos not in placed]
    options = {pos: [t for t in pool if not held_limits[pos] >> t & 1] for pos in slots}
    slots.sort(key=lambda pos: len(options[pos]))
    left = set(pool)
    for pos in slots:
        choices = [t for t in options[pos] if t in left]
        if not choices:
            return None
        tile = rng.choice(choices)
        placed[pos] = tile
        left.discard(tile)
    rest = [t for t in pool if t in left]
    if len(rest) != len(boneyard_free):
        return None
    for pos, tile in zip(boneyard_free, rest, strict=True):
        placed[pos] = tile
    return tuple(placed[pos] for pos in range(T.TILE_COUNT))


def _replays(
    start: Match, order: tuple[int, ...], steps: Sequence[Step], turn: int | None
) -> bool:
    """Whether every step is the same seat's legal action on this deal, and the same seat is
    to move after them (in 1v1 the first hand's opener says who holds the highest double)."""
    match = start.copy()
    match.deal(order)
    try:
        for step in steps:
            if match.current_player != step.seat:
                return False
            match.apply(step.action, step.seat)
    except RulesError:
        return False
    return match.current_player == turn
