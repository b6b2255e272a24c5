"""Restart: a server started again on the same database picks up where the last one stopped.

Every table the hub runs can be rebuilt from its row and move log, so a restart (a deploy, or a
crash: see test_crash.py) resumes unfinished matches — casual tables still waiting for players,
tables in play with their clocks and bots — and players keep their sessions. These tests run the
app in-process and stop it between lives; the crash tests kill a real process instead.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

from fastapi.testclient import TestClient
from tests.server.conftest import guest, settings_for, wait_finished, wait_status
from tests.server.test_crash import move_log, record_steps
from tests.server.wsplay import Client, Frame, auth, connect, play
from tests.serverproc import wait_until

from carroca import fair, record
from carroca.rules import get_ruleset
from carroca.rules.rulesets import options_dict
from carroca.server.app import create_app
from carroca.server.storage import db
from carroca.server.tables.hub import bot_seat, player_seat
from carroca.server.tables.table import Table

HUMAN_AND_BOTS = ["me", "bot:greedy", "bot:random", "bot:greedy"]


def life(database: str, **settings: Any) -> TestClient:
    """One life of the server on `database` (use it as a context manager)."""
    return TestClient(create_app(settings_for(database, **settings)))


def wait_for(check: Callable[[], Any], what: str, timeout: float = 60.0) -> Any:
    return wait_until(check, what, timeout)


def status_of(client: TestClient, match_id: str) -> str:
    status: str = client.get(f"/api/matches/{match_id}").json()["status"]
    return status


def finished_record(client: TestClient, match_id: str, token: str | None = None) -> Any:
    """The record, fetched as the player of `token` (a friends' match is its players')."""
    r = client.get(f"/api/matches/{match_id}/record", headers=auth(token) if token else None)
    assert r.status_code == 200, r.text
    return record.loads(r.text)


def friends_table(client: TestClient, token: str, **extra: Any) -> str:
    r = client.post("/api/tables", headers=auth(token),
                    json={"ruleset": "duplas-pontos", "seats": HUMAN_AND_BOTS, **extra})
    assert r.status_code == 201, r.text
    match_id: str = r.json()["id"]
    return match_id


def acked_actions(c: Client) -> list[str]:
    """The actions of every move this client had acknowledged, in order."""
    sent = dict(c.sent)
    return [sent[a["id"]] for a in c.acks()]


def my_turn(state: Frame) -> bool:
    view = state["view"]
    return bool(state["status"] == "playing" and view and view["legal"]
                and view["turn"] == state["seat"])


def play_some(c: Client, match_id: str, moves: int) -> Frame:
    """Play `moves` acknowledged moves, then stop at the next turn: the table then waits on the
    human's clock, so nothing changes until the restart."""
    state = play(c, match_id, stop=lambda s: len(c.acks()) >= moves and my_turn(s))
    assert state["status"] == "playing"
    return state


def insert_match(database: str, row: dict[str, Any]) -> None:
    """A match row written straight to the database, as a server that died would leave it."""
    db.migrate(database)
    engine = db.make_engine(database)
    try:
        with engine.begin() as conn:
            conn.execute(db.matches.insert().values(**row))
    finally:
        engine.dispose()


def update_match(database: str, match_id: str, **fields: Any) -> None:
    engine = db.make_engine(database)
    try:
        with engine.begin() as conn:
            conn.execute(db.matches.update().where(db.matches.c.id == match_id).values(**fields))
    finally:
        engine.dispose()


def new_row(ruleset: str, mode: str, seats: list[dict[str, Any] | None],
            **extra: Any) -> dict[str, Any]:
    options = options_dict(get_ruleset(ruleset).make_options({}))
    return Table.new_row(mode=mode, ruleset=ruleset, options=options, seats=seats,
                         turn_seconds=20.0, bot_level="greedy", **extra)


# ---------------------------------------------------------------------- tables in play


def test_a_table_in_play_resumes_where_it_stopped(database: str) -> None:
    with life(database) as first, ExitStack() as sockets:
        token = guest(first, "Bia")
        match_id = friends_table(first, token)
        c = connect(sockets, first, token)
        before = play_some(c, match_id, 6)
        acked = acked_actions(c)
    assert len(acked) == 6

    with life(database) as second, ExitStack() as sockets:
        me = second.get("/api/me", headers=auth(token)).json()  # the session survived
        assert me["player"]["name"] == "Bia" and me["tables"] == [match_id]
        c = connect(sockets, second, token)
        c.next_id = 100  # a client that reconnects keeps counting its moves
        play(c, match_id)
        rec = finished_record(second, match_id, token)
    after = c.states()[0]  # the answer to the join
    assert after["status"] == "playing" and after["seat"] == 0
    assert after["view"] == before["view"]  # the same hand, table, score and turn
    assert after["client_seed"] == before["client_seed"]
    assert after["commitment"] == before["commitment"]
    assert after["clock"] is not None and after["clock"]["seat"] == 0
    steps = record_steps(rec)
    assert [a for s, a, auto in steps if s == 0 and not auto] == acked + acked_actions(c)
    assert move_log(database, match_id) == ("finished", steps)
    assert fair.commitment(rec["fairness"]["server_seed"]) == before["commitment"]


def test_the_turn_clock_runs_again_after_a_restart(database: str) -> None:
    with life(database, turn_seconds=1.0, choice_seconds=1.0) as first, ExitStack() as sockets:
        token = guest(first, "Caio")
        match_id = friends_table(first, token)
        c = connect(sockets, first, token)
        c.join(match_id)
        c.until(lambda f: f["type"] == "state" and my_turn(f["data"]))

    def timeouts() -> int:  # moves made for seat 0 by its clock (autoplay, then abandon)
        return sum(1 for s, _, auto in move_log(database, match_id)[1] if s == 0 and auto)

    before = timeouts()  # usually 0; a slow machine may let the clock strike once
    with life(database, turn_seconds=1.0, choice_seconds=1.0) as second, ExitStack() as sockets:
        c = connect(sockets, second, token)
        state = c.join(match_id)
        if my_turn(state):
            clock = state["clock"]
            assert clock is not None and clock["seat"] == 0 and clock["seconds"] == 1.0
            assert 0 < clock["remaining_ms"] <= 1000
        wait_for(lambda: timeouts() > before, "the clock to play for the silent player")


def test_bots_matches_resume_whether_started_or_not(database: str) -> None:
    # A bots match the last server was playing when it stopped ...
    with life(database, bot_delay_ms=50) as first:
        guest(first, "demo")  # bots-only matches are for signed-in players
        r = first.post("/api/matches", json={"ruleset": "duplas-torneio",
                                             "seats": ["bot:greedy", "bot:random"] * 2})
        assert r.status_code == 201, r.text
        playing = r.json()["id"]
        wait_for(lambda: first.get("/api/stats").json()["moves"] >= 10, "some moves")
    status, stopped_at = move_log(database, playing)
    # ... and one it had created but not started yet (it died in between).
    unstarted = new_row("classico", "bots", [bot_seat("greedy"), bot_seat("random")])
    insert_match(database, unstarted)
    assert status == "playing" and stopped_at
    assert move_log(database, unstarted["id"]) == ("waiting", [])

    with life(database) as second:
        for match_id in (unstarted["id"], playing):
            info = wait_finished(second, match_id, timeout=60)
            assert fair.commitment(info["server_seed"]) == info["commitment"]
            steps = record_steps(finished_record(second, match_id))
            assert move_log(database, match_id) == ("finished", steps)
        assert record_steps(finished_record(second, playing))[: len(stopped_at)] == stopped_at


def test_a_match_whose_end_was_not_written_is_finished_at_restart(database: str) -> None:
    with life(database) as first:
        guest(first, "demo")
        r = first.post("/api/matches", json={"ruleset": "mano-a-mano",
                                             "seats": ["bot:greedy", "bot:random"]})
        match_id = r.json()["id"]
        info = wait_finished(first, match_id, timeout=60)
        text = first.get(f"/api/matches/{match_id}/record").text
    # The last move committed, then the server died before the end of the match was stored.
    update_match(database, match_id, status="playing", finished_at=None, score=None,
                 result=None, record=None)
    with life(database) as second:  # the restart finishes it in the background, at once
        assert wait_finished(second, match_id, timeout=10)["result"] == info["result"]
        assert second.get(f"/api/matches/{match_id}/record").text == text


# ---------------------------------------------------------------------- waiting tables


def test_a_waiting_casual_table_fills_with_bots_after_a_restart(database: str) -> None:
    with life(database, casual_wait_seconds=600) as first:
        token = guest(first, "Duda")
        r = first.post("/api/casual", headers=auth(token),
                       json={"ruleset": "mano-a-mano", "client_seed": "semente-da-duda"})
        assert r.status_code == 200, r.text
        match_id, seat = r.json()["id"], r.json()["seat"]
        assert status_of(first, match_id) == "waiting"

    with life(database, casual_wait_seconds=0.1) as second, ExitStack() as sockets:
        wait_status(second, match_id, "playing", timeout=60)  # bots filled the open seat
        # Asking again finds the same table: the player was never dropped from it.
        again = second.post("/api/casual", headers=auth(token), json={"ruleset": "mano-a-mano"})
        assert again.json()["id"] == match_id and again.json()["seat"] == seat
        c = connect(sockets, second, token)
        state = play(c, match_id)
        rec = finished_record(second, match_id)
    assert state["client_seeds"][seat] == "semente-da-duda"
    assert rec["players"][seat] == "Duda" and record.verify(rec).is_over


def test_sessions_and_logouts_survive_a_restart(database: str) -> None:
    with life(database) as first:
        kept = guest(first, "Edu")
        ended = guest(first, "Fabi")
        assert first.post("/api/logout", headers=auth(ended)).status_code == 200
    with life(database) as second, ExitStack() as sockets:
        assert second.get("/api/me", headers=auth(kept)).json()["player"]["name"] == "Edu"
        assert second.get("/api/me", headers=auth(ended)).status_code == 401
        c = connect(sockets, second, kept)
        assert c.frames[0]["data"]["player"]["name"] == "Edu"


# ---------------------------------------------------------------------- what clients rely on


def test_the_version_never_goes_back_across_a_restart(database: str) -> None:
    with life(database) as first, ExitStack() as sockets:
        token = guest(first, "Gabi")
        match_id = friends_table(first, token)
        before = play_some(connect(sockets, first, token), match_id, 3)
    with life(database) as second, ExitStack() as sockets:
        after = connect(sockets, second, token).join(match_id)
    assert after["view"] == before["view"]
    assert after["version"] == before["version"]  # the same table: the same version


def test_a_move_resent_after_a_restart_is_acked_as_a_duplicate(database: str) -> None:
    with life(database) as first, ExitStack() as sockets:
        token = guest(first, "Hugo")
        match_id = friends_table(first, token)
        c = connect(sockets, first, token)
        play_some(c, match_id, 2)
        (old_id, old_action), (move_id, action) = c.sent
    with life(database) as second, ExitStack() as sockets:
        c = connect(sockets, second, token)
        c.join(match_id)

        def answer_to(i: int) -> Frame:
            return c.until(lambda f: f["type"] in ("ack", "error") and f["data"].get("id") == i)

        c.move(action, move_id)  # the client never saw the ack: it sends the move again
        again = answer_to(move_id)
        c.move(old_action, old_id)  # an older move id is stale, not a new move
        stale = answer_to(old_id)
    assert again["type"] == "ack" and again["data"].get("duplicate") is True, again
    assert stale["type"] == "error" and stale["data"]["code"] == "stale_move", stale
    assert [a for s, a, _ in move_log(database, match_id)[1] if s == 0] == [old_action, action]


def test_a_full_friends_table_left_waiting_starts_after_a_restart(database: str) -> None:
    with life(database) as first:
        token = guest(first, "Iara")
        player = first.get("/api/me", headers=auth(token)).json()["player"]
    # The last seat was taken, then the server died before the first deal.
    row = new_row("mano-a-mano", "friends", [player_seat(player), bot_seat("greedy")],
                  host_id=player["id"], invite="convite-iara")
    insert_match(database, row)
    with life(database) as second:
        wait_status(second, row["id"], "playing", timeout=10)

