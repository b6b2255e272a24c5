"""tournaments: events, their entries and the match of each game"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("format", sa.String(10), nullable=False),
        sa.Column("ruleset", sa.String(20), nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("spec", sa.JSON, nullable=False),
        sa.Column("status", sa.String(10), nullable=False, index=True),
        sa.Column("creator", sa.Integer, sa.ForeignKey("players.id")),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("starts_at", sa.Float, nullable=False),
        sa.Column("started_at", sa.Float),
        sa.Column("finished_at", sa.Float),
        sa.Column("turn_seconds", sa.Float, nullable=False),
        sa.Column("bots", sa.String(10)),
        sa.Column("private", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("invite", sa.String(16), unique=True),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("record", sa.Text, nullable=False),
    )
    op.create_table(
        "tournament_entries",
        sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"),
                  primary_key=True),
        sa.Column("entrant", sa.String(60), primary_key=True),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("players", sa.JSON, nullable=False),
        sa.Column("partner_invite", sa.String(16), unique=True),
        sa.Column("created_at", sa.Float, nullable=False),
    )
    op.create_table(
        "tournament_games",
        sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"),
                  primary_key=True),
        sa.Column("round", sa.Integer, primary_key=True),
        sa.Column("table_no", sa.Integer, primary_key=True),
        sa.Column("game", sa.Integer, primary_key=True),
        sa.Column("match_id", sa.String(16), sa.ForeignKey("matches.id"), nullable=False,
                  unique=True),
    )


def downgrade() -> None:
    op.drop_table("tournament_games")
    op.drop_table("tournament_entries")
    op.drop_table("tournaments")
