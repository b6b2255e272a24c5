"""A player's public page as the database holds it: ratings and their course, figures per
ruleset, the latest matches, friends in common with the viewer; and the counting of what each
player did in matches stored before those figures were kept.

Private matches (a friends' match its host did not make public) count for nothing here and are
never listed, whoever asks: the page is what anyone may see of the player. A closed or deleted
player has no page.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from carroca.server.records import Seat, is_bot
from carroca.server.storage import db
from carroca.server.storage.plumbing import Storage
from carroca.server.storage.rows import (
    ProfileFriend,
    ProfileRating,
    RatingPoint,
    RecentMatch,
    Relation,
    RulesetStats,
    SeatCounts,
    StoredPage,
    Uncounted,
)

RATING_POINTS = 200  # the latest ranked matches drawn in the graph
RECENT = 10  # the latest public matches listed
COMMON_FRIENDS = 50  # friends in common listed at most

_L = db.friend_links.c
# Made once, not per query: the server keeps what a new alias builds (`FriendRows._set`).
_MINE, _THEIRS = db.friend_links.alias("mine"), db.friend_links.alias("theirs")


def _relation(conn: Connection, viewer: int, player: int) -> Relation:
    if viewer == player:
        return "self"
    states = {(int(r[0]), str(r[1])) for r in conn.execute(
        sa.select(_L.player_id, _L.state).where(sa.or_(
            sa.and_(_L.player_id == viewer, _L.other_id == player),
            sa.and_(_L.player_id == player, _L.other_id == viewer))))}
    mine = next((s for p, s in states if p == viewer), None)
    if mine == "friend":
        return "friends"
    if mine == "blocked":
        return "blocked"
    if mine == "requested":
        return "requested"
    return "incoming" if (player, "requested") in states else "none"


def _common_friends(conn: Connection, viewer: int, player: int) -> list[ProfileFriend]:
    mine, theirs, p = _MINE, _THEIRS, db.players.c
    rows = conn.execute(
        sa.select(p.id, p.name)
        .select_from(mine.join(theirs, mine.c.other_id == theirs.c.other_id)
                     .join(db.players, p.id == mine.c.other_id))
        .where(mine.c.player_id == viewer).where(mine.c.state == "friend")
        .where(theirs.c.player_id == player).where(theirs.c.state == "friend")
        .where(p.closed_at.is_(None)).order_by(p.name_key).limit(COMMON_FRIENDS))
    return [ProfileFriend(id=int(r.id), name=str(r.name)) for r in rows]


def _seat_name(seat: Seat | None) -> str:
    if seat is None:
        return ""
    return f"bot:{seat['bot']}" if is_bot(seat) else seat["name"]


def _recent(row: Any) -> RecentMatch:
    won = row.won
    if won is None and row.result is not None:  # not counted yet: the result says it
        won = row.seat % 2 == row.result["winner"]
    return RecentMatch(id=row.id, mode=row.mode, ruleset=row.ruleset,
                       finished_at=row.finished_at, seat=row.seat,
                       won=None if won is None else bool(won), score=row.score,
                       players=[_seat_name(s) for s in row.seats])


class ProfileRows(Storage):
    async def player_page(self, player_id: int | None = None, name: str | None = None,
                          viewer: int | None = None) -> StoredPage | None:
        """The page of an open player, by id or by nickname (None: no such player, or closed
        or deleted); `viewer`: the signed-in player asking, if any."""

        def fn(conn: Connection) -> StoredPage | None:
            p = db.players.c
            query = sa.select(p.id, p.name, p.kind, p.created_at).where(p.closed_at.is_(None))
            query = query.where(p.id == player_id) if player_id is not None \
                else query.where(p.name_key == (name or "").casefold())
            found = conn.execute(query).first()
            if found is None:
                return None
            pid = int(found.id)
            m, pt = db.matches.c, db.participants.c
            public = (sa.select(m.id, m.mode, m.ruleset, m.finished_at, m.score, m.result,
                                m.seats, pt.seat, pt.won, pt.rating_after, pt.batidas,
                                pt.galos, pt.capicus)
                      .join(db.participants, pt.match_id == m.id)
                      .where(pt.player_id == pid).where(m.status == "finished")
                      .where(sa.not_(m.private)))
            ratings = {
                r.family: ProfileRating(mu=r.mu, sigma=r.sigma, rating=r.ordinal,
                                        games=r.games, wins=r.wins)
                for r in conn.execute(sa.select(db.ratings)
                                      .where(db.ratings.c.player_id == pid))}
            points = conn.execute(
                public.where(pt.rating_after.is_not(None))
                .order_by(m.finished_at.desc()).limit(RATING_POINTS)).all()
            counted = public.where(pt.won.is_not(None)).subquery()
            stats = [
                RulesetStats(ruleset=r.ruleset, matches=int(r.matches), wins=int(r.wins or 0),
                             batidas=int(r.batidas or 0), galos=int(r.galos or 0),
                             capicus=int(r.capicus or 0))
                for r in conn.execute(
                    sa.select(counted.c.ruleset, sa.func.count().label("matches"),
                              sa.func.sum(sa.case((counted.c.won, 1), else_=0)).label("wins"),
                              sa.func.sum(counted.c.batidas).label("batidas"),
                              sa.func.sum(counted.c.galos).label("galos"),
                              sa.func.sum(counted.c.capicus).label("capicus"))
                    .group_by(counted.c.ruleset).order_by(counted.c.ruleset))]
            uncounted = conn.execute(sa.select(sa.func.count()).select_from(
                public.where(pt.won.is_(None)).subquery())).scalar()
            recent = conn.execute(public.order_by(m.finished_at.desc()).limit(RECENT)).all()
            return StoredPage(
                id=pid, name=found.name, kind=found.kind, since=found.created_at,
                ratings=ratings,
                rating_points=[RatingPoint(at=r.finished_at, rating=r.rating_after,
                                           ruleset=r.ruleset, match=r.id)
                               for r in reversed(points)],
                stats=stats, uncounted=int(uncounted or 0),
                recent=[_recent(r) for r in recent],
                common_friends=_common_friends(conn, viewer, pid)
                if viewer is not None and viewer != pid else [],
                relation=_relation(conn, viewer, pid) if viewer is not None else None,
            )

        return await self.run_side(fn)

    async def uncounted_matches(self, limit: int) -> list[Uncounted]:
        """Finished matches with a player whose figures were not counted yet (kept before
        they were), with their records: at most `limit`, the newest first."""

        def fn(conn: Connection) -> list[Uncounted]:
            m, pt = db.matches.c, db.participants.c
            waiting = sa.select(pt.match_id).where(pt.won.is_(None))
            rows = conn.execute(
                sa.select(m.id, m.record, m.result).where(m.id.in_(waiting))
                .where(m.record.is_not(None)).order_by(m.finished_at.desc()).limit(limit))
            return [Uncounted(id=r.id, record=r.record, result=r.result) for r in rows]

        return await self.run_side(fn, track=False)  # the upkeep's: see `run`

    async def set_counts(self, matches: list[tuple[str, list[SeatCounts]]]) -> None:
        """What each seat's player did in each match (seats without a player are skipped):
        one transaction for the batch."""

        def fn(conn: Connection) -> None:
            pt = db.participants.c
            for match_id, counts in matches:
                for seat, did in enumerate(counts):
                    conn.execute(db.participants.update().where(pt.match_id == match_id)
                                 .where(pt.seat == seat).values(**did))

        await self.run_side(fn)
