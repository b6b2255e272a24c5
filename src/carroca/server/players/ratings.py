"""OpenSkill ratings: team-aware, each player rated on their own, per ruleset family.

Only ranked matches change ratings. The leaderboard orders by the conservative estimate
(`ordinal`, mu − 3σ), so a newcomer with few games does not top it by luck.

A match abandoned early changes nobody's rating (`early_abandon`): one rates only once the
abandoning side made `ranked_min_moves` moves of its own, `ranked_min_hands` hands were played to
their end, and those hands brought the leading side to `ranked_min_share` of the goal. A puppet
that plays a few moves and then idles until its timeouts abandon for it feeds nobody, however
often it repeats the trick; a whole hand played and lost on purpose is not a meaningful share.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from openskill.models import PlackettLuce

from carroca.rules import Match, Ruleset, get_ruleset
from carroca.server.records import Seat, is_person

if TYPE_CHECKING:
    from carroca.server.storage.rows import ParticipantRow, RatingRow
    from carroca.server.storage.store import Store

_MODEL = PlackettLuce()


def family_of(ruleset: str, bots: bool = False) -> str:
    """Ratings are kept per family: the 2v2 rulesets together, the 1v1 rulesets together; the
    bots' ladder (bot accounts of the Bot API) apart from the people's ("bot-duplas",
    "bot-mano")."""
    family = "duplas" if get_ruleset(ruleset).seats == 4 else "mano"
    return f"bot-{family}" if bots else family


#: Every family of ratings, the people's and the bots' ladder's.
FAMILIES = ("duplas", "mano", "bot-duplas", "bot-mano")


class Rated(Protocol):
    """What rating a match reads of its table (its mode read-only: a table's is a `Mode`)."""

    id: str

    @property
    def mode(self) -> str: ...

    ruleset: Ruleset
    seats: list[Seat | None]
    match: Match | None

    def humans(self) -> list[tuple[int, int]]: ...

    @property
    def resigned(self) -> set[int]: ...


def own_moves_before_abandon(match: Match) -> int | None:
    """The moves the abandoning side made itself (not `auto`), or None if nobody abandoned."""
    if match.result is None or match.result.reason != "abandon" or not match.history:
        return None
    side = match.history[-1].end.seat
    if side is None:
        return None
    return sum(1 for log in match.history for step in log.steps
               if step.seat % 2 == side % 2 and not step.auto)


def goal_of(match: Match) -> int:
    """What a side must reach to win: its target, or the hands to win (clássico)."""
    goal: int = getattr(match.options, "target", 0) or getattr(match.options, "hands_to_win", 1)
    return max(1, goal)


def early_abandon(match: Match, min_moves: int, min_hands: int, min_share: float) -> bool:
    """Whether an abandonment came before a meaningful share of the match (see the module's
    docstring); False for a match that was not abandoned."""
    moves = own_moves_before_abandon(match)
    if moves is None:
        return False
    finished = [log for log in match.history[:-1] if log.end.kind != "redeal"]
    score = finished[-1].score if finished else (0, 0)
    return (moves < min_moves or len(finished) < min_hands
            or max(score) < min_share * goal_of(match))


class Ratings:
    def __init__(self, store: Store, min_moves: int = 0, min_hands: int = 0,
                 min_share: float = 0.0) -> None:
        self.store = store
        self.min_moves = min_moves
        self.min_hands = min_hands
        self.min_share = min_share

    async def after_match(
        self, table: Rated, winner: int
    ) -> tuple[list[ParticipantRow], list[RatingRow]]:
        """Participant rows for every human seat and, for ranked matches, the new ratings."""
        humans = table.humans()
        # An early abandonment rates nothing (a puppet that idles cannot feed its opponent
        # points); a resignation (the Bot API's) is a loss, rated, or a losing bot would
        # resign early and never lose a point.
        early = table.match is not None and not table.resigned and early_abandon(
            table.match, self.min_moves, self.min_hands, self.min_share)
        if table.mode != "ranked" or not humans or early:
            return [
                {"match_id": table.id, "seat": seat, "player_id": pid,
                 "rating_before": None, "rating_after": None}
                for seat, pid in humans
            ], []
        family = family_of(table.ruleset.name, bots=any(
            s is not None and is_person(s) and s.get("bot_account") for s in table.seats))
        known = await self.store.ratings_of([pid for _, pid in humans], family)
        n = len(table.seats)
        teams: list[list[Any]] = [[], []]
        seat_of_rating: list[tuple[int, int]] = []
        for seat in range(n):
            s = table.seats[seat]
            pid = s["player"] if s and is_person(s) else None
            row = known.get(pid) if pid is not None else None
            rating = _MODEL.rating(mu=row["mu"], sigma=row["sigma"]) if row else _MODEL.rating()
            teams[seat % 2].append(rating)
            seat_of_rating.append((seat, len(teams[seat % 2]) - 1))
        ranks: list[float] = [1.0, 2.0] if winner == 0 else [2.0, 1.0]
        new = _MODEL.rate(teams, ranks=ranks)
        participants: list[ParticipantRow] = []
        rows: list[RatingRow] = []
        for seat, pid in humans:
            before = known.get(pid)
            after = new[seat % 2][seat_of_rating[seat][1]]
            participants.append({
                "match_id": table.id, "seat": seat, "player_id": pid,
                "rating_before": before["ordinal"] if before else _MODEL.rating().ordinal(),
                "rating_after": after.ordinal(),
            })
            rows.append({
                "player_id": pid, "family": family, "mu": after.mu, "sigma": after.sigma,
                "ordinal": after.ordinal(),
                "games": (before["games"] if before else 0) + 1,
                "wins": (before["wins"] if before else 0) + (1 if seat % 2 == winner else 0),
            })
        return participants, rows
