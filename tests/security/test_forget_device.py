"""A guest on a shared computer can forget the device: their key stops signing in, on the server.

Before: "Sair" left the guest's key in the browser and valid on the server, so the next person at
a shared computer entered the same nickname and was that guest, games and all.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from tests.server.conftest import settings_for
from tests.server.wsplay import auth, connect, receive_text

from carroca.server.app import create_app
from carroca.server.storage.db import make_engine, players

BAD_KEY = {"code": "bad_guest_key", "message": "A chave deste convidado não vale mais neste "
                                               "aparelho; escolha outro apelido."}
FORGET = {"forget_device": True}


@pytest.fixture
def client(database: str) -> Iterator[TestClient]:
    with TestClient(create_app(settings_for(database))) as c:
        yield c


def sign_up(client: TestClient, name: str) -> tuple[str, str]:
    """(session token, guest key) of a new guest; the client keeps no cookie."""
    r = client.post("/api/guest", json={"name": name})
    assert r.status_code == 200, r.text
    client.cookies.clear()
    return r.json()["token"], r.json()["guest_key"]


def key_hash(database: str, name: str) -> str | None:
    engine = make_engine(database)
    try:
        with engine.connect() as conn:
            found: str | None = conn.execute(
                sa.select(players.c.guest_key_hash).where(players.c.name_key == name.casefold())
            ).scalar_one()
    finally:
        engine.dispose()
    return found


def test_a_forgotten_device_key_is_refused(client: TestClient, database: str) -> None:
    token, key = sign_up(client, "Lan House")
    back = client.post("/api/guest", json={"name": "Lan House", "key": key})  # another visit
    assert back.status_code == 200, back.text
    other = back.json()["token"]
    client.cookies.clear()
    with ExitStack() as stack:
        elsewhere = connect(stack, client, other, "other tab")
        r = client.post("/api/logout", headers=auth(token), json=FORGET)
        assert r.status_code == 200, r.text
        assert r.json() == {"status": "ok", "forgotten": True}
        with pytest.raises(WebSocketDisconnect) as closed:  # its sockets are closed too
            while True:
                json.loads(receive_text(elsewhere.ws, timeout=10))
        assert closed.value.code == 4401
    # Every session of the guest ended; the old key, replayed, signs nobody in.
    for session in (token, other):
        assert client.get("/api/me", headers=auth(session)).status_code == 401
    assert key_hash(database, "Lan House") is None
    for name in ("Lan House", "lan house"):
        replayed = client.post("/api/guest", json={"name": name, "key": key})
        assert replayed.status_code == 401, replayed.text
        assert replayed.json() == {"error": BAD_KEY}
    assert "carroca_session" not in client.cookies
    taken = client.post("/api/guest", json={"name": "Lan House"})
    assert taken.status_code == 409 and taken.json()["error"]["code"] == "name_taken"
    # whoever comes next starts fresh, under a nickname of their own
    fresh = client.post("/api/guest", json={"name": "Próxima Pessoa"})
    assert fresh.status_code == 200 and fresh.json()["guest_key"] != key


def test_sair_without_forgetting_keeps_the_key(client: TestClient) -> None:
    token, key = sign_up(client, "Em Casa")
    r = client.post("/api/logout", headers=auth(token), json={})
    assert r.status_code == 200 and r.json() == {"status": "ok"}
    assert client.get("/api/me", headers=auth(token)).status_code == 401
    back = client.post("/api/guest", json={"name": "Em Casa", "key": key})
    assert back.status_code == 200, back.text


@pytest.mark.parametrize("headers", [
    {"Origin": "https://evil.example"},
    {"Origin": "http://testserver:9000"},  # another port: the same site for cookies
    {"Sec-Fetch-Site": "cross-site"},
])
def test_a_foreign_page_cannot_make_a_guest_forget(client: TestClient, database: str,
                                                   headers: dict[str, str]) -> None:
    token, key = sign_up(client, "Alvo Certo")
    refused = client.post("/api/logout", headers={**auth(token), **headers}, json=FORGET)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "cross_site"
    assert client.get("/api/me", headers=auth(token)).status_code == 200
    assert key_hash(database, "Alvo Certo") is not None
    # from the server's own page it works
    own = client.post("/api/logout", json=FORGET, headers={
        **auth(token), "Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"})
    assert own.status_code == 200 and own.json()["forgotten"] is True
    assert client.post("/api/guest", json={"name": "Alvo Certo", "key": key}).status_code == 401


def test_a_bad_body_changes_nothing(client: TestClient, database: str) -> None:
    token, _ = sign_up(client, "Dona Bia")
    before = key_hash(database, "Dona Bia")
    for body in ({"forget_device": "talvez"}, {"forget_device": True, "todos": True}):
        r = client.post("/api/logout", headers=auth(token), json=body)
        assert r.status_code == 422 and r.json()["error"]["code"] == "bad_request", body
    assert client.get("/api/me", headers=auth(token)).status_code == 200
    assert key_hash(database, "Dona Bia") == before


def test_an_account_only_signs_out(client: TestClient) -> None:
    r = client.post("/api/register", json={"name": "Conta Séria", "password": "senha-secreta"})
    token = r.json()["token"]
    client.cookies.clear()
    out = client.post("/api/logout", headers=auth(token), json=FORGET)
    assert out.status_code == 200 and out.json() == {"status": "ok", "forgotten": False}
    assert client.get("/api/me", headers=auth(token)).status_code == 401
    again = client.post("/api/login", json={"name": "Conta Séria", "password": "senha-secreta"})
    assert again.status_code == 200, again.text
    # signed out already: nothing to forget
    client.cookies.clear()
    assert client.post("/api/logout", json=FORGET).json() == {"status": "ok", "forgotten": False}
