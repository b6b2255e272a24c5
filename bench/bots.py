"""The bot service's throughput: expert decisions per second with 1 and with 2 worker processes,
and what each job costs the server's own process.

The decisions are real positions (turns with more than one legal action in medium-vs-medium
matches of the ruleset, drawn as `bench/budget.py` draws them), sent as the server sends them:
a `Job` per decision, each from its own table, at the server's budget (`DEFAULT_THINK_MS` of
wall time, the expert stopping early once its racing has settled). All jobs are queued at once,
so the workers never wait; a run with --bend lets the scheduler bend the budget as it would
under a flood (down to the floor), which is the most the workers can serve. Reported per worker
count: decisions per second, per second per worker, the scaling ratio (2 workers / 1), the
workers' CPU per decision, the server process's CPU per job (queue, pickling, pipe, the check
of the answer) and where the moves came from (a late or illegal one would be a fallback).

    python bench/bots.py [--ruleset duplas-pontos] [--decisions 120] [--workers 1,2] [--bend]
        [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

from budget import decisions  # bench/ is not a package
from carroca.bots.expert import DEFAULT_THINK_MS
from carroca.botservice import BotService, Job, LocalBots, Priority
from carroca.rules import Observation


def worker_cpu(backend: LocalBots) -> float:
    """CPU seconds of the live worker processes (from /proc)."""
    hz = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for process in backend.processes:
        try:
            stat = Path(f"/proc/{process.pid}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / hz
    return total


async def run(views: list[Observation], workers: int, bend: bool) -> dict[str, Any]:
    backend = LocalBots(workers, nice=0)
    service = BotService(backend, floor_ms=40 if bend else DEFAULT_THINK_MS)
    loop = asyncio.get_running_loop()

    def job(i: int, view: Observation) -> Job:
        return Job(key=f"t{i}", level="expert", view=view, seed=i, priority=Priority.PEOPLE,
                   think_ms=DEFAULT_THINK_MS, deadline=loop.time() + 3600)

    try:
        # Start every worker (a process imports the engine once) before timing.
        await asyncio.gather(*(service.decide(job(-1 - w, views[w])) for w in range(workers)))
        service.outcomes.clear()
        cpu0, wall0, work0 = time.process_time(), time.perf_counter(), worker_cpu(backend)
        found = await asyncio.gather(*(service.decide(job(i, v)) for i, v in enumerate(views)))
        wall = time.perf_counter() - wall0
        cpu, work = time.process_time() - cpu0, worker_cpu(backend) - work0
    finally:
        await service.stop()
    n = len(views)
    return {
        "workers": workers,
        "decisions": n,
        "seconds": round(wall, 2),
        "per_s": round(n / wall, 2),
        "per_s_per_worker": round(n / wall / workers, 2),
        "worker_cpu_ms_per_decision": round(1000 * work / n, 1),
        "server_cpu_ms_per_job": round(1000 * cpu / n, 3),
        "sources": dict(service.outcomes),
        "all_from_workers": all(d.source == "worker" for d in found),
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ruleset", default="duplas-pontos")
    parser.add_argument("--decisions", type=int, default=120)
    parser.add_argument("--workers", default="1,2", help="worker counts, comma-separated")
    parser.add_argument("--bend", action="store_true",
                        help="let the scheduler bend the budget to the queue (a flood)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    counts = [int(w) for w in args.workers.split(",") if w.strip()]
    if args.decisions < 1 or not counts or min(counts) < 1:
        parser.error("--decisions and --workers must be positive")
    views = decisions(args.ruleset, max(2, args.decisions // 10), args.decisions, args.seed)
    rows = [asyncio.run(run(views, w, args.bend)) for w in counts]
    base = rows[0]["per_s"]
    for row in rows:
        row["scaling"] = round(row["per_s"] / base, 2)
    out = {"ruleset": args.ruleset, "think_ms": DEFAULT_THINK_MS, "bend": args.bend,
           "cores": os.cpu_count(), "rows": rows}
    if args.json:
        print(json.dumps(out))
    else:
        print(f"expert decisions ({args.ruleset}, {DEFAULT_THINK_MS} ms budget"
              f"{', bent to the queue' if args.bend else ''}; {os.cpu_count()} cores)")
        print("| workers | decisions/s | per worker | scaling | worker CPU ms/decision "
              "| server CPU ms/job | sources |")
        print("|---:|---:|---:|---:|---:|---:|---|")
        for r in rows:
            print(f"| {r['workers']} | {r['per_s']} | {r['per_s_per_worker']} | {r['scaling']} "
                  f"| {r['worker_cpu_ms_per_decision']} | {r['server_cpu_ms_per_job']} "
                  f"| {r['sources']} |")
    sys.stdout.flush()
    return out


if __name__ == "__main__":
    main()
