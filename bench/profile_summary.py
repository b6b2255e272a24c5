"""Sum up a py-spy profile (collapsed stacks, `bench/load.py --profile DIR`'s `NAME.txt`).

Each line of the file is one stack, outermost frame first, frames joined by `;`, then a space
and the number of samples it had. Printed: the functions that held the CPU themselves (self
samples) and the ones whose calls did (inclusive samples, each function counted once a stack),
as shares of all samples, and the same inclusive shares summed per file.

    python bench/profile_summary.py out/server.txt [--top 30] [--json]
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

# py-spy's frame text: "function (path/to/file.py:123)", or "function (path/to/file.py)"
FRAME = re.compile(r"^(?P<func>.*?) \((?P<file>[^():]+?)(?::\d+)?\)$")


def frame_key(frame: str) -> tuple[str, str]:
    """(function, file) of a frame; the file shortened to what follows site-packages or src."""
    match = FRAME.match(frame.strip())
    if match is None:
        return frame.strip(), ""
    path = match["file"]
    for marker in ("site-packages/", "/src/", "/lib/python3"):
        if marker in path:
            path = path.split(marker, 1)[1]
            break
    return match["func"], path


def summarize(lines: list[str]) -> dict[str, Any]:
    own: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    files: Counter[str] = Counter()
    total = 0
    for line in lines:
        stack, _, count = line.rstrip("\n").rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        total += n
        frames = [frame_key(f) for f in stack.split(";") if f]
        if not frames:
            continue
        func, path = frames[-1]
        own[f"{func} ({path})"] += n
        for name in {f"{f} ({p})" for f, p in frames}:
            inclusive[name] += n
        for path in {p for _, p in frames if p}:
            files[path] += n
    return {"samples": total, "self": own, "inclusive": inclusive, "files": files}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("profile", type=Path)
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    found = summarize(args.profile.read_text(encoding="utf-8").splitlines())
    total = max(1, found["samples"])

    def top(counter: Counter[str]) -> list[tuple[str, float]]:
        return [(name, round(100 * n / total, 1)) for name, n in counter.most_common(args.top)]

    if args.json:
        print(json.dumps({"samples": found["samples"], "self_pct": top(found["self"]),
                          "inclusive_pct": top(found["inclusive"]),
                          "files_pct": top(found["files"])}, indent=1))
        return
    print(f"{found['samples']} samples")
    for title, key in (("self", "self"), ("inclusive", "inclusive"), ("per file", "files")):
        print(f"\n{title}:")
        for name, pct in top(found[key]):
            print(f"  {pct:5.1f}%  {name}")


if __name__ == "__main__":
    main()
