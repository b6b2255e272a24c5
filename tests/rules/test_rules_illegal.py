"""Refused actions (rules.md §1 "Legality is the server's job"): the right error, no change."""

from __future__ import annotations

import pytest
from tests.support.deals import (
    BATEDOR_DOUBLES,
    FIVE_DOUBLES_S2,
    HAND_A,
    HAND_C,
    LINE13,
    NO_DOUBLE_S0_S1,
    PLAYS_A,
    PLAYS_LINE13,
    SPINNER_DEAL,
)
from tests.support.scripted import (
    assert_abandon_refused,
    assert_refused,
    deal,
    legal,
    order_from_hands,
    play,
    time_out,
    views,
)

from carroca.rules import (
    GameOver,
    IllegalMove,
    InvalidDeal,
    Match,
    NotYourTurn,
)
from carroca.rules import actions as A


@pytest.mark.parametrize(
    ("text", "error", "seat"),
    [
        ("0-0", IllegalMove, None),  # own double, but the first hand opens with 6-6
        ("1-1", IllegalMove, None),  # not in hand
        ("6-6:left", IllegalMove, None),  # the opening takes no end
        ("pass", IllegalMove, None),
        ("draw", IllegalMove, None),
        ("five-doubles:points", IllegalMove, None),
        ("6-6", NotYourTurn, 1),
        ("3-6", NotYourTurn, 1),
    ],
)
def test_refused_at_the_opening(text: str, error: type[Exception], seat: int | None) -> None:
    m = deal(Match("duplas-pontos"), SPINNER_DEAL)
    assert_refused(m, text, error, seat)
    assert m.turn == 0 and legal(m) == ["6-6"]


@pytest.mark.parametrize(
    ("text", "error", "seat"),
    [
        ("3-6:up", IllegalMove, None),  # up opens only once left and right are covered
        ("0-6:down", IllegalMove, None),
        ("3-6", IllegalMove, None),  # no end after the opening
        ("1-2:left", IllegalMove, None),  # does not fit 6
        ("4-6:right", IllegalMove, None),  # s2's tile
        ("6-6:left", IllegalMove, None),  # on the table already
        ("pass", IllegalMove, None),  # s1 holds a fitting tile
        ("draw", IllegalMove, None),  # no boneyard in 2v2
        ("five-doubles:redeal", IllegalMove, None),
        ("3-6:left", NotYourTurn, 0),
        ("4-6:left", NotYourTurn, 2),
    ],
)
def test_refused_during_play(text: str, error: type[Exception], seat: int | None) -> None:
    m = deal(Match("duplas-pontos"), SPINNER_DEAL)
    play(m, "6-6")
    assert_refused(m, text, error, seat)
    assert m.turn == 1 and m.score == [0, 0]


def test_refused_on_a_closed_end_of_a_line() -> None:
    m = deal(Match("duplas-torneio"), HAND_C)
    play(m, "6-6", "0-6:left", "1-6:right")
    # a line has no up/down, even once both sides are covered
    assert_refused(m, "0-2:up", IllegalMove)
    assert_refused(m, "0-2:down", IllegalMove)
    assert_refused(m, "2-4:left", IllegalMove)  # s3's 2-4 does not fit left 0


@pytest.mark.parametrize(
    ("text", "error", "seat"),
    [
        ("0-0", IllegalMove, None),  # the choice comes before the opening
        ("pass", IllegalMove, None),
        ("draw", IllegalMove, None),
        ("6-6", NotYourTurn, 1),  # the 6-6 holder waits for the choice
        ("five-doubles:points", NotYourTurn, 1),
    ],
)
def test_refused_during_the_five_doubles_choice(
    text: str, error: type[Exception], seat: int | None
) -> None:
    m = deal(Match("duplas-pontos"), FIVE_DOUBLES_S2)
    assert_refused(m, text, error, seat)
    assert m.turn == 2


def test_refused_at_the_batedor_saida() -> None:
    m = deal(Match("duplas-pontos"), HAND_A)
    play(m, *PLAYS_A)  # s0 bates
    deal(m, BATEDOR_DOUBLES)
    assert_refused(m, "0-1", IllegalMove)  # the batedor opens with a double
    assert_refused(m, "pass", IllegalMove)  # holding doubles, no saída passada
    assert_refused(m, "2-2:left", IllegalMove)
    assert_refused(m, "6-6", NotYourTurn, seat=1)
    m = deal(Match("duplas-pontos"), HAND_A)
    play(m, *PLAYS_A)
    deal(m, NO_DOUBLE_S0_S1)
    assert_refused(m, "0-1", IllegalMove)  # no double: the only action is to pass
    assert_refused(m, "0-0", NotYourTurn, seat=2)  # s2 opens only after s0 passes


def test_refused_in_a_torneio_saida_with_a_foreign_tile() -> None:
    m = deal(Match("duplas-torneio"), HAND_A)
    play(m, *PLAYS_A)
    deal(m, HAND_A)
    assert legal(m) == ["0-3", "1-2", "1-5", "2-5", "3-6", "4-5", "6-6"]
    assert_refused(m, "0-0", IllegalMove)  # not s0's
    assert_refused(m, "6-6:right", IllegalMove)


def test_refused_between_hands_and_after_the_match() -> None:
    m = deal(Match("classico"), LINE13)
    play(m, *PLAYS_LINE13)
    assert m.needs_deal
    for text in ("0-0", "pass", "draw", "five-doubles:points"):
        assert_refused(m, text, GameOver)
        assert_refused(m, text, GameOver, seat=0)
    deal(m, LINE13)
    play(m, *PLAYS_LINE13)
    assert m.is_over
    for text in ("6-6", "pass", "draw"):
        assert_refused(m, text, GameOver)
        assert_refused(m, text, GameOver, seat=1)
    with pytest.raises(InvalidDeal):
        m.deal(order_from_hands(LINE13))
    with pytest.raises(GameOver):
        m.abandon(0)


def test_refused_deals() -> None:
    m = Match("duplas-pontos")
    good = order_from_hands(SPINNER_DEAL)
    before = views(m)
    with pytest.raises(InvalidDeal):
        m.deal(good[:27])
    with pytest.raises(InvalidDeal):
        m.deal([*good[:27], good[0]])  # a tile twice, one missing
    for bad in (-1, 28, "6-6", None):  # -1 would index the last tile if taken as an int
        with pytest.raises(InvalidDeal):
            m.deal([bad if t == 27 else t for t in good])
    assert views(m) == before and m.needs_deal
    m.deal(good)
    with pytest.raises(InvalidDeal):
        m.deal(good)  # a hand is in progress


def test_abandon() -> None:
    m = deal(Match("duplas-pontos"), SPINNER_DEAL)
    play(m, "6-6", "3-6:left")  # team 1 +15
    # rules.md §5: the third timeout in a row is abandonment; s2 times out twice first
    play(m, "2-3:left", auto=True)  # s2, played by the server
    play(m, "2-6:left", "5-6:left", "0-5:left")  # s3, s0, s1
    play(m, "1-6:right", auto=True)  # s2 again
    play(m, "pass", "0-0:left", "0-6:left")  # s3 galo'd: team 0 +20; s0, s1
    assert (m.turn, m.timeouts_in_a_row(2), m.score) == (2, 2, [20, 15])
    m.abandon(2)
    assert m.is_over and m.result is not None
    # seat 2 abandons: the other team (1) wins at once, even when behind on points
    assert (m.result.winner, m.result.score, m.result.reason) == (1, (20, 15), "abandon")
    assert m.result.pneu is False
    end = m.history[-1].end
    assert (end.kind, end.seat) == ("abandon", 2)
    assert_refused(m, "4-6:right", GameOver)
    with pytest.raises(GameOver):
        m.abandon(2)


def test_abandon_refused_for_a_seat_not_to_move() -> None:
    m = deal(Match("duplas-pontos"), SPINNER_DEAL)
    play(m, "6-6", "3-6:left")
    time_out(m, 2)
    assert m.turn == 2
    for seat in (0, 1, 3):
        assert_abandon_refused(m, seat, NotYourTurn)
    m.abandon(2)
    assert m.result is not None and m.result.winner == 1


def test_abandon_refused_for_a_seat_out_of_range() -> None:
    m = deal(Match("duplas-pontos"), SPINNER_DEAL)
    for seat in (-1, 4):
        assert_abandon_refused(m, seat, NotYourTurn)


@pytest.mark.parametrize("ruleset", ["duplas-pontos", "mano-a-mano"])
def test_abandon_refused_without_two_timeouts_before(ruleset: str) -> None:
    m = Match(ruleset)
    m.deal(order_from_hands(SPINNER_DEAL if m.n == 4 else LINE13))
    seat = m.turn
    assert_abandon_refused(m, seat, IllegalMove)  # its first turn: no timeout yet
    time_out(m, seat, 1)
    assert m.timeouts_in_a_row(seat) == 1
    assert_abandon_refused(m, seat, IllegalMove)  # the second timeout only
    time_out(m, seat, 1)
    assert m.timeouts_in_a_row(seat) == 2
    m.abandon(seat)
    assert m.result is not None and m.result.reason == "abandon"


def test_a_move_in_time_resets_the_timeouts() -> None:
    m = deal(Match("classico"), LINE13)
    play(m, "6-6", auto=True)  # s0 times out
    play(m, "0-6:left")  # s1
    assert m.timeouts_in_a_row(0) == 1
    play(m, "1-6:right")  # s0 in time
    play(m, "0-2:left")
    assert m.timeouts_in_a_row(0) == 0
    play(m, "1-2:right", auto=True)  # s0 times out again: one in a row, not two
    play(m, "2-2:left")
    assert m.timeouts_in_a_row(0) == 1
    assert_abandon_refused(m, 0, IllegalMove)
    play(m, "2-6:right", auto=True)
    play(m, "2-4:left")
    assert m.timeouts_in_a_row(0) == 2
    m.abandon(0)
    assert m.result is not None and (m.result.winner, m.result.reason) == (1, "abandon")


def test_abandon_counts_timeouts_across_hands() -> None:
    """The two timeouts before may span the end of the previous hand."""
    m = deal(Match("classico"), LINE13)
    play(m, *PLAYS_LINE13[:-1])
    play(m, PLAYS_LINE13[-1], auto=True)  # s0 bates, played by the server
    assert m.needs_deal and m.score == [1, 0]
    deal(m, LINE13)
    assert m.turn == 0 and m.timeouts_in_a_row(0) == 1
    assert_abandon_refused(m, 0, IllegalMove)
    play(m, "6-6", auto=True)  # s0 times out at the opening of hand 2
    play(m, "0-6:left")
    assert (m.turn, m.timeouts_in_a_row(0)) == (0, 2)
    assert_abandon_refused(m, 1, NotYourTurn)
    m.abandon(0)
    assert m.result is not None
    assert (m.result.winner, m.result.score, m.result.reason) == (1, (1, 0), "abandon")
    assert m.result.pneu is False  # the losers won a hand
    assert [log.end.kind for log in m.history] == ["batida", "abandon"]


def test_abandon_at_zero_zero_is_no_pneu() -> None:
    """Pneu is a win to nothing: at 0-0 the winner by abandonment has nothing either."""
    m = deal(Match("classico"), LINE13)
    play(m, "6-6", auto=True)
    play(m, "0-6:left")
    play(m, "1-6:right", auto=True)
    play(m, "0-2:left")
    m.abandon(0)
    assert m.result is not None
    assert (m.result.winner, m.result.score, m.result.reason) == (1, (0, 0), "abandon")
    assert m.result.pneu is False


def test_auto_is_recorded() -> None:
    m = deal(Match("duplas-pontos"), SPINNER_DEAL)
    m.apply(A.parse("6-6"), 0, auto=True)
    m.apply(A.parse("3-6:left"), 1)
    assert [s.auto for s in m.steps] == [True, False]
