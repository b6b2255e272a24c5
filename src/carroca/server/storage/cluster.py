"""The rows several nodes share: leases, the matches they own and take over, live matches
anywhere, the ranked queue."""

from __future__ import annotations

import time
import zlib
from typing import cast

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.engine import Connection

from carroca.server.records import Player, seated_player
from carroca.server.storage import db
from carroca.server.storage.friends import blocked_among, forget_links, kept_apart
from carroca.server.storage.links import MARK_DAYS, linked_pairs, pick_group
from carroca.server.storage.plumbing import (
    RANKED_WAIT,
    MoveRow,
    Storage,
    owner_and_status,
    take_over,
    with_moves,
)
from carroca.server.storage.rows import FinishedMatch, LiveMatch, MatchRow, QueueRow, Seating

RANKED_SCAN = 200  # the longest wait a group is looked for in, oldest first


class ClusterRows(Storage):
    # ------------------------------------------------------------------ several nodes

    async def register_node(self, node_id: str, name: str, lease: float) -> None:
        def fn(conn: Connection) -> None:
            conn.execute(db.nodes.insert().values(
                id=node_id, name=name, started_at=time.time(),
                lease_until=self.db_now() + lease,
            ))

        await self.run_lease(fn)

    async def renew_lease(self, node_id: str, lease: float) -> bool:
        """Extend this node's lease; False when it had already run out (the node is dead to
        the others, who may have taken its matches: it must not run them any more)."""

        def fn(conn: Connection) -> bool:
            n = db.nodes.c
            done = conn.execute(
                db.nodes.update().where(n.id == node_id).where(n.lease_until > self.db_now())
                .values(lease_until=self.db_now() + lease)
            )
            return bool(done.rowcount)

        return await self.run_lease(fn)

    async def end_lease(self, node_id: str) -> None:
        """A node that stops: its matches are free for the others at once."""
        await self.run_lease(lambda conn: conn.execute(
            db.nodes.update().where(db.nodes.c.id == node_id).values(lease_until=0)
        ))

    async def release_matches(self, node_id: str) -> int:
        """A node whose lease ran out gives back the matches (and events) nobody took
        meanwhile; returns how many matches."""

        def fn(conn: Connection) -> int:
            m, t = db.matches.c, db.tournaments.c
            conn.execute(db.tournaments.update().where(t.owner == node_id)
                         .where(t.status.in_(("upcoming", "running"))).values(owner=None))
            return int(conn.execute(
                db.matches.update().where(m.owner == node_id)
                .where(m.status.in_(("waiting", "playing"))).values(owner=None)
            ).rowcount)

        return await self.run(fn)

    async def revive_node(self, node_id: str, name: str, lease: float) -> None:
        """A new lease for a node whose lease ran out; its row again if a live node deleted it
        meanwhile (dead for a day: `forget_nodes`)."""

        def fn(conn: Connection) -> None:
            until = self.db_now() + lease
            done = conn.execute(db.nodes.update().where(db.nodes.c.id == node_id)
                                .values(lease_until=until))
            if not done.rowcount:
                conn.execute(db.nodes.insert().values(id=node_id, name=name,
                                                      started_at=time.time(), lease_until=until))

        await self.run_lease(fn)

    async def forget_nodes(self, dead_for: float) -> int:
        """Delete the rows of nodes dead for `dead_for` seconds that own no unfinished match
        (a row per process start would otherwise pile up); finished matches keep the name."""

        def fn(conn: Connection) -> int:
            n, m = db.nodes.c, db.matches.c
            owning = sa.select(m.owner).where(m.owner.is_not(None)) \
                .where(m.status.in_(("waiting", "playing")))
            return int(conn.execute(
                db.nodes.delete().where(n.lease_until < self.db_now() - dead_for)
                .where(n.id.not_in(owning))
            ).rowcount)

        return await self.run_lease(fn)

    async def live_nodes(self) -> set[str]:
        def fn(conn: Connection) -> set[str]:
            n = db.nodes.c
            return {r[0] for r in conn.execute(
                sa.select(n.id).where(n.lease_until > self.db_now()))}

        return await self.run_lease(fn)

    async def claim_orphans(
        self, node_id: str, limit: int = 100, grace: float = 3.0
    ) -> list[tuple[MatchRow, list[MoveRow]]]:
        """Take unfinished matches whose owner's lease ran out (or that have none): each gets
        this node as owner and a new epoch, which fences off the old owner's writes. Rows
        locked by another claimer are skipped, so two nodes never take the same match.

        The survivors split a dead node's matches at once: each live node takes those that a
        hash of the match id gives it among the live nodes (in one scan each, however many
        there are), and any live node takes the rest once the owner's lease is `grace` seconds
        past (a part whose node did not come for it: it died too, say)."""

        def fn(conn: Connection) -> list[tuple[MatchRow, list[MoveRow]]]:
            m, n = db.matches.c, db.nodes.c
            now = float(conn.execute(sa.select(self.db_now())).scalar() or 0.0)
            live = [r[0] for r in conn.execute(
                sa.select(n.id).where(n.lease_until > now).order_by(n.id))]
            if node_id not in live:  # a node without a lease takes nothing
                return []
            me = live.index(node_id)
            orphaned = sa.and_(
                m.status.in_(("waiting", "playing")),
                sa.or_(m.owner.is_(None), m.owner.not_in(
                    sa.select(n.id).where(n.lease_until > now))))
            candidates = conn.execute(
                sa.select(m.id, n.lease_until)
                .select_from(db.matches.outerjoin(db.nodes, n.id == m.owner))
                .where(orphaned).order_by(m.created_at)
            ).all()
            mine = [match for match, lease in candidates
                    if zlib.crc32(match.encode()) % len(live) == me
                    or (lease is not None and lease < now - grace)][:limit]
            if not mine:
                return []
            ids = [r[0] for r in conn.execute(
                sa.select(m.id).where(m.id.in_(mine)).where(orphaned)
                .with_for_update(skip_locked=True)
            )]
            if not ids:
                return []
            taken = take_over(conn, db.matches, ids, node_id, m.created_at)
            return with_moves(conn, cast(list[MatchRow], taken))

        return await self.run(fn)

    async def owner_of(self, match_id: str) -> tuple[str | None, str] | None:
        """(owner node, status) of a match, or None when there is no such match."""

        def fn(conn: Connection) -> tuple[str | None, str] | None:
            return owner_and_status(conn, db.matches, match_id)

        return await self.run_side(fn)

    async def seating(self, match_id: str) -> Seating | None:
        """A match's mode, status and seats (who sits where), or None."""

        def fn(conn: Connection) -> Seating | None:
            m = db.matches.c
            row = conn.execute(
                sa.select(m.mode, m.status, m.seats).where(m.id == match_id)
            ).mappings().first()
            return cast(Seating, dict(row)) if row else None

        return await self.run_side(fn)

    async def match_by_invite(self, invite: str) -> tuple[str, str | None] | None:
        """(match id, owner node) of a live friends' table with this invitation."""

        def fn(conn: Connection) -> tuple[str, str | None] | None:
            m = db.matches.c
            row = conn.execute(
                sa.select(m.id, m.owner).where(m.invite == invite).where(m.mode == "friends")
                .where(m.status.in_(("waiting", "playing")))
            ).first()
            return None if row is None else (row[0], row[1])

        return await self.run_side(fn)

    async def live_matches(
        self, mode: str | None = None, *, match_id: str | None = None,
        host_id: int | None = None, player_id: int | None = None, ruleset: str | None = None,
        bot_level: str | None = None, turn_seconds: float | None = None, waiting: bool = False,
    ) -> list[LiveMatch]:
        """Matches waiting or in play, on any node (the lobby of a cluster), narrowed by the
        database: a lobby call must not read every live match (thousands) to find a few."""

        def fn(conn: Connection) -> list[LiveMatch]:
            m = db.matches.c
            query = sa.select(m.id, m.mode, m.ruleset, m.status, m.bot_level, m.seats, m.owner,
                              m.host_id, m.created_at, m.commitment, m.invite, m.score,
                              m.private, m.turn_seconds) \
                .where(m.status.in_(("waiting",) if waiting else ("waiting", "playing")))
            for column, value in ((m.mode, mode), (m.id, match_id), (m.host_id, host_id),
                                  (m.ruleset, ruleset), (m.bot_level, bot_level),
                                  (m.turn_seconds, turn_seconds)):
                if value is not None:
                    query = query.where(column == value)
            if player_id is not None and self.postgres:  # a seat holding {"player": id}
                query = query.where(sa.cast(m.seats, JSONB).contains([{"player": player_id}]))
            rows = [cast(LiveMatch, dict(r))
                    for r in conn.execute(query.order_by(m.created_at)).mappings()]
            if player_id is not None and not self.postgres:
                rows = [r for r in rows if any(seated_player(s) == player_id for s in r["seats"])]
            return rows

        return await self.run_side(fn)

    async def expire_match(self, match_id: str, epoch: int | None = None,
                           absent: list[int] | None = None) -> bool:
        """Close a table that is still waiting for players (it never started); `absent`: a
        tournament's table closed at its show-up time, the teams none of whose players came."""

        def fn(conn: Connection) -> bool:
            query = db.matches.update().where(db.matches.c.id == match_id) \
                .where(db.matches.c.status == "waiting")
            if epoch is not None:
                query = query.where(db.matches.c.epoch == epoch)
            done = conn.execute(query.values(status="expired", finished_at=time.time(),
                                             absent=absent))
            return bool(done.rowcount)

        return await self.run(fn)

    async def ended_after(self, last: int | None) -> tuple[list[tuple[str, str]], int]:
        """Tables an operator ended (`carroca admin end`) after entry `last` of their log, as
        (match id, reason), and the entry to ask from next. None: only where the log stands
        now (a node that starts has nothing of the ones before to close)."""
        def fn(conn: Connection) -> tuple[list[tuple[str, str]], int]:
            e = db.table_ends.c
            if last is None:
                return [], int(conn.execute(sa.select(sa.func.max(e.id))).scalar() or 0)
            rows = conn.execute(sa.select(e.id, e.match_id, e.reason).where(e.id > last)
                                .order_by(e.id)).all()
            return [(r.match_id, r.reason) for r in rows], max([last, *(r.id for r in rows)])

        return await self.run_side(fn, track=False)  # polled: see `run`

    async def purge(self, guests_before: float, keep: set[int]) -> tuple[int, int]:
        """Drop expired sessions, and guests created before `guests_before` who never finished a
        match (their names free up), except the players in `keep` (seated at live tables).
        Returns (sessions, guests) removed."""
        now = time.time()

        def fn(conn: Connection) -> tuple[int, int]:
            p, s, m = db.players.c, db.sessions.c, db.matches.c
            sessions = conn.execute(db.sessions.delete().where(s.expires_at <= now)).rowcount
            conn.execute(db.devices.delete().where(db.devices.c.expires_at <= now))
            conn.execute(db.player_marks.delete()
                         .where(db.player_marks.c.seen_at <= now - MARK_DAYS * 86400))
            played = sa.select(db.participants.c.player_id)
            hosted = sa.select(m.host_id).where(m.host_id.is_not(None))
            created = sa.select(db.tournaments.c.creator) \
                .where(db.tournaments.c.creator.is_not(None))
            candidates = [
                r[0] for r in conn.execute(
                    sa.select(p.id).where(p.kind == "guest").where(p.created_at < guests_before)
                    .where(p.id.not_in(played)).where(p.id.not_in(hosted))
                    .where(p.id.not_in(created))
                ) if r[0] not in keep
            ]
            guests = 0
            for chunk in range(0, len(candidates), 500):
                ids = candidates[chunk:chunk + 500]
                conn.execute(db.sessions.delete().where(s.player_id.in_(ids)))
                conn.execute(db.devices.delete().where(db.devices.c.player_id.in_(ids)))
                conn.execute(db.player_marks.delete()
                             .where(db.player_marks.c.player_id.in_(ids)))
                conn.execute(db.ratings.delete().where(db.ratings.c.player_id.in_(ids)))
                forget_links(conn, ids)
                guests += conn.execute(db.players.delete().where(p.id.in_(ids))).rowcount
            return sessions, guests

        return await self.run(fn)

    async def recent_matches(self, limit: int = 50) -> list[FinishedMatch]:
        def fn(conn: Connection) -> list[FinishedMatch]:
            m = db.matches.c
            rows = conn.execute(
                sa.select(m.id, m.mode, m.ruleset, m.seats, m.status, m.score, m.result,
                          m.created_at, m.finished_at)
                .where(m.status == "finished", sa.not_(m.private))
                .order_by(m.finished_at.desc()).limit(limit)
            ).mappings()
            return [cast(FinishedMatch, dict(r)) for r in rows]

        return await self.run_side(fn)

    # ------------------------------------------------------------------ ranked queue (cluster)

    async def ranked_enqueue(
        self, player: Player, ruleset: str, seed: str | None, seats: int
    ) -> list[QueueRow] | None:
        """Queue a player (again); when `seats` players wait for the ruleset, take the first
        ones out and return them: the caller makes their match. One transaction, serialized
        over the whole queue, so a player is never matched twice, whichever node they queued on."""

        def fn(conn: Connection) -> list[QueueRow] | None:
            q = db.ranked_queue.c
            if self.postgres:
                # One lock for the whole queue: a player moving to another ruleset's queue
                # while their old group fills must not end up in two groups.
                conn.execute(sa.text("SELECT pg_advisory_xact_lock(hashtext(:key))"),
                             {"key": "ranked"})
            # A player who queued and went away long ago is not matched with the others.
            conn.execute(db.ranked_queue.delete().where(
                sa.or_(q.player_id == player["id"], q.queued_at < time.time() - RANKED_WAIT)))
            conn.execute(db.ranked_queue.insert().values(
                player_id=player["id"], ruleset=ruleset, name=player["name"], seed=seed,
                queued_at=time.time(),
            ))
            waiting = [cast(QueueRow, dict(r)) for r in conn.execute(
                sa.select(db.ranked_queue).where(q.ruleset == ruleset)
                .order_by(q.queued_at).limit(RANKED_SCAN)
            ).mappings()]
            if len(waiting) < seats:
                return None
            ids = [int(g["player_id"]) for g in waiting]
            group = pick_group(kept_apart(waiting, blocked_among(conn, ids),
                                          lambda g: int(g["player_id"])),
                               seats, lambda g: int(g["player_id"]),
                               linked_pairs(conn, ids))
            if group is None:
                return None
            conn.execute(db.ranked_queue.delete().where(
                q.player_id.in_([g["player_id"] for g in group])))
            return group

        return await self.run_side(fn)

    async def ranked_leave(self, player_id: int) -> bool:
        return bool(await self.run_side(lambda conn: conn.execute(
            db.ranked_queue.delete().where(db.ranked_queue.c.player_id == player_id)
        ).rowcount))

    async def ranked_queued(self, player_id: int) -> str | None:
        return await self.run_side(lambda conn: conn.execute(
            sa.select(db.ranked_queue.c.ruleset)
            .where(db.ranked_queue.c.player_id == player_id)
        ).scalar())
