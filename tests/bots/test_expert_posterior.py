"""The listed posterior: every deal the seat's knowledge allows, each once, weighed as the belief
weighs the whole world, and worlds drawn from them in proportion to those weights."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

import pytest
from tests.support.scripted import deal_shuffled

from carroca.bots.expert.belief import Belief, params_for, partner_for
from carroca.bots.expert.knowledge import Knowledge, read
from carroca.bots.expert.planner import Config, posterior_cap, rate_actions
from carroca.bots.expert.posterior import count_bound, listed
from carroca.bots.medium import MediumBot
from carroca.rules import Match, get_ruleset, observation
from carroca.rules import tiles as T


def late_positions(name: str, count: int, hidden: int, seed: str) -> list[Match]:
    """Positions of `medium` play (so the belief has plays to read) where the seat to move has
    two choices or more and sees at most `hidden` tiles nowhere (other hands, boneyard)."""
    rng = random.Random(seed)
    rs = get_ruleset(name)
    bots = [MediumBot(seed=rng.randrange(1 << 30)) for _ in range(rs.seats)]
    out: list[Match] = []
    while len(out) < count:
        m = Match(name)
        deal_shuffled(m, rng)
        while m.current_player is not None:
            seat = m.turn
            unseen = T.TILE_COUNT - m.hands[seat].bit_count() - len(m.table)
            legal = m.legal_actions()
            if unseen <= hidden and len(legal) > 1 and legal[0].kind == "play":
                out.append(m.copy())
                break
            m.apply(bots[seat].choose(observation(m, seat)))
    return out


def brute_force(k: Knowledge) -> set[tuple[tuple[int, ...], int]]:
    """Every deal by trying every owner (another seat or no hand) for every unseen tile."""
    others = [s for s in range(k.seats) if s != k.seat]
    found = set()
    for owners in itertools.product(range(len(others) + 1), repeat=len(k.unseen)):
        hands = [0] * len(others)
        rest = 0
        for t, o in zip(k.unseen, owners, strict=True):
            if o == len(others):
                rest |= T.BIT[t]
            else:
                hands[o] |= T.BIT[t]
        if any(h.bit_count() != k.sizes[s] for h, s in zip(hands, others, strict=True)):
            continue
        if any((h & k.excluded[s]).bit_count() > k.free[s]
               for h, s in zip(hands, others, strict=True)):
            continue
        found.add((tuple(hands), rest))
    return found


def _belief(m: Match) -> Belief:
    name = m.ruleset.name
    return Belief(observation(m, m.turn), params_for(name), partner_for(name))


@pytest.mark.parametrize("name", ["duplas-pontos", "duplas-torneio", "mano-a-mano", "pontos"])
def test_listed_is_every_deal_once_with_the_worlds_weight(name: str) -> None:
    rs = get_ruleset(name)
    checked = excluded = 0
    hidden = 6 if rs.seats == 4 else 13  # brute force tries (seats)^hidden owners
    for m in late_positions(name, 8, hidden, f"posterior-{name}"):
        k = read(observation(m, m.turn), rs.spinner)
        if m.n ** len(k.unseen) > 200_000:
            continue  # a big boneyard: too many owners to try them all
        belief = _belief(m)
        everything = listed(k, belief, 10**6)
        assert everything is not None
        deals = list(zip(everything.hands, everything.rest, strict=True))
        assert len(set(deals)) == len(deals)
        assert set(deals) == brute_force(k)
        others = [s for s in range(m.n) if s != m.turn]
        assert tuple(m.hands[s] for s in others) in everything.hands  # the true deal is one
        for i in range(len(everything)):
            hands, pool = everything.world(i, random.Random(i))
            assert hands[m.turn] == m.hands[m.turn]
            assert T.mask_of(pool) == everything.rest[i]
            assert math.isclose(belief.log_weight(hands), everything.log_weights[i],
                                abs_tol=1e-9)
        checked += 1
        excluded += any(k.excluded[s] for s in others)
    assert checked >= 4
    assert excluded, "no position with a pass: the exclusions went untested"


def test_listing_stops_above_the_cap_and_is_off_unless_set() -> None:
    m = late_positions("duplas-pontos", 1, 9, "posterior-cap")[0]
    k = read(observation(m, m.turn), True)
    belief = _belief(m)
    bound = count_bound(k)
    assert 1 < bound <= 1680  # three hands of three at most
    assert listed(k, belief, bound - 1) is None
    assert listed(k, belief, 0) is None
    full = listed(k, belief, bound)
    assert full is not None and 1 <= len(full) <= bound
    assert posterior_cap(Config(posterior=0), "duplas-pontos") == 0
    assert posterior_cap(Config(posterior=123), "duplas-pontos") == 123


def test_draws_follow_the_weights() -> None:
    """Systematic resampling: each deal drawn its expected number of times, give or take one,
    in an order with no run of the heaviest deal at the front."""
    m = late_positions("duplas-pontos", 1, 6, "posterior-draw")[0]
    k = read(observation(m, m.turn), True)
    everything = listed(k, _belief(m), 10**6)
    assert everything is not None and len(everything) > 2
    count = 3000
    worlds = everything.draw(count, random.Random(4))
    assert len(worlds) == count
    index = {hands: i for i, hands in enumerate(everything.hands)}
    others = [s for s in range(m.n) if s != m.turn]
    drawn = Counter(index[tuple(h[s] for s in others)] for h, _ in worlds)
    top = max(everything.log_weights)
    weights = [math.exp(w - top) for w in everything.log_weights]
    total = sum(weights)
    for i, w in enumerate(weights):
        assert abs(drawn[i] - count * w / total) <= 1.0 + 1e-9
    first = [index[tuple(h[s] for s in others)] for h, _ in worlds[:20]]
    assert len(set(first)) > 1


def test_decisions_with_the_posterior_are_legal_and_reproducible() -> None:
    for m in late_positions("duplas-pontos", 6, 9, "posterior-decisions"):
        obs = observation(m, m.turn)
        config = Config(posterior=2000)
        a = rate_actions(obs, random.Random(1), 0, 40, config)
        b = rate_actions(obs, random.Random(1), 0, 40, config)
        assert a == b
        assert {r.action for r in a} == set(m.legal_actions())
