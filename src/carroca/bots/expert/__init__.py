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

from typing import Final

from carroca.bots.expert.expert1 import (
    DEFAULT_THINK_MS,
    EXPERT1_WORLDS,
    FlatExpertBot,
    SearchingBot,
)
from carroca.bots.expert.planner import MIN_WORLDS, Config, rate_actions
from carroca.bots.expert.search import Rated
from carroca.rules import Observation, get_ruleset

#: Worlds per decision that stand for `DEFAULT_THINK_MS` of thinking on an idle machine: the
#: count at which the decisions that run to the budget (racing has not settled them; under wall
#: time those are the ones that think until the deadline) cost the CPU of `expert-1`'s
#: calibrated counts (0.27-0.83 ms of CPU a world, every world in full), both timed on the same
#: 60 decisions of `medium`-vs-`medium` matches per ruleset (`bench/budget.py`, pure-Python
#: engine). Belief weighting makes a world dearer than `expert-1`'s; bitmask playouts and the
#: endgame table make it cheaper.
DEFAULT_WORLDS: Final[dict[str, int]] = {
    "duplas-pontos": 400,
    "duplas-torneio": 600,
    "mano-a-mano": 680,
    "classico": 590,
    "bloqueio": 620,
    "pontos": 740,
}


def default_worlds(ruleset: str, level: str = "expert") -> int:
    """The fixed budget, in worlds per decision, that stands for `DEFAULT_THINK_MS` for that
    searching level (a world costs each level its own CPU)."""
    table = EXPERT1_WORLDS if level == FlatExpertBot.name else DEFAULT_WORLDS
    return table[get_ruleset(ruleset).name]


class ExpertBot(SearchingBot):
    """Belief-weighted determinized search (see the module docstring)."""

    name = "expert"

    def __init__(
        self,
        seed: int | None = None,
        think_ms: int | None = None,
        worlds: int | None = None,
        config: Config | None = None,
    ) -> None:
        super().__init__(seed, think_ms, worlds)
        self.config = config or Config()

    def rate(self, obs: Observation) -> list[Rated]:
        return rate_actions(obs, self.rng, self.think_ms, self.worlds, self.config)


__all__ = ["DEFAULT_THINK_MS", "DEFAULT_WORLDS", "MIN_WORLDS", "ExpertBot", "FlatExpertBot",
           "Rated", "default_worlds"]
