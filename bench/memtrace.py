"""`carroca serve` with Python's allocation tracer on: where a server's memory goes.

`bench/load.py --memory FILE` starts the server through this script. On SIGUSR2 it writes the
allocations still alive, summed by the line that made them and by file, and the objects the
collector tracks by type, to FILE (the biggest first), while the players are connected. The
tracer slows every allocation: a traced run's CPU figures are not the benchmark's.

    python -X tracemalloc=1 bench/memtrace.py FILE serve --port … (as `python -m carroca`)
"""

from __future__ import annotations

import gc
import signal
import sys
import tracemalloc
from collections import Counter
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
    lines.extend(census())
    partial = path.with_name(path.name + ".partial")  # whole or absent: the bench waits for it
    partial.write_text("\n".join(lines) + "\n", encoding="utf-8")
    partial.replace(path)


def census() -> list[str]:
    """The objects the collector tracks, by type: how many of each and their own sizes. What
    every socket holds shows as a type counted once (or twice) a player."""
    counts: Counter[str] = Counter()
    sizes: Counter[str] = Counter()
    gc.unfreeze()  # the server freezes what it keeps (`app.py`): frozen objects are not listed
    live = gc.get_objects()
    gc.freeze()
    for obj in live:
        kind = type(obj)
        name = f"{kind.__module__}.{kind.__qualname__}"
        counts[name] += 1
        sizes[name] += sys.getsizeof(obj)
    lines = [f"# by type: {sum(counts.values())} objects the collector tracks"]
    for name, size in sizes.most_common(2 * TOP):
        lines.append(f"{size / 1024:10.1f} KiB {counts[name]:8d}  {name}")
    return lines


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
