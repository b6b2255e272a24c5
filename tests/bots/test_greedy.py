"""The greedy bot: the count-after-play function by hand, legality everywhere, scripted choices."""

from __future__ import annotations

import dataclasses
import hashlib

import pytest
from tests.support.deals import FIVE_DOUBLES_S0
from tests.support.scripted import deal, play, seats

from carroca import fair
from carroca.bots import Bot, GreedyBot, RandomBot
from carroca.bots.greedy import count_after, end_weights, points_now
from carroca.rules import RULESETS, Match, Observation, observation
from carroca.rules import actions as A
from carroca.rules import tiles as T
from carroca.simulate import simulate

# 2v2 hands: seat 0 opens with 6-6; seat 1 holds 3-6, 4-6 and 5-6 for the reply.
HANDS_2V2 = seats(
    "6-6 0-0 0-1 0-2 0-3 0-4 0-5",
    "3-6 4-6 5-6 1-1 1-2 1-3 1-4",
    "0-6 1-5 1-6 2-2 2-3 2-4 2-5",
    "2-6 3-3 3-4 3-5 4-4 4-5 5-5",
)


def _obs(m: Match) -> Observation:
    seat = m.current_player
    assert seat is not None
    return observation(m, seat)


def _entry(seat: int, tile: str, end: str | None = None) -> tuple[int, int, str | None]:
    return (seat, T.parse(tile), end)


# --------------------------------------------------------------------------- count_after by hand


def test_spinner_counts_uncovered_arms_as_a_double() -> None:
    table = [_entry(0, "6-6")]
    ends = {"left": 6, "right": 6}
    assert count_after([], {}, A.play("5-5")) == 10  # the opening counts its pips
    assert count_after(table, ends, A.play("3-6", "left")) == 3 + 12  # rules.md §2 example
    assert count_after(table, ends, A.play("6-6", "left")) == 12 + 12


def test_spinner_up_and_down_count_only_once_covered() -> None:
    table = [_entry(0, "6-6"), _entry(1, "3-6", "left")]
    ends = {"left": 3, "right": 6}
    # covering the right arm opens up/down, which count nothing yet: 3 + 4 = 7
    assert count_after(table, ends, A.play("4-6", "right")) == 7
    table.append(_entry(2, "4-6", "right"))
    ends = {"left": 3, "right": 4, "up": 6, "down": 6}
    assert end_weights(table) == {"left": 1, "right": 1, "up": 0, "down": 0}
    assert count_after(table, ends, A.play("1-6", "up")) == 3 + 4 + 1
    assert count_after(table, ends, A.play("3-3", "left")) == 6 + 4  # a double counts twice
    table.append(_entry(3, "1-6", "up"))
    ends["up"] = 1
    assert count_after(table, ends, A.play("0-6", "down")) == 3 + 4 + 1 + 0
    assert count_after(table, ends, A.play("1-1", "up")) == 3 + 4 + 2


def test_line_layout_double_opening() -> None:
    table = [_entry(0, "6-6")]
    ends = {"left": 6, "right": 6}
    assert count_after(table, ends, A.play("3-6", "left")) == 15
    table.append(_entry(1, "3-6", "left"))
    assert count_after(table, {"left": 3, "right": 6}, A.play("4-6", "right")) == 7
    table2 = [_entry(0, "2-5")]
    assert count_after(table2, {"left": 2, "right": 5}, A.play("5-5", "right")) == 2 + 10


def test_count_after_matches_the_engine_in_scripted_spinner_hand() -> None:
    m = deal(Match("duplas-pontos"), HANDS_2V2)
    play(m, "6-6")
    for text, expected in (("3-6:left", 15), ("0-6:right", 3), ("3-3:left", 6)):
        obs = _obs(m)
        action = A.parse(text)
        assert count_after(obs.table, obs.ends, action) == expected
        play(m, text)
        assert m.table_count() == expected


# --------------------------------------------------------------------------- legality everywhere


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_greedy_is_legal_and_count_after_agrees_with_engine(ruleset: str) -> None:
    rs = RULESETS[ruleset]
    greedy = GreedyBot(0)
    for i in range(6):
        seed = hashlib.sha256(f"greedy-test:{ruleset}:{i}".encode()).hexdigest()
        # random and greedy drivers, so positions both kinds of play reach are covered
        drivers: list[Bot] = [
            RandomBot(i * 10 + s) if (s + i) % 2 else GreedyBot(s) for s in range(rs.seats)
        ]
        m = Match(rs)
        hands = 0
        while not m.is_over and hands < 12:
            if m.needs_deal:
                m.deal(fair.shuffle(seed, "t", m.deal_index))
                hands += 1
                continue
            seat = m.turn
            obs = observation(m, seat)
            choice = greedy.choose(obs)
            assert choice in obs.legal
            for action in obs.legal:
                if action.kind != A.PLAY:
                    continue
                m.push(action, seat)
                count = m.table_count()  # the table stays until the next deal
                m.pop()
                assert count_after(obs.table, obs.ends, action) == count, (ruleset, action)
            m.apply(drivers[seat].choose(obs), seat)


# --------------------------------------------------------------------------- scripted choices


def test_greedy_takes_the_points_over_the_heavier_tile() -> None:
    m = deal(Match("duplas-pontos"), HANDS_2V2)
    play(m, "6-6")
    obs = _obs(m)
    assert points_now(obs, A.play("3-6", "left")) == 15
    assert points_now(obs, A.play("5-6", "left")) == 0
    assert GreedyBot(1).choose(obs) is A.play("3-6", "left")


def test_greedy_in_pontos_1v1_scores_the_multiple_of_five() -> None:
    m = deal(
        Match("pontos"),
        seats(
            "6-6 3-5 0-0 0-1 0-2 0-3 0-4",
            "5-6 2-6 4-6 1-1 1-2 1-3 1-4",
        ),
    )
    play(m, "6-6")
    obs = _obs(m)
    # 2-6, 4-6, 5-6 leave 14, 16, 17: nothing scores, so the heaviest tile goes
    assert all(points_now(obs, a) == 0 for a in obs.legal)
    assert GreedyBot().choose(obs) is A.play("5-6", "left")
    play(m, "5-6:left", "3-5:left")
    obs = _obs(m)
    # ends 3 and 6 (the 6-6, counted twice): 2-6 on the right leaves 3 + 2 = 5 and scores;
    # 4-6 is heavier but leaves 7, 1-3 leaves 1 + 12 = 13
    assert points_now(obs, A.play("2-6", "right")) == 5
    assert GreedyBot().choose(obs) is A.play("2-6", "right")


def _crafted(
    ruleset: str,
    hand: list[str],
    table: list[tuple[int, str, str | None]],
    ends: dict[str, int],
    legal: list[str],
) -> Observation:
    rs = RULESETS[ruleset]
    m = Match(rs)
    m.deal(fair.shuffle("00" * 32, "x", 0))
    base = observation(m, m.current_player)
    return dataclasses.replace(
        base,
        hand=tuple(T.parse(t) for t in hand),
        table=tuple(_entry(s, t, e) for s, t, e in table),
        ends=ends,
        legal=tuple(A.parse(a) for a in legal),
    )


def test_heaviest_then_double_then_legal_order() -> None:
    table = [(0, "3-4", None)]
    ends = {"left": 3, "right": 4}
    heavy = _crafted(
        "bloqueio", ["0-3", "4-5", "1-4"], table, ends, ["0-3:left", "1-4:right", "4-5:right"]
    )
    assert GreedyBot().choose(heavy) is A.play("4-5", "right")
    double = _crafted(
        "bloqueio", ["0-3", "3-3", "2-4"], table, ends, ["0-3:left", "3-3:left", "2-4:right"]
    )
    assert GreedyBot().choose(double) is A.play("3-3", "left")
    stable = _crafted("bloqueio", ["1-3", "0-4"], table, ends, ["1-3:left", "0-4:right"])
    assert GreedyBot().choose(stable) is A.play("1-3", "left")


def test_batida_points_for_the_last_tile() -> None:
    table = [(0, "3-4", None)]
    ends = {"left": 3, "right": 4}
    obs = _crafted("bloqueio", ["3-4"], table, ends, ["3-4:left", "3-4:right"])
    assert points_now(obs, A.play("3-4", "left")) == 3  # lá-e-lô
    obs = _crafted(
        "bloqueio", ["3-3"], [(0, "3-3", None)], {"left": 3, "right": 3}, ["3-3:left", "3-3:right"]
    )
    assert points_now(obs, A.play("3-3", "left")) == 4  # cruzada
    torneio = _crafted("duplas-torneio", ["3-4"], table, ends, ["3-4:left", "3-4:right"])
    torneio = dataclasses.replace(torneio, options={**torneio.options, "capicu_bonus": 25})
    assert points_now(torneio, A.play("3-4", "right")) == 25


def test_five_doubles_takes_the_points() -> None:
    m = deal(Match("duplas-pontos"), FIVE_DOUBLES_S0)
    obs = _obs(m)
    assert obs.legal == (A.FIVE_POINTS, A.FIVE_REDEAL)
    assert GreedyBot().choose(obs) is A.FIVE_POINTS
    assert points_now(obs, A.FIVE_POINTS) == 50


def test_no_legal_action_is_an_error() -> None:
    m = Match("pontos")
    with pytest.raises(ValueError):
        GreedyBot().choose(observation(m, 0))


@pytest.mark.parametrize("ruleset", ["duplas-pontos", "pontos", "bloqueio"])
def test_greedy_beats_random(ruleset: str) -> None:
    summary = simulate(ruleset, None, ("greedy", "random"), 30, 5)
    assert summary.wins[0] > summary.wins[1] * 1.5, summary.wins
