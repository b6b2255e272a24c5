"""player marks: digests of the addresses and devices accounts came from, so that the ranked
queue does not pair accounts of one person as opponents"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"


def upgrade() -> None:
    op.create_table(
        "player_marks",
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("mark", sa.String(64), primary_key=True),
        sa.Column("seen_at", sa.Float, nullable=False),
    )
    op.create_index("ix_player_marks_mark", "player_marks", ["mark"])


def downgrade() -> None:
    op.drop_index("ix_player_marks_mark", "player_marks")
    op.drop_table("player_marks")
