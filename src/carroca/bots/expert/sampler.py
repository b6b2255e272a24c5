"""Deals the unseen tiles into worlds consistent with what the seat knows (determinization)."""

from __future__ import annotations

import random

from carroca.bots.expert.knowledge import Knowledge
from carroca.rules import tiles as T

#: A world: every seat's hand (bitmask) and the boneyard still to draw, in order.
World = tuple[list[int], list[int]]


def sample(k: Knowledge, rng: random.Random, tries: int = 30) -> World:
    """A uniform-ish deal of the unseen tiles honouring every seat's exclusions.

    Seats with the strongest constraints are filled first, from a fresh shuffle each try; if no
    try succeeds (a rare corner of inference), the exclusions are dropped rather than stalling.
    """
    others = [s for s in range(k.seats) if s != k.seat]
    order = sorted(others, key=lambda s: -(k.excluded[s].bit_count() * k.sizes[s]))
    for attempt in range(tries + 1):
        strict = attempt < tries
        pool = list(k.unseen)
        rng.shuffle(pool)
        hands = [0] * k.seats
        hands[k.seat] = k.own
        ok = True
        for s in order:
            need = k.sizes[s]
            bound = max(0, need - k.free[s]) if strict else 0
            excluded = k.excluded[s] if strict else 0
            chosen: list[int] = []
            rest: list[int] = []
            for t in pool:
                if len(chosen) < bound and not excluded & T.BIT[t]:
                    chosen.append(t)
                else:
                    rest.append(t)
            if len(chosen) < bound:
                ok = False
                break
            extra = need - len(chosen)
            chosen += rest[:extra]
            pool = rest[extra:]
            if len(chosen) < need:
                ok = False
                break
            hands[s] = T.mask_of(chosen)
        if ok:
            return hands, pool  # what is left is the boneyard (or out of play), shuffled
    raise ValueError("the unseen tiles cannot fill the hands")  # sizes inconsistent
