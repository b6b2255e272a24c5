"""Random-play speed of third-party domino engines, for comparison with carroca.

The figures give the carroca engine benchmark a yardstick: how many complete
hands per second other Python domino engines play when every decision is a
uniform random legal move. Each engine is driven only through its public API,
in the current process, so the numbers are comparable with an in-process
measurement of carroca.

The peer engines are not dependencies of carroca; install them separately::

    pip install -r bench/requirements.txt
    python bench/peers.py
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

# Wall time spent playing hands before the clock starts, so that imports,
# game registration and first-call caches do not count against a peer.
WARMUP_SECONDS = 0.2
DEFAULT_SECONDS = 3.0
DEFAULT_RUNS = 3


def _rate(play_hand: Callable[[], object], seconds: float) -> float:
    """Play hands for about ``seconds`` after a warm-up; return hands per second.

    The clock is this process's CPU time, so time the shared machine spends on other work
    does not count against whichever engine happens to be running. It is read once per hand,
    which is negligible next to a hand's cost (tens of microseconds or more).
    """
    if seconds <= 0:
        raise ValueError("seconds must be positive")
    clock = time.process_time
    warmup_end = clock() + min(WARMUP_SECONDS, seconds)
    while clock() < warmup_end:
        play_hand()
    hands = 0
    start = clock()
    deadline = start + seconds
    now = start
    while now < deadline:
        play_hand()
        hands += 1
        now = clock()
    return hands / (now - start)


def _openspiel_hand_player(game_name: str, rng: random.Random) -> Callable[[], None]:
    """Build a closure that plays one random OpenSpiel hand of ``game_name``.

    Importing ``open_spiel.python.games`` is what registers the pure-Python
    domino games with ``pyspiel``; ``load_game`` cannot find them otherwise.
    """
    import open_spiel.python.games  # noqa: F401  (registers python_* games)
    import pyspiel

    game = pyspiel.load_game(game_name)

    def play_hand() -> None:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                # The deal: honour the declared probabilities rather than
                # assuming they are uniform.
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, weights=probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))

    return play_hand


def measure_openspiel_team(seconds: float = DEFAULT_SECONDS, seed: int | None = None) -> float:
    """Hands/s of OpenSpiel ``python_team_dominoes`` (2v2, no boneyard)."""
    return _rate(_openspiel_hand_player("python_team_dominoes", random.Random(seed)), seconds)


def measure_openspiel_block(seconds: float = DEFAULT_SECONDS, seed: int | None = None) -> float:
    """Hands/s of OpenSpiel ``python_block_dominoes`` (1v1, 7 tiles each, no draw)."""
    return _rate(_openspiel_hand_player("python_block_dominoes", random.Random(seed)), seconds)


def measure_dominoes(seconds: float = DEFAULT_SECONDS, seed: int | None = None) -> float:
    """Hands/s of the PyPI ``dominoes`` package (2v2, 7 tiles each).

    ``Game.make_move`` skips players who cannot move on its own and sets
    ``result`` when a hand is won or blocked, so the loop only ever picks
    among ``valid_moves`` (tuples of ``(domino, left)``). The package shuffles
    with the global ``random`` module, so ``seed`` also seeds that.
    """
    import dominoes

    rng = random.Random(seed)
    if seed is not None:
        random.seed(seed)
    new_game = dominoes.Game.new

    def play_hand() -> None:
        game = new_game()
        while game.result is None:
            game.make_move(*rng.choice(game.valid_moves))

    return _rate(play_hand, seconds)


PEERS: dict[str, Callable[[float], float]] = {
    "OpenSpiel python_team_dominoes (2v2)": measure_openspiel_team,
    "OpenSpiel python_block_dominoes (1v1)": measure_openspiel_block,
    "dominoes 6.1.0 (2v2)": measure_dominoes,
}


def main(seconds: float = DEFAULT_SECONDS, runs: int = DEFAULT_RUNS) -> None:
    """Print the median hands/s of ``runs`` runs for each peer engine.

    The median damps one-off scheduler noise on a small shared machine.
    """
    width = max(len(name) for name in PEERS)
    print(f"{'engine':<{width}}  {'hands/s (median)':>16}  runs")
    for name, measure in PEERS.items():
        rates = [measure(seconds) for _ in range(runs)]
        shown = ", ".join(f"{r:,.0f}" for r in rates)
        print(f"{name:<{width}}  {statistics.median(rates):>16,.0f}  {shown}", flush=True)


if __name__ == "__main__":
    main()
