"""Players: guests, accounts with argon2 passwords, sessions that outlive the process, and seats
bound to the player who holds them."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from tests.support.server_app import CHEAP_PASSWORDS, guest, settings_for
from tests.support.wsplay import auth, recv, send, until

from carroca.server.app import create_app
from carroca.server.players.accounts import COOKIE
from carroca.server.preflight import password_cost_problem
from carroca.server.settings import Settings
from carroca.server.storage.db import make_engine, players

# Stored state is this module's subject: `make unit-postgres` runs it again on PostgreSQL.
pytestmark = pytest.mark.postgres


def password_hash(database: str, name: str) -> str | None:
    engine = make_engine(database)
    try:
        with engine.connect() as conn:
            value = conn.execute(
                sa.select(players.c.password_hash).where(players.c.name_key == name.casefold())
            ).scalar_one()
    finally:
        engine.dispose()
    return value  # type: ignore[no-any-return]


# ---------------------------------------------------------------------- guests and names


def test_guest_gets_an_http_only_cookie_and_a_token(client: TestClient) -> None:
    r = client.post("/api/guest", json={"name": "Zé Carroça"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["player"]["name"] == "Zé Carroça" and body["player"]["kind"] == "guest"
    token = body["token"]
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}={token}")
    assert "httponly" in cookie.lower() and "samesite=lax" in cookie.lower()
    # The cookie alone signs the browser in; the token alone signs a program in.
    assert client.get("/api/me").json()["player"]["name"] == "Zé Carroça"
    client.cookies.clear()
    assert client.get("/api/me").status_code == 401
    me = client.get("/api/me", headers=auth(token)).json()
    assert me == {"player": body["player"], "tables": [], "queued": None, "sanctions": []}


@pytest.mark.parametrize("name", ["ab", "x" * 21, "ana  maria", "-ana", "ana!", "bot_ana",
                                  "Admin", "Carroca_BR", " ", ""])
def test_bad_names_are_refused_in_portuguese(client: TestClient, name: str) -> None:
    r = client.post("/api/guest", json={"name": name})
    assert r.status_code == 422, r.text
    error = r.json()["error"]
    assert error["code"] == "bad_name"
    assert "apelido" in error["message"].lower()


@pytest.mark.parametrize("name", ["Botelho", "Botafogo", "Administrador"])
def test_common_names_that_begin_like_a_reserved_word_are_fine(
    client: TestClient, name: str
) -> None:
    assert client.post("/api/guest", json={"name": name}).status_code == 200


def test_a_name_too_long_for_the_body_is_a_bad_request(client: TestClient) -> None:
    r = client.post("/api/guest", json={"name": "a" * 41})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_request"


def test_taken_names_compare_without_case(client: TestClient) -> None:
    guest(client, "Maria")
    for name in ("Maria", "maria", "MARIA"):
        r = client.post("/api/guest", json={"name": name})
        assert r.status_code == 409 and r.json()["error"]["code"] == "name_taken"
    client.cookies.clear()  # signed in as Maria, registering "maria" would keep her name
    r = client.post("/api/register", json={"name": "maria", "password": "segredo-forte"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "name_taken"
    other = guest(client, "Outra")
    r = client.post("/api/register", headers=auth(other),
                    json={"name": "MARIA", "password": "segredo-forte"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "name_taken"


# ---------------------------------------------------------------------- accounts


def test_register_stores_an_argon2_hash_and_login_checks_it(
    client: TestClient, database: str
) -> None:
    password = "pedra-tocada-123"
    r = client.post("/api/register", json={"name": "Luís", "password": password})
    assert r.status_code == 200, r.text
    assert r.json()["player"]["kind"] == "account"
    stored = password_hash(database, "Luís")
    assert stored is not None and stored.startswith("$argon2")
    assert password not in stored
    client.cookies.clear()

    ok = client.post("/api/login", json={"name": "luís", "password": password})
    assert ok.status_code == 200, ok.text
    assert ok.json()["player"]["name"] == "Luís"
    assert client.get("/api/me", headers=auth(ok.json()["token"])).status_code == 200
    for name, wrong in (("Luís", "pedra-tocada-124"), ("Luís", ""), ("ninguem", password)):
        bad = client.post("/api/login", json={"name": name, "password": wrong})
        assert bad.status_code == 401
        assert bad.json()["error"] == {"code": "bad_login",
                                       "message": "Apelido ou senha incorretos."}


def test_the_hash_cost_is_rfc_9106s_unless_set_and_a_stored_hash_keeps_its_own(
    database: str
) -> None:
    """The tests' servers hash cheaply (CHEAP_PASSWORDS); a server's own default is argon2id at
    RFC 9106's second recommended cost, and a hash made at one cost is checked at that cost by
    a server set to another."""
    default = {name: getattr(Settings(), name) for name in CHEAP_PASSWORDS}
    assert default == {"password_time_cost": 3, "password_memory_kib": 65536,
                       "password_parallelism": 4}
    with TestClient(create_app(settings_for(database, **default))) as c:
        assert c.post("/api/register", json={"name": "Forte", "password": "senha-forte-1"}
                      ).status_code == 200
    assert (password_hash(database, "Forte") or "").startswith("$argon2id$v=19$m=65536,t=3,p=4$")
    with TestClient(create_app(settings_for(database))) as c:
        assert c.post("/api/register", json={"name": "Leve", "password": "senha-leve-1"}
                      ).status_code == 200
        assert c.post("/api/login", json={"name": "Forte", "password": "senha-forte-1"}
                      ).status_code == 200
        assert c.post("/api/login", json={"name": "Forte", "password": "senha-fraca-1"}
                      ).status_code == 401
    assert (password_hash(database, "Leve") or "").startswith("$argon2id$v=19$m=8192,t=1,p=1$")


def test_a_password_cost_below_argon2s_least_stops_the_start() -> None:
    least = Settings(password_time_cost=1, password_memory_kib=8, password_parallelism=1)
    assert password_cost_problem(least) is None
    for wrong in ({"password_time_cost": 0}, {"password_parallelism": 0},
                  {"password_memory_kib": 31, "password_parallelism": 4}):
        why = password_cost_problem(Settings(**wrong))  # type: ignore[arg-type]
        assert why is not None and "CARROCA_PASSWORD_" in why and "argon2's least" in why


def test_short_passwords_are_refused(client: TestClient) -> None:
    r = client.post("/api/register", json={"name": "Bia", "password": "1234567"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "weak_password"
    assert "senha" in r.json()["error"]["message"]


def test_a_guest_cannot_log_in_without_a_password(client: TestClient) -> None:
    guest(client, "Caio")
    r = client.post("/api/login", json={"name": "Caio", "password": "qualquer-coisa"})
    assert r.status_code == 401


def test_a_guest_registering_keeps_name_and_id(client: TestClient, database: str) -> None:
    token = guest(client, "Dora")
    before = client.get("/api/me", headers=auth(token)).json()["player"]
    r = client.post("/api/register", headers=auth(token),
                    json={"name": "dora", "password": "carroca-de-seis"})
    assert r.status_code == 200, r.text
    after = r.json()["player"]
    assert after == {**before, "kind": "account"}
    assert (password_hash(database, "Dora") or "").startswith("$argon2")
    # The guest's old session is still theirs, now an account.
    assert client.get("/api/me", headers=auth(token)).json()["player"]["kind"] == "account"
    client.cookies.clear()
    r = client.post("/api/login", json={"name": "Dora", "password": "carroca-de-seis"})
    assert r.status_code == 200 and r.json()["player"]["id"] == before["id"]


def test_logout_ends_the_session(client: TestClient) -> None:
    token = guest(client, "Edu")
    other = guest(client, "Fabi")
    r = client.post("/api/logout", headers=auth(token))
    assert r.status_code == 200
    assert COOKIE in r.headers.get("set-cookie", "")  # the browser's cookie is cleared too
    assert client.get("/api/me", headers=auth(token)).status_code == 401
    assert client.get("/api/me", headers=auth(other)).status_code == 200
    with client.websocket_connect(f"/ws?token={token}") as ws:
        assert ws.receive()["type"] == "websocket.close"


def test_sessions_survive_a_restart(database: str) -> None:
    settings: Settings = settings_for(database)
    with TestClient(create_app(settings)) as first:
        token = guest(first, "Gil")
        account = first.post("/api/register",
                             json={"name": "Hana", "password": "senha-da-hana"}).json()["token"]
    with TestClient(create_app(settings)) as second:
        assert second.get("/api/me", headers=auth(token)).json()["player"]["name"] == "Gil"
        assert second.get("/api/me", headers=auth(account)).json()["player"]["name"] == "Hana"
        assert second.post("/api/guest", json={"name": "gil"}).status_code == 409


# ---------------------------------------------------------------------- seats


def test_only_the_seated_player_moves_for_a_seat(client: TestClient) -> None:
    owner = guest(client, "Iara")
    intruder = guest(client, "Joca")
    r = client.post("/api/tables", headers=auth(owner), json={
        "ruleset": "duplas-pontos", "seats": ["me", "bot:greedy", "bot:greedy", "bot:greedy"],
    })
    assert r.status_code == 201, r.text
    match_id = r.json()["id"]
    with client.websocket_connect(f"/ws?token={intruder}") as ws:
        assert recv(ws)["type"] == "hello"
        send(ws, "join", {"match": match_id})
        state = until(ws, "state")["data"]
        assert state["seat"] is None
        assert state["view"] is None or state["view"]["hand"] == []
        for action in ("pass", "6-6", "five-doubles:points"):
            send(ws, "move", {"id": 1, "action": action})
            error = until(ws, "error")["data"]
            assert error["code"] == "not_seated" and error["id"] == 1
    # The intruder's moves left nothing in the seat's log (its own clock is 20 s).
    with client.websocket_connect(f"/ws?token={owner}") as ws:
        assert recv(ws)["type"] == "hello"
        send(ws, "join", {"match": match_id})
        state = until(ws, "state")["data"]
        assert state["seat"] == 0
        assert all(step["seat"] != 0 for step in state["view"]["steps"])


def test_a_socket_without_a_session_is_closed(client: TestClient) -> None:
    with client.websocket_connect("/ws?token=nao-existe") as ws:
        message = ws.receive()
        assert message["type"] == "websocket.close" and message["code"] == 4401
