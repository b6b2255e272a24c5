"""The OpenSpiel duel's adapter: mirrored positions, action ids, scoring and the resampler.

OpenSpiel is not a carroca dependency, so the adapter is checked against carroca's own engine
playing OpenSpiel's rules; the last test, against OpenSpiel itself, runs only where it is
installed (the bench environment).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest

from bench import openspiel_duel as duel
from carroca.rules import RULESETS, Match, observation
from carroca.rules import tiles as T
from carroca.rules.actions import OPENING


@pytest.fixture
def openspiel_rules() -> Iterator[str]:
    """The run-time ruleset, removed afterwards so other tests see the stock registry."""
    added = duel.OPENSPIEL_RULESET not in RULESETS
    name, _ = duel.expert_rules("openspiel")
    yield name
    if added:
        del RULESETS[name]


def openspiel_returns(hands: list[T.Mask]) -> list[float]:
    """`DominoesState.returns` of OpenSpiel's team dominoes, restated on carroca masks."""
    team0 = T.pips_of(hands[0]) + T.pips_of(hands[2])
    team1 = T.pips_of(hands[1]) + T.pips_of(hands[3])
    if team0 == team1:
        return [0.0] * 4
    if team1 > team0:
        return [team1, -team1, team1, -team1]
    return [-team0, team0, -team0, team0]


def random_hands(rng: random.Random) -> list[T.Mask]:
    order = list(range(T.TILE_COUNT))
    rng.shuffle(order)
    return [T.mask_of(order[7 * s : 7 * s + 7]) for s in range(4)]


def opening_match(ruleset: str, hands: list[T.Mask]) -> Match:
    """OpenSpiel's start in carroca's engine: seat 0 leads with any tile."""
    rs = RULESETS[ruleset]
    return Match.from_position(
        rs, rs.make_options({"count_partner": False}), hands=hands, table=[], turn=0,
        score=(0, 0),
    )


def openspiel_ids(m: Match, seat: int) -> set[int]:
    """The seat's legal moves in carroca's engine, as OpenSpiel action ids."""
    return {
        duel.ACTION_ID[(seat, a.tile, duel.LEAD if a.end == OPENING else m.ends[a.end])]
        for a in m.legal_actions()
    }


def play_out(
    m: Match, rng: random.Random
) -> Iterator[tuple[int, list[duel.Play]]]:
    """Random play; yields (seat, OpenSpiel's record so far) before every play (not passes)."""
    plays: list[duel.Play] = []
    while m.current_player is not None:
        seat = m.turn
        legal = m.legal_actions()
        if legal[0].kind == "pass":
            m.apply(legal[0])
            continue
        yield seat, list(plays)
        action = rng.choice(legal)
        edge = duel.LEAD if action.end == OPENING else m.ends[action.end]
        plays.append((seat, action.tile, edge))
        m.apply(action)


def test_action_ids_follow_openspiel_layout() -> None:
    assert len(duel.ACTION_PLAY) == 308  # the game's num_distinct_actions
    assert duel.ACTION_ID[(0, T.parse("0-0"), duel.LEAD)] == 0
    assert duel.ACTION_ID[(0, T.parse("0-0"), 0)] == 1
    assert duel.ACTION_ID[(0, T.parse("0-1"), duel.LEAD)] == 2
    assert duel.ACTION_ID[(0, T.parse("0-1"), 1)] == 4
    assert duel.ACTION_ID[(1, T.parse("0-0"), duel.LEAD)] == 77
    assert duel.ACTION_ID[(3, T.parse("6-6"), 6)] == 307


def test_skips_become_passes_and_exclusions() -> None:
    # 0 leads 6-6, 1 and 2 hold no six, 3 plays 5-6, then 0, 1 and 2 are skipped and 3 again.
    six_six, five_six, five_five = T.parse("6-6"), T.parse("5-6"), T.parse("5-5")
    plays = [(0, six_six, duel.LEAD), (3, five_six, 6), (3, five_five, 5)]
    public = duel.read_public(plays, 0)
    kinds = [(s.seat, s.kind) for s in public.steps]
    assert kinds == [
        (0, "play"), (1, "pass"), (2, "pass"), (3, "play"),
        (0, "pass"), (1, "pass"), (2, "pass"), (3, "play"),
    ]
    sixes, fives = T.NUMBER_MASK[6], T.NUMBER_MASK[5]
    assert public.excluded == (sixes | fives, sixes | fives, sixes | fives, 0)
    assert public.sizes == (6, 7, 7, 5)


def test_mirror_agrees_with_carroca(openspiel_rules: str) -> None:
    """The view built from OpenSpiel's record equals carroca's own observation of the hand."""
    rng = random.Random("mirror")
    for _ in range(150):
        hands = random_hands(rng)
        m = opening_match(openspiel_rules, hands)
        for seat, plays in play_out(m, rng):
            public = duel.read_public(plays, seat)
            view = duel.expert_observation(
                openspiel_rules, {}, seat, m.hands[seat], public
            )
            truth = observation(m, seat)
            assert view.hand == truth.hand
            assert view.hand_sizes == truth.hand_sizes
            assert [(s.seat, s.kind, s.tile) for s in view.steps] == [
                (s.seat, s.kind, s.tile) for s in truth.steps
            ]
            # Where both ends show one number the mirror may use the other end: same numbers.
            assert sorted(view.ends.values()) == sorted(truth.ends.values())
            mirrored = {duel.to_openspiel(a, seat, public) for a in view.legal}
            assert mirrored == openspiel_ids(m, seat)


def test_openspiel_rules_score_like_openspiel(openspiel_rules: str) -> None:
    rng = random.Random("scoring")
    seen_heavy_partner = False
    for _ in range(400):
        m = opening_match(openspiel_rules, random_hands(rng))
        for _seat, _plays in play_out(m, rng):
            pass
        returns = openspiel_returns(m.hands)
        assert m.score[0] - m.score[1] == returns[0]
        log = m.history[-1]
        if log.end.kind == "batida" and log.end.winner not in (None, log.end.seat % 2):
            seen_heavy_partner = True
    assert seen_heavy_partner  # dominoing with a heavy partner loses, as in OpenSpiel


def fake_state(hands: list[T.Mask], plays: list[duel.Play], turn: int, legal: list[int]) -> Any:
    """The parts of OpenSpiel's `DominoesState` the adapter reads."""
    history = [
        SimpleNamespace(player=s, tile=duel.OS_TILE[t], edge=None if e < 0 else float(e))
        for s, t, e in plays
    ]
    return SimpleNamespace(
        actions_history=history,
        hands=[[duel.OS_TILE[t] for t in T.iter_tiles(h)] for h in hands],
        current_player=lambda: turn,
        legal_actions=lambda: legal,
        history=lambda: [],
    )


def test_expert_sees_only_its_own_tiles(openspiel_rules: str) -> None:
    """Re-dealing the other seats' hidden tiles never changes the expert's move."""
    rng = random.Random("hidden")
    checked = 0
    for _ in range(12):
        m = opening_match(openspiel_rules, random_hands(rng))
        for seat, plays in play_out(m, rng):
            if len(m.legal_actions()) < 2 or rng.random() < 0.5:
                continue
            public = duel.read_public(plays, seat)
            legal = sorted(openspiel_ids(m, seat))
            moves = set()
            for world in range(3):
                hands = duel.UnseenDeal(seat, m.hands[seat], public).sample(
                    random.Random(world)
                )
                expert = duel.ExpertSeat(seed=7, think_ms=0, rules="openspiel")
                moves.add(expert.step(fake_state(hands, plays, seat, legal)))
            assert len(moves) == 1
            assert moves.pop() in legal
            checked += 1
    assert checked > 20


def consistent_deals(seat: int, own: T.Mask, public: duel.Public) -> set[tuple[int, ...]]:
    """Every deal of the unseen tiles that honours sizes and skips, by brute force."""
    on_table = T.mask_of(t for _, t, _ in public.table)
    unseen = list(T.iter_tiles(T.ALL_TILES & ~(own | on_table)))
    others = [s for s in range(4) if s != seat]
    out = set()
    for owners in itertools.product(others, repeat=len(unseen)):
        hands = [0] * 4
        hands[seat] = own
        for t, s in zip(unseen, owners, strict=True):
            hands[s] |= T.BIT[t]
        if all(
            hands[s].bit_count() == public.sizes[s] and not hands[s] & public.excluded[s]
            for s in others
        ):
            out.add(tuple(hands))
    return out


def test_unseen_deal_is_uniform_over_consistent_deals(openspiel_rules: str) -> None:
    rng = random.Random("uniform")
    cases = 0
    while cases < 6:
        m = opening_match(openspiel_rules, random_hands(rng))
        for seat, plays in play_out(m, rng):
            public = duel.read_public(plays, seat)
            unseen = T.TILE_COUNT - m.hands[seat].bit_count() - len(public.table)
            if unseen > 8 or not any(public.excluded):
                continue
            deals = consistent_deals(seat, m.hands[seat], public)
            if len(deals) > 40:
                continue
            dealer = duel.UnseenDeal(seat, m.hands[seat], public)
            assert dealer.deals == len(deals)
            assert tuple(m.hands) in deals  # the true deal is among them
            draws = 400 * len(deals)
            counts = Counter(tuple(dealer.sample(rng)) for _ in range(draws))
            assert set(counts) <= deals
            if len(deals) > 1:
                assert set(counts) == deals
                assert max(counts.values()) < 1.5 * draws / len(deals)
                assert min(counts.values()) > 0.5 * draws / len(deals)
            cases += 1
            break


def test_unseen_deal_honours_skips_early_and_late(openspiel_rules: str) -> None:
    rng = random.Random("skips")
    for _ in range(60):
        m = opening_match(openspiel_rules, random_hands(rng))
        for seat, plays in play_out(m, rng):
            public = duel.read_public(plays, seat)
            dealer = duel.UnseenDeal(seat, m.hands[seat], public)
            for _ in range(5):
                hands = dealer.sample(rng)
                assert hands[seat] == m.hands[seat]
                on_table = T.mask_of(t for _, t, _ in public.table)
                assert sum(h.bit_count() for h in hands) + len(public.table) == 28
                assert not any(h & on_table for h in hands)
                for s in range(4):
                    assert hands[s].bit_count() == public.sizes[s]
                    if s != seat:
                        assert not hands[s] & public.excluded[s]


def test_against_openspiel_itself(openspiel_rules: str) -> None:
    """Ids, legal moves, resampled worlds and returns against the real game (bench venv)."""
    pytest.importorskip("pyspiel")
    game = duel.load_game()
    rng = random.Random("openspiel")
    for hand in range(40):
        state = game.new_initial_state()
        duel.deal(state, rng)
        resampler = duel.Resampler(hand)
        while not state.is_terminal():
            seat = state.current_player()
            public = duel.read_public(duel.plays_of(state), seat)
            own = duel.hand_mask(state, seat)
            view = duel.expert_observation(openspiel_rules, {}, seat, own, public)
            legal = state.legal_actions()
            assert {duel.to_openspiel(a, seat, public) for a in view.legal} == set(legal)
            for action in legal:
                p, t, e = duel.ACTION_PLAY[action]
                edge = "None" if e < 0 else f"{float(e)}"
                assert state.action_to_string(seat, action) == (
                    f"p{p} tile:{duel.OS_TILE[t]} pip:{edge}"
                )
            world = resampler(state, seat)
            assert world.information_state_string() == state.information_state_string()
            for s in range(4):
                held = duel.hand_mask(world, s)
                assert held.bit_count() == public.sizes[s]
                if s != seat:
                    assert not held & public.excluded[s]
            state.apply_action(rng.choice(legal))
        hands = [duel.hand_mask(state, s) for s in range(4)]
        assert list(state.returns()) == openspiel_returns(hands)
