"""The frame shapes the client writes by hand (js/frames.js) are those the server sends.

frames.js takes every frame from wire.d.ts, generated from the server's models, except what the
models type as any object or any string: the last hand's reveal and the match's result
(`View.last_hand`, `View.result`) and the names of a line's ends. Those are checked here against
whole matches of every ruleset (the matches of the browser engine's cases: every way a hand
ends)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from tests.support.engine_cases import RULESETS
from tests.support.webmatches import engine_record, five_doubles_deal

from carroca.rules import Match, observation
from carroca.rules.observation import revealed_hand

FRAMES = Path(__file__).resolve().parents[2] / "src" / "carroca" / "web" / "js" / "frames.js"
SOURCE = FRAMES.read_text(encoding="utf-8")


def members(name: str) -> dict[str, str]:
    """A typedef's members and their types: `@typedef {object} name` with `@property` lines, or
    `@typedef {{a: T, b: U}} name`."""
    block = re.search(r"@typedef \{object\} " + name + r"\n(.*?)\*/", SOURCE, re.S)
    if block:
        props = re.findall(r"@property \{(.+?)\} \[?(\w+)\]?", block.group(1))
        return {member: kind for kind, member in props}
    inline = re.search(r"@typedef \{\{(.+?)\}\} " + name + r" \*/", SOURCE)
    assert inline, f"no typedef {name} in frames.js"
    return dict(re.findall(r"(\w+)\??: ([^,]+)", inline.group(1)))


def literals(kind: str) -> set[str]:
    return set(re.findall(r'"([\w-]+)"', kind))


@pytest.fixture(scope="module")
def matches() -> list[Match]:
    made = [engine_record(ruleset, 11 * k + 1)[1] for k, ruleset in enumerate(RULESETS)]
    made.append(engine_record("mano-a-mano", 8, abandon=True)[1])
    made += [engine_record("duplas-pontos", seed, first_deal=five_doubles_deal())[1]
             for seed in (3, 5)]
    return made


def test_the_typedefs_are_read() -> None:
    assert set(members("Result")) == {"winner", "score", "reason", "pneu"}
    assert members("HandEnd")["kind"] == '"batida" | "fechado" | "redeal" | "abandon"'


def test_a_revealed_hand_is_the_last_hand_frames_js_reads(matches: list[Match]) -> None:
    shape, end, event = members("LastHand"), members("HandEnd"), members("ScoreEvent")
    kinds: set[str] = set()
    for m in matches:
        for log in m.history:
            hand: dict[str, Any] = revealed_hand(log)
            assert set(hand) == set(shape)
            assert set(hand["end"]) == set(end)
            assert all(set(e) == set(event) for e in hand["events"])
            kinds.add(hand["end"]["kind"])
        assert observation(m, None).to_dict()["last_hand"] == revealed_hand(m.history[-1])
    assert kinds == literals(end["kind"])


def test_a_finished_match_has_the_result_frames_js_reads(matches: list[Match]) -> None:
    for m in matches:
        result = observation(m, 0).to_dict()["result"]
        assert set(result) == set(members("Result"))
        assert isinstance(result["pneu"], bool) and isinstance(result["winner"], int)


def test_the_ends_are_the_four_frames_js_names(matches: list[Match]) -> None:
    seen: set[str] = set()
    for m in matches:
        for log in m.history:
            seen |= {spot["end"] for spot in revealed_hand(log)["table"] if "end" in spot}
    end = re.search(r"@typedef \{(.+?)\} End \*/", SOURCE)
    assert end, "no typedef End in frames.js"
    assert seen == literals(end.group(1)) == {"left", "right", "up", "down"}
