"""carroca's six rulesets as OpenSpiel games, so that OpenSpiel's algorithms play carroca's rules.

Importing this module registers `carroca_duplas_pontos`, `carroca_duplas_torneio`,
`carroca_mano_a_mano`, `carroca_classico`, `carroca_bloqueio` and `carroca_pontos`:
`pyspiel.load_game("carroca_bloqueio(target=3)")`. A game's parameters are its ruleset's options
plus `single_hand` (the game is one hand: a cinco-carroças redeal does not count) and `max_hands`
(a match still going after that many hands ends level, for OpenSpiel's finite game length).

Each hand starts with 28 chance nodes that draw the deal order one tile at a time (the first 7 to
seat 0, the next 7 to seat 1, ...; in 1v1 the last 14 are the boneyard, in draw order). Actions
are the engine's action codes (`carroca.rules.actions`, 144). Returns are +1 for the winning
side, -1 for the other (by the match, or by the hand with `single_hand`; 0 when nobody won).
Observations come from the engine's `observation(match, seat)`: the tensors are those of
`carroca.envs.encoding`; the information state adds every finished hand as the seat saw it.
`resample_from_infostate` deals the unseen tiles anew (`carroca.envs.resample`), for ISMCTS.
"""

from __future__ import annotations

import json
import random
from typing import Any, Protocol

import numpy as np
import pyspiel

from carroca.envs import encoding
from carroca.envs.resample import sample_deal
from carroca.rules import RULESETS, Match, Observation, Ruleset, get_ruleset, observation
from carroca.rules.actions import ACTION_COUNT, Action, from_code
from carroca.rules.game import HandLog, Step
from carroca.rules.observation import public_step, revealed_hand
from carroca.rules.rulesets import options_dict
from carroca.rules.tiles import NAMES, TILE_COUNT

#: OpenSpiel's name of each ruleset's game.
GAME_NAMES: dict[str, str] = {name: "carroca_" + name.replace("-", "_") for name in RULESETS}
DEFAULT_MAX_HANDS = 100


def _game_type(rs: Ruleset) -> Any:
    params: dict[str, Any] = dict(options_dict(rs.default_options))
    params["single_hand"] = False
    params["max_hands"] = DEFAULT_MAX_HANDS
    return pyspiel.GameType(
        short_name=GAME_NAMES[rs.name],
        long_name=f"carroca {rs.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=rs.seats,
        min_num_players=rs.seats,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


class CarrocaGame(pyspiel.Game):
    """One ruleset with its options; `ruleset` is fixed per registered name."""

    ruleset: Ruleset

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        rs = self.ruleset
        values = dict(params or {})
        self.single_hand = bool(values.pop("single_hand", False))
        self.max_hands = int(values.pop("max_hands", DEFAULT_MAX_HANDS))
        if self.max_hands < 1:
            raise ValueError("max_hands must be at least 1")
        self.options = rs.make_options(values)
        hand_length = TILE_COUNT + encoding.max_steps(rs.name)
        info = pyspiel.GameInfo(
            num_distinct_actions=ACTION_COUNT,
            max_chance_outcomes=TILE_COUNT,
            num_players=rs.seats,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=(1 if self.single_hand else self.max_hands) * hand_length,
        )
        super().__init__(_game_type(rs), info, params or {})

    def new_initial_state(self) -> CarrocaState:
        return CarrocaState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> CarrocaObserver:
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        return CarrocaObserver(self.ruleset.name, iig_obs_type, params)


class _Box:
    """The state's match. OpenSpiel clones a Python state by deep-copying its attributes; a
    match copies faster (and in the compiled build, at all) through its own `copy`."""

    __slots__ = ("match",)

    def __init__(self, match: Match) -> None:
        self.match = match

    def __deepcopy__(self, memo: dict[int, Any]) -> _Box:
        return _Box(self.match.copy())


class _HandStart:
    """What every state of one hand shares, never copied: the match before the deal, where the
    hand begins in the history, the state there (built on demand) and the finished hands as each
    seat saw them (for information-state strings)."""

    def __init__(self, before: Match, history_length: int) -> None:
        self.before = before
        self.history_length = history_length
        self.root: CarrocaState | None = None
        self.seen: dict[int | None, str] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> _HandStart:
        return self


class CarrocaState(pyspiel.State):
    """A match (or hand) in progress: the engine's `Match` plus the deal being drawn."""

    def __init__(self, game: CarrocaGame) -> None:
        super().__init__(game)
        self._single_hand = game.single_hand
        self._max_hands = game.max_hands
        self._box = _Box(Match(game.ruleset, game.options))
        self._order: list[int] = []
        self._moves = 0
        self._start = _HandStart(self._box.match.copy(), 0)
        self._done = False
        self._returns = [0.0] * game.ruleset.seats

    @property
    def match(self) -> Match:
        """The engine's match (read it, do not change it: the state would no longer agree)."""
        return self._box.match

    def view(self, seat: int | None) -> Observation:
        """The engine's observation for `seat` (None: a spectator)."""
        return observation(self._box.match, seat)

    # ------------------------------------------------------------------ OpenSpiel's API

    def current_player(self) -> int:
        if self._done:
            return int(pyspiel.PlayerId.TERMINAL)
        match = self._box.match
        if match.needs_deal:
            return int(pyspiel.PlayerId.CHANCE)
        seat = match.current_player
        return -1 if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        return sorted(a.code for a in self._box.match.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        dealt = set(self._order)
        left = [t for t in range(TILE_COUNT) if t not in dealt]
        p = 1.0 / len(left)
        return [(t, p) for t in left]

    def _apply_action(self, action: int) -> None:
        match = self._box.match
        self._moves += 1
        if match.needs_deal:
            if action in self._order or not 0 <= action < TILE_COUNT:
                raise ValueError(f"tile {action} cannot be dealt now")
            self._order.append(action)
            if len(self._order) == TILE_COUNT:
                match.deal(self._order)
            return
        match.apply(from_code(action))
        if match.needs_deal or match.is_over:
            self._hand_over()

    def _hand_over(self) -> None:
        match = self._box.match
        last: HandLog = match.history[-1]
        if match.result is not None:
            self._finish(match.result.winner)
        elif self._single_hand and last.end.kind != "redeal":
            self._finish(last.end.winner)
        elif match.hand_number >= self._max_hands:
            self._finish(None)
        else:
            self._order = []
            self._start = _HandStart(match.copy(), self._moves)

    def _finish(self, winner: int | None) -> None:
        self._done = True
        if winner is not None:
            self._returns = [1.0 if s % 2 == winner else -1.0 for s in range(len(self._returns))]

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {NAMES[action]}"
        return str(from_code(action))

    def is_terminal(self) -> bool:
        return self._done

    def returns(self) -> list[float]:
        return list(self._returns)

    def __str__(self) -> str:
        """Every hand and the table (a debugging view of the whole state, hidden tiles too)."""
        match = self._box.match
        hands = " | ".join(
            " ".join(NAMES[t] for t in range(TILE_COUNT) if h >> t & 1) for h in match.hands
        )
        table = " ".join(NAMES[t] for _s, t, _e in match.table)
        return (
            f"hand {match.hand_number + 1} score {list(match.score)} turn {match.current_player}"
            f"\nhands: {hands}\ntable: {table}\ndeal so far: {len(self._order)}"
        )

    # ------------------------------------------------------------------ search support

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CarrocaState:
        """A state `player_id` cannot tell from this one: the hand's unseen tiles dealt anew.

        The hand's history is replayed from its start, so the new state's `history()` is that of
        a real game. `probability_sampler` (OpenSpiel's) seeds the draw.
        """
        if self._done:
            return self.clone()  # type: ignore[no-any-return]
        rng = random.Random(int(probability_sampler() * 2**53))
        state = self._hand_root().clone()
        match = self._box.match
        if match.needs_deal:  # a deal being drawn: nobody has seen any of it yet
            order = rng.sample(range(TILE_COUNT), len(self._order))
            steps: list[Step] = []
        else:
            order = list(sample_deal(self._start.before, self._order, match.steps, player_id, rng))
            steps = match.steps
        for tile in order:
            state.apply_action(tile)
        for step in steps:
            state.apply_action(step.action.code)
        return state  # type: ignore[no-any-return]

    def _hand_root(self) -> CarrocaState:
        """The state where this hand's deal begins (replayed from the start once per hand)."""
        start = self._start
        if start.root is None:
            root = self.get_game().new_initial_state()
            for action in self.history()[: start.history_length]:
                root.apply_action(action)
            start.root = root
        return start.root

    # ------------------------------------------------------------------ information state

    def info_string(self, seat: int | None) -> str:
        """Everything `seat` has seen: the finished hands (as revealed, and their steps as the
        seat saw them), then the hand in progress."""
        match = self._box.match
        start = self._start
        past = start.seen.get(seat)
        if past is None:
            past = start.seen[seat] = "".join(
                _seen_steps(log.steps, seat)
                + json.dumps(revealed_hand(log), sort_keys=True, separators=(",", ":"))
                + "\n"
                for log in match.history
            )
        own = "" if seat is None or match.needs_deal else " ".join(
            NAMES[t] for t in range(TILE_COUNT) if match.hands[seat] >> t & 1
        )
        current = "" if match.needs_deal else _seen_steps(match.steps, seat)
        return (
            f"seat {seat}\n{past}hand {match.hand_number + 1}: {own}\n"
            f"turn {match.current_player}: {current}"
        )


def _seen_steps(steps: list[Step] | tuple[Step, ...], seat: int | None) -> str:
    out = []
    for step in steps:
        shown = public_step(step)
        if step.drawn >= 0 and step.seat == seat:
            shown = shown._replace(tile=step.drawn)
        d = shown.to_dict()
        out.append(f"{d['seat']}:{d['type']}:{d.get('tile', '')}:{d.get('end', '')}"
                   f"{':' + d['choice'] if 'choice' in d else ''}")
    return " ".join(out)


class CarrocaObserver:
    """OpenSpiel's Python observer: the information state (perfect recall) or the current view,
    of one seat (private info of that seat) or of a spectator (no private info)."""

    def __init__(self, ruleset: str, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS or not iig_obs_type.public_info:
            raise ValueError("carroca observes one seat's view, or a spectator's")
        self.private = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        size = encoding.history_size(ruleset) if self.perfect_recall else encoding.VIEW_SIZE
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, Any] = {}
        for name, (start, length) in encoding.VIEW_LAYOUT.items():
            self.dict[name] = self.tensor[start : start + length]
        if self.perfect_recall:
            steps = encoding.max_steps(ruleset)
            self.dict["history"] = self.tensor[encoding.VIEW_SIZE :].reshape(
                steps, encoding.STEP_SIZE
            )

    def _seat(self, player: int) -> int | None:
        return player if self.private else None

    def set_from(self, state: CarrocaState, player: int) -> None:
        view = state.view(self._seat(player))
        if self.perfect_recall:
            encoding.encode_history(view, self.tensor)
        else:
            encoding.encode_view(view, self.tensor)

    def string_from(self, state: CarrocaState, player: int) -> str:
        seat = self._seat(player)
        if self.perfect_recall:
            return state.info_string(seat)
        return json.dumps(state.view(seat).to_dict(), sort_keys=True, separators=(",", ":"))


def _register() -> None:
    known = set(pyspiel.registered_names())
    for name, short in GAME_NAMES.items():
        if short in known:
            continue
        game_class = type(
            f"CarrocaGame_{short}", (CarrocaGame,), {"ruleset": get_ruleset(name)}
        )
        pyspiel.register_game(_game_type(get_ruleset(name)), game_class)



class Chooser(Protocol):
    """What a carroca bot offers (`carroca.bots.base.Bot`): an action from a seat's view."""

    def choose(self, obs: Observation) -> Action: ...


class EngineBot(pyspiel.Bot):
    """A carroca bot as an OpenSpiel bot: it reads the engine's observation of the seat to move
    (never the state itself), so OpenSpiel's `evaluate_bots` can seat it against its algorithms."""

    def __init__(self, bot: Chooser) -> None:
        pyspiel.Bot.__init__(self)
        self.bot = bot

    def step(self, state: CarrocaState) -> int:
        return self.bot.choose(state.view(state.current_player())).code

    def restart_at(self, state: CarrocaState) -> None:
        """Nothing to reset: the bot keeps no memory between moves."""

    def inform_action(self, state: CarrocaState, player_id: int, action: int) -> None:
        """Nothing to learn from the others' moves: the next view shows them."""


_register()
