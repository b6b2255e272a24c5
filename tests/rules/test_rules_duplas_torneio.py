"""duplas-torneio (rules.md §1, §3): scripted deals with hand-checked scores."""

from __future__ import annotations

from functools import partial

import pytest
from tests.support.deals import (
    F_TEAM0_LIGHTER,
    F_TEAM1_LIGHTER,
    F_TIE,
    GALO_DEAL,
    HAND_A,
    HAND_A2,
    HAND_C,
    PLAYS_A,
    PLAYS_A2,
    PLAYS_C,
    PLAYS_F,
    rotate,
)
from tests.support.scripted import deal, legal, new_match, play

RS = "duplas-torneio"
new = partial(new_match, RS)


def test_first_hand_opens_with_six_six() -> None:
    m = deal(new(), rotate(HAND_C, 2))  # s2 holds 6-6
    assert m.turn == 2 and legal(m) == ["6-6"]


@pytest.mark.parametrize(
    ("count_partner", "capicu_bonus", "team0"),
    [
        (True, 0, 11 + 10 + 9),  # s1 5-6, s2 (partner) 4-6, s3 4-5
        (False, 0, 11 + 9),  # the two opponents only
        (True, 25, 30 + 25),  # capicú bonus
        (False, 25, 20 + 25),
        (True, 30, 30 + 30),
    ],
)
def test_batida_with_capicu(count_partner: bool, capicu_bonus: int, team0: int) -> None:
    m = deal(new(count_partner=count_partner, capicu_bonus=capicu_bonus), HAND_C)
    play(m, *PLAYS_C)
    # s0 bates with 3-4 while the ends show 4 (left) and 3 (right): capicú
    assert m.score == [team0, 0]
    end = m.history[-1].end
    assert (end.kind, end.seat, end.winner) == ("batida", 0, 0)


@pytest.mark.parametrize(
    ("count_partner", "team0"),
    [(True, 11 + 10 + 10), (False, 11 + 10)],  # s1 5-6, s2 5-5 (partner), s3 4-6
)
def test_no_capicu_when_the_ends_show_the_same_number(count_partner: bool, team0: int) -> None:
    m = deal(new(count_partner=count_partner, capicu_bonus=25), HAND_A)
    play(m, *PLAYS_A)
    # the last tile 4-5 fits both ends, but both show 4: no capicú, no bonus
    assert m.score == [team0, 0]


@pytest.mark.parametrize(("count_partner", "team0"), [(True, 31), (False, 21)])
def test_no_capicu_with_a_double(count_partner: bool, team0: int) -> None:
    m = deal(new(count_partner=count_partner, capicu_bonus=25), HAND_A2)
    play(m, *PLAYS_A2)
    # s0 bates with 4-4 (ends before: 4 and 5): a double is never a capicú
    # s1 5-6 11 + s3 4-6 10 (+ partner s2 5-5 10)
    assert m.score == [team0, 0]


def test_no_points_during_the_hand() -> None:
    m = deal(new(), F_TEAM0_LIGHTER)
    play(m, *PLAYS_F[:8])  # the 8th play would count 15 in duplas-pontos
    assert m.score == [0, 0]
    m = deal(new(), GALO_DEAL)
    play(m, "6-6", "pass", "pass", "pass")  # no passe, no galo
    assert m.score == [0, 0] and m.turn == 0


@pytest.mark.parametrize(
    ("hands", "score", "winner"),
    [
        # team 0 keeps 37, team 1 53: team 0 scores all four hands, 37 + 53 = 90
        (F_TEAM0_LIGHTER, [90, 0], 0),
        (F_TEAM1_LIGHTER, [0, 90], 1),
        (F_TIE, [0, 0], None),  # 45 against 45: nobody
    ],
)
def test_trancado(hands: list[list[str]], score: list[int], winner: int | None) -> None:
    m = deal(new(), hands)
    play(m, *PLAYS_F)
    assert m.score == score
    end = m.history[-1].end
    assert (end.kind, end.seat, end.winner) == ("fechado", 1, winner)
    assert len(m.history[-1].steps) == 10  # no pass after the block
    # the locker (s1) opens the next hand with any tile, whichever side won
    deal(m, HAND_A)
    assert m.turn == 1
    assert legal(m) == ["0-1", "0-4", "0-6", "1-4", "2-2", "3-5", "5-6"]


def test_batedor_opens_with_any_tile() -> None:
    m = deal(new(), HAND_C)
    play(m, *PLAYS_C)
    deal(m, rotate(HAND_A, 1))  # s0 now holds HAND_A's s3 tiles, s1 holds 6-6
    assert m.turn == 0
    assert legal(m) == ["0-0", "0-2", "1-1", "2-3", "2-4", "4-4", "4-6"]
    play(m, "4-6")
    assert m.turn == 1 and m.open_ends() == [(0, 4), (1, 6)]


def test_pneu() -> None:
    m = deal(new(target=50, capicu_bonus=25), HAND_C)
    play(m, *PLAYS_C)  # 30 + 25 = 55 >= 50
    assert m.is_over and m.result is not None
    assert (m.result.winner, m.result.score, m.result.reason) == (0, (55, 0), "target")
    assert m.result.pneu is True


def test_pneu_after_a_trancado() -> None:
    m = deal(new(target=50), F_TEAM0_LIGHTER)
    play(m, *PLAYS_F)
    assert m.result is not None and m.result.score == (90, 0) and m.result.pneu is True


def test_not_pneu() -> None:
    m = deal(new(), HAND_C)  # target 100
    play(m, *PLAYS_C)
    assert m.score == [30, 0] and not m.is_over
    deal(m, F_TEAM1_LIGHTER)  # s0, the batedor, opens: with 6-6 here
    play(m, *PLAYS_F)
    assert m.score == [30, 90] and not m.is_over
    deal(m, rotate(HAND_C, 1))  # s1, the locker, opens: s1 holds HAND_C's s0 tiles
    assert m.turn == 1
    play(m, *PLAYS_C)  # s1 bates: s2 5-6 11 + s3 4-6 10 + s0 4-5 9 = 30
    assert m.is_over and m.result is not None
    assert (m.result.winner, m.result.score, m.result.pneu) == (1, (30, 120), False)
