"""classico (rules.md §4): one point per hand, best of 3, a tied block is replayed."""

from __future__ import annotations

from functools import partial

from tests.support import deals as D
from tests.support.scripted import deal, legal, new_match, play

RS = "classico"
new = partial(new_match, RS)


def test_best_of_three() -> None:
    m = new()
    deal(m, D.LINE13)
    play(m, *D.PLAYS_LINE13)  # s0 bates: one hand, one point
    assert m.score == [1, 0] and not m.is_over
    deal(m, D.LINE13_S1)  # the winner, s0, opens with any tile (s1 holds 6-6)
    assert m.turn == 0
    assert legal(m) == ["0-2", "0-6", "1-1", "1-4", "2-2", "2-4", "4-5"]
    m = new()
    deal(m, D.LINE13)
    play(m, *D.PLAYS_LINE13)  # [1, 0]
    deal(m, D.LINE13)  # s0 opens again
    play(m, *D.PLAYS_LINE13)
    assert m.is_over and m.result is not None
    assert (m.result.winner, m.result.score, m.result.reason) == (0, (2, 0), "target")


def test_decider() -> None:
    m = new()
    deal(m, D.LINE13)
    play(m, *D.PLAYS_LINE13)  # [1, 0]
    deal(m, D.F1_S1_LIGHTER)  # s0 (winner) opens with 6-6; s1 wins the block
    play(m, *D.PLAYS_F1, *["draw"] * 14)
    assert m.score == [1, 1] and m.history[-1].end.kind == "fechado"
    deal(m, D.LINE13_S1)  # s1 won: s1 opens and bates
    assert m.turn == 1
    play(m, *D.PLAYS_LINE13)
    assert m.result is not None and (m.result.winner, m.result.score) == (1, (1, 2))


def test_trancado_tie_replays_the_first_hand_rule() -> None:
    m = new()
    deal(m, D.TIE_DRAW, D.TIE_DRAW_BONEYARD)
    play(m, *D.PLAYS_TIE_DRAW)
    end = m.history[-1].end
    assert (end.kind, end.winner) == ("fechado", None)
    assert m.score == [0, 0] and m.needs_deal and m.deal_index == 1
    # replayed with a new deal, under the first-hand rule again: the highest double (s1 6-6)
    deal(m, D.LINE13_S1)
    assert m.turn == 1 and legal(m) == ["6-6"]


def test_trancado_tie_later_hand_same_opener() -> None:
    m = new()
    deal(m, D.LINE13)
    play(m, *D.PLAYS_LINE13)  # [1, 0]
    deal(m, D.TIE_DRAW, D.TIE_DRAW_BONEYARD)  # s0 opens (any tile: 6-6 here)
    play(m, *D.PLAYS_TIE_DRAW)
    assert m.score == [1, 0] and m.history[-1].end.winner is None
    # the replay opens as the tied hand did: s0 with any tile, although s1 holds 6-6
    deal(m, D.LINE13_S1)
    assert m.turn == 0
    assert legal(m) == ["0-2", "0-6", "1-1", "1-4", "2-2", "2-4", "4-5"]


def test_hands_to_win_option() -> None:
    m = new(hands_to_win=3)
    for k in (1, 2):
        deal(m, D.LINE13)
        play(m, *D.PLAYS_LINE13)
        assert m.score == [k, 0] and not m.is_over
    deal(m, D.LINE13)
    play(m, *D.PLAYS_LINE13)
    assert m.result is not None and m.result.score == (3, 0)
