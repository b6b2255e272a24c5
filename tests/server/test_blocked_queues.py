"""The casual and ranked queues never seat a blocked pair together when another table can be had
(docs/server.md, "Friends"): a casual player goes to another table (a new one if need be), a
ranked player waits for another group."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from tests.support.server_app import guests, settings_for

from carroca.server.app import create_app

pytestmark = pytest.mark.postgres  # the blocks are stored


@pytest.fixture
def client(database: str) -> Iterator[TestClient]:
    settings = settings_for(database, casual_wait_seconds=60.0, ranked_requires_account=False)
    with TestClient(create_app(settings)) as c:
        yield c


def casual(client: TestClient, who: dict[str, str], match: str | None = None) -> str:
    body = {"ruleset": "mano-a-mano", **({"match": match} if match else {})}
    r = client.post("/api/casual", json=body, headers=who)
    assert r.status_code == 200, r.text
    table: str = r.json()["id"]
    return table


@pytest.mark.parametrize("blocked", [True, False])
def test_a_casual_player_is_not_seated_with_whom_they_blocked(client: TestClient,
                                                              blocked: bool) -> None:
    ana, caio = guests(client, "Ana", "Caio")
    if blocked:
        assert client.post("/api/blocks", json={"name": "Ana"},
                           headers=caio).status_code == 200
    first = casual(client, ana)
    if not blocked:  # the control: the open seat at Ana's table is Caio's
        assert casual(client, caio) == first
        return
    # Chosen from the list, Ana's table answers as a full one would.
    r = client.post("/api/casual", json={"ruleset": "mano-a-mano", "match": first},
                    headers=caio)
    assert r.status_code == 409 and r.json()["error"]["code"] == "table_full"
    assert casual(client, caio) != first


def test_the_blocked_one_is_kept_apart_too(client: TestClient) -> None:
    ana, caio = guests(client, "Ana", "Caio")
    client.post("/api/blocks", json={"name": "Caio"}, headers=ana)
    first = casual(client, ana)
    assert casual(client, caio) != first  # Caio never learns why: another table


def test_ranked_waits_for_another_group(client: TestClient) -> None:
    ana, caio, bia = guests(client, "Ana", "Caio", "Bia")
    client.post("/api/blocks", json={"name": "Ana"}, headers=caio)
    assert client.post("/api/ranked", json={"ruleset": "mano-a-mano"},
                       headers=ana).json()["status"] == "queued"
    assert client.post("/api/ranked", json={"ruleset": "mano-a-mano"},
                       headers=caio).json()["status"] == "queued"
    matched = client.post("/api/ranked", json={"ruleset": "mano-a-mano"}, headers=bia).json()
    assert matched["status"] == "matched"
    page = client.get(f"/api/matches/{matched['id']}", headers=bia).json()
    assert sorted(page["players"]) == ["Ana", "Bia"]
    assert client.get("/api/me", headers=caio).json()["queued"] == "mano-a-mano"
