"""The `expert-1` level: the first expert, flat Monte Carlo over uniformly sampled worlds.

Kept as it was (same seeded moves) so that the newer `expert` can be measured against it and
old records stay reproducible; see `carroca.bots.expert.search` for how it rates actions.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from carroca.bots.expert.search import MIN_WORLDS, Rated, rate_actions
from carroca.rules import Action, Observation

#: Default thinking time per decision of the searching levels, so a move takes at most about
#: 0.25 s.
DEFAULT_THINK_MS = 200

#: `expert-1`'s worlds per decision that stand for `DEFAULT_THINK_MS` (its CPU time per world
#: measured over 600-800 decisions of each ruleset on a 2-core machine: 0.27-0.83 ms).
EXPERT1_WORLDS: dict[str, int] = {
    "duplas-pontos": 270,
    "duplas-torneio": 600,
    "mano-a-mano": 500,
    "classico": 550,
    "bloqueio": 520,
    "pontos": 470,
}


class SearchingBot(ABC):
    """What the searching levels share: a budget of wall time or worlds, and moves from the
    ratings of `rate` (best first)."""

    name = "searching"

    def __init__(
        self, seed: int | None = None, think_ms: int | None = None, worlds: int | None = None
    ) -> None:
        if (think_ms is not None and think_ms < 0) or (worlds is not None and worlds < 1):
            raise ValueError("think_ms must be >= 0 and worlds >= 1")
        self.rng = random.Random(seed)
        if think_ms is None:
            think_ms = DEFAULT_THINK_MS if worlds is None else 0
        self.think_ms = think_ms
        self.worlds = MIN_WORLDS if worlds is None else worlds

    @property
    def deterministic(self) -> bool:
        """True when the budget is a count of worlds only: the moves follow from the seed."""
        return self.think_ms == 0

    @abstractmethod
    def rate(self, obs: Observation) -> list[Rated]:
        """Every legal action with the points it is expected to win, best first."""

    def evaluate(self, obs: Observation) -> list[tuple[Action, float]]:
        """The legal actions with the points each is expected to win this hand, best first."""
        return [(r.action, r.value) for r in self.rate(obs)]

    def choose(self, obs: Observation) -> Action:
        if not obs.legal:
            raise ValueError("no legal action for this seat now")
        if len(obs.legal) == 1:
            return obs.legal[0]
        return self.rate(obs)[0].action


class FlatExpertBot(SearchingBot):
    """Flat Monte Carlo: uniform worlds, every action rolled out once per world."""

    name = "expert-1"

    def rate(self, obs: Observation) -> list[Rated]:
        return rate_actions(obs, self.rng, self.think_ms, self.worlds)
