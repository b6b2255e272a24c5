"""The rulesets as OpenSpiel games: OpenSpiel's own random-simulation checks, information states
that hide what they must, resampled worlds the seat cannot tell apart, and OpenSpiel's ISMCTS
playing carroca's `greedy` through the registered game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from carroca.bots import GreedyBot, RandomBot
from carroca.envs import encoding
from carroca.envs.spiel import GAME_NAMES, CarrocaState, EngineBot
from carroca.rules import RULESETS
from carroca.rules import tiles as T

RULESET_NAMES = list(RULESETS)


@pytest.mark.parametrize("ruleset", RULESET_NAMES)
def test_random_sim_test_one_hand(ruleset: str) -> None:
    game = pyspiel.load_game(f"{GAME_NAMES[ruleset]}(single_hand=true)")
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", RULESET_NAMES)
def test_random_sim_test_whole_match(ruleset: str) -> None:
    game = pyspiel.load_game(GAME_NAMES[ruleset])
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


def test_parameters_are_the_ruleset_options() -> None:
    game = pyspiel.load_game("carroca_mano_a_mano(target=20,max_hands=7)")
    state = game.new_initial_state()
    assert state.match.options.target == 20
    assert game.num_players() == 2
    assert game.num_distinct_actions() == 144
    assert game.max_chance_outcomes() == 28
    assert game.max_game_length() == 7 * (28 + encoding.max_steps("mano-a-mano"))
    assert game.information_state_tensor_size() == encoding.history_size("mano-a-mano")
    assert game.observation_tensor_size() == encoding.VIEW_SIZE
    with pytest.raises(Exception, match="target"):
        pyspiel.load_game("carroca_mano_a_mano(target=0)")
    with pytest.raises(Exception, match="max_hands"):
        pyspiel.load_game("carroca_bloqueio(max_hands=0)")


def _random_state(game: Any, rng: np.random.RandomState, moves: int) -> CarrocaState:
    """A state `moves` player actions into the first hand (dealing included)."""
    state = game.new_initial_state()
    played = 0
    while not state.is_terminal() and played < moves:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
            played += 1
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state  # type: ignore[no-any-return]


@pytest.mark.parametrize("ruleset", RULESET_NAMES)
def test_resampled_worlds_look_the_same_to_the_seat(ruleset: str) -> None:
    game = pyspiel.load_game(f"{GAME_NAMES[ruleset]}(single_hand=true)")
    rng = np.random.RandomState(5)
    differing = 0
    for moves in (0, 3, 8, 14):
        state = _random_state(game, rng, moves)
        if state.is_terminal():
            continue
        player = state.current_player()
        key = state.information_state_string(player)
        tensor = state.information_state_tensor(player)
        for _ in range(5):
            world = state.resample_from_infostate(player, rng.uniform)
            assert world.information_state_string(player) == key
            assert world.information_state_tensor(player) == tensor
            assert world.legal_actions() == state.legal_actions()
            assert world.match.hands[player] == state.match.hands[player]
            differing += world.match.hands != state.match.hands
            # The world is a real game: its history replays to it.
            replayed = game.new_initial_state()
            for action in world.history():
                replayed.apply_action(action)
            assert replayed.match.hands == world.match.hands
            assert replayed.information_state_string(player) == key
    assert differing > 0


def test_information_state_hides_other_hands() -> None:
    """Two deals that differ only in seat 1's and seat 3's tiles: the same for seat 0."""
    game = pyspiel.load_game("carroca_duplas_torneio(single_hand=true)")
    order = list(range(28))
    swapped = list(order)
    # Positions 7..13 are seat 1's, 21..27 seat 3's: swap one tile between them.
    swapped[7], swapped[21] = swapped[21], swapped[7]
    states = []
    for deal in (order, swapped):
        state = game.new_initial_state()
        for tile in deal:
            state.apply_action(tile)
        states.append(state)
    a, b = states
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.information_state_tensor(0) == b.information_state_tensor(0)
    assert a.observation_tensor(0) == b.observation_tensor(0)
    assert a.information_state_string(1) != b.information_state_string(1)
    # The seat's own tiles are in its tensor, and nobody else's.
    start, size = encoding.VIEW_LAYOUT["hand"]
    own = np.flatnonzero(a.information_state_tensor(0)[start : start + size])
    assert set(own) == set(T.tiles_of(a.match.hands[0]))


def _play(state: Any, bots: list[Any], rng: np.random.RandomState) -> tuple[list[float], int]:
    """OpenSpiel's evaluate_bots loop (its ISMCTS bot has no restart_at), checking legality;
    the returns and the number of moves."""
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
            continue
        action = int(bots[state.current_player()].step(state))
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    return state.returns(), moves


def _ismcts(game: Any, simulations: int, seed: int) -> ismcts.ISMCTSBot:
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    bot = ismcts.ISMCTSBot(
        game, evaluator, uct_c=2.0, max_simulations=simulations,
        random_state=np.random.RandomState(seed),
    )
    sampler: Callable[[], float] = np.random.RandomState(seed + 1).uniform
    bot.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler))
    return bot


@pytest.mark.parametrize(
    ("game_string", "seats"),
    [
        ("carroca_bloqueio(target=2)", 2),
        ("carroca_duplas_pontos(single_hand=true)", 4),
    ],
)
def test_ismcts_plays_greedy_through_the_game(game_string: str, seats: int) -> None:
    game = pyspiel.load_game(game_string)
    search = _ismcts(game, simulations=20, seed=3)
    greedy = EngineBot(GreedyBot())
    bots = [search, greedy] * (seats // 2)
    returns, moves = _play(game.new_initial_state(), bots, np.random.RandomState(4))
    assert moves > 0
    assert sum(returns) == 0
    assert set(returns) <= {-1.0, 0.0, 1.0}
    assert returns[0] == returns[seats - 2] and returns[1] == returns[seats - 1]


@pytest.mark.slow
def test_ismcts_beats_random_on_bloqueio_hands() -> None:
    """Not a strength figure (that is docs/bots.md's): search must do better than chance."""
    game = pyspiel.load_game("carroca_bloqueio(single_hand=true)")
    search = _ismcts(game, simulations=40, seed=8)
    uniform = EngineBot(RandomBot(9))
    rng = np.random.RandomState(10)
    total = 0.0
    for i in range(30):
        bots = [search, uniform] if i % 2 == 0 else [uniform, search]
        returns, _ = _play(game.new_initial_state(), bots, rng)
        total += returns[i % 2]
    assert total > 0
