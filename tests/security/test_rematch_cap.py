"""A rematch counts against the cap of friends' tables waiting for players.

Before: a player at the cap (3 friends' tables waiting) asked for a rematch of a finished
friends' table and got a fourth waiting table (the rematch skipped the cap). After: 429
`too_many_tables`, as creating one would answer.
"""

from __future__ import annotations

from contextlib import ExitStack

from fastapi.testclient import TestClient
from tests.support.server_app import guest
from tests.support.wsplay import auth as bearer
from tests.support.wsplay import connect, play, run_together


def test_a_rematch_at_the_cap_is_refused(client: TestClient) -> None:
    ana, bia = guest(client, "Ana"), guest(client, "Bia")
    made = client.post("/api/tables", headers=bearer(ana), json={
        "ruleset": "bloqueio", "options": {"target": 1}, "seats": ["me", "open"]})
    assert made.status_code == 201, made.text
    match_id, invite = made.json()["id"], made.json()["invite"]
    assert client.post("/api/tables/join", headers=bearer(bia),
                       json={"invite": invite}).status_code == 200
    with ExitStack() as stack:
        a, b = connect(stack, client, ana, "ana"), connect(stack, client, bia, "bia")
        run_together([lambda: play(a, match_id), lambda: play(b, match_id)])
    for _ in range(3):  # Ana at the cap of waiting tables
        waiting = client.post("/api/tables", headers=bearer(ana), json={
            "ruleset": "bloqueio", "seats": ["me", "open"]})
        assert waiting.status_code == 201, waiting.text
    again = client.post(f"/api/matches/{match_id}/rematch", headers=bearer(ana))
    assert again.status_code == 429, again.text
    assert again.json()["error"]["code"] == "too_many_tables"
    # Bia is under the cap: her rematch is made, and Ana's seat waits for her there.
    theirs = client.post(f"/api/matches/{match_id}/rematch", headers=bearer(bia))
    assert theirs.status_code == 200, theirs.text
