"""The operator's commands of `carroca`: `backup` and `restore` of the server's database (and,
beside them, `admin`). They work on the database the server is configured with
(`--database`, else `CARROCA_DATABASE`, else the default SQLite file)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console
from rich.markup import escape

DatabaseOption = Annotated[
    str | None,
    typer.Option(help="The server's database (CARROCA_DATABASE; default sqlite:///carroca.db)."),
]


def fail(message: str, code: int = 1) -> NoReturn:
    Console(stderr=True, highlight=False, soft_wrap=True).print(
        f"[bold red]error:[/] {escape(message)}", markup=True)
    raise typer.Exit(code)


def database_url(database: str | None) -> str:
    from carroca.server.settings import Settings

    return database or Settings.from_env().database


def backup_command(
    dest: Annotated[Path, typer.Argument(help="The backup file to write (a new file).")],
    database: DatabaseOption = None,
) -> None:
    """Back up the server's database while it runs: a consistent copy of one instant (SQLite's
    online backup; pg_dump for PostgreSQL)."""
    from carroca.server.storage.backup import BackupError, backup

    try:
        made = backup(database_url(database), dest)
    except BackupError as exc:
        fail(str(exc))
    held = "" if made.matches is None else f", {made.matches} matches"
    print(f"backup: {made.path} ({made.kind}, {made.bytes:,} bytes{held})")


def restore_command(
    source: Annotated[Path, typer.Argument(help="A backup written by `carroca backup`.")],
    database: DatabaseOption = None,
    force: Annotated[bool, typer.Option(help="Replace a database that holds data.")] = False,
) -> None:
    """Replace the server's database by a backup. Stop the server first; once started again,
    its unfinished matches resume from the last move the backup holds."""
    from carroca.server.storage.backup import BackupError, restore

    try:
        made = restore(source, database_url(database), force=force)
    except BackupError as exc:
        fail(str(exc))
    held = "" if made.matches is None else f" ({made.matches} matches)"
    print(f"restored: {made.path}{held} into {database_url(database).split('@')[-1]}")
