"""bench/bots.py: a tiny run through real worker processes."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

_BENCH = str(Path(__file__).resolve().parents[2] / "bench")
if _BENCH not in sys.path:
    sys.path.insert(0, _BENCH)
B = importlib.import_module("bots")


def test_a_tiny_run_reports_each_worker_count() -> None:
    out = B.main(["--ruleset", "bloqueio", "--decisions", "3", "--workers", "1,2", "--json"])
    assert [r["workers"] for r in out["rows"]] == [1, 2]
    for row in out["rows"]:
        assert row["all_from_workers"] and row["sources"] == {"worker": 3}
        assert row["per_s"] > 0 and row["worker_cpu_ms_per_decision"] > 0
    assert out["rows"][0]["scaling"] == 1.0
