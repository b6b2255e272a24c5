"""Alembic environment: the URL comes from the server's settings, never from a file."""

from __future__ import annotations

from alembic import context

from carroca.server.storage.db import make_engine, metadata

config = context.config
url = config.get_main_option("sqlalchemy.url")
if url is None:
    raise RuntimeError("no database URL given to the migrations")

engine = make_engine(url)
with engine.connect() as connection:
    context.configure(connection=connection, target_metadata=metadata)
    with context.begin_transaction():
        context.run_migrations()
engine.dispose()
