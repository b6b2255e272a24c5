"""Recurring events in a cluster: two nodes read the same schedule and look at it every 0.1 s;
each slot's event is made once, by one of them (the database's unique key on the schedule entry
and slot), and run by the node that made it."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from pathlib import Path
from zoneinfo import ZoneInfo

import sqlalchemy as sa
from tests.support.clusterproc import Cluster
from tests.support.serverproc import wait_until

from carroca.server.storage.db import normalize_url


def test_each_slot_is_made_once_with_two_nodes_running(
        cluster_factory: Callable[..., Cluster], tmp_path: Path) -> None:
    at = (dt.datetime.now(ZoneInfo("America/Sao_Paulo")) + dt.timedelta(hours=2))
    schedule = tmp_path / "agenda.toml"
    schedule.write_text("ahead_hours = 6\n" + "".join(f'''
[[event]]
key = "{key}"
at = "{at:%H:%M}"
name = "Copa {key}"
format = "{fmt}"
ruleset = "bloqueio"
''' for key, fmt in (("suico", "swiss"), ("arena", "arena"))).replace(
        'format = "arena"', 'format = "arena"\nduration = 600'), encoding="utf-8")
    cluster = cluster_factory(nodes=2, env={"CARROCA_TOURNAMENT_SCHEDULE": str(schedule),
                                            "CARROCA_TOURNAMENT_SCHEDULE_SECONDS": "0.1"})

    def looked(times: int) -> bool:
        for i in (1, 2):
            with cluster.node(i).http() as c:
                if c.get("/api/stats").json()["schedule"]["ticks"] < times:
                    return False
        return True

    wait_until(lambda: looked(20), "both nodes looking at the schedule 20 times", timeout=60)
    made = []
    for i in (1, 2):
        with cluster.node(i).http() as c:
            made.append(c.get("/api/stats").json()["schedule"]["made"])
    assert sum(made) == 2, made  # each slot by one node only
    engine = sa.create_engine(normalize_url(cluster.database), poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            rows = conn.execute(sa.text(
                "SELECT schedule_key, slot, owner FROM tournaments")).mappings().all()
    finally:
        engine.dispose()
    assert sorted(r["schedule_key"] for r in rows) == ["arena", "suico"]
    assert {r["slot"] for r in rows} == {f"{at:%Y-%m-%dT%H:%M} America/Sao_Paulo"}
    with cluster.http() as c:  # listed once, on any node, as players read it
        listed = [e for e in c.get("/api/tournaments").json()["upcoming"] if e["recurring"]]
    label = f"Todo dia às {at.hour}h" + (f"{at.minute:02d}" if at.minute else "")
    assert sorted(e["name"] for e in listed) == ["Copa arena", "Copa suico"]
    assert {e["recurring"] for e in listed} == {label}
