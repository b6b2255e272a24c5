"""bench/event_watchers.py and bench/arena_writes.py: small runs report their figures."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

_BENCH = Path(__file__).resolve().parents[2] / "bench"


def run(*args: str) -> dict[str, object]:
    done = subprocess.run([sys.executable, *args, "--json"], capture_output=True, text=True,
                          timeout=180, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    report: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return report


def test_watchers_of_a_quiet_event_get_nothing_and_pollers_get_answers() -> None:
    pushed = run(str(_BENCH / "event_watchers.py"), "--mode", "push", "--watchers", "20",
                 "--entrants", "4", "--seconds", "2")
    assert pushed["frames"] == 0 and pushed["watchers"] == 20
    polled = run(str(_BENCH / "event_watchers.py"), "--mode", "poll", "--watchers", "20",
                 "--entrants", "4", "--seconds", "2", "--interval", "0.5")
    assert isinstance(polled["answers"], int) and polled["answers"] >= 20
    assert isinstance(polled["server_cpu_s"], float) and polled["server_cpu_s"] > 0


def test_an_arena_appends_less_than_it_rewrote() -> None:
    report = run(str(_BENCH / "arena_writes.py"), "--players", "16", "--duration", "900")
    before, after = report["before"], report["after"]
    assert isinstance(before, dict) and isinstance(after, dict)
    assert before["writes"] == after["writes"] > 2
    assert 0 < after["mb"] < before["mb"]
