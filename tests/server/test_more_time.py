"""A player's "mais tempo": at casual and friends' tables a seat may ask for its turns to last
twice the table's. The server's clock is the one that counts: every seat and spectator is sent
that seat's longer clock and sees who has more time (`more_time`), the auto-play comes only
when the longer time has run out, and ranked and tournament tables refuse it."""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

import sqlalchemy as sa
from fastapi.testclient import TestClient
from tests.support.server_app import account, guest, settings_for
from tests.support.wsplay import Client, Frame, auth, connect

from carroca.server.app import create_app
from carroca.server.storage.db import make_engine


def life(database: str, **settings: Any) -> TestClient:
    return TestClient(create_app(settings_for(database, **settings)))


def friends_table(client: TestClient, token: str, seats: list[str], turn: float) -> dict[str, Any]:
    r = client.post("/api/tables", headers=auth(token),
                    json={"ruleset": "bloqueio", "seats": seats, "turn_seconds": turn})
    assert r.status_code == 201, r.text
    answer: dict[str, Any] = r.json()
    return answer


def state_where(c: Client, accept: Any) -> Frame:
    """The next state frame `accept` takes."""
    frame = c.until(lambda f: f["type"] == "state" and accept(f["data"]))
    data: Frame = frame["data"]
    return data


def my_turn(state: Frame) -> bool:
    view = state["view"]
    return bool(view and view["turn"] == state["seat"] and view["legal"])


def test_more_time_doubles_the_seats_clock_for_everyone(database: str) -> None:
    """Asked during the player's own turn, the running clock gets the extra time at once (the
    same version: nothing moved); the next turns last twice the table's; the spectator sees the
    longer clock and who has it. Turned off, the running clock ends as it was set and the next
    turn has the table's time. A spectator cannot ask."""
    with life(database) as client, ExitStack() as sockets:
        ana = guest(client, "Ana")
        match_id = friends_table(client, ana, ["me", "bot:greedy"], 20)["id"]
        vera = connect(sockets, client, guest(client, "Vera"), "vera")
        assert vera.join(match_id)["seat"] is None
        vera.send("more_time", {"match": match_id, "on": True})
        refused = vera.until_type("error")["data"]
        assert refused["code"] == "not_seated", refused

        c = connect(sockets, client, ana, "ana")
        state = c.join(match_id)
        if not my_turn(state):
            state = state_where(c, my_turn)
        assert state["more_time"] == [] and state["clock"]["seconds"] == 20.0, state
        c.send("more_time", {"match": match_id, "on": True})
        longer = state_where(c, lambda s: s["more_time"] == [0])
        assert longer["version"] == state["version"]
        clock = longer["clock"]
        assert clock["seat"] == 0 and clock["seconds"] == 40.0, clock
        assert 20_000 < clock["remaining_ms"] <= 40_000, clock
        seen = state_where(vera, lambda s: s["more_time"] == [0])
        assert seen["clock"]["seat"] == 0 and seen["clock"]["seconds"] == 40.0, seen
        c.send("more_time", {"match": match_id, "on": True})  # again: nothing changes
        assert not [f for f in c.ping() if f["type"] == "state"]

        c.move(longer["view"]["legal"][0])
        after = state_where(c, lambda s: my_turn(s) and s["version"] > longer["version"])
        assert after["clock"]["seconds"] == 40.0 and after["more_time"] == [0], after
        assert after["clock"]["remaining_ms"] > 30_000, after["clock"]

        c.send("more_time", {"match": match_id, "on": False})
        off = state_where(c, lambda s: s["more_time"] == [])
        assert off["version"] == after["version"] and off["clock"]["seconds"] == 40.0, off
        c.move(off["view"]["legal"][0])
        last = state_where(c, lambda s: my_turn(s) and s["version"] > off["version"])
        assert last["clock"]["seconds"] == 20.0 and last["more_time"] == [], last


def test_the_auto_play_waits_for_the_longer_time(database: str) -> None:
    """Ana asks while her table waits for Bia; she never moves. Her first action is the
    auto-play's, stored no sooner than twice the table's turn after the move (or the start)
    that gave her the turn; Bia's frames showed Ana's longer clock."""
    turn = 1.0
    with life(database) as client, ExitStack() as sockets:
        ana, bia = guest(client, "Ana"), guest(client, "Bia")
        made = friends_table(client, ana, ["me", "open"], turn)
        match_id = made["id"]
        a = connect(sockets, client, ana, "ana")
        a.join(match_id)
        a.send("more_time", {"match": match_id, "on": True})
        state_where(a, lambda s: s["more_time"] == [0])
        b = connect(sockets, client, bia, "bia")
        joined = client.post("/api/tables/join", headers=auth(bia), json={"invite": made["invite"]})
        assert joined.status_code == 200 and joined.json()["seat"] == 1, joined.text
        state = b.join(match_id)
        clocks_of_ana: list[float] = []
        while not any(s["seat"] == 0 for s in (state["view"] or {}).get("steps", [])):
            if state["clock"] is not None and state["clock"]["seat"] == 0:
                clocks_of_ana.append(state["clock"]["seconds"])
            if my_turn(state):
                b.move(state["view"]["legal"][0])
            state = state_where(b, lambda s: True)
        assert clocks_of_ana and set(clocks_of_ana) == {2 * turn}, clocks_of_ana

    engine = make_engine(database)
    try:
        with engine.connect() as conn:
            started = conn.execute(sa.text("SELECT started_at FROM matches WHERE id = :m"),
                                   {"m": match_id}).scalar_one()
            moves = conn.execute(sa.text("SELECT seq, seat, auto, at FROM moves "
                                         "WHERE match_id = :m ORDER BY seq"),
                                 {"m": match_id}).all()
    finally:
        engine.dispose()
    first = next(i for i, m in enumerate(moves) if m.seat == 0)
    assert moves[first].auto, moves
    since = moves[first - 1].at if first else started
    assert moves[first].at - since >= 2 * turn - 0.01, (moves[first].at - since, moves)


def test_ranked_tables_refuse_more_time(database: str) -> None:
    """At a ranked table everyone keeps the same clock: asking is refused in Portuguese and
    changes nothing."""
    with life(database) as client, ExitStack() as sockets:
        ana, bia = account(client, "Ana"), account(client, "Bia")
        answers = [client.post("/api/ranked", headers=auth(t), json={"ruleset": "mano-a-mano"})
                   .json() for t in (ana, bia)]
        assert answers[-1]["status"] == "matched", answers
        match_id = answers[-1]["id"]
        c = connect(sockets, client, ana, "ana")
        state = c.join(match_id)
        assert state["mode"] == "ranked" and state["clock"]["seconds"] == 20.0, state
        c.send("more_time", {"match": match_id, "on": True})
        refused = c.until_type("error")["data"]
        assert refused["code"] == "no_more_time", refused
        assert refused["message"] == ("Esta mesa não dá mais tempo: nas ranqueadas e nos torneios "
                                      "o tempo por jogada é igual para todos.")
        assert not [f for f in c.ping() if f["type"] == "state"]  # nothing changed
