"""The `random` level: a uniform choice among the legal actions."""

from __future__ import annotations

import random

from carroca.rules import Action, Observation


class RandomBot:
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, obs: Observation) -> Action:
        if not obs.legal:
            raise ValueError("no legal action for this seat now")
        return self.rng.choice(obs.legal)
