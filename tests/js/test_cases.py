"""The browser engine's reference cases (tests/js/engine-cases.json) are what the Python engine
says today: a change to `carroca.rules` or `carroca.fair` that alters them fails here until the
file is written again (`python -m tests.js.cases`) and node's tests pass on it."""

from __future__ import annotations

import json

from tests.js.cases import CASES, RULESETS, build, text


def test_the_checked_in_cases_are_the_python_engines() -> None:
    made = build()
    kept = json.loads(CASES.read_text(encoding="utf-8"))
    for k, (now, then) in enumerate(zip(made["matches"], kept["matches"], strict=True)):
        assert now == then, f"case {k} ({now['record']['ruleset']}): python -m tests.js.cases"
    assert made["shuffles"] == kept["shuffles"], "python -m tests.js.cases"
    assert CASES.read_text(encoding="utf-8") == text(made)


def test_the_cases_cover_every_ruleset_and_the_rare_ends() -> None:
    kept = json.loads(CASES.read_text(encoding="utf-8"))
    assert {c["record"]["ruleset"] for c in kept["matches"]} == set(RULESETS)
    ends = {h["end"]["kind"] for c in kept["matches"] for h in c["expected"]["hands"]}
    assert {"batida", "fechado", "redeal", "abandon"} <= ends
