"""State frames: the cost of one publish, built one seat at a time or shared (on demand).

After every move a table sends a `state` frame to each seat and to its spectators. The old way
builds each seat's whole state (`Table.state(seat)`, from `observation(match, seat)`) and encodes
it (`protocol.envelope`); the new way (`carroca.server.realtime.frames.StateFrames`, what
`Table.publish` does now) builds and encodes the shared part once and splices in each seat's own
fields. Both run here on the same tables (random positions of random matches of every ruleset,
every seat and the spectators listening), in interleaved rounds of CPU time so that a shared,
noisy machine slows both alike: read the ratio.

    python bench/frames.py [--tables 30] [--rounds 7] [--seconds 0.3] [--seed 1] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from carroca import fair
from carroca.rules import RULESETS
from carroca.rules.rulesets import options_dict
from carroca.server.realtime import protocol
from carroca.server.realtime.fanout import LocalFanout, seat_channel
from carroca.server.realtime.frames import StateFrames
from carroca.server.records import Clock
from carroca.server.storage.plumbing import MoveRow
from carroca.server.tables.table import Table


class _Hub:
    """All a table's frames need of its hub: the fan-out (every seat and spectators listen)."""

    def __init__(self) -> None:
        self.fanout = LocalFanout()


def table_at(ruleset: str, moves: int, rng: random.Random) -> Table:
    """A friends' table of `ruleset` (four humans, or two) after up to `moves` random moves."""
    rules = RULESETS[ruleset]
    hub = _Hub()
    row = Table.new_row(
        mode="friends", ruleset=ruleset, options=options_dict(rules.make_options({})),
        seats=[{"player": 100 + i, "name": f"Jogador {i}"} for i in range(rules.seats)],
        turn_seconds=20.0, bot_level="medium", host_id=100, invite="convite",
    )
    row["server_seed"] = f"{rng.getrandbits(256):064x}"  # the same deals on every run
    row["commitment"] = fair.commitment(row["server_seed"])
    table = Table(hub, row)  # type: ignore[arg-type]
    table.status, table.client_seed = "playing", f"{rng.getrandbits(64):x}"
    table.restore([])
    for seat in (*range(rules.seats), None):
        hub.fanout.subscribe(seat_channel(table.id, seat), lambda payload: None)
    match = table.match
    assert match is not None and table.client_seed is not None
    log: list[MoveRow] = []  # random play, then the table rebuilt from it as a restart does
    for n in range(moves):
        seat = match.current_player
        if seat is None:
            break
        action = rng.choice(match.legal_actions())
        match.apply(action, seat)
        log.append(MoveRow(table.id, n, seat, str(action), False, time.time(), client_id=n))
        while match.needs_deal:
            match.deal(fair.shuffle(table.server_seed, table.client_seed, match.deal_index))
    table.restore(log)
    table.clock = Clock(match.current_player, time.time() + 20, 20.0)
    return table


def old_publish(table: Table) -> list[str]:
    """Each seat's frame built and encoded for that seat alone."""
    return [protocol.envelope("state", table.state(seat))
            for seat in (*range(len(table.seats)), None)]


def new_publish(table: Table) -> list[str]:
    frames = StateFrames(table)
    return [frames.frame(seat) for seat in (*range(len(table.seats)), None)]


def same(old: list[str], new: list[str]) -> bool:
    """The same frames, but for the clock's milliseconds (they were built a moment apart)."""
    def parsed(frames: list[str]) -> list[Any]:
        out = [json.loads(f) for f in frames]
        for frame in out:
            frame["data"]["clock"].pop("remaining_ms")
        return out

    return parsed(old) == parsed(new)


def per_publish(build: Callable[[Table], list[str]], tables: list[Table], seconds: float
                ) -> float:
    """CPU µs per publish, cycling over the tables for about `seconds`."""
    count = 0
    start = time.process_time()
    while (spent := time.process_time() - start) < seconds:
        for table in tables:
            build(table)
        count += len(tables)
    return spent / count * 1e6


def run(args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    tables = {name: [table_at(name, rng.randrange(0, 60), rng) for _ in range(args.tables)]
              for name in sorted(RULESETS)}
    for group in tables.values():  # the same frames, or the comparison means nothing
        for table in group:
            assert same(old_publish(table), new_publish(table))
    rows: dict[str, Any] = {}
    for name, group in tables.items():
        old: list[float] = []
        new: list[float] = []
        for _ in range(args.rounds):  # interleaved: noise hits both alike
            old.append(per_publish(old_publish, group, args.seconds))
            new.append(per_publish(new_publish, group, args.seconds))
        o, n = statistics.median(old), statistics.median(new)
        rows[name] = {"seats": len(group[0].seats), "old_us": round(o, 1), "new_us": round(n, 1),
                      "ratio": round(o / n, 2),
                      "frame_bytes": round(statistics.mean(
                          len(f.encode()) for t in group for f in new_publish(t)))}
    total_old = sum(r["old_us"] for r in rows.values())
    total_new = sum(r["new_us"] for r in rows.values())
    return {"tables_per_ruleset": args.tables, "rounds": args.rounds, "rulesets": rows,
            "mean_old_us": round(total_old / len(rows), 1),
            "mean_new_us": round(total_new / len(rows), 1),
            "ratio": round(total_old / total_new, 2)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=30, help="tables per ruleset")
    ap.add_argument("--rounds", type=int, default=7, help="interleaved rounds (median)")
    ap.add_argument("--seconds", type=float, default=0.3, help="CPU seconds per round and way")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    args = ap.parse_args()
    result = run(args)
    if args.json:
        print(json.dumps(result))
        return
    print(f"{'ruleset':16} {'seats':>5} {'old µs':>9} {'new µs':>9} {'old/new':>8} {'bytes':>6}")
    for name, r in result["rulesets"].items():
        print(f"{name:16} {r['seats']:>5} {r['old_us']:>9.1f} {r['new_us']:>9.1f} "
              f"{r['ratio']:>7.2f}x {r['frame_bytes']:>6}")
    print(f"{'mean':16} {'':>5} {result['mean_old_us']:>9.1f} {result['mean_new_us']:>9.1f} "
          f"{result['ratio']:>7.2f}x")
    print("µs of CPU per publish (every seat and the spectators), median of interleaved rounds")


if __name__ == "__main__":
    main()
