"""The tournaments' rows: events, entries, and the match that plays each game.

An event's state lives in two columns: `record`, the event record as it stands (without the
seed while the event runs), and `seed`, kept apart. The record names each played game's match
by its id (`record_id`): the match record itself is in the match's row, and is embedded only in
the record a reader downloads. The record is written again at every change but a game's result
(registrations, the start, each pairing, forfeits, withdrawals, the end), in the transaction
that makes the change; a result alone is not written, since the match's row holds it: a restart
or a takeover rebuilds the event from the record and records again the results of the matches
over since (`Tournaments.adopt`, `resume_event`). So an event of N games is written about once
per round, not N times.

In a cluster an event has an owner node and an epoch, as a match has (`storage.cluster`): a node
takes the events of dead nodes (`claim_events`, raising the epoch), and each write of the owner
carries the epoch it holds (`epoch=`), refused with `Fenced` once another node took the event.
"""

from __future__ import annotations

from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from carroca.server.storage import db
from carroca.server.storage.plumbing import Fenced, Storage, owner_and_status, take_over
from carroca.server.storage.rows import EndedMatch, EntryPlayer, EntryRow, EventRow, ListedEvent

GameKey = tuple[int, int, int]
LIVE = ("upcoming", "running")
#: The lists of events, each by its own order: its column, and whether the latest come first.
LISTS = {"upcoming": (("upcoming",), "starts_at", False), "live": (("running",), "started_at",
         False), "finished": (("finished", "cancelled"), "finished_at", True)}


class TournamentRows(Storage):
    async def insert_tournament(self, row: EventRow) -> None:
        await self.run(lambda conn: conn.execute(db.tournaments.insert().values(**row)))

    async def update_tournament(self, tournament_id: str, epoch: int | None = None,
                                **fields: Any) -> None:
        """Change an event's row; with `epoch`, only while the event still has it (`Fenced`)."""
        await self.run(lambda conn: _fenced(conn, tournament_id, epoch, **fields))

    async def get_tournament(self, tournament_id: str) -> EventRow | None:
        def fn(conn: Connection) -> EventRow | None:
            row = conn.execute(sa.select(db.tournaments)
                               .where(db.tournaments.c.id == tournament_id)).mappings().first()
            return cast(EventRow, dict(row)) if row else None

        return await self.run_side(fn)

    async def tournaments(self, statuses: tuple[str, ...]) -> list[EventRow]:
        """Events in these states, with everything a restart needs to run them again."""

        def fn(conn: Connection) -> list[EventRow]:
            t = db.tournaments.c
            rows = conn.execute(sa.select(db.tournaments).where(t.status.in_(statuses))
                                .order_by(t.starts_at)).mappings().all()
            return [cast(EventRow, dict(r)) for r in rows]

        return await self.run(fn)

    async def listed_tournaments(self, kind: str, limit: int,
                                 after: tuple[float, str] | None = None
                                 ) -> list[ListedEvent]:
        """A page of public events of one list (`LISTS`), in its order, after the cursor
        (the sort value and id of the last one seen); without their records, each with
        `sizes`: the players of each of its entries (a dupla 2, a solo player 1)."""
        statuses, column, latest_first = LISTS[kind]

        def fn(conn: Connection) -> list[ListedEvent]:
            t, e = db.tournaments.c, db.tournament_entries.c
            key = t[column]
            cols = [c for c in db.tournaments.c if c.name not in ("record", "seed", "invite")]
            query = sa.select(*cols).where(t.status.in_(statuses)).where(t.private == sa.false())
            if after is not None:
                value, last = after
                if latest_first:
                    query = query.where(sa.or_(key < value, sa.and_(key == value, t.id < last)))
                else:
                    query = query.where(sa.or_(key > value, sa.and_(key == value, t.id > last)))
            order = (key.desc(), t.id.desc()) if latest_first else (key, t.id)
            rows = {r["id"]: cast(ListedEvent, {**r, "sizes": []}) for r in conn.execute(
                query.order_by(*order).limit(limit)).mappings()}
            if kind != "finished" and rows:
                for tid, players in conn.execute(sa.select(e.tournament_id, e.players)
                                                 .where(e.tournament_id.in_(list(rows)))):
                    rows[tid]["sizes"].append(len(players))
            return list(rows.values())

        return await self.run_side(fn)

    async def newcomer_tournaments(self) -> int:
        """Upcoming public events made by newcomers, on any node."""
        t = db.tournaments.c
        return int(await self.run_side(lambda conn: conn.execute(
            sa.select(sa.func.count()).where(t.status == "upcoming")
            .where(t.private == sa.false()).where(t.by_newcomer == sa.true())).scalar() or 0))

    async def finished_matches(self, player_id: int, at_least: int) -> int:
        """A player's finished matches, counted up to `at_least` (enough to tell)."""
        pt = db.participants.c

        def fn(conn: Connection) -> int:
            some = sa.select(pt.match_id).where(pt.player_id == player_id).limit(at_least)
            return int(conn.execute(sa.select(sa.func.count()).select_from(some.subquery()))
                       .scalar() or 0)

        return await self.run_side(fn)

    async def insert_scheduled(self, row: EventRow) -> bool:
        """A recurring event's row, unless its slot has one already (made by another node, or
        before a restart): the unique key (schedule_key, slot) decides. True when inserted."""

        def fn(conn: Connection) -> bool:
            insert = postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert
            done = conn.execute(insert(db.tournaments).values(**row).on_conflict_do_nothing(
                index_elements=["schedule_key", "slot"]).returning(db.tournaments.c.id))
            return done.first() is not None

        return await self.run(fn)

    async def tournament_by_invite(self, invite: str) -> str | None:
        def fn(conn: Connection) -> str | None:
            found = conn.execute(sa.select(db.tournaments.c.id)
                                 .where(db.tournaments.c.invite == invite)).scalar()
            return None if found is None else str(found)

        return await self.run_side(fn)

    # ------------------------------------------------------------------ entries

    async def entries(self, tournament_id: str) -> list[EntryRow]:
        def fn(conn: Connection) -> list[EntryRow]:
            e = db.tournament_entries.c
            rows = conn.execute(sa.select(db.tournament_entries)
                                .where(e.tournament_id == tournament_id)
                                .order_by(e.created_at)).mappings().all()
            return [cast(EntryRow, dict(r)) for r in rows]

        return await self.run(fn)

    async def save_entry(self, entry: EntryRow, record: str,
                         replaces: str | None = None, epoch: int | None = None) -> None:
        """A registration (or a dupla completed: `replaces` its pending entry), with the event
        record that holds it, in one transaction."""

        def fn(conn: Connection) -> None:
            e = db.tournament_entries.c
            if replaces is not None:
                conn.execute(db.tournament_entries.delete()
                             .where(e.tournament_id == entry["tournament_id"])
                             .where(e.entrant == replaces))
            conn.execute(db.tournament_entries.insert().values(**entry))
            _fenced(conn, entry["tournament_id"], epoch, record=record)

        await self.run(fn)

    async def save_entries(self, entries: list[EntryRow], record: str,
                           epoch: int | None = None) -> None:
        """Several registrations (an event's bots) and the record that holds them, at once."""

        def fn(conn: Connection) -> None:
            if entries:
                conn.execute(db.tournament_entries.insert(), entries)
                _fenced(conn, entries[0]["tournament_id"], epoch, record=record)

        await self.run(fn)

    async def delete_entry(self, tournament_id: str, entrant: str, record: str,
                           epoch: int | None = None) -> None:
        def fn(conn: Connection) -> None:
            e = db.tournament_entries.c
            conn.execute(db.tournament_entries.delete().where(e.tournament_id == tournament_id)
                         .where(e.entrant == entrant))
            _fenced(conn, tournament_id, epoch, record=record)

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

    async def add_tournament_game(self, tournament_id: str, key: GameKey, match_id: str,
                                  epoch: int | None = None) -> None:
        def fn(conn: Connection) -> None:
            _fenced(conn, tournament_id, epoch)
            conn.execute(db.tournament_games.insert().values(
                tournament_id=tournament_id, round=key[0], table_no=key[1], game=key[2],
                match_id=match_id))

        await self.run(fn)

    async def append_tournament_log(self, tournament_id: str, seq: int,
                                    entries: list[dict[str, Any]],
                                    epoch: int | None = None) -> None:
        """Log entries past the stored record, from place `seq` on (an arena's wave and the
        results before it), in one transaction with the event's fencing check."""

        def fn(conn: Connection) -> None:
            _fenced(conn, tournament_id, epoch)
            conn.execute(db.tournament_log.insert(), [
                {"tournament_id": tournament_id, "seq": seq + i, "entry": entry}
                for i, entry in enumerate(entries)])

        if entries:
            await self.run(fn)

    async def tournament_log(self, tournament_id: str, since: int) -> list[dict[str, Any]]:
        """The log entries stored past the record, from place `since` on, in order."""

        def fn(conn: Connection) -> list[dict[str, Any]]:
            c = db.tournament_log.c
            rows = conn.execute(sa.select(c.entry).where(c.tournament_id == tournament_id)
                                .where(c.seq >= since).order_by(c.seq))
            return [dict(r[0]) for r in rows]

        return await self.run_side(fn)

    async def ended_matches(self, match_ids: list[str]) -> dict[str, EndedMatch]:
        """Of these matches, those over (`finished`, with their record, or `expired`, with the
        teams that never came when it closed at its show-up time): how an event's owner learns
        of the games played on other nodes."""

        def fn(conn: Connection) -> dict[str, EndedMatch]:
            m = db.matches.c
            rows = conn.execute(sa.select(m.id, m.status, m.record, m.absent)
                                .where(m.id.in_(match_ids))
                                .where(m.status.in_(("finished", "expired")))).mappings()
            return {str(r["id"]): cast(EndedMatch, dict(r)) for r in rows}

        return await self.run(fn) if match_ids else {}

    # ------------------------------------------------------------------ several nodes

    async def claim_events(self, node_id: str, limit: int = 20) -> list[EventRow]:
        """Take upcoming or running events whose owner's lease ran out (or that have none):
        each gets this node as owner and a new epoch, which fences off the old owner's writes.
        Rows locked by another claimer are skipped: one claimer each."""

        def fn(conn: Connection) -> list[EventRow]:
            t, n = db.tournaments.c, db.nodes.c
            now = float(conn.execute(sa.select(self.db_now())).scalar() or 0.0)
            live = sa.select(n.id).where(n.lease_until > now)
            if node_id not in {r[0] for r in conn.execute(live)}:
                return []  # a node without a lease takes nothing
            ids = [r[0] for r in conn.execute(
                sa.select(t.id).where(t.status.in_(LIVE))
                .where(sa.or_(t.owner.is_(None), t.owner.not_in(live)))
                .order_by(t.starts_at).limit(limit).with_for_update(skip_locked=True))]
            if not ids:
                return []
            return cast(list[EventRow],
                        take_over(conn, db.tournaments, ids, node_id, t.starts_at))

        return await self.run(fn)

    async def tournament_owner(self, tournament_id: str) -> tuple[str | None, str] | None:
        """(owner node, status) of an event, or None when there is no such event."""

        def fn(conn: Connection) -> tuple[str | None, str] | None:
            return owner_and_status(conn, db.tournaments, tournament_id)

        return await self.run_side(fn)

    async def live_entries(self) -> list[tuple[str, list[EntryPlayer]]]:
        """(event, players) of every entry of an upcoming or running event, on any node."""

        def fn(conn: Connection) -> list[tuple[str, list[EntryPlayer]]]:
            t, e = db.tournaments.c, db.tournament_entries.c
            rows = conn.execute(sa.select(e.tournament_id, e.players).join(
                db.tournaments, t.id == e.tournament_id).where(t.status.in_(LIVE)))
            return [(str(r[0]), list(r[1])) for r in rows]

        return await self.run_side(fn)

    async def upcoming_of(self, creator: int) -> int:
        """How many events a player created that have not started yet, on any node."""
        t = db.tournaments.c
        return int(await self.run_side(lambda conn: conn.execute(
            sa.select(sa.func.count()).where(t.creator == creator)
            .where(t.status == "upcoming")).scalar() or 0))


def _fenced(conn: Connection, tournament_id: str, epoch: int | None, **fields: Any) -> None:
    """Update an event's row; with `epoch`, only while the row still has it, else `Fenced` (and
    the caller's transaction, whatever it wrote before, is rolled back). No fields: the check
    alone, which also locks the row until the end of the transaction."""
    t = db.tournaments.c
    query = db.tournaments.update().where(t.id == tournament_id)
    if epoch is not None:
        query = query.where(t.epoch == epoch)
    done = conn.execute(query.values(**(fields or {"epoch": t.epoch})))
    if epoch is not None and done.rowcount == 0:
        raise Fenced(tournament_id)
