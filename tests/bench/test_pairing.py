"""bench/pairing.py: a small field through the same code, and its report."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_BENCH = str(ROOT / "bench")
if _BENCH not in sys.path:
    sys.path.insert(0, _BENCH)
P = importlib.import_module("pairing")


def test_rounds_of_a_field_in_blocks() -> None:
    rows = P.run(101, 4, 3)
    assert [r["round"] for r in rows] == [1, 2, 3, 4]
    assert all(r["repeats"] == 0 and r["max_gap"] <= 1 for r in rows)


def test_the_json_report() -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "pairing.py"), "--entrants", "80", "--rounds", "2",
         "--exact", "16", "--json"],
        capture_output=True, text=True, check=True, cwd=ROOT,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"},
    ).stdout
    report = json.loads(out)
    assert report["entrants"] == 80 and len(report["rounds"]) == 2
    assert report["repeats"] == 0 and set(report["exact_round_one_seconds"]) == {"16"}
