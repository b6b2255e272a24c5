"""pontos (rules.md §1, §4): the table count on every play, hand_end_pips, target 100."""

from __future__ import annotations

from functools import partial

from tests.support import deals as D
from tests.support.scripted import deal, events, legal, new_match, play, seats

RS = "pontos"
new = partial(new_match, RS)


def test_table_points_on_every_play() -> None:
    # 6-6 is in the boneyard: s0 opens with 5-5, the highest double dealt
    m = deal(new(), seats(
        "5-5 3-5 0-4 1-2 1-3 1-4 2-3",
        "0-5 3-3 4-4 0-1 0-2 1-1 2-2",
    ))
    play(m, "5-5")  # one tile: its pips, 10
    assert m.score == [10, 0]
    play(m, "0-5:left")  # L0 + R(5-5) 10 = 10
    assert m.score == [10, 10]
    play(m, "3-5:right")  # L0 + R3 = 3
    play(m, "3-3:right")  # L0 + R(3-3) 6 = 6
    assert m.score == [10, 10]
    play(m, "0-4:left")  # L4 + R6 = 10
    assert m.score == [20, 10]
    play(m, "4-4:left")  # L(4-4) 8 + R6 = 14
    assert m.score == [20, 10]
    assert [(t, p) for t, p, _ in events(m)] == [(0, 10), (1, 10), (0, 10)]


def test_whole_hand_without_hand_end_pips() -> None:
    m = deal(new(), D.LINE13)
    play(m, *D.PLAYS_LINE13)
    # plays 7 (s0) and 8 (s1) count 10; nothing for the end of the hand
    assert m.score == [10, 10]
    end = m.history[-1].end
    assert (end.kind, end.seat, end.winner) == ("batida", 0, 0)


def test_whole_hand_with_hand_end_pips() -> None:
    m = deal(new(hand_end_pips=True), D.LINE13)
    play(m, *D.PLAYS_LINE13)
    # + s1's 4-5: 9, rounded down to 5
    assert m.score == [15, 10]


def test_hand_end_pips_after_a_block() -> None:
    m = deal(new(hand_end_pips=True), D.F1_S1_LIGHTER)
    play(m, *D.PLAYS_F1, *["draw"] * 14)
    # table: s1 +15 (play 8); block: s1 (3) wins and scores s0's 87 -> 85: 100, the target
    assert m.score == [0, 100]
    assert m.is_over and m.result is not None
    assert (m.result.winner, m.result.score, m.result.reason) == (1, (0, 100), "target")


def test_tie_scores_nothing() -> None:
    m = deal(new(hand_end_pips=True), D.TIE_DRAW, D.TIE_DRAW_BONEYARD)
    play(m, *D.PLAYS_TIE_DRAW)
    # 45 each: nobody wins, nobody scores; only the table's 15 for s1 (play 8)
    assert m.score == [0, 15] and m.history[-1].end.winner is None
    deal(m, D.LINE13_S1)  # the first hand again: highest double, s1's 6-6
    assert m.turn == 1 and legal(m) == ["6-6"]


def test_level_at_the_target_plays_another_hand() -> None:
    m = new(target=10)
    deal(m, D.LINE13)
    play(m, *D.PLAYS_LINE13)
    assert m.score == [10, 10]  # both at the target, level: play on
    assert not m.is_over and m.needs_deal
    deal(m, D.TIE_DRAW, D.TIE_DRAW_BONEYARD)  # s0 won: s0 opens, 6-6 here
    assert m.turn == 0
    play(m, *D.PLAYS_TIE_DRAW)  # a tied block; the table's 15 for s1
    assert m.is_over and m.result is not None
    assert (m.result.winner, m.result.score) == (1, (10, 25))


def test_winner_opens_with_any_tile() -> None:
    m = deal(new(), D.LINE13)
    play(m, *D.PLAYS_LINE13)
    deal(m, D.LINE13_S1)
    assert m.turn == 0
    assert legal(m) == ["0-2", "0-6", "1-1", "1-4", "2-2", "2-4", "4-5"]


def test_the_winning_play_counts() -> None:
    # D.LINE13 up to play 11 (s0 10, s1 10; ends left 1 from 1-4, right 3-3), then s1 plays
    # 0-1 on the left (0 + 6 = 6) and s0 bates with 0-4 on the left: 4 + 6 = 10.
    hands = seats(
        "6-6 1-6 1-2 2-6 3-6 3-3 0-4",
        "0-6 0-2 2-2 2-4 1-4 0-1 4-5",
    )
    m = deal(new(), hands)
    play(m, *D.PLAYS_LINE13[:11], "0-1:left", "0-4:left")
    assert m.score == [20, 10]
    m = deal(new(hand_end_pips=True), hands)
    play(m, *D.PLAYS_LINE13[:11], "0-1:left", "0-4:left")
    assert m.score == [25, 10]  # + s1's 4-5: 9 -> 5
