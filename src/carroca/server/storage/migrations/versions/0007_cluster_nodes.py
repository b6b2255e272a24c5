"""several nodes: the nodes table (leases), each match's owner node and fencing epoch, and the
ranked queue in the database (shared by every node)"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"


def upgrade() -> None:
    op.create_table(
        "nodes",
        sa.Column("id", sa.String(40), primary_key=True),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("started_at", sa.Float, nullable=False),
        sa.Column("lease_until", sa.Float, nullable=False, index=True),
    )
    op.add_column("matches", sa.Column("owner", sa.String(40), nullable=True))
    op.add_column("matches", sa.Column("epoch", sa.Integer, nullable=False,
                                       server_default="0"))
    op.create_index("ix_matches_owner", "matches", ["owner"])
    op.create_table(
        "ranked_queue",
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True),
        sa.Column("ruleset", sa.String(20), nullable=False, index=True),
        sa.Column("name", sa.String(24), nullable=False),
        sa.Column("seed", sa.String(200)),
        sa.Column("queued_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("ranked_queue")
    op.drop_index("ix_matches_owner", "matches")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("epoch")
        batch.drop_column("owner")
    op.drop_table("nodes")
