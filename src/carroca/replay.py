"""A verified match told step by step, in Brazilian Portuguese, for `carroca replay`.

The view is built from a `Match` (what `record.verify` returns), never from the record's own
claims: each hand is played again on a fresh engine so the ends and the table count shown after
every play are the engine's, and the points come from the engine's score events.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Console, Group, RenderableType
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from carroca.rules import HandLog, Match, ScoreEvent, Step
from carroca.rules import actions as A
from carroca.rules import tiles as T
from carroca.words import DETAILS, ON_END, REASONS, blocked_word

_END_PT = {"left": "esq", "right": "dir", "up": "cima", "down": "baixo"}


class ReplayError(ValueError):
    """A match or hand number that the record does not have (message in pt-BR)."""


@dataclass(frozen=True, slots=True)
class _Row:
    step: Step
    ends: dict[str, int]  # after the step
    count: int  # table count after the step (0 before the opening)


def team_name(match: Match, players: Sequence[str], team: int) -> str:
    """`Nós`/`Eles` in 2v2 (team 0 is Nós), the player's name in 1v1."""
    if match.n == 4:
        return "Nós" if team == 0 else "Eles"
    return players[team]


def player_name(match: Match, players: Sequence[str], seat: int) -> str:
    if match.n == 4:
        return f"{players[seat]} ({team_name(match, players, seat % 2)})"
    return players[seat]


def _replay_rows(match: Match) -> list[list[_Row]]:
    """Every hand played again on a fresh engine, with the ends after each step."""
    engine = Match(match.ruleset, match.options)
    out: list[list[_Row]] = []
    for log in match.history:
        engine.deal([t for hand in log.dealt for t in hand] + list(log.boneyard))
        rows = []
        for step in log.steps:
            engine.apply(step.action, step.seat, auto=step.auto)
            # the engine keeps the last table until the next deal, so a hand's last play reads too
            ends = {name: v for name, v in zip(A.END_NAMES, engine.ends, strict=True) if v >= 0}
            rows.append(_Row(step, ends, engine.table_count() if engine.table else 0))
        if log.end.kind == "abandon" and not (engine.needs_deal or engine.is_over):
            engine.abandon(log.end.seat if log.end.seat is not None else 0)
        out.append(rows)
    return out


def _hands_left(log: HandLog) -> list[list[int]]:
    held = [set(d) for d in log.dealt]
    for step in log.steps:
        if step.action.kind == A.PLAY:
            held[step.seat].discard(step.action.tile)
        elif step.action.kind == A.DRAW:
            held[step.seat].add(step.drawn)
    return [sorted(h) for h in held]


def _tiles(tiles: Sequence[int]) -> str:
    return " ".join(T.NAMES[t] for t in tiles) if tiles else "—"


def _points(match: Match, players: Sequence[str], events: Sequence[ScoreEvent]) -> str:
    return ", ".join(
        f"+{e.points} {team_name(match, players, e.team)} ({REASONS.get(e.reason, e.reason)})"
        for e in events
    )


def _action_text(match: Match, log: HandLog, i: int, events: Sequence[ScoreEvent]) -> str:
    step = log.steps[i]
    a = step.action
    if a.kind == A.PLAY:
        text = (
            f"sai com {T.NAMES[a.tile]}"
            if a.end == A.OPENING
            else f"joga {T.NAMES[a.tile]} {ON_END[A.END_NAMES[a.end]]}"
        )
    elif a.kind == A.DRAW:
        text = f"compra {T.NAMES[step.drawn]}"
    elif a.kind == A.PASS:
        text = "passa"
        if any(e.reason == "saida-passada" for e in events):
            text = "não tem carroça: passa a saída"
        elif (
            match.ruleset.pass_points
            and i > 0
            and log.steps[i - 1].action.kind == A.PASS
            and not any(e.reason == "passe" for e in events)
        ):
            text = "passa (nas costas)"
    elif a.choice == "points":
        text = "tem cinco carroças: fica com os pontos"
    else:
        text = "tem cinco carroças: pede nova distribuição"
    if step.auto:
        text += " (automática)"
    return text


def _ends_text(ends: dict[str, int]) -> str:
    return " · ".join(f"{_END_PT[name]} {v}" for name, v in ends.items())


def _end_text(match: Match, players: Sequence[str], log: HandLog) -> str:
    end = log.end
    if end.kind == "batida" and end.seat is not None:
        last = next(s for s in reversed(log.steps) if s.action.kind == A.PLAY)
        text = f"Batida de {player_name(match, players, end.seat)} com {T.NAMES[last.action.tile]}"
        if end.detail in DETAILS:
            text += f" — {DETAILS[end.detail]}"
        return text + "."
    if end.kind == "fechado" and end.seat is not None:
        word = blocked_word(match.ruleset.name)
        return f"{word}: ninguém tem pedra que sirva (última pedra de {players[end.seat]})."
    if end.kind == "redeal":
        return "Cinco carroças: mão anulada, as pedras são distribuídas de novo."
    if end.kind == "abandon" and end.seat is not None:
        return f"{player_name(match, players, end.seat)} abandonou a partida."
    return end.kind


def _pip_totals(match: Match, players: Sequence[str], left: Sequence[Sequence[int]]) -> str:
    totals = [0, 0]
    for seat, tiles in enumerate(left):
        totals[seat % 2] += sum(T.PIPS[t] for t in tiles)
    return " × ".join(f"{team_name(match, players, team)} {totals[team]}" for team in range(2))


def _score_text(match: Match, players: Sequence[str], score: Sequence[int]) -> str:
    return " × ".join(f"{team_name(match, players, t)} {score[t]}" for t in range(2))


def render_hand(
    match: Match, players: Sequence[str], number: int, log: HandLog, rows: Sequence[_Row]
) -> RenderableType:
    """One hand: the deal, every step with the ends and points, the end and the score."""
    parts: list[RenderableType] = [
        Rule(f"Mão {number} (distribuição {log.deal_index})", style="bold")
    ]
    head = Text()
    for seat, dealt in enumerate(log.dealt):
        head.append(f"{player_name(match, players, seat)}: ", style="bold")
        head.append(_tiles(sorted(dealt)) + "\n")
    if log.boneyard:
        label = "monte" if match.ruleset.draws else "fora do jogo"
        head.append(f"{label}: ", style="bold")
        head.append(_tiles(log.boneyard) + "\n")
    parts.append(head)

    table = Table(box=None, show_header=True, header_style="bold", pad_edge=False)
    table.add_column("#", justify="right")
    table.add_column("jogador")
    table.add_column("jogada")
    table.add_column("pontas")
    show_count = match.ruleset.table_points
    if show_count:
        table.add_column("mesa", justify="right")
    table.add_column("pontos")
    by_step: dict[int, list[ScoreEvent]] = {}
    for e in log.events:
        by_step.setdefault(e.index, []).append(e)
    for i, row in enumerate(rows):
        events = by_step.get(i, [])
        played = row.step.action.kind == A.PLAY
        cells = [
            str(i + 1),
            player_name(match, players, row.step.seat),
            _action_text(match, log, i, events),
            _ends_text(row.ends) if played else "",
        ]
        if show_count:
            cells.append(str(row.count) if played else "")
        cells.append(_points(match, players, events))
        table.add_row(*(Text(c) for c in cells))  # literal text: names may hold "[...]"
    parts.append(table)

    tail = Text("\n")
    tail.append(_end_text(match, players, log) + "\n", style="bold")
    if log.end.kind in ("batida", "fechado"):
        if log.end.winner is None:
            tail.append("Ninguém ganha a mão.\n")
        else:
            tail.append(f"Mão ganha por {team_name(match, players, log.end.winner)}.\n")
    end_events = by_step.get(-1, [])
    if end_events:
        tail.append(f"Pontos: {_points(match, players, end_events)}\n")
    if log.end.kind != "redeal":
        left = _hands_left(log)
        tail.append("Pedras na mão:\n")
        for seat, tiles in enumerate(left):
            pips = sum(T.PIPS[t] for t in tiles)
            tail.append(f"  {player_name(match, players, seat)}: {_tiles(tiles)} ({pips})\n")
        if log.end.kind == "fechado":
            tail.append(f"Soma das mãos: {_pip_totals(match, players, left)}\n")
    tail.append(f"Placar: {_score_text(match, players, log.score)}", style="bold")
    parts.append(tail)
    return Group(*parts)


def render_match(match: Match, players: Sequence[str], hand: int | None = None) -> RenderableType:
    """The whole match, or only hand `hand` (1-based); raises ReplayError if there is none."""
    total = len(match.history)
    if hand is not None and not 1 <= hand <= total:
        raise ReplayError(f"A partida tem {total} mão(s): não existe a mão {hand}.")
    rows = _replay_rows(match)
    options = ", ".join(f"{k}={v}" for k, v in vars_of(match).items())
    names = ", ".join(player_name(match, players, s) for s in range(match.n))
    parts: list[RenderableType] = [
        Text(f"{match.ruleset.title} ({match.ruleset.name}) · {options}", style="bold"),
        Text(f"Jogadores: {names}"),
    ]
    for number, (log, hand_rows) in enumerate(zip(match.history, rows, strict=True), start=1):
        if hand is None or number == hand:
            parts.append(render_hand(match, players, number, log, hand_rows))
    res = match.result
    if res is not None and (hand is None or hand == total):
        text = (
            f"Fim da partida: vitória de {team_name(match, players, res.winner)}, "
            f"{_score_text(match, players, res.score)}"
        )
        if res.reason == "abandon":
            text += " (por abandono)"
        if res.pneu:
            text += " — pneu!"
        parts.append(Rule())
        parts.append(Text(text + ".", style="bold"))
    elif res is None and (hand is None or hand == total):
        parts.append(Text("Partida não terminada."))
    return Group(*parts)


def vars_of(match: Match) -> dict[str, object]:
    return {name: getattr(match.options, name) for name in match.ruleset.option_names()}


def render_text(
    match: Match, players: Sequence[str], hand: int | None = None, width: int = 120
) -> str:
    """The replay as plain text (no colours), for tests and pipes."""
    out = io.StringIO()
    console = Console(file=out, width=width, color_system=None, highlight=False)
    console.print(render_match(match, players, hand))
    return out.getvalue()
