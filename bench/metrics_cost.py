"""What the metrics add to a move, measured in one process: the instruments a move goes
through (one latency observation; a commit's two, shared by the moves of its batch), on and off,
in nanoseconds a call, beside a server's CPU a move (bench/load.py) to give the share.

A load run's CPU a move (bench/load.py --metrics) moves by more than the instruments cost on a
shared machine; this isolates them.

    python bench/metrics_cost.py [--calls 1000000] [--cpu-ms-per-move 0.45] [--json]
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable

from carroca.server import metrics


def per_call_ns(fn: Callable[[], None], calls: int) -> float:
    best = float("inf")
    for _ in range(5):  # the fastest of five: the least disturbed by the machine's other work
        began = time.perf_counter_ns()
        for _ in range(calls):
            fn()
        best = min(best, (time.perf_counter_ns() - began) / calls)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--calls", type=int, default=300_000)
    parser.add_argument("--cpu-ms-per-move", type=float, default=0.45,
                        help="a server's CPU a move to compare with (bench/load.py)")
    parser.add_argument("--moves-per-commit", type=float, default=1.0,
                        help="moves sharing a commit's two observations (1: the worst case)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    out: dict[str, float] = {}
    for on in (False, True):
        metrics.configure(on)
        side = "on" if on else "off"
        out[f"move_ns_{side}"] = per_call_ns(lambda: metrics.move_answered(0.003), args.calls)
        out[f"commit_ns_{side}"] = per_call_ns(lambda: metrics.batch_committed(3, 0.001),
                                               args.calls)
    metrics.configure(True)
    added = (out["move_ns_on"] - out["move_ns_off"]) + \
        (out["commit_ns_on"] - out["commit_ns_off"]) / args.moves_per_commit
    out["added_ns_per_move"] = round(added, 1)
    out["share_of_a_move_pct"] = round(100 * added / (args.cpu_ms_per_move * 1e6), 3)
    out = {k: round(v, 1) if k.endswith("_ns_on") or k.endswith("_ns_off") else v
           for k, v in out.items()}
    if args.json:
        print(json.dumps(out))
    else:
        print(f"a move's latency observation: {out['move_ns_on']} ns on, {out['move_ns_off']} "
              f"ns off; a commit's two: {out['commit_ns_on']} ns on, {out['commit_ns_off']} ns "
              f"off; added to a move: {out['added_ns_per_move']} ns = "
              f"{out['share_of_a_move_pct']}% of {args.cpu_ms_per_move} ms")


if __name__ == "__main__":
    main()
