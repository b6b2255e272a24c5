"""look-alike keys: each player's UTS #39 confusable skeleton, of the name and of its case fold,
each unique, so that a name cannot pass for another written in another alphabet ("раса59" for
"paca59"); players that already share a key all keep their names (the later ones as twins)"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from carroca.server.storage.names import rekey_players

revision = "0008"
down_revision = "0007"

KEY_MAX = 200  # names.KEY_MAX when this revision was written


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("name_skeleton", sa.String(KEY_MAX), nullable=True))
        batch.add_column(sa.Column("name_skeleton_folded", sa.String(KEY_MAX), nullable=True))
        batch.add_column(sa.Column("skeleton_twin", sa.Integer, nullable=False,
                                   server_default="0"))
    rekey_players(op.get_bind())
    with op.batch_alter_table("players") as batch:
        for column in ("name_skeleton", "name_skeleton_folded"):
            batch.alter_column(column, existing_type=sa.String(KEY_MAX), nullable=False)
    for column in ("name_skeleton", "name_skeleton_folded"):
        op.create_index(f"ix_players_{column}", "players", [column, "skeleton_twin"],
                        unique=True)


def downgrade() -> None:
    for column in ("name_skeleton", "name_skeleton_folded"):
        op.drop_index(f"ix_players_{column}", "players")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("skeleton_twin")
        batch.drop_column("name_skeleton_folded")
        batch.drop_column("name_skeleton")
