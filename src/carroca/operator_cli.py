"""The operator's commands of `carroca`: `backup` and `restore` of the server's database, and
`admin` (players, roles, closed accounts, announcements, live counts). They work on the
database the server is configured with (`--database`, else `CARROCA_DATABASE`, else the
default SQLite file)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, TypeVar

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

T = TypeVar("T")

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


# ---------------------------------------------------------------------- carroca admin

admin = typer.Typer(
    help="The operator's work on the server's database: players, roles, closed accounts, "
         "live counts. Works while the servers run (SQLite or PostgreSQL).",
    no_args_is_help=True)
moderator = typer.Typer(help="Who moderates: add, remove, list.", no_args_is_help=True)
admin.add_typer(moderator, name="moderator")


def _admin(database: str | None) -> Any:
    """A transaction on the database (migrated first, as a server's start would)."""
    from carroca.server.storage import db

    url = database_url(database)
    try:
        db.migrate(url)
        return db.make_engine(url)
    except Exception as exc:  # unreachable, wrong password, not a database
        fail(f"cannot open the database: {exc}")


def _do(database: str | None, fn: Callable[[Connection], T]) -> T:
    from carroca.server.storage.admin import AdminError

    engine = _admin(database)
    try:
        with engine.begin() as conn:
            return fn(conn)
    except AdminError as exc:
        fail(str(exc))
    finally:
        engine.dispose()


def _when(at: float | None) -> str:
    return "" if at is None else time.strftime("%Y-%m-%d %H:%M", time.localtime(at))


def _show(lines: list[Any]) -> None:
    table = Table("id", "nickname", "kind", "created", "roles", "rated games", "closed")
    for p in lines:
        closed = f"{_when(p.closed_at)} ({p.closed_reason})" if p.closed_at else ""
        table.add_row(str(p.id), escape(p.name), p.kind, _when(p.created_at),
                      ", ".join(p.roles), str(p.rated_games), escape(closed))
    Console(highlight=False).print(table)


@admin.command("players")
def players_command(
    find: Annotated[str, typer.Argument(help="Part of a nickname (empty: every player).")] = "",
    limit: Annotated[int, typer.Option(min=1, max=10_000)] = 50,
    database: DatabaseOption = None,
) -> None:
    """Find players by nickname: their roles, ranked games and whether they are closed."""
    from carroca.server.storage.admin import find_players

    _show(_do(database, lambda conn: find_players(conn, find, limit)))


@moderator.command("add")
def moderator_add(name: str, database: DatabaseOption = None) -> None:
    """Make a player a moderator."""
    from carroca.server.storage.admin import grant

    done = _do(database, lambda conn: grant(conn, name, "moderator"))
    print(f"{name}: {'now a moderator' if done else 'a moderator already'}")


@moderator.command("remove")
def moderator_remove(name: str, database: DatabaseOption = None) -> None:
    """A player moderates no more."""
    from carroca.server.storage.admin import revoke

    done = _do(database, lambda conn: revoke(conn, name, "moderator"))
    print(f"{name}: {'no longer a moderator' if done else 'was not a moderator'}")


@moderator.command("list")
def moderator_list(database: DatabaseOption = None) -> None:
    """Every moderator."""
    from carroca.server.storage.admin import with_role

    _show(_do(database, lambda conn: with_role(conn, "moderator")))


@admin.command("close")
def close_command(
    name: str,
    reason: Annotated[str, typer.Option(help="Why (kept with the account).")],
    database: DatabaseOption = None,
) -> None:
    """Close an account: it cannot sign in, and its sessions and known devices are dropped."""
    from carroca.server.storage.admin import close

    dropped = _do(database, lambda conn: close(conn, name, reason))
    print(f"{name}: closed ({dropped} sessions ended)")


@admin.command("reopen")
def reopen_command(name: str, database: DatabaseOption = None) -> None:
    """Reopen a closed account (its owner signs in again)."""
    from carroca.server.storage.admin import reopen

    done = _do(database, lambda conn: reopen(conn, name))
    print(f"{name}: {'reopened' if done else 'was not closed'}")


def _ago(at: float | None) -> str:
    if at is None:
        return "-"
    seconds = max(0, int(time.time() - at))
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}" if seconds >= 3600 \
        else f"{seconds // 60}m{seconds % 60:02d}"


@admin.command("sanctions")
def sanctions_command(name: str, database: DatabaseOption = None) -> None:
    """A player's sanctions (moderators' and the server's own), newest first."""
    from carroca.server.moderation import rows
    from carroca.server.storage.admin import player_id

    found = _do(database, lambda conn: rows.sanctions_of(conn, player_id(conn, name)))
    table = Table("id", "kind", "reason", "since", "until", "lifted")
    for x in found:
        table.add_row(str(x["id"]), x["kind"], escape(x["reason"]), _when(x["created_at"]),
                      _when(x["until"]), _when(x["lifted_at"]))
    Console(highlight=False).print(table)


@admin.command("lift")
def lift_command(
    sanction: int,
    reason: Annotated[str, typer.Option(help="Why (in the moderators' audit log).")],
    database: DatabaseOption = None,
) -> None:
    """End a sanction, a moderator's included (which only the operator may); the nodes drop it
    within seconds."""
    from carroca.server.moderation import rows
    from carroca.server.storage.admin import AdminError

    def fn(conn: Connection) -> str:
        found = rows.sanction(conn, sanction)
        if found is None or found["lifted_at"] is not None:
            raise AdminError(f"no sanction {sanction} in force")
        if not reason.strip():
            raise AdminError("say why (--reason): it goes to the audit log")
        rows.lift(conn, sanction, None)
        if found["kind"] == "close":
            from carroca.server.storage import db

            conn.execute(db.players.update().where(db.players.c.id == found["player_id"])
                         .values(closed_at=None, closed_reason=None))
        rows.write_log(conn, None, "lift", int(found["player_id"]),
                       f"administração: {reason.strip()}", found["report_id"], sanction)
        return str(found["kind"])

    print(f"sanction {sanction} ({_do(database, fn)}): lifted")


@admin.command("tables")
def tables_command(
    stale: Annotated[float, typer.Option(min=0, help="Only tables with no move for this many "
                                         "seconds.")] = 0,
    limit: Annotated[int, typer.Option(min=1, max=10_000)] = 50,
    database: DatabaseOption = None,
) -> None:
    """Tables waiting or in play, the quietest first: a stuck one is at the top."""
    from carroca.server.storage.admin import live_tables

    lines = _do(database, lambda conn: live_tables(conn, limit, stale))
    table = Table()
    table.add_column("id", no_wrap=True)  # what `end` takes: never cut
    for name in ("mode", "ruleset", "status", "players", "moves", "quiet for", "node"):
        table.add_column(name, overflow="fold")
    for t in lines:
        node = "" if t.owner is None else f"{t.owner}{'' if t.owner_alive else ' (down)'}"
        table.add_row(t.id, t.mode, t.ruleset, t.status, escape("\n".join(t.players)),
                      str(t.moves), _ago(t.last_move_at or t.created_at), escape(node))
    Console(highlight=False).print(table)


@admin.command("end")
def end_command(
    table_id: Annotated[str, typer.Argument(metavar="TABLE", help="The table's id (see "
                                            "`carroca admin tables`).")],
    reason: Annotated[str, typer.Option(help="Why, in pt-BR: its players read it.")],
    database: DatabaseOption = None,
) -> None:
    """End a stuck table, unfinished: no result, no rating change, its moves kept. Its
    players are told why within seconds, on whichever node runs it. A tournament's table is
    refused (its event decides its games)."""
    from carroca.server.storage.admin import end_table

    was = _do(database, lambda conn: end_table(conn, table_id, reason))
    print(f"{table_id}: ended (it was {was})")


@admin.command("announce")
def announce_command(
    text: Annotated[str, typer.Argument(help="The message, in pt-BR (280 characters).")] = "",
    hours: Annotated[float | None, typer.Option(min=0.01, help="Shown this long "
                                                "(default: until --clear).")] = None,
    clear: Annotated[bool, typer.Option("--clear", help="Take the message down.")] = False,
    database: DatabaseOption = None,
) -> None:
    """A message for every player, in the lobby and at tables, within seconds on every node."""
    from carroca.server.storage.admin import announce, clear_announcements

    if clear:
        if text:
            fail("--clear takes no message")
        ended = _do(database, clear_announcements)
        print("announcement taken down" if ended else "no announcement was up")
        return
    number = _do(database, lambda conn: announce(conn, text, hours))
    print(f"announcement {number} up" + (f" for {hours:g} h" if hours else " until --clear"))


@admin.command("status")
def status_command(
    database: DatabaseOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object.")] = False,
) -> None:
    """Live counts: matches, players and events by state, the nodes whose lease is alive."""
    from carroca.server.storage.admin import counts

    figures = _do(database, counts)
    if as_json:
        print(json.dumps(figures, sort_keys=True))
        return
    for group, values in figures.items():
        shown = ", ".join(f"{k} {v}" for k, v in sorted(values.items())) or "none"
        print(f"{group}: {shown}")
