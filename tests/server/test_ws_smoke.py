"""A human at a friends' table with three bots plays a whole match over the WebSocket."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from tests.support.server_app import guest
from tests.support.wsplay import play_until_over, send, until

from carroca import record


def test_human_with_bots_plays_to_the_end(client: TestClient) -> None:
    token = guest(client, "ana")
    r = client.post("/api/tables", json={
        "ruleset": "duplas-pontos", "seats": ["me", "bot:greedy", "bot:random", "bot:greedy"],
        "client_seed": "ana-seed",
    })
    assert r.status_code == 201, r.text
    match_id = r.json()["id"]
    with client.websocket_connect(f"/ws?token={token}") as ws:
        assert ws.receive_json()["type"] == "hello"
        state, frames = play_until_over(ws, match_id)
    assert state["server_seed"]
    assert state["client_seeds"][0] == "ana-seed"
    rec = record.loads(client.get(f"/api/matches/{match_id}/record").text)
    match = record.verify(rec)
    assert match.is_over and rec["players"][0] == "ana"
    acks = [f for f in frames if f["type"] == "ack"]
    assert acks and all("duplicate" not in a["data"] for a in acks)


def my_turn(ws: WebSocketTestSession, match_id: str) -> dict[str, Any]:
    """Join `match_id` and wait for the state where it is this seat's turn."""
    until(ws, "hello")
    send(ws, "join", {"match": match_id})
    state: dict[str, Any] = until(ws, "state")["data"]
    while not (state["view"] and state["view"]["turn"] == state["seat"]):
        state = until(ws, "state")["data"]
    return state

def test_a_move_chosen_on_an_old_state_is_refused_as_stale(client: TestClient) -> None:
    token = guest(client, "bia")
    r = client.post("/api/tables", json={"ruleset": "bloqueio", "seats": ["me", "bot:greedy"]})
    match_id = r.json()["id"]
    with client.websocket_connect(f"/ws?token={token}") as ws:
        state = my_turn(ws, match_id)
        action = state["view"]["legal"][0]
        send(ws, "move", {"id": 1, "action": action, "version": state["version"] - 1})
        refused = until(ws, "error")["data"]
        assert refused["code"] == "stale_state" and refused["id"] == 1
        send(ws, "move", {"id": 2, "action": action, "version": state["version"]})
        assert until(ws, "ack")["data"]["id"] == 2


def test_a_move_the_database_refuses_is_not_acknowledged(client: TestClient) -> None:
    token = guest(client, "caio")
    r = client.post("/api/tables", json={"ruleset": "bloqueio", "seats": ["me", "bot:greedy"]})
    match_id = r.json()["id"]
    store = client.app.state.store  # type: ignore[attr-defined]
    real = store.append_move
    with client.websocket_connect(f"/ws?token={token}") as ws:
        state = my_turn(ws, match_id)

        def broken(row: object) -> object:
            raise OSError("disk full")

        store.append_move = broken
        action = state["view"]["legal"][0]
        send(ws, "move", {"id": 1, "action": action})
        refused = until(ws, "error", "ack")["data"]
        assert refused["code"] == "not_stored" and refused["id"] == 1
        store.append_move = real
        send(ws, "join", {"match": match_id})
        again = until(ws, "state")["data"]
        assert again["version"] == state["version"] and again["view"] == state["view"]
        send(ws, "move", {"id": 2, "action": action})
        assert until(ws, "ack", "error")["data"] == {"id": 2, "version": state["version"] + 1}
