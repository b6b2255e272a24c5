"""`make_bot`: every level by name, a clear error for the others."""

from __future__ import annotations

import pytest

from carroca.bots import BOT_LEVELS, GreedyBot, RandomBot, UnknownBot, make_bot


def test_levels() -> None:
    assert list(BOT_LEVELS) == ["random", "greedy"]
    assert isinstance(make_bot("random", 1), RandomBot)
    assert isinstance(make_bot("greedy", 1), GreedyBot)
    for name in BOT_LEVELS:
        assert make_bot(name, 0).name == name


def test_unknown_level_names_the_known_ones() -> None:
    with pytest.raises(UnknownBot) as info:
        make_bot("expert", 0)
    assert "expert" in str(info.value)
    assert "random, greedy" in str(info.value)
    assert isinstance(info.value, ValueError)
