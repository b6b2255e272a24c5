"""What the server keeps of a tournament and how it shows it: a new event's row, checked from
its creator's request; the live `Event` (the director, its entries, the match of each game); the
director's refusals as the server answers them; and an event's page and list entry, built from
its row and record."""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from carroca.server.errors import (
    BadEventName,
    BadStart,
    BadTurnSeconds,
    BotsNeedCapacity,
    CapacityTooLarge,
    EventNotFound,
    NoEventBots,
    ServerError,
)
from carroca.server.errors import (
    EventMoved as EventMoved,  # raised by the tournaments and their owners
)
from carroca.server.records import Player
from carroca.server.settings import Settings
from carroca.server.tables.chat import clean_text
from carroca.tournament import (
    FORMAT_NAMES,
    EventSpec,
    GameKey,
    Tournament,
    TournamentError,
    to_record,
)
from carroca.tournament.eventrecord import dumps
from carroca.tournament.knockout import rounds_needed
from carroca.tournament.standings import decided_by

log = logging.getLogger("carroca.server")
MAX_AHEAD = 30 * 24 * 3600.0  # an event starts within 30 days
MIN_TURN, MAX_TURN = 1.0, 120.0

#: The HTTP status of each refusal of the director.
STATUS = {"invalid_event": 422, "unknown_entrant": 404, "unknown_game": 404}


def refused(exc: TournamentError) -> ServerError:
    """A director's refusal as the server answers it (its pt-BR message, its code)."""
    return ServerError(STATUS.get(exc.code, 409), exc.code, exc.message)


def no_event() -> ServerError:
    return EventNotFound()


class Relay(Protocol):
    """The cluster, as the tournaments reach an event another node runs
    (`carroca.server.tournaments.owners`)."""

    async def forward(self, event_id: str, method: str, args: dict[str, Any]) -> Any:
        """`method` (`register`, `withdraw`, `start`, `view`) run by the event's owner node; raises
        the owner's ServerError, 404 when the event is not live, 503 while it changes nodes."""


def new_event(settings: Settings, player: Player | None, body: dict[str, Any]
              ) -> tuple[dict[str, Any], Tournament]:
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
    turn = float(body.get("turn_seconds") or settings.turn_seconds)
    if not MIN_TURN <= turn <= MAX_TURN:
        raise BadTurnSeconds(MIN_TURN, MAX_TURN)
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
    row = {
        "id": t.event_id, "name": name, "format": spec.format, "ruleset": spec.ruleset,
        "options": dict(spec.options), "spec": spec.to_dict(), "status": "upcoming",
        "creator": None if player is None else player["id"], "created_at": now,
        "starts_at": float(starts_at),
        "started_at": None, "finished_at": None, "turn_seconds": turn, "bots": bots,
        "private": bool(body.get("private")),
        "invite": secrets.token_urlsafe(6) if body.get("private") else None,
        "seed": t.event_seed, "commitment": t.commitment, "record": dumps(to_record(t)),
    }
    return row, t


def may_see(row: dict[str, Any], entries: dict[str, dict[str, Any]],
            viewer: Player | None, code: str | None) -> bool:
    """Whether an event is shown to `viewer`. A private one is its creator's, its entrants'
    and its invitation holders' only (the event's code, or a dupla's partner invitation): to
    anyone else it answers as an event that does not exist, so its existence does not leak."""
    if not row["private"]:
        return True
    if viewer is not None and (row["creator"] == viewer["id"] or any(
            p.get("id") == viewer["id"] for e in entries.values() for p in e["players"])):
        return True
    if not code:
        return False
    codes = [row.get("invite"), *(e.get("partner_invite") for e in entries.values())]
    return any(c and hmac.compare_digest(c.encode(), code.encode()) for c in codes)


def parsed(texts: dict[str, str]) -> Callable[[str], dict[str, Any] | None]:
    """Match records by id, from their rows' JSON text (`match_records`), parsed when asked
    for: one at a time, however many the event has."""

    def resolve(match_id: str) -> dict[str, Any] | None:
        text = texts.get(match_id)
        return None if text is None else dict(json.loads(text))

    return resolve


@dataclass
class Event:
    """One upcoming or running event kept here."""

    row: dict[str, Any]
    t: Tournament
    entries: dict[str, dict[str, Any]]  # entrant id -> its stored entry
    games: dict[GameKey, str] = field(default_factory=dict)  # game -> match id
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    timer: asyncio.TimerHandle | None = None  # its start, or an arena's close
    fence: int | None = None  # in a cluster, the epoch its writes carry (`Fenced`)
    written: int = 0  # the director's log entries the stored record holds
    logged: int = 0  # and with those appended past it (`tournament_log`): all that is stored
    address: str | None = None  # where its creator made it from (the bot budget's count)
    # The public view last pushed on the event's channel, what it followed from, and its
    # version: from the microsecond this node began running it (`tournaments.watch`).
    view: dict[str, Any] | None = None
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

    def go_on(self, entries: list[dict[str, Any]], resolve: Callable[[str], Any]) -> None:
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

    def record_result(self, key: GameKey, record: dict[str, Any], match_id: str) -> bool:
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

    def seat_of(self, name: str) -> dict[str, Any]:
        """The seat a player (or bot) of the event takes at a table, by their name."""
        for entry in self.entries.values():
            for p in entry["players"]:
                if p["name"] == name:
                    return dict(p) if "bot" in p else {"player": p["id"], "name": p["name"]}
        raise KeyError(name)

    def entrant_of(self, player_id: int) -> str | None:
        for entrant, entry in self.entries.items():
            if any(p.get("id") == player_id for p in entry["players"]):
                return entrant
        return None

    def player_ids(self) -> set[int]:
        return {p["id"] for e in self.entries.values() for p in e["players"] if "id" in p}

    def ids_by_name(self) -> dict[str, int]:
        """Each person's id by the name the director knows them by (bots have none)."""
        return {p["name"]: p["id"] for e in self.entries.values() for p in e["players"]
                if "id" in p}

    def now(self) -> float | None:
        """Arena: seconds since the start (never back in time); other formats: None."""
        if self.t.spec.format != "arena":
            return None
        return max(self.t.clock, round(time.time() - (self.row["started_at"] or time.time()), 3))


def summary(row: dict[str, Any]) -> dict[str, Any]:
    spec = row["spec"]
    return {"id": row["id"], "name": row["name"], "format": row["format"],
            "format_name": FORMAT_NAMES.get(row["format"], row["format"]),
            "ruleset": row["ruleset"], "status": row["status"], "starts_at": row["starts_at"],
            "started_at": row["started_at"], "finished_at": row["finished_at"],
            "options": row["options"], "rounds": spec.get("rounds"),
            "best_of": spec.get("best_of"),
            "duration": spec.get("duration"), "capacity": spec.get("capacity"),
            "bots": row.get("bots"), "recurring": recurring_text(row.get("slot")),
            "note": row.get("note")}


def recurring_text(slot: str | None) -> str | None:
    """A recurring event's schedule as players read it: "Todo dia às 20h" (its slot is
    `<date>T<HH:MM> <zone>`)."""
    if not slot:
        return None
    hour, minute = slot.split("T", 1)[1][:5].split(":")
    return f"Todo dia às {int(hour)}h{minute if minute != '00' else ''}"


def standings_view(record: dict[str, Any], names: dict[str, str], finished: bool
                   ) -> list[dict[str, Any]]:
    """The record's standings, each line with its entrant's name and, where it is level with
    the line above on every number shown, what `decided_by` put it below."""
    lines = record["standings"]
    ratings = {e["id"]: e.get("rating") for e in record["entrants"]}
    beaten = [(tie["winner"], next(s for s in tie["sides"] if s != tie["winner"]))
              for rnd in record["rounds"] for tie in rnd["tables"]
              if tie["winner"] is not None and len(set(tie["sides"])) == 2
              and not any((g.get("outcome") or {}).get("kind") == "forfeit"
                          for g in tie["games"])]
    fmt = record["event"]["format"]
    champion = lines[0]["entrant"] if finished and fmt == "knockout" and lines else None
    out = []
    for line, why in zip(lines, decided_by(fmt, lines, ratings, beaten, champion),
                         strict=True):
        item = {**line, "name": names.get(line["entrant"], line["entrant"])}
        if why is not None:
            item["decided"] = why
        out.append(item)
    return out


def event_view(row: dict[str, Any], record: dict[str, Any], entries: dict[str, dict[str, Any]],
          games: dict[GameKey, str], viewer: Player | None) -> dict[str, Any]:
    """An event's page as `viewer` sees it: the public view and their own part of it."""
    return personal(public_view(row, record, entries, games), row, entries, viewer)


def public_view(row: dict[str, Any], record: dict[str, Any], entries: dict[str, dict[str, Any]],
                games: dict[GameKey, str]) -> dict[str, Any]:
    """An event's page as anyone allowed to see it sees it: what the event's channel pushes
    (`tournaments.watch`). Each game names its players, so a page tells its own game apart."""
    out = summary(row)
    names = {e["id"]: e["name"] for e in record["registrations"]}
    names.update({e["id"]: e["name"] for e in record["entrants"]})
    out.update(
        options=row["options"], private=bool(row["private"]), turn_seconds=row["turn_seconds"],
        bots=row["bots"], commitment=row["commitment"],
        event_seed=record["fairness"].get("event_seed"),
        registrations=[
            {"id": k, "name": e["name"], "players": [p["name"] for p in e["players"]],
             "bot": any("bot" in p for p in e["players"]),
             "waiting_partner": bool(e.get("partner_invite")) and len(e["players"]) == 1}
            for k, e in entries.items()],
        entrants=[{"id": e["id"], "name": e["name"], "seed": e["seed"],
                   "players": e["players"]} for e in record["entrants"]],
        left_out=record.get("left_out", []),
        standings=standings_view(record, names, finished=row["status"] == "finished"),
    )
    rounds = []
    for rnd in record["rounds"]:
        tables = []
        for tie in rnd["tables"]:
            played = []
            for g in tie["games"]:
                match_id = games.get((rnd["round"], tie["table"], g["game"])) or \
                    (g.get("outcome") or {}).get("record_id")  # a played game names its match
                played.append({"game": g["game"], "match": match_id, "sides": g["sides"],
                               "players": g["players"], "outcome": g.get("outcome")})
            tables.append({"table": tie["table"], "sides": tie["sides"],
                           "names": [names.get(s, s) for s in tie["sides"]],
                           "winner": tie["winner"], "games": played})
        item: dict[str, Any] = {"round": rnd["round"], "byes": rnd["byes"], "tables": tables}
        if "at" in rnd:
            item["at"] = rnd["at"]
        rounds.append(item)
    out["rounds_planned"] = out["rounds"]  # the spec's (Swiss; None: as many as needed)
    out["rounds"] = rounds
    spec = record["event"]
    entrants = len(record["entrants"])
    if spec["format"] == "knockout" and entrants:
        out["total_rounds"] = rounds_needed(entrants)
    elif spec["format"] == "swiss" and entrants:
        out["total_rounds"] = EventSpec.from_dict(spec).rounds_for(entrants)
    if row["status"] == "finished":
        out["podium"] = [{"rank": s["rank"], "entrant": s["entrant"], "name": s["name"]}
                         for s in out["standings"][:3]]
    return out


def personal(public: dict[str, Any], row: dict[str, Any], entries: dict[str, dict[str, Any]],
             viewer: Player | None) -> dict[str, Any]:
    """The public view with the viewer's own part: `creator` (and a private event's `invite`
    for its creator), `me` (their entry, a dupla's partner invitation while it waits) and
    `my_match` (their game being played). The web page works `me` and `my_match` out again from
    pushed changes (`torneio-live.js`), the same way."""
    out = dict(public)
    out["creator"] = viewer is not None and row["creator"] == viewer["id"]
    if out["creator"] and row.get("invite"):
        out["invite"] = row["invite"]
    me: dict[str, Any] | None = None
    mine = None
    if viewer is not None:
        mine = next((k for k, e in entries.items()
                     if any(p.get("id") == viewer["id"] for p in e["players"])), None)
    if mine is not None and viewer is not None:
        entry = entries[mine]
        me = {"entrant": mine, "name": entry["name"]}
        for e in public["entrants"]:  # a solo player of a 2v2 event plays in a formed dupla
            if viewer["name"] in e["players"]:
                me = {"entrant": e["id"], "name": e["name"]}
        if entry.get("partner_invite") and len(entry["players"]) == 1:
            me["partner_invite"] = entry["partner_invite"]
    out["me"] = me
    playing = None
    if viewer is not None:
        for rnd in public["rounds"]:
            for tie in rnd["tables"]:
                for g in tie["games"]:
                    if g["outcome"] is None and viewer["name"] in g["players"]:
                        playing = g["match"]
    out["my_match"] = playing
    return out
