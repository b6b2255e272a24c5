"""Standings of each format, with their tiebreaks (docs/tournaments.md says the same).

Suíço: points (a win 1, a bye 1, a loss 0; a forfeit counts as a win or a loss), then
  1. Buchholz: the sum of the current points of every opponent met on the table (byes and
     forfeits add nothing);
  2. points difference: the sum, over matches played, of own match score minus the opponent's;
  3. direct encounter: among those still level, wins in the matches they played each other;
  4. seed order (rating, then the draw of lots).
Mata-mata: the champion, then by the last round reached, then seed order.
Arena: arena points (a win 2, or 4 on a streak: after two wins in a row, until a match not won;
  a loss 0), then wins, then points difference, then seed order.

Every tiebreak ends in seed order, so no two entrants share a rank.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass
from typing import Any, Final, Literal

from carroca.tournament.results import Meeting

ARENA_WIN: Final = 2
#: Consecutive wins after which a win scores double (lichess: "on fire").
ARENA_STREAK: Final = 2


@dataclass(frozen=True)
class Standing:
    """One line of the standings. `buchholz` (Swiss), `reached` (knockout: the last round an
    entrant was in) and `streak` (arena: wins in a row now) are None in other formats."""

    rank: int
    entrant: str
    points: int
    wins: int
    losses: int
    byes: int
    difference: int
    buchholz: int | None = None
    reached: int | None = None
    streak: int | None = None
    withdrawn: bool = False

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "rank": self.rank, "entrant": self.entrant, "points": self.points,
            "wins": self.wins, "losses": self.losses, "byes": self.byes,
            "difference": self.difference,
        }
        for key in ("buchholz", "reached", "streak"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.withdrawn:
            out["withdrawn"] = True
        return out


def _tally(meetings: Sequence[Meeting]) -> tuple[int, int, int, int]:
    """(wins, losses, byes, points difference) of one entrant."""
    wins = sum(1 for m in meetings if m.result == "win")
    losses = sum(1 for m in meetings if m.result == "loss")
    byes = sum(1 for m in meetings if m.result == "bye")
    diff = sum(m.points_for - m.points_against for m in meetings if m.played)
    return wins, losses, byes, diff


def swiss_points(meetings: Sequence[Meeting]) -> int:
    return sum(1 for m in meetings if m.result in ("win", "bye"))


def swiss_standings(
    order: Sequence[str], meetings: Mapping[str, Sequence[Meeting]], withdrawn: Set[str]
) -> list[Standing]:
    """`order`: every entrant in seed order; `meetings`: each one's decided ties and byes."""
    seed = {e: i for i, e in enumerate(order)}
    points = {e: swiss_points(meetings.get(e, ())) for e in order}
    rows: dict[str, Standing] = {}
    for e in order:
        own = meetings.get(e, ())
        wins, losses, byes, diff = _tally(own)
        buchholz = sum(points[m.opponent] for m in own if m.played and m.opponent in points)
        rows[e] = Standing(0, e, points[e], wins, losses, byes, diff, buchholz=buchholz,
                           withdrawn=e in withdrawn)

    def main_key(e: str) -> tuple[int, int, int]:
        r = rows[e]
        return (-r.points, -(r.buchholz or 0), -r.difference)

    ranked: list[str] = []
    by_key: dict[tuple[int, int, int], list[str]] = {}
    for e in order:
        by_key.setdefault(main_key(e), []).append(e)
    for key in sorted(by_key):
        group = by_key[key]
        if len(group) > 1:
            members = set(group)

            def direct(e: str, members: set[str] = members) -> int:
                return sum(1 for m in meetings.get(e, ())
                           if m.played and m.result == "win" and m.opponent in members)

            group = sorted(group, key=lambda e: (-direct(e), seed[e]))
        ranked += group
    return _numbered(ranked, rows)


def _numbered(ranked: Sequence[str], rows: Mapping[str, Standing]) -> list[Standing]:
    out = []
    for i, e in enumerate(ranked):
        r = rows[e]
        out.append(Standing(i + 1, e, r.points, r.wins, r.losses, r.byes, r.difference,
                            r.buchholz, r.reached, r.streak, r.withdrawn))
    return out


def knockout_standings(
    order: Sequence[str],
    meetings: Mapping[str, Sequence[Meeting]],
    reached: Mapping[str, int],
    champion: str | None,
    withdrawn: Set[str],
) -> list[Standing]:
    """Points are ties won; `difference` counts games won minus games lost."""
    seed = {e: i for i, e in enumerate(order)}
    rows = {}
    for e in order:
        own = meetings.get(e, ())
        wins, losses, byes, _ = _tally(own)
        diff = sum(m.games_won - m.games_lost for m in own)
        rows[e] = Standing(0, e, wins, wins, losses, byes, diff, reached=reached.get(e, 0),
                           withdrawn=e in withdrawn)
    ranked = sorted(order, key=lambda e: (e != champion, -(reached.get(e, 0)), seed[e]))
    return _numbered(ranked, rows)


def arena_standings(
    order: Sequence[str], meetings: Mapping[str, Sequence[Meeting]], withdrawn: Set[str]
) -> list[Standing]:
    """`meetings` in the order the results came in: the streak bonus depends on it."""
    seed = {e: i for i, e in enumerate(order)}
    rows = {}
    for e in order:
        own = meetings.get(e, ())
        points, streak = arena_points(own)
        wins, losses, byes, diff = _tally(own)
        rows[e] = Standing(0, e, points, wins, losses, byes, diff, streak=streak,
                           withdrawn=e in withdrawn)
    ranked = sorted(order, key=lambda e: (-rows[e].points, -rows[e].wins,
                                          -rows[e].difference, seed[e]))
    return _numbered(ranked, rows)


def arena_points(meetings: Sequence[Meeting]) -> tuple[int, int]:
    """(points, current streak): a win scores double after ARENA_STREAK wins in a row."""
    points = streak = 0
    for m in meetings:
        if m.result == "win":
            points += ARENA_WIN * (2 if streak >= ARENA_STREAK else 1)
            streak += 1
        else:
            streak = 0
    return points, streak


#: What put a line below the one above it when the two are level on every number the standings
#: show (`decided_by`): the direct encounter (Suíço), the final (the champion, Mata-mata), or
#: the seed order, told as the rating or the draw of lots that made it.
Decider = Literal["direct", "final", "rating", "lot"]

#: The numbers each format's standings show, in the order they rank (the points first).
SHOWN: Final[dict[str, tuple[str, ...]]] = {
    "swiss": ("points", "buchholz", "difference"),
    "knockout": ("reached",),
    "arena": ("points", "wins", "difference"),
}


def decided_by(fmt: str, lines: Sequence[Mapping[str, Any]],
               ratings: Mapping[str, int | None],
               beaten: Sequence[tuple[str, str]], champion: str | None = None
               ) -> list[Decider | None]:
    """For each line of the standings (`Standing.to_dict()`, in rank order), what put it below
    the line above when both are level on every number `SHOWN` for the format: None for the
    first line and wherever a shown number differs. `ratings`: each entrant's seed rating (None
    unrated); `beaten`: a (winner, loser) pair per tie played on the table (not a bye, not a
    forfeit), as the direct encounter counts them; `champion`: a finished knockout's winner."""
    shown = SHOWN.get(fmt, ())

    def level_key(line: Mapping[str, Any]) -> tuple[Any, ...]:
        return tuple(line.get(k) for k in shown)

    out: list[Decider | None] = [None] * len(lines)
    for i in range(1, len(lines)):
        above, below = lines[i - 1], lines[i]
        if level_key(above) != level_key(below):
            continue
        if fmt == "knockout" and above["entrant"] == champion:
            out[i] = "final"
            continue
        if fmt == "swiss":
            group = {line["entrant"] for line in lines if level_key(line) == level_key(below)}

            def direct(e: str, group: set[str] = group) -> int:
                return sum(1 for w, lost in beaten if w == e and lost in group)

            if direct(above["entrant"]) != direct(below["entrant"]):
                out[i] = "direct"
                continue
        same = ratings.get(above["entrant"]) == ratings.get(below["entrant"])
        out[i] = "lot" if same else "rating"
    return out

