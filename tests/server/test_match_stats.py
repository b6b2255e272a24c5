"""What each seat did in a match (`players.stats`): a galo is the player's whose play the
three others passed, a capicú the batedor's, and a stored record gives what the live match did."""

from __future__ import annotations

from tests.support.records import GOLDEN

from carroca.rules.actions import PASS, PLAY
from carroca.server.players.stats import record_stats, seat_stats


def test_a_galo_counts_for_the_player_the_three_others_passed() -> None:
    match = GOLDEN["duplas-pontos"].match()  # its seeds give a galo
    expected = [0, 0, 0, 0]
    for log in match.history:
        for event in log.events:
            if event.reason != "galo":
                continue
            *played, a, b, c = log.steps[: event.index + 1]
            assert [s.action.kind for s in (a, b, c)] == [PASS] * 3
            assert played[-1].action.kind == PLAY
            assert event.team == played[-1].seat % 2
            expected[played[-1].seat] += 1
    assert sum(expected) >= 1
    assert [s["galos"] for s in seat_stats(match)] == expected


def test_batidas_and_capicus_are_the_batedor_s_and_the_winners_won() -> None:
    spec = GOLDEN["duplas-torneio"]  # a capicú among its hands
    match = spec.match()
    counted = seat_stats(match)
    batidas, capicus = [0, 0, 0, 0], [0, 0, 0, 0]
    for log in match.history:
        if log.end.kind == "batida":
            assert log.end.seat is not None and log.steps[-1].seat == log.end.seat
            batidas[log.end.seat] += 1
            capicus[log.end.seat] += log.end.detail == "capicu"
    assert sum(capicus) >= 1
    assert [s["batidas"] for s in counted] == batidas
    assert [s["capicus"] for s in counted] == capicus
    assert match.result is not None
    assert [s["won"] for s in counted] == [seat % 2 == match.result.winner for seat in range(4)]
    assert record_stats(spec.record()) == counted


def test_one_against_one_each_seat_its_own_side() -> None:
    spec = GOLDEN["bloqueio"]
    counted = record_stats(spec.record())
    match = spec.match()
    assert match.result is not None
    assert [s["won"] for s in counted] == [match.result.winner == 0, match.result.winner == 1]
    assert sum(s["batidas"] for s in counted) == sum(
        1 for log in match.history if log.end.kind == "batida")
