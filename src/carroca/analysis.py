"""Post-game analysis: every decision of a verified match judged by the expert bot.

Each hand is played again on a fresh engine (as `carroca replay` does). Before every action with
two or more legal choices, the seat that acted is shown only its own view (`observation`), and
the expert rates each legal action by the points it expects that seat's team to win, minus the
other team's, by the end of the hand. The *loss* of a decision is the best value minus the value
of the action actually played (0 when the best was played); a loss at or above the threshold is
an *erro*.

- Forced steps (a single legal action: draws, passes) are not judged, only counted.
- Actions the server made for a player out of time (`auto`) are not the player's: counted apart.
- Worlds: each decision is rated over `worlds` sampled deals of the hidden tiles (the expert's
  budget in worlds, with no time budget), from a seed derived from `seed` and the decision's
  place in the match, so the same seed gives the same analysis on any machine. A `think_ms`
  above 0 lets the expert go on sampling until that much time has passed (more worlds on a
  faster machine: the values then depend on the machine's speed).
- Default threshold (`default_threshold`): 5 expected points where a hand is worth tens of
  points; a quarter of a hand in `classico` (each hand won counts 1); half a point in `bloqueio`
  (a hand scores 1 to 4, mostly 1).

JSON (`to_json`, format `carroca-analysis/1`; keys may be added, never changed)::

    {"format": "carroca-analysis/1", "ruleset": "duplas-pontos", "players": ["ana", …],
     "settings": {"threshold": 5.0, "worlds": 128, "think_ms": 0, "seed": 0},
     "hands": [{"deal_index": 0, "forced": [2, 0, 1, 0], "auto": [0, 0, 0, 0],
                "decisions": [{"index": 6, "seat": 0, "played": "3-5:left",
                               "best": "5-5:right", "loss": 12.0, "mistake": true,
                               "worlds": 128, "options": [{"action": "5-5:right", "value": 8.5},
                                                         …]}]}],
     "summary": {"per_seat": [{"decisions": 40, "mistakes": 2, "points_lost": 23.4,
                               "forced": 5, "auto": 0}, …]}}

- `hands`: one per hand of the match, in order (a hand still in play last); its place in the
  list + 1 is the hand number shown to players. `forced` and `auto`: per seat, the steps of the
  hand not judged.
- `index`: the action's index in the record's `actions` of that hand (0-based; shown + 1).
- Actions as text: `3-5:left` (a play on an end: left, right, up, down), `6-6` (the opening
  tile), `draw`, `pass`, `five-doubles:points`, `five-doubles:redeal`.
- `options`: the best actions (at most `TOP_OPTIONS`), best first, then the one played if it is
  not among them; `value` is in points of the ruleset (hands won in `classico`).
- `loss`, `value`: rounded to 3 decimals. `points_lost`: the losses of all judged decisions.
"""

from __future__ import annotations

import hashlib
import io
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final

from rich.console import Console, Group, RenderableType
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from carroca.bots.expert import ExpertBot
from carroca.rules import Action, HandEnd, Match, RulesError, Step, get_ruleset, observation
from carroca.rules import actions as A
from carroca.words import CHOICE, PAST, action_text

FORMAT: Final = "carroca-analysis/1"
#: Sampled worlds per decision: a review judges every decision of a match, so about half of
#: what the expert spends on a move of its own in `duplas-pontos` (`bots.expert.DEFAULT_WORLDS`).
DEFAULT_WORLDS: Final = 128
#: Best actions listed per decision (the one played is added if it is not among them).
TOP_OPTIONS: Final = 3
#: A loss at or above this many expected points is an `erro`, unless the ruleset says otherwise.
DEFAULT_THRESHOLD: Final = 5.0
#: Rulesets where a hand is worth a few points only: a hand won in `classico` counts 1 (the
#: threshold is a quarter of it); `bloqueio` scores 1 to 4 per hand, mostly 1.
SMALL_THRESHOLDS: Final = {"classico": 0.25, "bloqueio": 0.5}

_ROUND: Final = 3


def default_threshold(ruleset: str) -> float:
    """The loss, in expected points, from which a decision counts as an `erro` in `ruleset`."""
    return SMALL_THRESHOLDS.get(get_ruleset(ruleset).name, DEFAULT_THRESHOLD)


# --------------------------------------------------------------------------- data


@dataclass(frozen=True, slots=True)
class Option:
    """A legal action and the points the expert expects it to win by the end of the hand."""

    action: Action
    value: float


@dataclass(frozen=True, slots=True)
class Decision:
    """One judged decision: hand (0-based place in the match) and action index in that hand."""

    hand: int
    index: int
    seat: int
    played: Action
    best: Action
    loss: float
    options: tuple[Option, ...]
    mistake: bool
    worlds: int


@dataclass(frozen=True, slots=True)
class HandAnalysis:
    """A hand's judged decisions, and per seat the forced and `auto` steps left unjudged."""

    deal_index: int
    decisions: tuple[Decision, ...]
    forced: tuple[int, ...]
    auto: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class SeatSummary:
    decisions: int
    mistakes: int
    points_lost: float
    forced: int
    auto: int


@dataclass(frozen=True, slots=True)
class MatchAnalysis:
    """A whole match judged decision by decision (see the module docstring)."""

    ruleset: str
    players: tuple[str, ...]
    threshold: float
    worlds: int
    think_ms: int
    seed: int
    hands: tuple[HandAnalysis, ...]

    @property
    def decisions(self) -> list[Decision]:
        return [d for h in self.hands for d in h.decisions]

    @property
    def mistakes(self) -> list[Decision]:
        return [d for d in self.decisions if d.mistake]

    def per_seat(self) -> tuple[SeatSummary, ...]:
        """Decisions judged, mistakes, points lost and unjudged steps, per seat."""
        out = []
        for seat in range(len(self.players)):
            mine = [d for d in self.decisions if d.seat == seat]
            out.append(
                SeatSummary(
                    decisions=len(mine),
                    mistakes=sum(d.mistake for d in mine),
                    points_lost=round(sum(d.loss for d in mine), _ROUND),
                    forced=sum(h.forced[seat] for h in self.hands),
                    auto=sum(h.auto[seat] for h in self.hands),
                )
            )
        return tuple(out)


# --------------------------------------------------------------------------- analysis


@dataclass(frozen=True, slots=True)
class _Point:
    """The moment before one step of a hand, the engine standing there."""

    index: int
    seat: int
    action: Action
    auto: bool
    legal: tuple[Action, ...]  # the seat to move's legal actions
    engine: Match

    @property
    def choices(self) -> int:
        return len(self.legal)


_HandSource = tuple[int, Sequence[Sequence[int]], Sequence[int], Sequence[Step], HandEnd | None]


def _hands(match: Match) -> Iterator[tuple[int, Iterator[_Point]]]:
    """(deal index, its steps) for every hand, played again on one fresh engine.

    Read each hand's steps to the end before the next hand, and each point before the next.
    """
    engine = Match(match.ruleset, match.options)
    sources: list[_HandSource] = [
        (log.deal_index, log.dealt, log.boneyard, log.steps, log.end) for log in match.history
    ]
    if match.current_player is not None:  # an unfinished match: the hand still in play
        sources.append((match.deal_index, match.dealt, match.boneyard, match.steps, None))

    def steps(source: _HandSource) -> Iterator[_Point]:
        _, dealt, boneyard, played, end = source
        engine.deal([t for hand in dealt for t in hand] + list(boneyard))
        for i, step in enumerate(played):
            legal = tuple(engine.legal_actions())
            yield _Point(i, step.seat, step.action, step.auto, legal, engine)
            engine.apply(step.action, step.seat, auto=step.auto)
        if end is not None and end.kind == "abandon" and not (engine.needs_deal or engine.is_over):
            engine.abandon(end.seat if end.seat is not None else 0)

    for source in sources:
        yield source[0], steps(source)


def _decision_seed(seed: int, deal_index: int, index: int) -> int:
    digest = hashlib.sha256(f"carroca-analysis:{seed}:{deal_index}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def rate(
    match: Match, seat: int, seed: int, worlds: int, think_ms: int
) -> tuple[list[Option], int]:
    """The seat to move's legal actions rated from its own view, best first, and the worlds used.

    Ties keep the engine's legal order. See the module docstring for `worlds` and `think_ms`.
    """
    obs = observation(match, seat)
    rated = ExpertBot(seed, think_ms, worlds).rate(obs)
    values = {r.action: r.value for r in rated}
    options = [Option(a, round(values[a], _ROUND)) for a in obs.legal]
    used = rated[0].worlds if rated else 0  # 0: a fixed rating (no sampling)
    options.sort(key=lambda o: -o.value)  # stable
    return options, used


def _judge(
    hand: int, deal_index: int, point: _Point, seed: int, worlds: int, think_ms: int,
    threshold: float,
) -> Decision:
    decision_seed = _decision_seed(seed, deal_index, point.index)
    options, used = rate(point.engine, point.seat, decision_seed, worlds, think_ms)
    played = next(o for o in options if o.action is point.action)
    top = options[0]
    best = played if played.value >= top.value else top
    loss = round(best.value - played.value, _ROUND)
    shown = options[:TOP_OPTIONS]
    if played not in shown:
        shown.append(played)
    return Decision(
        hand=hand,
        index=point.index,
        seat=point.seat,
        played=point.action,
        best=best.action,
        loss=loss,
        options=tuple(shown),
        mistake=loss > 0 and loss >= threshold,
        worlds=used,
    )


@dataclass(frozen=True, slots=True)
class Turn:
    """A decision to judge: a step where the seat had two or more legal actions, not `auto`."""

    hand: int
    index: int
    seat: int
    action: Action
    legal: tuple[Action, ...] = ()  # what the seat could do: every rated option is one


@dataclass(frozen=True, slots=True)
class HandPlan:
    """What a review of a hand has to judge, and the steps it only counts."""

    deal_index: int
    turns: tuple[Turn, ...]
    forced: tuple[int, ...]
    auto: tuple[int, ...]


def plan_match(match: Match) -> tuple[HandPlan, ...]:
    """Every hand's decisions to judge, without judging them (milliseconds: the engine only).

    A review split into one job per decision (`judge_turn`) is put back together by `assemble`.
    """
    return _walk(match)


def _walk(match: Match,
          visit: Callable[[int, int, _Point], None] | None = None) -> tuple[HandPlan, ...]:
    """Every hand's plan; `visit(hand, deal index, point)` at each decision, with the engine
    standing there (it moves on once `visit` returns)."""
    plans = []
    for pos, (deal_index, points) in enumerate(_hands(match)):
        turns: list[Turn] = []
        forced = [0] * match.n
        auto = [0] * match.n
        for point in points:
            if point.auto:
                auto[point.seat] += 1
            elif point.choices < 2:
                forced[point.seat] += 1
            else:
                turns.append(Turn(pos, point.index, point.seat, point.action, point.legal))
                if visit is not None:
                    visit(pos, deal_index, point)
        plans.append(HandPlan(deal_index, tuple(turns), tuple(forced), tuple(auto)))
    return tuple(plans)


def judge_turn(
    match: Match, hand: int, index: int, *, seed: int = 0, worlds: int = DEFAULT_WORLDS,
    think_ms: int = 0, threshold: float | None = None,
) -> Decision:
    """One decision judged, as `analyze_match` judges it (the same seed gives the same values).

    ValueError if step `index` of hand `hand` is not a decision (`plan_match` lists them).
    """
    limit = default_threshold(match.ruleset.name) if threshold is None else float(threshold)
    for pos, (deal_index, points) in enumerate(_hands(match)):
        for point in points:
            if pos == hand and point.index == index:
                if point.auto or point.choices < 2:
                    raise ValueError(f"step {index} of hand {hand} is not a decision")
                return _judge(pos, deal_index, point, seed, worlds, think_ms, limit)
        if pos == hand:
            break
    raise ValueError(f"the match has no step {index} in hand {hand}")


def assemble(
    match: Match, players: Sequence[str], plans: Sequence[HandPlan],
    decisions: Sequence[Decision], *, seed: int = 0, worlds: int = DEFAULT_WORLDS,
    think_ms: int = 0, threshold: float | None = None,
) -> MatchAnalysis:
    """The analysis of `plans` from their decisions judged one by one (in the plans' order)."""
    limit = default_threshold(match.ruleset.name) if threshold is None else float(threshold)
    judged = iter(decisions)
    hands = tuple(
        HandAnalysis(plan.deal_index, tuple(next(judged) for _ in plan.turns), plan.forced,
                     plan.auto)
        for plan in plans
    )
    if next(judged, None) is not None:
        raise ValueError("more decisions than the plans hold")
    return MatchAnalysis(
        ruleset=match.ruleset.name, players=tuple(players), threshold=limit, worlds=worlds,
        think_ms=think_ms, seed=seed, hands=hands,
    )


def analyze_match(
    match: Match,
    players: Sequence[str],
    think_ms: int = 0,
    seed: int = 0,
    *,
    worlds: int = DEFAULT_WORLDS,
    threshold: float | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> MatchAnalysis:
    """Judge every decision of `match` (a verified one, or any match with history).

    `threshold`: None for the ruleset's default. `on_progress(done, total)` after each decision.
    """
    if isinstance(players, str) or len(players) != match.n:
        raise ValueError(f"{match.ruleset.name} needs {match.n} player names")
    if worlds < 1 or think_ms < 0:
        raise ValueError("worlds must be >= 1 and think_ms >= 0")
    limit = default_threshold(match.ruleset.name) if threshold is None else float(threshold)
    total = sum(len(plan.turns) for plan in plan_match(match))
    decisions: list[Decision] = []

    def judge(hand: int, deal_index: int, point: _Point) -> None:
        decisions.append(_judge(hand, deal_index, point, seed, worlds, think_ms, limit))
        if on_progress is not None:
            on_progress(len(decisions), total)

    plans = _walk(match, judge)
    return assemble(match, players, plans, decisions, seed=seed, worlds=worlds,
                    think_ms=think_ms, threshold=threshold)


# --------------------------------------------------------------------------- JSON


def to_json(analysis: MatchAnalysis) -> dict[str, Any]:
    """The analysis as plain JSON values (schema in the module docstring)."""
    return {
        "format": FORMAT,
        "ruleset": analysis.ruleset,
        "players": list(analysis.players),
        "settings": {
            "threshold": analysis.threshold,
            "worlds": analysis.worlds,
            "think_ms": analysis.think_ms,
            "seed": analysis.seed,
        },
        "hands": [
            {
                "deal_index": hand.deal_index,
                "forced": list(hand.forced),
                "auto": list(hand.auto),
                "decisions": [decision_to_json(d) for d in hand.decisions],
            }
            for hand in analysis.hands
        ],
        "summary": {
            "per_seat": [
                {
                    "decisions": s.decisions,
                    "mistakes": s.mistakes,
                    "points_lost": s.points_lost,
                    "forced": s.forced,
                    "auto": s.auto,
                }
                for s in analysis.per_seat()
            ]
        },
    }


def decision_to_json(d: Decision) -> dict[str, Any]:
    """One judged decision as `to_json` writes it (its hand is its place in `hands`)."""
    return {
        "index": d.index,
        "seat": d.seat,
        "played": str(d.played),
        "best": str(d.best),
        "loss": d.loss,
        "mistake": d.mistake,
        "worlds": d.worlds,
        "options": [{"action": str(o.action), "value": o.value} for o in d.options],
    }


def decision_from_json(hand: int, data: Any) -> Decision:
    """One decision back from `decision_to_json`'s output; ValueError if it is not one."""
    try:
        return _decision(hand, data)
    except (KeyError, TypeError, IndexError, RulesError) as exc:
        raise ValueError(f"not a judged decision: {exc}") from None


def _decision(hand: int, d: Any) -> Decision:
    return Decision(
        hand=hand,
        index=_int(d["index"]),
        seat=_int(d["seat"]),
        played=_action(d["played"]),
        best=_action(d["best"]),
        loss=_float(d["loss"]),
        options=tuple(Option(_action(o["action"]), _float(o["value"])) for o in d["options"]),
        mistake=bool(d["mistake"]),
        worlds=_int(d["worlds"]),
    )


def _int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"expected an integer, found {value!r}")
    return value


def _float(value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"expected a number, found {value!r}")
    return float(value)


def _action(value: object) -> Action:
    if not isinstance(value, str):
        raise TypeError(f"expected an action text, found {value!r}")
    return A.parse(value)


def from_json(data: Any) -> MatchAnalysis:
    """The analysis back from `to_json`'s output; ValueError if it is not one.

    `summary` is not read: it follows from the hands.
    """
    try:
        if data["format"] != FORMAT:
            raise ValueError(f"not a {FORMAT} document: format {data['format']!r}")
        settings = data["settings"]
        players = tuple(data["players"])
        if not all(isinstance(p, str) for p in players):
            raise TypeError("player names must be strings")
        hands = []
        for pos, hand in enumerate(data["hands"]):
            decisions = tuple(_decision(pos, d) for d in hand["decisions"])
            hands.append(
                HandAnalysis(
                    deal_index=_int(hand["deal_index"]),
                    decisions=decisions,
                    forced=tuple(_int(n) for n in hand["forced"]),
                    auto=tuple(_int(n) for n in hand["auto"]),
                )
            )
        return MatchAnalysis(
            ruleset=get_ruleset(str(data["ruleset"])).name,
            players=players,
            threshold=_float(settings["threshold"]),
            worlds=_int(settings["worlds"]),
            think_ms=_int(settings["think_ms"]),
            seed=_int(settings["seed"]),
            hands=tuple(hands),
        )
    except (KeyError, TypeError, IndexError, RulesError) as exc:
        raise ValueError(f"not a valid {FORMAT} document: {exc}") from None


# --------------------------------------------------------------------------- text (pt-BR)


def _number(value: float, digits: int) -> str:
    return f"{value:.{digits}f}".replace(".", ",")


def _digits(ruleset: str) -> int:
    return 2 if ruleset in SMALL_THRESHOLDS else 1


def seat_label(players: Sequence[str], seat: int) -> str:
    """The player's name, with the team (`Nós`/`Eles`) in 2v2."""
    if len(players) == 4:
        return f"{players[seat]} ({'Nós' if seat % 2 == 0 else 'Eles'})"
    return players[seat]


def mistake_text(analysis: MatchAnalysis, d: Decision) -> str:
    """`Mão 2, jogada 7: ana jogou 3-5 na esquerda; melhor 5-5 na direita (−12,0 pontos
    esperados)`."""
    lost = _number(d.loss, _digits(analysis.ruleset))
    return (
        f"Mão {d.hand + 1}, jogada {d.index + 1}: {analysis.players[d.seat]} "
        f"{action_text(d.played, PAST)}; melhor {action_text(d.best, CHOICE)} "
        f"(−{lost} pontos esperados)"
    )


def render_analysis(analysis: MatchAnalysis) -> RenderableType:
    """Per seat: decisions, mistakes, points lost; then every mistake, in match order."""
    rs = get_ruleset(analysis.ruleset)
    digits = _digits(rs.name)
    budget = f", {analysis.think_ms} ms" if analysis.think_ms else ""
    parts: list[RenderableType] = [
        Text(f"Análise — {rs.title} ({rs.name})", style="bold"),
        Text(
            "Cada decisão avaliada pelo bot expert só com o que o jogador sabia naquela hora "
            f"({analysis.worlds} mundos por decisão{budget}, semente {analysis.seed}). "
            f"Erro: perder {_number(analysis.threshold, digits)} pontos esperados ou mais."
        ),
    ]
    table = Table(box=None, show_header=True, header_style="bold", pad_edge=False)
    table.add_column("jogador")
    table.add_column("decisões", justify="right")
    table.add_column("forçadas", justify="right")
    table.add_column("erros", justify="right")
    table.add_column("pontos perdidos", justify="right")
    any_auto = any(s.auto for s in analysis.per_seat())
    if any_auto:
        table.add_column("automáticas", justify="right")
    for seat, s in enumerate(analysis.per_seat()):
        cells = [
            seat_label(analysis.players, seat),
            str(s.decisions),
            str(s.forced),
            str(s.mistakes),
            _number(s.points_lost, digits),
        ]
        if any_auto:
            cells.append(str(s.auto))
        table.add_row(*(Text(c) for c in cells))  # literal text: names may hold "[...]"
    parts += [Text(""), table, Text(""), Rule("Erros", style="bold")]
    mistakes = analysis.mistakes
    if not mistakes:
        parts.append(Text("Nenhum erro."))
    for d in mistakes:
        parts.append(Text(mistake_text(analysis, d)))
    return Group(*parts)


def render_text(analysis: MatchAnalysis, width: int = 120) -> str:
    """The analysis as plain text (no colours), for tests and pipes."""
    out = io.StringIO()
    console = Console(file=out, width=width, color_system=None, highlight=False)
    console.print(render_analysis(analysis))
    return out.getvalue()
