"""Friends: requests by nickname or by id, acceptance, refusal, removal, blocks, limits, and a
guest's friends ending with their key."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.support.server_app import guests, settings_for

from carroca.server.app import create_app

# Stored state is this module's subject: `make unit-postgres` runs it again on PostgreSQL.
pytestmark = pytest.mark.postgres


@pytest.fixture
def client(database: str) -> Iterator[TestClient]:
    settings = settings_for(database, max_friends=2, limit_friend_requests_player="4/hour")
    with TestClient(create_app(settings)) as c:
        yield c


def listing(client: TestClient, who: dict[str, str]) -> dict[str, Any]:
    r = client.get("/api/friends", headers=who)
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    return body


def names(rows: list[dict[str, Any]]) -> list[str]:
    return [r["name"] for r in rows]


def me_id(client: TestClient, who: dict[str, str]) -> int:
    pid: int = client.get("/api/me", headers=who).json()["player"]["id"]
    return pid


def test_a_request_by_nickname_is_accepted_then_removed(client: TestClient) -> None:
    ana, bia = guests(client, "Ana", "Bia")
    r = client.post("/api/friends", json={"name": "bia"}, headers=ana)
    assert r.json()["status"] == "requested", r.text
    assert names(listing(client, ana)["outgoing"]) == ["Bia"]
    incoming = listing(client, bia)["incoming"]
    assert names(incoming) == ["Ana"]
    r = client.post(f"/api/friends/{incoming[0]['id']}/accept", headers=bia)
    assert r.json() == {"status": "friends"}
    assert names(listing(client, ana)["friends"]) == ["Bia"]
    assert names(listing(client, bia)["friends"]) == ["Ana"]
    assert listing(client, ana)["outgoing"] == listing(client, bia)["incoming"] == []
    # Either side removes: both lists lose the other.
    r = client.delete(f"/api/friends/{me_id(client, ana)}", headers=bia)
    assert r.json() == {"status": "removed"}
    assert listing(client, ana)["friends"] == listing(client, bia)["friends"] == []


def test_a_request_by_id_crossing_one_makes_friends_and_a_decline_drops_it(
        client: TestClient) -> None:
    ana, bia, caio = guests(client, "Ana", "Bia", "Caio")
    bia_id = me_id(client, bia)
    assert client.post("/api/friends", json={"player": bia_id},
                       headers=ana).json()["status"] == "requested"
    # Bia asks Ana in turn: they are friends at once.
    r = client.post("/api/friends", json={"name": "Ana"}, headers=bia)
    assert r.json()["status"] == "friends"
    assert names(listing(client, ana)["friends"]) == ["Bia"]
    client.post("/api/friends", json={"name": "Ana"}, headers=caio)
    caio_id = me_id(client, caio)
    assert client.post(f"/api/friends/{caio_id}/decline", headers=ana).json() == \
        {"status": "declined"}
    assert listing(client, ana)["incoming"] == listing(client, caio)["outgoing"] == []
    # Nothing left to answer.
    r = client.post(f"/api/friends/{caio_id}/accept", headers=ana)
    assert r.status_code == 404 and r.json()["error"]["code"] == "no_request"


def test_bad_requests_are_refused_in_portuguese_and_change_nothing(client: TestClient) -> None:
    (ana,) = guests(client, "Ana")
    cases = [({"name": "Ana"}, 422, "friend_self"), ({"name": "Ninguém"}, 404, "no_player"),
             ({"player": 99999}, 404, "no_player"), ({}, 422, "bad_request"),
             ({"name": "Ana", "player": 1}, 422, "bad_request")]
    for body, status, code in cases:
        r = client.post("/api/friends", json=body, headers=ana)
        assert r.status_code == status and r.json()["error"]["code"] == code, (body, r.text)
    assert "si mesmo" in client.post("/api/blocks", json={"name": "ana"},
                                     headers=ana).json()["error"]["message"]
    assert listing(client, ana) == {"friends": [], "incoming": [], "outgoing": [],
                                    "blocked": [], "max": 2}
    assert client.get("/api/friends").status_code == 401


def test_a_block_is_silent_to_the_blocked(client: TestClient) -> None:
    ana, caio = guests(client, "Ana", "Caio")
    ana_id, caio_id = me_id(client, ana), me_id(client, caio)
    client.post("/api/friends", json={"name": "Caio"}, headers=ana)
    client.post(f"/api/friends/{ana_id}/accept", headers=caio)
    assert client.post("/api/blocks", json={"player": ana_id},
                       headers=caio).json()["status"] == "blocked"
    # No longer friends, as after an ordinary removal; Caio's list shows whom he blocked.
    assert listing(client, ana)["friends"] == listing(client, caio)["friends"] == []
    assert names(listing(client, caio)["blocked"]) == ["Ana"]
    # Ana's new request answers as any other and stays pending on her side only.
    before = listing(client, ana)
    r = client.post("/api/friends", json={"name": "Caio"}, headers=ana)
    assert r.status_code == 200 and r.json()["status"] == "requested"
    assert names(listing(client, ana)["outgoing"]) == ["Caio"]
    assert before["blocked"] == listing(client, ana)["blocked"] == []
    assert listing(client, caio)["incoming"] == []
    assert client.post(f"/api/friends/{ana_id}/accept", headers=caio).status_code == 404
    assert client.post(f"/api/friends/{ana_id}/decline", headers=caio).status_code == 404
    # Caio may not ask Ana while he blocks her; unblocked, her request shows.
    r = client.post("/api/friends", json={"name": "Ana"}, headers=caio)
    assert r.status_code == 409 and r.json()["error"]["code"] == "blocking"
    assert client.delete(f"/api/blocks/{ana_id}", headers=caio).json()["status"] == "unblocked"
    assert names(listing(client, caio)["incoming"]) == ["Ana"]
    assert client.delete(f"/api/blocks/{ana_id}", headers=caio).status_code == 404
    assert caio_id != ana_id


def test_the_friends_and_requests_limits_hold(client: TestClient) -> None:
    ana, bia, caio, davi = guests(client, "Ana", "Bia", "Caio", "Davi")
    ana_id = me_id(client, ana)
    for other in (bia, caio):
        client.post("/api/friends", json={"name": "Ana"}, headers=other)
        # the other side's request made friends at once: max_friends is 2
    for other in ("Bia", "Caio"):
        assert client.post("/api/friends", json={"name": other},
                           headers=ana).json()["status"] == "friends"
    r = client.post("/api/friends", json={"name": "Davi"}, headers=ana)
    assert r.status_code == 409 and r.json()["error"]["code"] == "too_many_friends"
    assert "2 amigos" in r.json()["error"]["message"]
    client.post("/api/friends", json={"name": "Ana"}, headers=davi)
    r = client.post(f"/api/friends/{me_id(client, davi)}/accept", headers=ana)
    assert r.status_code == 409 and r.json()["error"]["code"] == "too_many_friends"
    assert len(listing(client, ana)["friends"]) == 2
    # Four requests an hour (this server's setting), refused ones too: Ana sent three.
    assert client.post("/api/friends", json={"name": "Davi"}, headers=ana).status_code == 409
    r = client.post("/api/friends", json={"name": "Davi"}, headers=ana)
    assert r.status_code == 429 and "pedidos de amizade" in r.json()["error"]["message"]
    assert int(r.headers["Retry-After"]) > 0
    assert ana_id > 0


def test_a_guest_who_forgets_the_device_leaves_their_friends(client: TestClient) -> None:
    ana, bia = guests(client, "Ana", "Bia")
    client.post("/api/friends", json={"name": "Bia"}, headers=ana)
    client.post("/api/friends", json={"name": "Ana"}, headers=bia)
    assert names(listing(client, bia)["friends"]) == ["Ana"]
    r = client.post("/api/logout", json={"forget_device": True}, headers=ana)
    assert r.json()["forgotten"] is True
    assert listing(client, bia)["friends"] == []


def test_the_data_export_lists_the_links_and_a_deletion_drops_them(client: TestClient) -> None:
    ana, bia = guests(client, "Ana", "Bia")
    client.post("/api/friends", json={"name": "Bia"}, headers=ana)
    client.post("/api/friends", json={"name": "Ana"}, headers=bia)
    got = client.get("/api/me/data", headers=ana).json()["friends"]
    assert [(f["name"], f["state"]) for f in got] == [("Bia", "friend")]
    r = client.post("/api/me/delete", json={"confirm": "EXCLUIR"}, headers=ana)
    assert r.status_code == 200, r.text
    assert listing(client, bia)["friends"] == []
