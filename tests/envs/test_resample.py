"""Deals consistent with one seat's knowledge: the seat's own tiles and draws stay, the hand
replays on the new deal, and the unseen tiles really move (the real deal is not handed back)."""

from __future__ import annotations

import random

import pytest
from tests.support.scripted import order_from_hands, seats

from carroca.envs.resample import sample_deal
from carroca.rules import RULESETS, Match
from carroca.rules import tiles as T


def _check(start: Match, order: list[int], match: Match, viewer: int, rng: random.Random) -> bool:
    """One sampled deal, checked; whether another seat's tiles changed."""
    new = sample_deal(start, order, match.steps, viewer, rng)
    assert sorted(new) == list(range(T.TILE_COUNT))
    n = match.n
    assert new[7 * viewer : 7 * viewer + 7] == tuple(order[7 * viewer : 7 * viewer + 7])
    draws = [i for i, s in enumerate(match.steps) if s.action.kind == "draw"]
    for k, i in enumerate(draws):
        if match.steps[i].seat == viewer:
            assert new[7 * n + k] == order[7 * n + k]
    replay = start.copy()
    replay.deal(new)
    for step in match.steps:
        replay.apply(step.action, step.seat)
    assert replay.current_player == match.current_player
    assert replay.hands[viewer] == match.hands[viewer]
    assert replay.table == match.table
    return replay.hands != match.hands


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_sampled_deals_replay_the_hand(ruleset: str) -> None:
    rng = random.Random(ruleset)
    moved = 0
    for _ in range(4):
        match = Match(ruleset)
        while not match.is_over and match.hand_number < 2:
            start = match.copy()
            order = rng.sample(range(T.TILE_COUNT), T.TILE_COUNT)
            match.deal(order)
            while not (match.needs_deal or match.is_over):
                moved += _check(start, order, match, rng.randrange(match.n), rng)
                match.apply(rng.choice(match.legal_actions()))
    assert moved > 0


def test_the_seat_that_chose_cinco_carrocas_keeps_five_doubles() -> None:
    # Seat 2 is dealt five doubles and keeps the points; seat 1 holds 6-6 and opens.
    hands = seats(
        "0-1 0-2 0-3 0-4 0-5 0-6 1-2",
        "6-6 1-3 1-4 1-5 1-6 2-3 2-4",
        "0-0 1-1 2-2 3-3 4-4 2-5 2-6",
        "5-5 3-4 3-5 3-6 4-5 4-6 5-6",
    )
    order = order_from_hands(hands)
    match = Match("duplas-pontos")
    start = match.copy()
    match.deal(order)
    match.apply(match.legal_actions()[0])  # five-doubles:points
    match.apply(match.legal_actions()[0])  # 6-6
    rng = random.Random(3)
    for viewer in (0, 3):
        for _ in range(20):
            new = sample_deal(start, order, match.steps, viewer, rng)
            chooser = new[14:21]
            assert sum(T.IS_DOUBLE[t] for t in chooser) >= 5
            assert T.DOUBLE_OF[6] in new[7:14]  # who opened with 6-6 is public
