"""bench/metrics_cost.py: the instruments timed on and off, and the share of a move."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_report() -> None:
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "metrics_cost.py"), "--calls", "2000",
         "--cpu-ms-per-move", "0.5", "--json"],
        capture_output=True, text=True, check=True, cwd=ROOT,
    ).stdout
    r = json.loads(out)
    assert r["move_ns_on"] > r["move_ns_off"] > 0  # off is a function call and a test only
    assert r["commit_ns_on"] > r["commit_ns_off"] > 0
    added = (r["move_ns_on"] - r["move_ns_off"]) + (r["commit_ns_on"] - r["commit_ns_off"])
    assert abs(r["added_ns_per_move"] - added) < 1
    assert abs(r["share_of_a_move_pct"] - 100 * r["added_ns_per_move"] / 5e5) <= 0.001
