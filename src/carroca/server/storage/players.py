"""The players' rows: accounts, guests, sessions, devices, ratings, profiles and leaderboards."""

from __future__ import annotations

import time
from typing import cast

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection

from carroca.server.records import Player, PlayerKind
from carroca.server.storage import db
from carroca.server.storage.friends import forget_links
from carroca.server.storage.names import lookalike_keys
from carroca.server.storage.plumbing import (
    NameTaken,
    Storage,
    history_row,
    token_hash,
)
from carroca.server.storage.rows import (
    LeaderLine,
    PlayerRow,
    Profile,
    ProfileRating,
    RatingRow,
    SessionRow,
)


class PlayerRows(Storage):
    # ------------------------------------------------------------------ players and sessions

    async def create_player(
        self, name: str, kind: PlayerKind, password_hash: str | None = None,
        guest_key_hash: str | None = None,
    ) -> Player:
        """A new player; `NameTaken` when another has the name (compared case-insensitively) or
        one that looks like it (`names.lookalike_keys`). The unique indexes decide between two
        sign-ups racing for a name: the loser inserts nothing."""

        def fn(conn: Connection) -> Player | NameTaken:
            key, (typed, folded) = name.casefold(), lookalike_keys(name)
            p = db.players.c
            held = conn.execute(
                sa.select(p.name_key).where(sa.or_(p.name_key == key, p.name_skeleton == typed,
                                                   p.name_skeleton_folded == folded))
            ).scalars().all()
            if held:  # an answer, not a failure: the transaction must not count as one
                return NameTaken(lookalike=key not in held)
            insert = (pg_insert if self.postgres else sqlite_insert)(db.players)
            pid = conn.execute(
                insert.values(
                    name=name, name_key=key, name_skeleton=typed,
                    name_skeleton_folded=folded, kind=kind,
                    password_hash=password_hash, created_at=time.time(),
                    guest_key_hash=guest_key_hash,
                ).on_conflict_do_nothing().returning(p.id)
            ).scalar()
            if pid is None:
                return NameTaken(lookalike=False)
            return {"id": pid, "name": name, "kind": kind}

        made = await self.run_side(fn)
        if isinstance(made, NameTaken):
            raise made
        return made

    async def player_by_name(self, name: str) -> PlayerRow | None:
        def fn(conn: Connection) -> PlayerRow | None:
            row = conn.execute(
                sa.select(db.players).where(db.players.c.name_key == name.casefold())
            ).mappings().first()
            return cast(PlayerRow, dict(row)) if row else None

        return await self.run_side(fn)

    async def set_password(self, player_id: int, password_hash: str) -> None:
        def fn(conn: Connection) -> None:
            conn.execute(
                db.players.update().where(db.players.c.id == player_id)
                .values(password_hash=password_hash, kind="account", guest_key_hash=None)
            )

        await self.run_side(fn)

    async def create_session(self, token: str, player_id: int, ttl: float) -> None:
        await self._keep_token(db.sessions, token, player_id, ttl)

    async def _keep_token(self, table: sa.Table, token: str, player_id: int,
                          ttl: float) -> None:
        """Keep a cookie given to a player (by its sha256) in `table` for `ttl` seconds."""
        now = time.time()

        def fn(conn: Connection) -> None:
            conn.execute(table.insert().values(
                token_hash=token_hash(token), player_id=player_id, created_at=now,
                expires_at=now + ttl,
            ))

        await self.run_side(fn)

    async def session_player(self, token: str) -> SessionRow | None:
        def fn(conn: Connection) -> SessionRow | None:
            row = conn.execute(
                sa.select(db.players.c.id, db.players.c.name, db.players.c.kind,
                          db.sessions.c.expires_at)
                .join(db.sessions, db.sessions.c.player_id == db.players.c.id)
                .where(db.sessions.c.token_hash == token_hash(token))
                .where(db.sessions.c.expires_at > time.time())
                .where(db.players.c.closed_at.is_(None))
            ).mappings().first()
            return cast(SessionRow, dict(row)) if row else None

        return await self.run_side(fn)

    async def closed_since(self, since: float) -> tuple[set[int], float]:
        """Players closed after `since` (an operator's `carroca admin close`), and the time to
        ask from next."""
        def fn(conn: Connection) -> tuple[set[int], float]:
            rows = conn.execute(sa.select(db.players.c.id, db.players.c.closed_at)
                                .where(db.players.c.closed_at > since)).all()
            return {r.id for r in rows}, max([since, *(r.closed_at for r in rows)])

        return await self.run_side(fn, track=False)  # polled: see `run`

    async def current_announcement(self) -> tuple[int, str] | None:
        """The operator's message shown now (`carroca admin announce`): (id, text)."""
        def fn(conn: Connection) -> tuple[int, str] | None:
            a = db.announcements
            row = conn.execute(
                sa.select(a.c.id, a.c.text)
                .where(sa.or_(a.c.expires_at.is_(None), a.c.expires_at > time.time()))
                .order_by(a.c.id.desc()).limit(1)).first()
            return (int(row.id), str(row.text)) if row else None

        return await self.run_side(fn, track=False)  # polled: see `run`

    async def add_device(self, token: str, player_id: int, ttl: float) -> None:
        await self._keep_token(db.devices, token, player_id, ttl)

    async def device_player(self, token: str) -> int | None:
        """The account a device cookie was given to, while it lasts."""

        def fn(conn: Connection) -> int | None:
            found = conn.execute(
                sa.select(db.devices.c.player_id)
                .where(db.devices.c.token_hash == token_hash(token))
                .where(db.devices.c.expires_at > time.time())
            ).scalar()
            return int(found) if found is not None else None

        return await self.run_side(fn)

    async def forget_guest(self, player_id: int) -> list[str]:
        """A guest who forgot their device: their key no longer signs in and every session of
        theirs ends, in one transaction. Returns the ended sessions' token hashes."""

        def fn(conn: Connection) -> list[str]:
            p, s = db.players.c, db.sessions.c
            guest = conn.execute(db.players.update().where(p.id == player_id)
                                 .where(p.kind == "guest").values(guest_key_hash=None))
            ended = [r[0] for r in conn.execute(
                sa.select(s.token_hash).where(s.player_id == player_id))]
            conn.execute(db.sessions.delete().where(s.player_id == player_id))
            if guest.rowcount:  # a guest's friends last while their key does
                forget_links(conn, [player_id])
            return ended

        return await self.run_side(fn)

    async def delete_session(self, token: str) -> None:
        def fn(conn: Connection) -> None:
            conn.execute(db.sessions.delete().where(db.sessions.c.token_hash == token_hash(token)))

        await self.run_side(fn)

    # ------------------------------------------------------------------ ratings and history

    async def ratings_of(self, player_ids: list[int], family: str) -> dict[int, RatingRow]:
        def fn(conn: Connection) -> dict[int, RatingRow]:
            rows = conn.execute(
                sa.select(db.ratings).where(db.ratings.c.player_id.in_(player_ids))
                .where(db.ratings.c.family == family)
            ).mappings()
            return {r["player_id"]: cast(RatingRow, dict(r)) for r in rows}

        return await self.run_side(fn)

    async def player_profile(self, name: str, history: int = 20, viewer: int | None = None
                             ) -> Profile | None:
        """A player's ratings and last matches; a private match among them only when `viewer`
        (the asking player's id) played it too."""

        def fn(conn: Connection) -> Profile | None:
            p = conn.execute(
                sa.select(db.players.c.id, db.players.c.name, db.players.c.kind,
                          db.players.c.created_at)
                .where(db.players.c.name_key == name.casefold())
            ).mappings().first()
            if p is None:
                return None
            rates = conn.execute(
                sa.select(db.ratings).where(db.ratings.c.player_id == p["id"])
            ).mappings()
            m, pt = db.matches.c, db.participants.c
            shown = sa.not_(m.private)
            if viewer is not None:
                shown = sa.or_(shown, m.id.in_(sa.select(pt.match_id)
                                               .where(pt.player_id == viewer)))
            games = conn.execute(
                sa.select(m.id, m.mode, m.ruleset, m.result, m.score, m.finished_at, pt.seat,
                          pt.rating_before, pt.rating_after, m.private, m.host_id)
                .join(db.participants, pt.match_id == m.id)
                .where(pt.player_id == p["id"]).where(shown)
                .order_by(m.finished_at.desc()).limit(history)
            ).mappings()
            return {
                "name": p["name"],
                "kind": p["kind"],
                "ratings": {
                    r["family"]: ProfileRating(mu=r["mu"], sigma=r["sigma"], rating=r["ordinal"],
                                               games=r["games"], wins=r["wins"])
                    for r in rates
                },
                "history": [history_row(dict(g), p["id"]) for g in games],
            }

        return await self.run_side(fn)

    async def leaderboard(self, family: str, limit: int = 50) -> list[LeaderLine]:
        def fn(conn: Connection) -> list[LeaderLine]:
            r = db.ratings.c
            rows = conn.execute(
                sa.select(db.players.c.name, r.mu, r.sigma, r.ordinal, r.games, r.wins)
                .join(db.players, db.players.c.id == r.player_id)
                .where(r.family == family)
                .order_by(r.ordinal.desc()).limit(limit)
            ).mappings()
            return [
                LeaderLine(name=x["name"], rating=round(x["ordinal"], 2), mu=x["mu"],
                           sigma=x["sigma"], games=x["games"], wins=x["wins"])
                for x in rows
            ]

        return await self.run_side(fn)
