"""The abandonment ladder: each abandonment in a row bans the player from the queues for
longer (15 min, 1 h, 3 h, 24 h by default), clean matches bring it back to the start; a
scripted casual match abandoned by three timeouts in a row bans its quitter; so does a friends'
table another person sat at (one person with bots is practice: not counted), and a tournament
game its player never came to."""

from __future__ import annotations

import time
from contextlib import ExitStack
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from tests.moderation.helpers import friends_table
from tests.support.server_app import guest, settings_for, wait_status
from tests.support.wsplay import auth, connect

from carroca.server.app import create_app
from carroca.server.moderation.service import Moderation
from carroca.server.storage import db
from carroca.server.storage.db import make_engine

pytestmark = pytest.mark.postgres


def bans(database: str, player: str) -> list[float]:
    """The queue bans of the player, oldest first, as their lengths in minutes."""
    engine = make_engine(database)
    try:
        with engine.begin() as conn:
            s, p = db.sanctions.c, db.players.c
            rows = conn.execute(sa.select(s.created_at, s.until)
                                .join(db.players, p.id == s.player_id)
                                .where(p.name == player, s.kind == "queue_ban")
                                .order_by(s.id)).all()
    finally:
        engine.dispose()
    return [round((r.until - r.created_at) / 60) for r in rows]


def test_each_abandonment_bans_longer_and_clean_matches_reset(database: str) -> None:
    settings = settings_for(database, abandon_reset_matches=2)
    with TestClient(create_app(settings)) as client:
        guest(client, "Quito")
        me = client.get("/api/me").json()["player"]["id"]
        moderation: Moderation = client.app.state.moderation  # type: ignore[attr-defined]
        for _ in range(5):
            client.portal.call(moderation.count_match, me, True, "m")
        assert bans(database, "Quito") == [15, 60, 180, 1440, 1440]
        client.portal.call(moderation.count_match, me, False, "m")  # one clean: not enough
        client.portal.call(moderation.count_match, me, True, "m")
        assert bans(database, "Quito")[-1] == 1440
        for _ in range(2):
            client.portal.call(moderation.count_match, me, False, "m")
        client.portal.call(moderation.count_match, me, True, "m")
        assert bans(database, "Quito")[-1] == 15  # the ladder starts again
        refused = client.post("/api/casual", json={"ruleset": "mano-a-mano"})
        assert refused.status_code == 403
        assert "abandonar partidas" in refused.json()["error"]["message"]


def test_a_match_abandoned_by_timeouts_bans_its_quitter(database: str) -> None:
    settings = settings_for(database, turn_seconds=0.1, choice_seconds=0.1,
                            casual_wait_seconds=0.05, abandon_ban_minutes="5,10")
    with TestClient(create_app(settings)) as client:
        quito = guest(client, "Quito")
        made = client.post("/api/casual", headers=auth(quito), json={"ruleset": "mano-a-mano"})
        assert made.status_code == 200, made.text
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not bans(database, "Quito"):
            time.sleep(0.05)
        assert bans(database, "Quito") == [5]
        refused = client.post("/api/casual", headers=auth(quito),
                              json={"ruleset": "mano-a-mano"})
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "sanctioned"
        notices = client.get("/api/me", headers=auth(quito)).json()["sanctions"]
        assert notices[0]["kind"] == "queue_ban" and "abandono" in notices[0]["text"]


def ladder(database: str, player: str) -> dict[str, Any] | None:
    engine = make_engine(database)
    try:
        with engine.begin() as conn:
            a, p = db.abandon_ladder.c, db.players.c
            row = conn.execute(sa.select(a.step, a.clean, a.abandons)
                               .join(db.players, p.id == a.player_id)
                               .where(p.name == player)).mappings().first()
    finally:
        engine.dispose()
    return dict(row) if row else None


def test_friends_tables_count_with_another_person_only(database: str) -> None:
    """Two people at a friends' table, neither moving: the first to time out three times in a
    row abandons it and is banned, the other played a clean match. Alone with a bot, leaving
    counts for nothing."""
    settings = settings_for(database, turn_seconds=0.1, choice_seconds=0.1,
                            abandon_ban_minutes="5,10")
    with TestClient(create_app(settings)) as client:
        moderation: Moderation = client.app.state.moderation  # type: ignore[attr-defined]
        solo = guest(client, "Solo")
        made = client.post("/api/tables", headers=auth(solo),
                           json={"ruleset": "mano-a-mano", "seats": ["me", "bot:greedy"]})
        assert made.status_code == 201, made.text
        ended = wait_status(client, made.json()["id"], headers=auth(solo))
        assert ended["result"]["reason"] == "abandon"
        client.portal.call(moderation.settle)
        assert ladder(database, "Solo") is None and bans(database, "Solo") == []

        host, other = guest(client, "Rosa"), guest(client, "Tito")
        match_id = friends_table(client, host, other)
        ended = wait_status(client, match_id, headers=auth(host))
        assert ended["result"]["reason"] == "abandon"
        client.portal.call(moderation.settle)
        got = {name: bans(database, name) for name in ("Rosa", "Tito")}
        quitter = next(name for name, found in got.items() if found)
        stayed = "Tito" if quitter == "Rosa" else "Rosa"
        assert got == {quitter: [5], stayed: []}
        assert ladder(database, quitter) == {"step": 1, "clean": 0, "abandons": 1}
        assert ladder(database, stayed) == {"step": 0, "clean": 1, "abandons": 0}


def test_a_tournament_game_never_shown_up_for_climbs_the_ladder(database: str) -> None:
    """Ana comes to her game, Bia never does: the table closes at its show-up time, Bia loses
    it by forfeit and is banned from the queues; Ana played nothing and is not counted."""
    settings = settings_for(database, tournament_show_up_seconds=1.0)
    with TestClient(create_app(settings)) as client, ExitStack() as stack:
        moderation: Moderation = client.app.state.moderation  # type: ignore[attr-defined]
        ana, bia = guest(client, "Ana"), guest(client, "Bia")
        made = client.post("/api/tournaments", headers=auth(ana), json={
            "name": "Copa do Abandono", "format": "swiss", "ruleset": "bloqueio",
            "options": {"target": 1}, "starts_in": 3600, "rounds": 1})
        assert made.status_code == 201, made.text
        event_id = made.json()["id"]
        for token in (ana, bia):
            assert client.post(f"/api/tournaments/{event_id}/register",
                               headers=auth(token)).status_code == 200
        assert client.post(f"/api/tournaments/{event_id}/start",
                           headers=auth(ana)).status_code == 200
        deadline = time.monotonic() + 60
        info = client.get(f"/api/tournaments/{event_id}").json()
        while info["status"] != "running" or not info["rounds"]:
            assert time.monotonic() < deadline, info
            time.sleep(0.05)
            info = client.get(f"/api/tournaments/{event_id}").json()
        match_id = info["rounds"][0]["tables"][0]["games"][0]["match"]
        came = connect(stack, client, ana, "Ana")
        assert came.join(match_id)["status"] == "waiting"
        came.until(lambda f: f["type"] == "state" and f["data"]["status"] == "expired")
        # The event records the forfeit once it heard the table close, as the ladder does
        # (the tables' listeners are told one after the other): then both have heard it.
        while info["status"] != "finished":
            assert time.monotonic() < deadline, info
            time.sleep(0.05)
            info = client.get(f"/api/tournaments/{event_id}").json()
        outcome = info["rounds"][0]["tables"][0]["games"][0]["outcome"]
        assert outcome["kind"] == "forfeit" and outcome["absent"] == ["Bia"]
        client.portal.call(moderation.settle)
        assert bans(database, "Bia") == [15]
        assert bans(database, "Ana") == [] and ladder(database, "Ana") is None
        refused = client.post("/api/casual", headers=auth(bia), json={"ruleset": "bloqueio"})
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "sanctioned"
