"""recurring tournaments: the schedule entry and slot an event was made for (one event per
slot, whichever node makes it), a cancelled event's reason, and whether a newcomer made it"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"


def upgrade() -> None:
    op.add_column("tournaments", sa.Column("schedule_key", sa.String(40), nullable=True))
    op.add_column("tournaments", sa.Column("slot", sa.String(40), nullable=True))
    op.add_column("tournaments", sa.Column("note", sa.String(300), nullable=True))
    op.add_column("tournaments", sa.Column("by_newcomer", sa.Boolean, nullable=False,
                                           server_default=sa.false()))
    op.create_index("ux_tournaments_schedule_slot", "tournaments", ["schedule_key", "slot"],
                    unique=True)


def downgrade() -> None:
    op.drop_index("ux_tournaments_schedule_slot", "tournaments")
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("by_newcomer")
        batch.drop_column("note")
        batch.drop_column("slot")
        batch.drop_column("schedule_key")
