"""What the server keeps of a tournament: a new event's row, checked from its creator's request;
the live `Event` (the director, its entries, the match of each game); the director's refusals
as the server answers them; the calls an event's owner node answers. Its pages are `views`'."""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, NotRequired, Protocol, TypedDict, cast

from carroca.server.errors import (
    BadEventName,
    BadStart,
    BotsNeedCapacity,
    CapacityTooLarge,
    DirectorRefusal,
    EventNotFound,
    FixedEventTurn,
    NoEventBots,
    ServerError,
)
from carroca.server.errors import (
    EventMoved as EventMoved,  # raised by the tournaments and their owners
)
from carroca.server.records import BotSeat, PersonSeat, Player, Seat
from carroca.server.settings import Settings
from carroca.server.storage.rows import (
    EntryRow,
    EventRow,
    EventSpecRow,
    is_entry_bot,
    is_entry_person,
)
from carroca.server.tables.chat import clean_text
from carroca.server.tournaments.views import EventPage, PersonalPage
from carroca.tournament import EventSpec, GameKey, Tournament, TournamentError, to_record
from carroca.tournament.eventrecord import Resolver, dumps

log = logging.getLogger("carroca.server")
MAX_AHEAD = 30 * 24 * 3600.0  # an event starts within 30 days

def refused(exc: TournamentError) -> ServerError:
    """A director's refusal as the server answers it (its pt-BR message, its code)."""
    return DirectorRefusal(exc.code, exc.message)


def no_event() -> ServerError:
    return EventNotFound()


EventMethod = Literal["register", "withdraw", "start", "view"]


class EventCall(TypedDict):
    """A call about an event its owner node runs (`Relay.forward`): who asks (None: nobody
    signed in, for a page), a private event's code, and the method's own arguments; `event`
    and `m` (the method) are added on its way to the owner."""

    player: Player | None
    code: NotRequired[str | None]
    partner: NotRequired[bool]  # register: open a dupla
    invite: NotRequired[str | None]  # register: as the partner of a dupla
    event: NotRequired[str]
    m: NotRequired[str]


class ViewAnswer(TypedDict):
    """The owner's answer to `view`: the page as the asker may see it, and its version."""

    view: PersonalPage
    version: int | None


class Relay(Protocol):
    """The cluster, as the tournaments reach an event another node runs
    (`carroca.server.tournaments.owners`)."""

    async def forward(self, event_id: str, method: EventMethod, args: EventCall) -> Any:
        """`method` run by the event's owner node, its answer (`register`: an `EntryAnswer`,
        `withdraw`: a `Withdrawn`, `view`: a `ViewAnswer`, `start`: None); raises the owner's
        ServerError, 404 when the event is not live, 503 while it changes nodes."""


class NewEvent(TypedDict):
    """The fields of a new event: `POST /api/tournaments`'s body, or an entry of the operator's
    schedule (its values as the TOML file gives them: `new_event` checks them)."""

    name: str
    format: str
    ruleset: str
    options: NotRequired[dict[str, object] | None]
    rounds: NotRequired[int | None]  # Swiss
    best_of: NotRequired[int | None]  # knockout
    duration: NotRequired[float | None]  # arena, seconds
    capacity: NotRequired[int | None]
    starts_at: NotRequired[float | None]  # epoch seconds
    starts_in: NotRequired[float | None]  # or from now
    turn_seconds: NotRequired[float | None]  # only the server's own (`new_event`)
    private: NotRequired[bool]
    bots: NotRequired[str | None]  # a level filling the free places
    bot_accounts: NotRequired[bool]  # bot accounts (the Bot API) may enter


def new_event(settings: Settings, player: Player | None, body: NewEvent
              ) -> tuple[EventRow, Tournament]:
    """A new event's row and director, from the fields of `POST /api/tournaments` (already
    typed), or of the operator's schedule (no `player`); ServerError (pt-BR) for what the
    server does not hold."""
    name = " ".join(clean_text(body["name"]).split())
    if not 3 <= len(name) <= 60:
        raise BadEventName
    bots = body.get("bots")
    if bots is not None:
        if not settings.tournament_bots:
            raise NoEventBots
        if body.get("capacity") is None:
            raise BotsNeedCapacity
    # Every event plays at the server's turn, as ranked tables do: the same time for everyone
    # (an event stored before this rule keeps the turn it was made with).
    turn = settings.turn_seconds
    asked = body.get("turn_seconds")
    if asked is not None and float(asked) != turn:
        raise FixedEventTurn(turn)
    capacity = body.get("capacity")
    if capacity is not None and capacity > settings.max_tournament_capacity:
        raise CapacityTooLarge(settings.max_tournament_capacity)
    now = time.time()
    starts_at = body.get("starts_at")
    if starts_at is None:
        starts_at = now + float(body.get("starts_in") or 0)
    if not now - 60 <= starts_at <= now + MAX_AHEAD:
        raise BadStart
    duration = body.get("duration")
    try:
        spec = EventSpec(body["format"], body["ruleset"], body.get("options") or {},
                         rounds=body.get("rounds"), best_of=body.get("best_of") or 1,
                         duration=None if duration is None else float(duration),
                         capacity=capacity, name=name)
    except TournamentError as exc:
        raise refused(exc) from None
    t = Tournament.create(spec, secrets.token_urlsafe(9)[:12])
    row: EventRow = {
        "id": t.event_id, "name": name, "format": spec.format, "ruleset": spec.ruleset,
        "options": dict(spec.options),
        "spec": cast(EventSpecRow, spec.to_dict()), "status": "upcoming",
        "creator": None if player is None else player["id"], "created_at": now,
        "starts_at": float(starts_at),
        "started_at": None, "finished_at": None, "turn_seconds": turn, "bots": bots,
        "private": bool(body.get("private")), "bot_accounts": bool(body.get("bot_accounts")),
        "invite": secrets.token_urlsafe(6) if body.get("private") else None,
        "seed": t.event_seed, "commitment": t.commitment, "record": dumps(to_record(t)),
    }
    return row, t


def may_see(row: EventRow, entries: Mapping[str, EntryRow],
            viewer: Player | None, code: str | None) -> bool:
    """Whether an event is shown to `viewer`. A private one is its creator's, its entrants'
    and its invitation holders' only (the event's code, or a dupla's partner invitation): to
    anyone else it answers as an event that does not exist, so its existence does not leak."""
    if not row["private"]:
        return True
    if viewer is not None and (row["creator"] == viewer["id"] or any(
            is_entry_person(p) and p["id"] == viewer["id"]
            for e in entries.values() for p in e["players"])):
        return True
    if not code:
        return False
    codes = [row.get("invite"), *(e.get("partner_invite") for e in entries.values())]
    return any(c and hmac.compare_digest(c.encode(), code.encode()) for c in codes)


def parsed(texts: dict[str, str]) -> Resolver:
    """Match records by id, from their rows' JSON text (`match_records`), parsed when asked
    for: one at a time, however many the event has."""

    def resolve(match_id: str) -> Mapping[str, Any] | None:
        text = texts.get(match_id)
        return None if text is None else dict(json.loads(text))

    return resolve


@dataclass
class Event:
    """One upcoming or running event kept here."""

    row: EventRow
    t: Tournament
    entries: dict[str, EntryRow]  # entrant id -> its stored entry
    games: dict[GameKey, str] = field(default_factory=dict)  # game -> match id
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    timer: asyncio.TimerHandle | None = None  # its start, or an arena's close
    fence: int | None = None  # in a cluster, the epoch its writes carry (`Fenced`)
    written: int = 0  # the director's log entries the stored record holds
    logged: int = 0  # and with those appended past it (`tournament_log`): all that is stored
    address: str | None = None  # where its creator made it from (the bot budget's count)
    # The public view last pushed on the event's channel, what it followed from, and its
    # version: from the microsecond this node began running it (`tournaments.watch`).
    view: EventPage | None = None
    view_key: tuple[Any, ...] | None = None
    version: int = field(default_factory=lambda: int(time.time() * 1_000_000))

    def must_store(self) -> bool:
        """Whether what is stored lacks something a restart (or a takeover) could not find
        again: any input since it was written but a game's result (its match's row holds it)."""
        return any("result" not in entry for entry in self.t.log[self.logged:])

    def appendable(self) -> bool:
        """Whether the entries not stored yet may be appended to the stored log instead of
        writing the whole record: an arena's waves and the results before them, as long as the
        event goes on (its start, forfeits, withdrawals, its close and end write the record)."""
        return self.t.spec.format == "arena" and not self.t.is_finished and all(
            "pair" in entry or "result" in entry for entry in self.t.log[self.logged:])

    def go_on(self, entries: list[dict[str, Any]], resolve: Resolver) -> None:
        """Feed the director the log entries stored past its record (`appendable`): the waves
        paired again from the same standings and times, the results from their matches'
        records (`resolve`, by match id)."""
        t = self.t
        for entry in entries:
            at = entry.get("at")
            if "pair" in entry:
                rnd = t.pair_waiting(float(at or 0.0))
                if rnd is None or rnd.number != entry["pair"]:
                    raise ValueError(f"tournament {self.id}: wave {entry['pair']} not paired "
                                     "again as stored")
            else:
                r, table, game = entry["result"]
                match_id = self.games[(r, table, game)]
                record = resolve(match_id)
                if record is None:
                    raise ValueError(f"tournament {self.id}: no record of match {match_id}")
                t.record_game((r, table, game), record, record_id=match_id, at=at, keep=False)
        if entries and t.log[-len(entries):] != entries:  # it wrote the same ones
            raise ValueError(f"tournament {self.id}: its stored log does not replay")

    def record_result(self, key: GameKey, record: Mapping[str, Any], match_id: str) -> bool:
        """A game's match record, fed to the director (which keeps its id only: the match's row
        holds it); False when the game is decided already (heard twice, or forfeited by a
        withdrawal) or the record is not this game's."""
        if all(g.key != key for g in self.t.pending_games()):
            return False
        try:
            self.t.record_game(key, record, record_id=match_id, at=self.now(), keep=False)
        except TournamentError as exc:  # not this game's record
            log.warning("tournament %s: match %s not counted: %s", self.id, match_id,
                        exc.message)
            return False
        return True

    @property
    def id(self) -> str:
        return str(self.row["id"])

    def seat_of(self, name: str) -> Seat:
        """The seat a player (or bot) of the event takes at a table, by their name."""
        for entry in self.entries.values():
            for p in entry["players"]:
                if p["name"] == name:
                    if is_entry_bot(p):
                        return BotSeat(bot=p["bot"], name=p["name"])
                    if is_entry_person(p):
                        seat = PersonSeat(player=p["id"], name=p["name"])
                        if p.get("kind") == "bot":
                            seat["bot_account"] = True
                        return seat
        raise KeyError(name)

    def entrant_of(self, player_id: int) -> str | None:
        for entrant, entry in self.entries.items():
            if any(is_entry_person(p) and p["id"] == player_id for p in entry["players"]):
                return entrant
        return None

    def player_ids(self) -> set[int]:
        return {p["id"] for e in self.entries.values() for p in e["players"]
                if is_entry_person(p)}

    def ids_by_name(self) -> dict[str, int]:
        """Each person's id by the name the director knows them by (bots have none)."""
        return {p["name"]: p["id"] for e in self.entries.values() for p in e["players"]
                if is_entry_person(p)}

    def now(self) -> float | None:
        """Arena: seconds since the start (never back in time); other formats: None."""
        if self.t.spec.format != "arena":
            return None
        return max(self.t.clock, round(time.time() - (self.row["started_at"] or time.time()), 3))
