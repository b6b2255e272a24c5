"""The word filter at the table: a listed word is masked for the others, the line is kept as
written for moderators, repeated hits mute the player a while (a sanction of the server's,
in the audit log); offensive nicknames are refused at sign-up."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from tests.moderation.helpers import chatting, count, make_moderator
from tests.support.server_app import account, guest, settings_for
from tests.support.wsplay import auth, say, until

from carroca.server.settings import Settings

pytestmark = pytest.mark.postgres


@pytest.fixture
def settings(database: str) -> Settings:
    return settings_for(database, chat_filter_hits=2, chat_filter_mute_minutes=10)


def test_repeated_hits_mute_a_while(client: TestClient, settings: Settings) -> None:
    ana, bia = guest(client, "Ana"), guest(client, "Bia")
    mara = account(client, "Mara")
    make_moderator(settings.database, "Mara")
    with chatting(client, ana, bia) as (_, wa, wb):
        say(wa, "que m3rd4")
        assert until(wb, "chat")["data"]["text"] == "que m****"
        say(wa, "porra")
        assert until(wb, "chat")["data"]["text"] == "p****"
        told = until(wa, "notice")["data"]
        assert "Seu chat está suspenso até" in told["message"]
        say(wa, "oi")
        assert until(wa, "error")["data"]["code"] == "chat_muted"
    notices = client.get("/api/me", headers=auth(ana)).json()["sanctions"]
    assert [n["kind"] for n in notices] == ["chat_mute"]
    assert notices[0]["until"] - notices[0]["at"] == pytest.approx(600, abs=5)
    log = client.get("/api/moderation/log", headers=auth(mara)).json()["log"]
    assert [(x["actor"], x["action"], x["target"]) for x in log] == [(None, "auto_mute", "Ana")]
    assert count(settings.database, "chat_lines") == 2


def test_a_clean_table_talks_freely(client: TestClient, settings: Settings) -> None:
    ana, bia = guest(client, "Ana"), guest(client, "Bia")
    with chatting(client, ana, bia) as (_, wa, wb):
        for text in ("capicú!", "que computador lento", "rola a pedra, parceira"):
            say(wa, text)
            assert until(wb, "chat")["data"]["text"] == text
    assert client.get("/api/me", headers=auth(ana)).json()["sanctions"] == []


@pytest.mark.parametrize("name", ["PutaQuePariu", "Caralho123", "o_merda"])
def test_offensive_nicknames_are_refused_at_sign_up(client: TestClient, name: str) -> None:
    for path, body in (("/api/guest", {"name": name}),
                       ("/api/register", {"name": name, "password": "senha-secreta"})):
        refused = client.post(path, json=body)
        assert refused.status_code == 422
        assert refused.json()["error"] == {
            "code": "offensive_name",
            "message": "Esse apelido tem uma palavra ofensiva; escolha outro."}
    assert client.post("/api/guest", json={"name": "Computador"}).status_code == 200
