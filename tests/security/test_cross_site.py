"""State-changing requests from another site's page, or another port of the same host, are
refused; the server's own pages and programs pass.

Before: a form on http://host:9000 signed a player of http://host:8000 out (`POST /api/logout`),
and `POST /api/matches/{id}/rematch` took an empty form body: cookies do not tell ports apart.
Then: the Origin check took `https://host` for a site served at `http://host` (and the
reverse): another origin, which may be another server. Now the scheme must be the site's own
(as the server is reached: `https` behind a trusted proxy that says so).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from tests.support.server_app import guest, settings_for

from carroca.server.app import create_app

OWN = "http://testserver"


@pytest.fixture
def client(database: str) -> Iterator[TestClient]:
    settings = settings_for(database, allowed_origins="https://parceiro.example")
    with TestClient(create_app(settings)) as c:
        yield c


@pytest.mark.parametrize("headers", [
    {"Origin": "http://testserver:9000"},  # another port: the same site for cookies
    {"Origin": "https://evil.example"},
    {"Origin": "null"},  # a sandboxed frame or a file
    {"Sec-Fetch-Site": "same-site"},
    {"Sec-Fetch-Site": "cross-site"},
    {"Origin": OWN, "Sec-Fetch-Site": "same-site"},
    {"Origin": "https://testserver"},  # the same host, another scheme: another origin
])
def test_a_foreign_page_cannot_sign_a_player_out(client: TestClient,
                                                 headers: dict[str, str]) -> None:
    guest(client, "Alvo")
    refused = client.post("/api/logout", headers=headers)
    assert refused.status_code == 403
    assert refused.json()["error"]["code"] == "cross_site"
    assert client.get("/api/me").status_code == 200  # still signed in


def test_a_foreign_form_cannot_ask_for_a_rematch_or_a_table(client: TestClient) -> None:
    guest(client, "Alvo")
    form = {"Origin": "http://testserver:9000",
            "Content-Type": "application/x-www-form-urlencoded"}
    assert client.post("/api/matches/abc/rematch", content=b"", headers=form).status_code == 403
    made = client.post("/api/tables", content=b"ruleset=bloqueio", headers=form)
    assert made.status_code == 403


@pytest.mark.parametrize("headers", [
    {"Origin": OWN, "Sec-Fetch-Site": "same-origin"},  # the server's own page
    {"Sec-Fetch-Site": "none"},  # typed by the person
    {"Origin": "https://parceiro.example", "Sec-Fetch-Site": "cross-site"},  # ALLOWED_ORIGINS
    {},  # a program
])
def test_own_pages_listed_origins_and_programs_pass(client: TestClient,
                                                    headers: dict[str, str]) -> None:
    guest(client, "Dono")
    assert client.post("/api/logout", headers=headers).status_code == 200


def test_reads_are_never_refused(client: TestClient) -> None:
    assert client.get("/api/rulesets", headers={"Origin": "https://evil.example",
                                                "Sec-Fetch-Site": "cross-site"}).status_code == 200


def test_the_socket_refuses_the_other_scheme_too(client: TestClient) -> None:
    from starlette.testclient import WebSocketDenialResponse

    token = guest(client, "Soquete")
    with pytest.raises(WebSocketDenialResponse) as refused, client.websocket_connect(
            f"/ws?token={token}", headers={"Origin": "https://testserver"}):
        pass
    assert refused.value.status_code == 403
    with client.websocket_connect(f"/ws?token={token}", headers={"Origin": OWN}) as ws:
        assert ws.receive_json()["type"] == "hello"
