"""Recurring events: the operator's schedule (a TOML file named by `tournament_schedule`), each
entry an event made again for every slot ("every day at 20:00"), some hours ahead so that
players see it and register.

Any node may make a slot's event: the database keeps one per (entry, slot), whichever node
inserts first (`Store.insert_scheduled`, a unique key), so two nodes, or a node restarted, never
make a second. In a cluster only a node holding its lease makes them, and the one that made an
event owns it, as its creator's node would.

The file (docs/tournaments.md, "Recurring events"):

    timezone = "America/Sao_Paulo"   # the default
    ahead_hours = 6                  # an event is made this long before its start

    [[event]]
    key = "suico-20h"                # names the entry: its events are one per slot
    at = "20:00"                     # every day, in the time zone
    name = "Suíço das 20h"
    format = "swiss"
    ruleset = "duplas-pontos"
    rounds = 5                       # and any field of POST /api/tournaments but the times
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import re
import time
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from carroca.server.tournaments.state import NewEvent, new_event

if TYPE_CHECKING:
    from carroca.server.settings import Settings
    from carroca.server.tournaments.service import Tournaments

DEFAULT_ZONE = "America/Sao_Paulo"
DEFAULT_AHEAD_HOURS = 6.0
#: The fields of an entry that are the event's own (as `POST /api/tournaments` takes them).
EVENT_FIELDS = frozenset({"name", "format", "ruleset", "options", "rounds", "best_of",
                          "duration", "capacity", "turn_seconds", "bots"})
KEY = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")
log = logging.getLogger("carroca.server")


class ScheduleError(ValueError):
    """The schedule file cannot be used: the server does not start (the operator's to fix)."""


@dataclass(frozen=True)
class Recurring:
    """One entry of the schedule: an event every day at `at` in `zone`."""

    key: str
    at: dt.time
    zone: ZoneInfo
    ahead: float  # seconds before its start that an event is made
    event: NewEvent  # its fields, as POST /api/tournaments takes them

    def slots(self, now: float) -> list[tuple[str, float]]:
        """The slots to make now: (its name, its start) for each start within `ahead` from
        `now`. A slot's name is its local date and time and the zone, so it is the same on
        every node whatever its clock's zone."""
        today = dt.datetime.fromtimestamp(now, self.zone).date()
        out = []
        for days in range(-1, int(self.ahead // 86400) + 2):
            day = today + dt.timedelta(days=days)
            starts = dt.datetime.combine(day, self.at, tzinfo=self.zone).timestamp()
            if now < starts <= now + self.ahead:
                out.append((f"{day.isoformat()}T{self.at:%H:%M} {self.zone.key}", starts))
        return out


def load(path: str, settings: Settings) -> list[Recurring]:
    """The entries of a schedule file, each checked as the server would check the event (a
    wrong one stops the start with a message naming it)."""
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ScheduleError(f"tournament schedule {path}: {exc}") from None
    unknown = set(data) - {"timezone", "ahead_hours", "event"}
    if unknown:
        raise ScheduleError(f"tournament schedule {path}: unknown keys {sorted(unknown)}")
    entries: list[Recurring] = []
    for i, item in enumerate(data.get("event", [])):
        where = f"tournament schedule {path}, event {i + 1}"
        key = str(item.get("key", ""))
        if not KEY.fullmatch(key) or any(e.key == key for e in entries):
            raise ScheduleError(f"{where}: `key` must be unique, a-z 0-9 and -, at most 40")
        unknown = set(item) - EVENT_FIELDS - {"key", "at", "every", "timezone", "ahead_hours"}
        if unknown:
            raise ScheduleError(f"{where}: unknown keys {sorted(unknown)}")
        if item.get("every", "day") != "day":
            raise ScheduleError(f"{where}: `every` can only be \"day\"")
        try:
            at = dt.time.fromisoformat(str(item["at"]))
            zone = ZoneInfo(str(item.get("timezone", data.get("timezone", DEFAULT_ZONE))))
            ahead = float(item.get("ahead_hours", data.get("ahead_hours",
                                                           DEFAULT_AHEAD_HOURS))) * 3600
        except (KeyError, ValueError, ZoneInfoNotFoundError) as exc:
            raise ScheduleError(f"{where}: `at` (HH:MM), `timezone`, `ahead_hours`: {exc}") \
                from None
        if not 0 < ahead <= 7 * 86400:
            raise ScheduleError(f"{where}: `ahead_hours` from 0 to 168")
        # The file's values as they are: checked just below, as a player's request would be.
        event = cast(NewEvent, {k: v for k, v in item.items() if k in EVENT_FIELDS})
        try:  # as the server checks a player's request
            new_event(settings, None, {**event, "starts_at": time.time() + 60})
        except Exception as exc:
            raise ScheduleError(f"{where}: {getattr(exc, 'message', exc)}") from None
        entries.append(Recurring(key, at.replace(second=0, microsecond=0), zone, ahead, event))
    return entries


class Scheduler:
    """Makes the schedule's events, slot by slot, every `tournament_schedule_seconds`, while
    `may_make` (in a cluster: this node holds its lease)."""

    def __init__(self, tournaments: Tournaments, entries: list[Recurring],
                 may_make: Callable[[], bool] = lambda: True) -> None:
        self.tournaments = tournaments
        self.entries = entries
        self.may_make = may_make
        self.made = 0  # events this node made
        self.ticks = 0  # looks at the schedule done

    async def tick(self, now: float | None = None) -> int:
        """Make every slot due that has no event yet; returns how many this node made."""
        made = 0
        for entry in self.entries:
            for slot, starts_at in entry.slots(time.time() if now is None else now):
                if not self.may_make():
                    return made
                try:
                    made += await self.tournaments.create_scheduled(entry.key, slot, starts_at,
                                                                    entry.event)
                except Exception:  # the store logs an outage once; the next tick tries again
                    log.exception("tournament schedule %s, slot %s: not made", entry.key, slot)
        self.made += made
        self.ticks += 1
        return made

    async def run(self, every: float) -> None:
        while True:
            with contextlib.suppress(Exception):
                await self.tick()
            await asyncio.sleep(every)
