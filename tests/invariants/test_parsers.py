"""Hypothesis properties of the text parsers: tiles, actions and command-line options."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from carroca.rules import ACTIONS, RULESETS, RulesError, get_ruleset
from carroca.rules import actions as A
from carroca.rules import tiles as T


@given(st.sampled_from(ACTIONS))
def test_action_text_round_trips(action: A.Action) -> None:
    assert A.parse(str(action)) is action


@given(st.integers(0, 6), st.integers(0, 6))
def test_tile_text_in_either_order(a: int, b: int) -> None:
    t = T.tile(a, b)
    assert T.parse(f"{a}-{b}") == t == T.parse(f"{b}:{a}")
    assert T.NAMES[t] == f"{min(a, b)}-{max(a, b)}"
    assert T.parse(T.NAMES[t], strict=True) == t


@given(st.integers(0, 6), st.integers(0, 6))
def test_strict_tiles_want_record_form(a: int, b: int) -> None:
    text = f"{a}-{b}"
    if a <= b:
        assert T.parse(text, strict=True) == T.tile(a, b)
    else:
        try:
            T.parse(text, strict=True)
        except RulesError:
            pass
        else:
            raise AssertionError(f"{text} accepted in strict form")


@pytest.mark.slow
@given(st.text(max_size=12))
def test_any_text_parses_or_is_refused_by_name(text: str) -> None:
    for parse in (T.parse, A.parse):
        try:
            parse(text)
        except RulesError as err:
            assert err.message  # a message a player can read
    try:
        strict = T.parse(text, strict=True)
    except RulesError:
        return
    assert T.NAMES[strict] == text  # strict form accepts exactly the record names


@given(
    st.sampled_from(sorted(RULESETS)),
    st.dictionaries(st.sampled_from(["target", "pass_points", "galo_points", "always_six_six",
                                     "count_partner", "capicu_bonus", "hands_to_win",
                                     "hand_end_pips", "bogus"]),
                    st.one_of(st.text(max_size=6), st.integers(-5, 600).map(str),
                              st.sampled_from(["true", "false", "sim", "0"])),
                    max_size=3),
)
def test_option_text_builds_valid_options_or_is_refused(name: str, values: dict[str, str]) -> None:
    rs = get_ruleset(name)
    try:
        opts = rs.make_options(values, strings=True)
    except RulesError as err:
        assert err.message
        return
    assert isinstance(opts, rs.options_type)
    assert set(values) <= set(rs.option_names())
