"""duplas-pontos (rules.md §1, §2): scripted deals with hand-checked scores."""

from __future__ import annotations

from functools import partial

import pytest
from tests.support.deals import (
    BATEDOR_DOUBLES,
    F_TEAM0_LIGHTER,
    F_TIE,
    FIVE_DOUBLES_S2,
    GALO_DEAL,
    HAND_A,
    HAND_A2,
    NO_DOUBLE_S0_S1,
    PLAYS_A,
    PLAYS_A2,
    PLAYS_F,
    SPINNER_DEAL,
    chain_f,
)
from tests.support.scripted import deal, events, last_events, legal, new_match, play, seats

from carroca.rules import Match, observation

new = partial(new_match, "duplas-pontos")


def scored(match: Match) -> list[tuple[int, int]]:
    """The current hand's (team, points) events, zero-point ones left out."""
    return [(t, p) for t, p, _ in events(match) if p]


# --------------------------------------------------------------------------- table count


def test_spinner_and_table_count() -> None:
    m = deal(new(), SPINNER_DEAL)
    assert m.turn == 0 and legal(m) == ["6-6"]
    play(m, "6-6")
    assert m.table_count() == 12 and m.score == [0, 0]  # 12: not a multiple of 5
    assert m.turn == 1  # play continues with the seat after the opener
    play(m, "3-6:left")
    # rules.md §2 example: 3 + the uncovered right side (the spinner, counted twice) 12 = 15
    assert m.table_count() == 15 and m.score == [0, 15]
    # only the left arm is covered: no up/down yet. s2 holds 4-6 1-5 1-6 2-2 2-3 2-4 2-5:
    # left 3 takes 2-3; right 6 takes 1-6 and 4-6.
    assert legal(m) == ["2-3:left", "1-6:right", "4-6:right"]
    play(m, "4-6:right")
    # both arms covered: up and down open showing 6 but count nothing yet: 3 + 4 = 7
    assert m.table_count() == 7 and m.score == [0, 15]
    assert m.open_ends() == [(0, 3), (1, 4), (2, 6), (3, 6)]
    # s3 holds 3-3 2-6 3-4 3-5 4-4 4-5 5-5: left 3: 3-3 3-4 3-5; right 4: 3-4 4-4 4-5;
    # up 6 and down 6: 2-6.
    assert legal(m) == [
        "3-3:left", "3-4:left", "3-5:left",
        "3-4:right", "4-4:right", "4-5:right",
        "2-6:up", "2-6:down",
    ]
    play(m, "3-3:left")
    # a double at an end counts twice: 6 + 4 = 10 (up/down still uncovered: not 6 + 6 more)
    assert m.table_count() == 10 and m.score == [0, 25]
    play(m, "5-6:up")
    # up now covered: 6 + 4 + 5 = 15 (down still uncovered)
    assert m.table_count() == 15 and m.score == [15, 25]
    play(m, "0-6:down")
    # down covered with 0-6: 6 + 4 + 5 + 0 = 15 (the 0 counts as 0, not as the spinner's 6)
    assert m.table_count() == 15 and m.score == [15, 40]
    assert scored(m) == [(1, 15), (1, 10), (0, 15), (1, 15)]


def test_whole_hand_batida_garagem() -> None:
    m = deal(new(), HAND_A)
    play(m, *PLAYS_A)
    # During the hand (see deals.PLAYS_A): team 0 10 + 5 = 15, team 1 10 + 5 + 5 = 20.
    # Garagem: the opponents' pips s1 5-6 (11) + s3 4-6 (10) = 21 -> 20; the partner's 5-5
    # does not count; 4-5 is not a double: no +20. Final 15 + 20 = 35, 20.
    assert m.score == [35, 20]
    log = m.history[-1]
    assert (log.end.kind, log.end.seat, log.end.winner) == ("batida", 0, 0)
    assert [(e.team, e.points) for e in log.events if e.points] == [
        (0, 10), (1, 10), (0, 5), (1, 5), (1, 5), (0, 20),
    ]
    assert log.score == (35, 20)
    assert m.needs_deal and not m.is_over


def test_batida_with_a_double_scores_20_more() -> None:
    m = deal(new(), HAND_A2)
    play(m, *PLAYS_A2)
    # As HAND_A up to play 23 (team 0 15, team 1 20); 4-5 (9) and 4-4 (13) score nothing.
    # Garagem 21 -> 20, plus 20 for the batida with the carroça 4-4: 15 + 20 + 20 = 55.
    assert m.score == [55, 20]
    assert m.history[-1].end.kind == "batida" and m.history[-1].end.seat == 0
    assert [(t, p) for t, p, _ in last_events(m)][-2:] == [(0, 20), (0, 20)]


def test_the_winning_play_counts() -> None:
    # HAND_A, but s0 keeps 4-6 instead of 4-5 (s3 keeps 4-5): after play 24 the ends are
    # left 4-4 (8) and right 4; s0 bates with 4-6 on the left: 6 + 4 = 10 -> team 0 +10.
    hands = seats(
        "6-6 1-2 3-6 0-3 1-5 2-5 4-6",
        HAND_A[1],
        HAND_A[2],
        "0-2 2-4 1-1 0-0 2-3 4-4 4-5",
    )
    m = deal(new(), hands)
    play(m, *PLAYS_A[:24], "4-6:left")
    # 15 during the hand + 10 for the winning play + garagem s1 5-6 11 + s3 4-5 9 = 20
    assert m.score == [45, 20]
    assert [(t, p) for t, p, _ in last_events(m)][-2:] == [(0, 10), (0, 20)]


# --------------------------------------------------------------------------- passe and galo

#: s1 holds no 6, s2 holds 1-6, s3 holds 1-2, s0 holds neither 2 nor 6 besides 6-6.
PASSE_DEAL = seats(
    "6-6 0-0 0-1 0-3 0-4 1-1 1-3",
    "0-5 1-4 1-5 3-3 3-4 3-5 4-4",
    "1-6 0-6 2-2 2-3 2-4 3-6 4-5",
    "1-2 0-2 2-5 2-6 4-6 5-5 5-6",
)


def test_passe_scores_20_for_the_last_player_team() -> None:
    m = deal(new(), PASSE_DEAL)
    play(m, "6-6")  # 12
    assert m.turn == 1 and legal(m) == ["pass"]
    play(m, "pass")  # s0 played last: team 0 +20
    assert m.score == [20, 0] and m.turn == 2
    play(m, "1-6:left")  # L1 + R12 = 13
    play(m, "1-2:left")  # L2 + R12 = 14
    assert m.turn == 0 and legal(m) == ["pass"]  # s0 holds 0-0 0-1 0-3 0-4 1-1 1-3
    play(m, "pass")  # s3 played last: team 1 +20
    assert m.score == [20, 20]
    assert scored(m) == [(0, 20), (1, 20)]


#: s1 and s2 hold no 6; s3 holds 2-6; s0 and s1 hold no 2; s2 holds 2-2.
COSTAS_DEAL = seats(
    "6-6 0-0 0-1 0-3 1-1 1-3 3-3",
    "0-4 0-5 1-4 1-5 3-4 3-5 4-4",
    "0-2 1-2 2-2 2-3 2-4 2-5 4-5",
    "0-6 1-6 2-6 3-6 4-6 5-5 5-6",
)


def test_passe_nas_costas_scores_nothing() -> None:
    m = deal(new(), COSTAS_DEAL)
    play(m, "6-6", "pass")  # first pass: team 0 +20
    assert m.score == [20, 0]
    play(m, "pass")  # s2 passes right after s1: nothing
    assert m.score == [20, 0] and m.turn == 3
    play(m, "2-6:left")  # L2 + 12 = 14
    play(m, "pass")  # s0: a new run, s3 played last: team 1 +20
    play(m, "pass")  # s1: nas costas, nothing
    assert m.score == [20, 20] and m.turn == 2
    play(m, "2-2:left")  # L(2-2) 4 + 12 = 16
    assert m.score == [20, 20]


@pytest.mark.parametrize(
    ("pass_points", "galo_points", "expected"),
    [
        (20, 50, 70),  # defaults: 20 (first pass) + 50 (galo)
        (10, 30, 40),
        (0, 50, 50),
        (25, 0, 25),
        (0, 0, 0),
    ],
)
def test_galo(pass_points: int, galo_points: int, expected: int) -> None:
    m = deal(new(pass_points=pass_points, galo_points=galo_points), GALO_DEAL)
    play(m, "6-6", "pass", "pass")
    assert m.score == [pass_points, 0]  # second pass: nas costas
    play(m, "pass")  # third pass: galo
    assert m.score == [expected, 0]
    # the turn comes back to s0, who plays again
    assert m.turn == 0
    assert legal(m) == [f"{a}-6:{e}" for e in ("left", "right") for a in range(6)]
    play(m, "5-6:left")  # L5 + 12 = 17
    assert m.turn == 1 and m.score == [expected, 0]


# --------------------------------------------------------------------------- saída


def after_hand_a(**options: object) -> Match:
    """A match after HAND_A: score 35-20, s0 was the batedor (no passes in HAND_A)."""
    m = deal(new(**options), HAND_A)
    play(m, *PLAYS_A)
    assert m.score == [35, 20]
    return m


def test_batedor_opens_with_any_double() -> None:
    m = after_hand_a()
    deal(m, BATEDOR_DOUBLES)
    assert m.turn == 0 and legal(m) == ["2-2", "5-5"]
    play(m, "5-5")  # an opening 5-5 counts 10: team 0 +10
    assert m.score == [45, 20] and m.turn == 1


def test_always_six_six() -> None:
    m = after_hand_a(always_six_six=True)
    deal(m, BATEDOR_DOUBLES)
    assert m.turn == 1 and legal(m) == ["6-6"]


@pytest.mark.parametrize("pass_points", [20, 0, 10, 50])
def test_saida_passada(pass_points: int) -> None:
    m = after_hand_a(pass_points=pass_points)
    deal(m, NO_DOUBLE_S0_S1)
    assert m.turn == 0 and legal(m) == ["pass"]
    play(m, "pass")
    # the other team scores 20 whatever pass_points is
    assert m.score == [35, 40]
    assert scored(m) == [(1, 20)]
    # s1 has no double: the saída goes to s2, with any of its doubles
    assert m.turn == 2 and legal(m) == ["0-0", "2-2", "5-5"]
    play(m, "5-5")  # 10: team 0 +10
    assert m.score == [45, 40] and m.turn == 3


#: s0 (the batedor) holds no double and no 3; s1 holds all seven 3s (3-3 its only double).
SAIDA_THEN_GALO = seats(
    "0-1 0-2 0-4 0-5 0-6 1-2 1-4",
    "0-3 1-3 2-3 3-3 3-4 3-5 3-6",
    "0-0 1-1 2-2 1-5 1-6 2-4 2-5",
    "4-4 5-5 6-6 2-6 4-5 4-6 5-6",
)


@pytest.mark.parametrize(
    ("pass_points", "galo_points", "team1"),
    [
        (20, 50, 20 + 20 + 50 + 20),  # saída 20, then passe 20 + galo 50
        (10, 30, 20 + 20 + 10 + 30),
        (0, 0, 20 + 20),
    ],
)
def test_saida_passada_starts_no_run(pass_points: int, galo_points: int, team1: int) -> None:
    m = after_hand_a(pass_points=pass_points, galo_points=galo_points)
    deal(m, SAIDA_THEN_GALO)
    play(m, "pass")  # saída passada: team 1 +20 -> [35, 40]
    assert m.score == [35, 40] and m.turn == 1 and legal(m) == ["3-3"]
    play(m, "3-3")  # 6: nothing
    play(m, "pass")  # s2: first pass of a run -> team 1 + pass_points
    assert m.score == [35, 40 + pass_points]
    play(m, "pass", "pass")  # s3 nas costas, s0 completes the galo for s1
    assert m.score == [35, team1]
    assert m.turn == 1


def test_cinco_carrocas_points() -> None:
    # s2 is dealt five doubles (0-0 1-1 2-2 3-3 4-4); s1 holds 6-6.
    m = deal(new(), FIVE_DOUBLES_S2)
    assert m.turn == 2 and legal(m) == ["five-doubles:points", "five-doubles:redeal"]
    play(m, "five-doubles:points")  # 10 per double: 5 x 10 = 50 for team 0
    assert m.score == [50, 0]
    assert m.turn == 1 and legal(m) == ["6-6"]  # then the opening as usual


def test_cinco_carrocas_six_doubles_points() -> None:
    # s3 is dealt six doubles (all but 6-6): 60 for team 1.
    hands = seats(
        "6-6 0-1 0-2 0-3 0-4 0-5 0-6",
        "1-2 1-3 1-4 1-5 1-6 2-3 2-4",
        "2-5 2-6 3-4 3-5 3-6 4-5 4-6",
        "0-0 1-1 2-2 3-3 4-4 5-5 5-6",
    )
    m = deal(new(), hands)
    assert m.turn == 3
    play(m, "five-doubles:points")
    assert m.score == [0, 60] and m.turn == 0 and legal(m) == ["6-6"]


def test_cinco_carrocas_redeal_first_hand() -> None:
    m = deal(new(), FIVE_DOUBLES_S2)
    play(m, "five-doubles:redeal")
    assert m.history[-1].end.kind == "redeal" and m.history[-1].deal_index == 0
    assert m.score == [0, 0] and m.needs_deal and m.deal_index == 1
    # the redeal keeps the saída rule of the hand it replaces: the 6-6 holder
    deal(m, SPINNER_DEAL)
    assert m.turn == 0 and legal(m) == ["6-6"]


def test_cinco_carrocas_redeal_after_batida() -> None:
    m = after_hand_a()
    deal(m, FIVE_DOUBLES_S2)  # deal index 1
    assert m.turn == 2
    play(m, "five-doubles:redeal")
    assert m.history[-1].end.kind == "redeal" and m.history[-1].deal_index == 1
    assert m.score == [35, 20] and m.deal_index == 2
    # same saída rule: s0, the batedor of HAND_A, opens with any double (no saída passada
    # happened in the replaced hand)
    deal(m, BATEDOR_DOUBLES)
    assert m.turn == 0 and legal(m) == ["2-2", "5-5"]


def test_cinco_carrocas_after_batida_points() -> None:
    m = after_hand_a()
    deal(m, FIVE_DOUBLES_S2)
    play(m, "five-doubles:points")  # team 0 +50 -> 85
    assert m.score == [85, 20]
    # then s0, the batedor, holds no double: it passes the saída, team 1 +20
    assert m.turn == 0 and legal(m) == ["pass"]
    play(m, "pass")
    assert m.score == [85, 40]
    # s1 holds 5-5 and 6-6
    assert m.turn == 1 and legal(m) == ["5-5", "6-6"]


# --------------------------------------------------------------------------- jogo fechado


def test_jogo_fechado_lighter_team_scores() -> None:
    m = deal(new(), F_TEAM0_LIGHTER)
    play(m, *PLAYS_F)
    # table: team 1 +15 (play 8). Blocked: team 0 keeps 9 + 28 = 37, team 1 18 + 35 = 53;
    # team 0 is lighter and scores 53 -> 50.
    assert m.score == [50, 15]
    log = m.history[-1]
    assert (log.end.kind, log.end.seat, log.end.winner) == ("fechado", 1, 0)
    # the hand ends at once: no pass recorded after the block
    assert len(log.steps) == 10 and all(s.action.kind == "play" for s in log.steps)
    assert [(t, p) for t, p, _ in last_events(m)] == [(1, 15), (0, 50)]
    # next hand: the 6-6 holder opens with 6-6 (here s3), although s1 locked and team 0 won
    deal(m, [F_TEAM0_LIGHTER[1], F_TEAM0_LIGHTER[2], F_TEAM0_LIGHTER[3], F_TEAM0_LIGHTER[0]])
    assert m.turn == 3 and legal(m) == ["6-6"]


def test_jogo_fechado_tie_scores_nothing() -> None:
    m = deal(new(), F_TIE)
    play(m, *PLAYS_F)
    # 45 against 45: nobody scores the block; only the table's 15 for team 1
    assert m.score == [0, 15]
    assert m.history[-1].end.kind == "fechado" and m.history[-1].end.winner is None


def test_block_is_no_pass() -> None:
    m = deal(new(), F_TEAM0_LIGHTER)
    play(m, *PLAYS_F[:-1])
    # before the last 6: ends left 5, right 6; s1 holds 5-6 1-2 1-4 1-5 2-2
    assert legal(m) == ["1-5:left", "5-6:left", "5-6:right"]
    play(m, PLAYS_F[-1])
    assert m.needs_deal and m.current_player is None and legal(m) == []
    revealed = observation(m, None).to_dict()["last_hand"]
    assert revealed["hands_left"] == seats(
        "0-0 0-2 0-3 0-4",
        "1-2 1-4 1-5 2-2",
        "0-5 1-1 1-3 2-5 5-5",
        "2-3 3-3 3-4 4-4 4-5",
    )


# --------------------------------------------------------------------------- target

#: H1: team 0 keeps 33 (0-0 0-2 0-3 0-4 | 0-5 1-1 1-2 1-3 5-5), team 1 keeps 57
#: (1-4 1-5 2-2 2-3 | 2-5 3-3 3-4 4-4 4-5): team 0 scores 55, team 1 the table's 15.
TARGET_H1 = chain_f(
    "0-0 0-2 0-3 0-4",  # 9
    "1-4 1-5 2-2 2-3",  # 5+6+4+5 = 20
    "0-5 1-1 1-2 1-3 5-5",  # 5+2+3+4+10 = 24
    "2-5 3-3 3-4 4-4 4-5",  # 7+6+7+8+9 = 37
)
#: H2: team 1 keeps 27 (0-0 0-2 1-1 0-3 | 1-2 0-4 1-3 2-2 0-5), team 0 keeps 63: team 1
#: scores 60 + the table's 15.
TARGET_H2 = chain_f(
    "1-4 2-3 1-5 3-3",  # 5+5+6+6 = 22
    "0-0 0-2 1-1 0-3",  # 0+2+2+3 = 7
    "2-5 3-4 4-4 4-5 5-5",  # 7+7+8+9+10 = 41
    "1-2 0-4 1-3 2-2 0-5",  # 3+4+4+4+5 = 20
)
#: H3: s0 holds five doubles (6-6 0-0 1-1 2-2 3-3); both teams keep 45 (12 + 33, 18 + 27).
TARGET_H3 = chain_f(
    "0-0 1-1 2-2 3-3",  # 0+2+4+6 = 12
    "0-3 0-5 1-2 1-3",  # 3+5+3+4 = 15
    "5-5 4-5 4-4 0-4 0-2",  # 10+9+8+4+2 = 33
    "1-4 1-5 2-3 2-5 3-4",  # 5+6+5+7+7 = 30
)


def test_target_level_scores_play_another_hand() -> None:
    m = new(target=100)
    deal(m, TARGET_H1)
    play(m, *PLAYS_F)
    assert m.score == [55, 15]  # 57 -> 55; table 15
    deal(m, TARGET_H2)
    play(m, *PLAYS_F)
    assert m.score == [55, 90]  # 63 -> 60, + 15: 15 + 75
    deal(m, TARGET_H3)
    assert m.turn == 0 and legal(m) == ["five-doubles:points", "five-doubles:redeal"]
    play(m, "five-doubles:points")  # 5 doubles: team 0 +50 -> 105
    assert m.score == [105, 90] and not m.is_over  # the target is checked at hand end only
    play(m, *PLAYS_F[:8])  # team 1 +15 at play 8 -> 105 all
    assert m.score == [105, 105] and not m.is_over
    play(m, *PLAYS_F[8:])  # 45 against 45: the block scores nothing
    assert m.score == [105, 105]
    # both at or above 100 and level: another hand
    assert not m.is_over and m.needs_deal and m.result is None
    deal(m, TARGET_H1)
    play(m, *PLAYS_F)  # team 0 +55, team 1 +15
    assert m.is_over and m.result is not None
    assert (m.result.winner, m.result.score, m.result.reason) == (0, (160, 120), "target")


def test_target_reached_ends_the_match() -> None:
    m = new(target=100)
    deal(m, TARGET_H3)
    play(m, "five-doubles:points", *PLAYS_F)  # 50, then table 15 for team 1, tie block
    assert m.score == [50, 15] and m.needs_deal
    deal(m, TARGET_H1)
    play(m, *PLAYS_F)  # 50 + 55 = 105, 15 + 15 = 30
    assert m.is_over and m.result is not None
    assert (m.result.winner, m.result.score, m.result.reason) == (0, (105, 30), "target")
    assert m.history[-1].score == (105, 30)


def test_default_target_is_200() -> None:
    m = new()
    for _ in range(3):  # 55 per hand for team 0, 15 for team 1
        deal(m, TARGET_H1)
        play(m, *PLAYS_F)
    assert m.score == [165, 45] and not m.is_over
    deal(m, TARGET_H1)
    play(m, *PLAYS_F)
    assert m.is_over and m.result is not None and m.result.score == (220, 60)
    assert m.result.pneu is False
