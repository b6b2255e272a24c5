"""The abandonment ladder: each abandonment in a row bans the player from the queues for
longer (15 min, 1 h, 3 h, 24 h by default), clean matches bring it back to the start; a
scripted casual match abandoned by three timeouts in a row bans its quitter."""

from __future__ import annotations

import time

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from tests.support.server_app import guest, settings_for
from tests.support.wsplay import auth

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
