"""The PettingZoo AEC environment: PettingZoo's own API and seed tests on the six rulesets, and
what the tests of PettingZoo cannot know: rewards that add up to the match, views that hold only
the seat's tiles, refusals that change nothing."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from carroca.envs import aec, encoding
from carroca.rules import RULESETS, IllegalMove, InvalidAction, observation
from carroca.rules import tiles as T

RULESET_NAMES = list(RULESETS)

#: What PettingZoo's api_test says of any dict observation ({"observation", "action_mask"}, the
#: form of its own board games, which it lists by name as exempt): advice, not a failure.
DICT_ADVICE = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box",
)


@pytest.mark.parametrize("history", [False, True], ids=["view", "history"])
@pytest.mark.parametrize("ruleset", RULESET_NAMES)
def test_pettingzoo_api_test(ruleset: str, history: bool) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(aec.env(ruleset, history=history), num_cycles=1000)
    others = {str(w.message) for w in caught if not str(w.message).startswith(DICT_ADVICE)}
    assert not others


@pytest.mark.parametrize("ruleset", RULESET_NAMES)
def test_pettingzoo_seed_test(ruleset: str) -> None:
    seed_test(lambda: aec.env(ruleset), num_cycles=200)


def _play(
    env: aec.CarrocaEnv, seed: int, rng: random.Random, check: bool = False
) -> dict[str, float]:
    """A random match; the rewards each agent collected. `check`: compare every view with the
    engine's truth on the way."""
    env.reset(seed=seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _info = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        if check:
            _check_view(env, agent, obs)
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(list(legal))))
    return totals


def _check_view(env: aec.CarrocaEnv, agent: str, obs: dict[str, np.ndarray]) -> None:
    seat = int(agent.split("_")[1])
    match = env.match
    start, size = encoding.VIEW_LAYOUT["hand"]
    assert set(np.flatnonzero(obs["observation"][start : start + size])) == set(
        T.tiles_of(match.hands[seat])
    )
    assert set(np.flatnonzero(obs["action_mask"])) == {a.code for a in match.legal_actions()}
    # Every void the view claims is true of the seat's real hand.
    start, _ = encoding.VIEW_LAYOUT["voids"]
    for other in range(match.n):
        for number in range(7):
            if obs["observation"][start + other * 7 + number]:
                assert not match.hands[other] & T.NUMBER_MASK[number]


@pytest.mark.parametrize("ruleset", RULESET_NAMES)
def test_rewards_add_up_to_the_match(ruleset: str) -> None:
    env = aec.CarrocaEnv(ruleset)
    rng = random.Random(7)
    for seed in range(3):
        totals = _play(env, seed, rng, check=True)
        result = env.match.result
        assert result is not None
        margin = (result.score[0] - result.score[1]) / env.target
        for seat, agent in enumerate(env.possible_agents):
            sign = 1 if seat % 2 == 0 else -1
            win = 1.0 if result.winner == seat % 2 else -1.0
            assert totals[agent] == pytest.approx(sign * margin + win)


def test_weights_and_single_hand() -> None:
    env = aec.CarrocaEnv("duplas-torneio", single_hand=True, match_weight=0.0, hand_weight=2.0)
    totals = _play(env, 11, random.Random(1))
    match = env.match
    assert match.hand_number == 1 and not match.is_over
    score = match.score
    assert totals["seat_0"] == pytest.approx(2.0 * (score[0] - score[1]) / 100)
    assert totals["seat_0"] == -totals["seat_1"] == totals["seat_2"] == -totals["seat_3"]


def test_max_hands_truncates() -> None:
    env = aec.CarrocaEnv("bloqueio", options={"target": 100}, max_hands=2)
    env.reset(seed=3)
    rng = random.Random(3)
    truncated_seen = False
    for _agent in env.agent_iter():
        obs, _r, terminated, truncated, _info = env.last()
        if terminated or truncated:
            truncated_seen = truncated_seen or truncated
            env.step(None)
            continue
        env.step(int(rng.choice(list(np.flatnonzero(obs["action_mask"])))))
    assert truncated_seen and env.match.hand_number == 2 and not env.match.is_over


def test_the_same_seed_deals_the_same_hands() -> None:
    a, b = aec.CarrocaEnv("mano-a-mano"), aec.CarrocaEnv("mano-a-mano")
    a.reset(seed=5)
    b.reset(seed=5)
    assert a.match.dealt == b.match.dealt
    b.reset(seed=6)
    assert a.match.dealt != b.match.dealt


def test_a_refused_action_raises_and_changes_nothing() -> None:
    env = aec.CarrocaEnv("classico")
    env.reset(seed=1)
    agent = env.agent_selection
    before = env.observe(agent)
    illegal = next(c for c in range(len(before["action_mask"])) if not before["action_mask"][c])
    with pytest.raises(IllegalMove):
        env.step(illegal)
    with pytest.raises(InvalidAction):
        env.step(10_000)
    after = env.observe(agent)
    assert env.agent_selection == agent
    assert np.array_equal(before["observation"], after["observation"])
    assert np.array_equal(before["action_mask"], after["action_mask"])


def test_the_view_is_a_function_of_the_seat_observation() -> None:
    """Two matches that differ only in tiles seat 0 cannot see give seat 0 the same vector."""
    env = aec.CarrocaEnv("duplas-torneio", history=True)
    env.reset(seed=2)
    match = env.match
    swapped = match.copy()
    # Exchange one tile between seats 1 and 3: nothing seat 0 sees changes.
    t1 = T.tiles_of(match.hands[1])[0]
    t3 = T.tiles_of(match.hands[3])[0]
    swapped.hands[1] ^= T.BIT[t1] | T.BIT[t3]
    swapped.hands[3] ^= T.BIT[t1] | T.BIT[t3]
    v0 = encoding.encode_history(observation(match, 0))
    assert np.array_equal(v0, encoding.encode_history(observation(swapped, 0)))
    assert not np.array_equal(
        encoding.encode_view(observation(match, 1)), encoding.encode_view(observation(swapped, 1))
    )


def test_render_shows_no_hand() -> None:
    env = aec.CarrocaEnv("classico", render_mode="ansi")
    env.reset(seed=4)
    text = env.render()
    assert isinstance(text, str) and "classico" in text
    for seat in range(2):
        held = [T.NAMES[t] for t in T.tiles_of(env.match.hands[seat])]
        assert not all(name in text for name in held)


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError):
        aec.CarrocaEnv("pontos", max_hands=0)
    with pytest.raises(ValueError):
        aec.CarrocaEnv("pontos", render_mode="rgb_array")
    with pytest.raises(Exception, match="Opção desconhecida"):
        aec.CarrocaEnv("pontos", options={"alvo": 10})
