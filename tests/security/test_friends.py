"""Friends from another site's page: a request, a block, a challenge or an answer sent by a
foreign page with the player's cookie is refused before any route, and nothing is stored."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from tests.support.server_app import guest
from tests.support.wsplay import auth


@pytest.mark.parametrize(("method", "path", "body"), [
    ("POST", "/api/friends", {"name": "Bia"}),
    ("POST", "/api/blocks", {"name": "Bia"}),
    ("POST", "/api/challenges", {"ruleset": "mano-a-mano", "seats": ["me", "player:2"]}),
    ("POST", "/api/friends/2/accept", None),
    ("DELETE", "/api/friends/2", None),
])
def test_a_foreign_page_cannot_act_for_a_player(client: TestClient, method: str, path: str,
                                                body: dict[str, object] | None) -> None:
    bia = guest(client, "Bia")
    guest(client, "Ana")  # the cookie is Ana's
    r = client.request(method, path, json=body, headers={"Origin": "https://evil.example"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "cross_site"
    assert client.get("/api/friends", headers=auth(bia)).json()["incoming"] == []
    ana = client.get("/api/friends").json()
    assert ana["outgoing"] == ana["blocked"] == ana["friends"] == []
