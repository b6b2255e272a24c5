"""The scripted-deal helpers themselves (tests/support/scripted.py)."""

from __future__ import annotations

import pytest
from tests.support.scripted import assert_refused, deal, legal, order_from_hands, play, seats

from carroca.rules import RULESETS, IllegalMove, InvalidTile, Match, get_ruleset

HANDS_2V2 = seats(
    "6-6 0-0 0-1 0-2 0-3 0-4 0-5",
    "0-6 1-1 1-2 1-3 1-4 1-5 1-6",
    "2-2 2-3 2-4 2-5 2-6 3-3 3-4",
    "3-5 3-6 4-4 4-5 4-6 5-5 5-6",
)


def test_seats_take_a_hand_as_one_string_or_a_list() -> None:
    assert seats("6-6 0-0 0-1", ["1-1", "1-2"]) == [["6-6", "0-0", "0-1"], ["1-1", "1-2"]]
    assert HANDS_2V2[3] == ["3-5", "3-6", "4-4", "4-5", "4-6", "5-5", "5-6"]


def test_order_2v2() -> None:
    order = order_from_hands(HANDS_2V2)
    # 6-6 is tile 27, 0-0 .. 0-5 are 0 .. 5; seat 1 starts with 0-6 (6)
    assert order[:7] == [27, 0, 1, 2, 3, 4, 5]
    assert order[7:14] == [6, 7, 8, 9, 10, 11, 12]
    assert sorted(order) == list(range(28))


def test_order_1v1_boneyard_canonical() -> None:
    hands = [HANDS_2V2[0], HANDS_2V2[1]]
    order = order_from_hands(hands)
    # the boneyard: the other 14 tiles in canonical order, 2-2 (13) to 5-6 (26)
    assert order[14:] == list(range(13, 27))


def test_order_1v1_explicit_and_partial_boneyard() -> None:
    hands = [HANDS_2V2[0], HANDS_2V2[1]]
    order = order_from_hands(hands, list(reversed(HANDS_2V2[2] + HANDS_2V2[3])))
    assert order[14:] == list(range(26, 12, -1))
    order = order_from_hands(hands, ["5-6", "2-2"], fill=True)
    assert order[14:] == [26, 13, *range(14, 26)]


@pytest.mark.parametrize(
    ("hands", "boneyard", "error"),
    [
        ([HANDS_2V2[0], HANDS_2V2[0]], None, ValueError),  # a tile twice
        ([HANDS_2V2[0], HANDS_2V2[1]], ["2-2"], ValueError),  # 13 tiles missing
        ([HANDS_2V2[0][:6], HANDS_2V2[1]], None, ValueError),  # 6 tiles
        (HANDS_2V2[:3], None, ValueError),  # three seats
        (HANDS_2V2, ["0-0"], ValueError),  # 2v2 has no boneyard
        ([["7-7", *HANDS_2V2[0][1:]], HANDS_2V2[1]], None, InvalidTile),
    ],
)
def test_order_refused(
    hands: list[list[str]], boneyard: list[str] | None, error: type[Exception]
) -> None:
    with pytest.raises(error):
        order_from_hands(hands, boneyard)


def test_play_reads_like_a_transcript() -> None:
    m = deal(Match("duplas-pontos"), HANDS_2V2)
    play(m, "6-6", "0-6:left", "2-6:right")
    # each action went to the seat to move: s0, s1, s2
    assert [(s.seat, str(s.action)) for s in m.steps] == [
        (0, "6-6"), (1, "0-6:left"), (2, "2-6:right"),
    ]
    assert m.turn == 3


def test_play_names_the_failing_action() -> None:
    m = deal(Match("duplas-pontos"), HANDS_2V2)
    with pytest.raises(IllegalMove) as info:
        play(m, "6-6", "pass")
    assert "while playing 'pass' for seat 1" in "".join(info.value.__notes__)
    assert legal(m) == ["0-6:left", "1-6:left", "0-6:right", "1-6:right"]


def test_assert_refused_detects_acceptance() -> None:
    m = deal(Match("duplas-pontos"), HANDS_2V2)
    with pytest.raises(AssertionError):
        assert_refused(m, "6-6", IllegalMove)


def test_a_rulesets_summary_ends_with_the_matchs_own_length() -> None:
    for rs in RULESETS.values():  # the defaults: the summary as written
        assert rs.summary_of(rs.default_options) == rs.summary
    mano = get_ruleset("mano-a-mano")
    assert mano.summary_of(mano.make_options({"target": 20})).endswith(
        "da mão do outro, até 20.")
    classico = get_ruleset("classico")
    assert classico.summary_of(classico.make_options({"hands_to_win": 3})).endswith(
        "cada mão vale 1, melhor de 5.")
