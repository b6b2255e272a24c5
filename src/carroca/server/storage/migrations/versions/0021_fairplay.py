"""fair play: the ranked matches whose decisions are still to be counted, and each player's
agreement with the expert per match; every finished ranked match is due at first"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"


def upgrade() -> None:
    due = op.create_table(
        "fairplay_due",
        sa.Column("match_id", sa.String(16), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("finished_at", sa.Float, nullable=False),
        sa.Column("claimed_at", sa.Float),
        sa.Column("attempts", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_index("ix_fairplay_due_finished_at", "fairplay_due", ["finished_at"])
    op.create_table(
        "fairplay_tallies",
        sa.Column("match_id", sa.String(16), sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("ruleset", sa.String(20), nullable=False),
        sa.Column("decisions", sa.Integer, nullable=False),
        sa.Column("agreed", sa.Integer, nullable=False),
    )
    op.create_index("ix_fairplay_tallies_player_id", "fairplay_tallies", ["player_id"])
    # The ranked matches played before: counted from their reviews where stored, reviewed in
    # the background otherwise (newest first).
    m = sa.table("matches", sa.column("id", sa.String), sa.column("mode", sa.String),
                 sa.column("status", sa.String), sa.column("record", sa.Text),
                 sa.column("finished_at", sa.Float), sa.column("created_at", sa.Float))
    op.execute(due.insert().from_select(
        ["match_id", "finished_at"],
        sa.select(m.c.id, sa.func.coalesce(m.c.finished_at, m.c.created_at))
        .where(m.c.mode == "ranked", m.c.status == "finished", m.c.record.is_not(None))))


def downgrade() -> None:
    op.drop_index("ix_fairplay_tallies_player_id", "fairplay_tallies")
    op.drop_table("fairplay_tallies")
    op.drop_index("ix_fairplay_due_finished_at", "fairplay_due")
    op.drop_table("fairplay_due")
