"""What a seat can infer about hidden tiles from its observation alone.

Unseen tiles are those not in the seat's hand and not on the table. A pass (or a draw) shows
that the seat had no tile with any number open at that moment, so those tiles are excluded from
its hand — except tiles it drew afterwards, which the sampler leaves free. A batedor who passes
the saída in duplas-pontos holds no double.
"""

from __future__ import annotations

from dataclasses import dataclass

from carroca.rules import Observation
from carroca.rules import tiles as T
from carroca.rules.actions import END_NAMES

_END_INDEX = {name: i for i, name in enumerate(END_NAMES)}


@dataclass(frozen=True, slots=True)
class Knowledge:
    seat: int
    seats: int
    own: T.Mask
    unseen: tuple[int, ...]  # tiles in other hands or the boneyard, ascending
    sizes: tuple[int, ...]  # tiles each seat holds now
    boneyard: int  # tiles left to draw (0 where nobody draws)
    excluded: tuple[T.Mask, ...]  # per seat: tiles it cannot hold, by its passes and draws
    free: tuple[int, ...]  # per seat: tiles drawn after its first revealing pass or draw
    table: tuple[tuple[int, int, int], ...]  # (seat, tile, end index) in play order
    pass_run: int  # passes since the last play
    spinner_rule: bool


class OpenEnds:
    """Replays the table's placements to know which numbers were open at any moment."""

    def __init__(self, spinner_rule: bool) -> None:
        self.ends = [-1, -1, -1, -1]
        self.spinner_rule = spinner_rule
        self.spinner = -1
        self.arms = 0

    def place(self, tile: int, end: int) -> None:
        if end == 4:  # the opening
            self.ends[0], self.ends[1] = T.LOW[tile], T.HIGH[tile]
            if self.spinner_rule:
                self.spinner = T.LOW[tile]
            return
        self.ends[end] = T.OTHER_HALF[tile][self.ends[end]]
        if self.spinner >= 0 and end < 2:
            self.arms |= end + 1
            if self.arms == 3:
                self.ends[2] = self.ends[3] = self.spinner
                self.spinner = -1

    def fitting(self) -> T.Mask:
        mask = 0
        for v in self.ends:
            if v >= 0:
                mask |= T.NUMBER_MASK[v]
        return mask


def read(obs: Observation, spinner_rule: bool) -> Knowledge:
    if obs.seat is None:
        raise ValueError("a spectator has no hand to play")
    n = len(obs.hand_sizes)
    own = T.mask_of(obs.hand)
    on_table = T.mask_of(t for _, t, _ in obs.table)
    unseen = tuple(t for t in range(T.TILE_COUNT) if not (own | on_table) & T.BIT[t])
    excluded = [0] * n
    revealed = [False] * n
    free = [0] * n
    ends = OpenEnds(spinner_rule)
    played = 0
    pass_run = 0
    for step in obs.steps:
        s = step.seat
        if step.kind == "play":
            ends.place(step.tile, 4 if step.end is None else _END_INDEX[step.end])
            played += 1
            pass_run = 0
        elif step.kind == "pass":
            if not played:  # the saída passed: no double in that hand
                excluded[s] |= T.DOUBLES_MASK
            else:
                excluded[s] |= ends.fitting()
                pass_run += 1
            revealed[s] = True
        elif step.kind == "draw":
            if not revealed[s]:
                excluded[s] |= ends.fitting()
                revealed[s] = True
            free[s] += 1  # the drawn tile is not bound by what the seat lacked before
    excluded[obs.seat] = 0
    free[obs.seat] = 0
    table = [(s, t, 4 if e is None else _END_INDEX[e]) for s, t, e in obs.table]
    return Knowledge(
        seat=obs.seat,
        seats=n,
        own=own,
        unseen=unseen,
        sizes=tuple(obs.hand_sizes),
        boneyard=obs.boneyard,
        excluded=tuple(excluded),
        free=tuple(free),
        table=tuple(table),
        pass_run=pass_run,
        spinner_rule=spinner_rule,
    )
