"""an arena's log entries written one by one: a wave appends its own, not the whole record"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"


def upgrade() -> None:
    op.create_table(
        "tournament_log",
        sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"),
                  primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("entry", sa.JSON, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("tournament_log")
