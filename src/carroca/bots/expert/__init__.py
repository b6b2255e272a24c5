"""The `expert` level: determinized search over the hidden tiles, from the seat's view only.

Its budget per decision is either wall time or a count of sampled worlds:

- `think_ms` (wall time, default `DEFAULT_THINK_MS`): what a live table and `carroca play` use; a
  faster machine samples more worlds, so its moves depend on the machine and the moment.
- `worlds` with no `think_ms`: exactly that many worlds, so the moves follow from the seed alone,
  on any machine; what `carroca simulate` (default `default_worlds(ruleset)`), `carroca analyze`
  and the server's reviews use, so that the same seed gives byte-identical records and reviews.

Given both, it samples at least `worlds` worlds and goes on until `think_ms` has passed.
"""

from __future__ import annotations

import random
from typing import Final

from carroca.bots.expert.search import MIN_WORLDS, Rated, rate_actions
from carroca.rules import Action, Observation, get_ruleset

#: Default thinking time per decision, so a move takes at most about 0.25 s.
DEFAULT_THINK_MS: Final = 200

#: Worlds per decision that cost, on average over a match's decisions, about what
#: `DEFAULT_THINK_MS` of thinking does on an idle machine: the CPU time per world measured over
#: 600-800 decisions of each ruleset on the project's 2-core machine (0.27-0.83 ms), rounded;
#: expert-vs-greedy matches then spend 150-215 ms of CPU per decision. Worlds cost more where
#: the playouts are long (a boneyard to draw) or score table points after every play.
DEFAULT_WORLDS: Final[dict[str, int]] = {
    "duplas-pontos": 270,
    "duplas-torneio": 600,
    "mano-a-mano": 500,
    "classico": 550,
    "bloqueio": 520,
    "pontos": 470,
}


def default_worlds(ruleset: str) -> int:
    """The fixed budget, in sampled worlds per decision, that stands for `DEFAULT_THINK_MS`."""
    return DEFAULT_WORLDS[get_ruleset(ruleset).name]


class ExpertBot:
    name = "expert"

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

    def rate(self, obs: Observation) -> list[Rated]:
        return rate_actions(obs, self.rng, self.think_ms, self.worlds)

    def evaluate(self, obs: Observation) -> list[tuple[Action, float]]:
        """The legal actions with the points each is expected to win this hand, best first."""
        return [(r.action, r.value) for r in self.rate(obs)]

    def choose(self, obs: Observation) -> Action:
        if not obs.legal:
            raise ValueError("no legal action for this seat now")
        if len(obs.legal) == 1:
            return obs.legal[0]
        return self.rate(obs)[0].action


__all__ = ["DEFAULT_THINK_MS", "DEFAULT_WORLDS", "MIN_WORLDS", "ExpertBot", "Rated",
           "default_worlds"]
