"""Scripted deals and transcripts shared by the rule tests, each checked by hand.

Tiles are listed per seat in the order they are played, then the tiles that stay in hand.
Every deal below was laid out on paper; the comments give the open ends after each play.
"""

from __future__ import annotations

from tests.support.scripted import seats

# --------------------------------------------------------------------------- 2v2

#: HAND_A: a whole 2v2 hand of 25 plays, no passes, s0 opens 6-6 and bates with 4-5.
#: Only `left` and `right` are used, so it is also a valid line hand (duplas-torneio).
#: Left arm outward: 0-6 0-2 2-2 2-4 1-4 1-1 0-1 0-0 0-4 4-4;
#: right arm outward: 1-6 1-2 2-6 3-6 3-3 0-3 0-5 1-5 1-3 2-3 2-5 3-5 3-4 4-5.
#: Left in hand at the end: s1 5-6 (11), s2 5-5 (10), s3 4-6 (10).
HAND_A = seats(
    "6-6 1-2 3-6 0-3 1-5 2-5 4-5",
    "0-6 2-2 1-4 0-1 0-4 3-5 5-6",
    "1-6 2-6 3-3 0-5 1-3 3-4 5-5",
    "0-2 2-4 1-1 0-0 2-3 4-4 4-6",
)
PLAYS_A = [
    "6-6",  # 1 s0: one tile, 12
    "0-6:left",  # 2 s1: L0 + R(spinner) 12 = 12
    "1-6:right",  # 3 s2: L0 + R1 = 1
    "0-2:left",  # 4 s3: L2 + R1 = 3
    "1-2:right",  # 5 s0: L2 + R2 = 4
    "2-2:left",  # 6 s1: L(2-2) 4 + R2 = 6
    "2-6:right",  # 7 s2: L4 + R6 = 10 -> team 0 +10
    "2-4:left",  # 8 s3: L4 + R6 = 10 -> team 1 +10
    "3-6:right",  # 9 s0: L4 + R3 = 7
    "1-4:left",  # 10 s1: L1 + R3 = 4
    "3-3:right",  # 11 s2: L1 + R(3-3) 6 = 7
    "1-1:left",  # 12 s3: L(1-1) 2 + R6 = 8
    "0-3:right",  # 13 s0: L2 + R0 = 2
    "0-1:left",  # 14 s1: L0 + R0 = 0 (zero scores nothing)
    "0-5:right",  # 15 s2: L0 + R5 = 5 -> team 0 +5
    "0-0:left",  # 16 s3: L(0-0) 0 + R5 = 5 -> team 1 +5
    "1-5:right",  # 17 s0: L0 + R1 = 1
    "0-4:left",  # 18 s1: L4 + R1 = 5 -> team 1 +5
    "1-3:right",  # 19 s2: L4 + R3 = 7
    "2-3:right",  # 20 s3: L4 + R2 = 6
    "2-5:right",  # 21 s0: L4 + R5 = 9
    "3-5:right",  # 22 s1: L4 + R3 = 7
    "3-4:right",  # 23 s2: L4 + R4 = 8
    "4-4:left",  # 24 s3: L(4-4) 8 + R4 = 12
    "4-5:right",  # 25 s0: L8 + R5 = 13; batida (ends before: 4 and 4)
]
#: HAND_A2: HAND_A with the last two plays swapped between s3 and s0, so that s0 bates with
#: the double 4-4 on the left (ends before: left 4 from 0-4, right 5 from 4-5).
HAND_A2 = seats(
    "6-6 1-2 3-6 0-3 1-5 2-5 4-4",
    HAND_A[1],
    HAND_A[2],
    "0-2 2-4 1-1 0-0 2-3 4-5 4-6",
)
PLAYS_A2 = [
    *PLAYS_A[:23],
    "4-5:right",  # 24 s3: L4 + R5 = 9
    "4-4:left",  # 25 s0: L(4-4) 8 + R5 = 13; batida with a double
]

#: HAND_C: a line hand (duplas-torneio) where s0 bates with a capicú: 3-4 on ends 4 and 3.
#: Same play order as HAND_A; the right arm goes 1-6 1-2 2-6 3-6 3-3 0-3 0-5 5-5 1-5 1-3 2-3
#: 2-5 3-5 3-4. Left in hand at the end: s1 5-6 (11), s2 4-6 (10), s3 4-5 (9).
HAND_C = seats(
    "6-6 1-2 3-6 0-3 5-5 2-3 3-4",
    "0-6 2-2 1-4 0-1 0-4 2-5 5-6",
    "1-6 2-6 3-3 0-5 1-5 3-5 4-6",
    "0-2 2-4 1-1 0-0 1-3 4-4 4-5",
)
PLAYS_C = [
    "6-6",  # s0: L6 R6
    "0-6:left",  # s1: L0 R6
    "1-6:right",  # s2: L0 R1
    "0-2:left",  # s3: L2 R1
    "1-2:right",  # s0: L2 R2
    "2-2:left",  # s1: L2 R2
    "2-6:right",  # s2: L2 R6
    "2-4:left",  # s3: L4 R6
    "3-6:right",  # s0: L4 R3
    "1-4:left",  # s1: L1 R3
    "3-3:right",  # s2: L1 R3
    "1-1:left",  # s3: L1 R3
    "0-3:right",  # s0: L1 R0
    "0-1:left",  # s1: L0 R0
    "0-5:right",  # s2: L0 R5
    "0-0:left",  # s3: L0 R5
    "5-5:right",  # s0: L0 R5
    "0-4:left",  # s1: L4 R5
    "1-5:right",  # s2: L4 R1
    "1-3:right",  # s3: L4 R3
    "2-3:right",  # s0: L4 R2
    "2-5:right",  # s1: L4 R5
    "3-5:right",  # s2: L4 R3
    "4-4:left",  # s3: L4 R3
    "3-4:right",  # s0: batida; 3-4 fits both ends, which show 4 and 3: capicú
]


#: SPINNER_DEAL: s0 opens 6-6; s1 holds 3-6 and 0-6 (and no 1-2 fit on 6), s2 4-6, s3 3-3 and
#: 2-6, s0 5-6.
SPINNER_DEAL = seats(
    "6-6 5-6 0-0 0-1 0-2 0-3 0-4",
    "3-6 0-6 0-5 1-1 1-2 1-3 1-4",
    "4-6 1-5 1-6 2-2 2-3 2-4 2-5",
    "3-3 2-6 3-4 3-5 4-4 4-5 5-5",
)
#: GALO_DEAL: s0 holds all seven 6s: after 6-6 nobody else can play.
GALO_DEAL = seats(
    "6-6 0-6 1-6 2-6 3-6 4-6 5-6",
    "0-0 0-1 0-2 0-3 0-4 0-5 1-1",
    "1-2 1-3 1-4 1-5 2-2 2-3 2-4",
    "2-5 3-3 3-4 3-5 4-4 4-5 5-5",
)
#: BATEDOR_DOUBLES: s0 holds 2-2 and 5-5; s1 holds 6-6.
BATEDOR_DOUBLES = seats(
    "2-2 5-5 0-1 0-2 0-3 0-4 0-5",
    "6-6 0-0 1-1 0-6 1-2 1-3 1-4",
    "3-3 4-4 1-5 1-6 2-3 2-4 2-5",
    "2-6 3-4 3-5 3-6 4-5 4-6 5-6",
)
#: NO_DOUBLE_S0_S1: s0 (a batedor, in the tests that use it) and s1 hold no double; s2 holds
#: 0-0 2-2 5-5.
NO_DOUBLE_S0_S1 = seats(
    "0-1 0-2 0-3 0-4 0-5 0-6 1-2",
    "1-3 1-4 1-5 1-6 2-3 2-4 2-5",
    "0-0 2-2 5-5 2-6 3-4 3-5 3-6",
    "1-1 3-3 4-4 6-6 4-5 4-6 5-6",
)
#: FIVE_DOUBLES_S2: s2 holds five doubles (0-0 1-1 2-2 3-3 4-4); s1 holds 6-6; s0 none.
FIVE_DOUBLES_S2 = seats(
    "0-3 0-4 0-5 0-6 1-2 1-3 1-4",
    "5-5 6-6 1-5 1-6 2-3 2-4 2-5",
    "0-0 1-1 2-2 3-3 4-4 0-1 0-2",
    "2-6 3-4 3-5 3-6 4-5 4-6 5-6",
)
#: FIVE_DOUBLES_S0: s0 holds five doubles (0-0 1-1 2-2 3-3 4-4) and chooses first.
FIVE_DOUBLES_S0 = seats(
    "0-0 1-1 2-2 3-3 4-4 0-1 0-2",
    "6-6 0-3 0-4 0-5 0-6 1-2 1-3",
    "1-4 1-5 1-6 2-3 2-4 2-5 2-6",
    "3-4 3-5 3-6 4-5 4-6 5-5 5-6",
)


def rotate(hands: list[list[str]], k: int) -> list[list[str]]:
    """The same deal with every hand moved k seats on: seat s gets hands[s - k]."""
    n = len(hands)
    return [hands[(s - k) % n] for s in range(n)]


#: CHAIN_F (2v2): s0 opens 6-6; ten plays all on the left, the right side never covered, so
#: up/down never open. The last play leaves left 6 and right 6 (the spinner, or in a line the
#: 6-6) with all seven 6s on the table: nobody can play, the hand is blocked and s1 is the
#: locker. Table counts (duplas-pontos): 12, 12, 13, 18, 14, 16, 18, 15 (s3, team 1 +15),
#: 17, 18.
PLAYS_F = [
    "6-6",  # s0
    "0-6:left",  # s1: L0 + 12 = 12
    "0-1:left",  # s2: L1 + 12 = 13
    "1-6:left",  # s3: L6 + 12 = 18
    "2-6:left",  # s0: L2 + 12 = 14
    "2-4:left",  # s1: L4 + 12 = 16
    "4-6:left",  # s2: L6 + 12 = 18
    "3-6:left",  # s3: L3 + 12 = 15 -> team 1 +15
    "3-5:left",  # s0: L5 + 12 = 17
    "5-6:left",  # s1: L6 + 12 = 18; blocked
]
_F_PLAYED = seats("6-6 2-6 3-5", "0-6 2-4 5-6", "0-1 4-6", "1-6 3-6")
#: The 18 tiles CHAIN_F never plays (all non-6 tiles but 0-1, 2-4, 3-5): 90 pips in all.
F_LEFTOVERS = {
    "0-0": 0, "0-2": 2, "0-3": 3, "0-4": 4, "0-5": 5, "1-1": 2, "1-2": 3, "1-3": 4, "1-4": 5,
    "1-5": 6, "2-2": 4, "2-3": 5, "2-5": 7, "3-3": 6, "3-4": 7, "4-4": 8, "4-5": 9, "5-5": 10,
}


def chain_f(*kept: str) -> list[list[str]]:
    """A CHAIN_F deal: `kept[s]` are the tiles seat s never plays (4, 4, 5, 5 of them)."""
    hands = seats(*kept)
    assert [len(k) for k in hands] == [4, 4, 5, 5]
    return [_F_PLAYED[s] + hands[s] for s in range(4)]


#: Team 0 keeps 37 pips (s0 9 + s2 28), team 1 keeps 53 (s1 18 + s3 35).
F_TEAM0_LIGHTER = chain_f(
    "0-0 0-2 0-3 0-4",  # 0+2+3+4 = 9
    "1-2 1-4 1-5 2-2",  # 3+5+6+4 = 18
    "0-5 1-1 1-3 2-5 5-5",  # 5+2+4+7+10 = 28
    "2-3 3-3 3-4 4-4 4-5",  # 5+6+7+8+9 = 35
)
#: Both teams keep 45 pips: team 0 s0 17 + s2 28, team 1 s1 14 + s3 31.
F_TIE = chain_f(
    "4-4 0-2 0-3 0-4",  # 8+2+3+4 = 17
    "0-0 1-2 1-4 1-5",  # 0+3+5+6 = 14
    "0-5 1-1 1-3 2-5 5-5",  # 5+2+4+7+10 = 28
    "2-2 2-3 3-3 3-4 4-5",  # 4+5+6+7+9 = 31
)
#: Team 1 keeps 37 pips (s1 9 + s3 28), team 0 keeps 53 (s0 18 + s2 35).
F_TEAM1_LIGHTER = chain_f(
    "1-2 1-4 1-5 2-2",  # 18
    "0-0 0-2 0-3 0-4",  # 9
    "2-3 3-3 3-4 4-4 4-5",  # 35
    "0-5 1-1 1-3 2-5 5-5",  # 28
)

# --------------------------------------------------------------------------- 1v1

#: LINE13: s0 opens 6-6 (the highest double dealt) and bates with its 7th tile; no draws.
#: s1 keeps 4-5 (9 pips). Ends before the last play: left 1 (1-1), right 3 (3-3).
LINE13 = seats(
    "6-6 1-6 1-2 2-6 3-6 3-3 0-3",
    "0-6 0-2 2-2 2-4 1-4 1-1 4-5",
)
PLAYS_LINE13 = [
    "6-6",  # 1 s0: 12
    "0-6:left",  # 2 s1: L0 + R(6-6) 12 = 12
    "1-6:right",  # 3 s0: L0 + R1 = 1
    "0-2:left",  # 4 s1: L2 + R1 = 3
    "1-2:right",  # 5 s0: L2 + R2 = 4
    "2-2:left",  # 6 s1: L(2-2) 4 + R2 = 6
    "2-6:right",  # 7 s0: L4 + R6 = 10 -> s0 +10 (pontos)
    "2-4:left",  # 8 s1: L4 + R6 = 10 -> s1 +10 (pontos)
    "3-6:right",  # 9 s0: L4 + R3 = 7
    "1-4:left",  # 10 s1: L1 + R3 = 4
    "3-3:right",  # 11 s0: L1 + R(3-3) 6 = 7
    "1-1:left",  # 12 s1: L(1-1) 2 + R6 = 8
    "0-3:right",  # 13 s0: L2 + R0 = 2; batida
]
#: LINE13 with the hands swapped: s1 holds 6-6 and plays the opener's part.
LINE13_S1 = [LINE13[1], LINE13[0]]

#: The 1v1 chain: s0 opens 6-6, all ten plays on the left, ending with left 6 and right 6 and
#: every 6 on the table. Table counts (pontos): 12, 12, 13, 18, 14, 16, 18, 15 (s1 +15), 17,
#: 18. s0 plays 6-6 0-1 2-6 4-6 3-5; s1 plays 0-6 1-6 2-4 3-6 5-6; s1 is the locker.
PLAYS_F1 = [
    "6-6",  # s0: 12
    "0-6:left",  # s1: 12
    "0-1:left",  # s0: 13
    "1-6:left",  # s1: 18
    "2-6:left",  # s0: 14
    "2-4:left",  # s1: 16
    "4-6:left",  # s0: 18
    "3-6:left",  # s1: 15 -> s1 +15 (pontos)
    "3-5:left",  # s0: 17
    "5-6:left",  # s1: 18
]
#: F1 with s0 keeping 4-4 5-5 (18) and s1 keeping 0-0 1-2 (3); the boneyard is the other 14
#: non-6 tiles (canonical order), 90 - 18 - 3 = 69 pips.
F1_S1_LIGHTER = seats(
    "6-6 0-1 2-6 4-6 3-5 4-4 5-5",
    "0-6 1-6 2-4 3-6 5-6 0-0 1-2",
)

#: TIE_DRAW (boneyard rulesets): the F1 chain where s0 has to draw at its 5th turn and s1 at
#: its 5th, emptying the boneyard with the last 6; blocked with 45 pips in each hand.
TIE_DRAW = seats(
    "6-6 0-1 2-6 4-6 4-4 5-5 4-5",
    "0-6 1-6 2-4 3-6 3-3 3-4 2-3",
)
TIE_DRAW_BONEYARD = [
    "0-5", "1-5", "2-5", "3-5",  # s0 draws these four (needs a 3 or a 6; only 3-5 fits)
    "0-3", "1-3", "0-0", "0-2", "0-4", "1-1", "1-2", "1-4", "2-2",  # s1 needs a 5 or a 6
    "5-6",  # ... and finds it last: the boneyard is empty when 5-6 is played
]
PLAYS_TIE_DRAW = [
    "6-6",  # s0: L6 R6; 12
    "0-6:left",  # s1: L0; 12
    "0-1:left",  # s0: L1; 13
    "1-6:left",  # s1: L6; 18
    "2-6:left",  # s0: L2; 14
    "2-4:left",  # s1: L4; 16
    "4-6:left",  # s0: L6; 18
    "3-6:left",  # s1: L3; 15 -> s1 +15 (pontos)
    # s0 holds 4-4 5-5 4-5: nothing fits 3 or 6
    "draw", "draw", "draw", "draw",  # 0-5 1-5 2-5, then 3-5 fits
    "3-5:left",  # s0: L5; 17
    # s1 holds 3-3 3-4 2-3: nothing fits 5 or 6
    "draw", "draw", "draw", "draw", "draw", "draw", "draw", "draw", "draw", "draw",
    "5-6:left",  # s1: L6 R6, boneyard empty, every 6 out: blocked; 18
]
# At the block s0 holds 4-4 5-5 4-5 0-5 1-5 2-5 = 8+10+9+5+6+7 = 45 and s1 holds 3-3 3-4 2-3
# 0-3 1-3 0-0 0-2 0-4 1-1 1-2 1-4 2-2 = 6+7+5+3+4+0+2+4+2+3+5+4 = 45.
