"""bench/envs.py at small sizes: every figure it reports is measured and positive, and the duel
plays its hands."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

_BENCH = str(Path(__file__).resolve().parents[2] / "bench")
if _BENCH not in sys.path:
    sys.path.insert(0, _BENCH)
E = importlib.import_module("envs")


def test_the_speeds_and_a_short_duel() -> None:
    report = E.main(
        ["--seconds", "0.2", "--rulesets", "classico,duplas-pontos", "--duel-hands", "2",
         "--simulations", "5"]
    )
    assert [row["ruleset"] for row in report["speed"]] == ["classico", "duplas-pontos"]
    for row in report["speed"]:
        assert row["aec_steps_per_s"] > 0 and row["aec_history_steps_per_s"] > 0
        assert row["spiel_hand_playouts_per_s"] > 0 and row["spiel_resamples_per_s"] > 0
    duel = report["duel"]
    assert duel["hands"] == 2 and duel["ismcts_won"] + duel["ismcts_lost"] <= 2
    low, high = duel["won_share_95"]
    assert 0.0 <= low <= high <= 1.0


def test_wilson_interval() -> None:
    low, high = E.wilson(26, 40)
    assert 0.49 < low < 0.65 < high < 0.79
