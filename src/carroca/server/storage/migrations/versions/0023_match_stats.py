"""what each player did in a match (won, batidas, galos, capicús), kept with their seat for the
profile's figures; null until counted (matches stored before this are counted in the background)"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0023"
down_revision = "0022"

COUNTS = ("batidas", "galos", "capicus")


def upgrade() -> None:
    op.add_column("participants", sa.Column("won", sa.Boolean, nullable=True))
    for name in COUNTS:
        op.add_column("participants", sa.Column(name, sa.Integer, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("participants") as batch:
        for name in ("won", *COUNTS):
            batch.drop_column(name)
