"""guest keys: a guest who signed out signs in again under the same nickname with the secret key
their browser kept (only its SHA-256 is stored)"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"


def upgrade() -> None:
    op.add_column("players", sa.Column("guest_key_hash", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_column("guest_key_hash")
