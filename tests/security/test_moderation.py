"""Moderation is for moderators: everyone else finds no route and no page (404, as for an
address that does not exist); a moderator cannot act on another moderator (only the operator
can); a moderator's action cannot be forged by another site's page; a report cannot be used to
read, or learn of, a private match its reporter did not play."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from tests.moderation.helpers import friends_table, make_moderator, report
from tests.support.server_app import account, guest
from tests.support.wsplay import auth

from carroca.server.settings import Settings
from carroca.server.storage import db
from carroca.server.storage.db import make_engine

pytestmark = pytest.mark.postgres

ROUTES = [
    ("GET", "/api/moderation/queue", None),
    ("GET", "/api/moderation/reports/1", None),
    ("GET", "/api/moderation/log", None),
    ("POST", "/api/moderation/reports/1/action", {"action": "warn", "reason": "x"}),
    ("POST", "/api/moderation/sanctions/1/lift", {"reason": "x"}),
]


def test_only_moderators_reach_the_moderation_routes_and_page(client: TestClient,
                                                              settings: Settings) -> None:
    ana, bia = guest(client, "Ana"), account(client, "Bia")
    mara = account(client, "Mara")
    make_moderator(settings.database, "Mara")
    report(client, ana, player="Bia", reason="outro")
    for who in ({}, auth(ana), auth(bia)):
        client.cookies.clear()
        for method, path, body in ROUTES:
            answer = client.request(method, path, headers=who, json=body)
            assert answer.status_code == 404, (method, path, who)
            assert answer.json()["error"]["code"] == "not_found"
        page = client.get("/moderacao.html", headers={**who, "Accept": "text/html"})
        assert page.status_code == 404 and "Moderação" not in page.text
    assert client.get("/api/moderation/queue", headers=auth(mara)).status_code == 200
    page = client.get("/moderacao.html", headers={**auth(mara), "Accept": "text/html"})
    assert page.status_code == 200 and "Moderação" in page.text


def test_a_moderator_cannot_act_on_a_moderator(client: TestClient, settings: Settings) -> None:
    mara, rui = account(client, "Mara"), account(client, "Rui")
    ana = guest(client, "Ana")
    make_moderator(settings.database, "Mara")
    make_moderator(settings.database, "Rui")
    on_rui = report(client, ana, player="Rui", reason="outro").json()["id"]
    on_mara = report(client, ana, player="Mara", reason="outro").json()["id"]
    for who, report_id in ((mara, on_rui), (mara, on_mara)):
        refused = client.post(f"/api/moderation/reports/{report_id}/action",
                              headers=auth(who), json={"action": "mute", "days": 1,
                                                       "reason": "briga"})
        assert refused.status_code == 403
        assert refused.json()["error"]["message"] == \
            "Só a administração pode agir sobre um moderador."
    assert client.get("/api/moderation/log", headers=auth(rui)).json()["log"] == []
    assert client.get("/api/me", headers=auth(rui)).json()["sanctions"] == []


def test_a_moderators_action_cannot_be_forged_cross_site(client: TestClient,
                                                         settings: Settings) -> None:
    ana, bia = guest(client, "Ana"), guest(client, "Bia")
    account(client, "Mara")  # the client's cookie is the moderator's
    make_moderator(settings.database, "Mara")
    report_id = report(client, bia, player="Ana", reason="chat").json()["id"]
    for headers in ({"Origin": "https://evil.example"}, {"Sec-Fetch-Site": "cross-site"},
                    {"Origin": "http://testserver:9000"}):
        forged = client.post(f"/api/moderation/reports/{report_id}/action", headers=headers,
                             json={"action": "close", "reason": "forjado"})
        assert forged.status_code == 403 and forged.json()["error"]["code"] == "cross_site"
    assert client.get("/api/moderation/log").json()["log"] == []
    assert client.get("/api/me", headers=auth(ana)).status_code == 200  # not closed


def test_reports_cannot_read_or_reveal_others_private_matches(client: TestClient,
                                                              settings: Settings) -> None:
    ana, bia = guest(client, "Ana"), guest(client, "Bia")
    caio = guest(client, "Caio")
    match_id = friends_table(client, ana, bia)
    engine = make_engine(settings.database)
    try:
        with engine.begin() as conn:  # over, and still its players' only
            conn.execute(db.matches.update().where(db.matches.c.id == match_id)
                         .values(status="finished"))
            assert conn.execute(sa.select(db.matches.c.private)
                                .where(db.matches.c.id == match_id)).scalar()
    finally:
        engine.dispose()
    private = report(client, caio, player="Ana", reason="chat", match=match_id)
    missing = report(client, caio, player="Ana", reason="chat", match="naoexiste")
    assert private.status_code == missing.status_code == 404
    assert private.json() == missing.json()  # the same answer: its existence is not told
    made = report(client, bia, player="Ana", reason="chat", match=match_id)
    assert made.status_code == 201  # its player may
    assert client.get(f"/api/moderation/reports/{made.json()['id']}",
                      headers=auth(bia)).status_code == 404  # and reads no context back
    mine = client.get("/api/reports", headers=auth(bia)).json()["reports"]
    assert set(mine[0]) == {"id", "reported", "reason", "reason_text", "status", "match",
                            "match_id", "created_at", "updated_at"}
