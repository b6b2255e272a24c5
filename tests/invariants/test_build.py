"""Which build of the engine the suite is testing."""

from __future__ import annotations

import os

import pytest

import carroca.rules.game as game


@pytest.mark.skipif(
    os.environ.get("CARROCA_EXPECT_COMPILED") != "1", reason="the pure-Python build is under test"
)
def test_compiled_engine_is_the_one_under_test() -> None:
    assert game.__file__ is not None
    assert not game.__file__.endswith(".py"), game.__file__
