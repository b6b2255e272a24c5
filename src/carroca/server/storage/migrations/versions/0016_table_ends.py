"""tables ended by an operator (`carroca admin end`): the reason kept with the match, and a log
the nodes read to close the tables they run"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"


def upgrade() -> None:
    op.add_column("matches", sa.Column("ended_reason", sa.String(200), nullable=True))
    op.create_table(
        "table_ends",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("match_id", sa.String(16), sa.ForeignKey("matches.id"), nullable=False),
        sa.Column("reason", sa.String(200), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("table_ends")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("ended_reason")
