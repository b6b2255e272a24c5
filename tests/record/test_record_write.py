"""Writing and reading records: the shape `to_record` writes, round trips, the JSON edges."""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import pytest
from tests.support.records import GOLDEN, PLAYERS, ZERO_SEED, Spec, sample_records
from tests.support.scripted import time_out

from carroca import fair
from carroca.bots.random_bot import RandomBot
from carroca.record import (
    FORMAT,
    Fairness,
    RecordError,
    dumps,
    loads,
    read_jsonl,
    to_record,
    verify,
)
from carroca.rules import RULESETS, Match, get_ruleset, observation
from carroca.rules import actions as A


def fairness_of(rec: dict[str, Any]) -> Fairness:
    f = rec["fairness"]
    return Fairness(f["commitment"], f["client_seed"], f.get("server_seed"))


def reread(rec: dict[str, Any]) -> dict[str, Any]:
    """The record written again from its own replay."""
    return to_record(verify(rec), rec["players"], fairness_of(rec))


# --------------------------------------------------------------------------- round trips


@pytest.mark.parametrize("index", range(len(sample_records())))
def test_round_trip_of_real_matches(index: int) -> None:
    _, line = sample_records()[index]
    rec = loads(line)
    match = verify(rec)
    assert match.is_over
    again = to_record(match, rec["players"], fairness_of(rec))
    assert again == rec
    assert dumps(again) == line


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_replay_equals_the_original_match(name: str) -> None:
    """Not only the record: every hand's steps, events and ends come back identical."""
    spec = GOLDEN[name]
    original = spec.match()
    replayed = verify(to_record(original, spec.players(), spec.fairness()))
    assert replayed.history == original.history
    assert replayed.result == original.result


def test_every_ruleset_is_sampled() -> None:
    assert {name for name, _ in sample_records()} == set(RULESETS)


def test_options_are_written_resolved() -> None:
    for name, line in sample_records():
        rec = loads(line)
        assert list(rec["options"]) == get_ruleset(name).option_names()


def test_shape_of_a_written_record() -> None:
    rec = GOLDEN["duplas-pontos"].record()
    assert list(rec) == [
        "format", "ruleset", "options", "players", "fairness", "hands", "result",
    ]
    assert rec["format"] == FORMAT
    assert rec["options"] == {
        "target": 100, "pass_points": 20, "galo_points": 50, "always_six_six": False,
    }
    assert list(rec["fairness"]) == ["commitment", "server_seed", "client_seed"]
    assert rec["fairness"]["commitment"] == fair.commitment(ZERO_SEED)
    for hand in rec["hands"]:
        assert list(hand) == ["deal_index", "dealt", "boneyard", "actions", "end", "score"]
        assert hand["boneyard"] == []
        plays = [a for a in hand["actions"] if a["type"] == "play"]
        if plays:
            assert "end" not in plays[0]  # the opening tile
            assert all(a["end"] in ("left", "right", "up", "down") for a in plays[1:])
        assert all("auto" not in a for a in hand["actions"])
    assert list(rec["result"]) == ["winner", "score", "reason", "pneu"]
    assert rec["result"]["score"] == rec["hands"][-1]["score"]
    kinds = {a["type"] for h in rec["hands"] for a in h["actions"]}
    assert kinds == {"play", "pass", "five-doubles"}
    choice = next(a for h in rec["hands"] for a in h["actions"] if a["type"] == "five-doubles")
    assert choice == {"seat": choice["seat"], "type": "five-doubles", "choice": "points"}


def test_draws_name_the_tile_drawn() -> None:
    rec = GOLDEN["mano-a-mano"].record()
    hand = rec["hands"][0]
    draws = [a for h in rec["hands"] for a in h["actions"] if a["type"] == "draw"]
    assert draws and all(set(a) == {"seat", "type", "tile"} for a in draws)
    first = next(a for a in hand["actions"] if a["type"] == "draw")
    assert first["tile"] == hand["boneyard"][0]


def test_redeal_end_has_no_seat() -> None:
    m = Match("duplas-pontos")
    m.deal(_order_with_five_doubles())
    m.apply(A.FIVE_REDEAL, m.current_player)
    rec = to_record(m, PLAYERS[4], Fairness("0" * 64, "x"))
    assert rec["hands"][0]["end"] == {"kind": "redeal"}
    assert rec["hands"][0]["actions"] == [{"seat": 0, "type": "five-doubles", "choice": "redeal"}]


def _order_with_five_doubles() -> list[int]:
    from carroca.rules import tiles as T

    doubles = [T.DOUBLE_OF[n] for n in range(7)]
    rest = [t for t in range(28) if t not in doubles]
    return doubles[:5] + rest[:2] + rest[2:] + doubles[5:]


def _play_partly(spec: Spec, steps: int, *, auto_every: int = 0) -> Match:
    """A match of `spec`'s ruleset stopped after `steps` actions (some marked auto)."""
    rs = get_ruleset(spec.ruleset)
    bots = [RandomBot(spec.bot_base + s) for s in range(rs.seats)]
    m = Match(rs)
    done = 0
    while not m.is_over and done < steps:
        if m.needs_deal:
            m.deal(fair.shuffle(spec.server_seed, spec.client_seed, m.deal_index))
            continue
        seat = m.turn
        action = bots[seat].choose(observation(m, seat))
        m.apply(action, seat, auto=bool(auto_every) and done % auto_every == 0)
        done += 1
    return m


def test_auto_is_written_only_where_set_and_survives_a_round_trip() -> None:
    spec = Spec("pontos", "auto", 7)
    m = _play_partly(spec, 10_000, auto_every=3)
    rec = to_record(m, PLAYERS[2], spec.fairness())
    flags = [a.get("auto") for h in rec["hands"] for a in h["actions"]]
    assert set(flags) == {True, None}
    assert flags[::3] == [True] * len(flags[::3])
    assert reread(loads(dumps(rec))) == rec


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
@pytest.mark.parametrize("steps", [0, 1, 9, 40])
def test_unfinished_match_round_trip(ruleset: str, steps: int) -> None:
    spec = Spec(ruleset, "unfinished", 3)
    m = _play_partly(spec, steps)
    if m.is_over:
        pytest.skip("the match ended within the steps")
    hidden = Fairness(fair.commitment(ZERO_SEED), spec.client_seed)
    for fairness in (spec.fairness(), hidden):
        rec = to_record(m, spec.players(), fairness)
        assert "result" not in rec
        assert ("server_seed" in rec["fairness"]) == (fairness.server_seed is not None)
        replayed = verify(loads(dumps(rec)))
        assert replayed.history == m.history
        assert replayed.score == m.score
        assert replayed.current_player == m.current_player
        assert replayed.legal_actions() == m.legal_actions()
        assert reread(rec) == rec
        if m.current_player is not None:
            assert "end" not in rec["hands"][-1] and "score" not in rec["hands"][-1]


def test_a_fresh_match_has_no_hands() -> None:
    rec = to_record(Match("classico"), PLAYERS[2], GOLDEN["classico"].fairness())
    assert rec["hands"] == []
    assert verify(rec).needs_deal


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
@pytest.mark.parametrize("steps", [0, 13])
def test_abandon_round_trip(ruleset: str, steps: int) -> None:
    spec = Spec(ruleset, "abandon", 11)
    m = _play_partly(spec, steps)

    def next_deal(match: Match) -> None:
        match.deal(fair.shuffle(ZERO_SEED, spec.client_seed, match.deal_index))

    if m.needs_deal:
        next_deal(m)
    # the seat to move times out twice (across a hand's end if need be), then abandons
    quitter = time_out(m, next_deal=next_deal)
    assert m.current_player == quitter and m.timeouts_in_a_row(quitter) == 2
    m.abandon(quitter)
    rec = to_record(m, spec.players(), spec.fairness())
    assert rec["hands"][-1]["end"] == {"kind": "abandon", "seat": quitter}
    mine = [a for h in rec["hands"] for a in h["actions"] if a["seat"] == quitter]
    assert [a.get("auto", False) for a in mine[-2:]] == [True, True]
    assert rec["result"]["reason"] == "abandon"
    assert rec["result"]["winner"] == 1 - quitter % 2
    assert verify(rec).history == m.history
    assert reread(loads(dumps(rec))) == rec


def test_to_record_refuses_a_wrong_player_count() -> None:
    m = Match("bloqueio")
    with pytest.raises(ValueError, match="2 player names"):
        to_record(m, ["solo"], Fairness("0" * 64, "x"))
    with pytest.raises(ValueError, match="2 player names"):
        to_record(m, "ab", Fairness("0" * 64, "x"))


# --------------------------------------------------------------------------- dumps / loads


def test_dumps_is_one_compact_line_in_canonical_key_order() -> None:
    rec = GOLDEN["duplas-torneio"].record()
    line = dumps(rec)
    assert "\n" not in line and ", " not in line and ": " not in line

    def shuffled(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: shuffled(value[k]) for k in reversed(list(value))}
        if isinstance(value, list):
            return [shuffled(v) for v in value]
        return value

    mixed = shuffled(rec)
    mixed["zzz"] = 1
    mixed["hands"][0]["actions"][0]["note"] = "x"
    out = dumps(mixed)
    assert out.startswith('{"format":')
    assert out.endswith(',"zzz":1}')
    assert out.replace(',"zzz":1}', "}").replace(',"note":"x"', "") == line


def test_dumps_keeps_names_readable() -> None:
    rec = to_record(Match("classico"), ["José", "Conceição"], Fairness("0" * 64, "ç"))
    assert '"José"' in dumps(rec) and loads(dumps(rec)) == rec


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "not valid JSON"),
        ("{", "not valid JSON"),
        ('{"a": 1,}', "not valid JSON"),
        ('{"a": NaN}', "NaN is not a JSON number"),
        ('{"a": -Infinity}', "Infinity is not a JSON number"),
        ('{"a": 1, "a": 2}', "duplicate key 'a'"),
        ("[" * 100_000, "not valid JSON"),
        ("1" * 5000, "not valid JSON"),
        (b"\xff\xfe{}", "not valid UTF-8"),
    ],
)
def test_loads_rejects_bad_json(text: str | bytes, fragment: str) -> None:
    with pytest.raises(RecordError, match=fragment) as info:
        loads(text)
    assert info.value.hand is None and info.value.action is None


def test_loads_accepts_bytes_and_any_json() -> None:
    assert loads(b'{"a": [1, "\xc3\xa7"]}') == {"a": [1, "ç"]}
    assert loads("[1, 2]") == [1, 2]


def test_read_jsonl(tmp_path: Path) -> None:
    good = dumps(GOLDEN["pontos"].record())
    path = tmp_path / "records.jsonl"
    path.write_bytes(
        b"\xef\xbb\xbf" + good.encode() + b"\r\n\n   \n{broken\n" + b"\xff\n" + b"[]\n"
    )
    out = list(read_jsonl(path))
    assert [n for n, _ in out] == [1, 2, 3, 4]
    assert out[0][1] == loads(good)
    assert isinstance(out[1][1], RecordError) and "not valid JSON" in str(out[1][1])
    assert isinstance(out[2][1], RecordError) and "UTF-8" in str(out[2][1])
    assert out[3][1] == []
    verify(out[0][1])


# --------------------------------------------------------------------------- RecordError


def test_record_error_text_names_the_place() -> None:
    err = RecordError(
        "expected score [35, 120], found [35, 125]",
        hand=2, action=14, expected=[35, 120], found=[35, 125],
    )
    assert str(err) == "hand 2, action 14: expected score [35, 120], found [35, 125]"
    assert str(RecordError("x", hand=0)) == "hand 0: x"
    assert str(RecordError("x")) == "x"
    assert isinstance(err, ValueError)
    back = pickle.loads(pickle.dumps(err))
    assert (str(back), back.hand, back.action, back.expected, back.found) == (
        str(err), 2, 14, [35, 120], [35, 125],
    )


def test_error_values_are_shown_as_json_and_cut_short() -> None:
    rec = loads(dumps(GOLDEN["classico"].record()))
    rec["players"] = ["x" * 500]
    with pytest.raises(RecordError) as info:
        verify(rec)
    text = str(info.value)
    assert text.startswith('players: expected a list of 2 player names (strings), found ["xxx')
    assert text.endswith("...") and len(text) < 260
    assert json.dumps(info.value.found) == json.dumps(["x" * 500])
