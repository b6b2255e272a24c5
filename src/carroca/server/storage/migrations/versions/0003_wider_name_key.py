"""wider name key: a casefolded name can be longer than the name ("ß" folds to "ss")"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.alter_column("name_key", type_=sa.String(64), existing_type=sa.String(24),
                           existing_nullable=False)


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.alter_column("name_key", type_=sa.String(24), existing_type=sa.String(64),
                           existing_nullable=False)
