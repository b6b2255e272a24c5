"""Every deal the seat's knowledge allows, each weighed by belief: the exact posterior.

Late in a hand few deals are left (nine hidden tiles in three hands of three: at most 1,680),
fewer than the candidates a decision's batches deal one by one. Resampling a batch keeps its
best candidates even where none of them is likely, so the kept worlds are flatter than the
belief says; counting every deal once and drawing from all of them keeps them as the belief
weighs them. A deal's weight is the product of one factor per seat (`Belief.seat_weight`), each
depending on that seat's hand alone, so a hand is read once however many deals hold it.

Deals are listed in an order that follows from the knowledge alone (seats ascending, tiles
ascending), never from the match, so two observations that agree give the same worlds.
"""

from __future__ import annotations

import random
from itertools import combinations

from carroca.bots.expert.belief import Belief, resample
from carroca.bots.expert.knowledge import Knowledge
from carroca.bots.expert.sampler import World
from carroca.rules import tiles as T


class Posterior:
    """The deals of `k` with their log weights; `None` from `listed` where there are too many."""

    def __init__(self, k: Knowledge, hands: list[tuple[int, ...]], rest: list[int],
                 log_weights: list[float]) -> None:
        self.knowledge = k
        self.hands = hands  # per deal, every other seat's hand (seats ascending, own left out)
        self.rest = rest  # per deal, the tiles in no hand (the boneyard, or out of play)
        self.log_weights = log_weights

    def __len__(self) -> int:
        return len(self.hands)

    def world(self, i: int, rng: random.Random) -> World:
        """Deal `i` as a world; the tiles in no hand are shuffled into the boneyard."""
        k = self.knowledge
        hands = [0] * k.seats
        hands[k.seat] = k.own
        j = 0
        for s in range(k.seats):
            if s != k.seat:
                hands[s] = self.hands[i][j]
                j += 1
        rest = self.rest[i]
        pool = [t for t in range(T.TILE_COUNT) if rest & T.BIT[t]]
        if len(pool) > 1:
            rng.shuffle(pool)
        return hands, pool

    def draw(self, count: int, rng: random.Random) -> list[World]:
        """`count` worlds drawn in proportion to the weights (systematic resampling), in a
        random order: racing reads the first worlds, which must not share a hand."""
        picks = resample(self.log_weights, count, rng.random())
        rng.shuffle(picks)
        return [self.world(i, rng) for i in picks]


def count_bound(k: Knowledge) -> int:
    """How many deals there are at most, exclusions aside (a multinomial coefficient)."""
    left = len(k.unseen)
    total = 1
    for s in range(k.seats):
        if s == k.seat:
            continue
        size = k.sizes[s]
        if size > left:
            return 0
        total *= _choose(left, size)
        left -= size
    return total


def _choose(n: int, r: int) -> int:
    out = 1
    for i in range(r):
        out = out * (n - i) // (i + 1)
    return out


def listed(k: Knowledge, belief: Belief, cap: int) -> Posterior | None:
    """Every deal of `k`, weighed by `belief`, or None if more than `cap` might be dealt (or
    none honours the exclusions: the sampler's fallback then drops them)."""
    if cap <= 0 or count_bound(k) > cap:
        return None
    others = [s for s in range(k.seats) if s != k.seat]
    fills = sum(k.sizes[s] for s in others) == len(k.unseen)  # no tile outside the hands
    bit = T.BIT
    hands: list[tuple[int, ...]] = []
    rest: list[int] = []
    weights: list[float] = []
    weigh = belief.seat_weight
    last = len(others) - 1

    def fill(index: int, pool: tuple[int, ...], chosen: tuple[int, ...], weight: float) -> None:
        s = others[index]
        excluded, free, size = k.excluded[s], k.free[s], k.sizes[s]
        if index == last and fills:  # the last seat holds what is left
            mask = 0
            for t in pool:
                mask |= bit[t]
            if (mask & excluded).bit_count() <= free:
                hands.append((*chosen, mask))
                rest.append(0)
                weights.append(weight + weigh(s, mask))
            return
        allowed = pool if not excluded or free >= size else None
        for combo in combinations(pool, size):
            mask = 0
            for t in combo:
                mask |= bit[t]
            if allowed is None and (mask & excluded).bit_count() > free:
                continue
            w = weight + weigh(s, mask)
            left = tuple(t for t in pool if not mask & bit[t])
            if index == last:
                out = 0
                for t in left:
                    out |= bit[t]
                hands.append((*chosen, mask))
                rest.append(out)
                weights.append(w)
            else:
                fill(index + 1, left, (*chosen, mask), w)

    if others:
        fill(0, tuple(k.unseen), (), 0.0)
    if not hands:
        return None
    return Posterior(k, hands, rest, weights)
