"""The match-equity model the expert can value playouts by."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from carroca.bots.expert.equity import GOAL, K, goal_of, win_chance
from carroca.rules import RULESETS, get_ruleset

scores = st.integers(min_value=0, max_value=400)


@given(scores, scores, st.sampled_from([2, 6, 50, 100, 200]), st.floats(0.1, 20.0))
def test_the_chance_is_symmetric_and_decided_at_the_goal(a: int, b: int, goal: int,
                                                          k: float) -> None:
    p = win_chance(a, b, goal, k)
    assert 0.0 <= p <= 1.0
    assert p + win_chance(b, a, goal, k) == pytest.approx(1.0)
    if max(a, b) >= goal:  # decided, or level at or above the goal: another hand
        assert p == (1.0 if a > b else 0.0 if a < b else 0.5)
    elif a == b:
        assert p == 0.5


@given(st.integers(0, 199), st.integers(0, 199), st.integers(1, 50))
def test_more_points_never_lower_the_chance(a: int, b: int, more: int) -> None:
    k = K.get("duplas-pontos", 5.0)
    assert win_chance(a + more, b, 200, k) >= win_chance(a, b, 200, k)
    assert win_chance(a, b + more, 200, k) <= win_chance(a, b, 200, k)


def test_near_the_target_a_sure_hand_beats_a_bigger_gamble() -> None:
    """180 to 150 of 200: 20 points for sure win the match; 40 half of the time do not."""
    k = K["duplas-pontos"]
    sure = win_chance(200, 150, 200, k)
    gamble = (win_chance(220, 150, 200, k) + win_chance(180, 150, 200, k)) / 2
    assert sure == 1.0 > gamble
    # Far from the target the chance is nearly linear in the points.
    lo, mid, hi = (win_chance(20 + d, 20, 200, k) for d in (0, 20, 40))
    assert mid - lo == pytest.approx(hi - mid, rel=0.05)


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_every_ruleset_has_a_fitted_spread_and_its_default_goal(name: str) -> None:
    assert K[name] > 0
    assert goal_of(get_ruleset(name).default_options) == GOAL[name]
