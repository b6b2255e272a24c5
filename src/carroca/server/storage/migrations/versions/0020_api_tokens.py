"""api tokens: personal tokens for programs (the Bot API), stored hashed, with their scopes"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"


def upgrade() -> None:
    op.create_table(
        "api_tokens",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("label", sa.String(40), nullable=False),
        sa.Column("scopes", sa.String(200), nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("used_at", sa.Float),
        sa.Column("revoked_at", sa.Float),
    )
    op.create_index("ix_api_tokens_player_id", "api_tokens", ["player_id"])


def downgrade() -> None:
    op.drop_index("ix_api_tokens_player_id", "api_tokens")
    op.drop_table("api_tokens")
