"""A player's profile (`GET /api/players/{id}/profile`, `GET /api/profile?name=`): figures per
ruleset from public matches only, the ratings' course, friends in common and what the viewer may
do; nothing for closed or deleted players; the matches kept before the figures are counted in
the background."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from contextlib import ExitStack
from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from tests.support.server_app import account, guest, settings_for, wait_finished
from tests.support.wsplay import auth, connect, play

from carroca.server.app import create_app
from carroca.server.players.stats import count_stored
from carroca.server.storage import admin, db
from carroca.server.storage.store import Store

pytestmark = pytest.mark.postgres  # the profile is read from stored matches and links


@pytest.fixture
def client(database: str) -> Iterator[TestClient]:
    # Short clocks end the ranked match below by abandonment in seconds; rated all the same.
    settings = settings_for(database, turn_seconds=0.3, choice_seconds=0.3, ranked_min_moves=0,
                            ranked_min_hands=0, ranked_min_share=0, abandon_ban_minutes="")
    with TestClient(create_app(settings)) as c:
        yield c


def me(client: TestClient, token: str) -> int:
    pid: int = client.get("/api/me", headers=auth(token)).json()["player"]["id"]
    return pid


def page(client: TestClient, pid: int, token: str | None = None) -> dict[str, Any]:
    r = client.get(f"/api/players/{pid}/profile", headers=auth(token) if token else None)
    assert r.status_code == 200, r.text
    found: dict[str, Any] = r.json()
    return found


def played_against_a_bot(client: TestClient, token: str) -> str:
    """A whole friends' match of bloqueio against a greedy bot, played on the socket; its id."""
    made = client.post("/api/tables", headers=auth(token), json={
        "ruleset": "bloqueio", "options": {"target": 2}, "seats": ["me", "bot:greedy"]})
    assert made.status_code == 201, made.text
    with ExitStack() as stack:
        play(connect(stack, client, token), made.json()["id"])
    return str(made.json()["id"])


def test_figures_count_public_matches_only(client: TestClient) -> None:
    ana = guest(client, "Ana")
    bia = guest(client, "Bia")
    client.cookies.clear()
    ana_id = me(client, ana)
    match = played_against_a_bot(client, ana)
    # A friends' match is private: nothing of it, to anyone, Ana herself included.
    for viewer in (None, bia, ana):
        seen = page(client, ana_id, viewer)
        assert (seen["stats"], seen["recent"], seen["uncounted"]) == ([], [], 0)
    assert client.post(f"/api/matches/{match}/public", headers=auth(ana),
                       json={"public": True}).json()["public"] is True
    record = client.get(f"/api/matches/{match}/record", headers=auth(ana)).json()
    won = record["result"]["winner"] == 0  # Ana holds seat 0, the bot seat 1
    batidas = sum(1 for hand in record["hands"]
                  if hand["end"]["kind"] == "batida" and hand["end"]["seat"] == 0)
    seen = page(client, ana_id, bia)
    assert seen["stats"] == [{"ruleset": "bloqueio", "matches": 1, "wins": int(won),
                              "batidas": batidas, "galos": 0, "capicus": 0}]
    (recent,) = seen["recent"]
    assert (recent["id"], recent["won"], recent["seat"]) == (match, won, 0)
    assert recent["players"] == ["Ana", "bot:greedy"]
    assert (seen["name"], seen["kind"], seen["relation"]) == ("Ana", "guest", "none")
    # Since which month, no more: the 15th of the month at noon, UTC.
    since = datetime.fromtimestamp(seen["since"], UTC)
    assert (since.day, since.hour, since.minute, since.second) == (15, 12, 0, 0)
    assert abs(seen["since"] - time.time()) < 17 * 86400
    assert client.get("/api/profile", params={"name": "ana"}).json() == page(client, ana_id)


def test_ratings_course_one_point_a_ranked_match(client: TestClient) -> None:
    tokens = [account(client, "Davi"), account(client, "Edu")]
    client.cookies.clear()
    answers = [client.post("/api/ranked", headers=auth(t), json={"ruleset": "mano-a-mano"})
               .json() for t in tokens]
    info = wait_finished(client, answers[-1]["id"])
    davi = page(client, me(client, tokens[0]))
    (point,) = davi["rating_history"]["mano"]
    assert (point["match"], point["ruleset"]) == (info["id"], "mano-a-mano")
    assert point["rating"] == pytest.approx(davi["ratings"]["mano"]["rating"])
    assert set(davi["rating_history"]) == {"mano"}


def test_friends_in_common_and_what_the_viewer_may_do(client: TestClient) -> None:
    ana, bia, caio = (guest(client, n) for n in ("Ana", "Bia", "Caio"))
    client.cookies.clear()
    ana_id, bia_id = me(client, ana), me(client, bia)
    for a, b in ((ana, "Caio"), (caio, "Ana"), (bia, "Caio"), (caio, "Bia")):
        client.post("/api/friends", json={"name": b}, headers=auth(a))
    seen = page(client, ana_id, bia)
    assert [f["name"] for f in seen["common_friends"]] == ["Caio"]
    assert (seen["relation"], seen["can_challenge"]) == ("none", False)
    assert page(client, ana_id)["common_friends"] == []  # signed out: none
    assert page(client, ana_id)["relation"] is None
    assert page(client, ana_id, ana)["relation"] == "self"

    client.post("/api/friends", json={"name": "Bia"}, headers=auth(ana))
    assert page(client, ana_id, bia)["relation"] == "incoming"
    assert page(client, bia_id, ana)["relation"] == "requested"
    client.post(f"/api/friends/{ana_id}/accept", headers=auth(bia))
    assert (page(client, ana_id, bia)["relation"], page(client, ana_id, bia)["can_challenge"]) \
        == ("friends", True)

    # Bia blocks Ana: no challenge either way, and Ana sees a player like any other.
    client.post("/api/blocks", json={"player": ana_id}, headers=auth(bia))
    blocker, blocked = page(client, ana_id, bia), page(client, bia_id, ana)
    assert (blocker["relation"], blocker["can_challenge"]) == ("blocked", False)
    assert (blocked["relation"], blocked["can_challenge"]) == ("none", False)


def test_closed_and_deleted_players_have_no_page(client: TestClient, database: str) -> None:
    ana, bia = guest(client, "Ana"), guest(client, "Bia")
    client.cookies.clear()
    ana_id, bia_id = me(client, ana), me(client, bia)
    assert client.post("/api/me/delete", headers=auth(ana),
                       json={"confirm": "EXCLUIR"}).status_code == 200
    engine = db.make_engine(database)
    try:
        with engine.begin() as conn:
            admin.close(conn, "Bia", "spam")
    finally:
        engine.dispose()
    for pid, name in ((ana_id, "Ana"), (bia_id, "Bia")):
        r = client.get(f"/api/players/{pid}/profile")
        assert r.status_code == 404 and r.json()["error"]["code"] == "no_player"
        assert client.get("/api/profile", params={"name": name}).status_code == 404
    assert client.get("/api/players/999999/profile").status_code == 404


def test_matches_kept_before_the_figures_are_counted_later(client: TestClient,
                                                           database: str) -> None:
    ana = guest(client, "Ana")
    client.cookies.clear()
    ana_id = me(client, ana)
    match = played_against_a_bot(client, ana)
    client.post(f"/api/matches/{match}/public", headers=auth(ana), json={"public": True})
    counted = page(client, ana_id)["stats"]
    engine = db.make_engine(database)
    try:
        with engine.begin() as conn:  # as a row stored before the figures were kept
            conn.execute(db.participants.update().values(won=None, batidas=None, galos=None,
                                                         capicus=None))
    finally:
        engine.dispose()
    before = page(client, ana_id)
    assert (before["stats"], before["uncounted"]) == ([], 1)
    assert before["recent"][0]["won"] == counted[0]["wins"]  # the result says it meanwhile

    async def upkeep_pass() -> int:
        store = Store(database)
        try:
            return await count_stored(store)
        finally:
            store.close()

    assert asyncio.run(upkeep_pass()) == 1
    after = page(client, ana_id)
    assert (after["stats"], after["uncounted"]) == (counted, 0)
    assert asyncio.run(upkeep_pass()) == 0  # nothing left
    engine = db.make_engine(database)
    try:
        with engine.connect() as conn:
            assert conn.execute(sa.select(sa.func.count()).select_from(db.participants)
                                .where(db.participants.c.won.is_(None))).scalar() == 0
    finally:
        engine.dispose()


def test_profile_pages_read_from_one_address_are_limited(database: str) -> None:
    """A script walking the players' ids meets the limit; a person reading pages never does."""
    settings = settings_for(database, limit_profiles_ip="5/minute")
    with TestClient(create_app(settings)) as c:
        ana = guest(c, "Ana")
        c.cookies.clear()
        ana_id = me(c, ana)
        for i in range(5):  # both routes count
            read = c.get(f"/api/players/{ana_id}/profile") if i % 2 else \
                c.get("/api/profile", params={"name": "Ana"})
            assert read.status_code == 200, read.text
        refused = c.get(f"/api/players/{ana_id + 1}/profile")
        assert refused.status_code == 429, refused.text
        assert refused.json()["error"]["code"] == "rate_limited"
        assert "perfis" in refused.json()["error"]["message"]
