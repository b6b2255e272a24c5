"""What the fair-play signal keeps: the ranked matches whose decisions are still to be counted
(`fairplay_due`), and each player's decisions and agreements per match (`fairplay_tallies`),
summed per ruleset for a player and for the population. Each function takes a connection in a
transaction (`Store.run_side`)."""

from __future__ import annotations

import logging
from collections.abc import Iterable

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from carroca.server.moderation.agreement import Population, tally
from carroca.server.storage import db

log = logging.getLogger("carroca.server")


def _insert(conn: Connection, table: sa.Table) -> postgresql.Insert | sqlite.Insert:
    return (postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert)(table)


def make_due(conn: Connection, match_id: str, finished_at: float) -> None:
    """A ranked match that just ended: its decisions are to be counted (once)."""
    conn.execute(_insert(conn, db.fairplay_due).values(match_id=match_id, finished_at=finished_at)
                 .on_conflict_do_nothing(index_elements=["match_id"]))


def count_reviewed(conn: Connection, limit: int = 50) -> int:
    """Count the due matches whose review is stored (asked for by a player, or in the
    background): their tallies written, due no more. Returns how many were counted."""
    d, m, pt = db.fairplay_due.c, db.matches.c, db.participants.c
    rows = conn.execute(
        sa.select(d.match_id, m.ruleset, m.analysis).join(db.matches, m.id == d.match_id)
        .where(m.analysis.is_not(None)).order_by(d.finished_at.desc()).limit(limit)).all()
    for match_id, ruleset, text in rows:
        seats = {int(seat): int(pid) for seat, pid in conn.execute(
            sa.select(pt.seat, pt.player_id).where(pt.match_id == match_id))}
        try:
            counted = tally(text, seats)
        except ValueError:  # not a review: nothing to count in it
            log.warning("fair play: the review of %s cannot be read", match_id)
            counted = {}
        if counted:  # counted already (due again after a restart): kept as it was
            conn.execute(_insert(conn, db.fairplay_tallies).on_conflict_do_nothing(
                index_elements=["match_id", "player_id"]), [
                {"match_id": match_id, "player_id": pid, "ruleset": ruleset,
                 "decisions": made, "agreed": agreed}
                for pid, (made, agreed) in counted.items()])
        conn.execute(db.fairplay_due.delete().where(d.match_id == match_id))
    return len(rows)


def claim(conn: Connection, now: float, stale_before: float, max_attempts: int,
          wanted: Iterable[int] = ()) -> tuple[str, str] | None:
    """The next due match with no review to review in the background, claimed (unless
    another node claims it first): (match id, record). Newest first, a match of a `wanted`
    player (one a moderator looked at) before the others; a claim older than `stale_before`
    can be taken again, `max_attempts` times in all."""
    d, m, pt = db.fairplay_due.c, db.matches.c, db.participants.c
    free = sa.or_(d.claimed_at.is_(None), d.claimed_at < stale_before)
    base = (sa.select(d.match_id, m.record).join(db.matches, m.id == d.match_id)
            .where(m.analysis.is_(None), m.record.is_not(None), d.attempts < max_attempts,
                   free)
            .order_by(d.finished_at.desc()).limit(1))
    players = list(wanted)
    queries = [base.where(d.match_id.in_(sa.select(pt.match_id)
                                         .where(pt.player_id.in_(players))))] if players else []
    for query in [*queries, base]:
        found = conn.execute(query).first()
        if found is None:
            continue
        taken = conn.execute(db.fairplay_due.update()
                             .where(d.match_id == found.match_id, free)
                             .values(claimed_at=now, attempts=d.attempts + 1))
        if taken.rowcount == 1:
            return str(found.match_id), str(found.record)
        return None  # another node took it a moment ago: the next look finds another
    return None


def player_counts(conn: Connection, player_id: int) -> list[tuple[str, int, int]]:
    """The player's counted ranked decisions per ruleset: (ruleset, decisions, agreed)."""
    t = db.fairplay_tallies.c
    return [(str(r), int(n or 0), int(a or 0)) for r, n, a in conn.execute(
        sa.select(t.ruleset, sa.func.sum(t.decisions), sa.func.sum(t.agreed))
        .where(t.player_id == player_id).group_by(t.ruleset))]


def populations(conn: Connection, min_decisions: int) -> dict[str, Population]:
    """Per ruleset, the players with at least `min_decisions` counted there: how many, the sum
    of their shares and of their squares (one query; the shares never leave the database)."""
    t = db.fairplay_tallies.c
    share = (sa.cast(sa.func.sum(t.agreed), sa.Float) / sa.func.sum(t.decisions)).label("share")
    per_player = (sa.select(t.ruleset, share).group_by(t.ruleset, t.player_id)
                  .having(sa.func.sum(t.decisions) >= max(1, min_decisions)).subquery())
    return {str(r): Population(int(n), float(total or 0.0), float(squares or 0.0))
            for r, n, total, squares in conn.execute(
                sa.select(per_player.c.ruleset, sa.func.count(),
                          sa.func.sum(per_player.c.share),
                          sa.func.sum(per_player.c.share * per_player.c.share))
                .group_by(per_player.c.ruleset))}


def due_count(conn: Connection) -> int:
    """Ranked matches whose decisions are still to be counted."""
    return int(conn.execute(sa.select(sa.func.count()).select_from(db.fairplay_due)).scalar()
               or 0)
