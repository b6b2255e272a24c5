"""A guest who taps "Sair" comes back under the same nickname with the key their browser kept
(tests/security/test_forget_device.py: one who forgot the device does not);
the signed-out session answer; nicknames in any alphabet; pages that do not exist."""

from __future__ import annotations

import hashlib
import unicodedata

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from tests.support.wsplay import auth

from carroca.server.storage.db import make_engine, players

# Stored state is this module's subject: `make unit-postgres` runs it again on PostgreSQL.
pytestmark = pytest.mark.postgres


def stored_row(database: str, name: str) -> dict[str, object]:
    engine = make_engine(database)
    try:
        with engine.connect() as conn:
            row = conn.execute(
                sa.select(players).where(players.c.name_key == name.casefold())
            ).mappings().one()
    finally:
        engine.dispose()
    return dict(row)


def sign_up(client: TestClient, name: str) -> dict[str, object]:
    r = client.post("/api/guest", json={"name": name})
    assert r.status_code == 200, r.text
    body: dict[str, object] = r.json()
    return body


# ---------------------------------------------------------------------- the guest key


def test_a_guest_who_left_comes_back_with_the_key(client: TestClient, database: str) -> None:
    first = sign_up(client, "Zé da Praça")
    key = first["guest_key"]
    assert isinstance(key, str) and len(key) >= 40
    # only the key's SHA-256 is stored, never the key
    row = stored_row(database, "Zé da Praça")
    assert row["guest_key_hash"] == hashlib.sha256(key.encode()).hexdigest()
    assert key not in {str(v) for v in row.values()}

    assert client.post("/api/logout").status_code == 200
    assert client.get("/api/me").status_code == 401
    # without the key the nickname is someone else's
    taken = client.post("/api/guest", json={"name": "Zé da Praça"})
    assert taken.status_code == 409 and taken.json()["error"]["code"] == "name_taken"

    back = client.post("/api/guest", json={"name": "zé da praça", "key": key})
    assert back.status_code == 200, back.text
    body = back.json()
    assert body["player"] == first["player"]  # the same player, the name as first written
    assert "guest_key" not in body  # the key they hold stays valid
    assert client.get("/api/me").json()["player"] == first["player"]
    # and again: the key is not used up
    client.cookies.clear()
    again = client.post("/api/guest", json={"name": "Zé da Praça", "key": key})
    assert again.status_code == 200 and again.json()["player"]["id"] == first["player"]["id"]


def test_a_wrong_key_keeps_the_nickname_taken(client: TestClient) -> None:
    """A key that is not the guest's does not sign in (401, as a forgotten device's key); no
    key at all: the nickname is taken."""
    sign_up(client, "Dona Cida")
    other = sign_up(client, "Juca Bala")["guest_key"]
    client.cookies.clear()
    for key in ("x" * 43, other, "a"):
        r = client.post("/api/guest", json={"name": "Dona Cida", "key": key})
        assert r.status_code == 401, (key, r.text)
        assert r.json()["error"] == {
            "code": "bad_guest_key",
            "message": "A chave deste convidado não vale mais neste aparelho; escolha outro "
                       "apelido."}
        assert client.get("/api/me").status_code == 401
    r = client.post("/api/guest", json={"name": "Dona Cida", "key": ""})
    assert r.status_code == 409, r.text
    assert r.json()["error"] == {"code": "name_taken",
                                 "message": "Esse apelido já está em uso; escolha outro."}
    too_long = client.post("/api/guest", json={"name": "Dona Cida", "key": "k" * 101})
    assert too_long.status_code == 422


def test_a_key_for_a_free_nickname_signs_up_a_new_guest(client: TestClient) -> None:
    """A guest removed by the purge (or a stale key): the nickname is free, so the browser just
    gets a new guest and a new key."""
    r = client.post("/api/guest", json={"name": "Tião", "key": "velha-chave-de-outro-servidor"})
    assert r.status_code == 200, r.text
    assert r.json()["guest_key"] != "velha-chave-de-outro-servidor"


def test_a_guest_who_made_an_account_needs_the_password(
    client: TestClient, database: str
) -> None:
    body = sign_up(client, "Bia Lima")
    token = str(body["token"])
    r = client.post("/api/register", headers=auth(token),
                    json={"name": "Bia Lima", "password": "carroca-de-seis"})
    assert r.status_code == 200, r.text
    assert stored_row(database, "Bia Lima")["guest_key_hash"] is None
    client.cookies.clear()
    r = client.post("/api/guest", json={"name": "Bia Lima", "key": body["guest_key"]})
    assert r.status_code == 409


# ---------------------------------------------------------------------- the session, signed out


def test_the_session_answers_200_when_signed_out(client: TestClient) -> None:
    r = client.get("/api/session")
    assert r.status_code == 200 and r.json() == {"player": None, "announcement": None}
    sign_up(client, "Caio")
    assert client.get("/api/session").json() == {**client.get("/api/me").json(),
                                                  "announcement": None}
    assert client.get("/api/session").json()["player"]["name"] == "Caio"


# ---------------------------------------------------------------------- nicknames

GOOD = [
    "Łukasz", "Ólafur", "Даша", "Νίκος", "さくら", "محمد", "Nguyễn Văn", "Zoë_2", "Ñandú",
    "O.Neil", "Jürgen-99", "李小龍", "Hà Nội", "Ngọc_Ánh",
]
BAD = [
    "Mаria",  # a Cyrillic "а" among Latin letters
    "Ana\u0000x", "Ana\u0007x", "Ana\u200bBia", "Ana\u202eBia", "Ana\u2066x",  # control, format
    "Ana😀", "Ana©", "Ana٣", "Ana½", "Ana†",  # not letters nor 0–9
    "\u0301Ana", "a\u0301\u0302\u0303\u0304na", "1\u0301Ana",  # accents alone, or piled up
    "ab", "ação" * 6, "-Ana", "Ana-", ".Ana", "Ana  Bia",
]


@pytest.mark.parametrize("name", GOOD)
def test_nicknames_in_any_alphabet(client: TestClient, name: str) -> None:
    r = client.post("/api/guest", json={"name": name})
    assert r.status_code == 200, r.text
    assert r.json()["player"]["name"] == name


def test_a_nickname_is_stored_in_its_plain_form(client: TestClient) -> None:
    """"José" typed with a combining accent is the same nickname as "José"; full-width
    "Ａｎａ" is "Ana" (NFKC), so neither can pass for the other."""
    decomposed = unicodedata.normalize("NFD", "José")
    assert decomposed != "José"
    r = client.post("/api/guest", json={"name": decomposed})
    assert r.status_code == 200 and r.json()["player"]["name"] == "José"
    client.cookies.clear()
    assert client.post("/api/guest", json={"name": "JOSÉ"}).status_code == 409
    r = client.post("/api/guest", json={"name": "Ａｎａ"})
    assert r.status_code == 200 and r.json()["player"]["name"] == "Ana"
    client.cookies.clear()
    assert client.post("/api/guest", json={"name": "ana"}).status_code == 409


@pytest.mark.parametrize("name", BAD)
def test_nicknames_that_are_not_letters_are_refused(client: TestClient, name: str) -> None:
    r = client.post("/api/guest", json={"name": name})
    assert r.status_code == 422, (name, r.text)
    error = r.json()["error"]
    assert error["code"] == "bad_name"
    assert "apelido" in error["message"].lower()
    message = error["message"]
    assert "letras" in message or "alfabeto" in message, message


def test_reserved_words_stay_reserved(client: TestClient) -> None:
    for name in ("bot", "Bot 7", "ADMIN", "Carroça", "carroca_br"):
        r = client.post("/api/guest", json={"name": name})
        assert r.status_code == 422 and "reservado" in r.json()["error"]["message"], name


# ---------------------------------------------------------------------- unknown addresses


def test_a_browser_gets_a_page_for_an_unknown_address(client: TestClient) -> None:
    html = {"accept": "text/html,application/xhtml+xml,*/*;q=0.8"}
    for path in ("/nada", "/mesa/antiga", "/js/nada.js"):
        r = client.get(path, headers=html)
        assert r.status_code == 404, path
        assert r.headers["content-type"].startswith("text/html"), path
        assert "Página não encontrada" in r.text and 'href="/"' in r.text, path
        assert r.headers["content-security-policy"], path
    # programs, and the API, keep the JSON error
    r = client.get("/nada", headers={"accept": "application/json"})
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    assert client.get("/nada").json()["error"]["code"] == "not_found"
    for path in ("/api/nada", "/api/matches/nenhuma"):
        r = client.get(path, headers=html)
        assert r.status_code == 404 and r.headers["content-type"].startswith(
            "application/json"), path
    assert client.post("/nada", headers=html).json()["error"]["code"] in (
        "not_found", "method_not_allowed")
