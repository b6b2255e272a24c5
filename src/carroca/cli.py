"""The `carroca` command: simulate bot matches, verify records, replay and analyze a match,
play bots in the terminal, run the game server.

Languages: the program speaks English, the game speaks Brazilian Portuguese. Everything this
module says — every `--help`, usage errors, its own messages, `verify`'s verdicts, `simulate`'s
summary, progress, the server's start line and logs — is English, like the Typer, uvicorn and
Alembic frame around it. What a player sees of a game — the table and prompts of `play`, a match
drawn by `replay`, the review of `analyze`, the web client, and the engine's and server's
messages to players — is pt-BR; an engine message passed on here is quoted as it is.

Bad input (an unknown ruleset, option or bot, a file that cannot be read) ends with a clear
message on stderr and exit code 2, never a traceback; `verify` exits 1 when a record is rejected.
"""

from __future__ import annotations

import importlib
import itertools
import json
import logging
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Annotated, Any, NoReturn, TextIO

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from carroca import operator_cli
from carroca import record as rec
from carroca.bots import BOT_LEVELS, SEARCHING_LEVELS, UnknownBot
from carroca.bots.expert import DEFAULT_THINK_MS
from carroca.driver import MatchTooLong
from carroca.replay import ReplayError, render_match
from carroca.rules import RULESETS, Match, Options, RulesError, get_ruleset, options_dict
from carroca.simulate import Budget, Played, Summary, seat_bots, simulate
from carroca.tournament import (
    FORMAT_NAMES,
    FORMATS,
    EventRecordError,
    EventSpec,
    Tournament,
    TournamentError,
    is_event_record,
)
from carroca.tournament import to_record as to_event_record
from carroca.tournament import verify as verify_event
from carroca.tournament.eventrecord import dumps as dump_event

app = typer.Typer(
    name="carroca",
    help="Brazilian dominoes: simulate bot matches and tournaments, verify, replay and analyze "
    "match records, play bots in the terminal, run the game server.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


class InputError(ValueError):
    """Input the command cannot use; the message is shown as it is and the exit code is 2."""


# --------------------------------------------------------------------------- shared options

RulesetOption = Annotated[
    str, typer.Option("--ruleset", "-r", help="Ruleset, e.g. duplas-pontos.")
]
RulesetOptions = Annotated[
    list[str] | None, typer.Option("--option", "-o", help="Ruleset option, key=value.")
]
WorkersOption = Annotated[int, typer.Option("--workers", "-w", min=1, help="Processes.")]
ProgressOption = Annotated[
    bool | None,
    typer.Option("--progress/--no-progress", show_default=False,
                 help="Progress on stderr (default: on a terminal, unless --json)."),
]
RecordsFile = Annotated[Path, typer.Argument(help="Records file (JSONL).")]
MatchNumber = Annotated[
    int, typer.Option("--match", "-m", min=1, help="Which match of the file (1 = the first).")
]


def worlds_option(default: str) -> Any:
    return typer.Option("--worlds", min=1, help="The expert's budget: sampled worlds per "
                        f"decision ({default}; deterministic).")


def think_ms_option(what: str) -> Any:
    return typer.Option("--think-ms", min=1, help="The expert's budget in wall time per "
                        f"decision, in ms, instead of worlds: {what} on the machine's speed.")


def _fail(message: str, code: int = 2) -> NoReturn:
    Console(stderr=True, highlight=False, soft_wrap=True).print(
        f"[bold red]error:[/] {escape(message)}", markup=True
    )
    raise typer.Exit(code)


@app.callback()
def _main() -> None:
    """Brazilian dominoes: simulate bot matches and tournaments, verify, replay and analyze
    match records, play bots in the terminal, run the game server."""


# --------------------------------------------------------------------------- progress

#: Without a terminal, `--progress` writes a line at most this often (and one at the end).
PROGRESS_LINE_SECONDS = 5.0

ProgressCallback = Callable[[int, "int | None"], None]


def stderr_is_terminal() -> bool:
    """Whether stderr is a terminal (the real one: FORCE_COLOR does not make a log a screen)."""
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


@contextmanager
def progress_on_stderr(
    label: str, wanted: bool | None, as_json: bool
) -> Iterator[ProgressCallback]:
    """A `report(done, total)` callback showing progress on stderr, never on stdout.

    `wanted` None (the default): a Rich bar when stderr is a terminal and the output is not
    `--json`, else nothing. True: the bar on a terminal, elsewhere (a log, a pipe) a plain line
    every few seconds and at the end. False: nothing.
    """
    terminal = stderr_is_terminal()
    on = (terminal and not as_json) if wanted is None else wanted
    if not on:
        yield lambda done, total: None
        return
    if terminal:
        console = Console(stderr=True, highlight=False, force_terminal=True)
        columns = (
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("left"),
            TimeRemainingColumn(),
        )
        with Progress(*columns, console=console, transient=True) as bar:
            task = bar.add_task(label, total=None)
            yield lambda done, total: bar.update(task, completed=done, total=total)
        return
    started = last = time.monotonic()

    def line(done: int, total: int | None) -> None:
        nonlocal last
        now = time.monotonic()
        if done == total or now - last >= PROGRESS_LINE_SECONDS:
            last = now
            of = f"/{total}" if total is not None else ""
            sys.stderr.write(f"{label}: {done}{of} ({now - started:.0f} s)\n")
            sys.stderr.flush()

    yield line


# --------------------------------------------------------------------------- input parsing


def parse_ruleset(ruleset: str) -> str:
    if ruleset not in RULESETS:
        raise InputError(f"unknown ruleset {ruleset!r}; the rulesets are: {', '.join(RULESETS)}.")
    return get_ruleset(ruleset).name


def check_bot(name: str, flag: str) -> str:
    if name not in BOT_LEVELS:
        raise InputError(f"{flag}: unknown bot {name!r}; the bots are: {', '.join(BOT_LEVELS)}.")
    return name


def parse_options(ruleset: str, pairs: list[str]) -> tuple[str, Options]:
    """The ruleset's name and options from `key=value` texts (unknown keys refused)."""
    rs = get_ruleset(parse_ruleset(ruleset))
    values: dict[str, object] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise InputError(f"--option {pair!r}: write key=value, e.g. target=100.")
        if key.strip() not in rs.option_names():
            raise InputError(
                f"--option {pair!r}: {rs.name} has no option {key.strip()!r}; its options are: "
                f"{', '.join(rs.option_names())}."
            )
        values[key.strip()] = value.strip()
    try:
        return rs.name, rs.make_options(values, strings=True)
    except RulesError as exc:  # a value the ruleset refuses: the engine's words, quoted
        given = " ".join(f"{k}={v}" for k, v in values.items())
        raise InputError(f"--option {given}: refused by {rs.name}: {exc}") from None


def parse_bots(text: str) -> tuple[str, str] | tuple[str]:
    """`A` (everyone) or `A,B` (A on team 0, B on team 1); every name must be a known level."""
    names = tuple(n.strip() for n in text.split(","))
    if len(names) not in (1, 2) or not all(names):
        raise InputError(
            f"--bots {text!r}: give one bot for everyone (e.g. greedy) or two, one per team "
            f"(e.g. greedy,random). The bots are: {', '.join(BOT_LEVELS)}."
        )
    for name in names:
        check_bot(name, "--bots")
    if len(names) == 2:
        return names[0], names[1]
    return (names[0],)


# --------------------------------------------------------------------------- simulate


def _open_out(stack: ExitStack, out: Path | None) -> TextIO | None:
    """The file `--out` names, open for writing until `stack` closes (None without `--out`)."""
    if out is None:
        return None
    try:
        return stack.enter_context(out.open("w", encoding="utf-8", newline="\n"))
    except OSError as exc:
        _fail(f"cannot write {out}: {exc.strerror or exc}")


def _summary_table(summary: Summary, ruleset: str, bots: tuple[str, ...]) -> Table:
    seats = get_ruleset(ruleset).seats
    labels = [bots[0], bots[-1]]  # one name: the same level on both teams
    teams = ("team 0", "team 1") if seats == 4 else ("player 1", "player 2")
    table = Table(title=f"Simulation — {ruleset}", show_header=True, header_style="bold")
    table.add_column("")
    table.add_column(f"{teams[0]} ({labels[0]})", justify="right")
    table.add_column(f"{teams[1]} ({labels[1]})", justify="right")
    table.add_row("wins", str(summary.wins[0]), str(summary.wins[1]))
    table.add_row("points", str(summary.points[0]), str(summary.points[1]))
    return table


def _summary_line(summary: Summary) -> str:
    return (
        f"{summary.matches} matches, {summary.hands} hands in {summary.seconds:.2f} s "
        f"({summary.hands_per_second:,.0f} hands/s)"
    )


def _budget_line(budget: Budget, ruleset: str, levels: Sequence[str]) -> str:
    """The searching levels' budget per decision, for each such level in the simulation."""
    searching = [lv for lv in dict.fromkeys(levels) if lv in SEARCHING_LEVELS]
    if budget.think_ms is None:
        each = ", ".join(f"{lv}: {budget.for_ruleset(ruleset, lv)[1]}" for lv in searching)
        return f"sampled worlds per decision: {each} (the same seed, the same records)"
    least = f", at least {budget.worlds} worlds" if budget.worlds else ""
    return (
        f"{', '.join(searching)}: {budget.think_ms} ms per decision{least} (wall time: the "
        f"records depend on the machine's speed)"
    )


@app.command("simulate")
def simulate_command(
    ruleset: RulesetOption,
    games: Annotated[int, typer.Option("--games", "-n", min=0, help="Number of matches.")] = 10,
    seed: Annotated[
        int, typer.Option("--seed", "-s", help="Seed: the same seed gives the same records.")
    ] = 0,
    bots: Annotated[
        str,
        typer.Option(
            "--bots", "-b", help="One bot for everyone, or A,B: A on team 0, B on team 1."
        ),
    ] = "random",
    option: RulesetOptions = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="Write one record per line (JSONL).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="The summary as one JSON line.")] = False,
    workers: WorkersOption = 1,
    worlds: Annotated[
        int | None, worlds_option("default per ruleset, about 200 ms each")
    ] = None,
    think_ms: Annotated[int | None, think_ms_option("the records then depend")] = None,
    progress: ProgressOption = None,
) -> None:
    """Play N matches between bots and sum them up."""
    try:
        name, options = parse_options(ruleset, option or [])
        bot_names = parse_bots(bots)
    except (RulesError, UnknownBot, InputError) as exc:
        _fail(str(exc))
    budget = Budget(think_ms=think_ms, worlds=worlds)
    seated = seat_bots(bot_names, get_ruleset(name).seats)
    searching = bool(SEARCHING_LEVELS & set(seated))
    console = Console(highlight=False)
    with ExitStack() as stack:
        sink = _open_out(stack, out)
        report = stack.enter_context(
            progress_on_stderr(f"simulate {name}", progress, as_json)
        )
        report(0, games)
        done = 0

        def on_match(played: Played) -> None:
            nonlocal done
            if sink is not None and played.line is not None:
                sink.write(played.line + "\n")
            done += 1
            report(done, games)

        try:
            summary = simulate(
                name, options, bot_names, games, seed, workers, on_match,
                records=sink is not None, budget=budget,
            )
        except MatchTooLong as exc:
            _fail(str(exc))
    if as_json:
        typer.echo(json.dumps(summary.to_dict()))
    else:
        console.print(_summary_table(summary, name, bot_names))
        console.print(_summary_line(summary))
        if searching:
            console.print(_budget_line(budget, name, seated), soft_wrap=True)
        if out is not None:
            console.print(f"records written to {out}", soft_wrap=True)


# --------------------------------------------------------------------------- tournament


def parse_levels(text: str) -> list[str]:
    """`expert,medium,greedy`: the levels dealt in turn to the entrants."""
    names = [n.strip() for n in text.split(",")]
    if not all(names):
        raise InputError(f"--bots {text!r}: give bot levels separated by commas, e.g. "
                         f"expert,medium,greedy. The bots are: {', '.join(BOT_LEVELS)}.")
    for name in names:
        check_bot(name, "--bots")
    return names


def _event_spec(
    fmt: str,
    name: str,
    options: Options,
    rounds: int | None,
    best_of: int,
    duration: float | None,
) -> EventSpec:
    if fmt not in FORMATS:
        raise InputError(f"--format {fmt!r}: the formats are {', '.join(FORMATS)}.")
    if rounds is not None and fmt != "swiss":
        raise InputError("--rounds is for --format swiss.")
    if best_of != 1 and fmt != "knockout":
        raise InputError("--best-of is for --format knockout.")
    if best_of % 2 == 0:
        raise InputError(f"--best-of {best_of}: a best of N needs an odd N (1, 3, 5, ...).")
    if duration is not None and fmt != "arena":
        raise InputError("--duration is for --format arena.")
    minutes = DEFAULT_ARENA_MINUTES if duration is None else duration
    try:
        return EventSpec(
            fmt, name, options_dict(options), rounds=rounds, best_of=best_of,
            duration=minutes * 60 if fmt == "arena" else None,
            name=f"{FORMAT_NAMES[fmt]} de {name}",
        )
    except TournamentError as exc:  # the core's words, quoted
        raise InputError(f"the event cannot be held: {exc.message}") from None


#: An offline arena's length when --duration is not given, in simulated minutes.
DEFAULT_ARENA_MINUTES = 60.0


def _standings_table(t: Tournament, level_of: dict[str, str]) -> Table:
    fmt = t.spec.format
    extra = {"swiss": "Buchholz", "knockout": "reached", "arena": "streak"}[fmt]
    title = {"swiss": "Swiss", "knockout": "Knockout", "arena": "Arena"}[fmt]
    table = Table(title=f"{title} of {t.spec.ruleset}: standings", header_style="bold")
    for title in ("#", "entrant", "bot", "points", extra, "diff", "W-L-B"):
        table.add_column(title, justify="left" if title in ("entrant", "bot") else "right")
    for s in t.standings():
        entrant = t.entrant(s.entrant)
        levels = sorted({level_of.get(p, "?") for p in entrant.players})
        value = {"swiss": s.buchholz, "knockout": s.reached, "arena": s.streak}[fmt]
        name = escape(s.entrant) + (" (withdrawn)" if s.withdrawn else "")
        table.add_row(str(s.rank), name, "+".join(levels), str(s.points), str(value),
                      f"{s.difference:+d}", f"{s.wins}-{s.losses}-{s.byes}")
    return table


def level_summary(t: Tournament, level_of: dict[str, str]) -> list[dict[str, Any]]:
    """Per bot level: entrants, mean rank, mean points, best rank (a dupla of mixed levels
    counts for each of its levels)."""
    rows: dict[str, list[tuple[int, int]]] = {}
    for s in t.standings():
        for level in sorted({level_of.get(p, "?") for p in t.entrant(s.entrant).players}):
            rows.setdefault(level, []).append((s.rank, s.points))
    out = []
    for level, seen in rows.items():
        out.append({
            "bot": level,
            "entrants": len(seen),
            "mean_rank": round(sum(r for r, _ in seen) / len(seen), 2),
            "mean_points": round(sum(p for _, p in seen) / len(seen), 2),
            "best_rank": min(r for r, _ in seen),
        })
    return sorted(out, key=lambda row: (row["mean_rank"], row["bot"]))


def _level_table(rows: list[dict[str, Any]]) -> Table:
    table = Table(title="By bot", header_style="bold")
    for title in ("bot", "entrants", "mean rank", "mean points", "best rank"):
        table.add_column(title, justify="left" if title == "bot" else "right")
    for row in rows:
        table.add_row(row["bot"], str(row["entrants"]), f"{row['mean_rank']:.2f}",
                      f"{row['mean_points']:.2f}", str(row["best_rank"]))
    return table


@app.command("tournament")
def tournament_command(
    fmt: Annotated[
        str, typer.Option("--format", "-f", help="swiss, knockout or arena.")
    ] = "swiss",
    ruleset: RulesetOption = "duplas-pontos",
    players: Annotated[
        int, typer.Option("--players", "-p", min=2, help="Bots taking part (players, not "
                          "duplas).")
    ] = 16,
    bots: Annotated[
        str, typer.Option("--bots", "-b", help="Bot levels dealt in turn to the entrants, "
                          "e.g. expert,medium,greedy.")
    ] = "greedy,random",
    entry: Annotated[
        str, typer.Option("--entry", help="2v2 rulesets: duplas (fixed duplas of one level) or "
                          "solo (every bot alone, paired into duplas at the start).")
    ] = "duplas",
    rounds: Annotated[
        int | None, typer.Option("--rounds", min=1, help="Swiss rounds (default: "
                                 "ceil(log2(entrants))).")
    ] = None,
    best_of: Annotated[
        int, typer.Option("--best-of", min=1, help="Knockout: games per tie (odd).")
    ] = 1,
    duration: Annotated[
        float | None, typer.Option("--duration", min=1, help="Arena: length in simulated "
                                   "minutes; a match lasts 3 s per action (default 60).")
    ] = None,
    option: RulesetOptions = None,
    seed: Annotated[
        int, typer.Option("--seed", "-s", help="Seed: the same seed gives the same event.")
    ] = 0,
    record: Annotated[
        Path | None, typer.Option("--record", help="Write the event record (JSON, one line); "
                                  "check it with carroca verify.")
    ] = None,
    workers: WorkersOption = 1,
    worlds: Annotated[int | None, worlds_option("default per ruleset")] = None,
    think_ms: Annotated[int | None, think_ms_option("the event then depends")] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="The standings and the summary by bot as one JSON "
                           "line.")
    ] = False,
    progress: ProgressOption = None,
) -> None:
    """Run a bots-only tournament here and print the standings: a way to rank bots.

    Swiss pairs by score (no rematch while avoidable), knockout is a seeded bracket, arena pairs
    whoever is free for a simulated time. docs/tournaments.md has the formats and tiebreaks.
    """
    from carroca.tournament.offline import ENTRIES, bot_entrants, run_event

    try:
        name, options = parse_options(ruleset, option or [])
        levels = parse_levels(bots)
        if entry not in ENTRIES:
            raise InputError(f"--entry {entry!r}: duplas or solo.")
        kind = ENTRIES[entry]
        spec = _event_spec(fmt, name, options, rounds, best_of, duration)
        if spec.duplas and kind == "duplas" and players % 2:
            raise InputError(f"--players {players}: fixed duplas need an even number of bots.")
        if spec.duplas and players < 4:
            raise InputError(f"--players {players}: a 2v2 event needs at least 4 bots.")
        level_of = bot_entrants(spec, levels, players, kind)[1]
    except (RulesError, UnknownBot, InputError) as exc:
        _fail(str(exc))
    budget = Budget(think_ms=think_ms, worlds=worlds)
    console = Console(highlight=False)
    started = time.perf_counter()
    done = 0
    with progress_on_stderr(f"tournament {spec.format}", progress, as_json) as report:
        report(0, None)

        def on_game(_game: object) -> None:
            nonlocal done
            done += 1
            report(done, None)

        try:
            t = run_event(spec, levels, players, seed, entry=kind, workers=workers,
                          budget=budget, on_game=on_game)
        except MatchTooLong as exc:
            _fail(str(exc))
    seconds = time.perf_counter() - started
    if record is not None:
        try:
            record.write_text(dump_event(to_event_record(t)) + "\n", encoding="utf-8")
        except OSError as exc:
            _fail(f"cannot write {record}: {exc.strerror or exc}")
    by_level = level_summary(t, level_of)
    if as_json:
        typer.echo(json.dumps({
            "event": {"format": spec.format, "ruleset": spec.ruleset, "seed": seed,
                      "commitment": t.commitment, "matches": done,
                      "seconds": round(seconds, 3)},
            "standings": [s.to_dict() for s in t.standings()],
            "bots": by_level,
        }, ensure_ascii=False))
        return
    console.print(_standings_table(t, level_of))
    console.print(_level_table(by_level))
    left = f"; left out (no partner): {', '.join(e.id for e in t.left_out)}" if t.left_out else ""
    rounds_word = "pairing waves" if spec.format == "arena" else "rounds"
    console.print(f"{len(t.entrants)} entrants, {len(t.rounds)} {rounds_word}, {done} matches "
                  f"in {seconds:.2f} s{left}", soft_wrap=True)
    if record is not None:
        console.print(f"event record written to {record}: check it with carroca verify "
                      f"{record}", soft_wrap=True)


# --------------------------------------------------------------------------- verify


def _readable(path: Path) -> None:
    if not path.exists():
        raise InputError(f"file not found: {path}")
    if path.is_dir():
        raise InputError(f"{path} is a folder, not a records file")
    try:
        with path.open("rb") as fh:
            fh.read(1)
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None


def _records(path: Path) -> Iterator[tuple[int, dict[str, Any] | rec.RecordError]]:
    try:
        items = rec.read_jsonl(path)
        first = next(items, None)
        if first is None:
            return
        if isinstance(first[1], rec.RecordError):  # perhaps one document over many lines
            whole = _whole_document(path)
            if whole is not None:
                yield 1, whole
                return
        yield first
        yield from items
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read {path}: {exc}") from None


def _whole_document(path: Path) -> dict[str, Any] | None:
    """The file as one JSON object (an event record written with indentation), or None."""
    try:
        value = rec.loads(path.read_bytes())
    except rec.RecordError:
        return None
    return value if isinstance(value, dict) else None


class _MatchIndex:
    """Match records that carry an `id`, found in the files given to `verify`: an event record
    may name its matches by `record_id` instead of embedding them."""

    def __init__(self, files: Sequence[Path]) -> None:
        self.files = files
        self.by_id: dict[str, dict[str, Any]] | None = None

    def __call__(self, record_id: str) -> dict[str, Any] | None:
        if self.by_id is None:
            self.by_id = {}
            for path in self.files:
                for _, item in _records(path):
                    if isinstance(item, dict) and isinstance(item.get("id"), str) \
                            and item.get("format") == rec.FORMAT:
                        self.by_id.setdefault(item["id"], item)
        return self.by_id.get(record_id)


def _event_summary(t: Tournament) -> dict[str, Any]:
    games = sum(1 for r in t.rounds for tie in r.ties for g in tie.games
                if g.outcome is not None and g.outcome.kind == "played")
    return {"format": t.spec.format, "ruleset": t.spec.ruleset, "entrants": len(t.entrants),
            "rounds": len(t.rounds), "matches": games}


@app.command("verify")
def verify_command(
    files: Annotated[
        list[Path],
        typer.Argument(help="Records files: one record per line (JSONL); joined files too."),
    ],
    as_json: Annotated[bool, typer.Option("--json", help="One JSON line per record.")] = False,
    summary: Annotated[
        bool, typer.Option("--summary", help="Only the rejected ones, and a count at the end.")
    ] = False,
) -> None:
    """Check every record: the shuffle, every action, the scores and the result.

    An event record (`carroca tournament --record`) is checked whole: every pairing against the
    standings and the seed, every result against its match record, the standings at the end.
    """
    try:
        for path in files:
            _readable(path)
    except InputError as exc:
        _fail(str(exc))
    several = len(files) > 1
    number = 0
    rejected = 0
    resolve = _MatchIndex(files)
    try:
        for path in files:
            for index, item in _records(path):
                number += 1
                error: str | None = None
                event: dict[str, Any] | None = None
                if isinstance(item, rec.RecordError):
                    error = str(item)
                elif is_event_record(item):
                    try:
                        event = _event_summary(verify_event(item, resolve))
                    except EventRecordError as exc:
                        error = f"event record: {exc}"
                else:
                    try:
                        rec.verify(item)
                    except (rec.RecordError, ValueError) as exc:
                        error = str(exc)
                rejected += error is not None
                if error is not None or not summary:
                    _report(number, error, path if several else None, index, as_json, event)
    except InputError as exc:
        _fail(str(exc))
    if number == 0:
        _fail("no records found", code=1)
    if summary:
        counts = {"records": number, "ok": number - rejected, "rejected": rejected}
        if as_json:
            typer.echo(json.dumps(counts))
        else:
            typer.echo(f"{number} records: {number - rejected} ok, {rejected} rejected")
    raise typer.Exit(1 if rejected else 0)


def _report(
    number: int,
    error: str | None,
    path: Path | None,
    index: int,
    as_json: bool,
    event: dict[str, Any] | None = None,
) -> None:
    """One record's verdict; `path` (several files) adds the file and the record's place in it;
    `event` sums up an event record that verified."""
    if as_json:
        obj: dict[str, Any] = {"record": number, "ok": error is None, "error": error}
        if event is not None:
            obj["event"] = event
        if path is not None:
            obj["file"] = str(path)
            obj["index"] = index
        typer.echo(json.dumps(obj, ensure_ascii=False))
        return
    text = f"record {number}: ok" if error is None else f"record {number}: rejected: {error}"
    if event is not None:
        rounds = "pairing waves" if event["format"] == "arena" else "rounds"
        text += (f" (event record: {event['format']} of {event['ruleset']}, "
                 f"{event['entrants']} entrants, {event['rounds']} {rounds}, "
                 f"{event['matches']} matches)")
    if path is not None:
        text += f"  ({path}, #{index})"
    typer.echo(text)


# --------------------------------------------------------------------------- replay


class _Rejected(InputError):
    """A record that cannot be read or that `verify` rejects (`analyze` exits 1 for it)."""


def load_match(path: Path, number: int) -> tuple[Match, list[str]]:
    """Match `number` (1-based) of a records file, verified, with its players' names."""
    _readable(path)
    seen = 0
    for _line, item in _records(path):
        seen += 1
        if seen != number:
            continue
        if isinstance(item, rec.RecordError):
            raise _Rejected(f"record {number} of {path} cannot be read: {item}")
        try:
            match = rec.verify(item)
        except (rec.RecordError, ValueError) as exc:
            raise _Rejected(f"record {number} of {path} does not verify: {exc}") from None
        return match, [str(p) for p in item["players"]]
    raise InputError(f"{path} holds {seen} record(s): there is no match {number}.")


@app.command("replay")
def replay_command(
    file: RecordsFile,
    match_number: MatchNumber = 1,
    hand: Annotated[
        int | None, typer.Option("--hand", min=1, help="Only this hand (1 = the first).")
    ] = None,
) -> None:
    """Show a match action by action (in pt-BR, the game's language): ends, points, batida or
    trancado, score."""
    try:
        match, players = load_match(file, match_number)
        hands = len(match.history)
        if hand is not None and hand > hands:
            raise InputError(f"match {match_number} has {hands} hand(s): there is no hand {hand}.")
        view = render_match(match, players, hand)
    except (InputError, ReplayError) as exc:
        _fail(str(exc))
    Console(highlight=False).print(view)


# --------------------------------------------------------------------------- play

_LEVELS_HELP = ", ".join(BOT_LEVELS)


@app.command("play")
def play_command(
    ruleset: RulesetOption = "duplas-pontos",
    option: RulesetOptions = None,
    seat: Annotated[
        int,
        typer.Option("--seat", min=0, help="Your seat in turn order: 0-3 in 2v2, 0-1 in 1v1."),
    ] = 0,
    partner: Annotated[
        str | None,
        typer.Option(
            "--partner", help=f"Your partner's level, in 2v2 (default greedy): {_LEVELS_HELP}."
        ),
    ] = None,
    opponents: Annotated[
        str, typer.Option("--opponents", help=f"The opponents' level: {_LEVELS_HELP}.")
    ] = "greedy",
    hint_level: Annotated[
        str | None,
        typer.Option("--hint-level", help="The level that gives hints (default: expert)."),
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", "-s", help="The bots' seed.")
    ] = None,
    client_seed: Annotated[
        str | None,
        typer.Option("--client-seed", help="Your seed in the shuffle (default: a random one)."),
    ] = None,
    think_ms: Annotated[
        int | None,
        typer.Option(
            "--think-ms",
            min=1,
            help=f"The expert's thinking time per move, in ms (default {DEFAULT_THINK_MS}).",
        ),
    ] = None,
    bot_delay_ms: Annotated[
        int, typer.Option("--bot-delay-ms", min=0, help="Pause between the bots' moves, in ms.")
    ] = 600,
    out: Annotated[
        Path | None, typer.Option("--out", help="Write the match's record (JSONL).")
    ] = None,
) -> None:
    """Play a match against bots in the terminal (in 2v2, you and a partner against two).

    The table speaks pt-BR, the game's language. On your turn: the tile's number in your hand
    (or 3-5, 3-5:esq), c to draw (compra), p to pass (passo), ? for a hint (dica), sair to quit.
    """
    from carroca.play import PlaySession, PlaySettings, default_hint_level

    try:
        name, options = parse_options(ruleset, option or [])
        seats = get_ruleset(name).seats
        if seat >= seats:
            raise InputError(f"--seat {seat}: the seats of {name} are 0 to {seats - 1}.")
        if seats == 2 and partner is not None:
            raise InputError(f"--partner: {name} is 1 against 1, there is no partner.")
        settings = PlaySettings(
            ruleset=name,
            options=options,
            seat=seat,
            partner=check_bot(partner or "greedy", "--partner"),
            opponents=check_bot(opponents, "--opponents"),
            hint_level=check_bot(hint_level or default_hint_level(), "--hint-level"),
            seed=seed,
            think_ms=think_ms,
            bot_delay_ms=bot_delay_ms,
        )
    except (RulesError, UnknownBot, InputError) as exc:
        _fail(str(exc))
    console = Console(highlight=False)
    with ExitStack() as stack:
        sink = _open_out(stack, out)
        outcome = PlaySession(settings, console, client_seed=client_seed).run()
        if sink is not None:
            sink.write(rec.dumps(outcome.record()) + "\n")
            console.print(f"record written to {out}: check it with carroca verify {out}",
                          soft_wrap=True)


# --------------------------------------------------------------------------- analyze


@app.command("analyze")
def analyze_command(
    file: RecordsFile,
    match_number: MatchNumber = 1,
    worlds: Annotated[int | None, worlds_option("default 128")] = None,
    think_ms: Annotated[
        int,
        typer.Option(
            "--think-ms",
            min=0,
            help="Also think at least this long per decision, in ms of wall time: more worlds "
            "on a faster machine, so the analysis then depends on the machine.",
        ),
    ] = 0,
    threshold: Annotated[
        float | None,
        typer.Option(
            "--threshold",
            min=0.0,
            help="The loss, in expected points, from which a move is a mistake "
            "(default 5; 0.25 in classico, 0.5 in bloqueio).",
        ),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="The analysis as one JSON line.")
    ] = False,
    seed: Annotated[
        int, typer.Option("--seed", "-s", help="Seed: the same seed gives the same analysis.")
    ] = 0,
    progress: ProgressOption = None,
) -> None:
    """Analyze a match: every decision of every player rated by the expert bot, from that
    player's view only. The report is in pt-BR, the game's language."""
    from carroca.analysis import DEFAULT_WORLDS, analyze_match, render_analysis, to_json

    try:
        match, players = load_match(file, match_number)
    except _Rejected as exc:
        _fail(str(exc), code=1)
    except InputError as exc:
        _fail(str(exc))
    with progress_on_stderr("analyze", progress, as_json) as report:
        analysis = analyze_match(
            match,
            players,
            think_ms,
            seed,
            worlds=DEFAULT_WORLDS if worlds is None else worlds,
            threshold=threshold,
            on_progress=report,
        )
    if as_json:
        typer.echo(json.dumps(to_json(analysis), ensure_ascii=False))
    else:
        Console(highlight=False).print(render_analysis(analysis))


# --------------------------------------------------------------------------- serve


def _listening_socket(host: str, port: int) -> Any:
    """The server's socket, bound now, so a busy port fails before anything else starts."""
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


def _browser_url(host: str, port: int) -> str:
    if host in ("", "0.0.0.0", "127.0.0.1", "::", "::1"):
        host = "localhost"
    elif ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def database_shown(url: str) -> str:
    """The database URL without its password."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        return make_url(url).render_as_string(hide_password=True)
    except (ArgumentError, ValueError):
        return url


@app.command("serve")
def serve_command(
    host: Annotated[str | None, typer.Option(help="Address to listen on (CARROCA_HOST).")] = None,
    port: Annotated[int | None, typer.Option(help="Port (CARROCA_PORT, default 8000).")] = None,
    database: Annotated[
        str | None,
        typer.Option(help="SQLAlchemy URL (CARROCA_DATABASE): sqlite:///file.db or "
                          "postgresql://user:pass@host/db. Default: sqlite:///carroca.db."),
    ] = None,
    bot_delay_ms: Annotated[
        int | None,
        typer.Option(min=0, help="A bot's pause before each action (default 800; 0: full "
                                 "speed)."),
    ] = None,
    turn_seconds: Annotated[
        float | None, typer.Option(min=1, max=120, help="Turn clock of human seats (default 20).")
    ] = None,
    casual_wait: Annotated[
        float | None,
        typer.Option(min=0, help="Seconds before bots fill a casual table's empty seats."),
    ] = None,
    hand_pause: Annotated[
        float | None,
        typer.Option(min=0, help="Pause between hands, while the summary shows (default 5)."),
    ] = None,
    redis: Annotated[
        str | None,
        typer.Option(help="Redis URL (CARROCA_REDIS), redis://host:port/0: run as one node of a "
                          "cluster sharing the PostgreSQL --database (docs/server.md)."),
    ] = None,
    node: Annotated[
        str | None,
        typer.Option(help="This node's name in a cluster (CARROCA_NODE; default host:port)."),
    ] = None,
    bot_workers: Annotated[
        int | None,
        typer.Option(min=0, help="Processes that think for the bots (CARROCA_BOT_WORKERS; "
                                 "default 0: one per core)."),
    ] = None,
    bot_streams: Annotated[
        bool | None,
        typer.Option("--bot-streams/--local-bots",
                     help="With --redis: bots think in `carroca bots` workers on any machine, "
                          "fed by Redis Streams (CARROCA_BOT_STREAMS), not in this node's own."),
    ] = None,
    log_format: Annotated[
        str | None,
        typer.Option(help="The log's lines: text, or json (one object a line, with the match, "
                          "event and player ids) (CARROCA_LOG_FORMAT)."),
    ] = None,
) -> None:
    """Run the game server: web client, HTTP API and WebSocket tables.

    The line with the URL to open is printed once the server is listening, not before.
    """
    import contextlib
    import signal

    import uvicorn

    from carroca.server import logs
    from carroca.server.app import create_app
    from carroca.server.edge.guard import uvicorn_config
    from carroca.server.preflight import problem
    from carroca.server.settings import Settings

    try:
        settings = Settings.from_env(
            host=host, port=port, database=database, bot_delay_ms=bot_delay_ms,
            turn_seconds=turn_seconds, casual_wait_seconds=casual_wait,
            hand_pause_seconds=hand_pause, redis=redis, node=node, bot_workers=bot_workers,
            bot_streams=bot_streams, log_format=log_format,
        )
    except (TypeError, ValueError) as exc:
        _fail(f"a CARROCA_* setting cannot be read: {exc}")
    if settings.redis and not settings.database.startswith(("postgresql", "postgres:")):
        _fail("a cluster node (--redis) needs a PostgreSQL --database shared by every node")
    if settings.bot_streams and not settings.redis:
        _fail("--bot-streams needs --redis: the workers read their jobs from Redis Streams")
    if settings.log_format not in ("text", "json"):
        _fail(f"--log-format (CARROCA_LOG_FORMAT) is text or json, not {settings.log_format!r}")
    if (why := problem(settings)) is not None:
        _fail(why, code=1)
    logs.configure(settings.log_format)
    try:
        sock = _listening_socket(settings.host, settings.port)
    except OSError as exc:
        _fail(
            f"cannot listen on {settings.host}:{settings.port}: "
            f"{(exc.strerror or str(exc)).lower()}. Is another server running there? Stop it, or "
            f"choose another port: --port 9000, or CARROCA_PORT=9000 (CARROCA_PORT=9000 make run).",
            code=1,
        )
    ready = (
        f"carroca: open {_browser_url(settings.host, settings.port)} in your browser "
        f"(database {database_shown(settings.database)})"
    )

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[Any] | None = None) -> None:
            await super().startup(sockets)
            if self.started and not self.should_exit:
                print(ready, flush=True)  # plain: one line, never wrapped

        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            """Ctrl-C and SIGTERM stop the server gracefully, and that is a normal end (exit 0):
            uvicorn would raise the signal again once stopped (exit 130, or killed by SIGTERM)."""
            handled = (signal.SIGINT, signal.SIGTERM)
            before = {sig: signal.signal(sig, self.handle_exit) for sig in handled}
            try:
                yield
            finally:
                for sig, handler in before.items():
                    signal.signal(sig, handler)

    server = Server(uvicorn_config(create_app(settings), settings))
    with sock:
        server.run(sockets=[sock])
    if not server.started:  # the app could not start (its error is logged above)
        _fail("the server did not start", code=1)


app.command("backup")(operator_cli.backup_command)
app.command("restore")(operator_cli.restore_command)
app.add_typer(operator_cli.admin, name="admin")


@app.command("bots")
def bots_command(
    redis: Annotated[
        str, typer.Option(help="The cluster's Redis (CARROCA_REDIS), redis://host:6379/0.",
                          envvar="CARROCA_REDIS"),
    ],
    workers: Annotated[
        int, typer.Option(min=0, help="Worker processes (default 0: one per core).")
    ] = 0,
) -> None:
    """Think for the bots of a cluster's nodes (`carroca serve --redis … --bot-streams`), on this
    machine: jobs come from Redis Streams; Ctrl-C or SIGTERM stops every worker."""
    import logging
    import multiprocessing
    import os
    import signal
    import time

    from carroca.botservice.local import NICE
    from carroca.botservice.streams import worker_main, worker_name
    from carroca.server.preflight import redis_problem, redis_shown

    if (why := redis_problem(redis)) is not None:
        _fail(why, code=1)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    count = workers or max(1, os.cpu_count() or 1)
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=worker_main, args=(redis, worker_name(i), NICE),
                         name="carroca-bot", daemon=True) for i in range(count)]
    stopping = False

    def stop(*_: Any) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    for p in procs:
        p.start()
    print(f"carroca bots: {count} workers thinking for {redis_shown(redis)} (Ctrl-C stops them)",
          flush=True)
    restarts = [0.0] * count  # when each worker may be started again (a crash loop waits)
    while not stopping:
        for i, p in enumerate(procs):
            if not p.is_alive() and time.monotonic() >= restarts[i]:  # killed (out of memory?)
                p.join()
                restarts[i] = time.monotonic() + 5.0
                procs[i] = ctx.Process(target=worker_main, args=(redis, worker_name(i), NICE),
                                       name="carroca-bot", daemon=True)
                procs[i].start()
        time.sleep(0.2)
    for p in procs:
        p.terminate()
    for p in procs:
        p.join(timeout=5)
        if p.is_alive():
            p.kill()
            p.join()


def _chooser_factory(level: str, bot: str | None, seed: int | None) -> Any:
    """What plays each game: a built-in level, or `module:function` (a function that takes the
    seat's `Observation` and returns an action or its text)."""
    from carroca.client import level_chooser

    if bot is None:
        check_bot(level, "--level")
        counter = itertools.count()
        return lambda: level_chooser(level, None if seed is None else seed + next(counter))
    module_name, _, attr = bot.partition(":")
    if not module_name or not attr:
        _fail(f"--bot wants module:function, not {bot!r}")
    try:
        chooser = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        _fail(f"--bot {bot}: {exc}")
    if not callable(chooser):
        _fail(f"--bot {bot}: not a function")
    return lambda: chooser


@app.command("bot-connect")
def bot_connect_command(
    token: Annotated[
        str, typer.Option("--token", envvar="CARROCA_BOT_TOKEN",
                          help="A token of a bot account with the bot:play scope (made on the "
                               "profile page; or CARROCA_BOT_TOKEN).")],
    server: Annotated[
        str, typer.Option("--server", help="The carroca server's address.")
    ] = "http://localhost:8000",
    level: Annotated[
        str, typer.Option("--level", help=f"The built-in level that plays: {_LEVELS_HELP}.")
    ] = "expert",
    bot: Annotated[
        str | None,
        typer.Option("--bot", help="Your own bot instead: module:function, called with the "
                                   "seat's Observation, returning an action."),
    ] = None,
    accept: Annotated[
        bool, typer.Option("--accept/--decline", help="Accept (default) or decline challenges.")
    ] = True,
    seed: Annotated[int | None, typer.Option("--seed", "-s", help="The bots' seed.")] = None,
) -> None:
    """Connect a bot to a carroca server as a bot account, through the Bot API: it answers
    challenges and plays every game the account is seated at (Ctrl-C stops it)."""
    import httpx2

    from carroca.client import ApiError, BotClient, run_bot

    make = _chooser_factory(level, bot, seed)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    with BotClient(server, token) as client:
        try:
            who = client.account()
        except ApiError as exc:
            _fail(f"{server}: {exc.message} ({exc.code})", 1)
        except httpx2.TransportError as exc:
            _fail(f"cannot reach {server}: {exc}", 1)
        print(f"carroca bot-connect: {who['player']['name']} on {server} "
              f"({bot or level}; Ctrl-C stops it)", flush=True)
        try:
            run_bot(client, make, accept=lambda _: accept)
        except KeyboardInterrupt:
            pass
        except ApiError as exc:
            _fail(f"{server}: {exc.message} ({exc.code})", 1)


def main() -> None:  # pragma: no cover - the console script calls `app` directly
    app(prog_name="carroca")


if __name__ == "__main__":  # pragma: no cover
    main()
