"""Recurring events: the operator's schedule makes each slot's event once, ahead of its start,
and a restart does not make it again (the database holds one event per entry and slot)."""

from __future__ import annotations

import asyncio
import datetime as dt
import time
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from fastapi.testclient import TestClient
from tests.support.server_app import settings_for
from tests.support.serverproc import wait_until

from carroca.server.app import create_app
from carroca.server.preflight import problem
from carroca.server.storage.store import Store
from carroca.server.tournaments.schedule import ScheduleError, load

ZONE = ZoneInfo("America/Sao_Paulo")


def schedule_file(tmp_path: Path, at: str, **extra: str) -> Path:
    path = tmp_path / "agenda.toml"
    lines = "".join(f"{k} = {v}\n" for k, v in extra.items())
    path.write_text(f'''ahead_hours = 6

[[event]]
key = "noite"
at = "{at}"
name = "Suíço da noite"
format = "swiss"
ruleset = "duplas-pontos"
rounds = 5
{lines}''', encoding="utf-8")
    return path


def in_two_hours() -> dt.datetime:
    return (dt.datetime.now(ZONE) + dt.timedelta(hours=2)).replace(second=0, microsecond=0)


def recurring(client: TestClient) -> list[dict[str, Any]]:
    return [e for e in client.get("/api/tournaments").json()["upcoming"] if e["recurring"]]


def test_a_slot_is_made_once_ahead_and_not_again_after_a_restart(database: str,
                                                                  tmp_path: Path) -> None:
    at = in_two_hours()
    settings = settings_for(database, tournament_schedule=str(schedule_file(
        tmp_path, f"{at:%H:%M}")), tournament_schedule_seconds=0.05)
    with TestClient(create_app(settings)) as client:
        scheduler = client.app.state.scheduler  # type: ignore[attr-defined]
        wait_until(lambda: scheduler.ticks >= 5, "five looks at the schedule")
        events = recurring(client)
        assert len(events) == 1 and scheduler.made == 1
        event = events[0]
        assert event["name"] == "Suíço da noite" and event["ruleset"] == "duplas-pontos"
        minutes = f"{at.minute:02d}" if at.minute else ""
        assert event["recurring"] == f"Todo dia às {at.hour}h{minutes}"
        assert abs(event["starts_at"] - at.timestamp()) < 1
        page = client.get(f"/api/tournaments/{event['id']}").json()
        assert page["recurring"] == event["recurring"] and page["rounds_planned"] == 5
    with TestClient(create_app(settings)) as client:  # restarted on the same database
        scheduler = client.app.state.scheduler  # type: ignore[attr-defined]
        wait_until(lambda: scheduler.ticks >= 5, "five looks at the schedule")
        assert scheduler.made == 0
        assert [e["id"] for e in recurring(client)] == [event["id"]]


def test_the_database_keeps_one_event_a_slot(database: str) -> None:
    """Two nodes making the same slot at once: the unique key (schedule_key, slot) keeps one,
    whoever inserts first; the other is told, not refused with an error."""

    def row(event_id: str) -> dict[str, Any]:
        return {"id": event_id, "name": "Copa", "format": "swiss", "ruleset": "bloqueio",
                "options": {}, "spec": {}, "status": "upcoming", "created_at": time.time(),
                "starts_at": time.time() + 60, "turn_seconds": 20.0, "seed": "0" * 64,
                "commitment": "0" * 64, "record": "{}", "schedule_key": "noite",
                "slot": "2026-12-06T20:00 America/Sao_Paulo"}

    async def both() -> list[bool]:
        store = Store(database)
        try:
            return list(await asyncio.gather(store.insert_scheduled(row("primeiro")),
                                             store.insert_scheduled(row("segundo"))))
        finally:
            store.close()

    assert sorted(asyncio.run(both())) == [False, True]


def test_a_wrong_schedule_stops_the_start_with_what_is_wrong(tmp_path: Path) -> None:
    settings = settings_for("sqlite:///unused.db")
    with pytest.raises(ScheduleError, match="event 1"):
        load(str(schedule_file(tmp_path, "25:00")), settings)
    with pytest.raises(ScheduleError, match="Este servidor não completa torneios com bots"):
        load(str(schedule_file(tmp_path, "20:00", bots='"expert"', capacity="8")), settings)
    good = load(str(schedule_file(tmp_path, "20:00")), settings)
    assert [(e.key, e.at, e.zone.key) for e in good] == [("noite", dt.time(20), ZONE.key)]
    # A slot is made within `ahead_hours` of its start, named by its local date and time.
    noon = dt.datetime(2026, 12, 6, 15, 0, tzinfo=ZONE).timestamp()
    assert good[0].slots(noon) == [("2026-12-06T20:00 America/Sao_Paulo",
                                    dt.datetime(2026, 12, 6, 20, 0, tzinfo=ZONE).timestamp())]
    assert good[0].slots(noon - 3660) == []  # 6 hours and a minute before: not yet
    assert "event 1" in (problem(settings_for("sqlite:///x.db", tournament_schedule=str(
        schedule_file(tmp_path, "nunca")))) or "")
