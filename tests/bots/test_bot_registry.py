"""`make_bot`: every level by name, a clear error for the others."""

from __future__ import annotations

import pytest

from carroca.bots import BOT_LEVELS, ExpertBot, GreedyBot, RandomBot, UnknownBot, make_bot
from carroca.bots.medium import MediumBot


def test_levels() -> None:
    assert list(BOT_LEVELS) == ["random", "greedy", "medium", "expert-1", "expert"]
    assert isinstance(make_bot("random", 1), RandomBot)
    assert isinstance(make_bot("greedy", 1), GreedyBot)
    assert isinstance(make_bot("medium", 1), MediumBot)
    expert = make_bot("expert", 1, think_ms=40)
    assert isinstance(expert, ExpertBot) and expert.think_ms == 40
    for name in BOT_LEVELS:
        assert make_bot(name, 0).name == name


def test_unknown_level_names_the_known_ones() -> None:
    with pytest.raises(UnknownBot) as info:
        make_bot("grandmaster", 0)
    assert "grandmaster" in str(info.value)
    assert ("Iniciante (random), Fácil (greedy), Médio (medium), Difícil (expert-1) e Mestre "
            "(expert)") in str(info.value)
    assert isinstance(info.value, ValueError)
