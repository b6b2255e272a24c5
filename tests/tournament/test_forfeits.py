"""Withdrawals, no-shows and registration: what the director does when people are absent."""

from __future__ import annotations

import json

import pytest
from tests.support.tournaments import duplas, higher_seed_wins, play_scripted, solos

from carroca.tournament import (
    AlreadyRegistered,
    BadResult,
    Entrant,
    EventFull,
    EventSpec,
    InvalidEvent,
    RegistrationClosed,
    Tournament,
    UnknownEntrant,
    WrongState,
    to_record,
    verify,
)
from carroca.tournament.seeds import offline_seed


def _event(fmt: str = "swiss", n: int = 6, **kw: object) -> Tournament:
    t = Tournament.create(EventSpec(fmt, "mano-a-mano", **kw), "abs",  # type: ignore[arg-type]
                          offline_seed("absent"))
    for e in solos(n):
        t.register(e)
    return t


def test_a_withdrawal_forfeits_the_game_and_ends_the_pairings() -> None:
    t = _event(rounds=3)
    t.start()
    first = t.pair_next_round()
    quitter = first.ties[0].sides[0]
    opponent = first.ties[0].sides[1]
    t.withdraw(quitter)
    game = first.ties[0].games[0]
    assert game.outcome is not None and game.outcome.kind == "forfeit"
    assert game.outcome.absent == (quitter,) and game.outcome.winner == 1
    assert first.ties[0].decided and first.ties[0].winner == opponent
    play_scripted(t, higher_seed_wins)
    second = t.pair_next_round()
    paired = {e for tie in second.ties for e in tie.sides} | set(second.byes)
    assert quitter not in paired and len(second.byes) == 1  # five left: one bye
    while not t.is_finished:
        play_scripted(t, higher_seed_wins)
        if not t.is_finished:
            t.pair_next_round()
    row = next(s for s in t.standings() if s.entrant == quitter)
    assert row.withdrawn and row.points == 0 and row.losses == 1
    winner_row = next(s for s in t.standings() if s.entrant == opponent)
    meeting = t.meetings()[opponent][0]
    assert meeting.forfeit and not meeting.played and meeting.result == "win"
    assert winner_row.points >= 1
    assert t.log.count({"withdraw": quitter}) == 1
    verify(json.loads(json.dumps(to_record(t))))


def test_no_shows_one_side_or_both() -> None:
    t = _event(n=4, rounds=1)
    t.start()
    rnd = t.pair_next_round()
    one, two = (tie.games[0] for tie in rnd.ties)
    with pytest.raises(BadResult):
        t.record_forfeit(one.key, ["somebody"])
    single = t.record_forfeit(one.key, [one.sides[0]])
    assert (single.kind, single.winner, single.score) == ("forfeit", 1, (0, 0))
    both = t.record_forfeit(two.key, list(two.sides))
    assert both.winner is None and rnd.ties[1].winner is None
    assert t.is_finished
    rows = {s.entrant: s for s in t.standings()}
    assert rows[one.sides[1]].points == 1 and rows[one.sides[1]].buchholz == 0
    assert all(rows[e].points == 0 and rows[e].losses == 1 for e in two.sides)
    verify(json.loads(json.dumps(to_record(t))))


def test_a_knockout_walkover_after_a_withdrawal() -> None:
    t = Tournament.create(EventSpec("knockout", "duplas-torneio"), "ko", offline_seed("w"))
    for e in duplas(4):
        t.register(e)
    t.start()
    seed = {e.id: i for i, e in enumerate(t.entrants)}
    t.pair_next_round()
    play_scripted(t, higher_seed_wins)
    finalist = t.entrants[1].id
    t.withdraw(finalist)
    final = t.pair_next_round()
    assert final.ties == [] and final.byes == [t.entrants[0].id]
    assert t.is_finished and t.champion == t.entrants[0].id
    assert [seed[s.entrant] for s in t.standings()][:2] == [0, 1]
    verify(json.loads(json.dumps(to_record(t))))


def test_registration_rules_speak_to_the_player() -> None:
    t = _event(n=0, capacity=3)
    t.register(Entrant("ana", "Ana", ("ana",)))
    with pytest.raises(AlreadyRegistered, match="já está inscrito"):
        t.register(Entrant("ana", "Ana", ("ana",)))
    t.register(Entrant("bia", "Bia", ("bia",)))
    t.register(Entrant("caio", "Caio", ("caio",)))
    with pytest.raises(EventFull, match="lotado"):
        t.register(Entrant("duda", "Duda", ("duda",)))
    t.withdraw("caio")  # before the start the place is freed
    t.register(Entrant("duda", "Duda", ("duda",)))
    with pytest.raises(WrongState, match="um jogador só"):
        t.register(Entrant("x", "X", ("x", "y")))
    with pytest.raises(UnknownEntrant):
        t.withdraw("caio")
    with pytest.raises(WrongState, match="ainda não começou"):
        t.pair_next_round()
    t.start()
    with pytest.raises(RegistrationClosed, match="encerradas"):
        t.register(Entrant("eva", "Eva", ("eva",)))
    assert [e.id for e in t.registrations] == ["ana", "bia", "duda"]


def test_a_duplas_event_counts_capacity_in_duplas() -> None:
    t = Tournament.create(EventSpec("swiss", "duplas-pontos", capacity=2), "d", offline_seed(0))
    t.register(Entrant("d1", "D1", ("a", "b")))
    t.register(Entrant("s1", "S1", ("c",)))
    t.register(Entrant("s2", "S2", ("d",)))
    with pytest.raises(EventFull):
        t.register(Entrant("s3", "S3", ("e",)))
    with pytest.raises(AlreadyRegistered):
        Tournament.create(t.spec, "d2", offline_seed(0)).register(Entrant("d", "D", ("a", "a")))


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"format": "roundrobin", "ruleset": "pontos"}, "desconhecido"),
        ({"format": "swiss", "ruleset": "canastra"}, "canastra"),
        ({"format": "knockout", "ruleset": "pontos", "best_of": 2}, "ímpar"),
        ({"format": "swiss", "ruleset": "pontos", "best_of": 3}, "mata-mata"),
        ({"format": "arena", "ruleset": "pontos"}, "duração"),
        ({"format": "swiss", "ruleset": "pontos", "duration": 60}, "Só a arena"),
        ({"format": "knockout", "ruleset": "pontos", "rounds": 3}, "rodadas"),
        ({"format": "swiss", "ruleset": "pontos", "options": {"target": 0}}, "target"),
    ],
)
def test_events_that_cannot_be_held(kwargs: dict[str, object], words: str) -> None:
    with pytest.raises(InvalidEvent, match=words):
        EventSpec(**kwargs)  # type: ignore[arg-type]
