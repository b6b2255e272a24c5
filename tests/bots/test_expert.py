"""Both experts (`expert`, `expert-1`): legal moves only, exact endgames, no hidden information."""

from __future__ import annotations

import random
from typing import Any

import pytest
from tests.support.scripted import deal_shuffled

from carroca.bots import make_bot
from carroca.bots.expert import ExpertBot, FlatExpertBot
from carroca.bots.expert.knowledge import read
from carroca.bots.expert.sampler import deal, sample
from carroca.bots.expert.search import Table, alphabeta, position_key
from carroca.rules import RULESETS, Match, get_ruleset, observation
from carroca.rules import tiles as T

EXPERTS = [ExpertBot, FlatExpertBot]


def random_positions(name: str, count: int, seed: str) -> list[Match]:
    rng = random.Random(seed)
    out: list[Match] = []
    while len(out) < count:
        m = Match(name)
        deal_shuffled(m, rng)
        stop = rng.randrange(0, 40)
        while m.current_player is not None and len(m.steps) < stop:
            m.apply(rng.choice(m.legal_actions()))
        if m.current_player is not None:
            out.append(m)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("level", EXPERTS)
@pytest.mark.parametrize("name", sorted(RULESETS))
def test_expert_plays_legal_moves(name: str, level: type[ExpertBot]) -> None:
    bot = level(seed=1, think_ms=0)
    for m in random_positions(name, 400, f"legal-{name}"):
        obs = observation(m, m.turn)
        action = bot.choose(obs)
        assert action in m.legal_actions()
        m.apply(action, m.turn)


@pytest.mark.parametrize("dealer", [sample, deal], ids=["sample", "deal"])
@pytest.mark.parametrize("name", sorted(RULESETS))
def test_samples_respect_what_the_seat_knows(name: str, dealer: Any) -> None:
    rng = random.Random(name)
    rs = RULESETS[name]
    for m in random_positions(name, 80, f"sample-{name}"):
        seat = m.turn
        k = read(observation(m, seat), rs.spinner)
        # the real hands are one of the worlds: every real tile respects the exclusions
        for s in range(m.n):
            if s != seat and k.free[s] == 0:
                assert m.hands[s] & k.excluded[s] == 0, (s, m.steps)
        for _ in range(5):
            hands, boneyard = dealer(k, rng)
            assert hands[seat] == m.hands[seat]
            assert [h.bit_count() for h in hands] == [h.bit_count() for h in m.hands]
            everything = T.mask_of(boneyard)
            for h in hands:
                assert everything & h == 0
                everything |= h
            everything |= T.mask_of(t for _, t, _ in m.table)
            assert everything == T.ALL_TILES
            for s in range(m.n):
                if s != seat and k.free[s] == 0:
                    assert hands[s] & k.excluded[s] == 0


@pytest.mark.parametrize("name", ["duplas-torneio", "pontos"])
def test_the_fast_deal_has_the_samplers_distribution(name: str) -> None:
    """`deal` (the new expert's) and `sample` (expert-1's) give each hidden tile to each seat
    equally often, passes and draws honoured, on positions where some seats lack numbers."""
    rs = RULESETS[name]
    checked = 0
    for m in random_positions(name, 60, f"deal-{name}"):
        k = read(observation(m, m.turn), rs.spinner)
        if not any(k.excluded[s] for s in range(m.n) if s != m.turn):
            continue
        counts = []
        for dealer, seed in ((sample, 1), (deal, 2)):
            rng = random.Random(seed)
            seen = [[0] * T.TILE_COUNT for _ in range(m.n)]
            for _ in range(2000):
                hands, _boneyard = dealer(k, rng)
                for s in range(m.n):
                    for t in T.iter_tiles(hands[s]):
                        seen[s][t] += 1
            counts.append(seen)
        for s in range(m.n):
            for t in k.unseen:
                a, b = counts[0][s][t] / 2000, counts[1][s][t] / 2000
                assert abs(a - b) < 0.06, (name, s, t, a, b)
        checked += 1
        if checked == 4:
            break
    assert checked == 4


def _exact(m: Match, team: int) -> int:
    """Plain minimax to the end of the hand (the test's own, no pruning)."""
    if m.current_player is None:
        return m.score[team] - m.score[1 - team]
    values = []
    for a in list(m.legal_actions()):
        m.push(a)
        values.append(_exact(m, team))
        m.pop()
    return max(values) if m.turn % 2 == team else min(values)


def perfect_information_endgames(count: int) -> list[Match]:
    """mano-a-mano with the boneyard drawn dry: the opponent's hand is all the unseen tiles."""
    rng = random.Random("endgames")
    found: list[Match] = []
    while len(found) < count:
        m = Match("mano-a-mano")
        deal_shuffled(m, rng)
        while m.current_player is not None:
            legal = m.legal_actions()
            plays = [a for a in legal if a.kind == "play"]
            small = sum(h.bit_count() for h in m.hands) <= 8
            if m.bone_pos == len(m.boneyard) and len(plays) >= 2 and small:
                team = m.turn
                values = set()
                for a in list(legal):
                    m.push(a)
                    values.add(_exact(m, team))
                    m.pop()
                if len(values) > 1:
                    found.append(m.copy())
                    break
            m.apply(rng.choice(legal))
    return found


@pytest.mark.parametrize("level", EXPERTS)
def test_expert_finds_the_best_move_in_exact_endgames(level: type[ExpertBot]) -> None:
    bot = level(seed=3, think_ms=0)
    for m in perfect_information_endgames(25):
        team = m.turn
        best = -10**9
        values = {}
        for a in list(m.legal_actions()):
            m.push(a)
            values[a] = _exact(m, team)
            m.pop()
            best = max(best, values[a])
        choice = bot.choose(observation(m, m.turn))
        assert values[choice] == best, (choice, values)


@pytest.mark.parametrize("level", EXPERTS)
def test_expert_takes_a_lock_that_wins_on_count(level: type[ExpertBot]) -> None:
    """Endgames where locking the table now wins on count: the expert locks."""
    bot = level(seed=4, think_ms=0)
    locks = 0
    for m in perfect_information_endgames(40):
        mover = m.turn
        winning_locks = []
        values = {}
        for a in list(m.legal_actions()):
            m.push(a)
            values[a] = _exact(m, mover)
            log = m.history[-1] if m.current_player is None else None
            if log is not None and log.end.kind == "fechado" and log.end.winner == mover:
                winning_locks.append(a)
            m.pop()
        if not any(values[a] == max(values.values()) for a in winning_locks):
            continue  # only where locking now is the best there is
        choice = bot.choose(observation(m, mover))
        m.apply(choice)
        assert m.current_player is None and m.history[-1].end.winner == mover, choice
        locks += 1
    assert locks >= 3


@pytest.mark.parametrize("level", EXPERTS)
def test_decisions_do_not_depend_on_hidden_tiles(level: type[ExpertBot]) -> None:
    """Same public position and own hand, other hands dealt differently: same choice and values."""
    rng = random.Random("hidden")
    checked = 0
    for m in random_positions("duplas-pontos", 60, "hidden-positions"):
        seat = m.turn
        if len(m.legal_actions()) < 2 or m.opening_mask >= 0:
            continue
        others = [s for s in range(4) if s != seat]
        hidden = [t for s in others for t in T.tiles_of(m.hands[s])]
        rng.shuffle(hidden)
        hands = list(m.hands)
        start = 0
        for s in others:
            size = m.hands[s].bit_count()
            hands[s] = T.mask_of(hidden[start : start + size])
            start += size
        twin = Match.from_position(
            "duplas-pontos", None, hands=hands, table=m.table, turn=seat, score=m.score
        )
        real = Match.from_position(
            "duplas-pontos", None, hands=m.hands, table=m.table, turn=seat, score=m.score
        )
        a = level(seed=9, think_ms=0).evaluate(observation(real, seat))
        b = level(seed=9, think_ms=0).evaluate(observation(twin, seat))
        assert a == b
        checked += 1
    assert checked > 20


@pytest.mark.parametrize("level", ["expert", "expert-1"])
def test_registered_and_seeded(level: str) -> None:
    m = random_positions("duplas-torneio", 1, "reg")[0]
    obs = observation(m, m.turn)
    one = make_bot(level, 5, 0).evaluate(obs)  # type: ignore[attr-defined]
    two = make_bot(level, 5, 0).evaluate(obs)  # type: ignore[attr-defined]
    assert one == two


def _endgames(name: str, count: int, seed: str, tiles: int,
              options: dict[str, Any] | None = None) -> list[Match]:
    """Positions with nothing to draw and at most `tiles` in hands, some in a later hand (a
    score already on the board, a saída by the last winner)."""
    rng = random.Random(seed)
    out: list[Match] = []
    while len(out) < count:
        m = Match(name, get_ruleset(name).make_options(options) if options else None)
        for _ in range(rng.choice((1, 2))):
            if m.is_over:
                break
            deal_shuffled(m, rng)
            while m.current_player is not None and not (
                    m.boneyard_left == 0 and sum(h.bit_count() for h in m.hands) <= tiles):
                m.apply(rng.choice(m.legal_actions()))
            if m.current_player is not None and len(out) < count:
                out.append(m.copy())
            while m.current_player is not None:
                m.apply(rng.choice(m.legal_actions()))
    return out


_OPTIONS: dict[str, dict[str, Any]] = {
    "duplas-torneio": {"capicu_bonus": 25, "count_partner": False},
    "pontos": {"hand_end_pips": True},
    "duplas-pontos": {"always_six_six": True},
}


@pytest.mark.parametrize("options", [False, True])
@pytest.mark.parametrize("name", sorted(RULESETS))
def test_a_position_key_fixes_what_the_rest_of_the_hand_is_worth(name: str,
                                                                 options: bool) -> None:
    """Every position of small endgames, reached by any order of plays: positions with one key
    have one value still to come (the final score difference minus the one at the position)."""
    seen: dict[tuple[int, ...], set[float]] = {}
    paths: dict[tuple[int, ...], set[tuple[Any, ...]]] = {}

    def walk(m: Match, team: int, path: tuple[Any, ...]) -> None:
        if m.current_player is None:
            return
        legal = list(m.legal_actions())
        if len(legal) > 1:
            key = (team, *position_key(m))  # values are from one team's side
            here = m.score[team] - m.score[1 - team]
            seen.setdefault(key, set()).add(alphabeta(m.copy(), team, -1e9, 1e9) - here)
            paths.setdefault(key, set()).add(path)
        for a in legal:
            m.push(a)
            walk(m, team, (*path, a))
            m.pop()

    chosen = _OPTIONS.get(name, {}) if options else {}
    for m in _endgames(name, 8, f"key-{name}-{options}", 9, chosen):
        walk(m, m.turn % 2, ())
    assert all(len(values) == 1 for values in seen.values())
    assert any(len(p) > 1 for p in paths.values())  # some key was reached by two orders


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(RULESETS))
def test_the_endgame_table_never_changes_a_value(name: str) -> None:
    """The solver's table of positions reached again (shared by the actions of one world, as the
    searches use it) gives every action the value that a search without it finds, and with
    narrow windows keeps alpha-beta's promise: at or below alpha an upper bound, at or above
    beta a lower bound, in between the value."""
    rng = random.Random(f"windows-{name}")
    for m in _endgames(name, 40, f"table-{name}", 12):
        team = m.turn % 2
        table: Table = {}
        probes: Table = {}
        for a in m.legal_actions():
            child = m.copy()
            child.apply(a)
            before = child.snapshot()
            true = alphabeta(child.copy(), team, -1e9, 1e9)
            assert alphabeta(child, team, -1e9, 1e9, table) == true
            assert child.snapshot() == before  # push/pop left the position as it was
            for _ in range(3):
                low = true + rng.randint(-12, 8)
                high = low + rng.randint(1, 10)
                value = alphabeta(child, team, low, high, probes)
                if value <= low:
                    assert true <= value
                elif value >= high:
                    assert true >= value
                else:
                    assert value == true
