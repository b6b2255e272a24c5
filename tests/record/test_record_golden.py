"""Golden records and record.md's test vector.

The golden files pin the engine's behaviour: regenerating them from the same seeds must give
byte-identical lines, so any change in how a ruleset plays or scores shows up here. After an
intended change, rewrite them with `python -m tests.support.records` and review the diff.
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.support.records import (
    GOLDEN,
    GOLDEN_DIR,
    PLAYERS,
    VECTOR_COMMITMENT,
    ZERO_SEED,
    Spec,
    golden_line,
    vector_groups,
)

from carroca import fair
from carroca.record import Fairness, RecordError, dumps, loads, read_jsonl, to_record, verify
from carroca.rules import RULESETS

GOLDEN_FILES = sorted(GOLDEN_DIR.glob("*.jsonl"))


def test_one_golden_file_per_ruleset_plus_the_handwritten_one() -> None:
    assert sorted(p.stem for p in GOLDEN_FILES) == sorted([*RULESETS, "handwritten"])
    assert set(GOLDEN) == set(RULESETS)


@pytest.mark.parametrize("path", GOLDEN_FILES, ids=lambda p: p.stem)
def test_golden_records_verify(path: Any) -> None:
    records = list(read_jsonl(path))
    assert records
    for _, rec in records:
        assert not isinstance(rec, RecordError)
        verify(rec)


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_records_regenerate_byte_identical(name: str) -> None:
    stored = (GOLDEN_DIR / f"{name}.jsonl").read_text(encoding="utf-8")
    assert stored == golden_line(name), (
        f"{name}: the engine now writes a different record for the same seeds"
    )


def _features(rec: dict[str, Any]) -> set[str]:
    out = set()
    for hand in rec["hands"]:
        out.add(hand["end"]["kind"])
        for a in hand["actions"]:
            out.add(a["type"] + (":" + a["choice"] if "choice" in a else ""))
    return out


def test_golden_records_cover_the_special_cases() -> None:
    records = {name: verify(loads(golden_line(name))) for name in GOLDEN}
    dp = records["duplas-pontos"]
    reasons = {e.reason for h in dp.history for e in h.events}
    assert {"cinco-carrocas", "saida-passada", "galo", "passe", "mesa", "garagem"} <= reasons
    dt = records["duplas-torneio"]
    assert any(h.end.detail == "capicu" for h in dt.history)
    assert {h.end.kind for h in dt.history} == {"batida", "fechado"}
    assert dt.result is not None and dt.result.pneu
    assert any(h.end.kind == "fechado" and h.end.winner is None
               for h in records["classico"].history)
    assert {"simples", "batida-carroca", "la-e-lo", "cruzada"} <= {
        h.end.detail for h in records["bloqueio"].history
    }
    assert any(e.reason == "pontos-mao" for h in records["pontos"].history for e in h.events)
    for name in ("mano-a-mano", "classico", "pontos"):
        assert "draw" in _features(loads(golden_line(name)))


def test_handwritten_records() -> None:
    """Written by hand in record.md's shape: spaced JSON, extra keys, an unfinished match."""
    (_, seeded), (_, hidden) = read_jsonl(GOLDEN_DIR / "handwritten.jsonl")
    assert isinstance(seeded, dict) and isinstance(hidden, dict)
    assert "server_seed" not in hidden["fairness"] and "result" not in hidden
    for rec in (seeded, hidden):
        m = verify(rec)
        assert not m.is_over and m.current_player == 2
        assert m.history[0].end.kind == "batida" and list(m.history[0].score) == [60, 125]
        assert m.score == [70, 125]  # hand 1 so far: 1-3 and 1-5 each count 5 for team 0
    seeded["hands"][0]["actions"][6]["tile"] = "4-4"
    with pytest.raises(RecordError, match="hand 0, action 6: expected one of "):
        verify(seeded)


# --------------------------------------------------------------------------- record.md's vector


def test_vector_commitment() -> None:
    assert fair.commitment(ZERO_SEED) == VECTOR_COMMITMENT


@pytest.mark.parametrize(
    "spec",
    [
        Spec("duplas-pontos", "test", 0),
        Spec("duplas-torneio", "test", 444000),
        Spec("mano-a-mano", "test", 1323000),
        Spec("bloqueio", "test", 5),
    ],
    ids=lambda s: s.ruleset,
)
def test_vector_deals_in_records(spec: Spec) -> None:
    rec = loads(dumps(spec.record()))
    verify(rec)
    assert rec["fairness"]["commitment"] == VECTOR_COMMITMENT
    assert len(rec["hands"]) >= 2
    for d in (0, 1):
        groups = vector_groups(d)
        hand = rec["hands"][d]
        assert hand["deal_index"] == d
        if len(hand["dealt"]) == 4:
            assert hand["dealt"] == groups
            assert hand["boneyard"] == []
        else:
            assert hand["dealt"] == groups[:2]
            assert hand["boneyard"] == groups[2] + groups[3]
    if len(rec["hands"][0]["dealt"]) == 2:
        assert rec["hands"][0]["boneyard"][0] == "5-5"


def test_vector_record_of_a_scripted_deal_is_checked_against_the_shuffle() -> None:
    """A record that claims the vector's seeds but deals another order is refused."""
    rec = to_record(
        GOLDEN["mano-a-mano"].match(), PLAYERS[2], Fairness(VECTOR_COMMITMENT, "test", ZERO_SEED)
    )
    verify(rec)
    rec["fairness"]["client_seed"] = "Test"
    with pytest.raises(RecordError, match=r"^hand 0: expected dealt\[0\] \(any order\) "):
        verify(rec)
