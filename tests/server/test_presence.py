"""Friends' presence over the socket: a snapshot after `hello`, then each change of a friend
(online, playing with a public table's id, offline with the time last seen), to friends only."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from tests.support.server_app import guest, settings_for
from tests.support.wsplay import auth, quiet, send, until

from carroca.server.app import create_app

pytestmark = pytest.mark.postgres  # the friends are stored


@pytest.fixture
def client(database: str) -> Iterator[TestClient]:
    with TestClient(create_app(settings_for(database, presence_seconds=0.05))) as c:
        yield c


def befriend(client: TestClient, a: dict[str, str], b: dict[str, str], b_name: str) -> None:
    assert client.post("/api/friends", json={"name": b_name}, headers=a).status_code == 200
    other = client.get("/api/me", headers=a).json()["player"]["name"]
    assert client.post("/api/friends", json={"name": other}, headers=b).json()["status"] == \
        "friends"


def presence(ws: WebSocketTestSession, state: str) -> dict[str, Any]:
    """The friend's entry once it reaches `state`, by a `presence` frame or in a `friends`
    list (a change told while the list was being read shows in the list)."""
    for _ in range(50):
        frame = until(ws, "presence", "friends")
        entries = [frame["data"]["friend"]] if frame["type"] == "presence" \
            else frame["data"]["friends"]
        for friend in entries:
            if friend["state"] == state:
                return dict(friend)
    raise AssertionError(f"never {state}")


def test_a_friend_sees_presence_change_and_a_stranger_sees_nothing(client: TestClient) -> None:
    tokens = [guest(client, n) for n in ("Ana", "Bia", "Caio")]
    client.cookies.clear()
    ana, bia, _ = (auth(t) for t in tokens)
    at = {"ana": f"/ws?token={tokens[0]}", "bia": f"/ws?token={tokens[1]}",
          "caio": f"/ws?token={tokens[2]}"}
    befriend(client, ana, bia, "Bia")
    with client.websocket_connect(at["ana"]) as wa, \
            client.websocket_connect(at["caio"]) as wc:
        snapshot = until(wa, "friends")["data"]["friends"]
        assert [(f["name"], f["state"]) for f in snapshot] == [("Bia", "offline")]
        until(wc, "hello")  # no friends: no `friends` frame either
        with client.websocket_connect(at["bia"]) as wb:
            # Bia's own snapshot shows Ana online; Ana hears Bia come.
            assert [(f["name"], f["state"]) for f in until(wb, "friends")["data"]["friends"]] \
                == [("Ana", "online")]
            seen = presence(wa, "online")
            assert (seen["name"], seen["match"]) == ("Bia", None)
            r = client.post("/api/casual", json={"ruleset": "mano-a-mano"}, headers=bia)
            match = r.json()["id"]
            send(wb, "join", {"match": match})
            playing = presence(wa, "playing")
            assert playing["match"] == match
        gone = presence(wa, "offline")
        assert gone["seen"] > 0
        # Caio is nobody's friend: nothing of Bia reached him.
        assert not {"presence", "friends"} & set(quiet(wc))


def test_a_friends_table_is_not_told_and_removal_stops_the_updates(client: TestClient) -> None:
    tokens = [guest(client, n) for n in ("Ana", "Bia")]
    client.cookies.clear()
    ana, bia = (auth(t) for t in tokens)
    at = {"ana": f"/ws?token={tokens[0]}", "bia": f"/ws?token={tokens[1]}"}
    befriend(client, ana, bia, "Bia")
    with client.websocket_connect(at["ana"]) as wa, \
            client.websocket_connect(at["bia"]) as wb:
        until(wb, "friends")
        presence(wa, "online")  # in Ana's list, or told after it
        r = client.post("/api/tables", json={"ruleset": "mano-a-mano", "seats": ["me", "open"]},
                        headers=bia)
        assert r.status_code == 201, r.text
        send(wb, "join", {"match": r.json()["id"]})
        playing = presence(wa, "playing")
        assert playing["match"] is None  # a private table
        # Ana removes Bia: her socket gets the new (empty) list, and no more of Bia.
        bia_id = client.get("/api/me", headers=bia).json()["player"]["id"]
        assert client.delete(f"/api/friends/{bia_id}", headers=ana).status_code == 200
        assert until(wa, "friends")["data"]["friends"] == []
        send(wb, "leave")
        until(wb, "left")
        time.sleep(0.3)  # past the presence gap: a change of Bia's would have come by now
        assert "presence" not in quiet(wa)
