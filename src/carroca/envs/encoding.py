"""A seat's view as numbers: the vectors the PettingZoo and OpenSpiel environments hand out.

Everything here is computed from `carroca.rules.observation` alone, so a vector can never hold a
tile the seat may not see. Every value lies in [0, 1] (the spaces say so) and the layout is the
same for the six rulesets (seat slots are always four), so one network can read them all.

`encode_view` is the current view (the observation tensor); `encode_history` adds the hand's
public steps one by one as the seat saw them (the information-state tensor).
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

import carroca.rules.tiles as T
from carroca.rules import RULESETS, Observation, get_ruleset
from carroca.rules.actions import END_NAMES, FIVE_DOUBLES

MAX_SEATS: Final = 4
RULESET_NAMES: Final = tuple(RULESETS)
PHASES: Final = ("deal", "choice", "play", "over")
STEP_KINDS: Final = ("play", "draw", "pass", FIVE_DOUBLES)
#: The most tiles one seat can hold (1v1 with a boneyard: 7 dealt and 14 drawn).
MAX_HAND: Final = 21
#: Hands beyond this read as this many in the hand-number feature.
HAND_HORIZON: Final = 30
#: The table count never reaches 50 (four ends of 6, two of them under doubles: 36).
COUNT_SCALE: Final = 50.0

_SECTIONS: Final = (
    ("ruleset", len(RULESET_NAMES)),
    ("seat", MAX_SEATS),
    ("turn", MAX_SEATS),
    ("phase", len(PHASES)),
    ("hand", T.TILE_COUNT),
    ("table", T.TILE_COUNT),
    ("ends", 4 * 7),
    ("count_mod5", 5),
    ("count", 1),
    ("hand_sizes", MAX_SEATS),
    ("boneyard", 1),
    ("score", 2),
    ("hand_number", 1),
    ("opener", MAX_SEATS),
    ("voids", MAX_SEATS * 7),
)
#: Where each named part of the view starts in the vector, and its length.
VIEW_LAYOUT: Final[dict[str, tuple[int, int]]] = {}
_offset = 0
for _name, _size in _SECTIONS:
    VIEW_LAYOUT[_name] = (_offset, _size)
    _offset += _size
VIEW_SIZE: Final = _offset

#: One step of the hand: who (4), what (4), which tile (28), which end (left, right, up, down,
#: none for the opening).
STEP_SIZE: Final = MAX_SEATS + len(STEP_KINDS) + T.TILE_COUNT + 5

Vector = npt.NDArray[np.float32]


def max_steps(ruleset: str) -> int:
    """The most steps one hand of the ruleset can take (the history's length).

    The cinco-carroças choice, up to n-1 passes of the saída, 28 plays, every boneyard draw and
    at most n-1 passes after each play (n passes in a row close the hand).
    """
    rs = get_ruleset(ruleset)
    n = rs.seats
    draws = T.TILE_COUNT - 7 * n if rs.draws else 0
    return 1 + (n - 1) + T.TILE_COUNT + draws + T.TILE_COUNT * (n - 1)


def history_size(ruleset: str) -> int:
    return VIEW_SIZE + max_steps(ruleset) * STEP_SIZE


def _number_mask(numbers: set[int] | list[int]) -> int:
    m = 0
    for n in numbers:
        m |= 1 << n
    return m


def known_voids(obs: Observation) -> list[int]:
    """Per seat, a 7-bit mask of the numbers it surely holds none of now (public knowledge).

    A pass facing open ends shows the seat holds none of their numbers. A draw shows the same
    about the tiles held before it; the tile drawn is known not to fit once the seat draws again
    or passes, or when it plays (only the last tile drawn can fit, so that is the one played).
    The tiles kept from drawing did not fit then, but may hold older voids' numbers, so after
    drawing only the numbers then open are sure. Playing a tile never breaks a void.
    """
    voids = [0] * MAX_SEATS
    pending = [-1] * MAX_SEATS  # after a draw: the void that holds once the seat acts again
    if not obs.steps:
        return voids
    spinner_rule = get_ruleset(obs.ruleset).spinner
    ends = [-1, -1, -1, -1]
    spinner = -1
    arms = 0
    for step in obs.steps:
        if pending[step.seat] >= 0:
            voids[step.seat] = pending[step.seat]
            pending[step.seat] = -1
        if step.kind == "play":
            tile = step.tile
            if step.end is None:
                ends[0], ends[1] = T.LOW[tile], T.HIGH[tile]
                if spinner_rule:
                    spinner = T.LOW[tile]
            else:
                e = _END_INDEX[step.end]
                ends[e] = T.OTHER_HALF[tile][ends[e]]
                if spinner >= 0 and e < 2:
                    arms |= e + 1
                    if arms == 3:
                        ends[2] = ends[3] = spinner
                        spinner = -1
        elif step.kind in ("pass", "draw") and ends[0] >= 0:
            facing = _number_mask([v for v in ends if v >= 0])
            if step.kind == "pass":
                voids[step.seat] |= facing
            else:
                voids[step.seat] = 0
                pending[step.seat] = facing
    return voids


_RULESET: Final = VIEW_LAYOUT["ruleset"][0]
_SEAT: Final = VIEW_LAYOUT["seat"][0]
_TURN: Final = VIEW_LAYOUT["turn"][0]
_PHASE: Final = VIEW_LAYOUT["phase"][0]
_HAND: Final = VIEW_LAYOUT["hand"][0]
_TABLE: Final = VIEW_LAYOUT["table"][0]
_ENDS: Final = VIEW_LAYOUT["ends"][0]
_COUNT_MOD5: Final = VIEW_LAYOUT["count_mod5"][0]
_COUNT: Final = VIEW_LAYOUT["count"][0]
_HAND_SIZES: Final = VIEW_LAYOUT["hand_sizes"][0]
_BONEYARD: Final = VIEW_LAYOUT["boneyard"][0]
_SCORE: Final = VIEW_LAYOUT["score"][0]
_HAND_NUMBER: Final = VIEW_LAYOUT["hand_number"][0]
_OPENER: Final = VIEW_LAYOUT["opener"][0]
_VOIDS: Final = VIEW_LAYOUT["voids"][0]
_END_INDEX: Final = {name: i for i, name in enumerate(END_NAMES)}


def encode_view(obs: Observation, out: Vector | None = None) -> Vector:
    """The view as a vector of `VIEW_SIZE` floats in [0, 1] (written into `out` if given)."""
    v = np.zeros(VIEW_SIZE, np.float32) if out is None else out
    if out is not None:
        v[:VIEW_SIZE] = 0.0
    ones = [_RULESET + RULESET_NAMES.index(obs.ruleset), _PHASE + PHASES.index(obs.phase)]
    if obs.seat is not None:
        ones.append(_SEAT + obs.seat)
    if obs.turn is not None:
        ones.append(_TURN + obs.turn)
    ones.extend(_HAND + t for t in obs.hand)
    ones.extend(_TABLE + t for _seat, t, _end in obs.table)
    ones.extend(_ENDS + _END_INDEX[name] * 7 + number for name, number in obs.ends.items())
    if obs.table:
        ones.append(_COUNT_MOD5 + obs.table_count % 5)
        v[_COUNT] = obs.table_count / COUNT_SCALE
    if obs.opener is not None:
        ones.append(_OPENER + obs.opener)
    for seat, mask in enumerate(known_voids(obs)):
        ones.extend(_VOIDS + seat * 7 + n for n in range(7) if mask >> n & 1)
    v[ones] = 1.0
    for seat, size in enumerate(obs.hand_sizes):
        v[_HAND_SIZES + seat] = size / MAX_HAND
    v[_BONEYARD] = obs.boneyard / T.TILE_COUNT
    target = _target(obs)
    for team, points in enumerate(obs.score):
        v[_SCORE + team] = min(points, target) / target
    v[_HAND_NUMBER] = min(obs.hand_number, HAND_HORIZON) / HAND_HORIZON
    return v


def _target(obs: Observation) -> int:
    """What a side must reach to win the match: points, or hands in `classico`."""
    value = obs.options.get("target", obs.options.get("hands_to_win", 1))
    return max(int(value), 1)


def encode_history(obs: Observation, out: Vector | None = None) -> Vector:
    """The view followed by the hand's steps as the seat saw them (`history_size` floats).

    Steps beyond the hand's length stay zero; a draw shows its tile only to the seat that drew.
    """
    size = history_size(obs.ruleset)
    v = np.zeros(size, np.float32) if out is None else out
    if out is not None:
        v[:] = 0.0
    encode_view(obs, v[:VIEW_SIZE])
    limit = max_steps(obs.ruleset)
    if len(obs.steps) > limit:
        raise ValueError(f"a hand of {obs.ruleset} has at most {limit} steps")
    base = VIEW_SIZE
    kind_at = MAX_SEATS
    tile_at = kind_at + len(STEP_KINDS)
    end_at = tile_at + T.TILE_COUNT
    for step in obs.steps:
        v[base + step.seat] = 1.0
        v[base + kind_at + STEP_KINDS.index(step.kind)] = 1.0
        if step.tile >= 0:
            v[base + tile_at + step.tile] = 1.0
        if step.kind == "play":
            end = 4 if step.end is None else END_NAMES.index(step.end)
            v[base + end_at + end] = 1.0
        base += STEP_SIZE
    return v
