"""The lobby: how players come to sit at tables (casual, friends', ranked, bots-only matches and
rematches), on this node or on whichever node runs a table.

`Tables` keeps the tables and runs them; the lobby decides where a player sits, within the caps
and the bot budget, makes the tables it needs through them (`Tables.create_table`), and asks a
table for a seat (`Table.sit`): it never takes a table's lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Mapping, Sequence
from typing import TypedDict

from carroca.rules import get_ruleset
from carroca.rules.rulesets import options_dict
from carroca.server.errors import (
    AccountRequired,
    BadCasualTurn,
    BadSeats,
    BadTurnSeconds,
    BotsNotRanked,
    ChosenTableFull,
    MatchNotFound,
    NoRematch,
    NoTable,
    NotABot,
    NotFinished,
    NotSeatedForRematch,
    NotStored,
    RematchStarted,
    ServerError,
    TooManyBotMatches,
    TooManyMatches,
    TooManyWaitingTables,
)
from carroca.server.records import (
    Mode,
    PersonSeat,
    Player,
    Seat,
    SeatAnswer,
    TableStatus,
    bot_account_seats,
    is_bot,
    seated_player,
)
from carroca.server.storage.rows import LiveMatch
from carroca.server.tables.calls import InviteAnswer, InviteCall, SitCall
from carroca.server.tables.hub import Hub
from carroca.server.tables.ranked import RankedQueue
from carroca.server.tables.registry import Tables
from carroca.server.tables.table import Table
from carroca.server.tables.tablerow import bot_seat, player_seat

MODES = ("casual", "ranked", "friends", "bots")
MIN_TURN, MAX_TURN = 1.0, 120.0
# The turns a casual table offers (a player who needs more time picks a longer one, and sits
# only with players who picked the same); ranked tables keep the server's.
CASUAL_TURNS = (20.0, 40.0, 60.0)
#: The bots' ladder's queues: its ruleset's name after this (the ranked queue holds both).
BOT_LADDER = "bot:"


class LobbyTable(TypedDict):
    """A table of the lobby's list (`GET /api/matches`, `live`), on this node or another."""

    id: str
    mode: Mode
    ruleset: str
    status: TableStatus
    bot_level: str
    players: list[str]
    bot_accounts: list[int]  # seats held by bot accounts (marked "BOT")
    open_seats: int
    score: list[int] | None


class Lobby:
    """Where players sit: the caps per player and per node, the queues, the rematches."""

    def __init__(self, hub: Hub, tables: Tables, ranked: RankedQueue) -> None:
        self.hub = hub
        self.tables = tables
        self.ranked = ranked
        self.lobby_lock = asyncio.Lock()  # the caps are checked and a table made in one step

    def check(self, ruleset: str, options: Mapping[str, object] | None,
              turn_seconds: float | None) -> tuple[dict[str, object], float]:
        rs = get_ruleset(ruleset)  # raises UnknownRuleset (a RulesError) in pt-BR
        opts = options_dict(rs.make_options(options or {}))
        if turn_seconds is None:
            return opts, self.hub.settings.turn_seconds
        seconds = float(turn_seconds)
        if not MIN_TURN <= seconds <= MAX_TURN:
            raise BadTurnSeconds(MIN_TURN, MAX_TURN)
        return opts, seconds

    async def create_bots_match(
        self, player: Player, ruleset: str, options: Mapping[str, object] | None,
        seats: list[str], turn_seconds: float | None, address: str | None = None,
    ) -> Table:
        """A demo match of bots, for a signed-in player: a few at a time per player, and a cap
        for the whole server."""
        opts, seconds = self.check(ruleset, options, turn_seconds)
        n = get_ruleset(ruleset).seats
        if len(seats) != n:
            raise BadSeats.count(ruleset, n, len(seats))
        specs = []
        for s in seats:
            if not isinstance(s, str) or not s.startswith("bot:"):
                raise BadSeats.bots_only()
            specs.append(bot_seat(s[4:]))
        async with self.lobby_lock:  # the caps are checked and the table made in one step
            live = [t for t in self.tables
                    if t.mode == "bots" and t.status in ("waiting", "playing")]
            mine = sum(1 for t in live if t.host_id == player["id"])
            per_player = self.hub.settings.max_bot_matches_per_player
            if mine >= per_player:
                raise TooManyBotMatches(mine, per_player)
            if len(live) >= self.hub.settings.max_bot_matches:
                raise TooManyMatches()
            table = await self.tables.create_table(
                player, address, spend=True, mode="bots", ruleset=ruleset, options=opts,
                seats=specs, turn_seconds=seconds, bot_level=specs[0]["bot"],
                host_id=player["id"],
            )
        self.hub.spawn(self.tables.start_table(table))
        return table

    async def casual(
        self, player: Player, ruleset: str, bot_level: str, client_seed: str | None,
        match_id: str | None = None, address: str | None = None,
        turn_seconds: float | None = None,
    ) -> SeatAnswer:
        """Seat the player at the chosen casual table, at an open one of the ruleset and turn
        length, or at a new one; the lobby's answer (`Table.answer`)."""
        if turn_seconds is not None and float(turn_seconds) not in CASUAL_TURNS:
            raise BadCasualTurn(CASUAL_TURNS)
        opts, seconds = self.check(ruleset, None, turn_seconds)
        bot_seat(bot_level)
        apart = await self.tables.store.kept_apart(player["id"])  # blocks, either way
        async with self.lobby_lock:
            for table in self.tables:
                seat = table.seat_of(player["id"])
                if table.mode == "casual" and seat is not None and table.status != "finished":
                    return table.answer(seat)
            for row in await self.tables.elsewhere("casual", player_id=player["id"]):
                seat = _seat_in(row, player["id"])
                if seat is not None:
                    return _answer(row, seat)
            if match_id is not None:  # a table chosen from the lobby's list
                chosen = self.tables.get(match_id)
                elsewhere = [] if chosen is not None else \
                    await self.tables.elsewhere("casual", match_id=match_id)
                if _with_any(chosen.seats if chosen is not None else
                             next((r["seats"] for r in elsewhere), []), apart):
                    seat = None  # as a full table: the block stays silent
                elif chosen is not None:
                    seat = await self.sit_casual(chosen, player, client_seed)
                elif elsewhere:
                    seat = await self.sit_elsewhere(match_id, player, client_seed)
                else:
                    seat = None
                if seat is None:
                    raise ChosenTableFull()
                if chosen is not None:
                    return chosen.answer(seat)
                return _answer(next(r for r in elsewhere if r["id"] == match_id), seat)
            for table in self.tables:  # a snapshot: sitting awaits
                if table.ruleset.name == ruleset and table.bot_level == bot_level \
                        and table.turn_seconds == seconds and not _with_any(table.seats, apart):
                    seat = await self.sit_casual(table, player, client_seed)
                    if seat is not None:
                        return table.answer(seat)
            for row in await self.tables.elsewhere("casual", ruleset=ruleset, bot_level=bot_level,
                                                   turn_seconds=seconds, waiting=True):
                if None in row["seats"] and not _with_any(row["seats"], apart):
                    seat = await self.sit_elsewhere(row["id"], player, client_seed)
                    if seat is not None:
                        return _answer(row, seat)
            n = get_ruleset(ruleset).seats
            table = await self.tables.create_table(
                player, address, mode="casual", ruleset=ruleset, options=opts,
                seats=[player_seat(player)] + [None] * (n - 1), turn_seconds=seconds,
                bot_level=bot_level, client_seeds=[client_seed] + [None] * (n - 1),
            )
            self.hub.spawn(self.tables.fill_with_bots(table))
            return table.answer(0)

    async def sit_elsewhere(
        self, match_id: str, player: Player, client_seed: str | None
    ) -> int | None:
        try:
            seat = await self.tables.call_owner(
                match_id, "sit", SitCall(player=player, client_seed=client_seed))
        except ServerError as exc:
            if exc.code == "not_found":
                return None
            raise  # its owner is changing (the sit may have happened): the player asks again
        return None if seat is None else int(seat)

    @staticmethod
    async def sit_casual(
        table: Table, player: Player, client_seed: str | None
    ) -> int | None:
        """The seat taken at a waiting casual table (the player's own seat when they have one
        there already: asking twice never takes two), or None when it has none left."""
        if table.mode != "casual" or table.status not in ("waiting", "playing"):
            return None  # over: never a table to sit at
        return await table.sit(player_seat(player), client_seed)

    async def friends(
        self, host: Player, ruleset: str, options: Mapping[str, object] | None,
        seats: list[str], turn_seconds: float | None, client_seed: str | None,
        address: str | None = None,
    ) -> SeatAnswer:
        """A private table: `seats` holds "me", "open" or "bot:nível" for each seat."""
        opts, seconds = self.check(ruleset, options, turn_seconds)
        n = get_ruleset(ruleset).seats
        if len(seats) != n or seats.count("me") != 1:
            raise BadSeats.one_is_mine(ruleset, n)
        specs: list[Seat | None] = []
        for s in seats:
            if s == "me":
                specs.append(player_seat(host))
            elif s == "open":
                specs.append(None)
            elif isinstance(s, str) and s.startswith("bot:"):
                specs.append(bot_seat(s[4:]))
            else:
                raise BadSeats.invalid(s)
        me = seats.index("me")
        async with self.lobby_lock:  # the caps are checked and the table made in one step
            if specs.count(None):
                await self._below_waiting_cap(host)
            table = await self.tables.create_table(
                host, address, spend=True, mode="friends", ruleset=ruleset, options=opts,
                seats=specs,
                turn_seconds=seconds, bot_level=self.hub.settings.autoplay_bot, host_id=host["id"],
                invite=secrets.token_urlsafe(6),
                client_seeds=[client_seed if i == me else None for i in range(n)],
            )
        if not table.open_seats():
            self.hub.spawn(self.tables.start_table(table))
        return table.answer(me)

    async def join_invite(
        self, player: Player, invite: str, client_seed: str | None, local: bool = False
    ) -> tuple[Table, int]:
        for table in self.tables:
            if table.invite == invite and table.mode == "friends":
                break
        else:
            raise NoTable()
        return table, await table.sit_invited(player, client_seed)

    async def join_invite_anywhere(
        self, player: Player, invite: str, client_seed: str | None
    ) -> InviteAnswer:
        """Sit at a friends' table by its invitation, on whichever node runs it."""
        if not self.tables.clustered or any(t.invite == invite for t in self.tables):
            table, seat = await self.join_invite(player, invite, client_seed)
            return table.answer(seat)
        try:
            found = await self.tables.store.match_by_invite(invite)
        except Exception:
            raise NotStored() from None
        if found is None:
            raise NoTable()
        answer: InviteAnswer = await self.tables.call_owner(
            found[0], "invite", InviteCall(player=player, invite=invite, client_seed=client_seed))
        return answer

    async def queue_ranked(
        self, player: Player, ruleset: str, client_seed: str | None
    ) -> SeatAnswer | None:
        """Queue for a ranked match; returns the lobby's answer for the table once enough
        players are waiting (or the one the player has a seat at already)."""
        if player["kind"] == "bot":  # the bots' ladder is theirs, never the people's queue
            raise BotsNotRanked()
        if self.hub.settings.ranked_requires_account and player["kind"] != "account":
            raise AccountRequired()
        return await self._queue(player, ruleset, ruleset, client_seed)

    async def queue_bot_ladder(
        self, player: Player, ruleset: str, client_seed: str | None
    ) -> SeatAnswer | None:
        """The bots' ladder (the Bot API): a ranked queue of bot accounts only, rated apart
        (`ratings.family_of`), as `queue_ranked` is for people."""
        if player["kind"] != "bot":
            raise NotABot()
        return await self._queue(player, ruleset, BOT_LADDER + ruleset, client_seed)

    async def _queue(
        self, player: Player, ruleset: str, queue: str, client_seed: str | None
    ) -> SeatAnswer | None:
        opts, seconds = self.check(ruleset, None, None)
        n = get_ruleset(ruleset).seats
        async with self.lobby_lock:
            for table in self.tables:
                mine = table.seat_of(player["id"])
                if table.mode == "ranked" and table.status != "finished" and mine is not None:
                    return table.answer(mine)
            for row in await self.tables.elsewhere("ranked", player_id=player["id"]):
                seat = _seat_in(row, player["id"])
                if seat is not None:
                    return _answer(row, seat)
            group = await self.ranked.join(player, queue, client_seed, n)
            if group is None:
                return None
            matched = list(group)  # in seat order already (never linked accounts as opponents)
            seats = [PersonSeat(player=p.id, name=p.name) for p in group]
            if queue != ruleset:  # the bots' ladder: every seat a bot account's
                for bot in seats:
                    bot["bot_account"] = True
            table = await self.tables.new_table(
                mode="ranked", ruleset=ruleset, options=opts, seats=seats,
                turn_seconds=seconds,
                bot_level=self.hub.settings.autoplay_bot, client_seeds=[p.seed for p in group],
            )
            self.ranked.matched(queue, matched)  # once its table is stored
            try:
                await table.start()
            except Exception:  # the database refused: started as soon as it is back
                self.hub.spawn(self.tables.start_table(table))
            return table.answer(table.seat_of(player["id"]))

    async def leave_ranked(self, player_id: int) -> bool:
        return await self.ranked.leave(player_id)

    async def queued(self, player_id: int) -> str | None:
        return await self.ranked.queued(player_id)

    async def tables_of(self, player_id: int) -> list[str]:
        """The live tables where the player has a seat, on any node."""
        found = [t.id for t in self.tables
                 if t.status != "finished" and t.seat_of(player_id) is not None]
        with contextlib.suppress(ServerError):
            found += [r["id"] for r in await self.tables.elsewhere(player_id=player_id)]
        return found

    async def lobby(self) -> list[LobbyTable]:
        """Tables a player may join (casual with an open seat) or watch (in play)."""
        out: list[LobbyTable] = []
        for t in self.tables:
            if t.mode == "friends" or t.private or t.status == "finished":
                continue
            out.append({
                "id": t.id, "mode": t.mode, "ruleset": t.ruleset.name, "status": t.status,
                "bot_level": t.bot_level,
                "players": t.names(), "bot_accounts": bot_account_seats(t.seats),
                "open_seats": len(t.open_seats()),
                "score": t.score if t.match else None,
            })
        with contextlib.suppress(ServerError):
            for r in await self.tables.elsewhere():
                if r["mode"] == "friends" or r.get("private"):
                    continue
                out.append({
                    "id": r["id"], "mode": r["mode"], "ruleset": r["ruleset"],
                    "status": r["status"], "bot_level": r["bot_level"],
                    "players": [s["name"] if s else "" for s in r["seats"]],
                    "bot_accounts": bot_account_seats(r["seats"]),
                    "open_seats": sum(1 for s in r["seats"] if s is None),
                    # The owner stores it between hands (none yet: the first hand is on).
                    "score": (r["score"] or [0, 0]) if r["status"] == "playing" else None,
                })
        return out


    async def _below_waiting_cap(self, host: Player) -> None:
        """Refuse (429) a friends' table that would wait for players when its host has the
        most waiting already (on any node); called under the lobby's lock."""
        hosted = [t for t in self.tables if t.mode == "friends"
                  and t.status in ("waiting", "playing") and t.host_id == host["id"]]
        others = await self.tables.elsewhere("friends", host_id=host["id"])
        waiting = sum(1 for t in hosted if t.status == "waiting") + \
            sum(1 for r in others if r["status"] == "waiting")
        most = self.hub.settings.max_waiting_tables_per_player
        if waiting >= most:
            raise TooManyWaitingTables(waiting, most)

    # ------------------------------------------------------------------ rematch

    async def rematch(
        self, table: Table, player: Player, client_seed: str | None = None,
        address: str | None = None,
    ) -> SeatAnswer:
        """Another match with this finished table's settings: the first player to ask creates
        it (same ruleset, options, clock, bots in the same seats; casual: the same bot level)
        and the others who played here are offered it (a `rematch` frame); asking again, or
        asking second, sits at that same table. Returns the lobby's answer (`answer`)."""
        seat = table.seat_of(player["id"])
        if table.hidden_from(seat):  # not even confirmed to exist
            raise MatchNotFound()
        if seat is None:
            raise NotSeatedForRematch()
        if table.mode not in ("casual", "friends"):
            raise NoRematch()
        if table.status != "finished":
            raise NotFinished()
        made: list[Table] = []

        async def make() -> Table:
            made.append(await self._new_rematch(table, player, seat, client_seed, address))
            return made[0]

        # Two players asking at once: one makes it, the other sits at it.
        new = await table.rematch(player, self.tables.get, make)
        if made:
            return new.answer(seat)
        try:
            return new.answer(await new.sit_rematch(player, client_seed, seat))
        except RematchStarted:
            if table.mode != "casual":
                raise
        # bots took the seat: another casual table, as the lobby would
        turn = table.turn_seconds if table.turn_seconds in CASUAL_TURNS else None
        return await self.casual(player, table.ruleset.name, table.bot_level, client_seed,
                                 address=address, turn_seconds=turn)

    async def _new_rematch(
        self, table: Table, player: Player, seat: int, client_seed: str | None,
        address: str | None,
    ) -> Table:
        """The rematch table: the asker in their seat, the bots in theirs, the other players'
        seats open for them."""
        seats: list[Seat | None] = []
        for i, s in enumerate(table.seats):
            if i == seat:
                seats.append(player_seat(player))
            elif s is not None and is_bot(s):
                seats.append({"bot": s["bot"], "name": s["name"]})
            else:
                seats.append(None)
        if table.mode == "friends" and None in seats:  # it waits for the others: capped
            async with self.lobby_lock:
                await self._below_waiting_cap(player)
        new = await self.tables.create_table(  # within the bot budget, as any other new table
            player, address, spend=table.mode == "friends", mode=table.mode,
            ruleset=table.ruleset.name,
            options=options_dict(table.options),
            seats=seats, turn_seconds=table.turn_seconds, bot_level=table.bot_level,
            host_id=player["id"],
            invite=secrets.token_urlsafe(6) if table.mode == "friends" else None,
            client_seeds=[client_seed if i == seat else None for i in range(len(seats))],
        )
        if not new.open_seats():
            self.hub.spawn(self.tables.start_table(new))
        elif table.mode == "casual":
            self.hub.spawn(self.tables.fill_with_bots(new))
        return new


def _with_any(seats: Sequence[Seat | None], players: set[int]) -> bool:
    """Whether one of `players` sits in `seats` (a blocked pair is never seated together by
    the queues while another table can be had: a new one always can)."""
    return bool(players) and any(seated_player(s) in players for s in seats)


def _seat_in(row: LiveMatch, player_id: int) -> int | None:
    for i, s in enumerate(row["seats"]):
        if seated_player(s) == player_id:
            return i
    return None


def _answer(row: LiveMatch, seat: int) -> SeatAnswer:
    """`Table.answer` for a match another node runs."""
    out: SeatAnswer = {"id": row["id"], "seat": seat, "mode": row["mode"],
                       "commitment": row["commitment"]}
    invite = row.get("invite")
    if invite and row["mode"] == "friends":
        out["invite"] = invite
    return out
