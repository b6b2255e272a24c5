"""bench/endgame.py: a tiny run finds exact positions and times both solvers on them."""

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


def test_a_tiny_run_times_both_solvers(capsys: pytest.CaptureFixture[str]) -> None:
    assert E.main(["--rulesets", "duplas-torneio", "--matches", "2", "--seed", "3",
                   "--worlds", "2"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0].startswith("duplas-torneio (exact at 15 tiles or fewer, 2 worlds a "), lines
    rows = [re.fullmatch(r" +(\d+) tiles: +(\d+) positions, mean [\d.]+ / [\d.]+ \([\d.]+x\), "
                         r"slowest [\d.]+ / [\d.]+", line) for line in lines[1:]]
    assert rows and all(rows), lines
    assert max(int(r.group(1)) for r in rows if r) > 9, lines
