"""What a game and a tie came to: the inputs of the standings.

A game is `played` (its match record says who won and the score) or `forfeit`: a side did not
show, or withdrew, and the other wins without a match; when both are absent nobody wins. A
`Meeting` is one entrant's view of a decided tie (or of a bye), all the standings need.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

OutcomeKind = Literal["played", "forfeit"]
MeetingResult = Literal["win", "loss", "bye"]


@dataclass(frozen=True)
class Outcome:
    """The result of one game. `winner` is the team (0 or 1) or None (both absent); `score` is
    the match's final score per team ([0, 0] for a forfeit); `absent` the entrants who forfeited.
    """

    kind: OutcomeKind
    winner: int | None
    score: tuple[int, int] = (0, 0)
    absent: tuple[str, ...] = ()
    record_id: str | None = None
    at: float | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "winner": self.winner,
                               "score": list(self.score)}
        if self.absent:
            out["absent"] = list(self.absent)
        if self.record_id is not None:
            out["record_id"] = self.record_id
        if self.at is not None:
            out["at"] = self.at
        return out


@dataclass(frozen=True)
class Meeting:
    """A decided tie as one entrant saw it; `opponent` None is a bye."""

    opponent: str | None
    result: MeetingResult
    forfeit: bool = False
    points_for: int = 0
    points_against: int = 0
    games_won: int = 0
    games_lost: int = 0

    @property
    def played(self) -> bool:
        """Whether a match was played on the table (not a bye, not a forfeit)."""
        return self.opponent is not None and not self.forfeit
