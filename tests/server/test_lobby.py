"""The lobby: casual tables filled with bots, friends' tables by invite, the ranked queue, and
what the match routes show before, during and after a match."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.support.server_app import account, guest, settings_for, wait_status
from tests.support.wsplay import auth, recv, until

from carroca import fair, record
from carroca.server.app import create_app


def live_ids(client: TestClient) -> list[str]:
    return [t["id"] for t in client.get("/api/matches").json()["live"]]


# ---------------------------------------------------------------------- casual


def test_two_casual_players_of_a_ruleset_share_a_table(database: str) -> None:
    with TestClient(create_app(settings_for(database, casual_wait_seconds=60))) as client:
        ana, bia, caio = guest(client, "Ana"), guest(client, "Bia"), guest(client, "Caio")
        first = client.post("/api/casual", headers=auth(ana),
                            json={"ruleset": "mano-a-mano", "client_seed": "ana-1"})
        assert first.status_code == 200, first.text
        table = first.json()
        assert table["seat"] == 0
        # Another ruleset opens a table of its own.
        elsewhere = client.post("/api/casual", headers=auth(caio), json={"ruleset": "bloqueio"})
        assert elsewhere.json()["id"] != table["id"]
        lobby = {t["id"]: t for t in client.get("/api/matches").json()["live"]}
        assert lobby[table["id"]]["open_seats"] == 1
        assert lobby[table["id"]]["status"] == "waiting"
        # Asking again returns the same seat rather than a second table.
        again = client.post("/api/casual", headers=auth(ana), json={"ruleset": "mano-a-mano"})
        assert again.json()["id"] == table["id"] and again.json()["seat"] == 0

        second = client.post("/api/casual", headers=auth(bia),
                             json={"ruleset": "mano-a-mano", "client_seed": "bia-2"})
        assert second.json() == {**table, "seat": 1}
        info = wait_status(client, table["id"], "playing")
        assert info["players"] == ["Ana", "Bia"] and info["mode"] == "casual"
        assert info["client_seed"] == "ana-1:bia-2"
        assert "server_seed" not in info
        me = client.get("/api/me", headers=auth(bia)).json()
        assert me["tables"] == [table["id"]]


def test_casual_seats_left_empty_get_bots_of_the_chosen_level(database: str) -> None:
    with TestClient(create_app(settings_for(database, casual_wait_seconds=0.3))) as client:
        token = guest(client, "Duda")
        r = client.post("/api/casual", headers=auth(token),
                        json={"ruleset": "duplas-pontos", "bot_level": "random"})
        assert r.status_code == 200, r.text
        match_id = r.json()["id"]
        info = wait_status(client, match_id, "playing")
        assert info["players"] == ["Duda", "bot:random", "bot:random", "bot:random"]
        assert info["commitment"] == r.json()["commitment"]
        assert len(info["client_seed"].split(":")) == 4


def test_a_casual_turn_length_is_chosen_and_only_shared_with_the_same(database: str) -> None:
    """A casual table keeps the turn its first player chose (20, 40 or 60 s), and a player who
    chose another sits elsewhere; any other length is refused in Portuguese."""
    with TestClient(create_app(settings_for(database, casual_wait_seconds=60))) as client:
        ana, bia, caio = guest(client, "Ana"), guest(client, "Bia"), guest(client, "Caio")
        body = {"ruleset": "mano-a-mano", "turn_seconds": 60}
        first = client.post("/api/casual", headers=auth(ana), json=body).json()
        other = client.post("/api/casual", headers=auth(bia),
                            json={**body, "turn_seconds": 20}).json()
        assert other["id"] != first["id"]
        same = client.post("/api/casual", headers=auth(caio), json=body).json()
        assert same["id"] == first["id"] and same["seat"] == 1
        with client.websocket_connect("/ws", headers=auth(ana)) as ws:
            ws.send_json({"type": "join", "data": {"match": first["id"]}})
            assert until(ws, "state")["data"]["turn_seconds"] == 60
        refused = client.post("/api/casual", headers=auth(guest(client, "Dani")),
                              json={**body, "turn_seconds": 45})
        assert refused.status_code == 422, refused.text
        error = refused.json()["error"]
        assert error["code"] == "bad_turn_seconds"
        assert error["message"] == "O tempo por jogada da mesa casual é de 20, 40 ou 60 segundos."


def test_casual_refuses_unknown_bots_and_rulesets(client: TestClient) -> None:
    token = guest(client, "Elis")
    r = client.post("/api/casual", headers=auth(token),
                    json={"ruleset": "duplas-pontos", "bot_level": "genio"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "unknown_bot"
    r = client.post("/api/casual", headers=auth(token), json={"ruleset": "truco"})
    assert r.status_code == 422
    assert r.json()["error"]["code"] == "unknown_ruleset"
    assert r.json()["error"]["message"].startswith("Modalidade desconhecida: 'truco'")
    client.cookies.clear()
    r = client.post("/api/casual", json={"ruleset": "duplas-pontos"})
    assert r.status_code == 401 and r.json()["error"]["code"] == "login_required"


# ---------------------------------------------------------------------- friends


def test_friends_table_by_invite_until_full(client: TestClient) -> None:
    host, guest2, late = guest(client, "Fred"), guest(client, "Gabi"), guest(client, "Hugo")
    r = client.post("/api/tables", headers=auth(host), json={
        "ruleset": "duplas-pontos", "seats": ["bot:greedy", "me", "open", "bot:random"],
        "options": {"target": 100}, "turn_seconds": 30,
    })
    assert r.status_code == 201, r.text
    created = r.json()
    assert created["seat"] == 1 and created["invite"]
    info = client.get(f"/api/matches/{created['id']}").json()
    assert info["status"] == "waiting" and info["mode"] == "friends"
    assert info["players"] == ["bot:greedy", "Fred", None, "bot:random"]
    assert info["options"]["target"] == 100
    assert "server_seed" not in info
    assert created["id"] not in live_ids(client)  # friends' tables are not listed

    bad = client.post("/api/tables/join", headers=auth(guest2), json={"invite": "nope"})
    assert bad.status_code == 404 and bad.json()["error"]["code"] == "no_table"
    joined = client.post("/api/tables/join", headers=auth(guest2),
                         json={"invite": created["invite"], "client_seed": "gabi"})
    assert joined.status_code == 200, joined.text
    assert joined.json()["id"] == created["id"] and joined.json()["seat"] == 2
    info = wait_status(client, created["id"], "playing")
    assert info["players"] == ["bot:greedy", "Fred", "Gabi", "bot:random"]
    assert info["client_seed"].split(":")[2] == "gabi"
    assert created["id"] not in live_ids(client)

    # Joining twice gives the same seat; a stranger finds the table full.
    again = client.post("/api/tables/join", headers=auth(guest2),
                        json={"invite": created["invite"]})
    assert again.status_code == 200 and again.json()["seat"] == 2
    full = client.post("/api/tables/join", headers=auth(late),
                       json={"invite": created["invite"]})
    assert full.status_code == 409 and full.json()["error"]["code"] == "table_full"


@pytest.mark.parametrize(("seats", "code"), [
    (["me", "open", "open"], "bad_seats"),
    (["open", "open", "open", "open"], "bad_seats"),
    (["me", "me", "open", "open"], "bad_seats"),
    (["me", "human", "open", "open"], "bad_seats"),
    (["me", "bot:genio", "open", "open"], "unknown_bot"),
    (["me", "open", "open", "open", "open"], "bad_request"),
])
def test_friends_table_refuses_bad_seats(client: TestClient, seats: list[str], code: str) -> None:
    token = guest(client, "Iris")
    r = client.post("/api/tables", headers=auth(token),
                    json={"ruleset": "duplas-pontos", "seats": seats})
    assert r.status_code == 422, r.text
    error = r.json()["error"]
    assert error["code"] == code
    assert any(word in error["message"].lower() for word in ("lugar", "bot", "pedido"))
    assert client.get("/api/me", headers=auth(token)).json()["tables"] == []


@pytest.mark.parametrize(("body", "code", "words"), [
    ({"ruleset": "truco", "seats": ["me", "open"]}, "unknown_ruleset", "Modalidade"),
    ({"ruleset": "duplas-pontos", "seats": ["me", "open", "open", "open"],
      "options": {"target": 7}}, "invalid_option", "target"),
    ({"ruleset": "duplas-pontos", "seats": ["me", "open", "open", "open"],
      "options": {"cor": "azul"}}, "invalid_option", "cor"),
    ({"ruleset": "mano-a-mano", "seats": ["me", "open"], "turn_seconds": 0.5},
     "bad_turn_seconds", "segundos"),
    ({"ruleset": "mano-a-mano", "seats": ["me", "open"], "turn_seconds": 500},
     "bad_turn_seconds", "segundos"),
])
def test_friends_table_refuses_bad_rules_in_portuguese(
    client: TestClient, body: dict[str, Any], code: str, words: str
) -> None:
    token = guest(client, "Jade")
    r = client.post("/api/tables", headers=auth(token), json=body)
    assert r.status_code == 422, r.text
    error = r.json()["error"]
    assert error["code"] == code and words in error["message"]


# ---------------------------------------------------------------------- ranked


def test_ranked_queue_matches_players_and_tells_their_sockets(client: TestClient) -> None:
    kai, lia, max_ = account(client, "Kai"), account(client, "Lia"), account(client, "Max")
    r = client.post("/api/ranked", headers=auth(kai), json={"ruleset": "mano-a-mano"})
    assert r.json() == {"status": "queued", "ruleset": "mano-a-mano"}
    assert client.get("/api/me", headers=auth(kai)).json()["queued"] == "mano-a-mano"
    assert client.delete("/api/ranked", headers=auth(kai)).json() == {"left": True}
    assert client.delete("/api/ranked", headers=auth(kai)).json() == {"left": False}
    assert client.get("/api/me", headers=auth(kai)).json()["queued"] is None
    # Someone who left is not matched.
    assert client.post("/api/ranked", headers=auth(max_),
                       json={"ruleset": "mano-a-mano"}).json()["status"] == "queued"
    client.delete("/api/ranked", headers=auth(max_))

    with client.websocket_connect(f"/ws?token={kai}") as ws_kai, \
            client.websocket_connect(f"/ws?token={lia}") as ws_lia:
        assert recv(ws_kai)["type"] == "hello" and recv(ws_lia)["type"] == "hello"
        queued = client.post("/api/ranked", headers=auth(kai),
                             json={"ruleset": "mano-a-mano", "client_seed": "kai"})
        assert queued.json()["status"] == "queued"
        matched = client.post("/api/ranked", headers=auth(lia), json={"ruleset": "mano-a-mano"})
        body = matched.json()
        assert body["status"] == "matched", body
        for ws in (ws_kai, ws_lia):
            frame = until(ws, "matched")
            assert frame["data"] == {"match": body["id"], "mode": "ranked"}
    info = client.get(f"/api/matches/{body['id']}").json()
    assert info["mode"] == "ranked" and info["status"] == "playing"
    assert sorted(info["players"]) == ["Kai", "Lia"]
    assert "kai" in info["client_seed"].split(":")
    assert body["id"] in live_ids(client)
    # Queueing again while seated returns the match in play.
    again = client.post("/api/ranked", headers=auth(kai), json={"ruleset": "mano-a-mano"})
    assert again.json()["id"] == body["id"]
    assert client.get("/api/me", headers=auth(max_)).json()["queued"] is None


def test_a_ranked_duplas_match_waits_for_four(client: TestClient) -> None:
    tokens = [account(client, f"Jogador{i}") for i in range(4)]
    for token in tokens[:3]:
        r = client.post("/api/ranked", headers=auth(token), json={"ruleset": "duplas-pontos"})
        assert r.json()["status"] == "queued"
    # Queueing for another ruleset moves the player out of the first queue.
    client.post("/api/ranked", headers=auth(tokens[2]), json={"ruleset": "mano-a-mano"})
    r = client.post("/api/ranked", headers=auth(tokens[3]), json={"ruleset": "duplas-pontos"})
    assert r.json()["status"] == "queued"
    r = client.post("/api/ranked", headers=auth(tokens[2]), json={"ruleset": "duplas-pontos"})
    assert r.json()["status"] == "matched"
    info = client.get(f"/api/matches/{r.json()['id']}").json()
    assert sorted(info["players"]) == [f"Jogador{i}" for i in range(4)]


# ---------------------------------------------------------------------- match routes


def test_match_routes_before_during_and_after(client: TestClient) -> None:
    assert client.get("/api/matches/naoexiste").status_code == 404
    missing = client.get("/api/matches/naoexiste/record")
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"

    token = guest(client, "Nina")
    waiting = client.post("/api/tables", headers=auth(token),
                          json={"ruleset": "mano-a-mano", "seats": ["me", "open"]}).json()
    early = client.get(f"/api/matches/{waiting['id']}/record")
    assert early.status_code == 409 and early.json()["error"]["code"] == "not_finished"

    created = client.post("/api/matches", json={
        "ruleset": "bloqueio", "seats": ["bot:greedy", "bot:random"],
    }).json()
    assert created["id"] in live_ids(client) or \
        client.get(f"/api/matches/{created['id']}").json()["status"] == "finished"
    info = wait_status(client, created["id"], "finished")
    assert fair.commitment(info["server_seed"]) == created["commitment"]
    assert info["result"]["reason"] == "target"
    assert created["id"] not in live_ids(client)
    finished = client.get("/api/matches").json()["finished"]
    assert created["id"] in [m["id"] for m in finished]
    rec = client.get(f"/api/matches/{created['id']}/record")
    assert rec.status_code == 200
    assert record.verify(record.loads(rec.text)).is_over


def test_a_match_reported_finished_has_its_record(client: TestClient) -> None:
    store = client.app.state.store  # type: ignore[attr-defined]
    finish = store.finish_match

    async def slow_finish(*args: Any) -> None:
        await asyncio.sleep(0.5)  # a busy database: the commit of the end takes a while
        await finish(*args)

    store.finish_match = slow_finish
    guest(client, "Olga")
    created = client.post("/api/matches", json={
        "ruleset": "bloqueio", "seats": ["bot:greedy", "bot:random"],
    }).json()
    end = time.monotonic() + 30
    while client.get(f"/api/matches/{created['id']}").json()["status"] != "finished":
        assert time.monotonic() < end
        time.sleep(0.02)
    info = client.get(f"/api/matches/{created['id']}").json()
    assert info["result"] is not None
    assert client.get(f"/api/matches/{created['id']}/record").status_code == 200
