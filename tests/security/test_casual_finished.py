"""`POST /api/casual` never answers with a finished table.

Before: for the 120 s a finished casual table stays live for its players, asking for a casual
table again answered with that finished table's seat, so "Jogar de novo" from the lobby led
back to the end of the old match (and a client that asked again whenever its table ended looped
thousands of times a minute).
"""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from tests.support.server_app import guest, settings_for, wait_status

from carroca.server.app import create_app


@pytest.mark.slow
def test_a_finished_casual_table_is_not_offered_again(database: str) -> None:
    # No abandonment ladder: Rui's abandonment would ban him from the queue for a while.
    settings = settings_for(database, turn_seconds=1.0, casual_wait_seconds=0.1,
                            abandon_ban_minutes="")
    with TestClient(create_app(settings)) as client:
        guest(client, "Rui")
        body = {"ruleset": "bloqueio", "bot_level": "random"}
        first = client.post("/api/casual", json=body).json()["id"]
        # Rui never plays: two moves are played for him, the third timeout is abandonment.
        wait_status(client, first, "finished", timeout=30)
        again = client.post("/api/casual", json=body)
        assert again.status_code == 200
        assert again.json()["id"] != first
