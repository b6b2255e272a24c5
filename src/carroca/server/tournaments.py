"""Tournaments on the server: events created by players, run by the pure director.

A service beside the lobby. It keeps each upcoming or running event here (`Event`: the
director, its entries, the match of each game), stores every change (the event record as it
stands, the seed kept apart), and drives the director: it starts an event at its time, pairs
each round, makes each game's match a real table (`Hub.new_table`, with the game's seeds, so its
record verifies against the event), and feeds the record of every finished table back
(`Tournament.record_game`). A table reports its end to the hub, and the hub to its listeners:
no table knows of events.

A game's table waits for its players (`tournament_show_up_seconds`): a side none of whose
players came by then forfeits (`record_forfeit`); once started, a player who stops playing is
the turn clock's business (three timeouts in a row: the match ends by abandonment, and its
record counts as any other). After a restart, a running event is rebuilt from its record and
seed (`carroca.tournament.replay`), and its games go on from their matches' rows.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from typing import Any

from carroca.bots import BOT_LEVELS
from carroca.server import protocol
from carroca.server.chat import clean_text
from carroca.server.errors import NOT_STORED, LobbyError
from carroca.server.fanout import player_channel
from carroca.server.hub import Hub, bot_seat
from carroca.server.ratings import family_of
from carroca.server.settings import Settings
from carroca.server.table import Table
from carroca.server.tournament_state import (
    Event,
    event_view,
    may_see,
    no_event,
    parsed,
    refused,
    summary,
)
from carroca.tournament import (
    Entrant,
    EventSpec,
    Game,
    GameKey,
    Tournament,
    TournamentError,
    replay,
    to_record,
)
from carroca.tournament.eventrecord import dumps, embed

LIVE = ("upcoming", "running")
MAX_AHEAD = 30 * 24 * 3600.0  # an event starts within 30 days
MIN_TURN, MAX_TURN = 1.0, 120.0
SHOW_UP_POLL = 0.2  # seconds between two looks at a waiting game's seats

class Tournaments:
    """The events of this server: created, registered for, run and read here. It hears of its
    tables' ends as one of the hub's listeners (`hub.Listener`)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.events: dict[str, Event] = {}
        self.by_match: dict[str, tuple[str, GameKey]] = {}
        hub.listeners.append(self)

    @property
    def settings(self) -> Settings:
        return self.hub.settings

    # ------------------------------------------------------------------ hub's listener

    def table_finished(self, table: Table) -> None:
        found = self.by_match.get(table.id)
        if found is not None:
            self.hub.spawn(self._game_over(found[0], found[1], table.id))

    def players_held(self) -> set[int]:
        return {pid for ev in self.events.values() for pid in ev.player_ids()}

    # ------------------------------------------------------------------ restart

    async def load(self) -> int:
        """Rebuild the upcoming and running events from their rows (before the hub resumes its
        tables, so that a table finishing then is heard)."""
        store = self.hub.store
        count = 0
        for row in await store.tournaments(LIVE):
            games = await store.tournament_games(row["id"])
            texts = await store.match_records(list(games.values()))
            try:  # the match records it names by id are in their rows
                t = replay(json.loads(row["record"]), row["seed"], resolve=parsed(texts),
                           keep=False)
            except Exception:
                self.hub.log.exception("tournament %s could not be rebuilt", row["id"])
                continue
            entries = {e["entrant"]: e for e in await store.entries(row["id"])}
            ev = Event(row, t, entries, games, written=len(t.log))
            self.events[ev.id] = ev
            for key, match_id in ev.games.items():
                self.by_match[match_id] = (ev.id, key)
            count += 1
        return count

    async def resume(self) -> None:
        """After the hub resumed its tables: every event goes on (a start that was due, a game
        whose match ended while the server was down, a round not paired yet)."""
        for ev in list(self.events.values()):
            if ev.row["status"] == "upcoming":
                self._schedule_start(ev)
                continue
            async with ev.lock:
                seen: set[GameKey] = set()
                while games := [g for g in ev.t.pending_games() if g.key not in seen]:
                    for game in games:  # a result may open a tie's next game, over too
                        seen.add(game.key)
                        await self._catch_up(ev, game)
                if ev.t.spec.format == "arena":
                    self._schedule_close(ev)
                await self._advance(ev)

    async def _catch_up(self, ev: Event, game: Game) -> None:
        """A game waiting for its result after a restart: its match found again, and its result
        recorded if the match ended (or was closed unplayed) while the server was down or
        before the record was written again (a result alone is not: `Event.must_store`)."""
        match_id = ev.games.get(game.key)
        if match_id is None:  # stopped between making its table and naming it
            match_id = await self.hub.store.match_with_seed(game.client_seed)
            if match_id is None:
                return  # never made: `_advance` makes it
            await self.hub.store.add_tournament_game(ev.id, game.key, match_id)
            ev.games[game.key] = match_id
            self.by_match[match_id] = (ev.id, game.key)
        if match_id in self.hub.tables:
            return
        row = await self.hub.store.get_match(match_id)
        if row is not None and row["status"] == "finished" and row["record"]:
            self._record(ev, game.key, json.loads(row["record"]), match_id)
        elif row is not None and row["status"] == "expired":
            ev.t.record_forfeit(game.key, list(game.sides), ev.now())

    # ------------------------------------------------------------------ creating

    async def create(self, player: dict[str, Any], body: dict[str, Any]) -> Event:
        """A new event, from the fields of `POST /api/tournaments` (already typed)."""
        settings = self.settings
        name = " ".join(clean_text(body["name"]).split())
        if not 3 <= len(name) <= 60:
            raise LobbyError(422, "bad_name", "O nome do torneio tem de 3 a 60 caracteres.")
        bots = body.get("bots")
        if bots is not None:
            if not settings.tournament_bots:
                raise LobbyError(403, "no_bots",
                                 "Este servidor não completa torneios com bots.")
            bot_seat(bots)  # a known level, or 422
            if body.get("capacity") is None:
                raise LobbyError(422, "bad_capacity",
                                 "Para completar com bots, diga quantas vagas o torneio tem.")
        turn = float(body.get("turn_seconds") or settings.turn_seconds)
        if not MIN_TURN <= turn <= MAX_TURN:
            raise LobbyError(422, "bad_turn_seconds",
                             f"O tempo por jogada vai de {MIN_TURN:g} a {MAX_TURN:g} segundos.")
        capacity = body.get("capacity")
        if capacity is not None and capacity > settings.max_tournament_capacity:
            raise LobbyError(422, "bad_capacity", "O torneio tem no máximo "
                             f"{settings.max_tournament_capacity} vagas.")
        now = time.time()
        starts_at = body.get("starts_at")
        if starts_at is None:
            starts_at = now + float(body.get("starts_in") or 0)
        if not now - 60 <= starts_at <= now + MAX_AHEAD:
            raise LobbyError(422, "bad_start", "O torneio começa entre agora e daqui a 30 dias.")
        duration = body.get("duration")
        try:
            spec = EventSpec(body["format"], body["ruleset"], body.get("options") or {},
                             rounds=body.get("rounds"), best_of=body.get("best_of") or 1,
                             duration=None if duration is None else float(duration),
                             capacity=capacity, name=name)
        except TournamentError as exc:
            raise refused(exc) from None
        upcoming = sum(1 for ev in self.events.values() if ev.row["creator"] == player["id"]
                       and ev.row["status"] == "upcoming")
        most = settings.max_upcoming_tournaments_per_player
        if upcoming >= most:
            raise LobbyError(429, "too_many_tournaments",
                             f"Você já tem {upcoming} torneios por começar (o limite é {most}).")
        if self.hub.limits is not None:  # every check passed; nothing stored yet
            self.hub.limits.tournaments_player.hit(str(player["id"]))
        event_id = secrets.token_urlsafe(9)[:12]
        t = Tournament.create(spec, event_id)
        row = {
            "id": event_id, "name": name, "format": spec.format, "ruleset": spec.ruleset,
            "options": dict(spec.options), "spec": spec.to_dict(), "status": "upcoming",
            "creator": player["id"], "created_at": now, "starts_at": float(starts_at),
            "started_at": None, "finished_at": None, "turn_seconds": turn, "bots": bots,
            "private": bool(body.get("private")),
            "invite": secrets.token_urlsafe(6) if body.get("private") else None,
            "seed": t.event_seed, "commitment": t.commitment, "record": dumps(to_record(t)),
        }
        try:
            await self.hub.store.insert_tournament(row)
        except Exception:
            raise LobbyError(503, "not_stored", NOT_STORED) from None
        ev = Event(row, t, {})
        self.events[event_id] = ev
        self._schedule_start(ev)
        return ev

    def _schedule_start(self, ev: Event) -> None:
        delay = max(0.0, ev.row["starts_at"] - time.time())
        loop = asyncio.get_running_loop()
        ev.timer = loop.call_later(delay, lambda: self.hub.spawn(self._start_due(ev.id)))

    async def _start_due(self, event_id: str) -> None:
        if event_id in self.events:  # not cancelled meanwhile
            await self.start(event_id)

    # ------------------------------------------------------------------ registering

    def _live(self, event_id: str, player: dict[str, Any] | None = None,
              code: str | None = None) -> Event:
        """An upcoming or running event, as `player` may see it (`may_see`)."""
        ev = self.events.get(event_id)
        if ev is None or not may_see(ev.row, ev.entries, player, code):
            raise no_event()
        return ev

    async def register(self, player: dict[str, Any], event_id: str, *, partner: bool = False,
                       invite: str | None = None, code: str | None = None) -> dict[str, Any]:
        """Register a player: alone, or opening a dupla (`partner`: the answer carries the
        invitation for the partner), or as the partner of a dupla (`invite`). A private event
        takes its code (`code`), except from its creator."""
        ev = self._live(event_id, player, code or invite)  # a private one: by its code
        async with ev.lock:
            t = ev.t
            if ev.row["status"] != "upcoming":
                raise LobbyError(409, "registration_closed",
                                 "As inscrições estão encerradas: o torneio já começou.")
            if ev.entrant_of(player["id"]) is not None:
                raise LobbyError(409, "already_registered", "Você já está inscrito neste torneio.")
            me = {"id": player["id"], "name": player["name"]}
            rating = await self._rating(ev, player)
            if invite is not None:
                return await self._join_dupla(ev, me, invite, rating)
            if partner and not t.spec.duplas:
                raise LobbyError(422, "no_duplas", "Neste torneio cada inscrição é de um jogador.")
            entrant = Entrant(player["name"], player["name"], (player["name"],), rating)
            try:
                t.register(entrant)
            except TournamentError as exc:
                raise refused(exc) from None
            entry = {"tournament_id": ev.id, "entrant": entrant.id, "name": entrant.name,
                     "players": [me], "created_at": time.time(),
                     "partner_invite": secrets.token_urlsafe(6) if partner else None}
            try:
                await self.hub.store.save_entry(entry, dumps(to_record(t)))
            except Exception:
                t.withdraw(entrant.id)
                raise LobbyError(503, "not_stored", NOT_STORED) from None
            ev.entries[entrant.id] = entry
            return self._entry_answer(entry)

    async def _rating(self, ev: Event, player: dict[str, Any]) -> int | None:
        """The player's rating in the event's family (seeds the draw): an integer, or None."""
        with contextlib.suppress(Exception):
            known = await self.hub.store.ratings_of([player["id"]],
                                                    family_of(ev.t.spec.ruleset))
            if player["id"] in known:
                return round(float(known[player["id"]]["ordinal"]) * 100)
        return None

    async def _join_dupla(self, ev: Event, me: dict[str, Any], invite: str,
                          rating: int | None) -> dict[str, Any]:
        """The partner of a dupla comes: the first player's entry becomes the dupla's."""
        first = next((e for e in ev.entries.values() if e.get("partner_invite") == invite
                      and len(e["players"]) == 1), None)
        if first is None:
            raise LobbyError(404, "no_dupla", "Convite de dupla inválido ou já usado.")
        a = first["players"][0]
        t = ev.t
        old = next((e for e in t.registrations if e.id == first["entrant"]), None)
        dupla = Entrant(f"{a['name']}+{me['name']}", f"{a['name']} & {me['name']}",
                        (a["name"], me["name"]),
                        None if old is None or old.rating is None or rating is None
                        else (old.rating + rating) // 2)
        try:
            t.withdraw(first["entrant"])
            t.register(dupla)
        except TournamentError as exc:
            if old is not None and old not in t.registrations:
                t.register(old)
            raise refused(exc) from None
        entry = {"tournament_id": ev.id, "entrant": dupla.id, "name": dupla.name,
                 "players": [a, me], "created_at": first["created_at"], "partner_invite": None}
        try:
            await self.hub.store.save_entry(entry, dumps(to_record(t)), replaces=first["entrant"])
        except Exception:
            t.withdraw(dupla.id)
            if old is not None:
                t.register(old)
            raise LobbyError(503, "not_stored", NOT_STORED) from None
        del ev.entries[first["entrant"]]
        ev.entries[dupla.id] = entry
        return self._entry_answer(entry)

    @staticmethod
    def _entry_answer(entry: dict[str, Any]) -> dict[str, Any]:
        out = {"entrant": entry["entrant"], "name": entry["name"],
               "players": [p["name"] for p in entry["players"]]}
        if entry.get("partner_invite"):
            out["partner_invite"] = entry["partner_invite"]
        return out

    async def withdraw(self, player: dict[str, Any], event_id: str) -> dict[str, Any]:
        """Before the start the place is freed (a dupla's, for both); after it, the entrant is
        paired no more and a game of theirs still waiting is lost by forfeit."""
        ev = self._live(event_id, player)
        async with ev.lock:
            if ev.row["status"] == "upcoming":
                entrant = ev.entrant_of(player["id"])
            else:  # solo players of a 2v2 event play in duplas formed at the start
                entrant = next((e.id for e in ev.t.entrants if player["name"] in e.players),
                               None)
            if entrant is None:
                raise LobbyError(404, "not_registered", "Você não está inscrito neste torneio.")
            playing = [ev.games[g.key] for g in ev.t.pending_games()
                       if entrant in g.sides and g.key in ev.games]
            try:
                ev.t.withdraw(entrant, ev.now())
            except TournamentError as exc:
                raise refused(exc) from None
            if ev.row["status"] == "upcoming":
                await self.hub.store.delete_entry(ev.id, entrant, dumps(to_record(ev.t)))
                del ev.entries[entrant]
            else:
                # Lost by forfeit: a table still waiting for its players is closed unplayed;
                # one in play goes on under the clock (the one who left times out, and the
                # match ends by abandonment), its result no longer counted.
                for match_id in playing:
                    self.by_match.pop(match_id, None)
                    table = self.hub.tables.get(match_id)
                    if table is not None and table.status == "waiting":
                        await self._close_unplayed(table)
                await self._advance(ev)
            return {"withdrawn": entrant}

    async def _close_unplayed(self, table: Table) -> None:
        async with table.lock:
            if table.status != "waiting":
                return
            with contextlib.suppress(Exception):  # the row stays waiting: a restart starts it
                await self.hub.store.expire_match(table.id, table.fence)
            table.status = "expired"
            table.publish()
            table.close()
            self.hub.tables.pop(table.id, None)

    # ------------------------------------------------------------------ running

    async def start(self, event_id: str, by: dict[str, Any] | None = None) -> None:
        """Close registration and pair the first round (or the arena's first wave). With `by`,
        its creator starts it before its time. Fewer than two entrants: it is cancelled."""
        ev = self._live(event_id, by) if by is not None else self._live(event_id)
        if by is not None and by["id"] != ev.row["creator"]:
            raise LobbyError(403, "not_creator", "Só quem criou o torneio pode começá-lo.")
        async with ev.lock:
            if ev.row["status"] != "upcoming":
                if by is not None:
                    raise LobbyError(409, "started", "O torneio já começou.")
                return
            if ev.timer is not None:
                ev.timer.cancel()
            await self._fill_with_bots(ev)
            try:
                ev.t.start()
            except TournamentError:  # fewer than two: nothing to hold
                ev.row.update(status="cancelled", finished_at=time.time())
                await self.hub.store.update_tournament(
                    ev.id, status="cancelled", finished_at=ev.row["finished_at"],
                    record=dumps(to_record(ev.t)))
                self.events.pop(ev.id, None)
                self._tell(ev, {"status": "cancelled"})
                return
            ev.row.update(status="running", started_at=time.time())
            await self.hub.store.update_tournament(ev.id, status="running",
                                                   started_at=ev.row["started_at"],
                                                   record=dumps(to_record(ev.t)))
            if ev.t.spec.format == "arena":
                self._schedule_close(ev)
            await self._advance(ev)

    async def _fill_with_bots(self, ev: Event) -> None:
        """The free places of an event that asked for it, taken by bots of its level."""
        level, capacity = ev.row["bots"], ev.t.spec.capacity
        if level is None or capacity is None or level not in BOT_LEVELS:
            return
        size = 2 if ev.t.spec.duplas else 1
        taken = sum(len(e.players) for e in ev.t.registrations)
        free = (capacity * size - taken) // size
        number = 0
        entries = []
        for _ in range(free):
            names = []
            for _ in range(size):
                number += 1
                names.append(f"Bot {number}")
            entrant = Entrant("+".join(names), " & ".join(names), tuple(names))
            ev.t.register(entrant)
            entry = {"tournament_id": ev.id, "entrant": entrant.id, "name": entrant.name,
                     "players": [{"bot": level, "name": n} for n in names],
                     "created_at": time.time(), "partner_invite": None}
            entries.append(entry)
            ev.entries[entrant.id] = entry
        await self.hub.store.save_entries(entries, dumps(to_record(ev.t)))

    def _schedule_close(self, ev: Event) -> None:
        """Arena: no pairing after its duration (games still running count when they end)."""
        duration = ev.t.spec.duration or 0.0
        delay = max(0.0, ev.row["started_at"] + duration - time.time())

        async def close() -> None:
            async with ev.lock:
                if ev.t.state == "running" and not ev.t.closed:
                    ev.t.close(max(ev.t.clock, duration))
                    await self._advance(ev)

        asyncio.get_running_loop().call_later(delay, lambda: self.hub.spawn(close()))

    async def _advance(self, ev: Event) -> None:
        """Pair what can be paired, open a table for every game without one, store the record
        (unless only results came: `Event.must_store`); the end when the director says so. The
        caller holds the event's lock."""
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
        fields: dict[str, Any] = {"record": dumps(to_record(t))}
        if finished:
            ev.row.update(status="finished", finished_at=time.time())
            fields.update(status="finished", finished_at=ev.row["finished_at"])
        await self.hub.store.update_tournament(ev.id, **fields)
        ev.written = len(t.log)
        if finished:
            self.events.pop(ev.id, None)
            for match_id in ev.games.values():
                self.by_match.pop(match_id, None)
            self._tell(ev, {"status": "finished"})

    async def _open(self, ev: Event, game: Game) -> None:
        """The game's match as a table here: its seats in the game's order, its seeds the
        game's; the players are told, and it starts once they are there."""
        seats = [ev.seat_of(name) for name in game.players]
        table = await self.hub.new_table(
            mode="tournament", ruleset=ev.t.spec.ruleset, options=dict(ev.t.spec.options),
            seats=seats, turn_seconds=ev.row["turn_seconds"],
            bot_level=self.settings.autoplay_bot, seeds=(game.server_seed, game.client_seed),
            private=bool(ev.row["private"]),
        )
        await self.hub.store.add_tournament_game(ev.id, game.key, table.id)
        ev.games[game.key] = table.id
        self.by_match[table.id] = (ev.id, game.key)
        self._tell(ev, {"status": "running", "match": table.id, "round": game.key[0],
                        "table": game.key[1], "game": game.key[2]},
                   [pid for _, pid in table.humans()])
        self.hub.spawn(self._show_up(ev, game, table))

    async def _show_up(self, ev: Event, game: Game, table: Table) -> None:
        """Start the table once every player came (joined it), or at the show-up time: then a
        side none of whose players came forfeits, and the table is closed unplayed."""
        seen: set[int] = set()
        deadline = time.monotonic() + self.settings.tournament_show_up_seconds
        humans = [seat for seat, _ in table.humans()]
        while not table.closed:
            seen.update(s for s in humans if table.seat_connected(s))
            if len(seen) == len(humans) or time.monotonic() >= deadline:
                break
            await asyncio.sleep(SHOW_UP_POLL)
        if table.closed or table.status != "waiting":
            return
        n = len(table.seats)
        absent = [side for i, side in enumerate(game.sides)
                  if (team := [s for s in range(n) if s % 2 == i]) and
                  all(s in humans and s not in seen for s in team)]
        if not absent:
            await self.hub.start_table(table)
            return
        async with ev.lock:
            if table.status != "waiting":
                return
            await self._close_unplayed(table)
            self.by_match.pop(table.id, None)
            try:
                ev.t.record_forfeit(game.key, absent, ev.now())
            except TournamentError:  # withdrawn meanwhile: already decided
                return
            await self._advance(ev)

    async def _game_over(self, event_id: str, key: GameKey, match_id: str) -> None:
        ev = self.events.get(event_id)
        if ev is None:
            return
        async with ev.lock:
            row = await self.hub.store.get_match(match_id)
            if row is None or not row["record"]:
                return
            self._record(ev, key, json.loads(row["record"]), match_id)
            self.by_match.pop(match_id, None)
            await self._advance(ev)

    def _record(self, ev: Event, key: GameKey, record: dict[str, Any], match_id: str) -> None:
        try:
            ev.t.record_game(key, record, record_id=match_id, at=ev.now(), keep=False)
        except TournamentError as exc:  # decided meanwhile (a withdrawal), or not this game
            self.hub.log.warning("tournament %s: match %s not counted: %s", ev.id, match_id,
                                 exc.message)

    def _tell(self, ev: Event, data: dict[str, Any], players: list[int] | None = None) -> None:
        """A `tournament` frame on the players' own channels (the event's, or those given)."""
        frame = protocol.envelope("tournament", {"event": ev.id, "name": ev.row["name"], **data})
        for pid in ev.player_ids() if players is None else players:
            self.hub.fanout.publish(player_channel(pid), frame)

    # ------------------------------------------------------------------ reading

    async def listing(self) -> dict[str, list[dict[str, Any]]]:
        """Public events: upcoming (soonest first), live, and the latest finished."""
        upcoming: list[dict[str, Any]] = []
        live: list[dict[str, Any]] = []
        for ev in sorted(self.events.values(), key=lambda e: e.row["starts_at"]):
            if ev.row["private"]:
                continue
            item = summary(ev.row)
            item["entrants"] = len(ev.t.registrations) if ev.row["status"] == "upcoming" \
                else len(ev.t.entrants)
            (upcoming if ev.row["status"] == "upcoming" else live).append(item)
        try:
            finished = [summary(r) for r in await self.hub.store.finished_tournaments(20)]
        except Exception:
            raise LobbyError(503, "not_stored", NOT_STORED) from None
        return {"upcoming": upcoming, "live": live, "finished": finished}

    def events_of(self, player_id: int) -> list[str]:
        """The upcoming and running events a player is registered in."""
        return [ev.id for ev in self.events.values() if player_id in ev.player_ids()]

    async def view(self, event_id: str, viewer: dict[str, Any] | None,
                   code: str | None = None) -> dict[str, Any]:
        """An event's page: spec, entrants, standings, rounds with their matches, podium (a
        private event's for whom `may_see` allows)."""
        ev = self.events.get(event_id)
        if ev is not None:
            row, record = ev.row, to_record(ev.t)
            entries, games = ev.entries, ev.games
        else:
            stored = await self.hub.store.get_tournament(event_id)
            if stored is None:
                raise no_event()
            row, record = stored, json.loads(stored["record"])
            entries = {e["entrant"]: e for e in await self.hub.store.entries(event_id)}
            games = await self.hub.store.tournament_games(event_id)
        if not may_see(row, entries, viewer, code):
            raise no_event()
        return event_view(row, record, entries, games, viewer)

    async def record(self, event_id: str, viewer: dict[str, Any] | None = None,
                     code: str | None = None) -> str:
        """The event record as it stands (the seed in it once the event is over), with its
        match records embedded from their rows: it verifies on its own."""
        ev = self.events.get(event_id)
        if ev is not None:
            record = to_record(self._live(event_id, viewer, code).t)
        else:
            stored = await self.hub.store.get_tournament(event_id)
            if stored is None or (stored["private"] and not may_see(
                    stored, {e["entrant"]: e for e in await self.hub.store.entries(event_id)},
                    viewer, code)):
                raise no_event()
            record = json.loads(stored["record"])
        games = await self.hub.store.tournament_games(event_id)
        texts = await self.hub.store.match_records(list(games.values()))
        return dumps(embed(record, parsed(texts)))

