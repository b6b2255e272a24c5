"""tournament tables: the show-up deadline carried with the table, and the teams that never came
when it closed unplayed"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"


def upgrade() -> None:
    op.add_column("matches", sa.Column("show_up_by", sa.Float(), nullable=True))
    op.add_column("matches", sa.Column("absent", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("absent")
        batch.drop_column("show_up_by")
