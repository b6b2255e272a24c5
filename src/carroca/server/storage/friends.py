"""The friends' rows (`db.friend_links`): requests, friendships and blocks.

Each change runs in one transaction that reads both directions first, so two players acting at
once end in a state either order would have given. The answers are outcomes, not errors: the
service (`players.friends`) words them for players, and hides a block from the blocked one.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Literal, TypeVar, cast

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection

from carroca.server.records import Player
from carroca.server.storage import db
from carroca.server.storage.plumbing import Storage
from carroca.server.storage.rows import FriendsPage, LinkedPlayer, OwnLink

#: What a request came to: sent (or silently kept: the addressee blocked the sender), friends
#: at once (the other had asked too, or they already were), or refused: the sender blocked the
#: addressee, or has `limit` friends already (`full`), or the addressee has (`their_full`).
Asked = Literal["requested", "friends", "blocking", "full", "their_full"]
#: Two players made friends, or not: a side at its limit.
Befriended = Literal["friends", "full", "their_full"]
#: What an acceptance came to: as `Befriended`, or no such request (`none`).
Accepted = Literal["friends", "none", "full", "their_full"]

L = db.friend_links.c
T = TypeVar("T")


def _state(conn: Connection, player: int, other: int) -> str | None:
    found = conn.execute(sa.select(L.state).where(L.player_id == player)
                         .where(L.other_id == other)).scalar()
    return str(found) if found is not None else None


def _count(conn: Connection, player: int) -> int:
    return int(conn.execute(sa.select(sa.func.count()).select_from(db.friend_links)
                            .where(L.player_id == player).where(L.state == "friend")).scalar()
               or 0)


def blocked_among(conn: Connection, ids: list[int]) -> set[frozenset[int]]:
    """The pairs among `ids` where one blocked the other."""
    if len(ids) < 2:
        return set()
    return {frozenset((int(r[0]), int(r[1]))) for r in conn.execute(
        sa.select(L.player_id, L.other_id).where(L.state == "blocked")
        .where(L.player_id.in_(ids)).where(L.other_id.in_(ids)))}


def friend_links_of(conn: Connection, player: int) -> list[OwnLink]:
    """The player's own links (their data export): whom they befriended, asked or blocked."""
    p = db.players.c
    return [{"name": r.name, "state": r.state, "at": r.at} for r in conn.execute(
        sa.select(p.name, L.state, L.at).join(db.players, p.id == L.other_id)
        .where(L.player_id == player).order_by(L.at))]


def forget_links(conn: Connection, ids: list[int]) -> None:
    """Every link to and from these players (a guest removed, or whose key ended)."""
    conn.execute(db.friend_links.delete().where(
        sa.or_(L.player_id.in_(ids), L.other_id.in_(ids))))


def kept_apart(queue: list[T], apart: set[frozenset[int]], id_of: Callable[[T], int]
               ) -> list[T]:
    """The queue without whoever blocked, or was blocked by, someone ahead of them in it
    (greedily, in queue order): they wait for another group, as no table seats a blocked pair
    together while another can be had."""
    kept: list[T] = []
    for entry in queue:
        if all(frozenset((id_of(entry), id_of(k))) not in apart for k in kept):
            kept.append(entry)
    return kept


class FriendRows(Storage):
    def _set(self, conn: Connection, player: int, other: int, state: str) -> None:
        insert = (pg_insert if self.postgres else sqlite_insert)(db.friend_links)
        now = time.time()
        # The values again rather than `row.excluded`, which builds a new alias of the table
        # at each use: the server kept 10–13 KiB a request of those (`bench/load.py --friends
        # 20`, 4,000 requests: 38–53 MiB more; 8 MiB this way).
        conn.execute(insert.values(player_id=player, other_id=other, state=state, at=now)
                     .on_conflict_do_update(index_elements=["player_id", "other_id"],
                                            set_={"state": state, "at": now}))

    def _befriend(self, conn: Connection, a: int, b: int, limit: int) -> Befriended:
        if _count(conn, a) >= limit:
            return "full"
        if _count(conn, b) >= limit:
            return "their_full"
        self._set(conn, a, b, "friend")
        self._set(conn, b, a, "friend")
        return "friends"

    async def open_player(self, player_id: int | None = None, name: str | None = None
                          ) -> Player | None:
        """A player not closed by an operator, by id or by nickname: id, name, kind."""

        def fn(conn: Connection) -> Player | None:
            p = db.players.c
            query = sa.select(p.id, p.name, p.kind).where(p.closed_at.is_(None))
            query = query.where(p.id == player_id) if player_id is not None \
                else query.where(p.name_key == (name or "").casefold())
            row = conn.execute(query).mappings().first()
            return cast(Player, dict(row)) if row else None

        return await self.run_side(fn)

    async def ask_friend(self, player: int, other: int, limit: int) -> Asked:
        """`player` asks `other` to be friends (`limit`: friends a player may have)."""

        def fn(conn: Connection) -> Asked:
            mine, theirs = _state(conn, player, other), _state(conn, other, player)
            if mine == "friend":
                return "friends"
            if mine == "blocked":
                return "blocking"
            if theirs == "blocked":  # kept, never shown to them: the sender sees it pending
                self._set(conn, player, other, "requested")
                return "requested"
            if theirs == "requested":  # they had asked too: friends
                return self._befriend(conn, player, other, limit)
            if _count(conn, player) >= limit:
                return "full"
            self._set(conn, player, other, "requested")
            return "requested"

        return await self.run_side(fn)

    async def accept_friend(self, player: int, other: int, limit: int) -> Accepted:
        """`player` accepts `other`'s request (one `player` can see: not from a blocked one)."""

        def fn(conn: Connection) -> Accepted:
            if _state(conn, other, player) != "requested" or \
                    _state(conn, player, other) == "blocked":
                return "none"
            return self._befriend(conn, player, other, limit)

        return await self.run_side(fn)

    async def decline_friend(self, player: int, other: int) -> bool:
        """`player` declines `other`'s request; False when there was none to see."""

        def fn(conn: Connection) -> bool:
            if _state(conn, player, other) == "blocked":
                return False
            gone = conn.execute(db.friend_links.delete().where(L.player_id == other)
                                .where(L.other_id == player).where(L.state == "requested"))
            return bool(gone.rowcount)

        return await self.run_side(fn)

    async def unfriend(self, player: int, other: int) -> bool:
        """Friends no more (both rows), or `player`'s own request withdrawn."""

        def fn(conn: Connection) -> bool:
            mine = conn.execute(db.friend_links.delete().where(L.player_id == player)
                                .where(L.other_id == other)
                                .where(L.state.in_(("friend", "requested"))))
            theirs = conn.execute(db.friend_links.delete().where(L.player_id == other)
                                  .where(L.other_id == player).where(L.state == "friend"))
            return bool(mine.rowcount or theirs.rowcount)

        return await self.run_side(fn)

    async def block(self, player: int, other: int) -> None:
        """`player` blocks `other`: no longer friends, `player`'s request withdrawn. A request
        of `other`'s stays where it is, unseen, so that nothing changes on `other`'s side but
        what an ordinary removal from the friends would change."""

        def fn(conn: Connection) -> None:
            conn.execute(db.friend_links.delete().where(L.player_id == other)
                         .where(L.other_id == player).where(L.state == "friend"))
            self._set(conn, player, other, "blocked")

        await self.run_side(fn)

    async def unblock(self, player: int, other: int) -> bool:
        def fn(conn: Connection) -> bool:
            gone = conn.execute(db.friend_links.delete().where(L.player_id == player)
                                .where(L.other_id == other).where(L.state == "blocked"))
            return bool(gone.rowcount)

        return await self.run_side(fn)

    async def friends_page(self, player: int) -> FriendsPage:
        """What the player sees of their links: friends, requests to them (none from players
        they blocked), their own pending requests, and whom they blocked; each with the other's
        id, name and kind, and since when (`at`)."""

        def fn(conn: Connection) -> FriendsPage:
            p = db.players.c
            out: FriendsPage = {"friends": [], "incoming": [], "outgoing": [], "blocked": []}
            mine = conn.execute(
                sa.select(L.state, L.at, p.id, p.name, p.kind)
                .join(db.players, p.id == L.other_id).where(L.player_id == player)
                .order_by(p.name_key)).mappings()
            lists = {"friend": out["friends"], "requested": out["outgoing"],
                     "blocked": out["blocked"]}
            for r in mine:
                lists[r["state"]].append(LinkedPlayer(id=r["id"], name=r["name"],
                                                      kind=r["kind"], at=r["at"]))
            blocked = sa.select(L.other_id).where(L.player_id == player) \
                .where(L.state == "blocked")
            theirs = conn.execute(
                sa.select(L.at, p.id, p.name, p.kind)
                .join(db.players, p.id == L.player_id).where(L.other_id == player)
                .where(L.state == "requested").where(L.player_id.not_in(blocked))
                .order_by(L.at)).mappings()
            out["incoming"] = [LinkedPlayer(id=r["id"], name=r["name"], kind=r["kind"],
                                            at=r["at"]) for r in theirs]
            return out

        return await self.run_side(fn)

    async def friend_names(self, player: int) -> dict[int, str]:
        """The player's friends (id: name), in one indexed read: presence keeps it in memory
        while the player has a socket open."""

        def fn(conn: Connection) -> dict[int, str]:
            p = db.players.c
            return {int(r[0]): str(r[1]) for r in conn.execute(
                sa.select(p.id, p.name).join(db.players, p.id == L.other_id)
                .where(L.player_id == player).where(L.state == "friend"))}

        return await self.run_side(fn)

    async def blocked_pairs(self, ids: list[int]) -> set[frozenset[int]]:
        """The pairs among `ids` where one blocked the other (the queues keep them apart)."""
        return await self.run_side(lambda conn: blocked_among(conn, ids))

    async def kept_apart(self, player: int) -> set[int]:
        """The players this one blocked or was blocked by: the queues do not seat them
        together (`tables.lobby`)."""

        def fn(conn: Connection) -> set[int]:
            rows = conn.execute(
                sa.select(L.player_id, L.other_id).where(L.state == "blocked")
                .where(sa.or_(L.player_id == player, L.other_id == player)))
            return {int(r[1]) if r[0] == player else int(r[0]) for r in rows}

        return await self.run_side(fn)

    async def blocked_by(self, player: int) -> set[int]:
        """Whom the player blocked: their chat lines never reach the player."""

        def fn(conn: Connection) -> set[int]:
            return {int(r[0]) for r in conn.execute(
                sa.select(L.other_id).where(L.player_id == player).where(L.state == "blocked"))}

        return await self.run_side(fn)

    async def blockers_of(self, player: int) -> set[int]:
        """Who blocked the player: what the player sends never reaches them."""

        def fn(conn: Connection) -> set[int]:
            return {int(r[0]) for r in conn.execute(
                sa.select(L.player_id).where(L.other_id == player).where(L.state == "blocked"))}

        return await self.run_side(fn)
