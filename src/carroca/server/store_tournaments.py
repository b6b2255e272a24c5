"""The tournaments' rows: events, entries, and the match that plays each game.

An event's state lives in two columns: `record`, the event record as it stands (without the
seed while the event runs), and `seed`, kept apart. The record names each played game's match
by its id (`record_id`): the match record itself is in the match's row, and is embedded only in
the record a reader downloads. The record is written again at every change but a game's result
(registrations, the start, each pairing, forfeits, withdrawals, the end), in the transaction
that makes the change; a result alone is not written, since the match's row holds it: a restart
rebuilds the event from the record and records again the results of the matches over since
(`Tournaments.resume`). So an event of N games is written about once per round, not N times.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from carroca.server import db
from carroca.server.storage import Storage

GameKey = tuple[int, int, int]


class TournamentRows(Storage):
    async def insert_tournament(self, row: dict[str, Any]) -> None:
        await self.run(lambda conn: conn.execute(db.tournaments.insert().values(**row)))

    async def update_tournament(self, tournament_id: str, **fields: Any) -> None:
        await self.run(lambda conn: conn.execute(
            db.tournaments.update().where(db.tournaments.c.id == tournament_id).values(**fields)))

    async def get_tournament(self, tournament_id: str) -> dict[str, Any] | None:
        def fn(conn: Connection) -> dict[str, Any] | None:
            row = conn.execute(sa.select(db.tournaments)
                               .where(db.tournaments.c.id == tournament_id)).mappings().first()
            return dict(row) if row else None

        return await self.run_side(fn)

    async def tournaments(self, statuses: tuple[str, ...]) -> list[dict[str, Any]]:
        """Events in these states, with everything a restart needs to run them again."""

        def fn(conn: Connection) -> list[dict[str, Any]]:
            t = db.tournaments.c
            rows = conn.execute(sa.select(db.tournaments).where(t.status.in_(statuses))
                                .order_by(t.starts_at)).mappings().all()
            return [dict(r) for r in rows]

        return await self.run(fn)

    async def finished_tournaments(self, limit: int) -> list[dict[str, Any]]:
        """The latest events over, public ones only, without their records."""

        def fn(conn: Connection) -> list[dict[str, Any]]:
            t = db.tournaments.c
            cols = [c for c in db.tournaments.c if c.name not in ("record", "seed", "invite")]
            rows = conn.execute(sa.select(*cols).where(t.status.in_(("finished", "cancelled")))
                                .where(t.private == sa.false())
                                .order_by(t.finished_at.desc()).limit(limit)).mappings().all()
            return [dict(r) for r in rows]

        return await self.run_side(fn)

    async def tournament_by_invite(self, invite: str) -> str | None:
        def fn(conn: Connection) -> str | None:
            found = conn.execute(sa.select(db.tournaments.c.id)
                                 .where(db.tournaments.c.invite == invite)).scalar()
            return None if found is None else str(found)

        return await self.run_side(fn)

    # ------------------------------------------------------------------ entries

    async def entries(self, tournament_id: str) -> list[dict[str, Any]]:
        def fn(conn: Connection) -> list[dict[str, Any]]:
            e = db.tournament_entries.c
            rows = conn.execute(sa.select(db.tournament_entries)
                                .where(e.tournament_id == tournament_id)
                                .order_by(e.created_at)).mappings().all()
            return [dict(r) for r in rows]

        return await self.run(fn)

    async def save_entry(self, entry: dict[str, Any], record: str,
                         replaces: str | None = None) -> None:
        """A registration (or a dupla completed: `replaces` its pending entry), with the event
        record that holds it, in one transaction."""

        def fn(conn: Connection) -> None:
            e = db.tournament_entries.c
            if replaces is not None:
                conn.execute(db.tournament_entries.delete()
                             .where(e.tournament_id == entry["tournament_id"])
                             .where(e.entrant == replaces))
            conn.execute(db.tournament_entries.insert().values(**entry))
            _set_record(conn, entry["tournament_id"], record)

        await self.run(fn)

    async def save_entries(self, entries: list[dict[str, Any]], record: str) -> None:
        """Several registrations (an event's bots) and the record that holds them, at once."""

        def fn(conn: Connection) -> None:
            if entries:
                conn.execute(db.tournament_entries.insert(), entries)
                _set_record(conn, entries[0]["tournament_id"], record)

        await self.run(fn)

    async def delete_entry(self, tournament_id: str, entrant: str, record: str) -> None:
        def fn(conn: Connection) -> None:
            e = db.tournament_entries.c
            conn.execute(db.tournament_entries.delete().where(e.tournament_id == tournament_id)
                         .where(e.entrant == entrant))
            _set_record(conn, tournament_id, record)

        await self.run(fn)

    # ------------------------------------------------------------------ games

    async def tournament_games(self, tournament_id: str) -> dict[GameKey, str]:
        """The match of each game of an event, by its key."""

        def fn(conn: Connection) -> dict[GameKey, str]:
            g = db.tournament_games.c
            rows = conn.execute(sa.select(g.round, g.table_no, g.game, g.match_id)
                                .where(g.tournament_id == tournament_id)).all()
            return {(r[0], r[1], r[2]): str(r[3]) for r in rows}

        return await self.run(fn)

    async def match_records(self, match_ids: list[str]) -> dict[str, str]:
        """The stored records (JSON text) of these matches, those that have one, by id."""

        def fn(conn: Connection) -> dict[str, str]:
            m = db.matches.c
            found: dict[str, str] = {}
            for i in range(0, len(match_ids), 500):
                rows = conn.execute(sa.select(m.id, m.record).where(
                    m.id.in_(match_ids[i:i + 500])).where(m.record.is_not(None))).all()
                found.update((str(r[0]), str(r[1])) for r in rows)
            return found

        return await self.run_side(fn)

    async def match_with_seed(self, client_seed: str) -> str | None:
        """The match whose client seed is this one: an event's game has its own (`<event
        id>:r.t.g`), so its match is found even if the server stopped before naming it."""

        def fn(conn: Connection) -> str | None:
            found = conn.execute(sa.select(db.matches.c.id)
                                 .where(db.matches.c.client_seed == client_seed)).scalar()
            return None if found is None else str(found)

        return await self.run(fn)

    async def add_tournament_game(self, tournament_id: str, key: GameKey, match_id: str) -> None:
        await self.run(lambda conn: conn.execute(db.tournament_games.insert().values(
            tournament_id=tournament_id, round=key[0], table_no=key[1], game=key[2],
            match_id=match_id)))


def _set_record(conn: Connection, tournament_id: str, record: str) -> None:
    conn.execute(db.tournaments.update().where(db.tournaments.c.id == tournament_id)
                 .values(record=record))
