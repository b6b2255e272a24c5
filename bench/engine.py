"""Engine speed: random-play hands per second through carroca's public API, beside peers.

Every engine plays complete hands with a uniform random legal action at each decision, in this
one process, measured in CPU time over interleaved rounds so that machine noise hits all of them
alike; the ratios are what to read. carroca's hand = a new `Match`, a shuffled deal, then
`legal_actions()` + `apply()` until the hand ends (every action validated, logged and scored).

    make bench                       # sets up .venv-bench (carroca + peers) and runs this
    python bench/engine.py --seconds 0.5 --runs 15 [--no-peers] [--no-simulate]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from carroca.rules import Match

sys.path.insert(0, str(Path(__file__).resolve().parent))
from peers import (  # bench/ is not a package: found through sys.path
    _rate,
    measure_dominoes,
    measure_openspiel_block,
    measure_openspiel_team,
)


def carroca_hand_player(ruleset: str, rng: random.Random) -> Callable[[], None]:
    """One random hand of `ruleset` through the public API (fresh match each hand)."""
    order = list(range(28))
    shuffle = rng.shuffle
    choice = rng.choice

    def play_hand() -> None:
        m = Match(ruleset)
        shuffle(order)
        m.deal(order)
        while m.current_player is not None:
            m.apply(choice(m.legal_actions()))

    return play_hand


def measure_carroca(ruleset: str) -> Callable[[float], float]:
    def measure(seconds: float) -> float:
        return _rate(carroca_hand_player(ruleset, random.Random(1)), seconds)

    return measure


def compiled() -> bool:
    import carroca.rules.game as game

    return not game.__file__.endswith(".py") if game.__file__ else False


def simulate_rate(ruleset: str, games: int) -> dict[str, float]:
    """`carroca simulate` end to end (bots, shuffle, records written): records per second."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "records.jsonl")
        cmd = [
            sys.executable, "-m", "carroca", "simulate", "--ruleset", ruleset, "--games",
            str(games), "--seed", "1", "--bots", "random", "--out", out, "--json",
        ]
        start = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, text=True, check=True)
        wall = time.perf_counter() - start
        summary = json.loads(done.stdout.strip().splitlines()[-1])
    return {
        "records_per_second_wall": games / wall,
        "records_per_second": games / summary["seconds"],
        "hands_per_second": summary["hands_per_second"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=0.5)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--no-peers", action="store_true")
    parser.add_argument("--no-simulate", action="store_true")
    args = parser.parse_args()

    # Ordered so that each ratio compares engines measured right after one another.
    engines: dict[str, Callable[[float], float]] = {
        "carroca duplas-torneio (2v2)": measure_carroca("duplas-torneio")
    }
    if not args.no_peers:
        engines["dominoes 6.1.0 (2v2)"] = measure_dominoes
        engines["OpenSpiel python_team_dominoes (2v2)"] = measure_openspiel_team
    engines["carroca bloqueio (1v1, no draw)"] = measure_carroca("bloqueio")
    if not args.no_peers:
        engines["OpenSpiel python_block_dominoes (1v1)"] = measure_openspiel_block
    engines["carroca duplas-pontos (2v2, spinner, points)"] = measure_carroca("duplas-pontos")
    engines["carroca mano-a-mano (1v1, boneyard)"] = measure_carroca("mano-a-mano")
    rates: dict[str, list[float]] = {name: [] for name in engines}
    for _ in range(args.runs):  # interleaved rounds: a ratio compares neighbours in time
        for name, measure in engines.items():
            rates[name].append(measure(args.seconds))
    med = {name: statistics.median(r) for name, r in rates.items()}

    def ratio(a: str, b: str) -> str:
        per_round = [x / y for x, y in zip(rates[a], rates[b], strict=True)]
        low, high = min(per_round), max(per_round)
        return f"{statistics.median(per_round):.2f}x (rounds {low:.2f}-{high:.2f})"

    print(f"carroca engine: {'compiled (mypyc)' if compiled() else 'pure Python'}")
    width = max(len(n) for n in engines)
    print(f"{'engine':<{width}}  {'hands/s':>9}  (slowest-fastest round)")
    for name, r in rates.items():
        low, high = min(r), max(r)
        print(f"{name:<{width}}  {med[name]:>9,.0f}  ({low:,.0f}-{high:,.0f})")
    if not args.no_peers:
        team = "carroca duplas-torneio (2v2)"
        print()
        print("ratios, median of the per-round ratios:")
        print(f"2v2 vs OpenSpiel team:  {ratio(team, 'OpenSpiel python_team_dominoes (2v2)')}")
        print(f"2v2 vs dominoes 6.1.0:  {ratio(team, 'dominoes 6.1.0 (2v2)')}")
        print(
            "1v1 vs OpenSpiel block: "
            f"{ratio('carroca bloqueio (1v1, no draw)', 'OpenSpiel python_block_dominoes (1v1)')}"
        )
    if not args.no_simulate:
        print()
        for ruleset, games in (("duplas-pontos", 400), ("mano-a-mano", 400)):
            sim = simulate_rate(ruleset, games)
            print(
                f"carroca simulate {ruleset} (random bots, records written): "
                f"{sim['records_per_second']:,.0f} records/s, "
                f"{sim['hands_per_second']:,.0f} hands/s "
                f"({sim['records_per_second_wall']:,.0f} records/s counting start-up)"
            )


if __name__ == "__main__":
    main()
