"""A player's profile (`perfil.html`, `GET /api/players/{id}/profile`): what anyone may see of
them — since when they play, their ratings and the course of each (a point per ranked match),
their figures per ruleset, their latest matches — and, for a signed-in viewer, the friends they
have in common and what the viewer may do (add, challenge, block).

Only public matches count or show (`storage.profiles`); a closed or deleted player has no page
(404, as a nickname nobody has). A challenge is offered to friends only, and a block, either
way, ends a friendship: a blocked pair is never offered one, and a player who blocked the viewer
is, to them, a player like any other who is not their friend.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TypedDict

from carroca.server.errors import PlayerNotFound
from carroca.server.players.ratings import family_of
from carroca.server.records import Player, PlayerKind
from carroca.server.storage.rows import (
    ProfileFriend,
    ProfileRating,
    RatingPoint,
    RecentMatch,
    Relation,
    RulesetStats,
)
from carroca.server.storage.store import Store


class PlayerPage(TypedDict):
    """The profile as answered: `rating_history` by family (`duplas`, `mano`), oldest first;
    `uncounted`: public matches of theirs whose figures are still being counted (kept before
    the figures were); `relation` null and `common_friends` empty for nobody signed in."""

    id: int
    name: str
    kind: PlayerKind
    since: float
    ratings: dict[str, ProfileRating]
    rating_history: dict[str, list[RatingPoint]]
    stats: list[RulesetStats]
    uncounted: int
    recent: list[RecentMatch]
    common_friends: list[ProfileFriend]
    relation: Relation | None
    can_challenge: bool


def month_of(at: float) -> float:
    """The page says since which month a player plays, and tells no more: the 15th of that
    month at noon (UTC), a day every time zone reads in the same month."""
    day = datetime.fromtimestamp(at, UTC)
    return day.replace(day=15, hour=12, minute=0, second=0, microsecond=0).timestamp()


async def profile_page(store: Store, viewer: Player | None, player_id: int | None = None,
                       name: str | None = None) -> PlayerPage:
    """The page of the player `player_id` (or named `name`), as `viewer` may see it."""
    found = await store.player_page(player_id, name,
                                    viewer["id"] if viewer is not None else None)
    if found is None:
        raise PlayerNotFound
    history: dict[str, list[RatingPoint]] = {}
    bots = found["kind"] == "bot"  # rated on the bots' ladder only
    for point in found["rating_points"]:
        history.setdefault(family_of(point["ruleset"], bots), []).append(point)
    return PlayerPage(
        id=found["id"], name=found["name"], kind=found["kind"], since=month_of(found["since"]),
        ratings=found["ratings"], rating_history=history, stats=found["stats"],
        uncounted=found["uncounted"], recent=found["recent"],
        common_friends=found["common_friends"], relation=found["relation"],
        can_challenge=found["relation"] == "friends",
    )
