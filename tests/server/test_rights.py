"""Players' data rights (LGPD): their data as JSON, a new password, their sessions listed and
ended, and their account deleted with the matches others played kept under a pseudonym (every
record still passes `carroca verify`, and the name is nowhere in the database)."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from tests.moderation.helpers import make_moderator, player_ids, report
from tests.support.fairplay import insert_ranked, stored_matches
from tests.support.server_app import account, guest, settings_for, wait_finished
from tests.support.wsplay import auth

from carroca.server.app import create_app
from carroca.server.moderation.agreement import tally
from carroca.server.storage import db
from carroca.server.storage.db import make_engine, metadata

pytestmark = pytest.mark.postgres

NAME = "Zuleica"  # a name found nowhere else, to look for in the database


@pytest.fixture
def fast(database: str) -> Iterator[TestClient]:
    """Nobody moves and the clock is short: matches end by abandonment in seconds, rated, and
    abandoning bans nobody from the queue (the ladder: tests/moderation)."""
    settings = settings_for(database, turn_seconds=0.3, choice_seconds=0.3, ranked_min_moves=0,
                            ranked_min_hands=0, ranked_min_share=0, abandon_ban_minutes="")
    with TestClient(create_app(settings)) as client:
        yield client


def ranked_match(client: TestClient, tokens: list[str]) -> dict[str, Any]:
    answers = [client.post("/api/ranked", headers=auth(t), json={"ruleset": "bloqueio"}).json()
               for t in tokens]
    assert answers[-1]["status"] == "matched"
    return wait_finished(client, answers[-1]["id"])


def login(client: TestClient, name: str, password: str) -> Any:
    return client.post("/api/login", json={"name": name, "password": password})


def verified(tmp_path: Path, records: list[str]) -> None:
    """`carroca verify` accepts every record (one a line)."""
    path = tmp_path / "records.jsonl"
    path.write_text("".join(r.strip() + "\n" for r in records))
    done = subprocess.run([sys.executable, "-m", "carroca", "verify", str(path)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


def database_text(database: str) -> str:
    """Every value of every table, as text."""
    engine = make_engine(database)
    try:
        with engine.connect() as conn:
            return "\n".join(repr(tuple(row)) for table in metadata.sorted_tables
                             for row in conn.execute(sa.select(table)))
    finally:
        engine.dispose()


def said_and_reported(database: str, match_id: str) -> None:
    """A chat line of hers kept at a match, and Bia's report whose context names her (as the
    moderation service writes them)."""
    engine = make_engine(database)
    try:
        with engine.begin() as conn:
            ids = dict(conn.execute(sa.select(db.players.c.name, db.players.c.id)).all())
            now = time.time()
            conn.execute(db.chat_lines.insert().values(
                match_id=match_id, seat=0, player_id=ids[NAME], name=NAME, text="boa, parceira",
                shown="boa, parceira", at=now))
            conn.execute(db.reports.insert().values(
                reporter_id=ids["Bia"], reported_id=ids[NAME], reason="outro", comment=None,
                match_id=match_id, status="recebida", count=1, created_at=now, updated_at=now,
                context={"names": [NAME, "Bia"],
                         "chat": [{"name": NAME, "text": "boa, parceira", "at": now}]}))
    finally:
        engine.dispose()


@pytest.mark.slow
def test_export_sessions_password_and_deletion(fast: TestClient, database: str,
                                               tmp_path: Path) -> None:
    mine, other = account(fast, NAME), account(fast, "Bia")
    played = [ranked_match(fast, [mine, other]) for _ in range(2)]
    said_and_reported(database, played[0]["id"])

    data = fast.get("/api/me/data", headers=auth(mine))
    assert data.status_code == 200 and "attachment" in data.headers["content-disposition"]
    got = data.json()
    assert got["profile"]["name"] == NAME and got["profile"]["kind"] == "account"
    assert "$argon2" not in data.text  # the password's hash is not handed out
    assert got["ratings"][0]["family"] == "mano" and got["ratings"][0]["games"] == 2
    assert [m["id"] for m in got["matches"]] == [m["id"] for m in played]
    assert all(NAME in m["players"] and "Bia" in m["players"] for m in got["matches"])
    assert [s["current"] for s in got["sessions"]] == [True]
    assert [line["text"] for line in got["chat_lines"]] == ["boa, parceira"]
    assert got["friends"] == got["reports_made"] == got["sanctions"] == []
    fast.cookies.clear()  # the last sign-up's cookie
    assert fast.get("/api/me/data").status_code == 401

    # Sessions: a second sign-in, seen from the first and ended from it.
    second = login(fast, NAME, "senha-secreta").json()["token"]
    listed = fast.get("/api/me/sessions", headers=auth(mine)).json()["sessions"]
    assert len(listed) == 2 and sorted(s["current"] for s in listed) == [False, True]
    elsewhere = next(s["id"] for s in listed if not s["current"])
    assert fast.delete(f"/api/me/sessions/{elsewhere}", headers=auth(mine)).status_code == 200
    assert fast.get("/api/me", headers=auth(second)).status_code == 401
    gone = fast.delete(f"/api/me/sessions/{elsewhere}", headers=auth(mine))
    assert gone.status_code == 404 and gone.json()["error"]["code"] == "no_session"
    # Bia cannot end Zuleica's session
    assert fast.delete(f"/api/me/sessions/{listed[0]['id']}",
                       headers=auth(other)).status_code == 404
    assert fast.get("/api/me", headers=auth(mine)).status_code == 200

    # Password: the current one proven; the others' sessions end, this one stays.
    third = login(fast, NAME, "senha-secreta").json()["token"]
    wrong = fast.post("/api/me/password", headers=auth(mine),
                      json={"current": "errada-demais", "new": "nova-senha-longa"})
    assert wrong.status_code == 403 and wrong.json()["error"]["code"] == "wrong_password"
    short = fast.post("/api/me/password", headers=auth(mine),
                      json={"current": "senha-secreta", "new": "curta"})
    assert short.status_code == 422 and short.json()["error"]["code"] == "weak_password"
    ok = fast.post("/api/me/password", headers=auth(mine),
                   json={"current": "senha-secreta", "new": "nova-senha-longa"})
    assert ok.status_code == 200 and ok.json()["sessions_ended"] == 1
    assert fast.get("/api/me", headers=auth(third)).status_code == 401
    assert fast.get("/api/me", headers=auth(mine)).status_code == 200
    assert login(fast, NAME, "senha-secreta").status_code == 401
    assert login(fast, NAME, "nova-senha-longa").status_code == 200

    # Deletion: typed confirmation and the password; then nothing of hers is left.
    forged = fast.post("/api/me/delete", headers={**auth(mine), "Sec-Fetch-Site": "cross-site"},
                       json={"confirm": "EXCLUIR", "password": "nova-senha-longa"})
    assert forged.status_code == 403 and forged.json()["error"]["code"] == "cross_site"
    refused = fast.post("/api/me/delete", headers=auth(mine), json={"confirm": "sim"})
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "not_confirmed"
    refused = fast.post("/api/me/delete", headers=auth(mine),
                        json={"confirm": "EXCLUIR", "password": "senha-secreta"})
    assert refused.status_code == 403
    assert fast.get("/api/me", headers=auth(mine)).status_code == 200  # nothing changed
    deleted = fast.post("/api/me/delete", headers=auth(mine),
                        json={"confirm": "EXCLUIR", "password": "nova-senha-longa"})
    assert deleted.status_code == 200, deleted.text
    assert fast.get("/api/me", headers=auth(mine)).status_code == 401
    assert login(fast, NAME, "nova-senha-longa").status_code == 401
    assert fast.get(f"/api/players/{NAME}").status_code == 404
    records = []
    for match in played:
        record = fast.get(f"/api/matches/{match['id']}/record")
        assert record.status_code == 200 and NAME not in record.text and "Bia" in record.text
        records.append(record.text)
        assert NAME not in fast.get(f"/api/matches/{match['id']}").text
    verified(tmp_path, records)
    bia = fast.get("/api/players/Bia").json()
    assert bia["ratings"]["mano"]["games"] == 2 and len(bia["history"]) == 2
    assert NAME not in database_text(database)


def test_the_export_carries_moderation_and_fair_play(database: str) -> None:
    """The reports she made, the sanctions she received (a moderator's warning, the ladder's
    queue ban), where she stands on the ladder and her ranked decisions counted for fair play:
    all in her export; deleting the account deletes the ladder and the counts."""
    with TestClient(create_app(settings_for(database))) as client:
        mine, mara, bia = account(client, NAME), account(client, "Mara"), guest(client, "Bia")
        make_moderator(database, "Mara")
        ids = {n: int(i) for n, i in player_ids(database).items()}
        made = report(client, mine, player="Bia", reason="outro", comment="some da mesa")
        assert made.status_code == 201, made.text
        against = report(client, bia, player=NAME, reason="chat").json()["id"]
        acted = client.post(f"/api/moderation/reports/{against}/action", headers=auth(mara),
                            json={"action": "warn", "reason": "seja gentil"})
        assert acted.status_code == 200, acted.text
        moderation = client.app.state.moderation  # type: ignore[attr-defined]
        client.portal.call(moderation.count_match, ids[NAME], True, "m")
        kept = stored_matches()[0]
        engine = make_engine(database)
        try:
            with engine.begin() as conn:
                insert_ranked(conn, "fp0", [(ids[NAME], NAME), (ids["Bia"], "Bia")],
                              kept.record, kept.analysis)
        finally:
            engine.dispose()
        fairplay = client.app.state.fairplay  # type: ignore[attr-defined]
        client.portal.call(fairplay.ended, "fp0")
        assert client.portal.call(fairplay.step) == 1
        counted = tally(kept.analysis, {0: ids[NAME], 1: ids["Bia"]})[ids[NAME]]

        got = client.get("/api/me/data", headers=auth(mine)).json()
        assert [{k: v for k, v in r.items() if k != "created_at"} for r in got["reports_made"]] \
            == [{"id": made.json()["id"], "reason": "outro", "comment": "some da mesa",
                 "match": None, "status": "recebida"}]
        assert [(s["kind"], s["reason"], s["lifted_at"]) for s in got["sanctions"]] == [
            ("warn", "seja gentil", None),
            ("queue_ban", "abandono de partida (1º seguido sem partidas limpas entre eles)",
             None)]
        assert all(s["until"] > s["created_at"] for s in got["sanctions"])
        assert {k: v for k, v in got["abandon_ladder"].items() if k != "updated_at"} == \
            {"step": 1, "clean": 0, "abandons": 1}
        assert got["fair_play"] == [{"ruleset": "bloqueio", "matches": 1,
                                     "decisions": counted[0], "agreed": counted[1]}]
        assert counted[0] > 0
        theirs = client.get("/api/me/data", headers=auth(bia)).json()
        assert [(r["reason"], r["status"]) for r in theirs["reports_made"]] == \
            [("chat", "analisada")]
        assert theirs["abandon_ladder"] is None and theirs["sanctions"] == []

        deleted = client.post("/api/me/delete", headers=auth(mine),
                              json={"confirm": "EXCLUIR", "password": "senha-secreta"})
        assert deleted.status_code == 200, deleted.text
        engine = make_engine(database)
        try:
            with engine.begin() as conn:
                t = db.fairplay_tallies.c
                left = dict(conn.execute(sa.select(t.player_id, t.decisions)).all())
                ladders = conn.execute(sa.select(db.abandon_ladder.c.player_id)).all()
        finally:
            engine.dispose()
        assert ids[NAME] not in left and ids["Bia"] in left and ladders == []
