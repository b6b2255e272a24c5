"""Who takes part in an event before its start: a player registering alone, opening a dupla or
completing one by its invitation, and the bots that fill the free places at the start.

Each change goes to the director first (which refuses what its rules do not allow), then to the
store with the event record that holds it, in one transaction; when the store refuses it, the
director's change is undone, so the event kept here never holds what was not stored.
"""

from __future__ import annotations

import contextlib
import secrets
import time
from typing import NotRequired, TypedDict

from carroca.bots import BOT_LEVELS
from carroca.server.errors import NoDupla, NoDuplas, NotStored
from carroca.server.players.ratings import family_of
from carroca.server.records import Player
from carroca.server.storage.plumbing import Fenced
from carroca.server.storage.rows import EntryBot, EntryPerson, EntryRow, is_entry_bot
from carroca.server.storage.store import Store
from carroca.server.tournaments.state import Event, refused
from carroca.tournament import Entrant, TournamentError, to_record
from carroca.tournament.eventrecord import dumps


class EntryAnswer(TypedDict):
    """A registration as its player is answered: the entrant, its players' names, and a
    dupla's invitation for its partner while it waits."""

    entrant: str
    name: str
    players: list[str]
    partner_invite: NotRequired[str]


class Withdrawn(TypedDict):
    withdrawn: str  # the entrant


def not_stored(exc: Exception) -> Exception:
    """What a refused write becomes: `Fenced` stays itself (the event moved to another node),
    anything else is the 503 a player may try again after."""
    return exc if isinstance(exc, Fenced) else NotStored()


async def rating_of(store: Store, ev: Event, player: Player) -> int | None:
    """The player's rating in the event's family (seeds the draw): an integer, or None."""
    with contextlib.suppress(Exception):
        known = await store.ratings_of([player["id"]], family_of(ev.t.spec.ruleset))
        if player["id"] in known:
            return round(float(known[player["id"]]["ordinal"]) * 100)
    return None


async def register_alone(store: Store, ev: Event, me: EntryPerson, rating: int | None,
                         partner: bool) -> EntryRow:
    """A player's own entry; with `partner`, a dupla waiting for its second player (the entry
    carries the invitation for them)."""
    t = ev.t
    if partner and not t.spec.duplas:
        raise NoDuplas
    entrant = Entrant(me["name"], me["name"], (me["name"],), rating)
    try:
        t.register(entrant)
    except TournamentError as exc:
        raise refused(exc) from None
    entry: EntryRow = {"tournament_id": ev.id, "entrant": entrant.id, "name": entrant.name,
                       "players": [me], "created_at": time.time(),
                       "partner_invite": secrets.token_urlsafe(6) if partner else None}
    try:
        await store.save_entry(entry, dumps(to_record(t)), epoch=ev.fence)
    except Exception as exc:
        t.withdraw(entrant.id)
        raise not_stored(exc) from None
    ev.entries[entrant.id] = entry
    return entry


async def join_dupla(store: Store, ev: Event, me: EntryPerson, invite: str,
                     rating: int | None) -> EntryRow:
    """The partner of a dupla comes: the first player's entry becomes the dupla's."""
    first = next((e for e in ev.entries.values() if e.get("partner_invite") == invite
                  and len(e["players"]) == 1), None)
    if first is None:
        raise NoDupla
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
    entry: EntryRow = {"tournament_id": ev.id, "entrant": dupla.id, "name": dupla.name,
                       "players": [a, me], "created_at": first["created_at"],
                       "partner_invite": None}
    try:
        await store.save_entry(entry, dumps(to_record(t)), replaces=first["entrant"],
                               epoch=ev.fence)
    except Exception as exc:
        t.withdraw(dupla.id)
        if old is not None:
            t.register(old)
        raise not_stored(exc) from None
    del ev.entries[first["entrant"]]
    ev.entries[dupla.id] = entry
    return entry


def entry_answer(entry: EntryRow) -> EntryAnswer:
    """A registration as its player is answered (the dupla's invitation while it waits)."""
    out: EntryAnswer = {"entrant": entry["entrant"], "name": entry["name"],
                        "players": [p["name"] for p in entry["players"]]}
    invite = entry.get("partner_invite")
    if invite:
        out["partner_invite"] = invite
    return out


def bot_places(ev: Event) -> int:
    """The entrants bots would take at the start: the free places of an event that asked for
    bots (a dupla's, or two solo players', are one place)."""
    capacity = ev.t.spec.capacity
    if ev.row["bots"] is None or capacity is None:
        return 0
    size = 2 if ev.t.spec.duplas else 1
    taken = sum(len(e.players) for e in ev.t.registrations)
    return max(0, (capacity * size - taken) // size)


def bot_tables(ev: Event) -> int:
    """The most tables with bots an event seats at once: one a bot entrant, at most half its
    entrants (each table seats two). Before the start from its free places, after it from its
    bot entrants."""
    if ev.row["status"] == "upcoming":
        bots = bot_places(ev)
        entrants = (ev.t.spec.capacity or 0) if bots else 0
    else:
        bots = sum(1 for e in ev.entries.values() if any(is_entry_bot(p) for p in e["players"]))
        entrants = len(ev.t.entrants)
    return min(bots, entrants // 2)


async def fill_with_bots(store: Store, ev: Event) -> None:
    """The free places of an event that asked for it, taken by bots of its level (stored in
    one write)."""
    level = ev.row["bots"]
    if level is None or level not in BOT_LEVELS:
        return
    size = 2 if ev.t.spec.duplas else 1
    free = bot_places(ev)
    number = 0
    entries: list[EntryRow] = []
    for _ in range(free):
        names = []
        for _ in range(size):
            number += 1
            names.append(f"Bot {number}")
        entrant = Entrant("+".join(names), " & ".join(names), tuple(names))
        ev.t.register(entrant)
        entry: EntryRow = {"tournament_id": ev.id, "entrant": entrant.id, "name": entrant.name,
                           "players": [EntryBot(bot=level, name=n) for n in names],
                           "created_at": time.time(), "partner_invite": None}
        entries.append(entry)
        ev.entries[entrant.id] = entry
    await store.save_entries(entries, dumps(to_record(ev.t)), epoch=ev.fence)
