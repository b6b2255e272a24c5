"""What `carroca admin` reads and writes, straight on the database the servers use (SQLite or
PostgreSQL): players found and listed, roles, closed accounts, and the live counts. Every
function takes a connection in a transaction (`engine.begin()`); nothing here needs a running
server, and whatever a server holds in memory follows within seconds (a closed account's
sessions stop at the next lookup, as a session cache entry expires)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from carroca.server.storage import db

#: The roles an operator may grant. A moderator will see the moderation page.
ROLES = ("moderator",)


class AdminError(Exception):
    """A request the database cannot do (an unknown player, a role not granted…)."""


@dataclass(frozen=True)
class PlayerLine:
    id: int
    name: str
    kind: str
    created_at: float
    closed_at: float | None
    closed_reason: str | None
    roles: tuple[str, ...]
    rated_games: int  # ranked matches, every ruleset family


def _lines(conn: Connection, where: Any, limit: int) -> list[PlayerLine]:
    p = db.players
    rows = conn.execute(
        sa.select(p.c.id, p.c.name, p.c.kind, p.c.created_at, p.c.closed_at, p.c.closed_reason)
        .where(where).order_by(p.c.id).limit(limit)
    ).all()
    ids = [r.id for r in rows]
    roles: dict[int, list[str]] = {}
    for pid, role in conn.execute(sa.select(db.player_roles.c.player_id, db.player_roles.c.role)
                                  .where(db.player_roles.c.player_id.in_(ids))):
        roles.setdefault(pid, []).append(role)
    played = dict(conn.execute(
        sa.select(db.ratings.c.player_id, sa.func.sum(db.ratings.c.games))
        .where(db.ratings.c.player_id.in_(ids)).group_by(db.ratings.c.player_id)
    ).all())
    return [PlayerLine(r.id, r.name, r.kind, r.created_at, r.closed_at, r.closed_reason,
                       tuple(sorted(roles.get(r.id, []))), int(played.get(r.id) or 0))
            for r in rows]


def find_players(conn: Connection, text: str = "", limit: int = 50) -> list[PlayerLine]:
    """Players whose nickname contains `text` (case folded), oldest first."""
    where = db.players.c.name_key.contains(text.casefold(), autoescape=True) if text \
        else sa.true()
    return _lines(conn, where, limit)


def with_role(conn: Connection, role: str) -> list[PlayerLine]:
    holders = sa.select(db.player_roles.c.player_id).where(db.player_roles.c.role == role)
    return _lines(conn, db.players.c.id.in_(holders), 10_000)


def player_id(conn: Connection, name: str) -> int:
    found = conn.execute(sa.select(db.players.c.id)
                         .where(db.players.c.name_key == name.strip().casefold())).scalar()
    if found is None:
        raise AdminError(f"no player named {name!r}")
    return int(found)


def grant(conn: Connection, name: str, role: str) -> bool:
    """Grant `role`; False when it was granted already."""
    if role not in ROLES:
        raise AdminError(f"unknown role {role!r}: {', '.join(ROLES)}")
    pid = player_id(conn, name)
    held = conn.execute(sa.select(db.player_roles.c.role).where(
        db.player_roles.c.player_id == pid, db.player_roles.c.role == role)).first()
    if held is not None:
        return False
    conn.execute(db.player_roles.insert().values(player_id=pid, role=role,
                                                 granted_at=time.time()))
    return True


def revoke(conn: Connection, name: str, role: str) -> bool:
    """Remove `role`; False when it was not granted."""
    pid = player_id(conn, name)
    gone = conn.execute(db.player_roles.delete().where(
        db.player_roles.c.player_id == pid, db.player_roles.c.role == role))
    return bool(gone.rowcount)


def roles_of(conn: Connection, pid: int) -> set[str]:
    return set(conn.execute(sa.select(db.player_roles.c.role)
                            .where(db.player_roles.c.player_id == pid)).scalars())


def close(conn: Connection, name: str, reason: str) -> int:
    """Close an account: no sign-in, and every session and known device of it is dropped
    (its open sockets end when they next sign in). Returns the sessions dropped."""
    if not reason.strip():
        raise AdminError("say why (--reason): the player is told")
    pid = player_id(conn, name)
    conn.execute(db.players.update().where(db.players.c.id == pid)
                 .values(closed_at=time.time(), closed_reason=reason.strip()[:200]))
    dropped = conn.execute(db.sessions.delete().where(db.sessions.c.player_id == pid)).rowcount
    conn.execute(db.devices.delete().where(db.devices.c.player_id == pid))
    return int(dropped or 0)


def reopen(conn: Connection, name: str) -> bool:
    """Reopen a closed account; False when it was not closed."""
    pid = player_id(conn, name)
    done = conn.execute(db.players.update().where(db.players.c.id == pid,
                                                  db.players.c.closed_at.is_not(None))
                        .values(closed_at=None, closed_reason=None))
    return bool(done.rowcount)


@dataclass(frozen=True)
class TableLine:
    id: str
    mode: str
    ruleset: str
    status: str
    players: tuple[str, ...]
    created_at: float
    last_move_at: float | None  # None: no move yet
    moves: int
    owner: str | None  # the node running it, in a cluster (None: a single server's)
    owner_alive: bool


LIVE = ("waiting", "playing")


def live_tables(conn: Connection, limit: int = 100, stale: float = 0.0) -> list[TableLine]:
    """Tables waiting or in play, the quietest first (the longest since their last move, or
    since they were made): a stuck table is at the top. `stale`: only those quiet this many
    seconds."""
    m, mv, n = db.matches.c, db.moves.c, db.nodes.c
    last = sa.select(mv.match_id, sa.func.max(mv.at).label("last"),
                     sa.func.count().label("moves")).group_by(mv.match_id).subquery()
    quiet_since = sa.func.coalesce(last.c.last, m.created_at)
    query = (sa.select(m.id, m.mode, m.ruleset, m.status, m.seats, m.created_at, m.owner,
                       last.c.last, last.c.moves, n.lease_until)
             .select_from(db.matches.outerjoin(last, last.c.match_id == m.id)
                          .outerjoin(db.nodes, n.id == m.owner))
             .where(m.status.in_(LIVE)).order_by(quiet_since, m.id).limit(limit))
    if stale > 0:
        query = query.where(quiet_since <= time.time() - stale)
    now = time.time()
    return [TableLine(r.id, r.mode, r.ruleset, r.status,
                      tuple(s["name"] if s else "-" for s in r.seats), r.created_at, r.last,
                      int(r.moves or 0), r.owner,
                      r.lease_until is not None and r.lease_until > now)
            for r in conn.execute(query)]


def end_table(conn: Connection, match_id: str, reason: str) -> str:
    """End a table waiting or in play, unfinished: no result and no rating change, the moves
    kept; its players are told why. The node running it closes it within seconds
    (`tables.ending`), and its epoch is raised so that no write of that node lands after this
    one. A tournament's table is refused: its event decides its games. Returns the status it
    had."""
    reason = " ".join(reason.split())
    if not reason:
        raise AdminError("say why (--reason): the players are told")
    m = db.matches.c
    row = conn.execute(sa.select(m.status, m.mode).where(m.id == match_id)).first()
    if row is None:
        raise AdminError(f"no table {match_id!r}")
    if row.status not in LIVE:
        raise AdminError(f"table {match_id} is {row.status} already")
    if row.mode == "tournament":
        raise AdminError(f"table {match_id} is a tournament's: its event decides its games")
    now = time.time()
    done = conn.execute(db.matches.update().where(m.id == match_id, m.status == row.status)
                        .values(status="expired", finished_at=now, ended_reason=reason[:200],
                                epoch=m.epoch + 1))
    if not done.rowcount:  # it moved on meanwhile
        raise AdminError(f"table {match_id} changed meanwhile: try again")
    conn.execute(db.table_ends.insert().values(match_id=match_id, reason=reason[:200], at=now))
    return str(row.status)


ANNOUNCEMENT_MAX = 280


def announce(conn: Connection, text: str, hours: float | None) -> int:
    """A message for every player, in the lobby and at tables, until `hours` from now (None:
    until cleared). It replaces the one before."""
    text = " ".join(text.split())
    if not text:
        raise AdminError("an empty announcement: to take one down, use --clear")
    if len(text) > ANNOUNCEMENT_MAX:
        raise AdminError(f"an announcement fits in {ANNOUNCEMENT_MAX} characters, not {len(text)}")
    now = time.time()
    clear_announcements(conn)
    made = conn.execute(db.announcements.insert().values(
        text=text, created_at=now, expires_at=None if hours is None else now + hours * 3600))
    key = made.inserted_primary_key
    assert key is not None  # an insert's
    return int(key[0])


def clear_announcements(conn: Connection) -> int:
    """Every announcement still shown ends now; returns how many."""
    now = time.time()
    done = conn.execute(db.announcements.update().where(
        sa.or_(db.announcements.c.expires_at.is_(None), db.announcements.c.expires_at > now))
        .values(expires_at=now))
    return int(done.rowcount or 0)


def counts(conn: Connection) -> dict[str, dict[str, int]]:
    """Matches, players and events by state, and the nodes whose lease is alive."""
    def by(column: Any) -> dict[str, int]:
        return {str(k): int(n) for k, n in
                conn.execute(sa.select(column, sa.func.count()).group_by(column)).all()}

    now = time.time()
    closed = conn.execute(sa.select(sa.func.count()).where(
        db.players.c.closed_at.is_not(None))).scalar() or 0
    live_nodes = conn.execute(sa.select(sa.func.count()).where(
        db.nodes.c.lease_until > now)).scalar() or 0
    sessions = conn.execute(sa.select(sa.func.count(sa.distinct(db.sessions.c.player_id)))
                            .where(db.sessions.c.expires_at > now)).scalar() or 0
    return {
        "matches": by(db.matches.c.status),
        "players": {**by(db.players.c.kind), "closed": int(closed),
                    "signed_in": int(sessions)},
        "tournaments": by(db.tournaments.c.status),
        "nodes": {"live": int(live_nodes)},
    }
