"""The `expert` level: determinized search over the hidden tiles, from the seat's view only.

Worlds are dealt consistently with what the seat knows for certain (passes and draws), then
resampled by how well they explain the other seats' plays (`belief`), and every legal action is
played out in each (`planner`). The first expert, uniform worlds only, stays as `expert-1`
(`expert1.FlatExpertBot`).

Its budget per decision is either wall time or a count of worlds played out:

- `think_ms` (wall time, default `DEFAULT_THINK_MS`): what a live table and `carroca play` use; a
  faster machine plays out more worlds, so its moves depend on the machine and the moment.
- `worlds` with no `think_ms`: exactly that many worlds, so the moves follow from the seed alone,
  on any machine; what `carroca simulate` (default `default_worlds(ruleset)`), `carroca analyze`
  and the server's reviews use, so that the same seed gives byte-identical records and reviews.

Given both, it plays out at least `worlds` worlds and goes on until `think_ms` has passed.
"""

from __future__ import annotations

import random
from typing import Final

from carroca.bots.expert.expert1 import FlatExpertBot
from carroca.bots.expert.planner import MIN_WORLDS, Config, rate_actions
from carroca.bots.expert.search import Rated
from carroca.rules import Action, Observation, get_ruleset

#: Default thinking time per decision, so a move takes at most about 0.25 s.
DEFAULT_THINK_MS: Final = 200

#: Worlds per decision that cost, on average over a match's decisions, about what
#: `DEFAULT_THINK_MS` of thinking does on an idle machine: `expert-1`'s calibrated counts
#: (0.27-0.83 ms of CPU a world) scaled by the CPU the two levels spent on the same 40 positions
#: of medium-vs-medium matches per ruleset (pure-Python engine). Belief weighting makes a world
#: dearer, dropping actions that are surely worse (racing) makes it cheaper, most in 1v1.
DEFAULT_WORLDS: Final[dict[str, int]] = {
    "duplas-pontos": 250,
    "duplas-torneio": 480,
    "mano-a-mano": 600,
    "classico": 650,
    "bloqueio": 620,
    "pontos": 540,
}


def default_worlds(ruleset: str) -> int:
    """The fixed budget, in worlds per decision, that stands for `DEFAULT_THINK_MS`."""
    return DEFAULT_WORLDS[get_ruleset(ruleset).name]


class ExpertBot:
    """Belief-weighted determinized search (see the module docstring)."""

    name = "expert"

    def __init__(
        self,
        seed: int | None = None,
        think_ms: int | None = None,
        worlds: int | None = None,
        config: Config | None = None,
    ) -> None:
        if (think_ms is not None and think_ms < 0) or (worlds is not None and worlds < 1):
            raise ValueError("think_ms must be >= 0 and worlds >= 1")
        self.rng = random.Random(seed)
        if think_ms is None:
            think_ms = DEFAULT_THINK_MS if worlds is None else 0
        self.think_ms = think_ms
        self.worlds = MIN_WORLDS if worlds is None else worlds
        self.config = config or Config()

    @property
    def deterministic(self) -> bool:
        """True when the budget is a count of worlds only: the moves follow from the seed."""
        return self.think_ms == 0

    def rate(self, obs: Observation) -> list[Rated]:
        return rate_actions(obs, self.rng, self.think_ms, self.worlds, self.config)

    def evaluate(self, obs: Observation) -> list[tuple[Action, float]]:
        """The legal actions with the points each is expected to win this hand, best first."""
        return [(r.action, r.value) for r in self.rate(obs)]

    def choose(self, obs: Observation) -> Action:
        if not obs.legal:
            raise ValueError("no legal action for this seat now")
        if len(obs.legal) == 1:
            return obs.legal[0]
        return self.rate(obs)[0].action


__all__ = ["DEFAULT_THINK_MS", "DEFAULT_WORLDS", "MIN_WORLDS", "ExpertBot", "FlatExpertBot",
           "Rated", "default_worlds"]
