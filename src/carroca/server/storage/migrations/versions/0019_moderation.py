"""moderation: chat lines kept, reports, sanctions, the moderators' audit log and the
abandonment ladder"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"


def upgrade() -> None:
    op.create_table(
        "chat_lines",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("match_id", sa.String(16), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("name", sa.String(24), nullable=False),
        sa.Column("text", sa.String(400), nullable=False),
        sa.Column("shown", sa.String(400), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_chat_lines_match_at", "chat_lines", ["match_id", "at"])
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("reporter_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("reported_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("reason", sa.String(20), nullable=False),
        sa.Column("comment", sa.String(500)),
        sa.Column("match_id", sa.String(16)),
        sa.Column("context", sa.JSON, nullable=False),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("outcome", sa.String(20)),
        sa.Column("count", sa.Integer, nullable=False, server_default="1"),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    for column in ("reporter_id", "reported_id", "status"):
        op.create_index(f"ix_reports_{column}", "reports", [column])
    op.create_table(
        "sanctions",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("reason", sa.String(300), nullable=False),
        sa.Column("by_id", sa.Integer, sa.ForeignKey("players.id")),
        sa.Column("report_id", sa.Integer, sa.ForeignKey("reports.id")),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("until", sa.Float),
        sa.Column("lifted_at", sa.Float),
        sa.Column("lifted_by", sa.Integer, sa.ForeignKey("players.id")),
    )
    op.create_index("ix_sanctions_player_id", "sanctions", ["player_id"])
    op.create_table(
        "moderation_log",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("actor_id", sa.Integer, sa.ForeignKey("players.id")),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("action", sa.String(20), nullable=False),
        sa.Column("target_id", sa.Integer, sa.ForeignKey("players.id")),
        sa.Column("report_id", sa.Integer),
        sa.Column("sanction_id", sa.Integer),
        sa.Column("reason", sa.String(300), nullable=False),
    )
    op.create_index("ix_moderation_log_at", "moderation_log", ["at"])
    op.create_table(
        "abandon_ladder",
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("step", sa.Integer, nullable=False),
        sa.Column("clean", sa.Integer, nullable=False),
        sa.Column("abandons", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("abandon_ladder")
    op.drop_index("ix_moderation_log_at", "moderation_log")
    op.drop_table("moderation_log")
    op.drop_index("ix_sanctions_player_id", "sanctions")
    op.drop_table("sanctions")
    for column in ("reporter_id", "reported_id", "status"):
        op.drop_index(f"ix_reports_{column}", "reports")
    op.drop_table("reports")
    op.drop_index("ix_chat_lines_match_at", "chat_lines")
    op.drop_table("chat_lines")
