"""Challenges: a friend's invitation arrives on the socket; accepted, a friends' table is made
with everyone seated; declined or unanswered, it ends for everyone; only friends, within the
limit, and a blocked player's challenge is refused as after an ordinary removal."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.support.server_app import guest, settings_for
from tests.support.wsplay import auth, quiet, until

from carroca.server.app import create_app

pytestmark = pytest.mark.postgres  # the friends are stored


@pytest.fixture
def client(database: str) -> Iterator[TestClient]:
    settings = settings_for(database, challenge_seconds=0.5,
                            limit_challenges_player="4/minute")
    with TestClient(create_app(settings)) as c:
        yield c


def sign_in(client: TestClient, *names: str) -> list[tuple[dict[str, str], str, int]]:
    """Per player: the bearer headers, the socket's path, the id."""
    out = []
    for name in names:
        token = guest(client, name)
        out.append((auth(token), f"/ws?token={token}",
                    client.get("/api/me", headers=auth(token)).json()["player"]["id"]))
    client.cookies.clear()
    return out


def befriend(client: TestClient, a: dict[str, str], b: dict[str, str], a_name: str,
             b_name: str) -> None:
    client.post("/api/friends", json={"name": b_name}, headers=a)
    assert client.post("/api/friends", json={"name": a_name},
                       headers=b).json()["status"] == "friends"


def challenge(client: TestClient, who: dict[str, str], friend: int) -> Any:
    return client.post("/api/challenges", json={"ruleset": "mano-a-mano",
                                                "seats": ["me", f"player:{friend}"]},
                       headers=who)


def test_an_accepted_challenge_seats_both_at_a_new_table(client: TestClient) -> None:
    (ana, ws_ana, _), (bia, ws_bia, bia_id) = sign_in(client, "Ana", "Bia")
    befriend(client, ana, bia, "Ana", "Bia")
    with client.websocket_connect(ws_ana) as wa, client.websocket_connect(ws_bia) as wb:
        r = challenge(client, ana, bia_id)
        assert r.status_code == 201, r.text
        got = until(wb, "challenge")["data"]
        assert (got["by"], got["ruleset"], got["seats"]) == ("Ana", "mano-a-mano",
                                                              ["Ana", "Bia"])
        assert got["id"] == r.json()["id"] and got["options"] and got["expires"] > time.time()
        answer = client.post(f"/api/challenges/{got['id']}/accept", headers=bia).json()
        assert answer["status"] == "accepted"
        for ws in (wa, wb):
            end = until(ws, "challenge_end")["data"]
            assert (end["status"], end["match"]) == ("accepted", answer["match"])
        page = client.get(f"/api/matches/{answer['match']}", headers=ana).json()
        assert page["mode"] == "friends"
        assert page["players"] == ["Ana", "Bia"]
        # Answered: a second answer finds nothing.
        r = client.post(f"/api/challenges/{got['id']}/accept", headers=bia)
        assert r.status_code == 404 and r.json()["error"]["code"] == "no_challenge"


def test_a_decline_and_an_expiry_end_it_for_everyone(client: TestClient) -> None:
    (ana, ws_ana, _), (bia, _, bia_id) = sign_in(client, "Ana", "Bia")
    befriend(client, ana, bia, "Ana", "Bia")
    with client.websocket_connect(ws_ana) as wa:
        first = challenge(client, ana, bia_id).json()["id"]
        assert client.post(f"/api/challenges/{first}/decline", headers=bia).json() == \
            {"status": "declined"}
        end = until(wa, "challenge_end")["data"]
        assert (end["id"], end["status"], end["by"]) == (first, "declined", "Bia")
        second = challenge(client, ana, bia_id).json()["id"]
        end = until(wa, "challenge_end")["data"]  # half a second on this server
        assert (end["id"], end["status"]) == (second, "expired")
        assert client.post(f"/api/challenges/{second}/accept", headers=bia).status_code == 404


def test_only_friends_within_the_limit_and_a_block_says_nothing(client: TestClient) -> None:
    (ana, _, ana_id), (caio, ws_caio, caio_id), (davi, _, davi_id) = \
        sign_in(client, "Ana", "Caio", "Davi")
    r = challenge(client, ana, davi_id)
    assert r.status_code == 422 and r.json()["error"]["code"] == "not_a_friend"
    befriend(client, ana, caio, "Ana", "Caio")
    befriend(client, ana, davi, "Ana", "Davi")
    # Davi removes Ana, Caio blocks her: her challenges get the same answer from both.
    client.delete(f"/api/friends/{ana_id}", headers=davi)
    client.post("/api/blocks", json={"player": ana_id}, headers=caio)
    with client.websocket_connect(ws_caio) as wc:
        until(wc, "hello")
        removed, blocked = challenge(client, ana, davi_id), challenge(client, ana, caio_id)
        assert removed.status_code == blocked.status_code == 422
        assert removed.json() == blocked.json()
        assert "challenge" not in quiet(wc)
    # Four challenges a minute (this server's setting): the two refused ones counted, and
    # the first; the fifth is refused.
    assert challenge(client, ana, caio_id).status_code == 422
    r = challenge(client, ana, caio_id)
    assert r.status_code == 429 and "desafios" in r.json()["error"]["message"]


def test_a_duplas_challenge_a_partner_against_two_others_all_accept(client: TestClient) -> None:
    """Ana with Bia (seat 2, in front of her) against Caio and Davi: the table is made once all
    three accepted, everyone in the seat chosen; a decline by any one ends a second one for
    all, and a bot may take a seat."""
    (ana, ws_ana, _), (bia, ws_bia, bia_id), (caio, ws_caio, caio_id), (davi, _, davi_id) = \
        sign_in(client, "Ana", "Bia", "Caio", "Davi")
    for other, name in ((bia, "Bia"), (caio, "Caio"), (davi, "Davi")):
        befriend(client, ana, other, "Ana", name)
    seats = ["me", f"player:{caio_id}", f"player:{bia_id}", f"player:{davi_id}"]
    with client.websocket_connect(ws_ana) as wa, client.websocket_connect(ws_bia) as wb, \
            client.websocket_connect(ws_caio) as wc:
        made = client.post("/api/challenges", headers=ana,
                           json={"ruleset": "duplas-pontos", "seats": seats})
        assert made.status_code == 201, made.text
        got = until(wb, "challenge")["data"]
        assert got["seats"] == ["Ana", "Caio", "Bia", "Davi"]
        assert until(wc, "challenge")["data"]["id"] == got["id"]
        for who in (bia, caio):
            answer = client.post(f"/api/challenges/{got['id']}/accept", headers=who).json()
            assert answer == {"status": "waiting"}
        assert client.get("/api/me", headers=ana).json()["tables"] == []  # no table yet
        done = client.post(f"/api/challenges/{got['id']}/accept", headers=davi).json()
        assert done["status"] == "accepted"
        for ws in (wa, wb, wc):
            end = until(ws, "challenge_end")["data"]
            assert (end["status"], end["match"]) == ("accepted", done["match"])
        page = client.get(f"/api/matches/{done['match']}", headers=ana).json()
        assert (page["mode"], page["ruleset"]) == ("friends", "duplas-pontos")
        assert page["players"] == ["Ana", "Caio", "Bia", "Davi"]

        # Another, with a bot on the right: Caio's decline ends it for everyone.
        again = client.post("/api/challenges", headers=ana, json={
            "ruleset": "duplas-torneio",
            "seats": ["me", f"player:{caio_id}", f"player:{bia_id}", "bot:greedy"]}).json()
        assert client.post(f"/api/challenges/{again['id']}/accept", headers=bia).json() == \
            {"status": "waiting"}
        client.post(f"/api/challenges/{again['id']}/decline", headers=caio)
        for ws in (wa, wb):
            end = until(ws, "challenge_end")["data"]
            assert (end["id"], end["status"], end["by"]) == (again["id"], "declined", "Caio")
        assert client.post(f"/api/challenges/{again['id']}/accept",
                           headers=bia).status_code == 404
    # The same friend in two seats, or no friend at all, is refused and makes nothing.
    twice = client.post("/api/challenges", headers=ana, json={
        "ruleset": "duplas-pontos",
        "seats": ["me", f"player:{caio_id}", f"player:{caio_id}", "bot:greedy"]})
    nobody = client.post("/api/challenges", headers=ana, json={
        "ruleset": "duplas-pontos", "seats": ["me", "bot:greedy", "bot:greedy", "bot:greedy"]})
    assert twice.status_code == nobody.status_code == 422
    assert twice.json()["error"]["code"] == nobody.json()["error"]["code"] == "bad_seats"
