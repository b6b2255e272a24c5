"""`carroca.simulate`: seeds fixed by (seed, i), identical records whatever the worker count."""

from __future__ import annotations

import hashlib
import json

import pytest

from carroca import record as rec
from carroca.bots import UnknownBot
from carroca.simulate import Played, bot_seed, match_seeds, play_match, seat_bots, simulate


def _lines(
    ruleset: str, bots: tuple[str, str] | tuple[str], games: int, seed: int, workers: int
) -> list[str]:
    seen: list[Played] = []
    simulate(ruleset, None, bots, games, seed, workers, seen.append, records=True)
    assert [p.index for p in seen] == list(range(games))
    return [p.line for p in seen if p.line is not None]


def test_seeds_follow_the_documented_formula() -> None:
    server, client = match_seeds(5, 3)
    assert server == hashlib.sha256(b"carroca-simulate:5:3").hexdigest()
    assert client == "sim-5-3"
    assert bot_seed(5, 3, 0) != bot_seed(5, 3, 1) != bot_seed(5, 4, 1)


def test_bots_per_seat() -> None:
    assert seat_bots(("greedy", "random"), 4) == ("greedy", "random", "greedy", "random")
    assert seat_bots(("greedy", "random"), 2) == ("greedy", "random")
    assert seat_bots(("greedy",), 4) == ("greedy",) * 4
    with pytest.raises(ValueError):
        seat_bots(("a", "b", "c"), 4)


def test_same_seed_same_records_whatever_the_workers() -> None:
    one = _lines("duplas-pontos", ("greedy", "random"), 6, 11, workers=1)
    again = _lines("duplas-pontos", ("greedy", "random"), 6, 11, workers=1)
    two = _lines("duplas-pontos", ("greedy", "random"), 6, 11, workers=2)
    assert one == again == two
    assert len(one) == 6
    assert _lines("duplas-pontos", ("greedy", "random"), 6, 12, workers=1) != one
    first = json.loads(one[0])
    assert first["players"] == ["greedy-0", "random-1", "greedy-2", "random-3"]
    server, client = match_seeds(11, 0)
    assert first["fairness"]["server_seed"] == server
    assert first["fairness"]["client_seed"] == client


def test_records_verify_and_summary_adds_up() -> None:
    seen: list[Played] = []
    summary = simulate("mano-a-mano", None, ("random",), 5, 2, 1, seen.append, records=True)
    assert summary.matches == 5
    assert sum(summary.wins) == 5
    assert summary.hands == sum(p.hands for p in seen)
    assert summary.points == [sum(p.score[0] for p in seen), sum(p.score[1] for p in seen)]
    for p in seen:
        assert p.line is not None
        match = rec.verify(rec.loads(p.line))
        assert len(match.history) == p.hands
        assert tuple(match.score) == p.score
    assert set(summary.to_dict()) == {
        "matches",
        "hands",
        "wins",
        "points",
        "seconds",
        "hands_per_second",
    }


def test_play_match_gives_the_match_itself() -> None:
    match, players, server, client = play_match("bloqueio", None, ("greedy",), 1, 0)
    assert match.is_over
    assert players == ("greedy-0", "greedy-1")
    assert (server, client) == match_seeds(1, 0)


def test_no_records_unless_asked() -> None:
    seen: list[Played] = []
    simulate("pontos", None, ("random",), 2, 0, on_match=seen.append)
    assert [p.line for p in seen] == [None, None]


def test_unknown_bot_fails_before_playing() -> None:
    with pytest.raises(UnknownBot, match="Nível de bot desconhecido"):
        simulate("pontos", None, ("nobody",), 3, 0)
