"""bench/budget.py: a tiny run times both levels and suggests a count."""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path

import pytest

_BENCH = str(Path(__file__).resolve().parents[2] / "bench")
if _BENCH not in sys.path:
    sys.path.insert(0, _BENCH)
B = importlib.import_module("budget")


def test_a_tiny_run_suggests_a_count(capsys: pytest.CaptureFixture[str]) -> None:
    B.main(["--rulesets", "classico", "--positions", "4", "--matches", "1", "--rounds", "1",
            "--flat", "30", "--start", "20"])
    lines = capsys.readouterr().out.strip().splitlines()
    found = re.fullmatch(r"classico +30 +[\d.]+ +20 +[\d.]+ +(\d+) +(\d+)", lines[-1])
    assert found and int(found.group(2)) > 0, lines
