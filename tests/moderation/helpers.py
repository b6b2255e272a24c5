"""What the moderation tests share: moderators granted on the test database, a friends' table
with its chat, and reports made."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import sqlalchemy as sa
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from tests.support.wsplay import auth, sit

from carroca.server.storage import admin, db
from carroca.server.storage.db import make_engine


def make_moderator(database: str, name: str) -> None:
    engine = make_engine(database)
    try:
        with engine.begin() as conn:
            admin.grant(conn, name, "moderator")
    finally:
        engine.dispose()


def count(database: str, table: str) -> int:
    engine = make_engine(database)
    try:
        with engine.begin() as conn:
            return int(conn.execute(sa.text(f"SELECT count(*) FROM {table}")).scalar() or 0)
    finally:
        engine.dispose()


def player_ids(database: str) -> dict[str, int]:
    """Every player's id by name."""
    engine = make_engine(database)
    try:
        with engine.connect() as conn:
            return {str(n): int(i) for n, i in conn.execute(
                sa.select(db.players.c.name, db.players.c.id))}
    finally:
        engine.dispose()


def friends_table(client: TestClient, host: str, guest: str) -> str:
    """A friends' duplas table of two people and two bots, private (as friends' tables are)."""
    r = client.post("/api/tables", headers=auth(host),
                    json={"ruleset": "duplas-pontos",
                          "seats": ["me", "bot:greedy", "open", "bot:greedy"]})
    assert r.status_code == 201, r.text
    joined = client.post("/api/tables/join", headers=auth(guest),
                         json={"invite": r.json()["invite"]})
    assert joined.status_code == 200, joined.text
    match_id: str = r.json()["id"]
    return match_id


@contextmanager
def chatting(client: TestClient, host: str, guest: str
             ) -> Iterator[tuple[str, WebSocketTestSession, WebSocketTestSession]]:
    """Both people of a new `friends_table`, connected and seated: its id and their sockets."""
    match_id = friends_table(client, host, guest)
    with client.websocket_connect(f"/ws?token={host}") as ws_host, \
            client.websocket_connect(f"/ws?token={guest}") as ws_guest:
        sit(ws_host, match_id)
        sit(ws_guest, match_id)
        yield match_id, ws_host, ws_guest


def report(client: TestClient, token: str, **body: Any) -> Any:
    return client.post("/api/reports", headers=auth(token), json=body)
