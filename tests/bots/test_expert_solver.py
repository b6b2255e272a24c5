"""The expert's bitmask endgame solver gives `search.alphabeta`'s values (the reference, driven
through `Match`) in every ruleset, for the position, for each first play and for another world
of the same position, and leaves the match untouched."""

from __future__ import annotations

import random
from typing import Any

import pytest
from tests.support.scripted import random_position

from carroca.bots.expert import planner
from carroca.bots.expert.planner import Config, exact_tiles, rate_actions
from carroca.bots.expert.search import Table, alphabeta
from carroca.bots.expert.solver import Bounds, solve
from carroca.bots.medium import MediumBot
from carroca.rules import RULESETS, Match, get_ruleset, observation
from carroca.rules import tiles as T

_OPTIONS: dict[str, dict[str, Any]] = {  # other options than the defaults, where they score
    "duplas-torneio": {"capicu_bonus": 25, "count_partner": False},
    "pontos": {"hand_end_pips": True},
    "duplas-pontos": {"pass_points": 10, "galo_points": 30},
}


def _endgame(name: str, rng: random.Random, options: dict[str, Any] | None,
             most: int) -> Match:
    """A position past the opening with nothing to draw and at most `most` tiles in hands."""
    draws = get_ruleset(name).draws
    return random_position(name, rng, options, lambda m: (
        not (draws and m.bone_pos < len(m.boneyard))
        and sum(h.bit_count() for h in m.hands) <= most))


def _other_world(m: Match, rng: random.Random) -> list[int]:
    """The same tiles dealt again to the same hand sizes."""
    tiles = [t for h in m.hands for t in T.tiles_of(h)]
    rng.shuffle(tiles)
    hands, at = [], 0
    for h in m.hands:
        size = h.bit_count()
        hands.append(T.mask_of(tiles[at:at + size]))
        at += size
    return hands


@pytest.mark.parametrize("options", [False, True])
@pytest.mark.parametrize("name", sorted(RULESETS))
def test_the_bitmask_solver_equals_the_engine_driven_one(name: str, options: bool) -> None:
    rng = random.Random(f"solver-{name}-{options}")
    for _ in range(40):
        m = _endgame(name, rng, _OPTIONS.get(name) if options else None, rng.choice((6, 9, 11)))
        team = rng.randrange(2)
        before = (list(m.hands), list(m.ends), list(m.mult), list(m.score), m.turn, m.pass_run,
                  m.spinner, m.arms, len(m.steps))
        mine: Bounds = {}  # one table for the actions and the worlds, as the search has it
        for hands in (None, _other_world(m, rng), _other_world(m, rng)):
            world = m
            if hands is not None:
                world = m.copy()
                world.hands = list(hands)
            assert solve(m, team, hands=hands) == alphabeta(world.copy(), team, -1e9, 1e9)
            theirs: Table = {}
            for action in world.legal_actions():
                child = world.copy()
                child.apply(action)
                want = alphabeta(child, team, -1e9, 1e9, theirs)
                if action.kind != "play":
                    continue
                assert solve(m, team, (action.tile, action.end), hands, mine) == want, action
        assert (list(m.hands), list(m.ends), list(m.mult), list(m.score), m.turn, m.pass_run,
                m.spinner, m.arms, len(m.steps)) == before


def test_open_spinner_arms_and_mirrored_ends_are_solved_alike() -> None:
    """duplas-pontos early in a hand (the spinner's arms still open, both ends or both of its
    arms showing the same number), hands cut down to a few tiles each so that it can be solved:
    the positions natural endgames rarely reach, where ends that mirror each other are skipped
    and where they must not be."""
    rng = random.Random("spinner-arms")
    seen = {"arms open": 0, "mirrored": 0, "up and down": 0}
    while min(seen.values()) < 8 or sum(seen.values()) < 60:
        m = random_position("duplas-pontos", rng, None, lambda m: rng.random() < 0.3)
        for seat, hand in enumerate(m.hands):
            tiles = T.tiles_of(hand)
            rng.shuffle(tiles)
            m.hands[seat] = T.mask_of(tiles[:rng.randint(1, 3)])
        plays = [a for a in m.legal_actions() if a.kind == "play"]
        if not plays:
            continue
        e0, e1, e2, e3 = m.ends
        seen["arms open"] += m.spinner >= 0
        seen["mirrored"] += e0 == e1 and m.mult[0] == m.mult[1] and (m.spinner < 0 or not m.arms)
        seen["up and down"] += e2 >= 0 and e2 == e3 and m.mult[2] == m.mult[3]
        team = rng.randrange(2)
        assert solve(m, team) == alphabeta(m.copy(), team, -1e9, 1e9)
        mine: Bounds = {}
        for action in plays:
            child = m.copy()
            child.apply(action)
            assert solve(m, team, (action.tile, action.end), None, mine) == alphabeta(
                child, team, -1e9, 1e9), action


def test_a_hand_with_tiles_to_draw_is_refused() -> None:
    m = Match("mano-a-mano")
    m.deal(list(range(28)))
    while m.opening_mask >= 0:
        m.apply(m.legal_actions()[0])
    with pytest.raises(ValueError, match="nothing left to draw"):
        solve(m, 0)


@pytest.mark.parametrize("kept", [planner.EXACT_TABLE, 0])
@pytest.mark.parametrize("name", sorted(RULESETS))
def test_the_expert_rates_exact_decisions_alike_with_either_solver(
    name: str, kept: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whole exact decisions (worlds dealt, weighed, raced): the same ratings whether the worlds
    are solved on bitmasks (one table for all worlds, or started afresh at every world) or
    through `Match`, up to the ruleset's own threshold."""
    monkeypatch.setattr(planner, "EXACT_TABLE", kept)
    rng = random.Random(f"exact-{name}")
    most = exact_tiles(Config(), name)
    for i in range(8):
        m = _endgame(name, rng, None, most - rng.randrange(3))
        if len(m.legal_actions()) < 2:
            continue
        obs = observation(m, m.turn)
        fast = rate_actions(obs, random.Random(i), 0, 12, Config())
        slow = rate_actions(obs, random.Random(i), 0, 12, Config(bitmask=False))
        assert fast == slow


@pytest.mark.parametrize(("name", "settings", "expected"), [
    ("duplas-torneio", {}, 40),  # its measured cap
    ("duplas-torneio", {"exact_worlds": 0}, 64),  # no cap: the decision's own budget
    ("duplas-torneio", {"exact_worlds": 24}, 24),
    ("duplas-torneio", {"exact_scale": 2.0}, 40),  # scaled, then capped
    ("duplas-torneio", {"exact_scale": 2.0, "exact_worlds": 0}, 128),
    ("duplas-pontos", {}, 80),  # its measured scale, no cap
    ("duplas-pontos", {"exact_scale": 1.0}, 64),  # the decision's own budget
    ("duplas-pontos", {"exact_worlds": 50}, 50),
])
def test_an_exact_decision_plays_the_scaled_and_capped_worlds(
    name: str, settings: dict[str, float], expected: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(planner.EXACT_WORLDS, "duplas-torneio", 40)
    monkeypatch.setitem(planner.EXACT_SCALE, "duplas-pontos", 1.25)
    rng = random.Random(f"cap-{name}")
    while True:
        m = _endgame(name, rng, None, 8)
        if len([a for a in m.legal_actions() if a.kind == "play"]) >= 2:
            break
    config = Config(race=0, **settings)  # no racing: every action gets every world
    rated = rate_actions(observation(m, m.turn), random.Random(1), 0, 64, config)
    assert {r.worlds for r in rated} == {expected}


@pytest.mark.slow
def test_exact_decisions_defer_to_medium_only_when_asked() -> None:
    """`defer_exact`: an exact decision keeps `medium`'s move unless an action beats it surely
    (here never: 1,000 standard errors); by default it plays the best mean, whatever `medium`
    would do, so some decisions differ."""
    rng = random.Random("defer-exact")
    differs = 0
    for i in range(30):
        m = _endgame("duplas-pontos", rng, None, 10)
        if len([a for a in m.legal_actions() if a.kind == "play"]) < 2:
            continue
        obs = observation(m, m.turn)
        favourite = MediumBot().choose(obs)
        kept = rate_actions(obs, random.Random(i), 0, 16, Config(race=0, defer_exact=1000.0))
        assert kept[0].action == favourite
        best = rate_actions(obs, random.Random(i), 0, 16, Config(race=0))
        assert best[0].value == max(r.value for r in best)
        differs += best[0].action != favourite
    assert differs > 0
