"""The table's rhythm on the server: a pause between hands (no clock, no bot, no move while the
hand's summary shows; after a restart the clock simply starts) and the rematch route
(POST /api/matches/{id}/rematch: the same settings, idempotent, offered to the other players)."""

from __future__ import annotations

import time
from contextlib import ExitStack
from typing import Any

from fastapi.testclient import TestClient
from tests.support.server_app import guest, settings_for, wait_finished, wait_status
from tests.support.wsplay import Client, Frame, auth, connect, play, run_together

from carroca.server.app import create_app


def life(database: str, **settings: Any) -> TestClient:
    return TestClient(create_app(settings_for(database, **settings)))


def human_and_bot(client: TestClient, token: str, ruleset: str = "bloqueio",
                  **extra: Any) -> str:
    r = client.post("/api/tables", headers=auth(token),
                    json={"ruleset": ruleset, "seats": ["me", "bot:greedy"], **extra})
    assert r.status_code == 201, r.text
    match_id: str = r.json()["id"]
    return match_id


def play_to_pause(c: Client, match_id: str, seen: bool = False) -> tuple[Frame, float]:
    """Play the first legal action at every turn of this client's seat until a hand ends;
    returns the first state of the pause and when it arrived. `seen`: a hand that ended before
    the join does not count (a hand of bloqueio can end on its opening tile, a trancado when no
    other tile of the opening double's number was dealt: at a bot's table, before any socket
    joins), the client waits for the next one to end."""
    c.send("join", {"match": match_id})
    answered = -1
    before: int | None = None  # the hands over when the client joined
    while True:
        frame = c.recv()
        assert frame["type"] != "error", frame
        if frame["type"] != "state":
            continue
        state = frame["data"]
        view = state["view"]
        assert state["status"] == "playing", state["status"]
        if view and before is None:
            before = view["hand_number"] if seen else 0
        if view and view["hand_number"] > (before or 0):
            return state, time.monotonic()
        if view and view["legal"] and view["turn"] == state["seat"] \
                and state["version"] != answered:
            answered = state["version"]
            c.move(view["legal"][0])


def hand_over(state: Frame) -> bool:
    """The first hand ended (the view is the next one's already)."""
    return bool(state["view"]) and state["view"]["hand_number"] > 0


def test_the_next_hand_waits_for_the_pause(database: str) -> None:
    """The state that ends a hand says how long the pause lasts; meanwhile no clock runs,
    nobody may move (the server refuses with `hand_pause`) and the bots wait; then the same
    version comes again with the next hand's clock."""
    pause = 0.8
    with life(database, bot_delay_ms=1, hand_pause_seconds=pause) as client, \
            ExitStack() as sockets:
        token = guest(client, "Nina")
        match_id = human_and_bot(client, token)
        c = connect(sockets, client, token, "nina")
        state, at = play_to_pause(c, match_id, seen=True)
        assert state["pause"] is not None, state
        assert state["pause"]["seconds"] == pause
        assert 0 < state["pause"]["remaining_ms"] <= pause * 1000
        assert state["clock"] is None
        assert state["view"]["legal"] == []
        assert state["view"]["score"] == state["view"]["last_hand"]["score"]
        move_id = c.move("0-0")  # whatever it is, it comes too early
        refused = c.until(lambda f: f["type"] in ("error", "ack")
                          and f["data"].get("id") == move_id)
        assert refused["type"] == "error" and refused["data"]["code"] == "hand_pause", refused
        after = c.until(lambda f: f["type"] == "state")["data"]
        waited = time.monotonic() - at
        assert after["pause"] is None
        assert after["version"] == state["version"]  # nothing happened during the pause
        assert waited >= pause - 0.25, waited
        view = after["view"]
        if view["turn"] == 0:
            assert after["clock"] is not None and after["clock"]["seat"] == 0
            assert view["legal"]
        else:  # the bot opens the next hand, only now
            assert after["clock"] is None
            moved = c.until(lambda f: f["type"] == "state")["data"]
            assert moved["version"] == state["version"] + 1


def test_after_a_restart_the_clock_simply_starts(database: str) -> None:
    with life(database, bot_delay_ms=1, hand_pause_seconds=60) as first, \
            ExitStack() as sockets:
        token = guest(first, "Otto")
        match_id = human_and_bot(first, token)
        c = connect(sockets, first, token, "otto")
        state, _ = play_to_pause(c, match_id)
        assert state["pause"] is not None
    with life(database, bot_delay_ms=1, hand_pause_seconds=60) as second, \
            ExitStack() as sockets:
        c = connect(sockets, second, token, "otto")
        joined = c.join(match_id)
        assert joined["pause"] is None
        assert joined["version"] >= state["version"]  # a bot may have opened already
        if joined["view"]["turn"] == 0:
            assert joined["clock"] is not None and joined["view"]["legal"]
        else:  # the bot plays at once, without waiting out a pause nobody was shown
            moved = c.until(lambda f: f["type"] == "state" and
                            f["data"]["version"] > joined["version"], timeout=5)
            assert moved["data"]["pause"] is None


def test_no_pause_when_it_is_set_to_zero(client: TestClient) -> None:
    token = guest(client, "Pia")
    match_id = human_and_bot(client, token)
    with ExitStack() as sockets:
        c = connect(sockets, client, token, "pia")
        state, _ = play_to_pause(c, match_id)
    assert state["pause"] is None


def test_a_reader_holds_the_pause_until_ready(client: TestClient) -> None:
    """A player who asked for time to read the hand's summary (`hold`) is waited for, even
    with no ordinary pause, and is listed as reading (the other player, who did not ask, is
    not); `ready` lets the next hand start.

    The hold is asked while the table still waits for its second player, so before any hand
    can end (see `play_to_pause`: at a bot's table one may end before the socket joins)."""
    host, other = guest(client, "Lia"), guest(client, "Rui")
    r = client.post("/api/tables", headers=auth(host),
                    json={"ruleset": "bloqueio", "seats": ["me", "open"]})
    assert r.status_code == 201, r.text
    match_id, invite = r.json()["id"], r.json()["invite"]
    with ExitStack() as sockets:
        c = connect(sockets, client, host, "lia")
        c.send("hold", {"match": match_id, "on": True})  # before joining: refused
        refused = c.until_type("error")["data"]
        assert refused["code"] == "not_seated", refused
        assert c.join(match_id)["status"] == "waiting"
        c.send("hold", {"match": match_id, "on": True})
        c.ping()  # the hold is taken: it was handled before the ping
        b = connect(sockets, client, other, "rui")
        sat = client.post("/api/tables/join", headers=auth(other), json={"invite": invite})
        assert sat.status_code == 200 and sat.json()["seat"] == 1, sat.text
        assert b.join(match_id)["status"] == "playing"  # shown to both: no state comes later
        c.until(lambda f: f["type"] == "state" and f["data"]["players"][1]["connected"])
        state, seen = run_together([lambda: play_to_pause(c, match_id)[0],
                                    lambda: play(b, match_id, stop=hand_over)])
        for shown in (state, seen):
            pause = shown["pause"]
            assert pause is not None and pause["reading"] == [0], pause
            assert pause["seconds"] == 60.0 and pause["remaining_ms"] > 50_000, pause
            assert shown["clock"] is None and shown["view"]["legal"] == []
        c.send("ready", {"match": match_id})
        after = c.until(lambda f: f["type"] == "state")["data"]
        assert after["pause"] is None and after["version"] == state["version"]


# ---------------------------------------------------------------------- rematch


def rematch(client: TestClient, token: str, match_id: str, **body: Any) -> Any:
    return client.post(f"/api/matches/{match_id}/rematch", headers=auth(token), json=body)


def test_rematch_of_a_casual_table(client: TestClient) -> None:
    """One person against bots: the rematch has the same ruleset, bot level and bots, starts at
    once, and asking again answers the same table."""
    token = guest(client, "Rita")
    r = client.post("/api/casual", headers=auth(token),
                    json={"ruleset": "classico", "bot_level": "random"})
    assert r.status_code == 200, r.text
    old = r.json()["id"]
    assert rematch(client, token, old).json()["error"]["code"] == "not_finished"
    with ExitStack() as sockets:
        c = connect(sockets, client, token, "rita")
        play(c, old)
    stranger = guest(client, "Saulo")
    assert rematch(client, stranger, old).status_code == 403

    first = rematch(client, token, old, client_seed="rita-2")
    assert first.status_code == 200, first.text
    made = first.json()
    assert made["id"] != old and made["mode"] == "casual" and made["seat"] == 0
    again = rematch(client, token, old)
    assert again.json()["id"] == made["id"] and again.json()["seat"] == 0
    info = wait_status(client, made["id"], "playing")
    before = client.get(f"/api/matches/{old}").json()
    assert info["ruleset"] == "classico" and info["mode"] == "casual"
    assert info["players"] == before["players"]  # the same player, the same bots
    table = client.app.state.tables.get(made["id"])  # type: ignore[attr-defined]
    assert table.bot_level == "random" and table.client_seeds[0] == "rita-2"
    assert rematch(client, token, "nada-disso").status_code == 404


def test_rematch_of_a_friends_table_is_offered_and_joined(client: TestClient) -> None:
    """Two friends: the first to ask makes the table (the same options, clock and seats), the
    other is offered it on their channel and in the finished table's state, and asking sits
    them in their own seat."""
    host, friend = guest(client, "Tati"), guest(client, "Ugo")
    r = client.post("/api/tables", headers=auth(host), json={
        "ruleset": "classico", "options": {"hands_to_win": 1}, "seats": ["me", "open"],
        "turn_seconds": 45,
    })
    assert r.status_code == 201, r.text
    old = r.json()["id"]
    joined = client.post("/api/tables/join", headers=auth(friend),
                         json={"invite": r.json()["invite"]})
    assert joined.status_code == 200 and joined.json()["seat"] == 1
    with ExitStack() as sockets:
        a = connect(sockets, client, host, "tati")
        b = connect(sockets, client, friend, "ugo")
        run_together([lambda: play(a, old), lambda: play(b, old)])
        wait_finished(client, old)

        made = rematch(client, host, old)
        assert made.status_code == 200, made.text
        new = made.json()
        assert new["mode"] == "friends" and new["seat"] == 0 and new["invite"]
        offer = b.until(lambda f: f["type"] == "rematch")["data"]
        assert offer == {"match": old, "id": new["id"], "mode": "friends", "by": "Tati"}
        shown = b.until(lambda f: f["type"] == "state" and "rematch" in f["data"])["data"]
        assert shown["rematch"] == {"id": new["id"], "by": "Tati"}
        assert shown["status"] == "finished"

        waiting = client.get(f"/api/matches/{new['id']}").json()
        assert waiting["status"] == "waiting" and waiting["players"] == ["Tati", None]
        second = rematch(client, friend, old)
        assert second.status_code == 200, second.text
        assert second.json()["id"] == new["id"] and second.json()["seat"] == 1
    info = wait_status(client, new["id"], "playing")
    assert info["options"] == {"hands_to_win": 1} and info["players"] == ["Tati", "Ugo"]
    table = client.app.state.tables.get(new["id"])  # type: ignore[attr-defined]
    assert table.turn_seconds == 45 and table.host_id is not None
    # once seated, asking again changes nothing
    assert rematch(client, friend, old).json()["id"] == new["id"]
