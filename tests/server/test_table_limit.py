"""A refused table leaves nothing behind: the per-player limit on tables created
(`LIMIT_TABLES_PLAYER`) and the bot budget refuse before the table is stored."""

from __future__ import annotations

from fastapi.testclient import TestClient
from tests.support.server_app import guest, settings_for

from carroca.server.app import create_app


def test_refused_tables_are_never_made(database: str) -> None:
    settings = settings_for(database, limit_tables_player="3/minute", bot_workers=1,
                            bot_tables_per_worker=8)
    with TestClient(create_app(settings)) as client:
        guest(client, "Lia")
        tables = client.app.state.tables  # type: ignore[attr-defined]
        bots = {"ruleset": "bloqueio", "seats": ["bot:greedy", "bot:random"]}
        waiting = {"ruleset": "bloqueio", "seats": ["me", "open"]}
        assert client.post("/api/matches", json=bots).status_code == 201
        assert client.post("/api/tables", json=waiting).status_code == 201
        assert client.post("/api/tables", json=waiting).status_code == 201
        before = tables.ids()
        for path, body in (("/api/matches", bots), ("/api/tables", waiting)):
            refused = client.post(path, json=body)
            assert refused.status_code == 429, refused.text
        assert tables.ids() == before
        # A refusal by the bot budget spends nothing of the limit either.
        guest(client, "Mel")
        experts = {"ruleset": "bloqueio", "seats": ["me", "bot:expert"]}
        assert client.post("/api/tables", json=experts).status_code == 201
        assert client.post("/api/tables", json=experts).status_code == 201
        over = client.post("/api/tables", json=experts)
        assert over.status_code == 429 and over.json()["error"]["code"] == "too_many_bot_matches"
        assert client.post("/api/tables", json=waiting).status_code == 201  # the third
        assert client.post("/api/tables", json=waiting).status_code == 429
