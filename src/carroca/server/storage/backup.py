"""Backups of the server's database, taken while the server runs (`carroca backup`), and their
restoration (`carroca restore`, the server stopped).

- **SQLite**: SQLite's online backup API (`sqlite3.Connection.backup`), in one step: one read
  transaction copies every page, so the copy is the database at one instant, every commit
  before it and none after, while the server goes on writing (WAL mode lets both run). The
  backup is a SQLite file itself: `sqlite3 carroca-backup.db` opens it.
- **PostgreSQL**: `pg_dump --format=custom` (a consistent snapshot too: one repeatable-read
  transaction), restored by `pg_restore --clean`. The client programs must be there (Debian's
  `postgresql-client`), as new as the server.

A restore replaces what the target database holds; an unfinished match in it resumes when the
server starts, from the last move the backup holds.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import sqlite3
import subprocess
from dataclasses import dataclass
from pathlib import Path

import sqlalchemy as sa

from carroca.server.storage.db import normalize_url


class BackupError(Exception):
    """A backup or restore that could not be done, with what to do about it."""


@dataclass(frozen=True)
class Backup:
    path: Path
    kind: str  # "sqlite" or "postgresql"
    bytes: int
    matches: int | None  # rows of `matches` in the copy (SQLite: counted in it)


def sqlite_path(url: str) -> Path | None:
    """The file of a SQLite URL (None for another database)."""
    parsed = sa.engine.make_url(normalize_url(url))
    if parsed.get_backend_name() != "sqlite":
        return None
    if not parsed.database or parsed.database == ":memory:":
        raise BackupError("a database in memory has nothing to back up")
    return Path(parsed.database)


def backup(url: str, dest: Path) -> Backup:
    """Copy the database at `url` to `dest` (a new file)."""
    if dest.exists():
        raise BackupError(f"{dest} exists already: choose a new file for the backup")
    path = sqlite_path(url)
    if path is None:
        _pg_dump(url, dest)
        return Backup(dest, "postgresql", dest.stat().st_size, None)
    if not path.exists():
        raise BackupError(f"no database at {path}")
    partial = dest.with_name(dest.name + ".partial")
    try:
        with contextlib.closing(sqlite3.connect(path)) as src, \
                contextlib.closing(sqlite3.connect(partial)) as out:
            src.execute("PRAGMA busy_timeout=5000")
            src.backup(out, pages=-1)  # one step: one snapshot
            out.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
            check = out.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise BackupError(f"the copy does not check out: {check}")
            matches = _count_matches(out)
        partial.rename(dest)
    finally:
        partial.unlink(missing_ok=True)
    return Backup(dest, "sqlite", dest.stat().st_size, matches)


def restore(source: Path, url: str, force: bool = False) -> Backup:
    """Replace the database at `url` by the backup `source`. Stop the server first: a server
    running on the database would go on from what it holds in memory."""
    if not source.exists():
        raise BackupError(f"no backup at {source}")
    path = sqlite_path(url)
    if path is None:
        if not force:
            raise BackupError("a restore replaces everything in the database: add --force")
        _pg_restore(source, url)
        return Backup(source, "postgresql", source.stat().st_size, None)
    with contextlib.closing(sqlite3.connect(f"file:{source}?mode=ro", uri=True)) as src:
        try:
            check = src.execute("PRAGMA quick_check").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            raise BackupError(f"{source} is not a SQLite backup: {exc}") from exc
        if check != "ok":
            raise BackupError(f"{source} does not check out: {check}")
        matches = _count_matches(src)
    if path.exists() and path.stat().st_size > 0 and not force:
        raise BackupError(f"{path} holds a database: add --force to replace it")
    # A copy beside it, then one rename: the database is the old one or the backup, never a
    # mix; the old one's write-ahead log goes with it (it belongs to the replaced file).
    partial = path.with_name(path.name + ".restoring")
    try:
        shutil.copyfile(source, partial)
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
    for leftover in (path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        leftover.unlink(missing_ok=True)
    return Backup(source, "sqlite", source.stat().st_size, matches)


def _count_matches(conn: sqlite3.Connection) -> int | None:
    try:
        return int(conn.execute("SELECT count(*) FROM matches").fetchone()[0])
    except sqlite3.DatabaseError:
        return None  # not a carroca database (yet): copied all the same


def _client(program: str) -> str:
    """pg_dump or pg_restore: on PATH, else Debian's newest under /usr/lib/postgresql."""
    found = shutil.which(program)
    if found:
        return found
    for candidate in sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{program}"), reverse=True):
        if os.access(candidate, os.X_OK):
            return candidate
    raise BackupError(f"{program} is not installed: apt-get install postgresql-client")


def _libpq_url(url: str) -> str:
    """The URL as libpq reads it (no SQLAlchemy driver name)."""
    parsed = sa.engine.make_url(normalize_url(url)).set(drivername="postgresql")
    return parsed.render_as_string(hide_password=False)


def _run(args: list[str]) -> None:
    done = subprocess.run(args, capture_output=True, text=True, check=False)
    if done.returncode:
        lines = done.stderr.strip().splitlines()
        raise BackupError(f"{Path(args[0]).name} failed: {lines[-1] if lines else done.returncode}")


def _pg_dump(url: str, dest: Path) -> None:
    partial = dest.with_name(dest.name + ".partial")
    try:
        _run([_client("pg_dump"), "--format=custom", "--no-owner", "--no-privileges",
              f"--file={partial}", f"--dbname={_libpq_url(url)}"])
        partial.rename(dest)
    finally:
        partial.unlink(missing_ok=True)


def _pg_restore(source: Path, url: str) -> None:
    _run([_client("pg_restore"), "--clean", "--if-exists", "--no-owner", "--no-privileges",
          "--single-transaction", f"--dbname={_libpq_url(url)}", str(source)])
