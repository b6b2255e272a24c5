"""bench/tournament_load.py: a tiny event through a started server reports its figures."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

_BENCH = Path(__file__).resolve().parents[2] / "bench"


def test_a_tiny_event_reports_moves_cpu_and_pairing() -> None:
    """Four greedy bots, two rounds of one-hand bloqueio: the event ends, its figures add up."""
    done = subprocess.run(
        [sys.executable, str(_BENCH / "tournament_load.py"), "--entrants", "4", "--rounds", "2",
         "--ruleset", "bloqueio", "--option", "target=1", "--bot-delay-ms", "0", "--json",
         "--quiet"],
        capture_output=True, text=True, timeout=120, check=False,
        env={**os.environ, "CARROCA_HAND_PAUSE_SECONDS": "0"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["status"] == "finished" and report["entrants"] == 4
    assert report["rounds"] == 2 and report["games"] == 4
    assert report["moves_stored"] > 0 and report["moves_per_s"] > 0
    assert report["server"]["cpu_ms_per_move"] > 0 and report["server"]["rss_end_mb"] > 0
    assert len(report["pairing_s"]) == 2
    assert 0 < report["stored_record_kb"] < 1024 * report["downloaded_record_mb"]
