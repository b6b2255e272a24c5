"""Random-playout invariants over thousands of hands of every ruleset.

Every step of every hand checks: the 28 tiles are all somewhere exactly once (hands, table,
boneyard), pips are conserved, every refused action leaves the state untouched, `push`/`pop`
restore it exactly, scores never go down, and a seat's observation shows no tile it cannot see.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from tests.support.scripted import deal_shuffled, fresh_deals

from carroca.rules import (
    ACTIONS,
    RULESETS,
    IllegalMove,
    Match,
    RulesError,
    observation,
)
from carroca.rules import tiles as T

HANDS_PER_RULESET = 3000


def fingerprint(m: Match) -> tuple[Any, ...]:
    return (
        m.phase,
        m.turn,
        tuple(m.hands),
        m.bone_pos,
        tuple(m.ends),
        tuple(m.mult),
        m.spinner,
        m.arms,
        tuple(m.table),
        tuple(m.steps),
        tuple(m.events),
        tuple(m.score),
        m.opener,
        m.opening_mask,
        m.pass_run,
        m.last_player,
        len(m.history),
        m.result,
        m.deal_index,
        m.hand_rule,
    )


def check_tiles(m: Match) -> None:
    on_table = [t for _, t, _ in m.table]
    in_hands = [t for h in m.hands for t in T.tiles_of(h)]
    in_boneyard = list(m.boneyard[m.bone_pos :])
    everything = on_table + in_hands + in_boneyard
    assert sorted(everything) == list(range(28)), "a tile is missing or doubled"
    assert sum(T.PIPS[t] for t in everything) == 168
    for a, b in zip(m.hands, m.hands[1:], strict=False):
        assert a & b == 0


def check_observation_hides(m: Match, seat: int | None) -> None:
    """Tiles named in a seat's view: its own, the table's, its own draws, revealed hands."""
    obs = observation(m, seat).to_dict()
    allowed = {T.NAMES[t] for _, t, _ in m.table}
    if seat is not None:
        allowed |= {T.NAMES[t] for t in T.tiles_of(m.hands[seat])}
    if obs["last_hand"]:
        allowed |= {name for hand in obs["last_hand"]["hands_left"] for name in hand}
    seen = set(obs["hand"]) | {s["tile"] for s in obs["steps"] if "tile" in s}
    seen |= {p["tile"] for p in obs["table"]}
    assert seen <= allowed, f"seat {seat} sees {seen - allowed}"
    if seat is None:
        assert obs["hand"] == []
    for st in obs["steps"]:  # another seat's draws never show the tile
        if st["type"] == "draw" and st["seat"] != seat:
            assert "tile" not in st


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(RULESETS))
def test_random_playouts(name: str) -> None:
    rng = random.Random(f"invariants-{name}")
    hands = 0
    checked_refusals = 0
    while hands < HANDS_PER_RULESET:
        m = Match(name)
        last_score = [0, 0]
        while not m.is_over:
            if m.needs_deal:
                deal_shuffled(m, rng)
                hands += 1
                check_tiles(m)
                continue
            legal = m.legal_actions()
            assert legal, "a seat to move always has an action"
            assert len(set(legal)) == len(legal)
            kinds = {a.kind for a in legal}
            assert len(kinds) == 1, "plays, draw, pass and the five-doubles choice never mix"
            if hands % 50 == 0:
                # refused actions change nothing, whatever they are
                before = fingerprint(m)
                for bad in rng.sample([a for a in ACTIONS if a not in legal], 6):
                    with pytest.raises(IllegalMove):
                        m.apply(bad)
                    checked_refusals += 1
                other = (m.turn + 1) % m.n
                with pytest.raises(IllegalMove):
                    m.apply(legal[0], other)
                assert fingerprint(m) == before
                # push/pop restores exactly
                m.push(rng.choice(legal))
                m.pop()
                assert fingerprint(m) == before
                for seat in [None, *range(m.n)]:
                    check_observation_hides(m, seat)
            m.apply(rng.choice(legal))
            check_tiles(m)
            assert all(s >= p for s, p in zip(m.score, last_score, strict=True))
            last_score = list(m.score)
        assert m.result is not None
        assert tuple(m.score) == m.result.score
        assert m.history[-1].score == m.result.score
    assert checked_refusals > 100


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_hands_end_properly(name: str) -> None:
    """Every finished hand ends by batida (an empty hand) or by a real block."""
    rng = random.Random(f"ends-{name}")
    for m in fresh_deals(name, rng, 300):
        while not m.needs_deal and not m.is_over:
            m.apply(rng.choice(m.legal_actions()))
        log = m.history[-1]
        if log.end.kind == "batida":
            assert m.hands[log.end.seat] == 0
        elif log.end.kind == "fechado":
            fits = 0
            for v in m.ends:
                if v >= 0:
                    fits |= T.NUMBER_MASK[v]
            assert all(h & fits == 0 for h in m.hands)
            assert not RULESETS[name].draws or m.bone_pos == len(m.boneyard)
            assert log.steps[-1].action.kind in ("play", "draw")
        else:
            assert log.end.kind == "redeal"


def test_game_over_refuses_everything() -> None:
    m = Match("classico")
    rng = random.Random(3)
    while not m.is_over:
        if m.needs_deal:
            deal_shuffled(m, rng)
        else:
            m.apply(rng.choice(m.legal_actions()))
    for a in ACTIONS[:10]:
        with pytest.raises(RulesError):
            m.apply(a)
    with pytest.raises(RulesError):
        m.deal(list(range(28)))


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_push_pop_whole_hand_and_copy(name: str) -> None:
    """Pushing every action of a hand and popping them all returns to the dealt position."""
    rng = random.Random(f"pushpop-{name}")
    for m in fresh_deals(name, rng, 100):
        start = fingerprint(m)
        clone = m.copy()
        played = []
        while not m.needs_deal and not m.is_over:
            action = rng.choice(m.legal_actions())
            played.append(action)
            m.push(action)
        end = fingerprint(m)
        assert end != start
        assert fingerprint(clone) == start, "a copy is independent of its original"
        for _ in played:
            m.pop()
        assert fingerprint(m) == start
        for action in played:  # the same actions on the copy reach the same end
            clone.apply(action)
        assert fingerprint(clone) == end


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_from_position_continues_like_the_real_hand(name: str) -> None:
    """A position rebuilt from hands, table and boneyard plays on exactly like the original."""
    rng = random.Random(f"position-{name}")
    checked = 0
    for m in fresh_deals(name, rng, 150):
        stop = rng.randrange(0, 30)
        while m.current_player is not None and len(m.steps) < stop:
            m.apply(rng.choice(m.legal_actions()))
        if m.current_player is None or m.phase.name != "PLAY":
            continue
        pass_run = m.pass_run
        rebuilt = Match.from_position(
            name,
            None,
            hands=m.hands,
            table=m.table,
            turn=m.turn,
            score=m.score,
            boneyard=m.boneyard[m.bone_pos :],
            pass_run=pass_run,
            opening_mask=m.opening_mask,
        )
        assert rebuilt.ends == m.ends and rebuilt.mult == m.mult
        assert (rebuilt.spinner, rebuilt.arms) == (m.spinner, m.arms)
        assert rebuilt.last_player == m.last_player
        if m.table:
            assert rebuilt.table_count() == m.table_count()
        while m.current_player is not None:
            legal = m.legal_actions()
            assert rebuilt.legal_actions() == legal
            action = rng.choice(legal)
            m.apply(action)
            rebuilt.apply(action)
        assert rebuilt.score == m.score
        assert rebuilt.history[-1].end == m.history[-1].end
        checked += 1
    assert checked > 50


@pytest.mark.parametrize("name", ["duplas-pontos", "pontos", "duplas-torneio"])
def test_count_after_predicts_the_table_count(name: str) -> None:
    rng = random.Random(f"count-{name}")
    for m in fresh_deals(name, rng, 300):
        while m.current_player is not None:
            for action in m.legal_actions():
                if action.kind == "play":
                    m.push(action)
                    expected = m.table_count()
                    m.pop()
                    assert m.count_after(action) == expected, (action, m.table)
            m.apply(rng.choice(m.legal_actions()))
