"""tournaments in a cluster: the node running each event, and its fencing epoch"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"


def upgrade() -> None:
    op.add_column("tournaments", sa.Column("owner", sa.String(40), nullable=True))
    op.add_column("tournaments", sa.Column("epoch", sa.Integer, nullable=False,
                                           server_default="0"))
    op.create_index("ix_tournaments_owner", "tournaments", ["owner"])


def downgrade() -> None:
    op.drop_index("ix_tournaments_owner", "tournaments")
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("epoch")
        batch.drop_column("owner")
