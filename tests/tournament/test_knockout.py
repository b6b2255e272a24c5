"""Mata-mata through the director: a seeded bracket of 8 duplas in duplas-torneio, best of 3."""

from __future__ import annotations

import json

from tests.support.tournaments import duplas, play_scripted, solos

from carroca.tournament import Entrant, EventSpec, Game, Tournament, to_record, verify
from carroca.tournament.knockout import bracket_order, first_slots
from carroca.tournament.seeds import offline_seed


def _seed_of(t: Tournament) -> dict[str, int]:
    return {e.id: i + 1 for i, e in enumerate(t.entrants)}


def test_a_knockout_of_8_duplas_best_of_3() -> None:
    spec = EventSpec("knockout", "duplas-torneio", best_of=3)
    assert spec.options == {"target": 100, "count_partner": True, "capicu_bonus": 0}  # La Plaza
    t = Tournament.create(spec, "ko8", offline_seed("ko"))
    for e in duplas(8):
        t.register(e)
    t.start()
    seed = _seed_of(t)
    played: list[Game] = []

    def winner(t: Tournament, game: Game) -> str:
        """The higher seed, except that seed 5 beats seed 4 in games 1 and 3."""
        played.append(game)
        a, b = sorted(game.sides, key=seed.__getitem__)
        if {seed[a], seed[b]} == {4, 5} and game.key[2] in (1, 3):
            return b
        return a

    first = t.pair_next_round()
    assert [sorted(seed[e] for e in tie.sides) for tie in first.ties] == [
        [1, 8], [4, 5], [2, 7], [3, 6]]
    while t.pending_games():
        play_scripted(t, winner)
    for tie in first.ties:
        assert len(tie.games) == (3 if {seed[e] for e in tie.sides} == {4, 5} else 2)
        one, two = tie.games[:2]
        assert two.sides == (one.sides[1], one.sides[0])  # the sides swap every game
        team0 = t.entrant(one.sides[0])
        assert one.players[0::2] == team0.players  # partners across the table
    second = t.pair_next_round()
    assert [sorted(seed[e] for e in tie.sides) for tie in second.ties] == [[1, 5], [2, 3]]
    while t.pending_games():
        play_scripted(t, winner)
    final = t.pair_next_round()
    assert [sorted(seed[e] for e in tie.sides) for tie in final.ties] == [[1, 2]]
    while t.pending_games():
        play_scripted(t, winner)
    assert t.is_finished and t.champion == t.entrants[0].id
    table = t.standings()
    assert [seed[s.entrant] for s in table] == [1, 2, 3, 5, 4, 6, 7, 8]
    assert [s.reached for s in table] == [3, 3, 2, 2, 1, 1, 1, 1]
    assert table[0].points == 3 and table[0].difference == 6  # three ties, six games to none
    assert len(played) == 4 * 2 + 1 + 2 * 2 + 2
    record = json.loads(json.dumps(to_record(t)))
    assert verify(record).champion == t.champion


def test_byes_fall_to_the_top_seeds_and_solos_are_paired_into_duplas() -> None:
    t = Tournament.create(EventSpec("knockout", "duplas-pontos"), "ko6", offline_seed("six"))
    for e in solos(12):
        t.register(e)
    entrants = t.start()
    assert len(entrants) == 6 and all(len(e.players) == 2 for e in entrants)
    assert sorted(p for e in entrants for p in e.players) == [f"p{i:02d}" for i in range(1, 13)]
    assert first_slots([e.id for e in entrants]).count(None) == 2
    seed = _seed_of(t)
    rnd = t.pair_next_round()
    assert sorted(seed[e] for e in rnd.byes) == [1, 2]
    assert [sorted(seed[e] for e in tie.sides) for tie in rnd.ties] == [[4, 5], [3, 6]]

    def higher(t: Tournament, game: Game) -> str:
        return min(game.sides, key=seed.__getitem__)

    while not t.is_finished:
        play_scripted(t, higher)
        if not t.is_finished and not t.pending_games():
            t.pair_next_round()
    assert len(t.rounds) == 3 and t.champion == entrants[0].id
    assert [s.byes for s in t.standings()][:2] == [1, 1]
    verify(json.loads(json.dumps(to_record(t))))


def test_an_odd_solo_is_left_out_and_ratings_order_the_seeds() -> None:
    t = Tournament.create(EventSpec("knockout", "duplas-pontos"), "ko", offline_seed(1))
    for i, rating in enumerate([1500, 1900, 1200, 1700, 1600]):
        t.register(Entrant(f"s{i}", f"s{i}", (f"s{i}",), rating))
    t.register(Entrant("fixed", "fixed", ("f1", "f2"), 2000))
    entrants = t.start()
    assert [e.id for e in t.left_out] == ["s4"]  # registered last
    # strongest with weakest: 1900 & 1200 (1550 on average), 1700 & 1500 (1600)
    assert [e.id for e in entrants] == ["fixed", "s3+s0", "s1+s2"]
    assert [e.rating for e in entrants] == [2000, 1600, 1550]
    assert bracket_order(4) == [1, 4, 2, 3]
