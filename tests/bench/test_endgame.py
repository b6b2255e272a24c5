"""bench/endgame.py: a tiny run finds exact positions and reports both solvers."""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path

import pytest

_BENCH = str(Path(__file__).resolve().parents[2] / "bench")
if _BENCH not in sys.path:
    sys.path.insert(0, _BENCH)
E = importlib.import_module("endgame")


def test_a_tiny_run_reports_both_solvers(capsys: pytest.CaptureFixture[str]) -> None:
    assert E.main(["--rulesets", "mano-a-mano", "--matches", "2", "--seed", "3"]) == 0
    line = capsys.readouterr().out.strip()
    found = re.fullmatch(r"mano-a-mano: (\d+) exact positions; CPU ms per position without / "
                         r"with the table: mean [\d.]+ / [\d.]+ \([\d.]+x\), slowest [\d.]+ / "
                         r"[\d.]+", line)
    assert found and int(found.group(1)) > 0, line
