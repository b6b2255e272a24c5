"""The expert's bitmask playout plays and scores the rest of a hand exactly as the same policy
driven through `Match` does (`planner.match_crn_playout`, the reference), in every ruleset."""

from __future__ import annotations

import random
from typing import Any

import pytest
from tests.support.scripted import random_position

from carroca.bots.expert.planner import Config, match_crn_playout, rate_actions
from carroca.bots.expert.playout import crn_playout
from carroca.bots.expert.solver import Bounds
from carroca.rules import RULESETS, Action, Match, get_ruleset, observation

_OPTIONS: dict[str, dict[str, Any]] = {
    "duplas-torneio": {"capicu_bonus": 25, "count_partner": False},
    "pontos": {"hand_end_pips": True},
    "duplas-pontos": {"pass_points": 10, "galo_points": 30},
}


def _mid_hand(name: str, rng: random.Random, options: dict[str, Any] | None) -> Match:
    """A position past the opening, from random play, sometimes in a later hand: each step
    stops there with chance 1/15."""
    return random_position(name, rng, options, lambda m: rng.random() < 1 / 15)


def _after(m: Match, first: Action | None) -> Match:
    """A copy of `m` with the rated action played (the Match-driven reference's start)."""
    child = m.copy()
    if first is not None:
        child.apply(first)
    return child


@pytest.mark.parametrize("options", [False, True])
@pytest.mark.parametrize("name", sorted(RULESETS))
def test_the_bitmask_playout_equals_the_engine_driven_one(name: str, options: bool) -> None:
    rng = random.Random(f"playout-{name}-{options}")
    rs = get_ruleset(name)
    checked = solved = 0
    for _ in range(300):
        m = _mid_hand(name, rng, _OPTIONS.get(name) if options else None)
        # Integer noise makes ties common, so the order in which plays are tried is checked too.
        scale = rng.choice((0.0, 1.0, 3.0))
        noise = [float(rng.randrange(4)) * scale if scale < 3 else rng.random() * scale
                 for _ in range(m.n * 32)]
        keep = rng.choice((0.0, 1.5))
        double = rng.choice((0.0, 2.0))
        table_points = rs.table_points if rng.random() < 0.8 else not rs.table_points
        team = rng.randrange(2)
        before = (list(m.hands), list(m.ends), list(m.mult), list(m.score), m.turn, m.bone_pos,
                  m.pass_run, m.spinner, m.arms, len(m.steps))
        plays = [a for a in m.legal_actions() if a.kind == "play"]
        first = rng.choice(plays) if plays and rng.random() < 0.5 else None
        # Sometimes the playout ends in an exact solve; played again with the solver's table
        # of the first, it gives the same value.
        exact_at = rng.choice((0, 0, 4, 7))
        table: Bounds = {}
        fast, again = (crn_playout(m, team, noise, keep, double, table_points,
                                   None if first is None else (first.tile, first.end), None,
                                   None, exact_at, table) for _ in range(2))
        assert again == fast
        assert (list(m.hands), list(m.ends), list(m.mult), list(m.score), m.turn, m.bone_pos,
                m.pass_run, m.spinner, m.arms, len(m.steps)) == before  # `m` left as it was
        slow = match_crn_playout(_after(m, first), team, noise, keep, double, table_points,
                                 exact_at)
        assert fast == slow, (name, [s.action for s in m.steps], first, exact_at)
        checked += 1
        solved += exact_at > 0 and fast != match_crn_playout(
            _after(m, first), team, noise, keep, double, table_points)
    assert checked == 300
    # The exact ends changed some playouts' values (in classico a hand is worth 1 either way).
    assert solved >= 3 or name == "classico"


@pytest.mark.parametrize("playout_exact", [0, 6])
@pytest.mark.parametrize("name", sorted(RULESETS))
def test_the_expert_rates_alike_with_either_playout(name: str, playout_exact: int) -> None:
    """Whole decisions (worlds dealt, weighed, raced, deferred): the same ratings, the same
    worlds, whether playouts run on bitmasks or through `Match` (and solve their ends exactly
    with one table for the decision, or with a search per playout)."""
    rng = random.Random(f"rate-{name}")
    rated = 0
    while rated < 12:
        m = _mid_hand(name, rng, None)
        if len(m.legal_actions()) < 2:
            continue
        obs = observation(m, m.turn)
        fast = rate_actions(obs, random.Random(rated), 0, 24, Config(playout_exact=playout_exact))
        slow = rate_actions(obs, random.Random(rated), 0, 24,
                            Config(bitmask=False, playout_exact=playout_exact))
        assert fast == slow
        rated += 1
