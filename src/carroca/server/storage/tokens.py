"""Personal API tokens (`db.api_tokens`) and the bot accounts they serve.

A token is shown once, when made; only its SHA-256 is kept, as for sessions. A player becomes a
bot (`players.kind` "bot") only while nothing of theirs was played: no finished match, no seat
at a live one, checked in the same transaction that changes the kind.
"""

from __future__ import annotations

import time
from typing import Any, Literal, TypedDict

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from carroca.server.records import Player, PlayerKind
from carroca.server.storage import db
from carroca.server.storage.plumbing import Storage, token_hash

#: What asking to become a bot came to: done, not an account (a guest must make one first;
#: closed or deleted: none), too late (they have played), or not now: queued for a people's
#: ranked match or entered in an event as a person (`waiting`).
BotUpgrade = Literal["bot", "not_account", "played", "waiting"]


class TokenRow(TypedDict):
    """A token as its owner sees it listed: never the token itself."""

    id: int
    label: str
    scopes: list[str]
    created_at: float
    used_at: float | None
    revoked_at: float | None


class TokenOwner(TypedDict):
    """Whom a live token speaks for, and what it may do."""

    token_id: int
    player: Player
    scopes: list[str]


T = db.api_tokens.c
P = db.players.c


def _has_played(conn: Connection, player_id: int) -> bool:
    if conn.execute(sa.select(db.participants.c.match_id)
                    .where(db.participants.c.player_id == player_id).limit(1)).first():
        return True
    m = db.matches.c
    for (seats,) in conn.execute(sa.select(m.seats).where(m.status.in_(("waiting", "playing")))):
        if any(isinstance(s, dict) and s.get("player") == player_id for s in seats or []):
            return True
    return False


def _is_waiting(conn: Connection, player_id: int) -> bool:
    """Queued for ranked (the cluster's queue: in the database) or entered in an event not
    over: a person's place that a bot would take."""
    if conn.execute(sa.select(db.ranked_queue.c.player_id)
                    .where(db.ranked_queue.c.player_id == player_id)).first():
        return True
    e, t = db.tournament_entries.c, db.tournaments.c
    for (players,) in conn.execute(
            sa.select(e.players).join(db.tournaments, t.id == e.tournament_id)
            .where(t.status.in_(("upcoming", "running")))):
        if any(isinstance(p, dict) and p.get("id") == player_id for p in players or []):
            return True
    return False


def _row(r: Any) -> TokenRow:
    return {"id": r.id, "label": r.label, "scopes": r.scopes.split(), "created_at": r.created_at,
            "used_at": r.used_at, "revoked_at": r.revoked_at}


def tokens_listed(conn: Connection, player_id: int) -> list[TokenRow]:
    """The player's tokens as they see them listed (their data export too)."""
    return [_row(r) for r in conn.execute(
        sa.select(T.id, T.label, T.scopes, T.created_at, T.used_at, T.revoked_at)
        .where(T.player_id == player_id).order_by(T.id))]


class TokenRows(Storage):
    async def make_bot(self, player_id: int) -> BotUpgrade:
        """The account becomes a bot account, for good (see the module's docstring)."""

        def fn(conn: Connection) -> BotUpgrade:
            kind = conn.execute(sa.select(P.kind).where(P.id == player_id)
                                .where(P.closed_at.is_(None))).scalar()
            if kind == "bot":
                return "bot"
            if kind != "account":
                return "not_account"
            if _has_played(conn, player_id):
                return "played"
            if _is_waiting(conn, player_id):
                return "waiting"
            conn.execute(db.players.update().where(P.id == player_id).values(kind="bot"))
            return "bot"

        return await self.run_side(fn)

    async def add_token(self, player_id: int, token: str, label: str, scopes: list[str],
                        most: int) -> TokenRow | None:
        """A new token (None: the player has `most` live ones already)."""

        def fn(conn: Connection) -> TokenRow | None:
            live = conn.execute(sa.select(sa.func.count()).select_from(db.api_tokens)
                                .where(T.player_id == player_id)
                                .where(T.revoked_at.is_(None))).scalar() or 0
            if live >= most:
                return None
            now = time.time()
            made = conn.execute(db.api_tokens.insert().values(
                player_id=player_id, token_hash=token_hash(token), label=label,
                scopes=" ".join(scopes), created_at=now)).inserted_primary_key
            row: TokenRow = {"id": int(made[0]) if made else 0, "label": label,
                             "scopes": scopes, "created_at": now, "used_at": None,
                             "revoked_at": None}
            return row

        return await self.run_side(fn)

    async def tokens_of(self, player_id: int) -> list[TokenRow]:
        return await self.run_side(lambda conn: tokens_listed(conn, player_id))

    async def revoke_token(self, player_id: int, token_id: int) -> str | None:
        """Revoke one of the player's tokens: its digest (to drop it from caches), or None when
        the player has no such live token."""

        def fn(conn: Connection) -> str | None:
            digest = conn.execute(sa.select(T.token_hash).where(T.id == token_id)
                                  .where(T.player_id == player_id)
                                  .where(T.revoked_at.is_(None))).scalar()
            if digest is None:
                return None
            conn.execute(db.api_tokens.update().where(T.id == token_id)
                         .values(revoked_at=time.time()))
            return str(digest)

        return await self.run_side(fn)

    async def token_live(self, token_id: int) -> bool:
        """The token is not revoked and its player not closed (an open stream asks again)."""

        def fn(conn: Connection) -> bool:
            return conn.execute(
                sa.select(T.id).join(db.players, P.id == T.player_id).where(T.id == token_id)
                .where(T.revoked_at.is_(None)).where(P.closed_at.is_(None))).first() is not None

        return await self.run_side(fn, track=False)

    async def token_owner(self, token: str) -> TokenOwner | None:
        """The player a live token speaks for (not revoked, the player not closed); notes its
        use."""

        def fn(conn: Connection) -> TokenOwner | None:
            row = conn.execute(
                sa.select(T.id, T.scopes, P.id.label("pid"), P.name, P.kind)
                .join(db.players, P.id == T.player_id)
                .where(T.token_hash == token_hash(token)).where(T.revoked_at.is_(None))
                .where(P.closed_at.is_(None))).first()
            if row is None:
                return None
            conn.execute(db.api_tokens.update().where(T.id == row.id)
                         .values(used_at=time.time()))
            kind: PlayerKind = row.kind
            return {"token_id": int(row.id), "scopes": row.scopes.split(),
                    "player": Player(id=int(row.pid), name=str(row.name), kind=kind)}

        return await self.run_side(fn)
