"""match analysis: the expert's post-game review, stored once produced"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"


def upgrade() -> None:
    op.add_column("matches", sa.Column("analysis", sa.Text(), nullable=True))


def downgrade() -> None:
    op.drop_column("matches", "analysis")
