"""What anyone may read of the events: the list of the lobby's "Torneios" tab, an event's page,
its record, the events a player is in.

All of it is read from the database, never from the event kept in memory: the node running an
event stores its record at every change, before it answers, so every node of a cluster shows
the same page whichever node runs the event (docs/tournaments.md, "In a cluster").
"""

from __future__ import annotations

import json
from typing import Any

from carroca.server.errors import NOT_STORED, LobbyError
from carroca.server.store import Store
from carroca.server.tournament_state import event_view, no_event, summary
from carroca.tournament import EventSpec

FINISHED_LISTED = 20  # the latest events over, in the list


async def listing(store: Store) -> dict[str, list[dict[str, Any]]]:
    """Public events: upcoming (soonest first), live, and the latest finished."""
    upcoming: list[dict[str, Any]] = []
    live: list[dict[str, Any]] = []
    try:
        rows = await store.live_tournaments()
        finished = [summary(r) for r in await store.finished_tournaments(FINISHED_LISTED)]
    except Exception:
        raise LobbyError(503, "not_stored", NOT_STORED) from None
    for row in rows:
        if row["private"]:
            continue
        item = summary(row)
        # Its entries' players: solo players of a duplas event are paired at the start (the
        # odd one left out), as the director does.
        sizes = row["sizes"]
        running_duplas = row["status"] == "running" and EventSpec.from_dict(row["spec"]).duplas
        item["entrants"] = sizes.count(2) + sizes.count(1) // 2 if running_duplas \
            else len(sizes)
        (upcoming if row["status"] == "upcoming" else live).append(item)
    return {"upcoming": upcoming, "live": live, "finished": finished}


async def events_of(store: Store, player_id: int) -> list[str]:
    """The upcoming and running events a player is registered in."""
    try:
        entries = await store.live_entries()
    except Exception:
        raise LobbyError(503, "not_stored", NOT_STORED) from None
    return list(dict.fromkeys(event for event, players in entries
                              if any(p.get("id") == player_id for p in players)))


async def page(store: Store, event_id: str, viewer: dict[str, Any] | None) -> dict[str, Any]:
    """An event's page: spec, entrants, standings, rounds with their matches, podium."""
    row = await store.get_tournament(event_id)
    if row is None:
        raise no_event()
    entries = {e["entrant"]: e for e in await store.entries(event_id)}
    games = await store.tournament_games(event_id)
    return event_view(row, json.loads(row["record"]), entries, games, viewer)


async def record(store: Store, event_id: str) -> str:
    """The event record as it stands (the seed in it once the event is over)."""
    row = await store.get_tournament(event_id)
    if row is None:
        raise no_event()
    return str(row["record"])
