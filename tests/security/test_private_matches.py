"""A friends' match is its players' own once it is over: not in the public list of finished
matches, and its record, replay, review and page answer 404 to anyone else, until its host makes
it public.

Before: a private friends' match appeared in `GET /api/matches` once it ended, and its record
(every hand dealt, every move) downloaded by id for anyone, signed in or not.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from fastapi.testclient import TestClient
from tests.support.server_app import guest, settings_for, wait_status
from tests.support.wsplay import auth, connect

from carroca import record
from carroca.server.app import create_app
from carroca.server.players.accounts import COOKIE
from carroca.server.storage import db
from carroca.server.tables.table import Table

# Stored state is this module's subject: `make unit-postgres` runs it again on PostgreSQL.
pytestmark = pytest.mark.postgres

GONE = {"error": {"code": "not_found", "message": "Partida não encontrada."}}
READS = ("", "/record", "/analysis")  # GET /api/matches/{id}{route}


@dataclass
class Finished:
    client: TestClient
    match_id: str
    host: str  # the tokens of the host, the friend who sat with them, and a stranger
    friend: str
    stranger: str


@pytest.fixture
def finished(database: str) -> Iterator[Finished]:
    """A friends' match of two guests, over: nobody moves (a 0.3 s clock), so it ends by
    abandonment."""
    app = create_app(settings_for(database, turn_seconds=0.3))
    with TestClient(app) as client:
        host, friend, stranger = guest(client, "Ivo"), guest(client, "Lia"), guest(client, "Eco")
        client.cookies.clear()  # each request says who asks
        made = client.post("/api/tables", headers=auth(host),
                           json={"ruleset": "bloqueio", "seats": ["me", "open"]})
        assert made.status_code == 201, made.text
        match_id = made.json()["id"]
        joined = client.post("/api/tables/join", headers=auth(friend),
                             json={"invite": made.json()["invite"]})
        assert joined.status_code == 200, joined.text
        wait_status(client, match_id, "finished", timeout=60, headers=auth(host))
        yield Finished(client, match_id, host, friend, stranger)


def get(f: Finished, route: str, token: str | None) -> Any:
    return f.client.get(f"/api/matches/{f.match_id}{route}",
                        headers=auth(token) if token else None)


def listed(f: Finished) -> bool:
    return f.match_id in [m["id"] for m in f.client.get("/api/matches").json()["finished"]]


def in_history(f: Finished, token: str | None) -> bool:
    profile = f.client.get("/api/players/Ivo", headers=auth(token) if token else None).json()
    return f.match_id in [g["id"] for g in profile["history"]]


def test_only_its_players_get_a_finished_friends_match(finished: Finished) -> None:
    f = finished
    # A stranger, signed in or not, gets what a match that does not exist gets: nothing.
    for token in (f.stranger, None):
        for route in READS:
            r = get(f, route, token)
            assert r.status_code == 404, (route, r.text)
            assert r.json() == GONE, route
            missing = f.client.get(f"/api/matches/naoexiste{route}",
                                   headers=auth(token) if token else None)
            assert missing.status_code == 404 and missing.json() == r.json(), route
        assert not in_history(f, token)
    rematch = f.client.post(f"/api/matches/{f.match_id}/rematch", headers=auth(f.stranger))
    assert rematch.status_code == 404 and rematch.json() == GONE
    assert not listed(f)

    # Its players get it all: by the Authorization header, or by the session cookie.
    rec = get(f, "/record", f.host)
    assert rec.status_code == 200, rec.text
    assert record.verify(record.loads(rec.text)).is_over  # `carroca verify` reads it as ever
    assert get(f, "/record", f.friend).text == rec.text
    assert get(f, "", f.friend).json()["status"] == "finished"
    assert get(f, "/analysis", f.friend).status_code in (200, 202)
    f.client.cookies.set(COOKIE, f.friend)
    try:
        assert f.client.get(f"/api/matches/{f.match_id}/record").text == rec.text
    finally:
        f.client.cookies.clear()
    assert in_history(f, f.host) and in_history(f, f.friend)
    info = get(f, "", f.host).json()
    assert info["public"] is False and info["host"] is True
    assert get(f, "", f.friend).json()["host"] is False


def test_a_stranger_cannot_come_back_to_its_table_by_socket(finished: Finished) -> None:
    """The finished table is kept live a while for its players (the rematch): a stranger who
    joins it by id gets the same "not found" as for a match long gone."""
    f = finished
    with ExitStack() as stack:
        stranger = connect(stack, f.client, f.stranger, "stranger")
        stranger.send("join", {"match": f.match_id})
        error = stranger.until_type("error")["data"]
        assert error["code"] == "not_found"
        assert not [fr for fr in stranger.frames if fr["type"] == "state"]
        host = connect(stack, f.client, f.host, "host")
        assert host.join(f.match_id)["status"] == "finished"


def test_the_host_makes_it_public_and_private_again(finished: Finished) -> None:
    f = finished
    url = f"/api/matches/{f.match_id}/public"
    # Only its host decides; a stranger does not even learn that it exists.
    assert f.client.post(url, json={"public": True}).status_code == 401
    stranger = f.client.post(url, headers=auth(f.stranger), json={"public": True})
    assert stranger.status_code == 404 and stranger.json() == GONE
    friend = f.client.post(url, headers=auth(f.friend), json={"public": True})
    assert friend.status_code == 403 and friend.json()["error"]["code"] == "not_host"
    assert "criou a mesa" in friend.json()["error"]["message"]
    for bad in ({}, {"public": "talvez"}, {"public": True, "todos": True}):
        r = f.client.post(url, headers=auth(f.host), json=bad)
        assert r.status_code == 422 and r.json()["error"]["code"] == "bad_request", bad
    # The cross-site guard: a page of another site cannot publish a player's match.
    foreign = f.client.post(url, headers={**auth(f.host), "Origin": "https://evil.example"},
                            json={"public": True})
    assert foreign.status_code == 403 and foreign.json()["error"]["code"] == "cross_site"
    assert get(f, "/record", f.stranger).status_code == 404

    done = f.client.post(url, headers={**auth(f.host), "Origin": "http://testserver",
                                       "Sec-Fetch-Site": "same-origin"}, json={"public": True})
    assert done.status_code == 200, done.text
    assert done.json() == {"id": f.match_id, "public": True}
    # Now it is like any other match: for anyone, and in the public lists.
    for token in (f.stranger, None):
        assert get(f, "/record", token).text == get(f, "/record", f.host).text
        assert get(f, "", token).json()["public"] is True
        assert in_history(f, token)
    assert listed(f)

    back = f.client.post(url, headers=auth(f.host), json={"public": False})
    assert back.status_code == 200 and back.json()["public"] is False
    assert get(f, "/record", f.stranger).json() == GONE
    assert not listed(f) and not in_history(f, None)


def test_other_matches_stay_public(database: str) -> None:
    """Casual, ranked and bots-only matches are public as before; they cannot be made private."""
    app = create_app(settings_for(database))
    with TestClient(app) as client:
        owner = guest(client, "Ana")
        made = client.post("/api/matches", headers=auth(owner),
                           json={"ruleset": "bloqueio", "seats": ["bot:random", "bot:greedy"]})
        assert made.status_code == 201, made.text
        match_id = made.json()["id"]
        wait_status(client, match_id, "finished")
        client.cookies.clear()
        assert client.get(f"/api/matches/{match_id}/record").status_code == 200
        assert client.get(f"/api/matches/{match_id}").json()["public"] is True
        assert match_id in [m["id"] for m in client.get("/api/matches").json()["finished"]]
        r = client.post(f"/api/matches/{match_id}/public", headers=auth(owner),
                        json={"public": False})
        assert r.status_code == 409 and r.json()["error"]["code"] == "always_public"
        assert client.get(f"/api/matches/{match_id}/record").status_code == 200


def alembic_config(url: str) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(db.__file__).parent / "migrations"))
    cfg.set_main_option("sqlalchemy.url", db.normalize_url(url).replace("%", "%%"))
    return cfg


def test_the_migration_makes_stored_friends_matches_private_and_loses_nothing(
    database: str,
) -> None:
    """Migration 0009 on a database of the version before it: the friends' matches already
    stored become private, the others stay public, every record stays as it was; and back."""
    cfg = alembic_config(database)
    command.downgrade(cfg, "0008")
    rows = []
    for mode in ("friends", "casual", "ranked", "bots"):
        row = Table.new_row(mode=mode, ruleset="bloqueio", options={}, seats=[None, None],
                            turn_seconds=20.0, bot_level="greedy")
        del row["private"]  # not a column yet
        rows.append({**row, "status": "finished", "record": f'{{"of": "{mode}"}}\n'})
    engine = db.make_engine(database)
    try:
        with engine.begin() as conn:  # the columns the rows name: those of 0008
            conn.execute(db.matches.insert(), rows)
        command.upgrade(cfg, "head")
        with engine.connect() as conn:
            after = {r[0]: (r[1], r[2]) for r in conn.execute(
                sa.text("SELECT mode, private, record FROM matches"))}
        assert {mode: (bool(p), rec) for mode, (p, rec) in after.items()} == {
            r["mode"]: (r["mode"] == "friends", r["record"]) for r in rows}
        command.downgrade(cfg, "0008")
        with engine.connect() as conn:
            kept = dict(conn.execute(sa.text("SELECT mode, record FROM matches")).all())
        assert kept == {r["mode"]: r["record"] for r in rows}
        command.upgrade(cfg, "head")
    finally:
        engine.dispose()
