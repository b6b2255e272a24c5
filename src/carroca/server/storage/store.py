"""The server's durable state (`Store`): players, sessions, matches, their move logs and
ratings, behind a small async interface. Its parts: `storage` (threads, group commits),
`players`, `cluster`, `tournaments`, `friends`, `profiles` beside it, and the matches here."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from carroca.server.storage import db
from carroca.server.storage.cluster import ClusterRows
from carroca.server.storage.friends import FriendRows
from carroca.server.storage.links import LinkRows
from carroca.server.storage.players import PlayerRows
from carroca.server.storage.plumbing import (
    Fenced,
    MoveRow,
    NameTaken,
    token_hash,
    update_fenced,
    with_moves,
)
from carroca.server.storage.profiles import ProfileRows
from carroca.server.storage.rights import DataRows
from carroca.server.storage.rows import MatchEnd, MatchRow, ParticipantRow, RatingRow
from carroca.server.storage.tokens import TokenRows
from carroca.server.storage.tournaments import TournamentRows

__all__ = ["Fenced", "MoveRow", "NameTaken", "Store", "poll", "token_hash"]


class Store(PlayerRows, ClusterRows, TournamentRows, LinkRows, DataRows, FriendRows,
            TokenRows, ProfileRows):
    """The server's durable state: players, sessions, matches, their move logs and ratings."""

    # ------------------------------------------------------------------ matches

    async def insert_match(self, row: MatchRow) -> None:
        await self.run(lambda conn: conn.execute(db.matches.insert().values(**row)))

    async def update_match(self, match_id: str, epoch: int | None = None, **fields: Any) -> None:
        """Change a match's row; with `epoch`, only while the match still has it (`Fenced`)."""

        await self.run(lambda conn: update_fenced(conn, match_id, epoch, fields))

    async def finish_match(
        self,
        match_id: str,
        fields: MatchEnd,
        participants: list[ParticipantRow],
        ratings: list[RatingRow],
        epoch: int | None = None,
    ) -> None:
        """The end of a match, its participants and rating changes, in one transaction."""

        def fn(conn: Connection) -> None:
            update_fenced(conn, match_id, epoch, fields)
            if participants:
                conn.execute(db.participants.insert(), participants)
            for r in ratings:
                done = conn.execute(
                    db.ratings.update()
                    .where(db.ratings.c.player_id == r["player_id"])
                    .where(db.ratings.c.family == r["family"])
                    .values(**r)
                )
                if done.rowcount == 0:
                    conn.execute(db.ratings.insert().values(**r))

        await self.run(fn)

    async def set_private(self, match_id: str, private: bool) -> None:
        await self.update_match(match_id, private=private)

    async def set_analysis(self, match_id: str, text: str) -> None:
        await self.update_match(match_id, analysis=text)

    async def get_match(self, match_id: str) -> MatchRow | None:
        def fn(conn: Connection) -> MatchRow | None:
            row = conn.execute(
                sa.select(db.matches).where(db.matches.c.id == match_id)
            ).mappings().first()
            return cast(MatchRow, dict(row)) if row else None

        return await self.run_side(fn)

    async def unfinished(self) -> list[tuple[MatchRow, list[MoveRow]]]:
        """Every match not finished, with its move log: what a restart resumes."""

        def fn(conn: Connection) -> list[tuple[MatchRow, list[MoveRow]]]:
            rows = conn.execute(
                sa.select(db.matches).where(db.matches.c.status.in_(("waiting", "playing")))
                .order_by(db.matches.c.created_at)
            ).mappings().all()
            return with_moves(conn, [cast(MatchRow, dict(r)) for r in rows])

        return await self.run(fn)


async def poll(seconds: float, step: Callable[[], Awaitable[object]]) -> None:
    """The loop of a node's pollers of the store (closed accounts, ended tables, moderation's
    upkeep): `step` every `seconds`, until cancelled; a step that fails waits for the next turn,
    as an outage (which the store logs once) must not end the loop."""
    while True:
        await asyncio.sleep(seconds)
        with contextlib.suppress(Exception):
            await step()
