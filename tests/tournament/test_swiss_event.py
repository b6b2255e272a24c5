"""A Swiss of 16 through the director, with results the test chooses."""

from __future__ import annotations

import json

import pytest
from tests.support.tournaments import higher_seed_wins, play_scripted, scripted_record, solos

from carroca.tournament import (
    BadResult,
    EventSpec,
    Tournament,
    WrongState,
    to_record,
    verify,
)
from carroca.tournament.results import Meeting
from carroca.tournament.seeds import client_seed, match_seed, offline_seed
from carroca.tournament.standings import decided_by, swiss_standings


def _swiss(n: int = 16, rounds: int = 4, seed: str = "7") -> Tournament:
    t = Tournament.create(EventSpec("swiss", "mano-a-mano", rounds=rounds), "sw16",
                          offline_seed(seed))
    for e in solos(n):
        t.register(e)
    t.start()
    return t


def test_a_swiss_of_16_with_scripted_results() -> None:
    t = _swiss()
    seed_rank = {e.id: i for i, e in enumerate(t.entrants)}
    met: set[frozenset[str]] = set()
    for number in range(1, 5):
        rnd = t.pair_next_round()
        assert rnd.number == number and not rnd.byes and len(rnd.ties) == 8
        points = {s.entrant: s.points for s in t.standings()}
        for tie in rnd.ties:
            key = frozenset(tie.sides)
            assert key not in met
            met.add(key)
            # the higher seed always wins, so every score group is a power of two: no floaters
            assert points[tie.sides[0]] == points[tie.sides[1]]
        with pytest.raises(WrongState):
            t.pair_next_round()  # this round still has games without a result
        play_scripted(t, higher_seed_wins)
    assert t.is_finished
    table = t.standings()
    top = t.entrants[0].id
    assert table[0].entrant == top and table[0].points == 4 and table[0].wins == 4
    assert [s.points for s in table].count(4) == 1  # 16 → 8 → 4 → 2 → 1 unbeaten
    assert [s.rank for s in table] == list(range(1, 17))
    assert sorted(s.points for s in table) == sorted([4, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1,
                                                      1, 0])
    # Buchholz is the sum of the opponents' points
    points = {s.entrant: s.points for s in table}
    meetings = t.meetings()
    for s in table:
        assert s.buchholz == sum(points[m.opponent] for m in meetings[s.entrant]
                                 if m.opponent is not None)
    assert seed_rank[top] == 0
    with pytest.raises(WrongState):
        t.pair_next_round()


def test_seeds_of_every_match_follow_from_the_event_seed() -> None:
    t = _swiss(8, 1)
    t.pair_next_round()
    for game in t.pending_games():
        assert game.server_seed == match_seed(t.event_seed, *game.key)
        assert game.client_seed == client_seed("sw16", *game.key)
        assert game.commitment != t.commitment
    assert len({g.server_seed for g in t.pending_games()}) == 4


def test_the_same_seed_gives_the_same_event_and_another_seed_another() -> None:
    def run(seed: str) -> str:
        t = _swiss(10, 3, seed)
        while not t.is_finished:
            t.pair_next_round()
            play_scripted(t, higher_seed_wins)
        return json.dumps(to_record(t))

    first = run("a")
    assert run("a") == first
    assert run("b") != first
    verify(json.loads(first))


def test_a_record_that_is_not_this_games_is_refused() -> None:
    t = _swiss(4, 2)
    t.pair_next_round()
    one, two = t.pending_games()
    record = scripted_record(t, one, one.sides[0])
    with pytest.raises(BadResult, match="não"):
        t.record_game(two.key, record)  # another table's players and seeds
    record["result"]["winner"] = 1 - record["result"]["winner"]
    with pytest.raises(BadResult, match="não confere"):
        t.record_game(one.key, record)


def test_direct_encounter_breaks_a_tie_before_the_seed() -> None:
    def m(opponent: str, won: bool) -> Meeting:
        return Meeting(opponent, "win" if won else "loss", False, 10 if won else 0,
                       0 if won else 10)

    meetings = {
        "a": [m("b", False), m("x", True), m("y", True)],
        "b": [m("a", True), m("x", False), m("z", True)],
        "x": [m("a", False), m("b", True)],
        "y": [m("a", False)],
        "z": [m("b", False)],
    }
    table = swiss_standings(["a", "b", "x", "y", "z"], meetings, set())
    first, second = table[0], table[1]
    # a and b: 2 points, Buchholz 3, difference +10 each; b beat a, so b is first
    assert (first.entrant, second.entrant) == ("b", "a")
    assert (first.points, first.buchholz, first.difference) == (2, 3, 10)
    assert (second.points, second.buchholz, second.difference) == (2, 3, 10)


def test_what_decided_a_line_level_on_every_number_shown() -> None:
    def line(e: str, points: int, buchholz: int, difference: int) -> dict[str, object]:
        return {"rank": 0, "entrant": e, "points": points, "buchholz": buchholz,
                "difference": difference}

    lines = [line("b", 2, 3, 10), line("a", 2, 3, 10), line("x", 1, 4, 0),
             line("y", 0, 2, -10), line("z", 0, 2, -10), line("w", 0, 2, -10)]
    ratings = {"b": None, "a": None, "x": None, "y": 1500, "z": 1400, "w": 1400}
    beaten = [("b", "a"), ("a", "x"), ("x", "b")]
    # b beat a: the direct encounter; y, z and w met no one of theirs: the seed, by the rating
    # (y above z) or, ratings equal, by the draw of lots (z above w)
    assert decided_by("swiss", lines, ratings, beaten) == \
        [None, "direct", None, None, "rating", "lot"]
    # level, each beat one of the other two: the direct encounter does not part them
    three = [line("p", 1, 1, 0), line("q", 1, 1, 0), line("r", 1, 1, 0)]
    circle = [("p", "q"), ("q", "r"), ("r", "p")]
    assert decided_by("swiss", three, {}, circle) == [None, "lot", "lot"]


def test_what_decided_a_knockout_and_an_arena() -> None:
    final = [{"rank": 1, "entrant": "a", "reached": 2}, {"rank": 2, "entrant": "b", "reached": 2},
             {"rank": 3, "entrant": "c", "reached": 1}, {"rank": 4, "entrant": "d", "reached": 1}]
    assert decided_by("knockout", final, {}, [("a", "c"), ("b", "d"), ("a", "b")], "a") == \
        [None, "final", None, "lot"]
    # before the final is decided there is no champion: the seed orders the finalists
    assert decided_by("knockout", final, {}, [("a", "c"), ("b", "d")]) == \
        [None, "lot", None, "lot"]
    arena = [{"rank": 1, "entrant": "a", "points": 4, "wins": 2, "difference": 5},
             {"rank": 2, "entrant": "b", "points": 4, "wins": 2, "difference": 5},
             {"rank": 3, "entrant": "c", "points": 4, "wins": 2, "difference": 3}]
    assert decided_by("arena", arena, {"a": 1600, "b": 1500}, [("b", "a")]) == \
        [None, "rating", None]
