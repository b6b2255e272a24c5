"""carroca as a PettingZoo AEC environment: one agent per seat, any of the six rulesets.

Each agent observes `{"observation": ..., "action_mask": ...}`: the vector of
`carroca.envs.encoding` built from the engine's `observation(match, seat)` (so never another
seat's tile) and a mask over the engine's 144 action codes (`carroca.rules.actions`). Actions are
those codes.

Rewards, per seat's team: when a hand ends, `hand_weight` times the points the team scored in it
minus the other team's, over the match target (a match's hand rewards add up to the final margin
over the target); when the match ends, `match_weight` times +1 for the winners and -1 for the
losers. The deals follow from `reset(seed=...)` alone, so a seed replays the same match for the
same actions. `single_hand=True` ends the episode with the first hand played (a cinco-carroças
redeal is not one); `max_hands` truncates a match.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

import gymnasium
import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from carroca.envs import encoding
from carroca.rules import Match, Options, get_ruleset, observation
from carroca.rules.actions import ACTION_COUNT, from_code
from carroca.rules.tiles import NAMES, TILE_COUNT

Obs = dict[str, np.ndarray[Any, Any]]


def agent_name(seat: int) -> str:
    return f"seat_{seat}"


class CarrocaEnv(AECEnv[str, Obs, int]):
    """One match (or one hand) of a ruleset, seat by seat."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "carroca_v0",
        "render_modes": ["ansi", "human"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        ruleset: str = "duplas-pontos",
        options: Options | dict[str, object] | None = None,
        *,
        single_hand: bool = False,
        history: bool = False,
        hand_weight: float = 1.0,
        match_weight: float = 1.0,
        max_hands: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        rs = get_ruleset(ruleset)
        if options is None or isinstance(options, dict):
            options = rs.make_options(options)
        elif not isinstance(options, rs.options_type):
            raise TypeError(f"options for {rs.name} must be {rs.options_type.__name__}")
        if max_hands is not None and max_hands < 1:
            raise ValueError("max_hands must be at least 1")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.ruleset = rs
        self.options: Options = options
        self.single_hand = single_hand
        self.history = history
        self.hand_weight = hand_weight
        self.match_weight = match_weight
        self.max_hands = max_hands
        self.render_mode = render_mode
        self.target = float(getattr(options, "target", getattr(options, "hands_to_win", 1)))
        self.possible_agents = [agent_name(s) for s in range(rs.seats)]
        self._seat = {a: s for s, a in enumerate(self.possible_agents)}
        size = encoding.history_size(rs.name) if history else encoding.VIEW_SIZE
        self._obs_space = gymnasium.spaces.Dict(
            {
                "observation": gymnasium.spaces.Box(0.0, 1.0, (size,), np.float32),
                "action_mask": gymnasium.spaces.Box(0, 1, (ACTION_COUNT,), np.int8),
            }
        )
        self._act_space = gymnasium.spaces.Discrete(ACTION_COUNT)
        self.observation_spaces = {a: self._obs_space for a in self.possible_agents}
        self.action_spaces = {a: self._act_space for a in self.possible_agents}
        self._rng = random.Random()
        self.match = Match(rs, options)
        self._hand_start_score = (0, 0)
        self.agents: list[str] = []

    # ------------------------------------------------------------------ spaces

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._obs_space

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self._act_space

    # ------------------------------------------------------------------ episode

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new match; with `seed`, its deals follow from the seed alone."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.match = Match(self.ruleset, self.options)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._deal()

    def _deal(self) -> None:
        self._hand_start_score = (self.match.score[0], self.match.score[1])
        self.match.deal(self._rng.sample(range(TILE_COUNT), TILE_COUNT))
        self._select()

    def _select(self) -> None:
        seat = self.match.current_player
        if seat is not None:
            self.agent_selection = self.possible_agents[seat]

    def observe(self, agent: str) -> Obs:
        seat = self._seat[agent]
        view = observation(self.match, seat)
        vec = encoding.encode_history(view) if self.history else encoding.encode_view(view)
        mask = np.zeros(ACTION_COUNT, np.int8)
        for action in view.legal:
            mask[action.code] = 1
        return {"observation": vec, "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Apply the selected agent's action code; a refused action raises and changes nothing."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is still playing: it needs an action, not None")
        move = from_code(int(action))
        self.match.apply(move, self._seat[agent])
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if self.match.needs_deal or self.match.is_over:
            self._hand_over()
        else:
            self._select()
        self._accumulate_rewards()

    def _hand_over(self) -> None:
        match = self.match
        last = match.history[-1]
        before = self._hand_start_score
        gained = (match.score[0] - before[0], match.score[1] - before[1])
        for agent, seat in self._seat.items():
            team = seat % 2
            reward = self.hand_weight * (gained[team] - gained[1 - team]) / self.target
            if match.result is not None:
                reward += self.match_weight * (1.0 if match.result.winner == team else -1.0)
            self.rewards[agent] = reward
            self.infos[agent] = {"hand_end": last.end.kind, "score": list(match.score)}
        played = last.end.kind != "redeal"
        if match.is_over or (self.single_hand and played):
            self.terminations = {a: True for a in self.agents}
        elif self.max_hands is not None and match.hand_number >= self.max_hands:
            self.truncations = {a: True for a in self.agents}
        else:
            self._deal()

    # ------------------------------------------------------------------ display

    def render(self) -> str | None:
        """The table as a spectator sees it (no hidden tile): text for `ansi`, printed for
        `human`."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        view = observation(self.match, None)
        table = " ".join(NAMES[t] + (f":{e}" if e else "") for _s, t, e in view.table)
        text = (
            f"{self.ruleset.name} hand {view.hand_number + 1} score {list(view.score)} "
            f"turn {view.turn} hand sizes {list(view.hand_sizes)} boneyard {view.boneyard}\n"
            f"table: {table or '-'}"
        )
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the environment holds no window or process."""


def env(ruleset: str = "duplas-pontos", **kwargs: Any) -> AECEnv[str, Obs, int]:
    """The environment behind PettingZoo's order-enforcing wrapper (as PettingZoo's own are)."""
    return wrappers.OrderEnforcingWrapper(CarrocaEnv(ruleset, **kwargs))


raw_env = CarrocaEnv
