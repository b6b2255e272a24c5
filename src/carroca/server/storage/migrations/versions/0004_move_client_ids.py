"""move client ids: a move resent after a restart is still recognised as a duplicate"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"


def upgrade() -> None:
    op.add_column("moves", sa.Column("client_id", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("moves") as batch:
        batch.drop_column("client_id")
