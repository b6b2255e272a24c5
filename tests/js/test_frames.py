"""What a view says of a hand is what the server's models declare, and what frames.js reads.

The client takes every frame type from wire.d.ts, generated from the server's models
(`carroca.server.realtime.wire`), down to the last hand's reveal, the match's result and the
closed sets of names (an end, a step's type, how a hand or a match ended). The engine builds
those parts as plain dicts (`carroca.rules.observation`), so they are checked here against whole
matches of every ruleset (the matches of the browser engine's cases: every way a hand ends):
each reads strictly as its model and writes back the same, and each set of names is the one the
engine writes, no name more or less. frames.js writes none of them by hand."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, get_args

import msgspec
import pytest
from tests.support.engine_cases import RULESETS
from tests.support.webmatches import engine_record, five_doubles_deal

from carroca.rules import Match, actions, observation
from carroca.rules.game import Phase
from carroca.rules.observation import public_step, revealed_hand
from carroca.server.realtime import wire

JS = Path(__file__).resolve().parents[2] / "src" / "carroca" / "web" / "js"
FRAMES = (JS / "frames.js").read_text(encoding="utf-8")
DECLARATIONS = (JS / "wire.d.ts").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def matches() -> list[Match]:
    made = [engine_record(ruleset, 11 * k + 1)[1] for k, ruleset in enumerate(RULESETS)]
    made.append(engine_record("mano-a-mano", 8, abandon=True)[1])
    made += [engine_record("duplas-pontos", seed, first_deal=five_doubles_deal())[1]
             for seed in (3, 5)]
    return made


def names(alias: Any) -> set[str]:
    return set(get_args(alias))


def as_model(value: dict[str, Any], model: type[msgspec.Struct]) -> msgspec.Struct:
    """`value` read strictly as `model` (no member missing, unknown or of another type), and
    written back the same (none left out)."""
    read = msgspec.convert(value, model, strict=True)
    assert msgspec.to_builtins(read) == value
    return read


def test_a_revealed_hand_is_a_last_hand(matches: list[Match]) -> None:
    kinds: set[str] = set()
    ends: set[str] = set()
    for m in matches:
        for log in m.history:
            hand = as_model(revealed_hand(log), wire.LastHand)
            assert isinstance(hand, wire.LastHand)
            kinds.add(hand.end.kind)
            ends |= {spot.end for spot in hand.table if spot.end is not msgspec.UNSET}
        assert observation(m, None).to_dict()["last_hand"] == revealed_hand(m.history[-1])
    assert kinds == names(wire.HandEndKind)
    assert ends == names(wire.End)


def test_a_finished_match_has_a_result(matches: list[Match]) -> None:
    reasons: set[str] = set()
    for m in matches:
        result = as_model(observation(m, 0).to_dict()["result"], wire.Result)
        assert isinstance(result, wire.Result)
        reasons.add(result.reason)
    assert reasons == names(wire.ResultReason)


def test_the_steps_are_the_models(matches: list[Match]) -> None:
    types: set[str] = set()
    choices: set[str] = set()
    for m in matches:
        for log in m.history:
            for step in log.steps:
                public = as_model(public_step(step).to_dict(), wire.Step)
                assert isinstance(public, wire.Step)
                types.add(public.type)
                if public.choice is not msgspec.UNSET:
                    choices.add(public.choice)
    assert types == names(wire.StepType)
    assert choices == names(wire.FiveChoice)


def test_the_sets_of_names_are_the_engines() -> None:
    assert names(wire.End) == set(actions.END_NAMES)
    assert names(wire.StepType) == {actions.PLAY, actions.DRAW, actions.PASS,
                                    actions.FIVE_DOUBLES}
    assert names(wire.FiveChoice) == set(actions.FIVE_CHOICES)
    assert names(wire.Phase) == {p.name.lower() for p in Phase}


def test_frames_js_writes_no_shape_by_hand() -> None:
    """Every typedef of frames.js is a type of wire.d.ts (but `Frames`, their map by type)."""
    typedefs = re.findall(r"@typedef \{(.+?)\} (\w+)", FRAMES)
    assert {"LastHand", "HandEnd", "ScoreEvent", "Result", "End", "View", "State"} <= {
        name for _, name in typedefs}
    for kind, name in typedefs:
        if name == "Frames":
            assert kind == '{[F in ServerFrame as F["type"]]: F["data"]}'
            continue
        imported = re.fullmatch(r'import\("\./wire"\)\.(\w+)', kind)
        assert imported, f"frames.js writes {name} by hand: {kind}"
        assert re.search(rf"^export (interface|type) {imported.group(1)}\b", DECLARATIONS, re.M)
