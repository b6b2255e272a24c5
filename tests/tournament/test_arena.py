"""Arena, fast-forwarded: the caller gives the time; results come in when the test says."""

from __future__ import annotations

import json

import pytest
from tests.support.tournaments import scripted_record, solos

from carroca.tournament import EventSpec, Tournament, WrongState, to_record, verify
from carroca.tournament.offline import SECONDS_PER_ACTION, match_seconds, run_event
from carroca.tournament.results import Meeting
from carroca.tournament.seeds import offline_seed
from carroca.tournament.standings import arena_points


def _arena(n: int = 6, duration: float = 600) -> Tournament:
    t = Tournament.create(EventSpec("arena", "mano-a-mano", duration=duration), "ar",
                          offline_seed("arena"))
    for e in solos(n):
        t.register(e)
    t.start()
    return t


def _win(t: Tournament, winner: str, at: float) -> None:
    game = next(g for g in t.pending_games() if winner in g.sides)
    t.record_game(game.key, scripted_record(t, game, winner), at=at)


def test_streak_points() -> None:
    def meet(*results: str) -> list[Meeting]:
        return [Meeting("x", r) for r in results]  # type: ignore[arg-type]

    assert arena_points(meet("win", "win", "win", "win")) == (2 + 2 + 4 + 4, 4)
    assert arena_points(meet("win", "win", "loss", "win", "win", "win")) == (
        2 + 2 + 0 + 2 + 2 + 4, 3)
    assert arena_points(meet("win", "loss", "win")) == (4, 1)


def test_an_arena_fast_forwarded() -> None:
    t = _arena()
    order = [e.id for e in t.entrants]
    wave = t.pair_waiting(0)
    assert wave is not None and [tie.sides for tie in wave.ties] == [
        (order[0], order[1]), (order[2], order[3]), (order[4], order[5])]
    star = order[0]
    _win(t, star, at=50)
    # the two who just played are alone while the others play: they wait, no rematch yet
    assert t.pair_waiting(50) is None
    _win(t, order[2], at=80)
    wave = t.pair_waiting(80)
    assert wave is not None
    # by score: star and order[2] (2 points each) meet; order[1] and order[3] (0) meet
    assert {frozenset(tie.sides) for tie in wave.ties} == {
        frozenset((star, order[2])), frozenset((order[1], order[3]))}
    _win(t, star, at=120)
    _win(t, order[4], at=121)
    with pytest.raises(WrongState):
        t.pair_waiting(100)  # time runs forward only
    t.pair_waiting(130)
    _win(t, star, at=200)
    assert next(s for s in t.standings() if s.entrant == star).points == 2 + 2 + 4
    t.pair_waiting(200)
    # the end: no more pairings, the games still running count when they finish
    assert t.pair_waiting(600) is None
    assert t.closed and not t.is_finished
    with pytest.raises(WrongState):
        t.pair_waiting(700)
    for game in t.pending_games():
        t.record_game(game.key, scripted_record(t, game, game.sides[0]), at=650)
    assert t.is_finished
    table = t.standings()
    assert table[0].entrant == star and table[0].streak is not None
    verify(json.loads(json.dumps(to_record(t))))


def test_two_alone_play_again() -> None:
    t = _arena(2)
    t.pair_waiting(0)
    _win(t, t.entrants[1].id, at=30)
    wave = t.pair_waiting(30)
    assert wave is not None and len(wave.ties) == 1  # nobody else will come: a rematch


def test_an_offline_arena_on_simulated_time() -> None:
    spec = EventSpec("arena", "mano-a-mano", duration=900)
    t = run_event(spec, ["greedy", "random"], 6, 3)
    assert t.is_finished
    games = [g for r in t.rounds for tie in r.ties for g in tie.games]
    assert all(r.at is not None and r.at < 900 for r in t.rounds)
    for rnd in t.rounds:
        for tie in rnd.ties:
            game = tie.games[0]
            assert game.record is not None and game.outcome is not None
            assert game.outcome.at == rnd.at + match_seconds(game.record)
    assert any(g.outcome is not None and g.outcome.at is not None and g.outcome.at > 900
               for g in games)  # finished after the end, and counted
    assert SECONDS_PER_ACTION == 3
    assert sum(s.wins for s in t.standings()) == len(games)
    again = run_event(spec, ["greedy", "random"], 6, 3)
    assert to_record(again) == to_record(t)
    verify(json.loads(json.dumps(to_record(t))))
