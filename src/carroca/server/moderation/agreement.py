"""The fair-play signal: how often a player's ranked decisions agree with the expert's, against
the population of players, for moderators to weigh. Never acted on by the server itself.

A *decision* is what a review judges (`carroca.analysis`): a step where the seat had two or more
legal actions and played it itself (not the turn clock's `auto` move). It *agrees* when the action
played is the expert's choice: rated as good as the best option (`loss` 0; a tie counts).

Each ruleset has its own population (the share differs from one to another: in `bloqueio` more
decisions are near-forced than in `duplas-pontos`): the players with at least `min_decisions`
there. A player is compared with the others (themselves left out), by a z-score over the spread
of the others' shares, that spread never taken below `SD_FLOOR` (a population of near-equal
players must not make two points of difference look far). Flagged only *above*: far below is
what a beginner looks like, not help from a program.

Pure: the stored tallies (`tallies`) and the settings come in, figures and pt-BR text go out.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final, Literal, TypedDict

from carroca.analysis import from_json

#: The least spread of the population's shares a z-score divides by (2 points of agreement).
SD_FLOOR: Final = 0.02

Verdict = Literal["few_decisions", "small_population", "usual", "above", "below"]


@dataclass(frozen=True, slots=True)
class Rules:
    """When a player is compared, and when flagged (`Settings.fairplay_*`)."""

    min_decisions: int = 100  # a player's decisions in the ruleset before they are compared
    min_players: int = 20  # players with that many decisions the population needs
    z: float = 3.0  # standard deviations above the population's mean: flagged


def tally(analysis_text: str, seats: dict[int, int]) -> dict[int, tuple[int, int]]:
    """A stored review's decisions per player: player id → (decisions, agreed). `seats` maps
    each person's seat to their id; every one of them is in the answer, with (0, 0) when they
    had no decision. ValueError if the text is not a review (`carroca-analysis/1`)."""
    try:
        data = json.loads(analysis_text)
    except ValueError as exc:
        raise ValueError(f"not a review: {exc}") from None
    analysis = from_json(data)
    out = {pid: (0, 0) for pid in seats.values()}
    for d in analysis.decisions:
        pid = seats.get(d.seat)
        if pid is not None:
            made, agreed = out[pid]
            out[pid] = (made + 1, agreed + (d.played == d.best))
    return out


@dataclass(frozen=True, slots=True)
class Population:
    """The players of a ruleset with enough decisions, as sums of their shares (so one of them
    can be left out without reading them all again)."""

    players: int
    total: float  # the sum of their shares
    squares: float  # the sum of their shares squared

    def without(self, share: float) -> Population:
        return Population(self.players - 1, self.total - share, self.squares - share * share)

    @property
    def mean(self) -> float:
        return self.total / self.players if self.players else 0.0

    @property
    def sd(self) -> float:
        """The sample standard deviation of the shares (0 with fewer than two players)."""
        if self.players < 2:
            return 0.0
        var = (self.squares - self.total * self.total / self.players) / (self.players - 1)
        return math.sqrt(max(0.0, var))


class PopulationView(TypedDict):
    players: int
    mean: float
    sd: float


class Signal(TypedDict):
    """A player's agreement in one ruleset, the population's, and the verdict, with the line a
    moderator reads."""

    ruleset: str
    decisions: int
    agreed: int
    share: float
    population: PopulationView
    z: float | None  # None: not compared (few decisions, or too few others)
    verdict: Verdict
    flagged: bool
    text: str


def _pct(share: float) -> str:
    return f"{round(share * 100)}%"


def signal(ruleset: str, decisions: int, agreed: int, population: Population | None,
           rules: Rules) -> Signal:
    """The player's line for `ruleset`. `population`: every player of the ruleset with enough
    decisions, the player among them when they have enough too (they are left out here)."""
    share = agreed / decisions if decisions else 0.0
    others = population or Population(0, 0.0, 0.0)
    if decisions >= rules.min_decisions and population is not None:
        others = others.without(share)
    view: PopulationView = {"players": others.players, "mean": round(others.mean, 4),
                            "sd": round(others.sd, 4)}
    head = (f"Concordância com o especialista ({ruleset}): {_pct(share)} em {decisions} "
            f"{'decisão' if decisions == 1 else 'decisões'}")
    z: float | None = None
    if decisions < rules.min_decisions:
        verdict: Verdict = "few_decisions"
        tail = f" — poucas decisões para comparar (mínimo {rules.min_decisions})"
    elif others.players < max(2, rules.min_players):
        verdict = "small_population"
        tail = (f" — população pequena demais para comparar ({others.players} "
                f"{'jogador' if others.players == 1 else 'jogadores'} com "
                f"{rules.min_decisions} decisões ou mais)")
    else:
        z = round((share - others.mean) / max(others.sd, SD_FLOOR), 2)
        verdict = "above" if z >= rules.z else "below" if z <= -rules.z else "usual"
        word = {"above": "fora do comum", "below": "abaixo do comum",
                "usual": "dentro do comum"}[verdict]
        tail = (f" (população: {_pct(others.mean)} ± {round(others.sd * 100)} pontos, "
                f"{others.players} jogadores) — {word}")
    return {"ruleset": ruleset, "decisions": decisions, "agreed": agreed,
            "share": round(share, 4), "population": view, "z": z, "verdict": verdict,
            "flagged": verdict == "above", "text": head + tail}


def signals(mine: Iterable[tuple[str, int, int]], populations: dict[str, Population],
            rules: Rules) -> list[Signal]:
    """The player's lines, one per ruleset they have ranked decisions in (most decisions
    first). `mine`: (ruleset, decisions, agreed)."""
    lines = [signal(ruleset, made, agreed, populations.get(ruleset), rules)
             for ruleset, made, agreed in mine if made > 0]
    return sorted(lines, key=lambda s: -s["decisions"])


def population_of(shares: Iterable[float]) -> Population:
    """The population of these shares (tests and benches; the store sums them in SQL)."""
    values = list(shares)
    return Population(len(values), sum(values), sum(v * v for v in values))
