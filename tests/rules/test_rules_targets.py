"""The match targets each duplas ruleset allows, and those it refuses (docs/rules.md)."""

from __future__ import annotations

import pytest
from tests.support.scripted import new_match

from carroca.rules import InvalidOption

#: ruleset: (targets allowed, targets refused)
TARGETS = {
    "duplas-pontos": ([100, 200, 300], [50, 150, 0]),
    "duplas-torneio": ([50, 100, 150, 200, 500], [0, 75, 300]),
}


@pytest.mark.parametrize(("ruleset", "target"),
                         [(rs, t) for rs, (allowed, _) in TARGETS.items() for t in allowed])
def test_allowed_targets(ruleset: str, target: int) -> None:
    assert new_match(ruleset, target=target).options.target == target


@pytest.mark.parametrize(("ruleset", "target"),
                         [(rs, t) for rs, (_, refused) in TARGETS.items() for t in refused])
def test_refused_targets(ruleset: str, target: int) -> None:
    with pytest.raises(InvalidOption):
        new_match(ruleset, target=target)
