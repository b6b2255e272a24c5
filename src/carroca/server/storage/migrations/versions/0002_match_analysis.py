"""match analysis: the expert's post-game review, stored once produced

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("matches", sa.Column("analysis", sa.Text(), nullable=True))


def downgrade() -> None:
    op.drop_column("matches", "analysis")
