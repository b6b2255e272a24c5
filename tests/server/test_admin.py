"""`carroca admin` on the database a running server uses: players found, moderators added,
listed and removed, an account closed (its sign-in refused in pt-BR, its session and socket
ended within seconds) and reopened, a stuck table listed and ended, the live counts."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from tests.support.server_app import account, guest, settings_for
from tests.support.wsplay import auth, recv, send
from typer.testing import CliRunner

from carroca.cli import app as cli_app
from carroca.server.settings import Settings

# Stored state is this module's subject: `make unit-postgres` runs it again on PostgreSQL.
pytestmark = pytest.mark.postgres


@pytest.fixture
def settings(database: str) -> Settings:
    return settings_for(database, operator_poll_seconds=0.2)  # the node reads admin's soon


def admin(settings: Settings, *args: str) -> Any:
    result = CliRunner().invoke(cli_app, ["admin", *args, "--database", settings.database])
    return result


def test_moderators_are_added_listed_and_removed(client: TestClient, settings: Settings
                                                 ) -> None:
    account(client, "Mara")
    assert admin(settings, "moderator", "add", "mara").output.strip() == "mara: now a moderator"
    assert "a moderator already" in admin(settings, "moderator", "add", "MARA").output
    listed = admin(settings, "moderator", "list")
    assert listed.exit_code == 0 and "Mara" in listed.output and "moderator" in listed.output
    assert "no longer a moderator" in admin(settings, "moderator", "remove", "Mara").output
    assert "Mara" not in admin(settings, "moderator", "list").output
    unknown = admin(settings, "moderator", "add", "Ninguem")
    assert unknown.exit_code == 1 and "no player named" in unknown.output
    found = admin(settings, "players", "ar")
    assert "Mara" in found.output and "account" in found.output


def test_a_closed_account_is_out_within_seconds_and_comes_back_when_reopened(
        client: TestClient, settings: Settings) -> None:
    token = account(client, "Tito", "senha-do-tito")
    with client.websocket_connect(f"/ws?token={token}") as ws:
        assert ws.receive_json()["type"] == "hello"
        closed = admin(settings, "close", "Tito", "--reason", "ofensas no chat")
        assert closed.exit_code == 0 and "closed (1 sessions ended)" in closed.output
        with pytest.raises(WebSocketDisconnect) as ended:  # the node notices, closes it
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                ws.receive_json()
        assert ended.value.code == 4401
    assert client.get("/api/me", headers={"Authorization": f"Bearer {token}"}).status_code == 401
    refused = client.post("/api/login", json={"name": "Tito", "password": "senha-do-tito"})
    assert refused.status_code == 403
    assert refused.json()["error"] == {
        "code": "account_closed",
        "message": "Esta conta foi encerrada pela administração do carroca."}
    wrong = client.post("/api/login", json={"name": "Tito", "password": "outra-senha"})
    assert wrong.status_code == 401  # a wrong password learns nothing of the closing
    status = json.loads(admin(settings, "status", "--json").output)
    assert status["players"]["closed"] == 1

    assert "reopened" in admin(settings, "reopen", "Tito").output
    again = client.post("/api/login", json={"name": "Tito", "password": "senha-do-tito"})
    assert again.status_code == 200
    assert json.loads(admin(settings, "status", "--json").output)["players"]["closed"] == 0


def test_closing_needs_a_reason(client: TestClient, settings: Settings) -> None:
    account(client, "Rui")
    bare = admin(settings, "close", "Rui", "--reason", "  ")
    assert bare.exit_code == 1 and "--reason" in bare.output


def frames_until(ws: Any, kind: str, seconds: float = 10) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        frame: dict[str, Any] = ws.receive_json()
        if frame["type"] == kind:
            return frame["data"]  # type: ignore[no-any-return]
    raise AssertionError(f"no {kind} frame in {seconds} s")


def test_an_announcement_reaches_open_sockets_and_new_ones_then_comes_down(
        client: TestClient, settings: Settings) -> None:
    token = account(client, "Leda")
    with client.websocket_connect(f"/ws?token={token}") as ws:
        assert ws.receive_json()["type"] == "hello"
        up = admin(settings, "announce", "Manutenção hoje às 23h: as mesas voltam em 5 minutos.",
                   "--hours", "2")
        assert up.exit_code == 0 and "up for 2 h" in up.output
        shown = frames_until(ws, "announcement")
        assert shown["text"] == "Manutenção hoje às 23h: as mesas voltam em 5 minutos."
        with client.websocket_connect(f"/ws?token={token}") as late:  # opened after it went up
            assert late.receive_json()["type"] == "hello"
            assert late.receive_json() == {"type": "announcement", "data": shown}
        assert "taken down" in admin(settings, "announce", "--clear").output
        assert frames_until(ws, "announcement") == {"id": None, "text": None}
    too_long = admin(settings, "announce", "x" * 281)
    assert too_long.exit_code == 1 and "280 characters" in too_long.output
    assert admin(settings, "announce").exit_code == 1  # nothing to say


def test_a_stuck_table_is_ended_unfinished_and_its_players_told_why(
        client: TestClient, settings: Settings) -> None:
    token = guest(client, "Nina")
    made = client.post("/api/tables", headers=auth(token), json={
        "ruleset": "duplas-pontos", "seats": ["me", "bot:greedy", "bot:greedy", "bot:greedy"]})
    assert made.status_code == 201, made.text
    match_id = made.json()["id"]
    with client.websocket_connect(f"/ws?token={token}") as ws:
        assert recv(ws)["type"] == "hello"
        send(ws, "join", {"match": match_id})
        while True:  # one move of ours, stored, then the table sits on our turn
            state = frames_until(ws, "state")
            if state["status"] == "playing" and state["view"]["turn"] == 0 \
                    and state["view"]["legal"]:
                send(ws, "move", {"id": 0, "action": state["view"]["legal"][0]})
                assert frames_until(ws, "ack")["id"] == 0
                break
        listed = admin(settings, "tables")
        assert listed.exit_code == 0 and match_id in listed.output and "Nina" in listed.output
        assert match_id not in admin(settings, "tables", "--stale", "3600").output

        ended = admin(settings, "end", match_id, "--reason", "mesa travada, desculpe")
        assert ended.exit_code == 0 and f"{match_id}: ended (it was playing)" in ended.output
        while True:  # the node notices within seconds and tells the table's sockets
            state = frames_until(ws, "state")
            if state["status"] == "expired":
                break
        assert state["ended"] == "mesa travada, desculpe"
        send(ws, "move", {"id": 1, "action": "pass"})
        refused = frames_until(ws, "error")
        assert refused["id"] == 1  # nothing runs there any more

    info = client.get(f"/api/matches/{match_id}").json()
    assert info["status"] == "expired" and info["result"] is None
    assert "server_seed" not in info
    assert match_id not in admin(settings, "tables").output
    again = admin(settings, "end", match_id, "--reason", "de novo")
    assert again.exit_code == 1 and "expired already" in again.output
    unknown = admin(settings, "end", "nada", "--reason", "x")
    assert unknown.exit_code == 1 and "no table 'nada'" in unknown.output
    bare = admin(settings, "end", match_id, "--reason", " ")
    assert bare.exit_code == 1 and "--reason" in bare.output
