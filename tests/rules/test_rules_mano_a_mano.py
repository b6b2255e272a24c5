"""mano-a-mano (rules.md §4): pips of the loser, alternating opener, first to 50."""

from __future__ import annotations

from functools import partial

from tests.support import deals as D
from tests.support.scripted import deal, legal, new_match, play

RS = "mano-a-mano"
new = partial(new_match, RS)


def test_batida_scores_the_loser_pips() -> None:
    m = deal(new(), D.LINE13)
    play(m, *D.PLAYS_LINE13)
    # s0 bates; s1 keeps 4-5: 9 points, not rounded to 5
    assert m.score == [9, 0]
    end = m.history[-1].end
    assert (end.kind, end.seat, end.winner) == ("batida", 0, 0)


def test_trancado_scores_the_loser_pips() -> None:
    m = deal(new(), D.F1_S1_LIGHTER)
    play(m, *D.PLAYS_F1, *["draw"] * 14)
    # blocked after the 14th draw: s1 (0-0 1-2 = 3) beats s0 (4-4 5-5 + 69 drawn = 87)
    assert m.score == [0, 87]
    assert m.is_over and m.result is not None
    assert (m.result.winner, m.result.score, m.result.reason) == (1, (0, 87), "target")
    assert m.result.pneu is True


def test_trancado_tie_the_locker_loses() -> None:
    m = deal(new(), D.TIE_DRAW, D.TIE_DRAW_BONEYARD)
    play(m, *D.PLAYS_TIE_DRAW)
    # 45 pips each; s1 played the last tile, so s1 loses and s0 scores s1's 45
    end = m.history[-1].end
    assert (end.kind, end.seat, end.winner) == ("fechado", 1, 0)
    assert m.score == [45, 0] and not m.is_over


def test_opener_alternates() -> None:
    m = new(target=200)
    deal(m, D.LINE13)
    assert m.turn == 0  # the first hand: the highest double (6-6)
    play(m, *D.PLAYS_LINE13)  # s0 opened and won: [9, 0]
    deal(m, D.LINE13)  # s0 holds 6-6 again, but s1 opens, with any tile
    assert m.turn == 1
    assert legal(m) == ["0-2", "0-6", "1-1", "1-4", "2-2", "2-4", "4-5"]
    m = new(target=200)
    deal(m, D.LINE13)
    play(m, *D.PLAYS_LINE13)  # [9, 0]
    deal(m, D.LINE13_S1)  # s1 opens and wins: [9, 9]
    play(m, *D.PLAYS_LINE13)
    assert m.score == [9, 9]
    deal(m, D.LINE13_S1)  # s0 opens (s1 opened the previous hand, and won it)
    assert m.turn == 0
    assert legal(m) == ["0-2", "0-6", "1-1", "1-4", "2-2", "2-4", "4-5"]


def test_opener_alternates_after_a_lost_opening() -> None:
    m = new(target=200)
    deal(m, D.F1_S1_LIGHTER)
    play(m, *D.PLAYS_F1, *["draw"] * 14)  # s0 opened, s1 won: [0, 87]
    assert m.score == [0, 87]
    deal(m, D.LINE13)  # s1 did not open the previous hand: s1 opens, with any tile
    assert m.turn == 1
    assert legal(m) == ["0-2", "0-6", "1-1", "1-4", "2-2", "2-4", "4-5"]


def test_first_to_50() -> None:
    m = new()
    deal(m, D.TIE_DRAW, D.TIE_DRAW_BONEYARD)
    play(m, *D.PLAYS_TIE_DRAW)  # [45, 0]
    deal(m, D.LINE13_S1)  # s1 opens
    play(m, *D.PLAYS_LINE13)  # s1 bates, s0 keeps 4-5: [45, 9]
    assert m.score == [45, 9] and not m.is_over
    deal(m, D.LINE13)  # s0 opens
    play(m, *D.PLAYS_LINE13)  # [54, 9]
    assert m.is_over and m.result is not None
    assert (m.result.winner, m.result.score, m.result.pneu) == (0, (54, 9), False)
