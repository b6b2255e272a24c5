"""`carroca serve` with Python's allocation tracer on: where a server's memory goes.

`bench/load.py --memory FILE` starts the server through this script. On SIGUSR2 it writes the
allocations still alive, summed by the line that made them and by file, to FILE (the biggest
first), while the players are connected. The tracer slows every allocation: a traced run's CPU
figures are not the benchmark's.

    python -X tracemalloc=1 bench/memtrace.py FILE serve --port … (as `python -m carroca`)
"""

from __future__ import annotations

import signal
import sys
import tracemalloc
from pathlib import Path
from types import FrameType

TOP = 60


def dump(path: Path) -> None:
    snapshot = tracemalloc.take_snapshot().filter_traces((
        tracemalloc.Filter(False, tracemalloc.__file__),
    ))
    lines = []
    for key in ("lineno", "filename"):
        stats = snapshot.statistics(key)
        total = sum(s.size for s in stats)
        lines.append(f"# by {key}: {total / 2**20:.1f} MiB traced in {sum(s.count for s in stats)}"
                     " blocks")
        for s in stats[:TOP]:
            frame = s.traceback[0]
            where = f"{frame.filename}:{frame.lineno}" if key == "lineno" else frame.filename
            lines.append(f"{s.size / 1024:10.1f} KiB {s.count:8d}  {where}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    path = Path(sys.argv.pop(1))
    if not tracemalloc.is_tracing():
        tracemalloc.start()

    def on_signal(_signum: int, _frame: FrameType | None) -> None:
        dump(path)

    signal.signal(signal.SIGUSR2, on_signal)
    from carroca.cli import main as carroca

    sys.argv[0] = "carroca"
    carroca()


if __name__ == "__main__":
    main()
