"""Strength of one bot level against another, on duplicate deals.

Every pair of matches plays one deal sequence (one server seed and client seed) twice: level A on
team 0, then A on team 1. Both levels get the same tiles, so the luck of the deal cancels and a
few hundred matches tell levels apart. Deals come from the verifiable shuffle, so every match can
be written as a record (`--out`) and checked with `carroca verify`.

    python bench/strength.py --ruleset duplas-torneio --a medium --b greedy --matches 400 \
        [--think-ms 50 | --worlds 300] [--a-worlds N] [--b-worlds N] [--a-set KEY=VALUE] \
        [--workers 2] [--seed 1] [--option target=100] [--out FILE.jsonl] [--json]

`--think-ms` gives the searching levels wall time per decision; `--worlds` alone, a count of
sampled worlds, so that the moves follow from the seed on any machine; neither, each level's
default. `--a-worlds`/`--b-worlds` give one side its own count: budgets matched on the CPU
seconds per decision that the report prints make an equal-CPU comparison whose moves still follow
from the seed, whatever else the machine is doing (wall time is what a loaded machine bends).
`--a-set`/`--b-set KEY=VALUE` change a field of the `expert` level's search `Config` on that
side (e.g. `prior=1.5`), to measure a setting against the default; the belief models by name,
a mixture comma-separated (`params=default,table-player-pontos`, `partner=expert-pontos`).
`bench/ladder.py` rates several levels at once from the same duplicate deals.

Reported for A: match wins (95% Wilson interval), hands won/lost/none, mean points per hand of
both levels and their difference (95% interval, each duplicate pair one sample), wall seconds and
the mean wall and CPU seconds per decision of each level (the time spent in its `choose`).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field, fields, replace
from typing import Any

from carroca import driver, fair
from carroca import record as rec
from carroca.bots import Bot, ExpertBot, make_bot
from carroca.bots.expert import Config
from carroca.bots.expert.belief import models_named
from carroca.cli import parse_options
from carroca.rules import Action, Match, Observation, get_ruleset, options_dict
from carroca.simulate import bot_seed, match_seeds

#: Two-sided 95% normal quantile.
Z95 = 1.959963984540054
SIDES = ("A", "B")


# --------------------------------------------------------------------------- statistics


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion: sound near 0 and 1 and for small n."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def ratio_interval(
    totals: Sequence[float], counts: Sequence[float], z: float = Z95
) -> tuple[float, float, float]:
    """Σtotals/Σcounts with a normal interval that treats each (total, count) as one sample.

    Hands of one duplicate pair are not independent (same deals, same bots), so the pair is the
    sample: the linearised (delta-method) variance of a ratio of sums over clusters.
    """
    k = len(totals)
    n = sum(counts)
    if k == 0 or n == 0:
        return (0.0, 0.0, 0.0)
    r = sum(totals) / n
    if k < 2:
        return (r, r, r)
    mean_count = n / k
    resid = [t - r * c for t, c in zip(totals, counts, strict=True)]
    var = sum(e * e for e in resid) / (k - 1) / k / (mean_count * mean_count)
    half = z * math.sqrt(var)
    return (r, r - half, r + half)


# --------------------------------------------------------------------------- duplicate pairing


@dataclass(frozen=True, slots=True)
class Game:
    """One match of the bench: its pair, which team A sits on and the pair's deal seeds."""

    pair: int
    a_team: int
    server_seed: str
    client_seed: str


def duplicate_games(seed: int | str, pair: int) -> tuple[Game, Game]:
    """The two matches of a pair: the same deal seeds, A on team 0 and then on team 1."""
    server, client = match_seeds(f"strength-{seed}", pair)
    return (Game(pair, 0, server, client), Game(pair, 1, server, client))


def seat_levels(a: str, b: str, a_team: int, seats: int) -> tuple[str, ...]:
    """The level on each seat when A plays for `a_team` (team = seat % 2)."""
    return tuple(a if seat % 2 == a_team else b for seat in range(seats))


# --------------------------------------------------------------------------- playing


class TimedBot:
    """A bot whose `choose` is timed, in wall and CPU seconds: the cost of the level alone, not
    of the engine. (CPU: the process's own, one match at a time per worker process.)"""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.seconds = 0.0
        self.cpu = 0.0
        self.longest = 0.0
        self.decisions = 0

    def choose(self, obs: Observation) -> Action:
        start, cpu = time.perf_counter(), time.process_time()
        action = self.bot.choose(obs)
        took = time.perf_counter() - start
        self.seconds += took
        self.longest = max(self.longest, took)
        self.cpu += time.process_time() - cpu
        self.decisions += 1
        return action


Settings = tuple[tuple[str, str], ...]


def expert_config(settings: Settings) -> Config:
    """The expert's search `Config` with some fields set from text (`prior=1.5`); the belief
    models (`params`, `partner`) by the names of `belief.MODELS`, a mixture comma-separated
    (`params=default,table-player-pontos`)."""
    known = {f.name: f for f in fields(Config)}
    values: dict[str, Any] = {}
    for key, text in settings:
        if key not in known:
            raise ValueError(f"unknown expert setting {key!r}; known: {', '.join(known)}")
        if key in ("params", "partner"):
            values[key] = models_named(text)
            continue
        kind = type(getattr(Config(), key))
        values[key] = text.lower() in ("1", "true", "yes") if kind is bool else kind(text)
    return replace(Config(), **values)


def side_bot(level: str, seed: int, think_ms: int | None, worlds: int | None,
             settings: Settings) -> Bot:
    if not settings:
        return make_bot(level, seed, think_ms, worlds)
    if level != "expert":
        raise ValueError(f"settings are for the expert level, not {level!r}")
    return ExpertBot(seed, think_ms, worlds, expert_config(settings))


@dataclass(slots=True)
class GameResult:
    pair: int
    a_team: int
    winner: int | None  # the winning team
    hands: list[tuple[int, int, int]]  # per hand played: (A points, B points, +1 A won/-1/0)
    seconds: dict[str, float]  # per side A/B: time in choose
    decisions: dict[str, int]
    line: str | None = None
    cpu: dict[str, float] = field(default_factory=lambda: dict.fromkeys(SIDES, 0.0))
    longest: dict[str, float] = field(default_factory=lambda: dict.fromkeys(SIDES, 0.0))

    @property
    def a_won(self) -> bool:
        return self.winner == self.a_team


def hand_outcomes(match: Match, a_team: int) -> list[tuple[int, int, int]]:
    """(A points, B points, outcome for A) of each hand played; a redeal is no hand."""
    out = []
    before = (0, 0)
    for log in match.history:
        a_pts = log.score[a_team] - before[a_team]
        b_pts = log.score[1 - a_team] - before[1 - a_team]
        before = (log.score[0], log.score[1])
        if log.end.kind == "redeal":
            continue
        winner = log.end.winner
        outcome = 0 if winner is None else 1 if winner == a_team else -1
        out.append((a_pts, b_pts, outcome))
    return out


@dataclass(frozen=True, slots=True)
class Job:
    ruleset: str
    options: dict[str, object] | None  # plain values: option classes may not pickle
    a: str
    b: str
    seed: int | str
    think_ms: int | None
    record: bool
    worlds: int | None = None  # sampled worlds per decision: a budget that follows the seed
    a_worlds: int | None = None  # A's own count (else `worlds`)
    b_worlds: int | None = None
    a_set: Settings = ()  # fields of A's expert `Config`
    b_set: Settings = ()

    def side(self, a_side: bool) -> tuple[int | None, Settings]:
        own = self.a_worlds if a_side else self.b_worlds
        return (self.worlds if own is None else own), (self.a_set if a_side else self.b_set)


def play_game(job: Job, game: Game) -> GameResult:
    rs = get_ruleset(job.ruleset)
    options = None if job.options is None else rs.make_options(job.options)
    levels = seat_levels(job.a, job.b, game.a_team, rs.seats)
    index = 2 * game.pair + game.a_team
    bots = []
    for seat, name in enumerate(levels):
        worlds, settings = job.side(seat % 2 == game.a_team)
        seed = bot_seed(f"strength-{job.seed}", index, seat)
        bots.append(TimedBot(side_bot(name, seed, job.think_ms, worlds, settings)))
    match = driver.play_match(rs.name, options, bots, game.server_seed, game.client_seed)
    seconds = dict.fromkeys(SIDES, 0.0)
    cpu = dict.fromkeys(SIDES, 0.0)
    longest = dict.fromkeys(SIDES, 0.0)
    decisions = dict.fromkeys(SIDES, 0)
    for seat, bot in enumerate(bots):
        side = "A" if seat % 2 == game.a_team else "B"
        seconds[side] += bot.seconds
        cpu[side] += bot.cpu
        longest[side] = max(longest[side], bot.longest)
        decisions[side] += bot.decisions
    line = None
    if job.record:
        players = [f"{name}-{seat}" for seat, name in enumerate(levels)]
        fairness = rec.Fairness(
            fair.commitment(game.server_seed), game.client_seed, game.server_seed
        )
        line = rec.dumps(rec.to_record(match, players, fairness))
    winner = match.result.winner if match.result is not None else None
    return GameResult(
        game.pair, game.a_team, winner, hand_outcomes(match, game.a_team), seconds, decisions,
        line, cpu, longest,
    )


def play_pair(job: Job, pair: int) -> list[GameResult]:
    return [play_game(job, game) for game in duplicate_games(job.seed, pair)]


def _play_pair_packed(args: tuple[Job, int]) -> list[GameResult]:
    return play_pair(*args)


# --------------------------------------------------------------------------- summing up


@dataclass(slots=True)
class Summary:
    ruleset: str
    a: str
    b: str
    pairs: int = 0
    matches: int = 0
    a_wins: int = 0
    hands: int = 0
    hand_wins: int = 0
    hand_losses: int = 0
    hand_none: int = 0
    a_points: int = 0
    b_points: int = 0
    pair_diff: list[float] = field(default_factory=list)  # per pair: Σ(A - B) over its hands
    pair_hands: list[float] = field(default_factory=list)
    seconds: float = 0.0
    think: dict[str, float] = field(default_factory=lambda: dict.fromkeys(SIDES, 0.0))
    cpu: dict[str, float] = field(default_factory=lambda: dict.fromkeys(SIDES, 0.0))
    longest: dict[str, float] = field(default_factory=lambda: dict.fromkeys(SIDES, 0.0))
    decisions: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SIDES, 0))

    def add_pair(self, games: Sequence[GameResult]) -> None:
        self.pairs += 1
        diff = 0
        hands = 0
        for g in games:
            self.matches += 1
            self.a_wins += g.a_won
            for a_pts, b_pts, outcome in g.hands:
                hands += 1
                self.a_points += a_pts
                self.b_points += b_pts
                diff += a_pts - b_pts
                if outcome > 0:
                    self.hand_wins += 1
                elif outcome < 0:
                    self.hand_losses += 1
                else:
                    self.hand_none += 1
            for side in SIDES:
                self.think[side] += g.seconds[side]
                self.cpu[side] += g.cpu[side]
                self.longest[side] = max(self.longest[side], g.longest[side])
                self.decisions[side] += g.decisions[side]
        self.hands += hands
        self.pair_diff.append(diff)
        self.pair_hands.append(hands)

    def to_dict(self) -> dict[str, Any]:
        low, high = wilson(self.a_wins, self.matches)
        diff, d_low, d_high = ratio_interval(self.pair_diff, self.pair_hands)
        per_hand = max(1, self.hands)
        return {
            "ruleset": self.ruleset,
            "a": self.a,
            "b": self.b,
            "pairs": self.pairs,
            "matches": self.matches,
            "a_wins": self.a_wins,
            "a_win_rate": round(self.a_wins / max(1, self.matches), 4),
            "a_win_rate_95": [round(low, 4), round(high, 4)],
            "hands": self.hands,
            "a_hand_wins": self.hand_wins,
            "a_hand_losses": self.hand_losses,
            "hands_none": self.hand_none,
            "a_points_per_hand": round(self.a_points / per_hand, 3),
            "b_points_per_hand": round(self.b_points / per_hand, 3),
            "diff_per_hand": round(diff, 3),
            "diff_per_hand_95": [round(d_low, 3), round(d_high, 3)],
            "seconds": round(self.seconds, 2),
            "a_seconds_per_decision": _per(self.think["A"], self.decisions["A"]),
            "b_seconds_per_decision": _per(self.think["B"], self.decisions["B"]),
            "a_cpu_per_decision": _per(self.cpu["A"], self.decisions["A"]),
            "b_cpu_per_decision": _per(self.cpu["B"], self.decisions["B"]),
            "a_longest_decision": round(self.longest["A"], 3),
            "b_longest_decision": round(self.longest["B"], 3),
        }


def _per(seconds: float, decisions: int) -> float:
    return float(f"{seconds / decisions:.3g}") if decisions else 0.0


def report(d: dict[str, Any], workers: int) -> str:
    low, high = d["a_win_rate_95"]
    d_low, d_high = d["diff_per_hand_95"]
    return "\n".join(
        [
            f"{d['ruleset']}: A = {d['a']}, B = {d['b']}; {d['matches']} matches "
            f"({d['pairs']} duplicate pairs, sides swapped)",
            f"A match wins: {d['a_wins']}/{d['matches']} = {100 * d['a_win_rate']:.1f}% "
            f"[{100 * low:.1f}%, {100 * high:.1f}%] (95% Wilson)",
            f"hands: {d['hands']}; A won {d['a_hand_wins']}, lost {d['a_hand_losses']}, "
            f"none {d['hands_none']}",
            f"points per hand: A {d['a_points_per_hand']:.2f}, B {d['b_points_per_hand']:.2f}, "
            f"A - B {d['diff_per_hand']:+.2f} [{d_low:+.2f}, {d_high:+.2f}] (95%)",
            f"seconds: {d['seconds']:.1f} ({workers} worker{'s' if workers != 1 else ''}); "
            f"per decision: {d['a']} (A) {d['a_seconds_per_decision']:.3g}, "
            f"{d['b']} (B) {d['b_seconds_per_decision']:.3g}; CPU seconds per decision: "
            f"A {d['a_cpu_per_decision']:.3g}, B {d['b_cpu_per_decision']:.3g}; longest "
            f"decision (wall): A {d['a_longest_decision']:.3g} s, "
            f"B {d['b_longest_decision']:.3g} s",
        ]
    )


def run(job: Job, pairs: int, workers: int, out: Any = None) -> Summary:
    """Play the pairs (in order, whatever the number of workers) and sum them up."""
    summary = Summary(get_ruleset(job.ruleset).name, job.a, job.b)
    started = time.perf_counter()
    args = [(job, p) for p in range(pairs)]
    if workers <= 1:
        results = map(_play_pair_packed, args)
        _collect(summary, results, out)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            _collect(summary, pool.map(_play_pair_packed, args, chunksize=1), out)
    summary.seconds = time.perf_counter() - started
    return summary


def _collect(summary: Summary, results: Any, out: Any) -> None:
    for games in results:
        summary.add_pair(games)
        if out is not None:
            for g in games:
                out.write(g.line + "\n")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--ruleset", required=True)
    parser.add_argument("--a", required=True, help="level measured")
    parser.add_argument("--b", required=True, help="level it plays against")
    parser.add_argument("--matches", type=int, default=400, help="even: two per duplicate pair")
    parser.add_argument("--think-ms", type=int, default=None, help="wall time per decision")
    parser.add_argument("--worlds", type=int, default=None, help="sampled worlds per decision")
    parser.add_argument("--a-worlds", type=int, default=None, help="A's own worlds budget")
    parser.add_argument("--b-worlds", type=int, default=None, help="B's own worlds budget")
    parser.add_argument("--a-set", action="append", default=[], metavar="KEY=VALUE",
                        help="a field of A's expert search Config (repeatable)")
    parser.add_argument("--b-set", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--out", default=None, help="write every match record (JSON lines)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.matches < 2 or args.matches % 2:
        parser.error("--matches must be an even number >= 2 (two matches per pair)")
    name, options = parse_options(args.ruleset, args.option)
    sets = []
    for pairs in (args.a_set, args.b_set):
        if any("=" not in p for p in pairs):
            parser.error("--a-set/--b-set take KEY=VALUE")
        sets.append(tuple(tuple(p.split("=", 1)) for p in pairs))
    job = Job(
        name, options_dict(options) if args.option else None, args.a, args.b, args.seed,
        args.think_ms, args.out is not None, args.worlds, args.a_worlds, args.b_worlds,
        sets[0], sets[1],
    )
    for level, a_side in ((args.a, True), (args.b, False)):
        worlds, settings = job.side(a_side)
        try:  # an unknown level or setting fails before any match
            side_bot(level, 0, args.think_ms, worlds, settings)
        except ValueError as e:
            parser.error(str(e))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            summary = run(job, args.matches // 2, args.workers, out)
    else:
        summary = run(job, args.matches // 2, args.workers)
    d = summary.to_dict()
    if args.json:
        print(json.dumps(d))
    else:
        print(report(d, args.workers))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
