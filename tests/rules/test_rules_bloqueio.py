"""bloqueio (rules.md §4): no drawing, batida types, first to 6."""

from __future__ import annotations

from functools import partial

import pytest
from tests.support.deals import F1_S1_LIGHTER, LINE13, PLAYS_F1, PLAYS_LINE13
from tests.support.scripted import assert_refused, deal, legal, new_match, play, seats

from carroca.rules import IllegalMove, observation

RS = "bloqueio"
new = partial(new_match, RS)
S1_LINE13_TILES = ["0-2", "0-6", "1-1", "1-4", "2-2", "2-4", "4-5"]


def f1(kept0: list[str], kept1: list[str]) -> list[list[str]]:
    """The 1v1 chain (deals.PLAYS_F1) with the two tiles each seat keeps."""
    return [[*F1_S1_LIGHTER[0][:5], *kept0], [*F1_S1_LIGHTER[1][:5], *kept1]]


def line(
    s0_tail: list[str], s1_tail: list[str], tail: list[str]
) -> tuple[list[list[str]], list[str]]:
    """LINE13's first ten plays (ends then: left 1 from 1-4, right 3 from 3-6), then `tail`.

    s0 plays 6-6 1-6 1-2 2-6 3-6 + s0_tail; s1 plays 0-6 0-2 2-2 2-4 1-4 + s1_tail.
    """
    hands = [
        ["6-6", "1-6", "1-2", "2-6", "3-6", *s0_tail],
        ["0-6", "0-2", "2-2", "2-4", "1-4", *s1_tail],
    ]
    return hands, [*PLAYS_LINE13[:10], *tail]


BATIDAS = {
    # 3-3 on right 3, 1-1 on left 1: ends 1 and 3; 0-3 fits the right end only
    "simples": (line(["3-3", "0-3"], ["1-1", "4-5"], ["3-3:right", "1-1:left", "0-3:right"]), 1),
    # ends 1 and 3; 1-3 shows both: lá-e-lô
    "la-e-lo": (line(["3-3", "1-3"], ["1-1", "4-5"], ["3-3:right", "1-1:left", "1-3:right"]), 3),
    # 3-5 on right 3 -> 5, 1-1 on left: ends 1 and 5; the double 5-5 fits one end
    "carroca": (line(["3-5", "5-5"], ["1-1", "4-5"], ["3-5:right", "1-1:left", "5-5:right"]), 2),
    # 3-5 on right -> 5, 1-5 on left 1 -> 5: ends 5 and 5; 5-5 on both: cruzada
    "cruzada": (line(["3-5", "5-5"], ["1-5", "4-5"], ["3-5:right", "1-5:left", "5-5:right"]), 4),
    # ends 5 and 5, a non-double 0-5 fits both: simples
    "simples-equal-ends": (
        line(["3-5", "0-5"], ["1-5", "4-5"], ["3-5:right", "1-5:left", "0-5:right"]), 1,
    ),
}


@pytest.mark.parametrize("kind", list(BATIDAS))
def test_batida_types(kind: str) -> None:
    (hands, plays), points = BATIDAS[kind]
    m = deal(new(), hands)
    play(m, *plays)
    end = m.history[-1].end
    assert (end.kind, end.seat, end.winner) == ("batida", 0, 0)
    assert m.score == [points, 0]


def test_no_drawing() -> None:
    m = deal(new(), seats(
        "6-6 0-6 1-6 2-6 3-6 4-6 5-6",
        "0-0 0-1 0-2 0-3 0-4 0-5 1-1",
    ))
    assert observation(m, 0).boneyard == 0
    play(m, "6-6")
    # s1 holds no 6 and the 14 other tiles are out of play: pass, never draw
    assert legal(m) == ["pass"]
    assert_refused(m, "draw", IllegalMove)
    play(m, "pass")
    assert m.turn == 0 and m.score == [0, 0]


@pytest.mark.parametrize(
    ("kept", "score", "winner"),
    [
        ((["0-0", "1-1"], ["4-4", "5-5"]), [1, 0], 0),  # 2 against 18
        ((["4-4", "5-5"], ["0-0", "1-2"]), [0, 1], 1),  # 18 against 3
        ((["0-0", "4-4"], ["1-1", "3-3"]), [0, 0], None),  # 8 against 8: nobody
    ],
)
def test_trancado(kept: tuple[list[str], list[str]], score: list[int], winner: int | None) -> None:
    m = deal(new(), f1(*kept))
    play(m, *PLAYS_F1)
    # no boneyard: blocked at once when the last 6 is played
    end = m.history[-1].end
    assert (end.kind, end.seat, end.winner) == ("fechado", 1, winner)
    assert len(m.history[-1].steps) == 10
    assert m.score == score


def test_after_a_tie_first_hand_rule() -> None:
    m = deal(new(), f1(["0-0", "4-4"], ["1-1", "3-3"]))  # 8 against 8
    play(m, *PLAYS_F1)
    deal(m, [LINE13[1], LINE13[0]])  # first hand tied: highest double again (s1's 6-6)
    assert m.turn == 1 and legal(m) == ["6-6"]


def test_winner_opens_and_target_six() -> None:
    (hands, plays), _ = BATIDAS["cruzada"]
    m = deal(new(), hands)
    play(m, *plays)  # [4, 0]
    assert not m.is_over
    deal(m, [hands[1], hands[0]])  # s0, the winner, opens with any tile
    # s0 now holds 0-6 0-2 2-2 2-4 1-4 1-5 4-5
    assert m.turn == 0 and legal(m) == ["0-2", "0-6", "1-4", "1-5", "2-2", "2-4", "4-5"]
    m2 = deal(new(), hands)
    play(m2, *plays)
    deal(m2, hands)
    play(m2, *plays)  # [8, 0]
    assert m2.is_over and m2.result is not None
    assert (m2.result.winner, m2.result.score, m2.result.pneu) == (0, (8, 0), True)


def test_tie_in_a_later_hand_keeps_the_opener() -> None:
    (hands, plays), _ = BATIDAS["simples"]
    m = deal(new(), hands)
    play(m, *plays)  # s0 wins: [1, 0]
    deal(m, f1(["0-0", "4-4"], ["1-1", "3-3"]))  # s0 opens with any tile: 6-6; a tie
    play(m, *PLAYS_F1)
    assert m.score == [1, 0] and m.history[-1].end.winner is None
    deal(m, [LINE13[1], LINE13[0]])  # s0 opens again, with any tile
    assert m.turn == 0 and legal(m) == S1_LINE13_TILES
