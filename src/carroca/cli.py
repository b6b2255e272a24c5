"""The `carroca` command: simulate bot matches, verify records, replay a hand, play bots.

Bad input (an unknown ruleset, option or bot, a file that cannot be read) ends with a clear
message on stderr and exit code 2, never a traceback; `verify` exits 1 when a record is rejected.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Annotated, Any, NoReturn, TextIO

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from carroca import record as rec
from carroca.bots import BOT_LEVELS, UnknownBot, make_bot
from carroca.driver import MatchTooLong
from carroca.replay import ReplayError, render_match
from carroca.rules import Match, Options, RulesError, get_ruleset
from carroca.simulate import Played, Summary, simulate

app = typer.Typer(
    name="carroca",
    help="Dominó brasileiro: simular partidas entre bots, verificar e rever registros, jogar.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


class InputError(ValueError):
    """Input the command cannot use; the message is shown as it is and the exit code is 2."""


def _fail(message: str, code: int = 2) -> NoReturn:
    Console(stderr=True, highlight=False, soft_wrap=True).print(
        f"[bold red]erro:[/] {escape(message)}", markup=True
    )
    raise typer.Exit(code)


@app.callback()
def _main() -> None:
    """Dominó brasileiro: simular partidas entre bots, verificar e rever registros, jogar."""


# --------------------------------------------------------------------------- input parsing


def parse_options(ruleset: str, pairs: list[str]) -> tuple[str, Options]:
    """The ruleset's name and options from `key=value` texts (unknown keys refused)."""
    rs = get_ruleset(ruleset)
    values: dict[str, object] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise InputError(f"Opção mal escrita: {pair!r}. Use chave=valor, como target=100.")
        values[key.strip()] = value.strip()
    return rs.name, rs.make_options(values, strings=True)


def parse_bots(text: str) -> tuple[str, str] | tuple[str]:
    """`A` (everyone) or `A,B` (A on team 0, B on team 1); every name must be a known level."""
    names = tuple(n.strip() for n in text.split(","))
    if len(names) not in (1, 2) or not all(names):
        raise InputError(
            f"--bots {text!r}: dê um bot para todos (ex.: greedy) ou dois, um por time "
            f"(ex.: greedy,random). Os bots são: {', '.join(BOT_LEVELS)}."
        )
    for name in names:
        make_bot(name, 0)
    if len(names) == 2:
        return names[0], names[1]
    return (names[0],)


# --------------------------------------------------------------------------- simulate


def _summary_table(summary: Summary, ruleset: str, bots: tuple[str, ...]) -> Table:
    seats = get_ruleset(ruleset).seats
    labels = [bots[0], bots[-1]]  # one name: the same level on both teams
    teams = ("Nós", "Eles") if seats == 4 else ("jogador 1", "jogador 2")
    table = Table(title=f"Simulação — {ruleset}", show_header=True, header_style="bold")
    table.add_column("")
    table.add_column(f"{teams[0]} ({labels[0]})", justify="right")
    table.add_column(f"{teams[1]} ({labels[1]})", justify="right")
    table.add_row("vitórias", str(summary.wins[0]), str(summary.wins[1]))
    table.add_row("pontos", str(summary.points[0]), str(summary.points[1]))
    return table


def _summary_line(summary: Summary) -> str:
    return (
        f"{summary.matches} partidas, {summary.hands} mãos em {summary.seconds:.2f} s "
        f"({summary.hands_per_second:,.0f} mãos/s)"
    )


@app.command("simulate")
def simulate_command(
    ruleset: Annotated[
        str, typer.Option("--ruleset", "-r", help="Modalidade, ex.: duplas-pontos.")
    ],
    games: Annotated[int, typer.Option("--games", "-n", min=0, help="Número de partidas.")] = 10,
    seed: Annotated[
        int, typer.Option("--seed", "-s", help="Semente: mesma semente, mesmos registros.")
    ] = 0,
    bots: Annotated[
        str,
        typer.Option("--bots", "-b", help="Um bot para todos, ou A,B: A no time 0, B no time 1."),
    ] = "random",
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="Opção da modalidade, chave=valor.")
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--out", help="Grava um registro por linha (JSONL).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Resumo em JSON numa linha.")] = False,
    workers: Annotated[int, typer.Option("--workers", "-w", min=1, help="Processos.")] = 1,
) -> None:
    """Joga N partidas entre bots e resume o resultado."""
    try:
        name, options = parse_options(ruleset, option or [])
        bot_names = parse_bots(bots)
    except (RulesError, UnknownBot, InputError) as exc:
        _fail(str(exc))
    console = Console(highlight=False)
    with ExitStack() as stack:
        sink: TextIO | None = None
        if out is not None:
            try:
                sink = stack.enter_context(out.open("w", encoding="utf-8", newline="\n"))
            except OSError as exc:
                _fail(f"não foi possível gravar {out}: {exc.strerror or exc}")
        progress: Progress | None = None
        task = None
        if console.is_terminal and not as_json:
            progress = stack.enter_context(
                Progress(
                    TextColumn("[bold]{task.description}"),
                    BarColumn(),
                    MofNCompleteColumn(),
                    TimeRemainingColumn(),
                    console=console,
                    transient=True,
                )
            )
            task = progress.add_task(name, total=games)

        def on_match(played: Played) -> None:
            if sink is not None and played.line is not None:
                sink.write(played.line + "\n")
            if progress is not None and task is not None:
                progress.advance(task)

        try:
            summary = simulate(
                name, options, bot_names, games, seed, workers, on_match, records=sink is not None
            )
        except MatchTooLong as exc:
            _fail(str(exc))
    if as_json:
        typer.echo(json.dumps(summary.to_dict()))
    else:
        console.print(_summary_table(summary, name, bot_names))
        console.print(_summary_line(summary))
        if out is not None:
            console.print(f"registros gravados em {out}")


# --------------------------------------------------------------------------- verify


def _readable(path: Path) -> None:
    if not path.exists():
        raise InputError(f"arquivo não encontrado: {path}")
    if path.is_dir():
        raise InputError(f"{path} é uma pasta, não um arquivo de registros")
    try:
        with path.open("rb") as fh:
            fh.read(1)
    except OSError as exc:
        raise InputError(f"não foi possível ler {path}: {exc.strerror or exc}") from None


def _records(path: Path) -> Iterator[tuple[int, dict[str, Any] | rec.RecordError]]:
    try:
        yield from rec.read_jsonl(path)
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"não foi possível ler {path}: {exc}") from None


@app.command("verify")
def verify_command(
    files: Annotated[list[Path], typer.Argument(help="Arquivos .jsonl de registros.")],
    as_json: Annotated[bool, typer.Option("--json", help="Uma linha JSON por registro.")] = False,
    summary: Annotated[
        bool, typer.Option("--summary", help="Só os rejeitados, e uma contagem no fim.")
    ] = False,
) -> None:
    """Confere cada registro: embaralhamento, jogadas, pontos e resultado."""
    try:
        for path in files:
            _readable(path)
    except InputError as exc:
        _fail(str(exc))
    several = len(files) > 1
    number = 0
    rejected = 0
    try:
        for path in files:
            for index, item in _records(path):
                number += 1
                error: str | None = None
                if isinstance(item, rec.RecordError):
                    error = str(item)
                else:
                    try:
                        rec.verify(item)
                    except (rec.RecordError, ValueError) as exc:
                        error = str(exc)
                rejected += error is not None
                if error is not None or not summary:
                    _report(number, error, path if several else None, index, as_json)
    except InputError as exc:
        _fail(str(exc))
    if number == 0:
        _fail("nenhum registro encontrado", code=1)
    if summary:
        counts = {"records": number, "ok": number - rejected, "rejected": rejected}
        if as_json:
            typer.echo(json.dumps(counts))
        else:
            typer.echo(f"{number} records: {number - rejected} ok, {rejected} rejected")
    raise typer.Exit(1 if rejected else 0)


def _report(number: int, error: str | None, path: Path | None, index: int, as_json: bool) -> None:
    """One record's verdict; `path` (several files) adds the file and the record's place in it."""
    if as_json:
        obj: dict[str, Any] = {"record": number, "ok": error is None, "error": error}
        if path is not None:
            obj["file"] = str(path)
            obj["index"] = index
        typer.echo(json.dumps(obj, ensure_ascii=False))
        return
    text = f"record {number}: ok" if error is None else f"record {number}: rejected: {error}"
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
            raise _Rejected(f"o registro {number} de {path} não pode ser lido: {item}")
        try:
            match = rec.verify(item)
        except (rec.RecordError, ValueError) as exc:
            raise _Rejected(f"o registro {number} de {path} não confere: {exc}") from None
        return match, [str(p) for p in item["players"]]
    raise InputError(f"{path} tem {seen} registro(s): não existe a partida {number}.")


@app.command("replay")
def replay_command(
    file: Annotated[Path, typer.Argument(help="Arquivo .jsonl de registros.")],
    match_number: Annotated[
        int, typer.Option("--match", "-m", min=1, help="Qual partida do arquivo (1 = a primeira).")
    ] = 1,
    hand: Annotated[
        int | None, typer.Option("--hand", min=1, help="Só esta mão (1 = a primeira).")
    ] = None,
) -> None:
    """Mostra uma partida jogada a jogada: pontas, pontos, batida ou trancado, placar."""
    try:
        match, players = load_match(file, match_number)
        view = render_match(match, players, hand)
    except (InputError, ReplayError) as exc:
        _fail(str(exc))
    Console(highlight=False).print(view)


# --------------------------------------------------------------------------- play

_LEVELS_HELP = ", ".join(BOT_LEVELS)


@app.command("play")
def play_command(
    ruleset: Annotated[
        str, typer.Option("--ruleset", "-r", help="Modalidade, ex.: duplas-pontos.")
    ] = "duplas-pontos",
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="Opção da modalidade, chave=valor.")
    ] = None,
    seat: Annotated[
        int,
        typer.Option("--seat", min=0, help="Seu lugar na ordem: 0–3 em duplas, 0–1 no 1x1."),
    ] = 0,
    partner: Annotated[
        str | None,
        typer.Option(
            "--partner", help=f"Nível do parceiro, em duplas (padrão greedy): {_LEVELS_HELP}."
        ),
    ] = None,
    opponents: Annotated[
        str, typer.Option("--opponents", help=f"Nível dos adversários: {_LEVELS_HELP}.")
    ] = "greedy",
    hint_level: Annotated[
        str | None,
        typer.Option("--hint-level", help="Nível que dá as dicas (padrão: expert, se houver)."),
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", "-s", help="Semente dos bots (jogadas repetíveis).")
    ] = None,
    client_seed: Annotated[
        str | None,
        typer.Option("--client-seed", help="Sua semente no embaralhamento (padrão: aleatória)."),
    ] = None,
    think_ms: Annotated[
        int | None, typer.Option("--think-ms", min=1, help="Tempo de pensar dos bots, em ms.")
    ] = None,
    bot_delay_ms: Annotated[
        int, typer.Option("--bot-delay-ms", min=0, help="Pausa entre as jogadas dos bots, em ms.")
    ] = 600,
    out: Annotated[
        Path | None, typer.Option("--out", help="Grava o registro da partida (JSONL).")
    ] = None,
) -> None:
    """Joga uma partida contra bots no terminal (em duplas, você e um parceiro contra dois).

    Na sua vez: o número da pedra (ou 3-5, 3-5:esq), c compra, p passo, ? dica, sair.
    """
    from carroca.play import PlaySession, PlaySettings, default_hint_level

    try:
        name, options = parse_options(ruleset, option or [])
        seats = get_ruleset(name).seats
        if seat >= seats:
            raise InputError(f"Em {name} os lugares vão de 0 a {seats - 1}: não existe o {seat}.")
        if seats == 2 and partner is not None:
            raise InputError("Em 1 contra 1 não há parceiro: use só --opponents.")
        settings = PlaySettings(
            ruleset=name,
            options=options,
            seat=seat,
            partner=partner or "greedy",
            opponents=opponents,
            hint_level=hint_level or default_hint_level(),
            seed=seed,
            think_ms=think_ms,
            bot_delay_ms=bot_delay_ms,
        )
        for level in (settings.partner, settings.opponents, settings.hint_level):
            make_bot(level, 0)
    except (RulesError, UnknownBot, InputError) as exc:
        _fail(str(exc))
    console = Console(highlight=False)
    with ExitStack() as stack:
        sink: TextIO | None = None
        if out is not None:
            try:
                sink = stack.enter_context(out.open("w", encoding="utf-8", newline="\n"))
            except OSError as exc:
                _fail(f"não foi possível gravar {out}: {exc.strerror or exc}")
        outcome = PlaySession(settings, console, client_seed=client_seed).run()
        if sink is not None:
            sink.write(rec.dumps(outcome.record()) + "\n")
            console.print(
                f"Registro gravado em {out}: confira com carroca verify {out}", soft_wrap=True
            )


# --------------------------------------------------------------------------- analyze


@app.command("analyze")
def analyze_command(
    file: Annotated[Path, typer.Argument(help="Arquivo .jsonl de registros.")],
    match_number: Annotated[
        int, typer.Option("--match", "-m", min=1, help="Qual partida do arquivo (1 = a primeira).")
    ] = 1,
    think_ms: Annotated[
        int,
        typer.Option(
            "--think-ms",
            min=0,
            help="Tempo extra do bot por decisão, em ms (o resultado passa a depender da máquina).",
        ),
    ] = 0,
    worlds: Annotated[
        int | None,
        typer.Option(
            "--worlds", min=1, help="Mundos sorteados por decisão, no mínimo (padrão 128)."
        ),
    ] = None,
    threshold: Annotated[
        float | None,
        typer.Option(
            "--threshold",
            min=0.0,
            help="Perda, em pontos esperados, a partir da qual a jogada é erro "
            "(padrão 5; 0,25 no clássico, 0,5 no bloqueio).",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="A análise em JSON numa linha.")] = False,
    seed: Annotated[
        int, typer.Option("--seed", "-s", help="Semente: mesma semente, mesma análise.")
    ] = 0,
) -> None:
    """Analisa uma partida: cada decisão de cada jogador comparada com a do bot expert."""
    from carroca.analysis import DEFAULT_WORLDS, analyze_match, render_analysis, to_json

    try:
        match, players = load_match(file, match_number)
    except _Rejected as exc:
        _fail(str(exc), code=1)
    except InputError as exc:
        _fail(str(exc))
    console = Console(highlight=False)
    with ExitStack() as stack:
        on_progress = None
        if console.is_terminal and not as_json:
            progress = stack.enter_context(
                Progress(
                    TextColumn("[bold]analisando"),
                    BarColumn(),
                    MofNCompleteColumn(),
                    TimeRemainingColumn(),
                    console=console,
                    transient=True,
                )
            )
            task = progress.add_task("analisando", total=None)

            def on_progress(done: int, total: int) -> None:
                progress.update(task, completed=done, total=total)

        analysis = analyze_match(
            match,
            players,
            think_ms,
            seed,
            worlds=DEFAULT_WORLDS if worlds is None else worlds,
            threshold=threshold,
            on_progress=on_progress,
        )
    if as_json:
        typer.echo(json.dumps(to_json(analysis), ensure_ascii=False))
    else:
        console.print(render_analysis(analysis))



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
) -> None:
    """Run the game server: web client, HTTP API and WebSocket tables."""
    import logging

    import uvicorn

    from carroca.server.app import create_app
    from carroca.server.guard import uvicorn_config
    from carroca.server.settings import Settings

    settings = Settings.from_env(
        host=host, port=port, database=database, bot_delay_ms=bot_delay_ms,
        turn_seconds=turn_seconds, casual_wait_seconds=casual_wait,
    )
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    shown = "localhost" if settings.host in ("127.0.0.1", "0.0.0.0") else settings.host
    Console(highlight=False).print(f"carroca: open http://{shown}:{settings.port}/ in your browser "
                  f"(database {escape(settings.database)})")
    uvicorn.Server(uvicorn_config(create_app(settings), settings)).run()


def main() -> None:  # pragma: no cover - the console script calls `app` directly
    app(prog_name="carroca")


if __name__ == "__main__":  # pragma: no cover
    main()
