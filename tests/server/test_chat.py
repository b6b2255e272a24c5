"""Table chat: open at casual and friends' tables, closed in ranked matches, limited in length and
rate, only for the seated, and mutable per seat by each listener."""

from __future__ import annotations

from fastapi.testclient import TestClient
from tests.support.server_app import account, guest, settings_for
from tests.support.wsplay import auth, recv, say, send, sit, until

from carroca.server.app import create_app
from carroca.server.realtime.protocol import MAX_CHAT


def friends_table(client: TestClient, host: str, seats: list[str], *others: str) -> str:
    r = client.post("/api/tables", headers=auth(host),
                    json={"ruleset": "duplas-pontos", "seats": seats})
    assert r.status_code == 201, r.text
    for token in others:
        joined = client.post("/api/tables/join", headers=auth(token),
                             json={"invite": r.json()["invite"]})
        assert joined.status_code == 200, joined.text
    match_id: str = r.json()["id"]
    return match_id


def test_chat_at_a_casual_table(database: str) -> None:
    with TestClient(create_app(settings_for(database, casual_wait_seconds=60))) as client:
        ana, bia = guest(client, "Ana"), guest(client, "Bia")
        match_id = client.post("/api/casual", headers=auth(ana),
                               json={"ruleset": "mano-a-mano"}).json()["id"]
        assert client.post("/api/casual", headers=auth(bia),
                           json={"ruleset": "mano-a-mano"}).json()["id"] == match_id
        with client.websocket_connect(f"/ws?token={ana}") as wa, \
                client.websocket_connect(f"/ws?token={bia}") as wb:
            assert sit(wa, match_id)["chat"] is True
            sit(wb, match_id)
            say(wa, "  boa   sorte,\tparceira!  ")
            for ws in (wa, wb):
                line = until(ws, "chat")["data"]
                assert line["seat"] == 0 and line["name"] == "Ana"
                assert line["text"] == "boa sorte, parceira!"  # whitespace folded
            say(wb, "valeu 🁣")
            assert until(wa, "chat")["data"]["text"] == "valeu 🁣"


def test_chat_is_refused_in_ranked_matches(client: TestClient) -> None:
    kai, lia = account(client, "Kai"), account(client, "Lia")
    client.post("/api/ranked", headers=auth(kai), json={"ruleset": "mano-a-mano"})
    r = client.post("/api/ranked", headers=auth(lia), json={"ruleset": "mano-a-mano"})
    match_id = r.json()["id"]
    with client.websocket_connect(f"/ws?token={kai}") as wk, \
            client.websocket_connect(f"/ws?token={lia}") as wl:
        assert sit(wk, match_id)["chat"] is False
        sit(wl, match_id)
        say(wk, "oi")
        error = until(wk, "error", "chat")
        assert error["type"] == "error" and error["data"]["code"] == "no_chat"
        assert "ranqueada" in error["data"]["message"]
        send(wl, "ping")
        assert until(wl, "pong", "chat")["type"] == "pong"  # Lia heard nothing


def test_long_lines_and_bursts_are_refused(client: TestClient) -> None:
    host = guest(client, "Caio")
    match_id = friends_table(client, host, ["me", "bot:greedy", "bot:greedy", "bot:greedy"])
    with client.websocket_connect(f"/ws?token={host}") as ws:
        sit(ws, match_id)
        say(ws, "x" * (MAX_CHAT + 1))
        error = until(ws, "error", "chat")["data"]
        assert error["code"] == "bad_message" and "text" in error["message"]
        say(ws, "y" * MAX_CHAT)  # the limit itself is fine
        assert until(ws, "error", "chat")["data"]["text"] == "y" * MAX_CHAT
        for i in range(4):  # five lines in all within ten seconds
            say(ws, f"linha {i}")
            assert until(ws, "error", "chat")["data"]["text"] == f"linha {i}"
        say(ws, "mais uma")
        error = until(ws, "error", "chat")["data"]
        assert error["code"] == "chat_rate" and "Calma" in error["message"]
        say(ws, "   ")
        assert until(ws, "error", "chat")["type"] == "error"


def test_spectators_read_but_cannot_chat(client: TestClient) -> None:
    host, fan = guest(client, "Duda"), guest(client, "Eva")
    match_id = friends_table(client, host, ["me", "bot:greedy", "bot:greedy", "bot:greedy"])
    with client.websocket_connect(f"/ws?token={host}") as wh, \
            client.websocket_connect(f"/ws?token={fan}") as wf:
        sit(wh, match_id)
        assert sit(wf, match_id)["seat"] is None
        say(wf, "posso falar?")
        error = until(wf, "error", "chat")["data"]
        assert error["code"] == "not_seated"
        say(wh, "só quem joga fala")
        assert until(wf, "chat", "error")["data"]["text"] == "só quem joga fala"
        assert until(wh, "chat", "error")["data"]["text"] == "só quem joga fala"  # not Eva's


def test_chat_before_joining_a_table_is_refused(client: TestClient) -> None:
    token = guest(client, "Fabi")
    with client.websocket_connect(f"/ws?token={token}") as ws:
        assert recv(ws)["type"] == "hello"
        say(ws, "alguém?")
        assert until(ws, "error", "chat")["data"]["code"] == "not_seated"


def test_mute_silences_one_seat_for_one_listener(client: TestClient) -> None:
    gil, hana, ivo = guest(client, "Gil"), guest(client, "Hana"), guest(client, "Ivo")
    match_id = friends_table(client, gil, ["me", "open", "open", "bot:greedy"], hana, ivo)
    with client.websocket_connect(f"/ws?token={gil}") as wg, \
            client.websocket_connect(f"/ws?token={hana}") as wh, \
            client.websocket_connect(f"/ws?token={ivo}") as wi:
        assert sit(wg, match_id)["seat"] == 0
        assert sit(wh, match_id)["seat"] == 1
        assert sit(wi, match_id)["seat"] == 2
        send(wg, "mute", {"seat": 1, "muted": True})
        assert until(wg, "muted")["data"] == {"seats": [1]}

        say(wh, "chato demais")
        for ws in (wh, wi):  # everyone else still hears Hana
            assert until(ws, "chat")["data"]["text"] == "chato demais"
        say(wi, "calma, gente")
        line = until(wg, "chat")["data"]  # Gil's first line is Ivo's: Hana's never came
        assert (line["seat"], line["text"]) == (2, "calma, gente")
        assert until(wh, "chat")["data"]["text"] == "calma, gente"

        send(wg, "mute", {"seat": 1, "muted": False})
        assert until(wg, "muted")["data"] == {"seats": []}
        say(wh, "desculpa")
        assert until(wg, "chat")["data"]["text"] == "desculpa"

        send(wg, "mute", {"seat": 4, "muted": True})
        assert until(wg, "error")["data"]["code"] == "bad_message"


def test_a_tower_of_combining_marks_is_cut_to_two() -> None:
    """A letter with 199 combining marks passed the chat filter and drew over the table."""
    from carroca.server.tables.chat import clean_text

    assert clean_text("a" + "\u0301" * 199 + "b") == "a\u0301\u0301b"
    assert clean_text("Ti\u1ebfng Vi\u1ec7t") == "Ti\u1ebfng Vi\u1ec7t"  # precomposed: untouched
    assert clean_text("Tie\u0302\u0301ng") == "Tie\u0302\u0301ng"  # two marks: kept
    assert clean_text("x\u200b\u202ey\u200dz") == "xy\u200dz"  # as before: invisible ones go


def test_a_blocked_players_lines_never_reach_the_blocker(client: TestClient) -> None:
    """Unlike a mute, a block holds at every table and from the block's answer on: Gil blocks
    Hana mid-match and hears no more of her (nor after joining again); Ivo still does; after an
    unblock Gil hears her again. Hana is not told."""
    gil, hana, ivo = guest(client, "Gil"), guest(client, "Hana"), guest(client, "Ivo")
    match_id = friends_table(client, gil, ["me", "open", "open", "bot:greedy"], hana, ivo)
    with client.websocket_connect(f"/ws?token={gil}") as wg, \
            client.websocket_connect(f"/ws?token={hana}") as wh, \
            client.websocket_connect(f"/ws?token={ivo}") as wi:
        sit(wg, match_id), sit(wh, match_id), sit(wi, match_id)
        say(wh, "oi")
        line = until(wg, "chat")["data"]
        assert (line["text"], line["seat"]) == ("oi", 1)
        assert set(line) == {"seat", "name", "text", "at"}  # nobody's id goes out
        hana_id = client.get("/api/me", headers=auth(hana)).json()["player"]["id"]
        for ws in (wh, wi):
            assert until(ws, "chat")["data"]["text"] == "oi"
        blocked = client.post("/api/blocks", headers=auth(gil), json={"player": hana_id})
        assert blocked.status_code == 200, blocked.text

        say(wh, "chato demais")
        assert until(wi, "chat")["data"]["text"] == "chato demais"
        say(wi, "calma, gente")
        assert until(wg, "chat")["data"]["text"] == "calma, gente"  # Hana's line never came
        assert until(wh, "chat")["data"]["text"] == "chato demais"  # her own: she is not told

        send(wg, "join", {"match": match_id})  # a join reads the blocks again: still out
        until(wg, "state")
        say(wh, "de novo")
        say(wi, "chega")
        assert until(wg, "chat")["data"]["text"] == "chega"

        assert client.delete(f"/api/blocks/{hana_id}", headers=auth(gil)).status_code == 200
        say(wh, "desculpa")
        assert until(wg, "chat")["data"]["text"] == "desculpa"
