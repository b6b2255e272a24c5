"""An event as pages show it: its list entry, its page (the public view every watcher shares, and
a viewer's own part), built from its row, its record and its entries; typed, with the record
they are read from.

The record (carroca-event/1) is the director's document (`carroca.tournament.to_record`, an
untyped dict): `read_record` is the one place it is taken as its declared shape (`EventRecord`,
what docs/tournaments.md describes), so what a page takes from it is checked. A page is answered
as JSON as it is built (`GET /api/tournaments/{id}`) and pushed in parts to the event's watchers
(`watch`): its keys keep the order they are built in.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict, cast

from carroca.server.records import Player
from carroca.server.storage.rows import (
    EntryRow,
    EventFacts,
    EventRow,
    EventSpecRow,
    EventState,
    is_entry_bot,
    is_entry_person,
)
from carroca.tournament import FORMAT_NAMES, EventSpec, GameKey, Tournament, to_record
from carroca.tournament.knockout import rounds_needed
from carroca.tournament.standings import Decider, decided_by

# ------------------------------------------------------------------ the record, as read


class Outcome(TypedDict):
    """How a game was decided (`results.Outcome.to_dict`): `record_id` names a played game's
    match."""

    kind: Literal["played", "forfeit"]
    winner: int | None
    score: list[int]
    absent: NotRequired[list[str]]
    record_id: NotRequired[str]
    at: NotRequired[float]


class RecordGame(TypedDict):
    game: int
    sides: list[str]
    players: list[str]
    commitment: str
    client_seed: str
    outcome: NotRequired[Outcome]


class RecordTie(TypedDict):
    table: int
    sides: list[str]
    winner: str | None
    games: list[RecordGame]


class RecordRound(TypedDict):
    round: int
    at: NotRequired[float]  # an arena's wave: seconds from the start
    byes: list[str]
    tables: list[RecordTie]


class RecordEntrant(TypedDict):
    """A registration (`Entrant.to_dict`): the entrant's players by name."""

    id: str
    name: str
    players: list[str]
    rating: int | None


class SeededEntrant(RecordEntrant):
    """An entrant who plays, with their seed."""

    seed: int


class StandingLine(TypedDict):
    """A line of the standings (`Standing.to_dict`); `buchholz`, `reached` and `streak` for the
    formats that have them."""

    rank: int
    entrant: str
    points: int
    wins: int
    losses: int
    byes: int
    difference: int
    buchholz: NotRequired[int]
    reached: NotRequired[int]
    streak: NotRequired[int]
    withdrawn: NotRequired[bool]


class RecordFairness(TypedDict):
    commitment: str
    event_seed: NotRequired[str]  # once the event is over


class RecordEvent(EventSpecRow):
    id: str


class EventRecord(TypedDict):
    format: str
    event: RecordEvent
    fairness: RecordFairness
    registrations: list[RecordEntrant]
    entrants: list[SeededEntrant]
    left_out: list[str]
    rounds: list[RecordRound]
    log: list[dict[str, Any]]  # the director's inputs, its own entries (`Tournament.log`)
    standings: list[StandingLine]
    state: str


def read_record(t: Tournament) -> EventRecord:
    """The director's record as it stands, read as its declared shape."""
    return cast(EventRecord, to_record(t))


# ------------------------------------------------------------------ the page


class EventShown(TypedDict):
    """What an event's line in a list and its page both say of it."""

    id: str
    name: str
    format: str
    format_name: str
    ruleset: str
    status: EventState
    starts_at: float
    started_at: float | None
    finished_at: float | None
    options: dict[str, object]
    best_of: int | None
    duration: float | None
    capacity: int | None
    bots: str | None
    recurring: str | None  # "Todo dia às 20h"
    note: str | None  # a cancelled event's reason
    bot_accounts: bool  # bot accounts (the Bot API) may enter


class EventSummary(EventShown):
    """An event in a list (`GET /api/tournaments`)."""

    rounds: int | None
    entrants: NotRequired[int]  # the upcoming and live lists'


class RegistrationView(TypedDict):
    id: str
    name: str
    players: list[str]
    bot: bool
    bot_account: bool  # a bot account (the Bot API) plays it: marked "BOT"
    waiting_partner: bool


class EntrantView(TypedDict):
    id: str
    name: str
    seed: int
    players: list[str]


class StandingView(StandingLine):
    """A line of the standings with its entrant's name."""

    name: str


class DecidedLine(StandingView):
    """A line level with the line above on every number shown, and what put it below."""

    decided: Decider


class GameView(TypedDict):
    game: int
    match: str | None
    sides: list[str]
    players: list[str]
    outcome: Outcome | None


class TieView(TypedDict):
    table: int
    sides: list[str]
    names: list[str]
    winner: str | None
    games: list[GameView]


class RoundView(TypedDict):
    round: int
    byes: list[str]
    tables: list[TieView]
    at: NotRequired[float]


class PodiumLine(TypedDict):
    rank: int
    entrant: str
    name: str


class EventPage(EventShown):
    """An event's page as anyone allowed to see it sees it (`public_view`): the summary's keys
    (`rounds` being the rounds played, `rounds_planned` the spec's), then the event's own."""

    rounds: list[RoundView]
    private: bool
    turn_seconds: float
    commitment: str
    event_seed: str | None
    registrations: list[RegistrationView]
    entrants: list[EntrantView]
    left_out: list[str]
    standings: list[StandingView]
    rounds_planned: int | None
    total_rounds: NotRequired[int]
    podium: NotRequired[list[PodiumLine]]


class Me(TypedDict):
    """The viewer's entrant (a solo player of a duplas event: the dupla they play in), and a
    dupla's invitation for its partner while it waits."""

    entrant: str
    name: str
    partner_invite: NotRequired[str]


class PersonalPage(EventPage):
    """The page as one viewer sees it: whether they made it, their entrant, their game being
    played."""

    creator: bool
    me: Me | None
    my_match: str | None


class CreatorPage(PersonalPage):
    """A private event's page as its creator sees it: with its invitation (between `creator`
    and `me`)."""

    invite: str


# ------------------------------------------------------------------ building them


def summary(row: EventFacts) -> EventSummary:
    spec = row["spec"]
    return {"id": row["id"], "name": row["name"], "format": row["format"],
            "format_name": FORMAT_NAMES.get(row["format"], row["format"]),
            "ruleset": row["ruleset"], "status": row["status"], "starts_at": row["starts_at"],
            "started_at": row["started_at"], "finished_at": row["finished_at"],
            "options": row["options"], "rounds": spec.get("rounds"),
            "best_of": spec.get("best_of"),
            "duration": spec.get("duration"), "capacity": spec.get("capacity"),
            "bots": row.get("bots"), "recurring": recurring_text(row.get("slot")),
            "note": row.get("note"), "bot_accounts": bool(row.get("bot_accounts"))}


def recurring_text(slot: str | None) -> str | None:
    """A recurring event's schedule as players read it: "Todo dia às 20h" (its slot is
    `<date>T<HH:MM> <zone>`)."""
    if not slot:
        return None
    hour, minute = slot.split("T", 1)[1][:5].split(":")
    return f"Todo dia às {int(hour)}h{minute if minute != '00' else ''}"


def standings_view(record: EventRecord, names: dict[str, str], finished: bool
                   ) -> list[StandingView]:
    """The record's standings, each line with its entrant's name and, where it is level with
    the line above on every number shown, what `decided_by` put it below."""
    lines = record["standings"]
    ratings = {e["id"]: e.get("rating") for e in record["entrants"]}
    beaten = [(tie["winner"], next(s for s in tie["sides"] if s != tie["winner"]))
              for rnd in record["rounds"] for tie in rnd["tables"]
              if tie["winner"] is not None and len(set(tie["sides"])) == 2
              and not any(_forfeit(g) for g in tie["games"])]
    fmt = record["event"]["format"]
    champion = lines[0]["entrant"] if finished and fmt == "knockout" and lines else None
    out: list[StandingView] = []
    for line, why in zip(lines, decided_by(fmt, lines, ratings, beaten, champion),
                         strict=True):
        name = names.get(line["entrant"], line["entrant"])
        if why is None:
            out.append({**line, "name": name})
        else:
            out.append(DecidedLine({**line, "name": name, "decided": why}))
    return out


def _forfeit(game: RecordGame) -> bool:
    outcome = game.get("outcome")
    return outcome is not None and outcome["kind"] == "forfeit"


def event_view(row: EventRow, record: EventRecord, entries: dict[str, EntryRow],
               games: dict[GameKey, str], viewer: Player | None) -> PersonalPage:
    """An event's page as `viewer` sees it: the public view and their own part of it."""
    return personal(public_view(row, record, entries, games), row, entries, viewer)


def public_view(row: EventRow, record: EventRecord, entries: dict[str, EntryRow],
                games: dict[GameKey, str]) -> EventPage:
    """An event's page as anyone allowed to see it sees it: what the event's channel pushes
    (`tournaments.watch`). Each game names its players, so a page tells its own game apart."""
    head = summary(row)
    names = {e["id"]: e["name"] for e in record["registrations"]}
    names.update({e["id"]: e["name"] for e in record["entrants"]})
    rounds: list[RoundView] = []
    for rnd in record["rounds"]:
        tables: list[TieView] = []
        for tie in rnd["tables"]:
            played: list[GameView] = []
            for g in tie["games"]:
                outcome = g.get("outcome")  # a played game's names its match
                match_id = games.get((rnd["round"], tie["table"], g["game"])) or \
                    (outcome.get("record_id") if outcome is not None else None)
                played.append({"game": g["game"], "match": match_id, "sides": g["sides"],
                               "players": g["players"], "outcome": outcome})
            tables.append({"table": tie["table"], "sides": tie["sides"],
                           "names": [names.get(s, s) for s in tie["sides"]],
                           "winner": tie["winner"], "games": played})
        item: RoundView = {"round": rnd["round"], "byes": rnd["byes"], "tables": tables}
        if "at" in rnd:
            item["at"] = rnd["at"]
        rounds.append(item)
    out: EventPage = {
        "id": head["id"], "name": head["name"], "format": head["format"],
        "format_name": head["format_name"], "ruleset": head["ruleset"],
        "status": head["status"], "starts_at": head["starts_at"],
        "started_at": head["started_at"], "finished_at": head["finished_at"],
        "options": row["options"], "rounds": rounds, "best_of": head["best_of"],
        "duration": head["duration"], "capacity": head["capacity"], "bots": row["bots"],
        "recurring": head["recurring"], "note": head["note"],
        "bot_accounts": head["bot_accounts"], "private": bool(row["private"]),
        "turn_seconds": row["turn_seconds"],
        "commitment": row["commitment"], "event_seed": record["fairness"].get("event_seed"),
        "registrations": [
            {"id": k, "name": e["name"], "players": [p["name"] for p in e["players"]],
             "bot": any(is_entry_bot(p) for p in e["players"]),
             "bot_account": any(p.get("kind") == "bot" for p in e["players"]),
             "waiting_partner": bool(e.get("partner_invite")) and len(e["players"]) == 1}
            for k, e in entries.items()],
        "entrants": [{"id": e["id"], "name": e["name"], "seed": e["seed"],
                      "players": e["players"]} for e in record["entrants"]],
        "left_out": record.get("left_out", []),
        "standings": standings_view(record, names, finished=row["status"] == "finished"),
        "rounds_planned": head["rounds"],  # the spec's (Swiss; None: as many as needed)
    }
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


def personal(public: EventPage, row: EventRow, entries: dict[str, EntryRow],
             viewer: Player | None) -> PersonalPage:
    """The public view with the viewer's own part: `creator` (and a private event's `invite`
    for its creator), `me` (their entry, a dupla's partner invitation while it waits) and
    `my_match` (their game being played). The web page works `me` and `my_match` out again from
    pushed changes (`torneio-live.js`), the same way."""
    creator = viewer is not None and row["creator"] == viewer["id"]
    me: Me | None = None
    mine = None
    if viewer is not None:
        mine = next((k for k, e in entries.items()
                     if any(is_entry_person(p) and p["id"] == viewer["id"]
                            for p in e["players"])), None)
    if mine is not None and viewer is not None:
        entry = entries[mine]
        me = {"entrant": mine, "name": entry["name"]}
        for e in public["entrants"]:  # a solo player of a 2v2 event plays in a formed dupla
            if viewer["name"] in e["players"]:
                me = {"entrant": e["id"], "name": e["name"]}
        partner_invite = entry.get("partner_invite")
        if partner_invite and len(entry["players"]) == 1:
            me["partner_invite"] = partner_invite
    playing = None
    if viewer is not None:
        for rnd in public["rounds"]:
            for tie in rnd["tables"]:
                for g in tie["games"]:
                    if g["outcome"] is None and viewer["name"] in g["players"]:
                        playing = g["match"]
    invite = row.get("invite")
    if creator and invite:
        return CreatorPage({**public, "creator": creator, "invite": invite, "me": me,
                            "my_match": playing})
    return {**public, "creator": creator, "me": me, "my_match": playing}
