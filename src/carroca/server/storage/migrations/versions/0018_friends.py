"""friends: requests, friendships and blocks between players, one row per direction"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"


def upgrade() -> None:
    op.create_table(
        "friend_links",
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("other_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("state", sa.String(10), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_friend_links_other_id", "friend_links", ["other_id", "state"])


def downgrade() -> None:
    op.drop_index("ix_friend_links_other_id", "friend_links")
    op.drop_table("friend_links")
