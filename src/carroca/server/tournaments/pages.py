"""What anyone may read of the events: the list of the lobby's "Torneios" tab, an event's page,
its record, the events a player is in.

A private event is shown to its creator, its entrants and whoever brings its invitation only
(`may_see`): to anyone else its page and record answer 404, as an event that does not exist.

The list and a player's events are read from the database: the node running an event stores
its record and entries at every change but a game's result, before it answers, so every node of
a cluster lists the same. An event's page and record are read from the event itself on the node
that runs it (`live`: it has the results of the round in play, which the stored record holds
only from the round's next write on); another node asks that one for the page
(`Tournaments.watched`), and reads it here from the database once no node runs the event
(docs/tournaments.md, "In a cluster").
"""

from __future__ import annotations

import json
from typing import Literal, TypedDict

from carroca.server.errors import BadCursor, NotStored, ServerError
from carroca.server.records import Player
from carroca.server.storage.rows import EntryRow, EventRow
from carroca.server.storage.store import Store
from carroca.server.tournaments.state import Event, may_see, no_event, parsed
from carroca.server.tournaments.views import (
    EventRecord,
    EventSummary,
    PersonalPage,
    event_view,
    read_record,
    summary,
)
from carroca.tournament import EventSpec, GameKey, to_record
from carroca.tournament.eventrecord import dumps, embed

PAGE = 20  # events a page of a list, unless asked for fewer (at most MAX_PAGE)
MAX_PAGE = 50
Kind = Literal["upcoming", "live", "finished"]
KINDS: tuple[Kind, ...] = ("upcoming", "live", "finished")
SORTED_BY: dict[Kind, Literal["starts_at", "started_at", "finished_at"]] = {
    "upcoming": "starts_at", "live": "started_at", "finished": "finished_at"}


class More(TypedDict, total=False):
    """Each list's cursor to its next page (None: no more)."""

    upcoming: str | None
    live: str | None
    finished: str | None


class Listing(TypedDict, total=False):
    """A page of each list asked for, and where each goes on."""

    more: More
    upcoming: list[EventSummary]
    live: list[EventSummary]
    finished: list[EventSummary]


def cursor_of(item: EventSummary, kind: Kind) -> str:
    """Where the next page of a list starts: the last item's sort value and id."""
    return f"{item[SORTED_BY[kind]]!r}~{item['id']}"


def parse_cursor(cursor: str | None) -> tuple[float, str] | None:
    if not cursor:
        return None
    value, _, last = cursor.partition("~")
    try:
        return float(value), last
    except ValueError:
        raise BadCursor() from None


async def listing(store: Store, kinds: tuple[Kind, ...] = KINDS, limit: int = PAGE,
                  after: str | None = None) -> Listing:
    """Public events, a page of each list asked for: upcoming (soonest first), live (the
    earliest started first), finished (the latest first); `more` has each list's cursor to
    its next page (None: no more)."""
    more: More = {}
    out: Listing = {"more": more}
    for kind in kinds:
        try:  # one more than asked: whether there is a next page
            rows = await store.listed_tournaments(kind, limit + 1, parse_cursor(after))
        except ServerError:
            raise
        except Exception:
            raise NotStored() from None
        items = []
        for row in rows[:limit]:
            item = summary(row)
            if kind != "finished":
                # Its entries' players: solo players of a duplas event are paired at the
                # start (the odd one left out), as the director does.
                sizes = row["sizes"]
                running_duplas = row["status"] == "running" and \
                    EventSpec.from_dict(row["spec"]).duplas
                item["entrants"] = sizes.count(2) + sizes.count(1) // 2 if running_duplas \
                    else len(sizes)
            items.append(item)
        out[kind] = items
        more[kind] = cursor_of(items[-1], kind) if len(rows) > limit else None
    return out


async def events_of(store: Store, player_id: int) -> list[str]:
    """The upcoming and running events a player is registered in."""
    try:
        entries = await store.live_entries()
    except Exception:
        raise NotStored() from None
    return list(dict.fromkeys(event for event, players in entries
                              if any(p.get("id") == player_id for p in players)))


async def page(store: Store, event_id: str, viewer: Player | None,
               code: str | None = None, live: Event | None = None) -> PersonalPage:
    """An event's page: spec, entrants, standings, rounds with their matches, podium; a
    private event's to whom `may_see` allows (404 to anyone else). `live`: the event as this
    node runs it, with the results of the round in play."""
    row: EventRow
    record: EventRecord
    entries: dict[str, EntryRow]
    games: dict[GameKey, str]
    if live is not None:
        row, record = live.row, read_record(live.t)
        entries, games = live.entries, live.games
    else:
        stored = await store.get_tournament(event_id)
        if stored is None:
            raise no_event()
        row, record = stored, json.loads(stored["record"])
        entries = {e["entrant"]: e for e in await store.entries(event_id)}
        games = await store.tournament_games(event_id)
    if not may_see(row, entries, viewer, code):
        raise no_event()
    return event_view(row, record, entries, games, viewer)


async def record(store: Store, event_id: str, viewer: Player | None = None,
                 code: str | None = None, live: Event | None = None) -> str:
    """The event record as it stands (the seed in it once the event is over), with its match
    records embedded from their rows: it verifies on its own. A private event's as its page."""
    if live is not None:
        row, entries, data = live.row, live.entries, to_record(live.t)
    else:
        stored = await store.get_tournament(event_id)
        if stored is None:
            raise no_event()
        row, data = stored, json.loads(stored["record"])
        entries = {e["entrant"]: e for e in await store.entries(event_id)} \
            if stored["private"] else {}
    if not may_see(row, entries, viewer, code):
        raise no_event()
    games = await store.tournament_games(event_id)
    texts = await store.match_records(list(games.values()))
    return dumps(embed(data, parsed(texts)))
