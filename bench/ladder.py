"""A strength ladder: every bot level against the others on duplicate deals, rated on one scale.

Each matchup (two levels, one ruleset) is played as in `bench/strength.py`: pairs of matches on
one deal sequence with the sides swapped, so the luck of the tiles cancels. All matchups of a
ruleset share the deal sequences. Ratings are fitted per ruleset, since a level's edge depends on
the rules.

Ratings: Bradley–Terry on **match wins** (a drawn match counts half), by maximum likelihood, on
the Elo scale (a 400-point gap: 10 to 1 odds; 75% wins ≈ 191 points), anchored at one level
(`--anchor medium=1500`; without medium, the first level at 1500). Every matchup also counts one
virtual drawn match (`--prior 1`), so a level that never loses still gets a finite rating: 10
wins of 10 put it 400·log10(10.5 / 0.5) ≈ 529 points up rather than infinitely far. The 95%
intervals are percentile bootstraps over duplicate pairs (each matchup's pairs resampled with
replacement, `--bootstrap` times, seeded by `--seed`: the same command prints the same table).

    python bench/ladder.py [--rulesets duplas-pontos,duplas-torneio] \\
        [--levels random,greedy,medium,expert-1,expert] [--schedule all|adjacent] \\
        [--matches 200] [--think-ms 100 | --worlds 300 | --worlds-scale 0.25] [--workers 2] \\
        [--seed 1] [--plot docs/img/ladder.png] [--out FILE.jsonl] [--json] [--quiet]

Without `--think-ms` the searching levels get a count of sampled worlds per decision
(`--worlds`, default `carroca.bots.expert.default_worlds` of the ruleset, as `carroca simulate`
does; `--worlds-scale 0.25` gives each level a quarter of its own default, so the levels keep
the CPU parity of their defaults at a quarter of the cost), so the whole ladder follows from the
seed. `--schedule adjacent` plays only neighbours
in the `--levels` order (cheaper; the ratings then chain through every neighbour). A line on
stderr after each matchup tells how far a long run is.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import random
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from carroca.bots import BOT_LEVELS
from carroca.rules import get_ruleset
from carroca.simulate import Budget

sys.path.insert(0, str(Path(__file__).resolve().parent))
from strength import GameResult, Job, Summary, play_pair, wilson

DEFAULT_LEVELS = ("random", "greedy", "medium", "expert-1", "expert")
DEFAULT_RULESETS = ("duplas-pontos", "duplas-torneio", "mano-a-mano")
#: Points per natural-log unit of odds: Elo's 400 points per factor of 10.
ELO = 400 / math.log(10)

Matchup = tuple[str, str]  # (A, B): A is the level whose score is counted


# --------------------------------------------------------------------------- the Elo fit


def fit_elo(
    levels: Sequence[str],
    games: Mapping[Matchup, tuple[float, float]],
    anchor: str,
    anchor_rating: float = 1500.0,
    prior: float = 1.0,
) -> dict[str, float]:
    """Bradley–Terry ratings on the Elo scale by maximum likelihood (Newton's method).

    `games[(a, b)] = (score of a, matches)`, a draw counting half. `prior` virtual drawn matches
    are added to every matchup played, which keeps the maximum finite when a level never loses;
    with `prior=0` such a record has no maximum and raises ValueError, as does a schedule that
    leaves some level unconnected to the anchor.
    """
    index = {level: i for i, level in enumerate(levels)}
    if anchor not in index:
        raise ValueError(f"anchor {anchor!r} is not one of the levels")
    k = len(levels)
    score = [[0.0] * k for _ in range(k)]  # score[i][j]: i's score against j
    count = [[0.0] * k for _ in range(k)]
    for (a, b), (s, n) in games.items():
        if n <= 0:
            continue
        i, j = index[a], index[b]
        s_prior, n_prior = s + prior / 2, n + prior
        score[i][j] += s_prior
        score[j][i] += n_prior - s_prior
        count[i][j] += n_prior
        count[j][i] += n_prior
    _check_finite(levels, score, count, index[anchor])
    free = [i for i in range(k) if i != index[anchor]]
    theta = [0.0] * k  # natural log-odds scale
    for _ in range(200):
        grad = [0.0] * k
        info = [[0.0] * k for _ in range(k)]  # minus the Hessian of the log-likelihood
        for i in range(k):
            for j in range(k):
                if i == j or not count[i][j]:
                    continue
                p = 1 / (1 + math.exp(theta[j] - theta[i]))
                grad[i] += score[i][j] - count[i][j] * p
                w = count[i][j] * p * (1 - p)
                info[i][i] += w
                info[i][j] -= w
        step = _solve([[info[i][j] for j in free] for i in free], [grad[i] for i in free])
        for i, d in zip(free, step, strict=True):
            theta[i] += d
        if max((abs(d) for d in step), default=0.0) < 1e-10:
            break
    else:
        raise ValueError("the fit did not converge")
    base = theta[index[anchor]]
    return {level: anchor_rating + ELO * (theta[index[level]] - base) for level in levels}


def _reached(k: int, start: int, edge: Callable[[int, int], bool]) -> set[int]:
    seen = {start}
    todo = [start]
    while todo:
        i = todo.pop()
        for j in range(k):
            if j not in seen and edge(i, j):
                seen.add(j)
                todo.append(j)
    return seen


def _check_finite(levels: Sequence[str], score: list[list[float]], count: list[list[float]],
                  start: int) -> None:
    """Every level linked by matches, and the maximum finite (Zermelo's condition).

    The likelihood has a finite maximum exactly when, however the levels are split in two, each
    side has scored against the other: the graph of "scored against" is strongly connected.
    """
    k = len(levels)
    linked = _reached(k, start, lambda i, j: count[i][j] > 0)
    if len(linked) < k:
        missing = ", ".join(levels[i] for i in range(k) if i not in linked)
        raise ValueError(f"no matches link {missing} to {levels[start]}")
    ahead = _reached(k, start, lambda i, j: score[j][i] > 0)  # a chain of wins up to start
    behind = _reached(k, start, lambda i, j: score[i][j] > 0)  # and down from it
    if len(ahead) < k or len(behind) < k:
        cut = [levels[i] for i in range(k) if i not in ahead or i not in behind]
        raise ValueError(
            f"no finite maximum: {', '.join(cut)} never lost or never scored across the "
            "schedule (use a prior > 0)"
        )


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting: a handful of levels needs no numpy."""
    n = len(b)
    m = [[*row, rhs] for row, rhs in zip(a, b, strict=True)]
    for c in range(n):
        pivot = max(range(c, n), key=lambda r: abs(m[r][c]))
        if abs(m[pivot][c]) < 1e-300:
            raise ValueError("singular system: a level's ratings are not determined")
        m[c], m[pivot] = m[pivot], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            for j in range(c, n + 1):
                m[r][j] -= f * m[c][j]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][j] * x[j] for j in range(r + 1, n))) / m[r][r]
    return x


def elo_gap(win_rate: float) -> float:
    """The Elo difference at which the stronger side scores `win_rate`."""
    return ELO * math.log(win_rate / (1 - win_rate))


# --------------------------------------------------------------------------- bootstrap


PairScores = Mapping[Matchup, Sequence[tuple[float, int]]]  # per duplicate pair: (A's score, n)


def totals(pairs: PairScores) -> dict[Matchup, tuple[float, float]]:
    return {m: (sum(s for s, _ in ps), sum(n for _, n in ps)) for m, ps in pairs.items()}


def percentile(ordered: Sequence[float], q: float) -> float:
    """Linear interpolation between order statistics (numpy's default)."""
    pos = q * (len(ordered) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def bootstrap(
    levels: Sequence[str],
    pairs: PairScores,
    anchor: str,
    anchor_rating: float = 1500.0,
    prior: float = 1.0,
    resamples: int = 1000,
    seed: int | str = 1,
) -> dict[str, tuple[float, float]]:
    """95% percentile intervals of the ratings, resampling each matchup's duplicate pairs.

    The pair is the unit, as in `strength.ratio_interval`: its two matches share the deals.
    Each matchup keeps its number of pairs, so the schedule stays the one played.
    """
    rng = random.Random(f"ladder-bootstrap-{seed}")
    draws: dict[str, list[float]] = {level: [] for level in levels}
    for _ in range(resamples):
        games: dict[Matchup, tuple[float, float]] = {}
        for m, ps in pairs.items():
            picked = rng.choices(ps, k=len(ps))
            games[m] = (sum(s for s, _ in picked), sum(n for _, n in picked))
        for level, r in fit_elo(levels, games, anchor, anchor_rating, prior).items():
            draws[level].append(r)
    out = {}
    for level, values in draws.items():
        values.sort()
        out[level] = (percentile(values, 0.025), percentile(values, 0.975))
    return out


# --------------------------------------------------------------------------- playing


def schedule(levels: Sequence[str], kind: str) -> list[Matchup]:
    """The matchups: every two levels (`all`) or neighbours in the given order (`adjacent`)."""
    if kind == "adjacent":
        return list(itertools.pairwise(levels))
    if kind == "all":
        return [(a, b) for i, a in enumerate(levels) for b in levels[i + 1 :]]
    raise ValueError(f"unknown schedule {kind!r}: all or adjacent")


@dataclass(slots=True)
class MatchupResult:
    """One matchup of one ruleset: A's score per duplicate pair and strength.py's summary."""

    ruleset: str
    a: str
    b: str
    pairs: list[tuple[float, int]] = field(default_factory=list)
    summary: Summary | None = None

    def add_pair(self, games: Sequence[GameResult]) -> None:
        score = sum(1.0 if g.a_won else 0.5 if g.winner is None else 0.0 for g in games)
        self.pairs.append((score, len(games)))
        if self.summary is None:
            self.summary = Summary(self.ruleset, self.a, self.b)
        self.summary.add_pair(games)


def _play(task: tuple[Job, int]) -> list[GameResult]:
    return play_pair(*task)


def play_ladder(
    rulesets: Sequence[str],
    levels: Sequence[str],
    matches: int,
    budget: Budget,
    workers: int = 1,
    seed: int | str = 1,
    kind: str = "all",
    out: Any = None,
    log: Any = None,
) -> list[MatchupResult]:
    """Every matchup of every ruleset, `matches` matches each (two per duplicate pair).

    One pool for all of it, so that two workers stay busy when one matchup is slow; results come
    back in schedule order whatever the number of workers.
    """
    results: list[MatchupResult] = []
    tasks: list[tuple[Job, int]] = []
    for name in rulesets:
        ruleset = get_ruleset(name).name
        for a, b in schedule(levels, kind):
            think_ms, a_worlds = budget.for_ruleset(ruleset, a)
            b_worlds = budget.for_ruleset(ruleset, b)[1]
            job = Job(ruleset, None, a, b, seed, think_ms, out is not None, None, a_worlds,
                      b_worlds)
            results.append(MatchupResult(ruleset, a, b))
            tasks += [(job, pair) for pair in range(matches // 2)]
    per = matches // 2
    if workers <= 1:
        played: Iterable[list[GameResult]] = map(_play, tasks)
        _collect(results, per, played, out, log)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            _collect(results, per, pool.map(_play, tasks, chunksize=1), out, log)
    return results


def _collect(
    results: list[MatchupResult], per: int, played: Iterable[list[GameResult]], out: Any,
    log: Any,
) -> None:
    started = time.perf_counter()
    for n, games in enumerate(played):
        r = results[n // per]
        r.add_pair(games)
        if out is not None:
            for g in games:
                out.write(f"{g.line}\n")
        if log is not None and len(r.pairs) == per:  # a long run says how far it is
            score = sum(s for s, _ in r.pairs)
            print(f"[{n // per + 1}/{len(results)}, {time.perf_counter() - started:.0f} s] "
                  f"{r.ruleset}: {r.a} vs {r.b}, {score:g} of {2 * per}", file=log, flush=True)


# --------------------------------------------------------------------------- rating and output


@dataclass(slots=True)
class Rating:
    level: str
    rating: float
    low: float
    high: float
    matches: int


def rate(
    results: Sequence[MatchupResult],
    levels: Sequence[str],
    anchor: str,
    anchor_rating: float = 1500.0,
    prior: float = 1.0,
    resamples: int = 1000,
    seed: int | str = 1,
) -> dict[str, list[Rating]]:
    """Per ruleset, every level's rating with its 95% interval and its number of matches."""
    by_ruleset: dict[str, dict[Matchup, list[tuple[float, int]]]] = {}
    for r in results:
        by_ruleset.setdefault(r.ruleset, {})[(r.a, r.b)] = r.pairs
    out: dict[str, list[Rating]] = {}
    for ruleset, pairs in by_ruleset.items():
        point = fit_elo(levels, totals(pairs), anchor, anchor_rating, prior)
        bands = bootstrap(
            levels, pairs, anchor, anchor_rating, prior, resamples, f"{seed}-{ruleset}"
        )
        played = dict.fromkeys(levels, 0)
        for (a, b), ps in pairs.items():
            n = sum(k for _, k in ps)
            played[a] += n
            played[b] += n
        out[ruleset] = [
            Rating(level, point[level], *bands[level], played[level]) for level in levels
        ]
    return out


def table(ratings: Mapping[str, Sequence[Rating]], levels: Sequence[str]) -> str:
    """Levels × rulesets, Markdown: rating [95% interval] and the level's matches."""
    rulesets = list(ratings)
    lines = [
        "| level | " + " | ".join(f"`{rs}`" for rs in rulesets) + " |",
        "|---|" + "---|" * len(rulesets),
    ]
    for i, level in enumerate(levels):
        cells = []
        for rs in rulesets:
            r = ratings[rs][i]
            cells.append(f"{r.rating:.0f} [{r.low:.0f}, {r.high:.0f}] · {r.matches}")
        lines.append(f"| {level} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def matchup_table(results: Sequence[MatchupResult]) -> str:
    """Each matchup's raw record: A's match wins with their 95% Wilson interval."""
    lines = ["| matchup | ruleset | matches | A's match wins (95%) |", "|---|---|---:|---|"]
    for r in results:
        score = sum(s for s, _ in r.pairs)
        n = sum(k for _, k in r.pairs)
        low, high = wilson(score, n)
        lines.append(
            f"| {r.a} vs {r.b} | `{r.ruleset}` | {n} | {100 * score / max(1, n):.1f}% "
            f"[{100 * low:.1f}, {100 * high:.1f}] |"
        )
    return "\n".join(lines)


def plot(
    ratings: Mapping[str, Sequence[Rating]], path: str | Path, anchor: str, anchor_rating: float
) -> Path:
    """Ratings with their 95% bars, one colour per ruleset, to a PNG (matplotlib, no display)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    rulesets = list(ratings)
    levels = [r.level for r in ratings[rulesets[0]]]
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=120)
    spread = 0.6 / max(1, len(rulesets))
    for k, rs in enumerate(rulesets):
        rows = ratings[rs]
        xs = [i + (k - (len(rulesets) - 1) / 2) * spread for i in range(len(rows))]
        ys = [r.rating for r in rows]
        err = [[r.rating - r.low for r in rows], [r.high - r.rating for r in rows]]
        ax.errorbar(xs, ys, yerr=err, fmt="o", capsize=4, label=rs)
    ax.set_xticks(range(len(levels)), levels)
    ax.set_ylabel(f"Elo on match wins ({anchor} = {anchor_rating:g})")
    ax.set_title("carroca bot levels, duplicate deals, 95% bootstrap intervals")
    ax.grid(axis="y", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def to_dict(
    results: Sequence[MatchupResult], ratings: Mapping[str, Sequence[Rating]], meta: dict[str, Any]
) -> dict[str, Any]:
    return {
        **meta,
        "ratings": {
            rs: [
                {"level": r.level, "rating": round(r.rating, 1), "rating_95": [round(r.low, 1),
                 round(r.high, 1)], "matches": r.matches}
                for r in rows
            ]
            for rs, rows in ratings.items()
        },
        "matchups": [r.summary.to_dict() for r in results if r.summary is not None],
    }


def _csv(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rulesets", default=",".join(DEFAULT_RULESETS))
    parser.add_argument("--levels", default=",".join(DEFAULT_LEVELS), help="weakest first")
    parser.add_argument("--schedule", choices=("all", "adjacent"), default="all")
    parser.add_argument("--matches", type=int, default=200, help="per matchup; even")
    parser.add_argument("--think-ms", type=int, default=None, help="wall time per decision")
    parser.add_argument("--worlds", type=int, default=None, help="sampled worlds per decision")
    parser.add_argument("--worlds-scale", type=float, default=1.0,
                        help="each searching level's default worlds times this (CPU parity kept)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--anchor", default=None, metavar="LEVEL=RATING",
                        help="default medium=1500, or the first level at 1500")
    parser.add_argument("--prior", type=float, default=1.0,
                        help="virtual drawn matches per matchup (keeps ratings finite)")
    parser.add_argument("--bootstrap", type=int, default=1000, help="resamples")
    parser.add_argument("--plot", default=None, metavar="FILE.png")
    parser.add_argument("--out", default=None, help="write every match record (JSON lines)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    args = parser.parse_args(argv)

    levels = _csv(args.levels)
    unknown = [level for level in levels if level not in BOT_LEVELS]
    if unknown:
        parser.error(f"unknown level {', '.join(unknown)}; the levels are {', '.join(BOT_LEVELS)}")
    if len(levels) < 2 or len(set(levels)) != len(levels):
        parser.error("--levels needs two or more different levels")
    rulesets = _csv(args.rulesets)
    try:
        rulesets = [get_ruleset(rs).name for rs in rulesets]
        budget = Budget(args.think_ms, args.worlds, args.worlds_scale)
    except (KeyError, ValueError) as e:
        parser.error(str(e))
    if not rulesets:
        parser.error("--rulesets names no ruleset")
    if args.matches < 2 or args.matches % 2:
        parser.error("--matches must be an even number >= 2 (two matches per pair)")
    if args.prior < 0 or args.bootstrap < 1:
        parser.error("--prior must be >= 0 and --bootstrap >= 1")
    anchor, anchor_rating = ("medium" if "medium" in levels else levels[0]), 1500.0
    if args.anchor:
        anchor, _, value = args.anchor.partition("=")
        if anchor not in levels:
            parser.error(f"--anchor {anchor!r} is not one of --levels")
        try:
            anchor_rating = float(value or 1500)
        except ValueError:
            parser.error("--anchor takes LEVEL=RATING")

    started = time.perf_counter()
    log = None if args.quiet else sys.stderr
    if args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            results = play_ladder(rulesets, levels, args.matches, budget, args.workers,
                                  args.seed, args.schedule, out, log)
    else:
        results = play_ladder(rulesets, levels, args.matches, budget, args.workers, args.seed,
                              args.schedule, None, log)
    seconds = time.perf_counter() - started
    ratings = rate(results, levels, anchor, anchor_rating, args.prior, args.bootstrap, args.seed)
    default = ("default" if args.worlds_scale == 1 else
               f"{args.worlds_scale:g} x each level's default")
    budget_text = (f"{args.think_ms} ms per decision" if args.think_ms is not None else
                   f"{args.worlds or default} worlds per decision (deterministic)")
    meta = {
        "method": "Bradley-Terry on match wins (draws half), Elo scale, maximum likelihood",
        "anchor": {anchor: anchor_rating}, "prior": args.prior, "bootstrap": args.bootstrap,
        "levels": levels, "schedule": args.schedule, "matches_per_matchup": args.matches,
        "budget": budget_text, "seed": args.seed, "workers": args.workers,
        "seconds": round(seconds, 1),
    }
    if args.plot:
        plot(ratings, args.plot, anchor, anchor_rating)
    if args.json:
        print(json.dumps(to_dict(results, ratings, meta)))
    else:
        print(
            f"Elo on match wins (Bradley-Terry, draws half), {anchor} = {anchor_rating:g}; "
            f"95% bootstrap over duplicate pairs ({args.bootstrap} resamples, seed "
            f"{args.seed}); {args.matches} matches per matchup ({args.schedule}), {budget_text}; "
            f"{seconds:.0f} s with {args.workers} worker{'s' if args.workers != 1 else ''}\n"
        )
        print(table(ratings, levels))
        print()
        print(matchup_table(results))
        if args.plot:
            print(f"\nplot: {args.plot}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
