"""Reports and moderators' actions through the API: a line of chat reported with its context,
a moderator's mute enforced and lifted, the reporter's view of their reports, the audit log;
duplicates merged and reporters limited."""

from __future__ import annotations

import time

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from tests.moderation.helpers import chatting, friends_table, make_moderator, report
from tests.support.server_app import account, guest, settings_for
from tests.support.wsplay import auth, say, until

from carroca.server.app import create_app
from carroca.server.settings import Settings
from carroca.server.storage import db
from carroca.server.storage.db import make_engine

# Stored state is this module's subject: `make unit-postgres` runs it again on PostgreSQL.
pytestmark = pytest.mark.postgres


@pytest.fixture
def settings(database: str) -> Settings:
    return settings_for(database, reports_per_hour=4)


def test_a_reported_insult_is_muted_seen_and_lifted(client: TestClient, settings: Settings
                                                    ) -> None:
    ana, bia = guest(client, "Ana"), guest(client, "Bia")
    mara = account(client, "Mara")
    make_moderator(settings.database, "Mara")
    with chatting(client, ana, bia) as (match_id, wa, wb):
        say(wa, "boa noite")
        until(wb, "chat")
        say(wa, "seu idiota, joga direito")
        line = until(wb, "chat")["data"]
        assert line["text"] == "seu i*****, joga direito"  # masked for the others

        made = report(client, bia, player="Ana", reason="chat", match=match_id,
                      line_at=line["at"], comment="me xingou")
        assert made.status_code == 201, made.text
        report_id = made.json()["id"]
        mine = client.get("/api/reports", headers=auth(bia)).json()["reports"]
        assert [(r["id"], r["reported"], r["status"]) for r in mine] == \
            [(report_id, "Ana", "recebida")]
        assert "context" not in mine[0]

        queue = client.get("/api/moderation/queue", headers=auth(mara)).json()["queue"]
        assert [(g["player"]["name"], g["reports"]) for g in queue] == [("Ana", [report_id])]
        seen = client.get(f"/api/moderation/reports/{report_id}", headers=auth(mara)).json()
        assert [x["text"] for x in seen["context"]["chat"]] == \
            ["boa noite", "seu idiota, joga direito"]  # as written, for the moderator
        assert seen["replay"] == f"/replay.html?id={match_id}"
        assert seen["context"]["names"][0]["name"] == "Ana"
        assert seen["history"]["reports_received"] == {"chat": 1}
        assert seen["history"]["linked_accounts"] == []

        muted = client.post(f"/api/moderation/reports/{report_id}/action", headers=auth(mara),
                            json={"action": "mute", "days": 1, "reason": "insulto no chat"})
        assert muted.status_code == 200, muted.text
        told = until(wa, "notice")["data"]
        assert told["code"] == "sanction" and "Seu chat está suspenso até" in told["message"]
        notices = client.get("/api/me", headers=auth(ana)).json()["sanctions"]
        assert [n["kind"] for n in notices] == ["chat_mute"]
        assert "insulto no chat" in notices[0]["text"]
        say(wa, "oi")
        refused = until(wa, "error")["data"]
        assert refused["code"] == "chat_muted" and "suspenso até" in refused["message"]

        mine = client.get("/api/reports", headers=auth(bia)).json()["reports"]
        assert mine[0]["status"] == "analisada"
        log = client.get("/api/moderation/log", headers=auth(mara)).json()["log"]
        assert [(x["actor"], x["action"], x["target"], x["reason"]) for x in log] == \
            [("Mara", "mute", "Ana", "insulto no chat")]

        sanction = muted.json()["sanction"]
        lifted = client.post(f"/api/moderation/sanctions/{sanction}/lift", headers=auth(mara),
                             json={"reason": "pediu desculpas"})
        assert lifted.status_code == 200, lifted.text
        assert client.get("/api/me", headers=auth(ana)).json()["sanctions"] == []
        say(wa, "desculpa")
        assert until(wb, "chat")["data"]["text"] == "desculpa"
        log = client.get("/api/moderation/log", headers=auth(mara)).json()["log"]
        assert [x["action"] for x in log] == ["lift", "mute"]
        again = client.post(f"/api/moderation/sanctions/{sanction}/lift", headers=auth(mara),
                            json={"reason": "de novo"})
        assert again.status_code == 404


def test_the_history_names_accounts_seen_at_the_same_address(client: TestClient,
                                                             settings: Settings) -> None:
    guest(client, "Ana")
    bia, mara = guest(client, "Bia"), account(client, "Mara")
    guest(client, "Caio")
    make_moderator(settings.database, "Mara")
    engine = make_engine(settings.database)
    try:
        with engine.begin() as conn:  # as the ranked queue marks them (`storage.links`)
            ids = {n: conn.execute(sa.select(db.players.c.id).where(db.players.c.name == n))
                   .scalar() for n in ("Ana", "Caio", "Bia")}
            conn.execute(db.player_marks.insert(), [
                {"player_id": ids["Ana"], "mark": "a" * 64, "seen_at": time.time()},
                {"player_id": ids["Caio"], "mark": "a" * 64, "seen_at": time.time()},
                {"player_id": ids["Bia"], "mark": "b" * 64, "seen_at": time.time()}])
    finally:
        engine.dispose()
    report_id = report(client, bia, player="Ana", reason="trapaca").json()["id"]
    seen = client.get(f"/api/moderation/reports/{report_id}", headers=auth(mara)).json()
    assert seen["history"]["linked_accounts"] == ["Caio"]


def test_duplicates_merge_and_reporters_are_limited(client: TestClient) -> None:
    ana, bia = guest(client, "Ana"), guest(client, "Bia")
    guest(client, "Caio")
    guest(client, "Duda")
    first = report(client, bia, player="Ana", reason="nome")
    again = report(client, bia, player="ana", reason="nome", comment="de novo")
    assert first.status_code == again.status_code == 201
    assert again.json() == {"id": first.json()["id"], "status": "recebida", "merged": True}
    assert len(client.get("/api/reports", headers=auth(bia)).json()["reports"]) == 1
    assert report(client, bia, player="Ana", reason="outro").json()["merged"] is False
    assert report(client, bia, player="Caio", reason="outro").status_code == 201
    limited = report(client, bia, player="Duda", reason="outro")  # the 5th this hour
    assert limited.status_code == 429
    assert limited.json()["error"]["message"].startswith("Você já fez muitas denúncias")
    assert report(client, ana, player="Bia", reason="outro").status_code == 201  # others may


@pytest.mark.parametrize(("body", "message"), [
    ({"player": "Ana", "reason": "feio"}, "Escolha um motivo da lista."),
    ({"player": "Ninguem", "reason": "outro"}, "Jogador não encontrado."),
    ({"player": "Bia", "reason": "outro"}, "Você não pode denunciar a si mesmo."),
])
def test_bad_reports_are_refused_in_portuguese(client: TestClient, body: dict[str, str],
                                               message: str) -> None:
    guest(client, "Ana")
    bia = guest(client, "Bia")
    refused = report(client, bia, **body)
    assert refused.status_code == 422 and refused.json()["error"]["message"] == message


def test_a_report_names_a_player_of_the_match(client: TestClient) -> None:
    ana, bia = guest(client, "Ana"), guest(client, "Bia")
    guest(client, "Caio")
    match_id = friends_table(client, ana, bia)
    refused = report(client, bia, player="Caio", reason="abandono", match=match_id)
    assert refused.status_code == 422
    assert refused.json()["error"]["message"] == "Esse jogador não jogou nesta partida."


def test_moderators_act_with_a_reason_and_a_length(client: TestClient,
                                                   settings: Settings) -> None:
    ana, mara = guest(client, "Ana"), account(client, "Mara")
    bia = guest(client, "Bia")
    make_moderator(settings.database, "Mara")
    report_id = report(client, bia, player="Ana", reason="nome").json()["id"]
    url = f"/api/moderation/reports/{report_id}/action"
    no_reason = client.post(url, headers=auth(mara), json={"action": "warn", "reason": " "})
    assert no_reason.status_code == 422
    no_days = client.post(url, headers=auth(mara), json={"action": "ranked_ban",
                                                         "reason": "conluio"})
    assert no_days.status_code == 422 and "dias" in no_days.json()["error"]["message"]
    banned = client.post(url, headers=auth(mara), json={"action": "ranked_ban", "days": 3,
                                                        "reason": "conluio"})
    assert banned.status_code == 200
    refused = client.post("/api/ranked", headers=auth(ana), json={"ruleset": "mano-a-mano"})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "sanctioned"
    assert "ranqueadas até" in refused.json()["error"]["message"]


def test_a_forced_rename_and_a_closed_account(client: TestClient, settings: Settings) -> None:
    ana, bia = guest(client, "Ana"), guest(client, "Bia")
    mara = account(client, "Mara")
    make_moderator(settings.database, "Mara")
    first = report(client, bia, player="Ana", reason="nome").json()["id"]
    renamed = client.post(f"/api/moderation/reports/{first}/action", headers=auth(mara),
                          json={"action": "rename", "reason": "apelido ofensivo"})
    assert renamed.status_code == 200, renamed.text
    me = client.get("/api/me", headers=auth(ana)).json()
    assert me["player"]["name"].startswith("Jogador")
    assert me["sanctions"][0]["text"].startswith("Seu apelido foi trocado pela moderação")
    second = report(client, bia, player=me["player"]["name"], reason="outro").json()["id"]
    closed = client.post(f"/api/moderation/reports/{second}/action", headers=auth(mara),
                         json={"action": "close", "reason": "reincidente"})
    assert closed.status_code == 200
    assert client.get("/api/me", headers=auth(ana)).status_code == 401


def test_settings_and_create_app_are_wired(database: str) -> None:
    with TestClient(create_app(settings_for(database))) as client:
        assert client.get("/api/moderation/queue").status_code == 404
