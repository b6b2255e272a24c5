"""The turn clock (rules.md §5): a timed-out player is played for by the default bot, the third
timeout in a row is abandonment, a move in time resets the count, and the cinco-carroças window
defaults to points."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.support.server_app import guest, settings_for, wait_finished
from tests.support.wsplay import auth, recv, send

from carroca import fair, record
from carroca.rules import tiles
from carroca.server.app import create_app


def seat_actions(rec: dict[str, Any], seat: int) -> list[dict[str, Any]]:
    return [a for hand in rec["hands"] for a in hand["actions"] if a["seat"] == seat]


def human_with_bots(client: TestClient, token: str) -> str:
    r = client.post("/api/tables", headers=auth(token), json={
        "ruleset": "duplas-pontos", "seats": ["me", "bot:greedy", "bot:greedy", "bot:greedy"],
    })
    assert r.status_code == 201, r.text
    match_id: str = r.json()["id"]
    return match_id


def test_a_silent_player_is_auto_played_then_abandons(database: str) -> None:
    with TestClient(create_app(settings_for(database, turn_seconds=0.3))) as client:
        match_id = human_with_bots(client, guest(client, "Ana"))
        info = wait_finished(client, match_id)
        rec = record.loads(client.get(f"/api/matches/{match_id}/record").text)
    assert info["result"]["reason"] == "abandon" and info["result"]["winner"] == 1
    assert rec["result"]["reason"] == "abandon" and rec["result"]["winner"] == 1
    mine = seat_actions(rec, 0)
    assert len(mine) == 2 and all(a.get("auto") is True for a in mine)
    assert not any(a.get("auto") for s in (1, 2, 3) for a in seat_actions(rec, s))
    assert rec["hands"][-1]["end"] == {"kind": "abandon", "seat": 0}
    match = record.verify(rec)
    assert match.is_over and match.result is not None and match.result.reason == "abandon"


@pytest.mark.slow
def test_a_move_in_time_resets_the_count(database: str) -> None:
    # Long enough that the one answer the test gives is never late, even on a busy machine.
    with TestClient(create_app(settings_for(database, turn_seconds=1.0))) as client:
        token = guest(client, "Bia")
        match_id = human_with_bots(client, token)
        turns: list[int] = []  # versions at which it was this seat's turn
        with client.websocket_connect(f"/ws?token={token}") as ws:
            assert recv(ws)["type"] == "hello"
            send(ws, "join", {"match": match_id})
            while True:
                frame = recv(ws)
                assert frame["type"] != "error", frame
                if frame["type"] != "state":
                    continue
                state = frame["data"]
                if state["status"] == "finished":
                    break
                view = state["view"]
                if view and view["turn"] == 0 and view["legal"] and \
                        state["version"] not in turns:
                    turns.append(state["version"])
                    if len(turns) == 3:  # two timeouts, then an answer in time
                        send(ws, "move", {"id": 1, "action": view["legal"][0]})
        rec = record.loads(client.get(f"/api/matches/{match_id}/record").text)
    autos = [a.get("auto", False) for a in seat_actions(rec, 0)]
    assert autos == [True, True, False, True, True]
    assert rec["result"]["reason"] == "abandon" and rec["result"]["winner"] == 1
    assert rec["hands"][-1]["end"] == {"kind": "abandon", "seat": 0}
    record.verify(rec)


def test_state_frames_carry_the_clock_of_the_seat_to_move(client: TestClient) -> None:
    token = guest(client, "Caio")
    match_id = human_with_bots(client, token)
    seen: list[dict[str, Any]] = []
    with client.websocket_connect(f"/ws?token={token}") as ws:
        assert recv(ws)["type"] == "hello"
        send(ws, "join", {"match": match_id})
        move_id = 0
        while move_id < 3:
            frame = recv(ws)
            if frame["type"] != "state" or frame["data"]["status"] != "playing":
                continue
            state = frame["data"]
            seen.append(state)
            view = state["view"]
            if view["turn"] == 0 and view["legal"]:
                send(ws, "move", {"id": move_id, "action": view["legal"][0]})
                move_id += 1
    for state in seen:
        turn, clock = state["view"]["turn"], state["clock"]
        if turn == 0:  # the human's turn: their clock, 20 s at most (15 s for a cinco-carroças
            # choice, which about one deal in 260 gives seat 0)
            assert clock is not None and clock["seat"] == 0, state
            seconds = 15.0 if state["view"]["phase"] == "choice" else 20.0
            assert clock["seconds"] == seconds, state
            assert 0 < clock["remaining_ms"] <= seconds * 1000
        else:  # bots have no clock
            assert clock is None, state


def five_doubles_seed(server_seed: str, others: str) -> tuple[str, int]:
    """A seed for seat 0 under which some seat is dealt five doubles or more in deal 0."""
    for i in range(100_000):
        seed = f"s{i}"
        order = fair.shuffle(server_seed, f"{seed}:{others}", 0)
        for seat in range(4):
            if sum(tiles.IS_DOUBLE[t] for t in order[7 * seat: 7 * seat + 7]) >= 5:
                return seed, seat
    raise AssertionError("no five-doubles deal found")


def test_the_cinco_carrocas_window_defaults_to_points(database: str) -> None:
    # Every seat is human so that every client seed is known before the deal, and the
    # turn clock is long: only the 0.3 s choice window can run out during the test.
    settings = settings_for(database, turn_seconds=60.0, choice_seconds=0.3)
    with TestClient(create_app(settings)) as client:
        host = guest(client, "Duda")
        others = [guest(client, name) for name in ("Edu", "Fabi", "Gil")]
        r = client.post("/api/tables", headers=auth(host), json={
            "ruleset": "duplas-pontos", "seats": ["me", "open", "open", "open"],
        })
        created = r.json()
        table = client.app.state.tables.get(created["id"])  # type: ignore[attr-defined]
        server_seed = table.server_seed
        assert fair.commitment(server_seed) == created["commitment"]
        seed, chooser = five_doubles_seed(server_seed, "b:c:d")
        with client.websocket_connect(f"/ws?token={host}") as ws:
            assert recv(ws)["type"] == "hello"
            send(ws, "join", {"match": created["id"], "client_seed": seed})
            assert recv(ws)["data"]["client_seeds"][0] == seed
            for token, own in zip(others, "bcd", strict=True):
                joined = client.post("/api/tables/join", headers=auth(token),
                                     json={"invite": created["invite"], "client_seed": own})
                assert joined.status_code == 200, joined.text
            choice = after = None
            while after is None:
                frame = recv(ws)
                if frame["type"] != "state" or frame["data"]["view"] is None:
                    continue
                view = frame["data"]["view"]
                if view["phase"] == "choice":
                    choice = frame["data"]
                elif view["phase"] == "play":
                    after = frame["data"]
        assert choice is not None and choice["client_seed"] == f"{seed}:b:c:d"
        assert choice["view"]["turn"] == chooser
        if chooser == 0:
            assert choice["view"]["legal"] == ["five-doubles:points", "five-doubles:redeal"]
        dealt = fair.shuffle(server_seed, f"{seed}:b:c:d", 0)[7 * chooser: 7 * chooser + 7]
        doubles = sum(tiles.IS_DOUBLE[t] for t in dealt)
        view = after["view"]
        assert view["steps"][0] == {"seat": chooser, "type": "five-doubles", "choice": "points",
                                    "auto": True}
        expected = [0, 0]
        expected[chooser % 2] = 10 * doubles
        assert view["score"] == expected
        assert view["deal_index"] == 0  # points, not a re-deal


def test_a_move_after_the_timeout_drops_the_bots_job(database: str,
                                                      monkeypatch: Any) -> None:
    """The clock ran out and the autoplay bot's job waits for a worker; the player moves before
    the bot's answer: the move stands, and the job leaves the queue at once (it would hold a
    worker for nothing until its deadline)."""
    with TestClient(create_app(settings_for(database, turn_seconds=0.3))) as client:
        bots = client.app.state.hub.bots  # type: ignore[attr-defined]
        monkeypatch.setattr(bots.backend, "idle", lambda: 0)  # no worker free: jobs wait
        token = guest(client, "Caio")
        match_id = human_with_bots(client, token)
        with client.websocket_connect(f"/ws?token={token}") as ws:
            assert recv(ws)["type"] == "hello"
            send(ws, "join", {"match": match_id})
            move_id = 0
            while True:  # a turn with a choice (a forced move is played without a job)
                frame = recv(ws)
                if frame["type"] != "state":
                    continue
                state, view = frame["data"], frame["data"]["view"]
                if view and view["turn"] == 0 and len(view["legal"]) == 1:
                    move_id += 1  # answered in time: no timeout counts against the seat
                    send(ws, "move", {"id": move_id, "action": view["legal"][0],
                                      "version": state["version"]})
                elif view and view["turn"] == 0 and view["legal"]:
                    break
            deadline = time.monotonic() + 20
            while len(bots.queue) == 0:  # the clock ran out: the bot's job is queued
                assert time.monotonic() < deadline, "no autoplay job was queued"
                time.sleep(0.02)
            send(ws, "move", {"id": move_id + 1, "action": view["legal"][0],
                              "version": state["version"]})
            while (frame := recv(ws))["type"] != "ack" or frame["data"]["id"] != move_id + 1:
                assert frame["type"] != "error", frame
            deadline = time.monotonic() + 5
            while len(bots.queue):
                assert time.monotonic() < deadline, "the job stayed in the queue"
                time.sleep(0.02)
        assert not any(k.startswith("fallback") for k in bots.outcomes), bots.outcomes
