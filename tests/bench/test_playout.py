"""bench/playout.py: a tiny run finds searched decisions and rates each with both playouts."""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path

import pytest

_BENCH = str(Path(__file__).resolve().parents[2] / "bench")
if _BENCH not in sys.path:
    sys.path.insert(0, _BENCH)
P = importlib.import_module("playout")


def test_a_tiny_run_rates_every_decision_alike_with_both(capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    P.main(["--rulesets", "pontos", "--matches", "1", "--worlds", "8", "--seed", "3"])
    lines = capsys.readouterr().out.strip().splitlines()
    found = re.fullmatch(r"pontos +(\d+) +[\d.]+ +[\d.]+ +[\d.]+", lines[-1])
    assert found and int(found.group(1)) > 0, lines
