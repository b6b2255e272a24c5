"""Bots-only events, run here: `carroca tournament`, a way to rank bots against each other.

Entrants are bots of the levels given, dealt in turn (`expert, medium, greedy, expert, …`).
In a 2v2 ruleset each entrant is a fixed dupla of two bots of one level (`entry="duplas"`), or
every bot registers alone and the core pairs them into duplas (`entry="solo"`). The event seed
follows from `seed` (`seeds.offline_seed`), every bot's seed from the event seed and its seat,
so the same arguments give the same event record, however many worker processes play it.

An arena runs on simulated time: a match lasts `SECONDS_PER_ACTION` seconds per action in its
record (a brisk table), and the arena's `duration` is in those seconds.
"""

from __future__ import annotations

import hashlib
import heapq
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any, Final, Literal

from carroca import driver, fair
from carroca import record as rec
from carroca.bots import make_bot
from carroca.rules import get_ruleset
from carroca.simulate import Budget
from carroca.tournament.director import Game, Round, Tournament
from carroca.tournament.event import Entrant, EventSpec
from carroca.tournament.seeds import offline_seed

#: Simulated seconds per action of a match, in an offline arena.
SECONDS_PER_ACTION: Final = 3

Entry = Literal["duplas", "solo"]
ENTRIES: Final[dict[str, Entry]] = {"duplas": "duplas", "solo": "solo"}
#: (ruleset, options, levels per seat, players, server_seed, client_seed, bot seeds, budget)
_Job = tuple[str, dict[str, object], tuple[str, ...], tuple[str, ...], str, str,
             tuple[int, ...], Budget | None]


def bot_entrants(
    spec: EventSpec, levels: Sequence[str], players: int, entry: Entry = "duplas"
) -> tuple[list[Entrant], dict[str, str]]:
    """(registrations, level of each player): `players` bots, levels dealt in turn.

    Players are named `level#k` (k counts per level); a fixed dupla's two are `level#ka` and
    `level#kb`, and the dupla is `level#k`.
    """
    if not levels:
        raise ValueError("give at least one bot level")
    if spec.duplas and entry == "duplas" and players % 2:
        raise ValueError("a duplas event with fixed duplas needs an even number of players")
    count: dict[str, int] = {}
    level_of: dict[str, str] = {}
    entrants: list[Entrant] = []
    sides = players // 2 if spec.duplas and entry == "duplas" else players
    for i in range(sides):
        level = levels[i % len(levels)]
        count[level] = count.get(level, 0) + 1
        name = f"{level}#{count[level]}"
        members = (f"{name}a", f"{name}b") if spec.duplas and entry == "duplas" else (name,)
        for member in members:
            level_of[member] = level
        entrants.append(Entrant(name, name, members))
    return entrants, level_of


def bot_seed(event_seed: str, key: tuple[int, int, int], seat: int) -> int:
    digest = hashlib.sha256(f"carroca-tournament-bot:{event_seed}:{key}:{seat}".encode())
    return int.from_bytes(digest.digest()[:8], "big")


def play_game(job: _Job) -> str:
    """One match in a worker: its record as one JSON line."""
    ruleset, options, levels, players, server_seed, client_seed, bot_seeds, budget = job
    rs = get_ruleset(ruleset)
    budget = budget or Budget()
    bots = [make_bot(level, seed, *budget.for_ruleset(rs.name, level))
            for level, seed in zip(levels, bot_seeds, strict=True)]
    match = driver.play_match(rs.name, rs.make_options(options), bots, server_seed, client_seed)
    fairness = rec.Fairness(fair.commitment(server_seed), client_seed, server_seed)
    return rec.dumps(rec.to_record(match, list(players), fairness))


class _Pool:
    """Plays batches of games, in worker processes when there are several."""

    def __init__(self, executor: ProcessPoolExecutor | None) -> None:
        self.executor = executor

    def play(self, jobs: list[_Job]) -> list[str]:
        if self.executor is None or len(jobs) < 2:
            return [play_game(job) for job in jobs]
        return list(self.executor.map(play_game, jobs, chunksize=max(1, len(jobs) // 16)))


@contextmanager
def _pool(workers: int) -> Iterator[_Pool]:
    if workers <= 1:
        yield _Pool(None)
        return
    with ProcessPoolExecutor(max_workers=workers) as executor:
        yield _Pool(executor)


def run_event(
    spec: EventSpec,
    levels: Sequence[str],
    players: int,
    seed: int | str,
    *,
    entry: Entry = "duplas",
    workers: int = 1,
    budget: Budget | None = None,
    on_game: Callable[[Game], None] | None = None,
) -> Tournament:
    """Run a whole bots-only event and return its finished director."""
    for level in set(levels):
        make_bot(level, 0)  # an unknown level fails here, before any process starts
    registrations, level_of = bot_entrants(spec, levels, players, entry)
    t = Tournament.create(spec, f"offline-{seed}", offline_seed(seed))
    for e in registrations:
        t.register(e)
    t.start()

    def job(game: Game) -> _Job:
        seat_levels = tuple(level_of[p] for p in game.players)
        return (spec.ruleset, dict(spec.options), seat_levels, game.players, game.server_seed,
                game.client_seed, tuple(bot_seed(t.event_seed, game.key, s)
                                        for s in range(len(game.players))), budget)

    with _pool(workers) as pool:
        if spec.format == "arena":
            _run_arena(t, pool, job, on_game)
        else:
            while not t.is_finished:
                if not t.pending_games():
                    t.pair_next_round()
                games = t.pending_games()
                for game, line in zip(games, pool.play([job(g) for g in games]), strict=True):
                    t.record_game(game.key, rec.loads(line))
                    if on_game is not None:
                        on_game(game)
    return t


def match_seconds(record: dict[str, Any]) -> int:
    """A match's simulated length: SECONDS_PER_ACTION per action."""
    return SECONDS_PER_ACTION * sum(len(h["actions"]) for h in record["hands"])


def _run_arena(
    t: Tournament,
    pool: _Pool,
    job: Callable[[Game], _Job],
    on_game: Callable[[Game], None] | None,
) -> None:
    """A discrete-event simulation: games end at their start plus their simulated length."""
    duration = t.spec.duration
    assert duration is not None
    running: list[tuple[float, tuple[int, int, int], dict[str, Any]]] = []

    def launch(rnd: Round | None, at: float) -> None:
        if rnd is None:
            return
        games = [tie.games[0] for tie in rnd.ties]
        for game, line in zip(games, pool.play([job(g) for g in games]), strict=True):
            record = rec.loads(line)
            heapq.heappush(running, (at + match_seconds(record), game.key, record))

    launch(t.pair_waiting(0.0), 0.0)
    while running:
        end = running[0][0]
        if end >= duration and not t.closed:
            t.close(duration)
        while running and running[0][0] == end:
            _, key, record = heapq.heappop(running)
            game = t.game(key)
            t.record_game(key, record, at=end)
            if on_game is not None:
                on_game(game)
        if not t.closed:
            launch(t.pair_waiting(end), end)
    if not t.closed:
        t.close(max(duration, t.clock))
