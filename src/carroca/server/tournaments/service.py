"""Tournaments on the server: events created by players, run by the pure director.

A service beside the lobby. It keeps each upcoming or running event here (`Event`: the
director, its entries, the match of each game), stores every change (the event record as it
stands, the seed kept apart; a game's result only with the next change, since its match's row
holds it: `Event.must_store`; an arena's wave appends its log entries instead,
`Event.appendable`), and drives the director: it starts an event at its time, pairs
each round, makes each game's match a real table (`Tables.new_table`, with the game's seeds, so its
record verifies against the event), and feeds the record of every finished table back
(`Tournament.record_game`). A table reports its end to `Tables`, and they to their listeners:
no table knows of events.

A game's table waits for its players until its show-up time (`tournament_show_up_seconds`
after it was made, stored with it: `Tables.await_players`, on whichever node runs it): a side
none of whose players came by then forfeits (`record_forfeit`, heard as `table_expired`, or
from the match's row by an owner on another node); once started, a player who stops playing is
the turn clock's business (three timeouts in a row: the match ends by abandonment, and its
record counts as any other). After a restart, a running event is rebuilt from its record and
seed (`carroca.tournament.replay`) and the log entries stored past it (`Event.go_on`), and its
games go on from their matches' rows. Every change is pushed to the pages watching the event
(`tournaments.watch`).

In a cluster an event is run by one node, its owner, as a match is (docs/tournaments.md, "In a
cluster"): its writes carry the epoch the owner holds (`Event.fence`), a refused one (`Fenced`)
drops the event here, and the node that takes it over rebuilds it the same way (`adopt`,
`resume_event`). Registering, withdrawing and starting go to the owner (`Relay`); pages are
`pages`' (a private event's only for whom `may_see` allows).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Coroutine, Iterable
from typing import TYPE_CHECKING, Any

from carroca.bots import BOT_NAMES, SEARCHING_LEVELS
from carroca.server.errors import (
    AlreadyRegistered,
    BotsNotInvited,
    EventBotsOverBudget,
    EventStarted,
    NewcomerEventsFull,
    NewcomersFull,
    NotCreator,
    NotRegistered,
    NotStored,
    RegistrationClosed,
    ServerError,
    TooManyTournaments,
)
from carroca.server.realtime import wire
from carroca.server.realtime.fanout import Fanout, player_channel
from carroca.server.records import Player
from carroca.server.settings import Settings
from carroca.server.storage.plumbing import Fenced
from carroca.server.storage.rows import EntryPerson, EventRow, is_entry_person
from carroca.server.storage.store import Store
from carroca.server.storage.tournaments import LIVE
from carroca.server.tables.hub import Hub
from carroca.server.tables.registry import Tables
from carroca.server.tables.table import Table
from carroca.server.tables.tablerow import bot_seat
from carroca.server.tournaments import pages
from carroca.server.tournaments.entries import (
    EntryAnswer,
    Withdrawn,
    bot_tables,
    entry_answer,
    fill_with_bots,
    join_dupla,
    rating_of,
    register_alone,
)
from carroca.server.tournaments.state import (
    Event,
    EventCall,
    EventMethod,
    EventMoved,
    NewEvent,
    Relay,
    ViewAnswer,
    may_see,
    new_event,
    no_event,
    parsed,
    refused,
)
from carroca.server.tournaments.views import PersonalPage, personal
from carroca.server.tournaments.watch import current, push
from carroca.tournament import (
    Game,
    GameKey,
    TournamentError,
    replay,
    to_record,
)
from carroca.tournament.eventrecord import dumps

if TYPE_CHECKING:
    from carroca.server.edge.ratelimits import RateLimits



class Tournaments:
    """The events this server runs: created, registered for and run here. It hears of its
    tables' ends as one of the tables' listeners (`tables.Listener`)."""

    def __init__(self, hub: Hub, tables: Tables, store: Store, fanout: Fanout,
                 limits: RateLimits | None = None) -> None:
        self.hub = hub
        self.tables = tables
        self.store = store
        self.fanout = fanout
        self.limits = limits
        self.events: dict[str, Event] = {}
        self.by_match: dict[str, tuple[str, GameKey]] = {}
        # Each player's games waiting here (match ids), said again to a socket that says hello.
        self.calls: dict[int, set[str]] = {}
        self.relay: Relay | None = None  # in a cluster: how an event of another node is reached
        tables.listen(self)

    @property
    def settings(self) -> Settings:
        return self.hub.settings

    # ------------------------------------------------------------------ tables' listener

    def table_finished(self, table: Table) -> None:
        found = self.by_match.get(table.id)
        if found is not None:
            self._spawn(self._game_over(found[0], found[1], table.id))

    def table_expired(self, table: Table) -> None:
        found = self.by_match.get(table.id)
        if found is not None and table.absent:  # closed at its show-up time
            self._spawn(self._no_show(found[0], found[1], table.id, table.absent))

    async def players_held(self) -> set[int]:
        """The players of every upcoming or running event, whichever node runs it."""
        held = {pid for ev in self.events.values() for pid in ev.player_ids()}
        with contextlib.suppress(Exception):  # an outage: the store logs it once
            held.update(p["id"] for _, players in await self.store.live_entries()
                        for p in players if is_entry_person(p))
        return held

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """A background step of an event, which ends quietly when the event moved away."""

        async def run() -> None:
            with contextlib.suppress(EventMoved):
                await coro

        self.hub.spawn(run())

    @contextlib.asynccontextmanager
    async def _hold(self, ev: Event) -> AsyncIterator[None]:
        """The event's lock, while the event is still this node's: a write refused because
        another node took it (`Fenced`) drops it here, and the caller gets `EventMoved`."""
        async with ev.lock:
            if self.events.get(ev.id) is not ev:
                raise EventMoved
            try:
                yield
            except Fenced:
                self.hub.log.warning("tournament %s is run by another node now", ev.id,
                                     extra={"event": ev.id})
                self.drop(ev)
                raise EventMoved from None
            finally:  # whatever changed, its watchers hear once (nothing if nothing did)
                if self.events.get(ev.id) is ev or ev.row["status"] in ("finished",
                                                                        "cancelled"):
                    push(ev, self.fanout)

    def drop(self, ev: Event) -> None:
        """Stop running an event here (another node has it, or will)."""
        if self.events.get(ev.id) is ev:
            del self.events[ev.id]
        if ev.timer is not None:
            ev.timer.cancel()
        for match_id in ev.games.values():
            self._forget(match_id)
        self.tables.release_bots(ev.id)

    def give_up_all(self) -> None:
        """This node lost its lease: others may take its events any moment now."""
        for ev in list(self.events.values()):
            self.drop(ev)

    # ------------------------------------------------------------------ pages

    async def watched(self, viewer: Player | None, event_id: str, code: str | None = None
                      ) -> tuple[PersonalPage, int | None]:
        """An event's page as `viewer` may see it (404 otherwise), and its version on the
        event's channel: from the event itself on the node running it (asked through the
        cluster when that is another node), from the database once no node runs it (over: its
        version null)."""
        ev = self._local(event_id, viewer, code)
        if ev is not None:
            view, version = current(ev)
            return personal(view, ev.row, ev.entries, viewer), version
        if self.relay is not None:
            me = None if viewer is None else Player(
                id=viewer["id"], name=viewer["name"], kind=viewer["kind"])
            try:
                answer: ViewAnswer = await self.relay.forward(
                    event_id, "view", EventCall(player=me, code=code))
            except ServerError as exc:
                if exc.code not in ("not_found", "moving", "not_owner"):
                    raise
            else:
                return answer["view"], answer["version"]
        return await pages.page(self.store, event_id, viewer, code), None

    # ------------------------------------------------------------------ restart

    async def load(self) -> int:
        """Rebuild the upcoming and running events from their rows (before the hub resumes its
        tables, so that a table finishing then is heard)."""
        count = 0
        for row in await self.store.tournaments(LIVE):
            count += await self.adopt(row) is not None
        return count

    async def adopt(self, row: EventRow) -> Event | None:
        """Run a stored event here (at a restart, or taken from a dead node): rebuilt from its
        record and seed; None when its record cannot be replayed."""
        store = self.store
        games = await store.tournament_games(row["id"])
        texts = await store.match_records(list(games.values()))
        record = json.loads(row["record"])
        after = await store.tournament_log(row["id"], len(record["log"]))
        entries = {e["entrant"]: e for e in await store.entries(row["id"])}
        try:  # the match records it names by id are in their rows
            t = replay(record, row["seed"], resolve=parsed(texts), keep=False)
            ev = Event(row, t, entries, games, written=len(t.log),
                       fence=row.get("epoch", 0) if self.tables.clustered else None)
            ev.go_on(after, parsed(texts))  # an arena's waves appended past the record
        except Exception:
            self.hub.log.exception("tournament %s could not be rebuilt", row["id"],
                                   extra={"event": row["id"]})
            return None
        ev.logged = len(t.log)
        self.events[ev.id] = ev
        ids = ev.ids_by_name()
        for game in ev.t.pending_games():
            if game.key in ev.games:
                self._call(ev.games[game.key], (ids[n] for n in game.players if n in ids))
        for key, match_id in ev.games.items():
            self.by_match[match_id] = (ev.id, key)
        if ev.row["status"] == "running" and ev.row["bots"] in SEARCHING_LEVELS:
            # admitted at its start: its tables are held again here, whatever is left
            await self.tables.reserve_bots(ev.id, bot_tables(ev), ev.row["creator"], None,
                                           force=True)
        return ev

    async def resume(self) -> None:
        """After the hub resumed its tables: every event goes on."""
        for ev in list(self.events.values()):
            with contextlib.suppress(EventMoved):
                await self.resume_event(ev)

    async def resume_event(self, ev: Event) -> None:
        """An adopted event goes on: a start that was due, a game whose match ended unheard
        here, a round not paired yet."""
        if ev.row["status"] == "upcoming":
            self._schedule_start(ev)
            return
        async with self._hold(ev):
            await self._catch_up(ev)
            if ev.t.spec.format == "arena":
                self._schedule_close(ev)
            await self._advance(ev)

    async def catch_up_all(self) -> None:
        """In a cluster, every scan: the games of this node's events whose matches ended on
        other nodes (the hub hears of its own tables only)."""
        for ev in list(self.events.values()):
            if ev.row["status"] == "running":
                with contextlib.suppress(EventMoved):
                    async with self._hold(ev):
                        if await self._catch_up(ev):
                            await self._advance(ev)

    async def _catch_up(self, ev: Event) -> bool:
        """Record the games whose match is over but was not heard of here, from the match's
        row: it ended while the server was down or on another node, or before the record was
        written again (a result alone is not: `Event.must_store`); a result may open a tie's
        next game, over too. True when some game needs `_advance` (recorded, or no table)."""
        store = self.store
        changed, seen = False, set()
        while games := [g for g in ev.t.pending_games() if g.key not in seen]:
            unheard: dict[str, Game] = {}
            for game in games:
                seen.add(game.key)
                match_id = ev.games.get(game.key)
                if match_id is None:  # stopped between making its table and naming it
                    match_id = await store.match_with_seed(game.client_seed)
                    if match_id is None:
                        changed = True  # never made: `_advance` makes it
                        continue
                    await store.add_tournament_game(ev.id, game.key, match_id, epoch=ev.fence)
                    ev.games[game.key] = match_id
                    self.by_match[match_id] = (ev.id, game.key)
                    ids = ev.ids_by_name()
                    self._call(match_id, (ids[n] for n in game.players if n in ids))
                table = self.tables.get(match_id)
                if table is None or table.status in ("finished", "expired"):
                    unheard[match_id] = game
            for match_id, row in (await store.ended_matches(list(unheard))).items():
                game = unheard[match_id]
                if row["status"] == "finished" and row["record"]:
                    changed |= ev.record_result(game.key, json.loads(row["record"]), match_id)
                elif row["status"] == "expired":  # the teams that never came (else both)
                    absent = row.get("absent") or [0, 1]
                    ev.t.record_forfeit(game.key, [game.sides[i] for i in absent], ev.now())
                    changed = True
        return changed

    # ------------------------------------------------------------------ creating

    async def create(self, player: Player, body: NewEvent,
                     address: str | None = None) -> Event:
        """A new event, from the fields of `POST /api/tournaments` (already typed); `address`:
        where it is made from (its searching bots' tables are charged to it and its creator)."""
        row, t = new_event(self.settings, player, body)
        if row["bots"] is not None:
            bot_seat(row["bots"])  # a known level, or 422
        if row["bots"] in SEARCHING_LEVELS:  # its tables at once, at most: within the budget
            need = max(1, (t.spec.capacity or 0) // 2)
            free = self.tables.bot_room(player["id"], address)
            if free < need:
                raise EventBotsOverBudget(BOT_NAMES[row["bots"]], need, free)
        try:  # on every node of a cluster
            upcoming = await self.store.upcoming_of(player["id"])
        except Exception:
            raise NotStored() from None
        most = self.settings.max_upcoming_tournaments_per_player
        if upcoming >= most:
            raise TooManyTournaments(upcoming, most)
        row["by_newcomer"] = not row["private"] and await self.newcomer(player)
        if row["by_newcomer"]:  # a flood of throwaway guests lists few events
            most = self.settings.max_newcomer_tournaments
            try:
                listed = await self.store.newcomer_tournaments()
            except Exception:
                raise NotStored() from None
            if listed >= most:
                raise NewcomerEventsFull(most)
        if self.limits is not None:  # every check passed; nothing stored yet
            self.limits.tournaments_player.hit(str(player["id"]))
        row["owner"], row["epoch"] = self.hub.node, 0
        try:
            await self.store.insert_tournament(row)
        except Exception:
            raise NotStored() from None
        ev = Event(row, t, {}, fence=0 if self.tables.clustered else None, address=address)
        self.events[ev.id] = ev
        self._schedule_start(ev)
        return ev

    async def create_scheduled(self, key: str, slot: str, starts_at: float,
                               fields: NewEvent) -> bool:
        """A recurring event's slot (`schedule.Scheduler`), made and run here unless some node
        made it already (the database keeps one per slot): True when made here."""
        row, t = new_event(self.settings, None, {**fields, "starts_at": starts_at})
        row["owner"], row["epoch"] = self.hub.node, 0
        row["schedule_key"], row["slot"] = key, slot
        if not await self.store.insert_scheduled(row):
            return False
        self.hub.log.info("tournament %s made for %s, %s", row["id"], key, slot)
        ev = Event(row, t, {}, fence=0 if self.tables.clustered else None)
        self.events[ev.id] = ev
        self._schedule_start(ev)
        return True

    async def newcomer(self, player: Player) -> bool:
        """A guest with fewer finished matches than `tournament_guest_matches`: a throwaway
        name costs nothing, a played match does."""
        least = self.settings.tournament_guest_matches
        if player["kind"] != "guest" or least <= 0:
            return False
        try:
            return await self.store.finished_matches(player["id"], least) < least
        except Exception:
            raise NotStored() from None

    def newcomer_places(self, ev: Event) -> int:
        """The players of a public event that may be newcomers: a share of its places (of the
        server's largest event when it has no capacity), never fewer than the floor."""
        size = 2 if ev.t.spec.duplas else 1
        places = (ev.t.spec.capacity or self.settings.max_tournament_capacity) * size
        return max(self.settings.tournament_newcomer_floor,
                   int(places * self.settings.tournament_newcomer_share))

    @staticmethod
    def _full(ev: Event) -> bool:
        """No place for one more player (the director says so in its own words)."""
        capacity = ev.t.spec.capacity
        size = 2 if ev.t.spec.duplas else 1
        return capacity is not None and \
            sum(len(e.players) for e in ev.t.registrations) >= capacity * size

    def _schedule_start(self, ev: Event) -> None:
        delay = max(0.0, ev.row["starts_at"] - time.time())
        loop = asyncio.get_running_loop()
        ev.timer = loop.call_later(delay, lambda: self._spawn(self._start_due(ev)))

    async def _start_due(self, ev: Event) -> None:
        if self.events.get(ev.id) is ev:  # not cancelled (nor moved) meanwhile
            await self.start(ev.id)

    # ------------------------------------------------------------------ registering

    def _local(self, event_id: str, player: Player | None, code: str | None = None
               ) -> Event | None:
        """The event if this node runs it (None: another node may), as `player` may see it: a
        private one answers 404 to whom `may_see` refuses, as if it did not exist."""
        ev = self.events.get(event_id)
        if ev is not None and not may_see(ev.row, ev.entries, player, code):
            raise no_event()
        return ev

    async def _elsewhere(self, event_id: str, method: EventMethod, call: EventCall) -> Any:
        """An event not run here: in a cluster its owner node answers, else it is unknown."""
        if self.relay is None:
            raise no_event()
        return await self.relay.forward(event_id, method, call)

    @staticmethod
    def _caller(player: Player) -> Player:
        """The player as another node is told of them (the three fields, nothing else)."""
        return Player(id=player["id"], name=player["name"], kind=player["kind"])

    async def register(self, player: Player, event_id: str, *, partner: bool = False,
                       invite: str | None = None, code: str | None = None) -> EntryAnswer:
        """Register a player: alone, or opening a dupla (`partner`: the answer carries the
        invitation for the partner), or as the partner of a dupla (`invite`). A private event
        takes its code (`code`), except from its creator."""
        ev = self._local(event_id, player, code or invite)  # a private one: by its code
        if ev is None:
            answer: EntryAnswer = await self._elsewhere(event_id, "register", EventCall(
                player=self._caller(player), partner=partner, invite=invite, code=code))
            return answer
        async with self._hold(ev):
            if ev.row["status"] != "upcoming":
                raise RegistrationClosed()
            if ev.entrant_of(player["id"]) is not None:
                raise AlreadyRegistered()
            if player["kind"] == "bot" and not ev.row.get("bot_accounts"):
                raise BotsNotInvited()
            me = EntryPerson(id=player["id"], name=player["name"], kind=player["kind"])
            if not ev.row["private"] and not self._full(ev) and await self.newcomer(player):
                # A flood of throwaway guests takes a share of the places, never all of them.
                most = self.newcomer_places(ev)
                if sum(1 for e in ev.entries.values() for p in e["players"]
                       if is_entry_person(p) and p.get("newcomer")) >= most:
                    raise NewcomersFull(most)
                me["newcomer"] = True
            rating = await rating_of(self.store, ev, player)
            if invite is not None:
                entry = await join_dupla(self.store, ev, me, invite, rating)
            else:
                entry = await register_alone(self.store, ev, me, rating, partner)
            return entry_answer(entry)

    async def withdraw(self, player: Player, event_id: str) -> Withdrawn:
        """Before the start the place is freed (a dupla's, for both); after it, the entrant is
        paired no more and a game of theirs still waiting is lost by forfeit."""
        ev = self._local(event_id, player)
        if ev is None:
            answer: Withdrawn = await self._elsewhere(
                event_id, "withdraw", EventCall(player=self._caller(player)))
            return answer
        async with self._hold(ev):
            if ev.row["status"] == "upcoming":
                entrant = ev.entrant_of(player["id"])
            else:  # solo players of a 2v2 event play in duplas formed at the start
                entrant = next((e.id for e in ev.t.entrants if player["name"] in e.players),
                               None)
            if entrant is None:
                raise NotRegistered()
            playing = [ev.games[g.key] for g in ev.t.pending_games()
                       if entrant in g.sides and g.key in ev.games]
            try:
                ev.t.withdraw(entrant, ev.now())
            except TournamentError as exc:
                raise refused(exc) from None
            if ev.row["status"] == "upcoming":
                await self.store.delete_entry(ev.id, entrant, dumps(to_record(ev.t)),
                                                  epoch=ev.fence)
                del ev.entries[entrant]
            else:
                # Lost by forfeit: a table still waiting for its players is closed unplayed;
                # one in play goes on under the clock (the one who left times out, and the
                # match ends by abandonment), its result no longer counted.
                for match_id in playing:
                    self._forget(match_id)
                    table = self.tables.get(match_id)
                    if table is not None and table.status == "waiting":
                        await self._close_unplayed(table)
                await self._advance(ev)
            return {"withdrawn": entrant}

    @staticmethod
    async def _close_unplayed(table: Table) -> None:
        """A game's table closed unplayed (a failed write leaves its row waiting: a restart
        starts it)."""
        await table.expire(force=True)

    # ------------------------------------------------------------------ running

    async def start(self, event_id: str, by: Player | None = None) -> None:
        """Close registration and pair the first round (or the arena's first wave). With `by`,
        its creator starts it before its time. Fewer than two entrants: it is cancelled."""
        ev = self.events.get(event_id) if by is None else self._local(event_id, by)
        if ev is None:
            if by is not None:
                await self._elsewhere(event_id, "start", EventCall(player=self._caller(by)))
            return
        if by is not None and by["id"] != ev.row["creator"]:
            raise NotCreator()
        async with self._hold(ev):
            if ev.row["status"] != "upcoming":
                if by is not None:
                    raise EventStarted()
                return
            if ev.timer is not None:
                ev.timer.cancel()
            level = ev.row["bots"]
            if level in SEARCHING_LEVELS and (need := bot_tables(ev)):
                free = await self.tables.reserve_bots(ev.id, need, ev.row["creator"],
                                                      ev.address)
                if free < need:  # the budget went to other tables since its creation
                    refusal = EventBotsOverBudget(BOT_NAMES[level], need, free, starting=True)
                    if by is not None:  # its creator may try again
                        raise refusal
                    await self._cancel(ev, "Cancelado na hora do início: " + refusal.message)
                    return
            await fill_with_bots(self.store, ev)
            try:
                ev.t.start()
            except TournamentError:  # fewer than two: nothing to hold
                await self._cancel(ev)
                return
            ev.row["status"], ev.row["started_at"] = "running", time.time()
            await self.store.update_tournament(ev.id, ev.fence, status="running",
                                                   started_at=ev.row["started_at"],
                                                   record=dumps(to_record(ev.t)))
            if ev.t.spec.format == "arena":
                self._schedule_close(ev)
            await self._advance(ev)

    async def _cancel(self, ev: Event, note: str | None = None) -> None:
        """The event does not take place (`note`: why, for its page); its entrants are told."""
        ev.row["status"], ev.row["finished_at"] = "cancelled", time.time()
        ev.row["note"] = note
        await self.store.update_tournament(
            ev.id, ev.fence, status="cancelled", finished_at=ev.row["finished_at"], note=note,
            record=dumps(to_record(ev.t)))
        self.drop(ev)
        self._tell(ev, wire.Tournament(event=ev.id, name=ev.row["name"], status="cancelled"))

    def _schedule_close(self, ev: Event) -> None:
        """Arena: no pairing after its duration (games still running count when they end)."""
        duration = ev.t.spec.duration or 0.0
        started = ev.row["started_at"] or time.time()
        delay = max(0.0, started + duration - time.time())

        async def close() -> None:
            async with self._hold(ev):
                if ev.t.state == "running" and not ev.t.closed:
                    ev.t.close(max(ev.t.clock, duration))
                    await self._advance(ev)

        ev.timer = asyncio.get_running_loop().call_later(delay, lambda: self._spawn(close()))

    async def _advance(self, ev: Event) -> None:
        """Pair what can be paired, open a table for every game without one, store the record
        (unless only results came: `Event.must_store`); the end when the director says so. The
        caller holds the event (`_hold`)."""
        t = ev.t
        for _ in range(1000):  # a knockout round of byes only pairs the next at once
            if t.state != "running":
                break
            if t.spec.format == "arena":
                if not t.closed:
                    t.pair_waiting(ev.now() or 0.0)
                break
            total = t.total_rounds or 0
            if t.pending_games() or len(t.rounds) >= total:
                break
            began = time.perf_counter()
            t.pair_next_round()
            self.hub.log.info("tournament %s: round %d paired in %.3f s", ev.id, len(t.rounds),
                              time.perf_counter() - began)
        for game in t.pending_games():
            if game.key not in ev.games:
                await self._open(ev, game)
        finished = t.is_finished
        if not ev.must_store():  # results only: their matches' rows hold them
            return
        if ev.appendable():  # an arena's wave: its entries, not the whole record again
            await self.store.append_tournament_log(ev.id, ev.logged, t.log[ev.logged:],
                                                   epoch=ev.fence)
            ev.logged = len(t.log)
            return
        record = dumps(to_record(t))
        if finished:
            ended = time.time()
            await self.store.update_tournament(ev.id, ev.fence, record=record,
                                               status="finished", finished_at=ended)
        else:
            await self.store.update_tournament(ev.id, ev.fence, record=record)
        ev.written = ev.logged = len(t.log)
        if finished:  # said finished once stored, and its bots' tables given back at once
            ev.row["status"], ev.row["finished_at"] = "finished", ended
            self.drop(ev)
            self._tell(ev, wire.Tournament(event=ev.id, name=ev.row["name"], status="finished"))

    async def _open(self, ev: Event, game: Game) -> None:
        """The game's match as a table here: its seats in the game's order, its seeds the
        game's; the players are told, and it starts once they are there."""
        seats = [ev.seat_of(name) for name in game.players]
        table = await self.tables.new_table(
            mode="tournament", ruleset=ev.t.spec.ruleset, options=dict(ev.t.spec.options),
            seats=seats, turn_seconds=ev.row["turn_seconds"],
            bot_level=self.settings.autoplay_bot, seeds=(game.server_seed, game.client_seed),
            private=bool(ev.row["private"]),
            show_up_by=time.time() + self.settings.tournament_show_up_seconds,
        )
        try:
            await self.store.add_tournament_game(ev.id, game.key, table.id, epoch=ev.fence)
        except Fenced:  # another node runs the event now, and makes the game's table itself
            await self._close_unplayed(table)
            raise
        ev.games[game.key] = table.id
        self.by_match[table.id] = (ev.id, game.key)
        self._call(table.id, [pid for _, pid in table.humans()])
        self._tell(ev, wire.Tournament(event=ev.id, name=ev.row["name"], status="running",
                                       match=table.id, round=game.key[0], table=game.key[1],
                                       game=game.key[2]),
                   [pid for _, pid in table.humans()])
        self.tables.spawn(self.tables.await_players(table))

    async def _no_show(self, event_id: str, key: GameKey, match_id: str,
                       absent: list[int]) -> None:
        """A game's table closed at its show-up time: the teams none of whose players came
        lose it by forfeit (both: nobody wins)."""
        ev = self.events.get(event_id)
        if ev is None:
            return
        async with self._hold(ev):
            self._forget(match_id)
            game = next((g for g in ev.t.pending_games() if g.key == key), None)
            if game is None:  # decided meanwhile (a withdrawal)
                return
            ev.t.record_forfeit(key, [game.sides[team] for team in absent], ev.now())
            await self._advance(ev)

    async def _game_over(self, event_id: str, key: GameKey, match_id: str) -> None:
        ev = self.events.get(event_id)
        if ev is None:
            return
        async with self._hold(ev):
            row = await self.store.get_match(match_id)
            if row is None or not row["record"]:
                return
            self._forget(match_id)
            if ev.record_result(key, json.loads(row["record"]), match_id):
                await self._advance(ev)

    def _tell(self, ev: Event, data: wire.Tournament, players: list[int] | None = None) -> None:
        """A `tournament` frame on the players' own channels (the event's, or those given)."""
        frame = wire.frame(data)
        for pid in ev.player_ids() if players is None else players:
            self.fanout.publish(player_channel(pid), frame)

    def _call(self, match_id: str, players: Iterable[int]) -> None:
        for pid in players:
            self.calls.setdefault(pid, set()).add(match_id)

    def _forget(self, match_id: str) -> None:
        """A game over (or no longer this node's): nothing to tell of it any more."""
        self.by_match.pop(match_id, None)
        table = self.tables.get(match_id)
        for _, pid in table.humans() if table is not None else ():
            self._call_off(pid, match_id)

    def _call_off(self, player_id: int, match_id: str) -> None:
        mine = self.calls.get(player_id)
        if mine is not None:
            mine.discard(match_id)
            if not mine:
                del self.calls[player_id]

    def games_waiting(self, player_id: int) -> list[str]:
        """The `tournament` frames of the player's games not over yet, in the events run here:
        said again to every socket of theirs that says hello, since a frame published while
        none was open (a page loading, a phone asleep) reached nobody. Read from the player's
        own calls (`calls`), not from the events: a hello costs the same in an event of 2,000."""
        frames = []
        for match_id in list(self.calls.get(player_id, ())):
            found = self.by_match.get(match_id)
            ev = self.events.get(found[0]) if found is not None else None
            table = self.tables.get(match_id)
            if ev is None or found is None or \
                    (table is not None and table.status not in ("waiting", "playing")):
                self._call_off(player_id, match_id)  # over: heard of too late to call off
                continue
            if table is None:  # run by another node of a cluster
                continue
            key = found[1]
            frames.append(wire.frame(wire.Tournament(
                event=ev.id, name=ev.row["name"], status="running", match=match_id,
                round=key[0], table=key[1], game=key[2])))
        return frames
