"""A friends' match is not in the public list of finished matches.

Before: a private friends' match appeared in `GET /api/matches` once it ended.
"""

from __future__ import annotations

from fastapi.testclient import TestClient
from tests.server.conftest import guest, settings_for, wait_status

from carroca.server.app import create_app


def test_a_finished_friends_match_is_private(database: str) -> None:
    settings = settings_for(database, turn_seconds=1.0)
    app = create_app(settings)
    with TestClient(app) as host, TestClient(app) as stranger, TestClient(app) as anonymous:
        guest(host, "Ivo")
        made = host.post("/api/tables", json={"ruleset": "bloqueio",
                                               "seats": ["me", "bot:random"]})
        match_id = made.json()["id"]
        wait_status(host, match_id, "finished", timeout=30)  # Ivo never plays: abandoned
        guest(stranger, "Eco")
        for client in (stranger, anonymous):
            finished = client.get("/api/matches").json()["finished"]
            assert match_id not in [m["id"] for m in finished]
