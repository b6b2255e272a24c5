"""The browser engine's reference cases, made by the Python engine (`carroca.rules`).

`python -m tests.support.engine_cases` writes tests/js/engine-cases.json: whole matches of every
ruleset under the verifiable shuffle, as records, with what the Python engine says of each one
(the legal actions before every action, each hand's end, scoring events, score and tiles left, the
result).
node's tests (tests/js/*.test.js) replay them with js/engine.js, js/record.js and js/fair.js;
tests/js/test_cases.py fails when the checked-in file and the Python engine part ways, so the two
engines cannot drift apart unnoticed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.support.webmatches import engine_record, five_doubles_deal

from carroca import fair
from carroca.rules import Match
from carroca.rules import tiles as T

CASES = Path(__file__).resolve().parents[1] / "js" / "engine-cases.json"
RULESETS = ("duplas-pontos", "duplas-torneio", "mano-a-mano", "classico", "bloqueio", "pontos")


def expected(m: Match) -> dict[str, Any]:
    """What the Python engine says of a finished match, replayed from its own history."""
    replay = Match(m.ruleset, m.options)
    hands = []
    for log in m.history:
        replay.deal([t for hand in log.dealt for t in hand] + list(log.boneyard))
        legal = []
        for step in log.steps:
            legal.append([str(a) for a in replay.legal_actions()])
            replay.apply(step.action, step.seat, auto=step.auto)
        if log.end.kind == "abandon":
            replay.abandon(log.end.seat)
        hands.append({"legal": legal, **hand_outcome(log)})
    assert m.result is not None
    res = m.result
    return {"hands": hands, "result": {"winner": res.winner, "score": list(res.score),
                                       "reason": res.reason, "pneu": res.pneu}}


def hand_outcome(log: Any) -> dict[str, Any]:
    """What a finished hand (a `HandLog`) comes to, as both engines report it: its end, the
    score after it, its scoring events and the tiles left in each hand."""
    return {
        "end": {"kind": log.end.kind, "seat": log.end.seat, "winner": log.end.winner,
                "detail": log.end.detail},
        "score": list(log.score),
        "events": [{"index": e.index, "team": e.team, "points": e.points,
                    "reason": e.reason} for e in log.events],
        "left": [[T.NAMES[t] for t in sorted(h)] for h in tiles_left(log)],
    }


def tiles_left(log: Any) -> list[set[int]]:
    """The tiles each seat still held when the hand (a `HandLog`) ended."""
    held = [set(d) for d in log.dealt]
    for step in log.steps:
        if step.action.kind == "play":
            held[step.seat].discard(step.action.tile)
        elif step.action.kind == "draw":
            held[step.seat].add(step.drawn)
    return held


def build() -> dict[str, Any]:
    """Every case, and a few shuffles of the verifiable shuffle by their seeds."""
    made = [engine_record(ruleset, 11 * k + 1) for k, ruleset in enumerate(RULESETS)]
    made.append(engine_record("mano-a-mano", 8, abandon=True))
    shuffled = len(made)  # the rest deal their first hand by hand, not by the shuffle
    for seed in (3, 5):  # five carroças: one keeps the points, one asks for a new deal
        made.append(engine_record("duplas-pontos", seed, first_deal=five_doubles_deal()))
    shuffles = []
    for k in range(4):
        server_seed = f"{7919 * (k + 1):064x}"
        client_seed, deal_index = f"mesa-{k}", 3 * k
        shuffles.append({"serverSeed": server_seed, "clientSeed": client_seed,
                         "dealIndex": deal_index, "commitment": fair.commitment(server_seed),
                         "deal": fair.deal_names(server_seed, client_seed, deal_index)})
    return {"matches": [{"record": rec, "expected": expected(m), "shuffled": k < shuffled}
                        for k, (rec, m) in enumerate(made)],
            "shuffles": shuffles}


def text(cases: dict[str, Any]) -> str:
    return json.dumps(cases, ensure_ascii=False, separators=(",", ":")) + "\n"


if __name__ == "__main__":
    CASES.write_text(text(build()), encoding="utf-8")
