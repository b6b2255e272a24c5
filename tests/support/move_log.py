"""A match's move log as the database holds it, and as a verified record would write it: what
the crash and resume tests compare."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from carroca import record
from carroca.server.storage import db


def move_log(database: str, match_id: str) -> tuple[str, list[tuple[int, str, bool]]]:
    """The match's status and move log as the database holds them: (seat, action, auto)."""
    engine = db.make_engine(database)
    try:
        with engine.connect() as conn:
            status: str = conn.execute(
                sa.select(db.matches.c.status).where(db.matches.c.id == match_id)
            ).scalar_one()
            rows = conn.execute(
                sa.select(db.moves.c.seat, db.moves.c.action, db.moves.c.auto)
                .where(db.moves.c.match_id == match_id).order_by(db.moves.c.seq)
            ).all()
    finally:
        engine.dispose()
    return status, [(r.seat, r.action, bool(r.auto)) for r in rows]


def record_steps(rec: Any) -> list[tuple[int, str, bool]]:
    """Every action of a verified record, as the move log writes them."""
    match = record.verify(rec)
    assert match.is_over
    return [(s.seat, str(s.action), s.auto) for hand in match.history for s in hand.steps]
