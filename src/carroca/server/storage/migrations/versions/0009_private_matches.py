"""private matches: a friends' match's record, replay and review are its players' only, until its
host makes it public; friends' matches already stored become private"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"


def upgrade() -> None:
    op.add_column("matches", sa.Column("private", sa.Boolean(), nullable=False,
                                       server_default=sa.false()))
    matches = sa.table("matches", sa.column("mode", sa.String), sa.column("private", sa.Boolean))
    op.execute(matches.update().where(matches.c.mode == "friends").values(private=True))


def downgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("private")
