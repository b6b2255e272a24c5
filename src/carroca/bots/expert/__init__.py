"""The `expert` level: determinized search over the hidden tiles, from the seat's view only."""

from __future__ import annotations

import random

from carroca.bots.expert.search import Rated, rate_actions
from carroca.rules import Action, Observation

#: Default thinking budget per decision, so a move takes at most about 0.25 s.
DEFAULT_THINK_MS = 200


class ExpertBot:
    name = "expert"

    def __init__(self, seed: int | None = None, think_ms: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.think_ms = DEFAULT_THINK_MS if think_ms is None else think_ms

    def rate(self, obs: Observation) -> list[Rated]:
        return rate_actions(obs, self.rng, self.think_ms)

    def evaluate(self, obs: Observation) -> list[tuple[Action, float]]:
        """The legal actions with the points each is expected to win this hand, best first."""
        return [(r.action, r.value) for r in self.rate(obs)]

    def choose(self, obs: Observation) -> Action:
        if not obs.legal:
            raise ValueError("no legal action for this seat now")
        if len(obs.legal) == 1:
            return obs.legal[0]
        return self.rate(obs)[0].action


__all__ = ["DEFAULT_THINK_MS", "ExpertBot", "Rated"]
