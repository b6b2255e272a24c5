"""`carroca play`: a person against bots in the terminal, in Brazilian Portuguese.

`PlaySession` runs one match: the verifiable shuffle (commitment shown first, seed revealed at
the end), the bots' moves one at a time, and the person's turns read through an `ask` callable,
so a test drives the whole loop with scripted answers and a Rich `Console` writing to a file.
Everything shown comes from the person's `observation` while a hand is live; other hands appear
only once the hand is over.
"""

from __future__ import annotations

import secrets
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from carroca import fair
from carroca import record as rec
from carroca.bots import BOT_LEVELS, Bot, make_bot
from carroca.bots.greedy import count_after
from carroca.replay import vars_of
from carroca.rules import (
    Action,
    HandLog,
    Match,
    Observation,
    Options,
    Phase,
    RulesError,
    ScoreEvent,
    get_ruleset,
    observation,
)
from carroca.rules import actions as A
from carroca.rules import tiles as T
from carroca.rules.observation import PublicStep, revealed_hand
from carroca.words import HINT, ON_END, REASONS, action_text, batida_text, blocked_word

Ask = Callable[[str], str]

#: Names of the bots, by their place after the person in turn order (1v1 uses the first).
BOT_NAMES = {1: "Zé", 2: "Bia", 3: "Tião"}
END_PT = {"left": "esquerda", "right": "direita", "up": "cima", "down": "baixo"}
_END_WORDS = {
    **{w: "left" for w in ("e", "esq", "esquerda", "l", "left")},
    **{w: "right" for w in ("d", "dir", "direita", "r", "right")},
    **{w: "up" for w in ("c", "cima", "u", "up")},
    **{w: "down" for w in ("b", "baixo", "down")},
}
_DRAW_WORDS = ("c", "compra", "comprar", "compro", "draw")
_PASS_WORDS = ("p", "passo", "passar", "passa", "pass")
_HINT_WORDS = ("?", "dica")
_QUIT_WORDS = ("sair", "q")
_YES = ("s", "sim", "y")

# Looks of the tiles.
_BONE = "bold grey11 on grey93"
_DOUBLE = "bold grey11 on light_goldenrod2"
_SPINNER = "bold grey11 on gold1"
_LAST = "bold grey11 on pale_green1"
_DIM = "grey50 on grey19"
_LOG_LINES = 6
_HELP = (
    "Jogar: o número da pedra (4), a pedra (3-5) ou a pedra e a ponta (3-5:esq, 4 dir).\n"
    "Pontas: esquerda (e), direita (d), cima (c), baixo (b). Se a pedra serve em duas, eu "
    "pergunto.\nc compra do monte · p passo · ? dica · sair deixa a partida."
)
_ARM_ROWS = 4  # the spinner's arms may always take this many rows, upright


def default_hint_level() -> str:
    """`expert` when it is registered, else `greedy`."""
    return "expert" if "expert" in BOT_LEVELS else "greedy"


@dataclass(frozen=True)
class PlaySettings:
    """Who plays what: the person's seat, the bots' levels and the pause between their moves."""

    ruleset: str
    options: Options | None = None
    seat: int = 0
    partner: str = "greedy"
    opponents: str = "greedy"
    hint_level: str = field(default_factory=default_hint_level)
    seed: int | None = None
    think_ms: int | None = None
    bot_delay_ms: int = 600


@dataclass
class PlayOutcome:
    """The match as it stands when the session ends, and the shuffle's inputs (seed revealed)."""

    match: Match
    players: list[str]
    fairness: rec.Fairness
    finished: bool

    def record(self) -> dict[str, Any]:
        return rec.to_record(self.match, self.players, self.fairness)


class _Quit(Exception):
    """The person left (`sair` confirmed, end of input or Ctrl-C)."""


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _decimal(x: float) -> str:
    """`+3,5` / `−1,0`: signed, with a decimal comma."""
    return f"{x:+.1f}".replace(".", ",").replace("-", "−")


def bone(tile_or_halves: int | tuple[int, int], style: str = _BONE, pad: bool = False) -> Text:
    """A tile as text: `3│5` (halves in the given order), on a bone-coloured background."""
    a, b = (
        (T.LOW[tile_or_halves], T.HIGH[tile_or_halves])
        if isinstance(tile_or_halves, int)
        else tile_or_halves
    )
    body = f" {a}│{b} " if pad else f"{a}│{b}"
    return Text(body, style=style)


@dataclass
class Layout:
    """The table as drawn: the line (left to right), the opening tile's place, and the arms.

    Each entry is (shown halves, tile, play index). `up` runs from the outermost tile down to the
    spinner, `down` from the spinner outwards, so reading top to bottom follows the arm.
    """

    line: list[tuple[tuple[int, int], int, int]]
    opening: int
    up: list[tuple[tuple[int, int], int, int]]
    down: list[tuple[tuple[int, int], int, int]]


def layout(table: Sequence[tuple[int, int, str | None]]) -> Layout:
    """Where each tile of `table` (an observation's, in play order) lies and which way round."""
    if not table:
        return Layout([], 0, [], [])
    first = table[0][1]
    lo, hi = T.LOW[first], T.HIGH[first]
    ends = {"left": lo, "right": hi, "up": lo, "down": lo}
    left: list[tuple[tuple[int, int], int, int]] = []
    right: list[tuple[tuple[int, int], int, int]] = []
    up: list[tuple[tuple[int, int], int, int]] = []
    down: list[tuple[tuple[int, int], int, int]] = []
    for i, (_seat, tile, end) in enumerate(table[1:], start=1):
        if end is None:
            continue
        n = ends[end]
        other = T.OTHER_HALF[tile][n]
        ends[end] = other
        if end == "left":
            left.insert(0, ((other, n), tile, i))
        elif end == "right":
            right.append(((n, other), tile, i))
        elif end == "up":
            up.insert(0, ((other, n), tile, i))
        else:
            down.append(((n, other), tile, i))
    line = [*left, ((lo, hi), first, 0), *right]
    return Layout(line, len(left), up, down)


class PlaySession:
    """One match between a person (reading `ask`) and bots, drawn on `console`."""

    def __init__(
        self,
        settings: PlaySettings,
        console: Console,
        ask: Ask | None = None,
        *,
        sleep: Callable[[float], None] = time.sleep,
        server_seed: str | None = None,
        client_seed: str | None = None,
    ) -> None:
        rs = get_ruleset(settings.ruleset)
        if not 0 <= settings.seat < rs.seats:
            raise ValueError(
                f"Em {rs.name} os lugares vão de 0 a {rs.seats - 1}: não existe o {settings.seat}."
            )
        self.settings = settings
        self.console = console
        self._ask = ask or (lambda prompt: _terminal_input(console, prompt))
        self._sleep = sleep
        self.match = Match(rs, settings.options)
        self.me = settings.seat
        self.n = rs.seats
        self.server_seed = server_seed or fair.new_server_seed()
        self.client_seed = client_seed or secrets.token_hex(4)
        self.commitment = fair.commitment(self.server_seed)
        self.names: list[str] = []
        self.levels: list[str | None] = []
        self.bots: dict[int, Bot] = {}
        for seat in range(self.n):
            offset = (seat - self.me) % self.n
            if offset == 0:
                self.names.append("Você")
                self.levels.append(None)
                continue
            level = settings.partner if offset == 2 else settings.opponents
            self.names.append(BOT_NAMES[offset])
            self.levels.append(level)
            bot_seed = None if settings.seed is None else settings.seed * 10 + seat
            self.bots[seat] = make_bot(level, bot_seed, settings.think_ms)
        self.hint_bot = make_bot(settings.hint_level, settings.seed, settings.think_ms)
        self.finished = False

    # ------------------------------------------------------------------ names and words

    @property
    def players(self) -> list[str]:
        """The names written in the record, by seat."""
        return [
            name if level is None else f"{name} ({level})"
            for name, level in zip(self.names, self.levels, strict=True)
        ]

    def team_label(self, team: int) -> str:
        """`Nós`/`Eles` from the person's side in 2v2, the player's name in 1v1."""
        if self.n == 4:
            return "Nós" if team == self.me % 2 else "Eles"
        return self.names[team]

    def who(self, seat: int) -> str:
        if self.n == 4 and seat != self.me:
            return f"{self.names[seat]} ({self.team_label(seat % 2)})"
        return self.names[seat]

    def score_text(self, score: Sequence[int]) -> str:
        mine, theirs = self.me % 2, 1 - self.me % 2
        return (
            f"{self.team_label(mine)} {score[mine]} × {score[theirs]} {self.team_label(theirs)}"
        )

    def points_text(self, events: Sequence[ScoreEvent]) -> str:
        return ", ".join(
            f"+{e.points} {self.team_label(e.team)} ({REASONS.get(e.reason, e.reason)})"
            for e in events
        )

    def target_text(self) -> str:
        options = self.match.options
        target = getattr(options, "target", None)
        if target is not None:
            return f"até {target}"
        return f"quem ganhar {_plural(int(options.hands_to_win), 'mão')}"

    def describe(self, action: Action, hand: Sequence[int] = ()) -> str:
        """An action as a suggestion: `3-5 (nº 4) na esquerda`, `comprar`, …"""
        name = ""
        if action.kind == A.PLAY and action.tile in hand:
            name = f"{T.NAMES[action.tile]} (nº {list(hand).index(action.tile) + 1})"
        return action_text(action, HINT, name)

    # ------------------------------------------------------------------ the loop

    def run(self) -> PlayOutcome:
        """Play until the match ends or the person leaves."""
        try:
            self._intro()
            self._wait("Enter para começar › ")
            while not self.match.is_over:
                if self.match.needs_deal:
                    self.match.deal(fair.shuffle(self.server_seed, self.client_seed,
                                                 self.match.deal_index))
                    continue
                hands_before = len(self.match.history)
                seat = self.match.current_player
                if seat == self.me:
                    self._person_turn()
                elif seat is not None:
                    self._bot_turn(seat)
                if len(self.match.history) > hands_before:
                    self._hand_over(self.match.history[-1])
            self.finished = True
            self._match_over()
        except (_Quit, KeyboardInterrupt):
            self.console.print()
            self.console.print("[bold]Você saiu da partida.[/] Ela fica sem resultado.")
            self._reveal()
        return PlayOutcome(
            self.match,
            self.players,
            rec.Fairness(self.commitment, self.client_seed, self.server_seed),
            self.finished,
        )

    def ask(self, prompt: str) -> str:
        try:
            return self._ask(prompt)
        except (EOFError, KeyboardInterrupt):
            raise _Quit from None

    def _wait(self, prompt: str) -> None:
        while self.ask(prompt).strip().lower() in _QUIT_WORDS:
            self._confirm_quit()

    def _confirm_quit(self) -> None:
        answer = self.ask("Sair mesmo? A partida fica sem resultado. (s/n) › ")
        if answer.strip().lower() in _YES:
            raise _Quit

    def say(self, message: str, style: str = "bold red") -> None:
        self.console.print(Text(message, style=style))

    def _show(self, obs: Observation, last: int | None = None) -> None:
        self.console.clear()
        self.console.print(self.screen(obs, last))
        if obs.turn is not None and obs.turn != self.me:
            self.say(f"Vez de {self.who(obs.turn)}…", "grey58")

    def _bot_turn(self, seat: int) -> None:
        started = time.monotonic()
        bot = self.bots[seat]
        action = bot.choose(observation(self.match, seat))
        self.match.apply(action, seat)
        left = self.settings.bot_delay_ms / 1000 - (time.monotonic() - started)
        if left > 0:
            self._sleep(left)
        if self.match.current_player is not None:
            self._show(observation(self.match, self.me), len(self.match.steps) - 1)

    def _person_turn(self) -> None:
        obs = observation(self.match, self.me)
        self._show(obs, len(obs.steps) - 1 if obs.steps else None)
        self._turn_help(obs)
        while True:
            text = self.ask("Sua vez › ").strip().lower()
            if not text:
                continue
            if text in _QUIT_WORDS:
                self._confirm_quit()
                continue
            if text in _HINT_WORDS:
                self.console.print(self.hint(obs))
                continue
            if text in ("ajuda", "h"):
                self.say(_HELP, "grey70")
                continue
            try:
                action = self.read_action(text, obs)
                if action is None:
                    continue
                self.match.apply(action, self.me)
            except RulesError as exc:
                self.say(exc.message)
                continue
            if self.match.current_player not in (None, self.me):
                self._show(observation(self.match, self.me), len(self.match.steps) - 1)
            return

    def _turn_help(self, obs: Observation) -> None:
        legal = obs.legal
        first = legal[0]
        if first.kind == A.FIVE_DOUBLES:
            doubles = sum(1 for t in obs.hand if T.IS_DOUBLE[t])
            self.say(
                f"Você tem {doubles} carroças! Fique com os pontos (+{10 * doubles} para "
                f"{self.team_label(self.me % 2)}) ou embaralhe de novo.",
                "bold yellow",
            )
            self.say("Responda pontos (p) ou embaralhar (e).   ? dica · sair", "grey58")
            return
        hand = list(obs.hand)
        if first.kind == A.PLAY:
            numbers = sorted({hand.index(a.tile) + 1 for a in legal if a.kind == A.PLAY})
            choices = " · ".join(f"{k} ({T.NAMES[hand[k - 1]]})" for k in numbers)
            if first.end == A.OPENING and len(numbers) == 1:
                text = f"Sua saída: jogue a {T.NAMES[hand[numbers[0] - 1]]} (nº {numbers[0]})."
            elif first.end == A.OPENING:
                text = f"Sua saída. Pode sair com: {choices}"
            else:
                text = f"Servem: {choices}"
            self.say(text, "bold green")
        elif first.kind == A.PASS and obs.table == ():
            self.say("Você não tem carroça: passe a saída (p).", "bold yellow")
        elif first.kind == A.DRAW:
            self.say("Nenhuma pedra serve: compre do monte (c).", "bold yellow")
        else:
            self.say("Nenhuma pedra serve: passe a vez (p).", "bold yellow")
        extra = " · c compra" if self.match.ruleset.draws else ""
        self.say(f"número da pedra · 3-5 ou 3-5:esq · p passo{extra} · ? dica · ajuda · sair",
                 "grey58")

    # ------------------------------------------------------------------ reading a move

    def read_action(self, text: str, obs: Observation) -> Action | None:
        """The action a typed answer means (asking the end if needed); None: asked again.

        Unreadable or refused answers raise `RulesError` with a message for the person.
        """
        legal = obs.legal
        if legal and legal[0].kind == A.FIVE_DOUBLES:
            if text in ("pontos", "p", "1", "points"):
                return A.FIVE_POINTS
            if text in ("embaralhar", "e", "2", "redeal"):
                return A.FIVE_REDEAL
            raise RulesError("Responda pontos (p) ou embaralhar (e).")
        if text in _DRAW_WORDS:
            if not self.match.ruleset.draws:
                raise RulesError("Nesta modalidade não se compra.")
            return A.DRAW_ACTION
        if text in _PASS_WORDS:
            return A.PASS_ACTION
        head, end_word = _split(text)
        hand = list(obs.hand)
        if head.isdigit():
            k = int(head)
            if not 1 <= k <= len(hand):
                raise RulesError(
                    f"Sua mão tem {_plural(len(hand), 'pedra')}: escolha um número de 1 a "
                    f"{len(hand)}."
                )
            tile = hand[k - 1]
        else:
            try:
                tile = T.parse(head)
            except RulesError:
                return A.parse(text)  # `draw`, `pass`, … or the parser's own message
        if end_word is not None:
            end = _END_WORDS.get(end_word)
            if end is None:
                raise RulesError(
                    f"Ponta desconhecida: {end_word!r}. Use esquerda, direita, cima ou baixo."
                )
            return A.play(tile, end)
        fits = [a for a in legal if a.kind == A.PLAY and a.tile == tile]
        if not fits:
            if tile not in hand or not obs.ends:
                return A.play(tile)  # not held, or the saída: the engine says why not
            ends = " · ".join(f"{END_PT[e]} {v}" for e, v in obs.ends.items())
            raise RulesError(f"A pedra {T.NAMES[tile]} não encaixa em nenhuma ponta ({ends}).")
        if len(fits) == 1:
            return fits[0]
        return self._ask_end(tile, fits, obs)

    def _ask_end(self, tile: int, fits: list[Action], obs: Observation) -> Action | None:
        counts = self.match.ruleset.table_points
        options = []
        for k, action in enumerate(fits, start=1):
            end = A.END_NAMES[action.end]
            text = f"{k}) {END_PT[end]} ({obs.ends[end]})"
            if counts:
                after = count_after(obs.table, obs.ends, action)
                text += f" → mesa {after}" + (" marca!" if after and after % 5 == 0 else "")
            options.append(text)
        self.say(f"A {T.NAMES[tile]} serve em mais de uma ponta: " + " · ".join(options), "bold")
        while True:
            answer = self.ask("Qual ponta? (Enter volta) › ").strip().lower()
            if not answer:
                return None
            if answer in _QUIT_WORDS:
                self._confirm_quit()
                continue
            if answer.isdigit() and 1 <= int(answer) <= len(fits):
                return fits[int(answer) - 1]
            wanted = _END_WORDS.get(answer)
            for action in fits:
                if A.END_NAMES[action.end] == wanted:
                    return action
            names = ", ".join(END_PT[A.END_NAMES[a.end]] for a in fits)
            self.say(f"A {T.NAMES[tile]} serve em: {names}. Responda com uma delas ou o número.")

    # ------------------------------------------------------------------ hint

    def hint(self, obs: Observation) -> Text:
        """What the hint level suggests; with `evaluate`, the expected points of the top moves."""
        level = self.settings.hint_level
        hand = list(obs.hand)
        evaluate = getattr(self.hint_bot, "evaluate", None)
        ranked: list[tuple[Action, float]] = list(evaluate(obs)) if callable(evaluate) else []
        out = Text()
        if ranked:
            best, value = ranked[0]
            out.append(f"Dica ({level}): sugere {self.describe(best, hand)}", style="bold cyan")
            out.append(f" — saldo esperado na mão: {_decimal(value)} pontos.")
            others = [f"{self.describe(a, hand)} ({_decimal(v)})" for a, v in ranked[1:3]]
            if others:
                out.append("\n  outras: " + " · ".join(others), style="cyan")
            return out
        action = self.hint_bot.choose(obs)
        out.append(f"Dica ({level}): sugere {self.describe(action, hand)}.", style="bold cyan")
        return out

    # ------------------------------------------------------------------ drawing

    def screen(self, obs: Observation, last: int | None = None) -> RenderableType:
        """The whole table as the person sees it; `last`: the step to highlight."""
        header = Table.grid(expand=True)
        header.add_column()
        header.add_column(justify="right")
        rs = self.match.ruleset
        header.add_row(
            Text(f"{rs.title} · mão {obs.hand_number + 1} · {self.target_text()}", style="bold"),
            Text(self.score_text(obs.score), style="bold yellow"),
        )
        middle = Table.grid(expand=True, padding=(0, 1))
        middle.add_column(ratio=1)
        middle.add_column(width=36)
        middle.add_row(self._log_panel(obs, last), self._players_panel(obs))
        return Group(
            header,
            self._table_panel(obs.table, obs.ends, obs.table_count, last),
            middle,
            self._hand_panel(obs),
        )

    def _table_panel(
        self,
        table: Sequence[tuple[int, int, str | None]],
        ends: dict[str, int],
        count: int,
        last: int | None = None,
        room: int = 22,
    ) -> Panel:
        """The line of tiles (the arms of the spinner above and below it), the ends, the count.

        `room`: the screen rows the rest needs; the arms stand upright while they fit beside it.
        """
        width = max(20, self.console.width - 4)
        if not table:
            return Panel(Text(f"\n{self._empty_table()}\n", justify="center"), title="Mesa",
                         title_align="left", border_style="green")
        last_tile = -1  # the tile played by step `last`, drawn in another colour
        steps = self.match.steps
        if last is not None and 0 <= last < len(steps) and steps[last].action.kind == A.PLAY:
            last_tile = steps[last].action.tile
        lay = layout(table)
        spinner = self.match.ruleset.spinner

        def look(halves: tuple[int, int], tile: int, index: int) -> Text:
            if tile == last_tile:
                style = _LAST
            elif index == 0 and spinner:
                style = _SPINNER
            else:
                style = _DOUBLE if T.IS_DOUBLE[tile] else _BONE
            return bone(halves, style)

        cells = [look(*entry) for entry in lay.line]
        rows: list[Text] = []
        line_width = 4 * len(cells) - 1
        arm_rows = max(_ARM_ROWS, self.console.height - room)
        upright = max(1, len(lay.up)) + max(1, len(lay.down)) <= arm_rows
        if line_width <= width and upright:
            offset = (width - line_width) // 2
            column = " " * (offset + 4 * lay.opening)
            rows += [Text()] * (1 - len(lay.up))
            rows += [Text(column).append_text(look(*entry)) for entry in lay.up]
            rows.append(Text(" " * offset).append_text(Text(" ").join(cells)))
            rows += [Text(column).append_text(look(*entry)) for entry in lay.down]
            rows += [Text()] * (1 - len(lay.down))
        else:  # too long or too tall: fold the line, and write the arms beside their names
            per_row = max(1, (width + 1) // 4)
            rows += [Text(" ").join(cells[k : k + per_row]) for k in range(0, len(cells), per_row)]
            for name, arm in (("cima", lay.up[::-1]), ("baixo", lay.down)):
                if arm:
                    # the up arm is listed from the spinner out, so its halves swap round
                    shown = [look(h[::-1] if name == "cima" else h, t, i) for h, t, i in arm]
                    rows.append(Text(f"{name}: ").append_text(Text(" ").join(shown)))
        foot = Text("Pontas: ")
        for k, (name, value) in enumerate(ends.items()):
            foot.append(" · " if k else "").append(f"{END_PT[name]} ").append(str(value), "bold")
        if self.match.ruleset.table_points:
            scores = count > 0 and count % 5 == 0
            foot.append("   Mesa: ").append(str(count), "bold green" if scores else "bold")
            if scores:
                foot.append(" (marca)", "green")
        return Panel(Text("\n").join(rows), title="Mesa", title_align="left",
                     subtitle=foot.append(" "), subtitle_align="right", border_style="green")

    def _empty_table(self) -> str:
        if self.match.current_player is None:
            return "A mesa está vazia."
        if self.match.phase == Phase.CHOICE:
            return f"Cinco carroças: {self.who(self.match.turn)} escolhe antes da saída."
        opener = self.match.opener
        if opener == self.me:
            return "A mesa está vazia: a saída é sua."
        return f"A mesa está vazia: {self.who(opener)} sai."

    def _entries(self, steps: Sequence[PublicStep]) -> list[tuple[int, str, list[int]]]:
        """The hand's steps as lines (seat, text, step indices); a run of draws is one line."""
        out: list[tuple[int, str, list[int]]] = []
        pass_points = self.match.ruleset.pass_points
        events = self.match.events
        reasons = {(e.index, e.reason) for e in events}
        for i, step in enumerate(steps):
            if step.kind == A.DRAW:
                prev = out[-1] if out else None
                if prev is not None and prev[0] == step.seat and steps[prev[2][-1]].kind == A.DRAW:
                    prev[2].append(i)
                    count = len(prev[2])
                    if step.seat == self.me:
                        text = "compra " + ", ".join(T.NAMES[steps[j].tile] for j in prev[2])
                    else:
                        text = f"compra {count} do monte"
                    out[-1] = (step.seat, text, prev[2])
                    continue
                text = (
                    f"compra {T.NAMES[step.tile]}" if step.seat == self.me and step.tile >= 0
                    else "compra 1 do monte"
                )
            elif step.kind == A.PLAY:
                text = (
                    f"sai com {T.NAMES[step.tile]}" if step.end is None
                    else f"joga {T.NAMES[step.tile]} {ON_END[step.end]}"
                )
            elif step.kind == A.PASS:
                if (i, "saida-passada") in reasons:
                    text = "passa a saída (sem carroça)"
                elif pass_points and i > 0 and steps[i - 1].kind == A.PASS and (
                    (i, "passe") not in reasons
                ):
                    text = "passa (nas costas)"
                else:
                    text = "passa"
            elif step.choice == "points":
                text = "cinco carroças: pontos"
            else:
                text = "cinco carroças: embaralhar"
            out.append((step.seat, text, [i]))
        return out

    def _log_panel(self, obs: Observation, last: int | None) -> Panel:
        by_step: dict[int, list[ScoreEvent]] = {}
        for e in self.match.events:
            by_step.setdefault(e.index, []).append(e)
        grid = Table.grid(padding=(0, 1))
        grid.add_column(no_wrap=True)
        grid.add_column()
        grid.add_column(style="green")
        entries = self._entries(obs.steps)[-_LOG_LINES:]
        for seat, text, indices in entries:
            events = [e for i in indices for e in by_step.get(i, [])]
            style = "bold" if last is not None and last in indices else ""
            grid.add_row(
                Text(self.names[seat], style="cyan" if seat == self.me else style or "default"),
                Text(text, style=style),
                Text(self.points_text(events)),
            )
        if not entries:
            grid.add_row(Text("Mão nova.", style="grey58"), Text(""), Text(""))
        return Panel(grid, title="Últimas jogadas", title_align="left", border_style="blue",
                     height=_LOG_LINES + 2)

    def _players_panel(self, obs: Observation) -> Panel:
        grid = Table.grid(padding=(0, 1))
        grid.add_column(width=1)
        grid.add_column(no_wrap=True)
        grid.add_column(no_wrap=True)
        grid.add_column(justify="right", no_wrap=True)
        for k in range(self.n):
            seat = (self.me + k) % self.n
            turn = obs.turn == seat
            level = self.levels[seat]
            label = self.who(seat) if seat != self.me else (
                "Você (Nós)" if self.n == 4 else "Você"
            )
            size = obs.hand_sizes[seat] if obs.hand_sizes else 0
            grid.add_row(
                Text("▶" if turn else "", style="bold yellow"),
                Text(label, style="bold" if turn else ""),
                Text(level or "", style="grey58"),
                Text(_plural(size, "pedra")),
            )
        lines: list[RenderableType] = [grid]
        rs = self.match.ruleset
        if rs.draws:
            lines.append(Text(f"Monte: {_plural(obs.boneyard, 'pedra')}", style="bold"))
        elif self.n == 2:
            lines.append(Text("Sem compra: 14 pedras fora do jogo", style="grey58"))
        return Panel(Group(*lines), title="Jogadores", title_align="left", border_style="blue",
                     height=_LOG_LINES + 2)

    def _hand_panel(self, obs: Observation) -> Panel:
        legal_tiles = {a.tile for a in obs.legal if a.kind == A.PLAY}
        mine = obs.turn == self.me
        width = max(6, self.console.width - 4)
        per_row = max(1, width // 6)
        rows: list[RenderableType] = []
        hand = list(obs.hand)
        for start in range(0, len(hand), per_row):
            tiles = Text()
            numbers = Text()
            for k, tile in enumerate(hand[start : start + per_row], start=start + 1):
                ok = not mine or tile in legal_tiles
                tiles.append_text(bone(tile, _BONE if ok else _DIM, pad=True)).append(" ")
                numbers.append(f"{k:^5} ", style="bold green" if mine and ok else "grey50")
            rows.extend([tiles, numbers])
        pips = sum(T.PIPS[t] for t in hand)
        title = f"Sua mão · {_plural(len(hand), 'pedra')} · {pips} pontos"
        return Panel(Group(*rows), title=title, title_align="left",
                     border_style="yellow" if mine else "grey50")

    # ------------------------------------------------------------------ ends

    def _intro(self) -> None:
        rs = self.match.ruleset
        body = Text()
        body.append(rs.summary_of(self.match.options) + "\n")
        opts = ", ".join(
            f"{k}={('sim' if v else 'não') if isinstance(v, bool) else v}"
            for k, v in vars_of(self.match).items()
        )
        body.append(f"Opções: {opts}\n", style="grey58")
        if self.n == 4:
            partner = (self.me + 2) % 4
            opps = [(self.me + 1) % 4, (self.me + 3) % 4]
            body.append(
                f"Você joga com {self.players[partner]} contra "
                f"{self.players[opps[0]]} e {self.players[opps[1]]}.\n"
            )
        else:
            body.append(f"Você joga contra {self.players[1 - self.me]}.\n")
        body.append(f"Dicas do nível {self.settings.hint_level}.\n\n")
        body.append("Embaralhamento verificável\n", style="bold")
        body.append("  compromisso:        ")
        body.append(self.commitment + "\n", style="bold cyan")
        body.append("  semente do cliente: ")
        body.append(self.client_seed + "\n", style="bold cyan")
        body.append(
            "  O compromisso é o sha256 da semente do servidor, que só é revelada no fim:\n"
            "  assim ninguém muda as pedras no meio da partida, e você confere.\n\n",
            style="grey58",
        )
        body.append("Como jogar: ", style="bold")
        extra = ", c compra do monte" if rs.draws else ""
        body.append(
            "digite o número da pedra (ou 3-5, ou 3-5:esq para escolher a ponta); "
            f"p passo{extra}, ? dica, sair."
        )
        self.console.clear()
        self.console.print(Panel(body, title=f"carroca · {rs.title}", title_align="left",
                                 border_style="yellow"))

    def _hand_over(self, log: HandLog) -> None:
        """The finished hand: why it ended, every hand revealed with its pips, the points."""
        end = log.end
        parts: list[RenderableType] = [
            Rule(f"Fim da mão {len(self.match.history)}", style="yellow")
        ]
        if end.kind == "redeal":
            who = self.who(end.seat) if end.seat is not None else self.who(log.steps[-1].seat)
            parts.append(Text(f"Cinco carroças: {who} pediu nova distribuição.", style="bold"))
            self.console.clear()
            self.console.print(Group(*parts))
            self._wait("Enter para a nova distribuição › ")
            return
        table = [(seat, t, A.END_NAMES[e] if e != A.OPENING else None)
                 for seat, t, e in self.match.table]
        ends = {A.END_NAMES[e]: v for e, v in enumerate(self.match.ends) if v >= 0}
        count = self.match.table_count() if self.match.table else 0
        parts.append(self._table_panel(table, ends, count, room=16))
        parts.append(Text(self.end_text(log), style="bold yellow"))
        left = [[T.parse(t, strict=True) for t in h] for h in revealed_hand(log)["hands_left"]]
        grid = Table.grid(padding=(0, 2))
        grid.add_column(no_wrap=True)
        grid.add_column()
        grid.add_column(justify="right")
        for seat in range(self.n):
            tiles = Text()
            for t in left[seat]:
                tiles.append_text(bone(t)).append(" ")
            if not left[seat]:
                tiles.append("bateu", style="green")
            pips = sum(T.PIPS[t] for t in left[seat])
            grid.add_row(Text(self.who(seat)), tiles, Text(_plural(pips, "ponto")))
        parts.append(grid)
        if end.kind == "fechado":
            totals = [0, 0]
            for seat, tiles_left in enumerate(left):
                totals[seat % 2] += sum(T.PIPS[t] for t in tiles_left)
            parts.append(Text(f"Soma das mãos: {self.score_text(totals)}"))
        during: dict[int, int] = {}
        for e in log.events:
            if e.index >= 0:
                during[e.team] = during.get(e.team, 0) + e.points
        if during:
            text = " · ".join(
                f"{self.team_label(team)} +{points}" for team, points in sorted(during.items())
            )
            parts.append(Text(f"Pontos durante a mão: {text}"))
        at_end = [e for e in log.events if e.index < 0]
        if at_end:
            parts.append(Text(f"Pontos do fim da mão: {self.points_text(at_end)}", style="green"))
        elif end.winner is None:
            parts.append(Text("Ninguém ganha a mão."))
        parts.append(Text(f"Placar: {self.score_text(log.score)}  ({self.target_text()})",
                          style="bold"))
        self.console.clear()
        self.console.print(Group(*parts))
        if not self.match.is_over:
            self._wait("Enter para a próxima mão › ")

    def end_text(self, log: HandLog) -> str:
        """Why the hand ended, as the table says it."""
        end = log.end
        if end.kind == "batida" and end.seat is not None:
            return batida_text(log, f"{self.who(end.seat)} bateu com a")
        if end.kind == "fechado" and end.seat is not None:
            word = blocked_word(self.match.ruleset.name)
            by = "sua" if end.seat == self.me else f"de {self.who(end.seat)}"
            text = f"{word}: ninguém tem pedra que sirva (a última pedra foi {by})."
            if end.winner is not None:
                text += f" Mão ganha por {self.team_label(end.winner)}: menos pontos na mão."
            return text
        return end.kind

    def _match_over(self) -> None:
        res = self.match.result
        if res is None:  # pragma: no cover - only called once the match is over
            return
        if self.n == 4:
            won = res.winner == self.me % 2
            text = "Nós vencemos!" if won else "Eles venceram."
        else:
            won = res.winner == self.me
            text = "Você venceu!" if won else f"{self.names[res.winner]} venceu."
        text += f" {self.score_text(res.score)}"
        if res.pneu:
            text += " — pneu!"
        self.console.print()
        self.console.print(Panel(Text(text, style="bold green" if won else "bold red"),
                                 title="Fim da partida", title_align="left",
                                 border_style="green" if won else "red"))
        self._reveal()

    def _reveal(self) -> None:
        ok = fair.seed_matches(self.server_seed, self.commitment)
        body = Text()
        body.append("semente do servidor: ")
        body.append(self.server_seed + "\n", style="bold cyan")
        body.append("sha256 da semente:   ")
        body.append(fair.commitment(self.server_seed) + "\n", style="bold cyan")
        body.append("semente do cliente:  ")
        body.append(self.client_seed + "\n", style="bold cyan")
        if ok:
            body.append("✓ confere com o compromisso mostrado no início.", style="bold green")
        else:  # pragma: no cover - the seed is the one committed to
            body.append("✗ NÃO confere com o compromisso mostrado no início!", style="bold red")
        self.console.print(Panel(body, title="Embaralhamento revelado", title_align="left",
                                 border_style="cyan"))


def _terminal_input(console: Console, prompt: str) -> str:
    """`console.input`, first dropping keys typed while the bots played (a tile once sent
    is played, so a key pressed early must not answer a question not yet asked)."""
    try:
        import termios

        if sys.stdin.isatty():
            termios.tcflush(sys.stdin, termios.TCIFLUSH)
    except (ImportError, OSError, ValueError):  # not a terminal, or no termios (Windows)
        pass
    return console.input(prompt)


def _split(text: str) -> tuple[str, str | None]:
    """`3-5:esq`, `3-5 esq`, `4:e` → (head, end word); no end word → (text, None)."""
    for sep in (":", " "):
        if sep in text:
            head, _, tail = text.partition(sep)
            tail = tail.strip()
            if tail and not tail[0].isdigit():
                return head.strip(), tail
    return text, None
