"""A seat's view survives JSON: what a bot worker on another machine reads is the view the
server took (`Observation.from_dict(to_dict())`), for every seat at every step of random
matches of every ruleset."""

from __future__ import annotations

import json
import random

import pytest

from carroca import fair
from carroca.rules import RULESETS, Match, get_ruleset, observation
from carroca.rules.observation import Observation


@pytest.mark.parametrize("name", list(RULESETS))
def test_every_view_round_trips_through_json(name: str) -> None:
    rs = get_ruleset(name)
    checked = 0
    for game in range(3):
        match, rng = Match(rs, rs.make_options({})), random.Random(game)
        while not match.is_over:
            while match.needs_deal:
                match.deal(fair.shuffle("a" * 64, f"json-{game}", match.deal_index))
            if match.is_over:
                break
            for seat in (*range(match.n), None):
                view = observation(match, seat)
                again = Observation.from_dict(json.loads(json.dumps(view.to_dict())))
                assert again == view
                checked += 1
            seat = match.current_player
            match.apply(rng.choice(observation(match, seat).legal), seat)
    assert checked > 100
