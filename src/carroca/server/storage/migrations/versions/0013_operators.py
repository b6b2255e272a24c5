"""the operator's tools: players' roles, closed accounts and announcements (`carroca admin`)"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"


def upgrade() -> None:
    op.add_column("players", sa.Column("closed_at", sa.Float, nullable=True))
    op.add_column("players", sa.Column("closed_reason", sa.String(200), nullable=True))
    op.create_table(
        "player_roles",
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("role", sa.String(20), primary_key=True),
        sa.Column("granted_at", sa.Float, nullable=False),
    )
    op.create_table(
        "announcements",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("text", sa.String(280), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("expires_at", sa.Float, nullable=True),
    )


def downgrade() -> None:
    op.drop_table("announcements")
    op.drop_table("player_roles")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("closed_reason")
        batch.drop_column("closed_at")
