"""One against one (rules.md §1, §4): the first-hand opening and the boneyard."""

from __future__ import annotations

import pytest
from tests.support.deals import F1_S1_LIGHTER, PLAYS_F1
from tests.support.scripted import assert_refused, deal, legal, play, seats

from carroca.rules import IllegalMove, Match, observation

ONE_V_ONE = ["mano-a-mano", "classico", "bloqueio", "pontos"]
DRAWING = ["mano-a-mano", "classico", "pontos"]


# --------------------------------------------------------------------------- first opening


@pytest.mark.parametrize("ruleset", ONE_V_ONE)
def test_highest_double_dealt_opens(ruleset: str) -> None:
    # 6-6 lies in the boneyard; s0 holds 4-4, s1 holds 5-5: s1 opens with 5-5
    m = deal(Match(ruleset), seats(
        "4-4 0-1 0-2 0-3 0-4 0-5 0-6",
        "5-5 1-2 1-3 1-4 1-5 1-6 2-3",
    ))
    assert m.turn == 1 and legal(m) == ["5-5"]


@pytest.mark.parametrize("ruleset", ONE_V_ONE)
def test_a_low_double_beats_heavy_tiles(ruleset: str) -> None:
    # the only doubles dealt are 0-0 (s0) and 1-1 (s1); s0 also holds 5-6 and 4-6
    m = deal(Match(ruleset), seats(
        "0-0 5-6 4-6 0-1 0-2 0-3 0-4",
        "1-1 1-2 1-3 1-4 1-5 1-6 2-3",
    ))
    assert m.turn == 1 and legal(m) == ["1-1"]


#: No double dealt; 4-6, 5-6 and the doubles are in the boneyard. The heaviest tiles dealt
#: are 4-5 and 3-6 (9 pips each); 3-6 has the higher half.
NO_DOUBLES = seats(
    "4-5 0-1 0-2 0-3 0-4 0-5 0-6",
    "3-6 1-2 1-3 1-4 1-5 1-6 2-3",
)


@pytest.mark.parametrize("ruleset", ONE_V_ONE)
def test_no_double_heaviest_tile_opens(ruleset: str) -> None:
    m = deal(Match(ruleset), NO_DOUBLES)
    assert m.turn == 1 and legal(m) == ["3-6"]
    m = deal(Match(ruleset), [NO_DOUBLES[1], NO_DOUBLES[0]])
    assert m.turn == 0 and legal(m) == ["3-6"]


@pytest.mark.parametrize("ruleset", ONE_V_ONE)
def test_no_double_unique_heaviest(ruleset: str) -> None:
    # s0's heaviest is 2-6 (8); s1's is 1-6 (7)
    m = deal(Match(ruleset), seats(
        "2-6 0-1 0-2 0-3 0-4 0-5 0-6",
        "1-6 1-2 1-3 1-4 1-5 2-3 2-4",
    ), ["0-0", "1-1", "2-2", "3-3", "4-4", "5-5", "6-6", "2-5", "3-4", "3-5", "3-6", "4-5",
        "4-6", "5-6"])
    assert m.turn == 0 and legal(m) == ["2-6"]


# --------------------------------------------------------------------------- drawing

#: s0 opens 6-6; s1 holds no 6 and draws 0-0, 1-1, then 5-6, which fits.
D0 = seats(
    "6-6 0-1 0-2 0-3 0-4 0-5 1-2",
    "1-3 1-4 1-5 2-2 2-3 2-4 2-5",
)


@pytest.mark.parametrize("ruleset", DRAWING)
def test_draw_until_a_tile_fits(ruleset: str) -> None:
    m = deal(Match(ruleset), D0, ["0-0", "1-1", "5-6"], fill=True)
    play(m, "6-6")
    assert m.turn == 1 and legal(m) == ["draw"]
    assert_refused(m, "pass", IllegalMove)  # the boneyard still has tiles
    play(m, "draw")  # 0-0: does not fit 6
    assert m.turn == 1 and legal(m) == ["draw"] and m.boneyard_left == 13
    play(m, "draw")  # 1-1
    assert m.turn == 1 and legal(m) == ["draw"]
    play(m, "draw")  # 5-6 fits either end
    assert m.turn == 1 and legal(m) == ["5-6:left", "5-6:right"]
    assert_refused(m, "draw", IllegalMove)  # a tile fits: no more drawing
    assert_refused(m, "pass", IllegalMove)
    play(m, "5-6:left")
    assert m.turn == 0 and m.boneyard_left == 11
    obs = observation(m, 0)
    assert obs.hand_sizes == (6, 7 + 3 - 1)
    # s0 sees that s1 drew three times, not what
    assert [s.to_dict() for s in obs.steps][1:4] == [{"seat": 1, "type": "draw"}] * 3
    assert [s.to_dict().get("tile") for s in observation(m, 1).steps][1:4] == [
        "0-0", "1-1", "5-6",
    ]
    # pontos: 12 then 5 + 12 = 17, nothing scored
    assert m.score == [0, 0]


#: s0 holds six 6s and 0-0; s1 holds no 6; the boneyard is 13 tiles without a 6, then 5-6.
D1 = seats(
    "6-6 0-6 1-6 2-6 3-6 4-6 0-0",
    "1-1 1-2 1-3 1-4 1-5 2-2 2-3",
)
D1_BONEYARD = [
    "0-1", "0-2", "0-3", "0-4", "0-5", "2-4", "2-5", "3-3", "3-4", "3-5", "4-4", "4-5", "5-5",
    "5-6",
]


@pytest.mark.parametrize("ruleset", DRAWING)
def test_pass_only_with_an_empty_boneyard(ruleset: str) -> None:
    m = deal(Match(ruleset), D1, D1_BONEYARD)
    play(m, "6-6")
    for _ in range(13):
        assert legal(m) == ["draw"]
        play(m, "draw")
    assert legal(m) == ["draw"]
    play(m, "draw")  # the 14th tile, 5-6, fits
    assert legal(m) == ["5-6:left", "5-6:right"] and m.boneyard_left == 0
    play(m, "5-6:left")  # L5 R6: 5 + 12 = 17
    play(m, "4-6:right")  # s0: L5 R4: 9
    play(m, "4-4:right")  # s1: L5 R(4-4): 5 + 8 = 13
    # s0 holds 0-6 1-6 2-6 3-6 0-0: nothing fits 5 or 4 and there is nothing to draw
    assert m.turn == 0 and legal(m) == ["pass"]
    assert_refused(m, "draw", IllegalMove)
    play(m, "pass")
    assert m.turn == 1 and not m.needs_deal
    play(m, "4-5:right")  # L5 R5: 10 (pontos: s1 +10)
    assert legal(m) == ["pass"]
    play(m, "pass")
    assert m.turn == 1
    # no passe points outside duplas-pontos
    assert m.score == ([0, 10] if ruleset == "pontos" else [0, 0])


@pytest.mark.parametrize(
    ("ruleset", "score"),
    [
        ("mano-a-mano", [0, 87]),  # s1 scores s0's 87 pips, not rounded
        ("classico", [0, 1]),
        ("pontos", [0, 15]),  # the table's 15 only (hand_end_pips off)
    ],
)
def test_block_detected_after_the_last_draw(ruleset: str, score: list[int]) -> None:
    m = deal(Match(ruleset), F1_S1_LIGHTER)
    play(m, *PLAYS_F1)
    # left 6, right 6, every 6 on the table, but the boneyard holds 14 tiles: not blocked
    assert not m.needs_deal and m.turn == 0
    for _ in range(14):
        assert legal(m) == ["draw"]
        play(m, "draw")
    # blocked at the last draw: no pass is recorded
    log = m.history[-1]
    assert (log.end.kind, log.end.seat, log.end.winner) == ("fechado", 1, 1)
    assert len(log.steps) == 24 and log.steps[-1].action.kind == "draw"
    # s0 holds 4-4 5-5 (18) + the 14 drawn (69) = 87; s1 holds 0-0 1-2 = 3: s1 wins
    assert m.score == score
