"""carroca as an RL environment: how fast the environments run, and OpenSpiel's ISMCTS against
carroca's `greedy` through the registered games (the `rl` extra: PettingZoo and OpenSpiel).

    python bench/envs.py [--seconds 3] [--duel-hands 40 --simulations 200 --ruleset bloqueio]

Reported, per ruleset: PettingZoo AEC steps per second under uniformly random legal actions
(with the current view, and with the hand's history in the observation), OpenSpiel random
playouts of one hand per second (28 chance nodes and the hand's moves each), and resampled
worlds (`resample_from_infostate`) per second at the states those playouts pass through. With
`--duel-hands`, ISMCTS (one random rollout per leaf) plays hands against `greedy`, seats
alternating, and the hands it won are reported with a 95% Wilson interval.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from carroca.bots import GreedyBot
from carroca.envs import aec
from carroca.envs.spiel import GAME_NAMES, EngineBot
from carroca.rules import RULESETS


def aec_steps_per_second(ruleset: str, history: bool, seconds: float, seed: int) -> float:
    env = aec.CarrocaEnv(ruleset, history=history)
    rng = random.Random(seed)
    steps = 0
    match = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        env.reset(seed=seed + match)
        match += 1
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            steps += 1
    return steps / (time.perf_counter() - started)


def spiel_rates(ruleset: str, seconds: float, seed: int) -> tuple[float, float]:
    """Random one-hand playouts per second, then resampled worlds per second."""
    game = pyspiel.load_game(f"{GAME_NAMES[ruleset]}(single_hand=true)")
    rng = np.random.RandomState(seed)
    playouts = 0
    states: list[Any] = []
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probs)))
            else:
                if len(states) < 200 and rng.uniform() < 0.2:
                    states.append(state.clone())
                state.apply_action(int(rng.choice(state.legal_actions())))
        playouts += 1
    playout_rate = playouts / (time.perf_counter() - started)
    worlds = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = states[worlds % len(states)]
        state.resample_from_infostate(state.current_player(), rng.uniform)
        worlds += 1
    return playout_rate, worlds / (time.perf_counter() - started)


def wilson(wins: float, n: int) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    z = 1.96
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def duel(ruleset: str, hands: int, simulations: int, seed: int) -> dict[str, Any]:
    """ISMCTS against greedy, one hand per game, seats alternating between hands."""
    game = pyspiel.load_game(f"{GAME_NAMES[ruleset]}(single_hand=true)")
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed))
    search = ismcts.ISMCTSBot(
        game, evaluator, uct_c=2.0, max_simulations=simulations,
        random_state=np.random.RandomState(seed + 1),
    )
    sampler = np.random.RandomState(seed + 2).uniform
    search.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler))
    greedy = EngineBot(GreedyBot())
    rng = np.random.RandomState(seed + 3)
    seats = game.num_players()
    won = lost = 0
    decisions = 0
    thinking = 0.0
    for hand in range(hands):
        first = hand % 2  # the seat parity ISMCTS plays this hand
        bots = [search if s % 2 == first else greedy for s in range(seats)]
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probs)))
                continue
            bot = bots[state.current_player()]
            started = time.perf_counter()
            action = bot.step(state)
            if bot is search and len(state.legal_actions()) > 1:
                thinking += time.perf_counter() - started
                decisions += 1
            state.apply_action(int(action))
        result = state.returns()[first]
        won += result > 0
        lost += result < 0
    low, high = wilson(won, hands)
    return {
        "ruleset": ruleset,
        "hands": hands,
        "simulations": simulations,
        "ismcts_won": won,
        "ismcts_lost": lost,
        "won_share_95": [round(low, 3), round(high, 3)],
        "seconds_per_decision": round(thinking / decisions, 3) if decisions else None,
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement")
    parser.add_argument("--rulesets", default=",".join(RULESETS))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--duel-hands", type=int, default=0)
    parser.add_argument("--simulations", type=int, default=200)
    parser.add_argument("--ruleset", default="bloqueio", help="the duel's ruleset")
    args = parser.parse_args(argv)
    report: dict[str, Any] = {"speed": []}
    for ruleset in args.rulesets.split(","):
        playouts, worlds = spiel_rates(ruleset, args.seconds, args.seed)
        row = {
            "ruleset": ruleset,
            "aec_steps_per_s": round(aec_steps_per_second(ruleset, False, args.seconds, args.seed)),
            "aec_history_steps_per_s": round(
                aec_steps_per_second(ruleset, True, args.seconds, args.seed)
            ),
            "spiel_hand_playouts_per_s": round(playouts, 1),
            "spiel_resamples_per_s": round(worlds),
        }
        report["speed"].append(row)
        print(json.dumps(row), flush=True)
    if args.duel_hands:
        report["duel"] = duel(args.ruleset, args.duel_hands, args.simulations, args.seed)
        print(json.dumps(report["duel"]), flush=True)
    return report


if __name__ == "__main__":
    main()
