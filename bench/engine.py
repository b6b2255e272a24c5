"""Engine speed: random-play hands per second through carroca's public API, beside peers.

Every engine plays complete hands with a uniform random legal action at each decision, in this
one process, measured in interleaved rounds so that machine noise hits all of them alike; the
ratios are what to read. carroca's hand = a new `Match`, a shuffled deal, then
`legal_actions()` + `apply()` until the hand ends (every action validated, logged and scored).

    make bench                       # sets up .venv-bench (carroca + peers) and runs this
    python bench/engine.py --seconds 2 --runs 3 [--no-peers] [--no-simulate]
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
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--no-peers", action="store_true")
    parser.add_argument("--no-simulate", action="store_true")
    args = parser.parse_args()

    engines: dict[str, Callable[[float], float]] = {
        "carroca duplas-torneio (2v2)": measure_carroca("duplas-torneio"),
        "carroca duplas-pontos (2v2, spinner, points)": measure_carroca("duplas-pontos"),
        "carroca bloqueio (1v1, no draw)": measure_carroca("bloqueio"),
        "carroca mano-a-mano (1v1, boneyard)": measure_carroca("mano-a-mano"),
    }
    if not args.no_peers:
        engines.update(
            {
                "OpenSpiel python_team_dominoes (2v2)": measure_openspiel_team,
                "OpenSpiel python_block_dominoes (1v1)": measure_openspiel_block,
                "dominoes 6.1.0 (2v2)": measure_dominoes,
            }
        )
    rates: dict[str, list[float]] = {name: [] for name in engines}
    for _ in range(args.runs):  # interleaved rounds
        for name, measure in engines.items():
            rates[name].append(measure(args.seconds))
    med = {name: statistics.median(r) for name, r in rates.items()}

    print(f"carroca engine: {'compiled (mypyc)' if compiled() else 'pure Python'}")
    width = max(len(n) for n in engines)
    print(f"{'engine':<{width}}  {'hands/s':>9}  runs")
    for name, r in rates.items():
        print(f"{name:<{width}}  {med[name]:>9,.0f}  " + ", ".join(f"{x:,.0f}" for x in r))
    if not args.no_peers:
        team = med["carroca duplas-torneio (2v2)"]
        block = med["carroca bloqueio (1v1, no draw)"]
        os_team = med["OpenSpiel python_team_dominoes (2v2)"]
        os_block = med["OpenSpiel python_block_dominoes (1v1)"]
        print()
        print(f"2v2 vs OpenSpiel team:  {team / os_team:.1f}x")
        print(f"2v2 vs dominoes 6.1.0:  {team / med['dominoes 6.1.0 (2v2)']:.2f}x")
        print(f"1v1 vs OpenSpiel block: {block / os_block:.1f}x")
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
