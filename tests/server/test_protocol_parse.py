"""`protocol.parse` reads a good message in one pass (`validate_json`): the same message, or the
same refusal, as reading it as JSON first and validating the object (the way that says what is
wrong), on anything a client could send."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import TypeAdapter, ValidationError
from tests.support.examples import examples

from carroca.server.realtime import protocol

SCALARS = st.none() | st.booleans() | st.integers(-2, 2**32) | st.floats(allow_nan=False) | \
    st.text(max_size=30) | st.sampled_from(["6-6", "play:6-6:left", "pass", "abc", "A_b-1"])
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3) |
                      st.dictionaries(st.text(max_size=8), inner, max_size=3), max_leaves=6)
FIELDS = st.sampled_from(["match", "client_seed", "id", "action", "version", "text", "seat",
                          "muted", "extra"])
DATA = st.dictionaries(FIELDS, VALUES, max_size=4)
MESSAGES = st.fixed_dictionaries(
    {"type": st.sampled_from(["join", "leave", "move", "chat", "mute", "ping", "nope"])},
    optional={"data": DATA, "more": VALUES},
)


#: The protocol's own validator of client messages, built from its public union.
ADAPTER: TypeAdapter[Any] = TypeAdapter(protocol.ClientMessage)


def two_passes(text: str) -> Any:
    try:
        raw = json.loads(text)
        return ADAPTER.validate_python(raw)
    except (ValidationError, ValueError, RecursionError):
        return "refused"


def one_pass(text: str) -> Any:
    try:
        return protocol.parse(text)
    except protocol.ProtocolError:
        return "refused"


@settings(max_examples=examples(400), deadline=None)
@given(MESSAGES)
def test_one_pass_reads_what_two_passes_read(message: dict[str, Any]) -> None:
    text = json.dumps(message)
    assert one_pass(text) == two_passes(text)


@settings(max_examples=examples(200), deadline=None)
@given(st.text(max_size=60) | MESSAGES.map(lambda m: json.dumps(m)[:-1]))
def test_anything_else_is_refused_alike(text: str) -> None:
    assert one_pass(text) == two_passes(text)


def test_a_repeated_key_counts_its_last_value_both_ways() -> None:
    text = '{"type": "move", "data": {"id": 1, "id": 2, "action": "pass"}}'
    assert one_pass(text) == two_passes(text)
    assert isinstance(one_pass(text), protocol.Move) and one_pass(text).data.id == 2

