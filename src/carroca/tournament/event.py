"""The event model: what is held (format, ruleset, length) and who takes part.

An `EventSpec` is fixed when the event is created. An `Entrant` is one side of a match: a
player in a 1v1 ruleset, a dupla (two players, partners across the table) in a 2v2 one. A 2v2
event takes fixed duplas (one player invited a partner) and solo players; at the start the solo
players are paired into duplas (`form_duplas`), so every entrant that plays is a dupla.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from carroca.rules import RulesError, get_ruleset, options_dict
from carroca.tournament import seeds
from carroca.tournament.errors import InvalidEvent

Format = Literal["swiss", "knockout", "arena"]
FORMATS: Final[tuple[Format, ...]] = ("swiss", "knockout", "arena")

#: The formats as players know them (pt-BR).
FORMAT_NAMES: Final[dict[str, str]] = {
    "swiss": "Suíço",
    "knockout": "Mata-mata",
    "arena": "Arena",
}


@dataclass(frozen=True)
class EventSpec:
    """What is held. `options` are the ruleset's, resolved (every default written out).

    - swiss: `rounds` rounds (default: enough for a single winner, ceil(log2(entrants))).
    - knockout: `best_of` games per tie (odd; 1: a single match).
    - arena: `duration` in seconds from the start; no pairing after it.
    `capacity`: the most entrants (duplas count once); None: no limit.
    """

    format: str
    ruleset: str
    options: Mapping[str, object] = field(default_factory=dict)
    rounds: int | None = None
    best_of: int = 1
    duration: float | None = None
    capacity: int | None = None
    name: str = ""

    def __post_init__(self) -> None:
        if self.format not in FORMATS:
            raise InvalidEvent(
                f"Formato de torneio desconhecido: {self.format!r}. Os formatos são: "
                f"{', '.join(FORMATS)}."
            )
        try:
            rs = get_ruleset(self.ruleset)
            resolved = options_dict(rs.make_options(dict(self.options)))
        except RulesError as exc:
            raise InvalidEvent(exc.message) from None
        object.__setattr__(self, "ruleset", rs.name)
        object.__setattr__(self, "options", resolved)
        if self.rounds is not None and (not _positive(self.rounds) or self.format != "swiss"):
            raise InvalidEvent("O número de rodadas é um inteiro positivo, só no suíço.")
        if not _positive(self.best_of) or self.best_of % 2 == 0:
            raise InvalidEvent("Uma melhor de N precisa de N ímpar (1, 3, 5…).")
        if self.best_of > 1 and self.format != "knockout":
            raise InvalidEvent("Melhor de N só existe no mata-mata.")
        if self.format == "arena":
            if not isinstance(self.duration, int | float) or not self.duration > 0:
                raise InvalidEvent("Uma arena precisa de uma duração positiva, em segundos.")
        elif self.duration is not None:
            raise InvalidEvent("Só a arena tem duração.")
        if self.capacity is not None and (not _positive(self.capacity) or self.capacity < 2):
            raise InvalidEvent("A capacidade é um inteiro de pelo menos 2.")

    @property
    def seats(self) -> int:
        return get_ruleset(self.ruleset).seats

    @property
    def duplas(self) -> bool:
        """Whether an entrant is a dupla (a 2v2 ruleset)."""
        return self.seats == 4

    def rounds_for(self, entrants: int) -> int:
        """Swiss rounds: as fixed, or enough to leave one entrant alone on top."""
        if self.rounds is not None:
            return self.rounds
        return max(1, math.ceil(math.log2(max(2, entrants))))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "format": self.format,
                               "ruleset": self.ruleset, "options": dict(self.options)}
        if self.format == "swiss":
            out["rounds"] = self.rounds
        if self.format == "knockout":
            out["best_of"] = self.best_of
        if self.format == "arena":
            out["duration"] = self.duration
        out["capacity"] = self.capacity
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> EventSpec:
        return cls(
            format=data["format"],
            ruleset=data["ruleset"],
            options=dict(data["options"]),
            rounds=data.get("rounds"),
            best_of=data.get("best_of", 1),
            duration=data.get("duration"),
            capacity=data.get("capacity"),
            name=data.get("name", ""),
        )


def _positive(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


@dataclass(frozen=True)
class Entrant:
    """One side: `players` in seat order within the side (a dupla's first sits on the lower
    seat of its team). `rating`, when known, orders the seeds; None counts below any rating."""

    id: str
    name: str
    players: tuple[str, ...]
    rating: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "players": list(self.players),
                "rating": self.rating}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Entrant:
        """An entrant as written in an event record (ValueError when it is not shaped so)."""
        players = data["players"]
        rating = data.get("rating")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise ValueError(f"players: expected a list of names, found {players!r}")
        if rating is not None and (isinstance(rating, bool) or not isinstance(rating, int)):
            raise ValueError(f"rating: expected an integer or null, found {rating!r}")
        if not isinstance(data["id"], str) or not isinstance(data["name"], str):
            raise ValueError("id and name: expected strings")
        return cls(data["id"], data["name"], tuple(players), rating)


def seed_order(entrants: Sequence[Entrant], event_seed: str) -> list[Entrant]:
    """Seed 1 first: by rating (unrated last), equal ratings by the draw of lots."""
    return sorted(
        entrants,
        key=lambda e: (e.rating is None, -(e.rating or 0), seeds.lot(event_seed, e.id), e.id),
    )


def form_duplas(
    registered: Sequence[Entrant], event_seed: str
) -> tuple[list[Entrant], list[Entrant]]:
    """(entrants, left out): fixed duplas as registered, solo players paired into duplas.

    The solo players in seed order are paired strongest with weakest (1st with last, 2nd with
    the one before, …), so the duplas come out level. With an odd number, the solo player who
    registered last is left out: first come, first served.
    """
    fixed = [e for e in registered if len(e.players) == 2]
    solos = [e for e in registered if len(e.players) == 1]
    left_out: list[Entrant] = []
    if len(solos) % 2:
        left_out.append(solos.pop())
    ordered = seed_order(solos, event_seed)
    formed = []
    for i in range(len(ordered) // 2):
        a, b = ordered[i], ordered[-1 - i]
        rating = None if a.rating is None or b.rating is None else (a.rating + b.rating) // 2
        formed.append(Entrant(f"{a.id}+{b.id}", f"{a.name} & {b.name}",
                              (a.players[0], b.players[0]), rating))
    return fixed + formed, left_out


def seat_players(spec: EventSpec, team0: Entrant, team1: Entrant) -> list[str]:
    """The match's `players` in seat order: team 0 on seats 0 (and 2), team 1 on 1 (and 3)."""
    if spec.duplas:
        return [team0.players[0], team1.players[0], team0.players[1], team1.players[1]]
    return [team0.players[0], team1.players[0]]
