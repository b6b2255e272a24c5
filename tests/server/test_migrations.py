"""The migrations and the schema the code declares (`storage/db.py`) agree: a database brought
to the newest migration has every table, column and index the code uses, and no other."""

from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from carroca.server.storage import db

# `make unit-postgres` runs it again on PostgreSQL.
pytestmark = pytest.mark.postgres


def test_the_newest_migration_is_the_declared_schema(database: str) -> None:
    engine = db.make_engine(database)
    try:
        with engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": False})
            differences = compare_metadata(context, db.metadata)
    finally:
        engine.dispose()
    # Server defaults and nullability are the migrations' to state: tables, columns, indexes.
    kinds = {"add_table", "remove_table", "add_column", "remove_column", "add_index",
             "remove_index"}
    flat = [d for diff in differences for d in (diff if isinstance(diff, list) else [diff])]
    shown = [d for d in flat if isinstance(d, tuple) and d[0] in kinds
             and not (d[0] == "remove_table" and d[1].name == "alembic_version")]
    assert shown == []
