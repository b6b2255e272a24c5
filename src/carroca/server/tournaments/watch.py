"""An event's channel (`e:<event id>`): what the node running an event pushes to the pages
watching it, once per change, so that watchers cost nothing while nothing changes.

The owner keeps the event's public view (`views.public_view`, the page without the viewer's own
part) as last pushed, with a version. After every change (anything done under the event's lock)
it compares a cheap key of the event's state with the one pushed; when it moved and someone
listens on the channel (on any node: the fan-out knows), it builds the view again and publishes
what differs: the top-level fields that changed, the standings' lines that changed, and the
tables that changed in each round (a new round whole). A watcher's page applies it to what it
shows (`web/js/torneio-live.js`) when its version is the next one; otherwise it asks again
(`watch`), and the answer is the whole view as that watcher may see it.

Versions start at the microsecond the node began running the event, and grow by one a change:
the node that takes an event over starts above its old owner, so a page seeing the new owner's
first change asks for the whole view again.
"""

from __future__ import annotations

from typing import Any

from carroca.server.realtime import wire
from carroca.server.realtime.fanout import Fanout, event_channel
from carroca.server.tournaments.state import Event
from carroca.server.tournaments.views import (
    EventPage,
    RoundView,
    StandingView,
    public_view,
    read_record,
)


def state_key(ev: Event) -> tuple[Any, ...]:
    """What an event's view follows from, cheaply: a change to any moves it (the director's
    log, the entries and their players, the games' matches, the status)."""
    return (len(ev.t.log), len(ev.entries), sum(len(e["players"]) for e in ev.entries.values()),
            len(ev.games), ev.row["status"], ev.row.get("started_at"))


def current(ev: Event) -> tuple[EventPage, int]:
    """The event's public view as it stands, and the version a page showing it is at. The view
    pushed last is kept; while a change is being made (under the event's lock, before its
    push) a fresh view is built and not kept: the page gets the change again with the next
    version, and applying it changes nothing there (a change replaces what it names)."""
    key = state_key(ev)
    if ev.view is None:  # nobody watches (or nobody did when it last changed): kept from now
        ev.view, ev.view_key = public_view(ev.row, read_record(ev.t), ev.entries, ev.games), key
    elif ev.view_key != key:
        return public_view(ev.row, read_record(ev.t), ev.entries, ev.games), ev.version
    return ev.view, ev.version


def push(ev: Event, fanout: Fanout) -> bool:
    """After a change: publish what differs from the view last pushed, if anyone listens (on
    any node). True when something was published."""
    key = state_key(ev)
    if ev.view_key == key:
        return False
    channel = event_channel(ev.id)
    if not fanout.listening(channel):  # nobody to tell: built when someone asks
        ev.view, ev.view_key = None, None
        ev.version += 1
        return False
    old = ev.view
    new = public_view(ev.row, read_record(ev.t), ev.entries, ev.games)
    ev.view, ev.view_key = new, key
    change = None if old is None else diff(old, new)
    if old is not None and change is None:  # nothing a page shows moved
        return False
    ev.version += 1
    if change is None:  # no base to compare with: the whole public view
        frame = wire.frame(wire.EventView(event=ev.id, version=ev.version, view=new))
    else:
        fields, standings, rounds = change
        frame = wire.frame(wire.EventChange(event=ev.id, version=ev.version, set=fields,
                                            standings=standings, rounds=rounds))
    fanout.publish(channel, frame)
    return True


def diff(old: EventPage, new: EventPage
         ) -> tuple[dict[str, object], list[StandingView], list[RoundView]] | None:
    """What changed from `old` to `new`: the top-level fields (the whole standings when its
    entrants changed), the standings' lines that changed, and per round the tables that
    changed (with the round's byes; a new round whole). None when nothing did."""
    fields = {k: v for k, v in new.items()
              if k not in ("standings", "rounds") and old.get(k) != v}
    lines: list[StandingView] = []
    before = {s["entrant"]: s for s in old["standings"]}
    if set(before) != {s["entrant"] for s in new["standings"]}:
        fields["standings"] = new["standings"]
    else:
        lines = [s for s in new["standings"] if before[s["entrant"]] != s]
    rounds: list[RoundView] = []
    was = {r["round"]: r for r in old["rounds"]}
    for rnd in new["rounds"]:
        prev = was.get(rnd["round"])
        if prev is None:
            rounds.append(rnd)
            continue
        tables = {t["table"]: t for t in prev["tables"]}
        changed = [t for t in rnd["tables"] if tables.get(t["table"]) != t]
        if changed or prev["byes"] != rnd["byes"]:  # the round's own keys, the tables last
            if "at" in rnd:
                rounds.append({"round": rnd["round"], "byes": rnd["byes"], "at": rnd["at"],
                               "tables": changed})
            else:
                rounds.append({"round": rnd["round"], "byes": rnd["byes"], "tables": changed})
    if not fields and not lines and not rounds:
        return None
    return fields, lines, rounds
