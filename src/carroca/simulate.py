"""Many bot-vs-bot matches with reproducible seeds: `carroca simulate`, benchmarks, bot tuning.

Everything about match i follows from (seed, i) alone — the server seed, the client seed and every
bot's seed — so the same `seed` gives byte-identical records however many worker processes share
the work: workers play contiguous chunks and results are handed back in match order.

The expert searches with a budget in sampled worlds here (`worlds`, default
`carroca.bots.expert.default_worlds`), not in wall time, so its moves follow from the seed too.
A `think_ms` gives it wall time instead (at least `worlds` worlds if both are given): the records
then depend on the machine's speed and load.
"""

from __future__ import annotations

import hashlib
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from carroca import driver, fair
from carroca import record as rec
from carroca.bots import make_bot
from carroca.bots.expert import default_worlds
from carroca.rules import Match, Options, get_ruleset, options_dict

#: Matches per task sent to a worker: large enough to amortise the hand-off, small enough to
#: keep every worker busy until the end.
MAX_CHUNK = 64


@dataclass(frozen=True, slots=True)
class Played:
    """One finished match of a simulation: its outcome and, when asked for, its record line.

    It holds no `Match`, so it crosses process boundaries cheaply (and works with the compiled
    engine, whose objects do not pickle); `play_match` gives the `Match` itself.
    """

    index: int
    players: tuple[str, ...]
    server_seed: str
    client_seed: str
    hands: int
    score: tuple[int, ...]
    winner: int | None
    line: str | None = None  # the record as one JSON line, when the simulation was asked for it


@dataclass(slots=True)
class Summary:
    matches: int = 0
    hands: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0])
    points: list[int] = field(default_factory=lambda: [0, 0])
    seconds: float = 0.0

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds if self.seconds > 0 else 0.0

    def add(self, played: Played) -> None:
        self.matches += 1
        self.hands += played.hands
        if played.winner is not None:
            self.wins[played.winner] += 1
        for team, points in enumerate(played.score):
            self.points[team] += points

    def to_dict(self) -> dict[str, Any]:
        return {
            "matches": self.matches,
            "hands": self.hands,
            "wins": list(self.wins),
            "points": list(self.points),
            "seconds": round(self.seconds, 3),
            "hands_per_second": round(self.hands_per_second, 1),
        }


def match_seeds(seed: int | str, index: int) -> tuple[str, str]:
    """(server_seed, client_seed) of match `index` of a simulation seeded `seed`."""
    server = hashlib.sha256(f"carroca-simulate:{seed}:{index}".encode()).hexdigest()
    return server, f"sim-{seed}-{index}"


def bot_seed(seed: int | str, index: int, seat: int) -> int:
    """The seed of the bot on `seat` in match `index`: 64 bits from sha256."""
    digest = hashlib.sha256(f"carroca-simulate-bot:{seed}:{index}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def seat_bots(bot_names: Sequence[str], seats: int) -> tuple[str, ...]:
    """The level on each seat: one name for everyone, or A for team 0 and B for team 1."""
    names = tuple(bot_names)
    if len(names) not in (1, 2):
        raise ValueError("give one bot level for everyone or two (A,B), one per team")
    return tuple(names[seat % 2] if len(names) == 2 else names[0] for seat in range(seats))


@dataclass(frozen=True, slots=True)
class Budget:
    """The searching bots' budget per decision: wall time (`think_ms`) or sampled worlds.

    Both None: the deterministic default, `default_worlds(ruleset)` worlds and no wall time.
    """

    think_ms: int | None = None
    worlds: int | None = None
    scale: float = 1.0  # the default worlds times this (each level keeps its CPU parity)

    def __post_init__(self) -> None:
        if (self.think_ms is not None and self.think_ms < 1) or (
            self.worlds is not None and self.worlds < 1
        ) or self.scale <= 0:
            raise ValueError("think_ms and worlds must be >= 1, scale > 0")

    @property
    def deterministic(self) -> bool:
        """Whether the moves follow from the seed alone (no wall-time budget)."""
        return self.think_ms is None

    def for_ruleset(self, ruleset: str, level: str = "expert") -> tuple[int | None, int | None]:
        """(think_ms, worlds) to give `make_bot` of `level` in `ruleset`."""
        if self.think_ms is None:
            if self.worlds:
                return None, self.worlds
            return None, max(1, round(default_worlds(ruleset, level) * self.scale))
        return self.think_ms, self.worlds


def play_match(
    ruleset: str,
    options: Options | None,
    bot_names: Sequence[str],
    seed: int | str,
    index: int,
    budget: Budget | None = None,
) -> tuple[Match, tuple[str, ...], str, str]:
    """Match `index` of the simulation, played here: (match, players, server_seed, client_seed)."""
    rs = get_ruleset(ruleset)
    levels = seat_bots(bot_names, rs.seats)
    budget = budget or Budget()
    bots = [
        make_bot(name, bot_seed(seed, index, seat), *budget.for_ruleset(rs.name, name))
        for seat, name in enumerate(levels)
    ]
    players = tuple(f"{name}-{seat}" for seat, name in enumerate(levels))
    server_seed, client_seed = match_seeds(seed, index)
    match = driver.play_match(rs.name, options, bots, server_seed, client_seed)
    return match, players, server_seed, client_seed


def play_one(
    ruleset: str,
    options: Options | None,
    bot_names: Sequence[str],
    seed: int | str,
    index: int,
    *,
    record: bool = False,
    budget: Budget | None = None,
) -> Played:
    """Match `index` of the simulation, summed up (and its record line if `record`)."""
    match, players, server_seed, client_seed = play_match(
        ruleset, options, bot_names, seed, index, budget
    )
    line = None
    if record:
        fairness = rec.Fairness(fair.commitment(server_seed), client_seed, server_seed)
        line = rec.dumps(rec.to_record(match, list(players), fairness))
    return Played(
        index,
        players,
        server_seed,
        client_seed,
        len(match.history),
        tuple(match.score),
        match.result.winner if match.result is not None else None,
        line,
    )


_Job = tuple[
    str, dict[str, object] | None, tuple[str, ...], int | str, int, int, bool, Budget | None
]


def _play_chunk(job: _Job) -> list[Played]:
    """Matches start..stop in a worker; options travel as a plain dict (compiled option
    classes do not pickle)."""
    ruleset, values, bot_names, seed, start, stop, record, budget = job
    options = None if values is None else get_ruleset(ruleset).make_options(values)
    return [
        play_one(ruleset, options, bot_names, seed, i, record=record, budget=budget)
        for i in range(start, stop)
    ]


def _chunks(games: int, workers: int) -> Iterator[tuple[int, int]]:
    size = max(1, min(MAX_CHUNK, games // (workers * 4) or 1))
    for start in range(0, games, size):
        yield start, min(games, start + size)


def iter_matches(
    ruleset: str,
    options: Options | None,
    bot_names: Sequence[str],
    games: int,
    seed: int | str,
    workers: int = 1,
    *,
    records: bool = False,
    budget: Budget | None = None,
) -> Iterator[Played]:
    """Play the matches and yield them in match order, spread over `workers` processes."""
    rs = get_ruleset(ruleset)
    names = tuple(bot_names)
    for name in set(seat_bots(names, rs.seats)):
        make_bot(name, 0)  # unknown names fail here, before any process starts
    if workers <= 1 or games <= 1:
        for i in range(games):
            yield play_one(rs.name, options, names, seed, i, record=records, budget=budget)
        return
    values = None if options is None else options_dict(options)
    jobs = (
        (rs.name, values, names, seed, start, stop, records, budget)
        for start, stop in _chunks(games, workers)
    )
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending: deque[Future[list[Played]]] = deque()
        for job in jobs:  # a bounded window of chunks in flight keeps memory flat
            pending.append(pool.submit(_play_chunk, job))
            if len(pending) >= workers * 3:
                yield from pending.popleft().result()
        while pending:
            yield from pending.popleft().result()


def simulate(
    ruleset: str,
    options: Options | None,
    bot_names: tuple[str, str] | tuple[str],
    games: int,
    seed: int | str,
    workers: int = 1,
    on_match: Callable[[Played], None] | None = None,
    *,
    records: bool = False,
    budget: Budget | None = None,
) -> Summary:
    """Play `games` matches and sum them up; `on_match` sees each one, in order.

    With `records=True` each `Played` carries its record line (built in the worker). `budget`:
    the searching bots' (default: `default_worlds` worlds per decision, deterministic).
    """
    if games < 0:
        raise ValueError("games must be >= 0")
    summary = Summary()
    started = time.perf_counter()
    matches = iter_matches(
        ruleset, options, bot_names, games, seed, workers, records=records, budget=budget
    )
    for played in matches:
        summary.add(played)
        if on_match is not None:
            on_match(played)
    summary.seconds = time.perf_counter() - started
    return summary
