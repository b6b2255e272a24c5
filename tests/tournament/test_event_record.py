"""Event records: written, verified by replaying them, and tampered ones rejected."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.support.examples import examples
from tests.support.tournaments import higher_seed_wins, play_scripted, solos

from carroca.tournament import (
    EventRecordError,
    EventSpec,
    Tournament,
    is_event_record,
    replay,
    to_record,
    verify,
)
from carroca.tournament.eventrecord import FORMAT, dumps
from carroca.tournament.seeds import offline_seed

Record = dict[str, Any]


def _event(finish: bool = True) -> Tournament:
    """Seven players, three Swiss rounds (a bye each round), a no-show in round 2."""
    t = Tournament.create(EventSpec("swiss", "mano-a-mano", rounds=3), "rec",
                          offline_seed("record"))
    for e in solos(7):
        t.register(e)
    t.start()
    for number in range(1, 4 if finish else 2):
        t.pair_next_round()
        if number == 2:
            game = t.pending_games()[0]
            t.record_forfeit(game.key, [game.sides[1]])
        play_scripted(t, higher_seed_wins)
    return t


@cache
def _reference() -> str:
    return dumps(to_record(_event()))


def reference() -> Record:
    record: Record = json.loads(_reference())
    return record


def test_a_finished_event_verifies_and_reveals_its_seed() -> None:
    record = reference()
    assert is_event_record(record) and record["format"] == FORMAT
    assert record["fairness"]["event_seed"] == offline_seed("record")
    assert record["state"] == "finished"
    t = verify(record)
    assert [s.to_dict() for s in t.standings()] == record["standings"]
    assert len(record["rounds"]) == 3 and all(len(r["byes"]) == 1 for r in record["rounds"])
    game = record["rounds"][0]["tables"][0]["games"][0]
    assert game["record"]["fairness"]["commitment"] == game["commitment"]


def test_an_event_in_progress_hides_its_seed_and_a_server_can_restore_it() -> None:
    t = _event(finish=False)
    record = json.loads(dumps(to_record(t)))
    assert "event_seed" not in record["fairness"]
    with pytest.raises(EventRecordError, match="once it is over"):
        verify(record)
    restored = replay(record, t.event_seed)
    assert restored.pair_next_round().ties[0].sides == t.pair_next_round().ties[0].sides


def _mutate(change: Callable[[Record], None]) -> Record:
    record = reference()
    change(record)
    return record


def _swap_sides(r: Record) -> None:
    tables = r["rounds"][1]["tables"]
    tables[0]["sides"][0], tables[1]["sides"][0] = tables[1]["sides"][0], tables[0]["sides"][0]


def _flip_winner(r: Record) -> None:
    outcome = r["rounds"][2]["tables"][1]["games"][0]["outcome"]
    outcome["winner"] = 1 - outcome["winner"]


def _edit_match(r: Record) -> None:
    hands = r["rounds"][0]["tables"][0]["games"][0]["record"]["hands"]
    hands[0]["score"][0] += 5


def _swap_matches(r: Record) -> None:
    games = [t["games"][0] for t in r["rounds"][0]["tables"]]
    games[0]["record"], games[1]["record"] = games[1]["record"], games[0]["record"]


def _swap_standings(r: Record) -> None:
    rows = r["standings"]
    rows[0]["entrant"], rows[1]["entrant"] = rows[1]["entrant"], rows[0]["entrant"]


def _other_seed(r: Record) -> None:
    r["fairness"]["event_seed"] = offline_seed("another")


def _other_seed_and_commitment(r: Record) -> None:
    import hashlib

    seed = offline_seed("another")
    r["fairness"]["event_seed"] = seed
    r["fairness"]["commitment"] = hashlib.sha256(bytes.fromhex(seed)).hexdigest()


def _move_bye(r: Record) -> None:
    rnd = r["rounds"][0]
    tie = rnd["tables"][-1]
    rnd["byes"], tie["sides"][1] = [tie["sides"][1]], rnd["byes"][0]


def _rating(r: Record) -> None:
    r["registrations"][6]["rating"] = 2500


def _drop_log_entry(r: Record) -> None:
    del r["log"][3]


def _forfeit_to_win(r: Record) -> None:
    for entry in r["log"]:
        if "forfeit" in entry:
            entry["absent"] = [r["rounds"][1]["tables"][0]["sides"][0]]


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (_swap_sides, "round 2, table 1: expected sides"),
        (_flip_winner, "round 3, table 2, game 1: expected outcome"),
        (_edit_match, "round 1, table 1, game 1: refused by the director: O registro da "
                      "partida (1, 1, 1) não confere: hand 0"),
        (_swap_matches, "round 1, table 1, game 1: refused by the director"),
        (_swap_standings, "standings, rank 1: expected line"),
        (_other_seed, "fairness.commitment: expected sha256(event_seed)"),
        (_other_seed_and_commitment, "expected entrants in seed order"),
        (_move_bye, "round 1: expected byes"),
        (_rating, "expected entrants in seed order"),
        (_drop_log_entry, "log entry 5: refused by the director: A rodada anterior"),
        (_forfeit_to_win, "expected"),
    ],
)
def test_tampered_records_are_rejected(change: Callable[[Record], None], words: str) -> None:
    with pytest.raises(EventRecordError) as caught:
        verify(_mutate(change))
    assert words in str(caught.value)


@pytest.mark.parametrize(
    "value",
    [None, [], "x", {"format": "carroca-event/2"}, {"format": FORMAT},
     {"format": FORMAT, "event": {"format": "swiss"}}],
)
def test_malformed_records_are_rejected_with_a_message(value: object) -> None:
    with pytest.raises(EventRecordError):
        verify(value)


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            if k != "record":  # the match records have their own fuzz tests (tests/record)
                out += _paths(v, (*path, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*path, i))
    return out


JSON = st.recursive(st.none() | st.booleans() | st.integers(-3, 300) | st.text(max_size=6),
                    lambda inner: st.lists(inner, max_size=3) |
                    st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=6)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), JSON)
def test_any_change_is_an_event_record_error_or_harmless(data: st.DataObject,
                                                        value: object) -> None:
    record = reference()
    paths = [p for p in _paths(record) if p]
    path = data.draw(st.sampled_from(paths))
    target = record
    for key in path[:-1]:
        target = target[key]
    before = copy.deepcopy(target[path[-1]])
    target[path[-1]] = value
    try:
        verify(record)
    except EventRecordError:
        return
    # accepted: only what the replay does not read may have changed (a name, a free key)
    assert path[-1] in ("name",) or before == value or path[0] in ("event",), path
