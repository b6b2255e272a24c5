"""The WebSocket protocol end to end: real clients play whole matches of every ruleset.

Humans and bots are mixed at friends' tables; two humans at one table act on their own threads.
Every match must finish with a record that verifies, name its players, ack exactly the moves that
were sent, show no `auto` move (everyone played in time), keep the commitment it showed before
the first deal and never send the server seed before the end.
"""

from __future__ import annotations

import re
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.support.leak_oracle import Coverage, Oracle, check_frames
from tests.support.server_app import guest
from tests.support.wsplay import (
    Client,
    Frame,
    auth,
    connect,
    play,
    random_chooser,
    run_together,
    watch,
)

from carroca import fair, record
from carroca.rules import RULESETS

#: Small targets keep every match short (each within the ruleset's allowed values).
SHORT: dict[str, dict[str, Any]] = {
    "duplas-pontos": {"target": 100},
    "duplas-torneio": {"target": 50},
    "mano-a-mano": {"target": 20},
    "classico": {"hands_to_win": 1},
    "bloqueio": {"target": 2},
    "pontos": {"target": 30},
}
DUPLAS = [name for name, rs in RULESETS.items() if rs.seats == 4]
MANO = [name for name, rs in RULESETS.items() if rs.seats == 2]
STATE_KEYS = {"id", "mode", "ruleset", "status", "seat", "players", "commitment",
              "client_seeds", "version", "clock", "view"}
VIEW_KEYS = {"ruleset", "options", "seat", "phase", "turn", "hand", "hand_sizes", "boneyard",
             "table", "ends", "score", "hand_number", "deal_index", "steps", "legal",
             "last_hand", "result"}
HEX64 = re.compile(r"[0-9a-f]{64}")


def create_table(
    client: TestClient, token: str, ruleset: str, seats: list[str], **extra: Any
) -> dict[str, Any]:
    """A friends' table hosted by `token`; small targets unless `options` says otherwise."""
    body = {"ruleset": ruleset, "options": SHORT[ruleset], "seats": seats, **extra}
    r = client.post("/api/tables", json=body, headers=auth(token))
    assert r.status_code == 201, r.text
    created: dict[str, Any] = r.json()
    return created


def join_invite(client: TestClient, token: str, invite: str) -> dict[str, Any]:
    r = client.post("/api/tables/join", json={"invite": invite}, headers=auth(token))
    assert r.status_code == 200, r.text
    joined: dict[str, Any] = r.json()
    return joined


def check_state_shape(state: Frame, match_id: str, ruleset: str) -> None:
    n = RULESETS[ruleset].seats
    assert set(state) >= STATE_KEYS, sorted(STATE_KEYS - set(state))
    assert state["id"] == match_id
    assert state["mode"] == "friends"
    assert state["ruleset"] == ruleset
    assert state["status"] in ("waiting", "playing", "finished")
    assert state["seat"] is None or state["seat"] in range(n)
    assert isinstance(state["players"], list) and len(state["players"]) == n
    for p in state["players"]:
        assert p is None or (isinstance(p["name"], str) and isinstance(p["bot"], bool)
                             and isinstance(p["connected"], bool))
    assert HEX64.fullmatch(state["commitment"])
    assert isinstance(state["client_seeds"], list) and len(state["client_seeds"]) == n
    assert isinstance(state["version"], int) and state["version"] >= 0
    clock = state["clock"]
    if clock is not None:
        assert state["status"] == "playing"
        assert clock["seat"] in range(n) and clock["seconds"] > 0
        assert 0 <= clock["remaining_ms"] <= clock["seconds"] * 1000
        assert state["view"]["turn"] == clock["seat"]
        assert not state["players"][clock["seat"]]["bot"]
    view = state["view"]
    if state["status"] == "waiting":
        assert view is None
        return
    assert set(view) >= VIEW_KEYS, sorted(VIEW_KEYS - set(view))
    assert view["ruleset"] == ruleset and view["seat"] == state["seat"]
    if state["seat"] is None or view["turn"] != state["seat"]:
        assert view["legal"] == []
    if state["seat"] is None:
        assert view["hand"] == []


def check_match(
    client: TestClient, match_id: str, commitment: str, names: dict[int, str],
    humans: list[Client], watchers: list[Client] = (),  # type: ignore[assignment]
    *, player: str,
) -> dict[str, Any]:
    """Everything a finished match must satisfy, from the record (fetched as `player`, a token
    of one seated in it: a friends' match is its players') and every frame received."""
    r = client.get(f"/api/matches/{match_id}/record", headers=auth(player))
    assert r.status_code == 200, r.text
    rec = record.loads(r.text)
    match = record.verify(rec)
    assert match.is_over and rec["result"]["reason"] == "target"
    ruleset = rec["ruleset"]
    for seat, name in names.items():
        assert rec["players"][seat] == name
    fairness = rec["fairness"]
    assert fairness["commitment"] == commitment
    assert fair.commitment(fairness["server_seed"]) == commitment
    actions = [a for hand in rec["hands"] for a in hand["actions"]]
    assert not any(a.get("auto") for a in actions), "a human played in time, yet auto moved"
    human_seats = set()
    for c in [*humans, *watchers]:
        states = c.states()
        assert states, c.label
        assert states[0]["commitment"] == commitment
        assert states[-1]["status"] == "finished"
        assert states[-1]["server_seed"] == fairness["server_seed"]
        for s in states:
            check_state_shape(s, match_id, ruleset)
            assert s["commitment"] == commitment
        finished_at = next(i for i, f in enumerate(c.frames)
                           if f["type"] == "state" and f["data"]["status"] == "finished")
        for text in c.raw[:finished_at]:
            assert "server_seed" not in text and fairness["server_seed"] not in text
        assert not c.errors(), (c.label, c.errors())
    for c in humans:
        seat = c.states()[-1]["seat"]
        assert seat is not None
        human_seats.add(seat)
        sent_ids = [i for i, _ in c.sent]
        acked = [a["id"] for a in c.acks()]
        assert sent_ids and acked == sent_ids, (c.label, sent_ids, acked)
        assert not any(a.get("duplicate") for a in c.acks())
        mine = [a for a in actions if a["seat"] == seat]
        assert len(mine) == len(c.sent), (c.label, len(mine), len(c.sent))
    for c in watchers:
        for s in c.states():
            assert s["seat"] is None
            assert s["view"] is None or (s["view"]["hand"] == [] and s["view"]["legal"] == [])
    # And nobody was shown a tile they could not see (the oracle of test_leak).
    oracle, coverage = Oracle(rec), Coverage()
    for c in humans:
        check_frames(oracle, c, c.states()[-1]["seat"], coverage)
    for c in watchers:
        check_frames(oracle, c, None, coverage)
    return rec  # type: ignore[no-any-return]


def test_short_options_cover_every_ruleset() -> None:
    assert set(SHORT) == set(RULESETS)
    for name, opts in SHORT.items():
        RULESETS[name].make_options(opts)


@pytest.mark.parametrize("ruleset", DUPLAS)
def test_duplas_two_humans_two_bots_and_a_spectator(client: TestClient, ruleset: str) -> None:
    host, other, fan = guest(client, "ana"), guest(client, "luis"), guest(client, "bia")
    created = create_table(client, host, ruleset, ["me", "open", "bot:greedy", "bot:random"],
                           client_seed="ana-1")
    match_id, commitment = created["id"], created["commitment"]
    with ExitStack() as stack:
        ana = connect(stack, client, host, "ana")
        first = ana.join(match_id)
        # Before the deal: the commitment is already there, the seed and the view are not.
        assert first["status"] == "waiting" and first["view"] is None
        assert first["commitment"] == commitment and "server_seed" not in first
        assert first["players"][1] is None and first["seat"] == 0
        spectator = connect(stack, client, fan, "bia")
        assert spectator.join(match_id)["seat"] is None
        joined = join_invite(client, other, created["invite"])
        assert joined == {"id": match_id, "seat": 1, "commitment": commitment}
        luis = connect(stack, client, other, "luis")
        run_together([
            lambda: play(ana, None, random_chooser(1)),
            lambda: play(luis, match_id, random_chooser(2)),
            lambda: watch(spectator, None),
        ])
    rec = check_match(client, match_id, commitment, {0: "ana", 1: "luis"}, [ana, luis],
                      [spectator], player=host)
    assert rec["players"][2:] == ["bot:greedy", "bot:random"]
    assert rec["fairness"]["client_seed"].startswith("ana-1:")


@pytest.mark.parametrize("ruleset", MANO)
def test_mano_human_against_a_bot(client: TestClient, ruleset: str) -> None:
    token = guest(client, "rafa")
    created = create_table(client, token, ruleset, ["bot:greedy", "me"])
    with ExitStack() as stack:
        rafa = connect(stack, client, token, "rafa")
        final = play(rafa, created["id"], random_chooser(3))
    assert final["seat"] == 1 and final["view"]["result"] is not None
    rec = check_match(client, created["id"], created["commitment"], {1: "rafa"}, [rafa],
                      player=token)
    assert rec["players"][0] == "bot:greedy"


@pytest.mark.parametrize("ruleset", MANO)
def test_mano_two_humans(client: TestClient, ruleset: str) -> None:
    host, other = guest(client, "caio"), guest(client, "duda")
    created = create_table(client, host, ruleset, ["open", "me"], client_seed="caio")
    match_id = created["id"]
    with ExitStack() as stack:
        caio = connect(stack, client, host, "caio")
        assert caio.join(match_id)["status"] == "waiting"
        join_invite(client, other, created["invite"])
        duda = connect(stack, client, other, "duda")
        a, b = run_together([
            lambda: play(caio, None, random_chooser(4)),
            lambda: play(duda, match_id, random_chooser(5)),
        ])
    assert a["view"]["result"] == b["view"]["result"]
    assert a["server_seed"] == b["server_seed"]
    check_match(client, match_id, created["commitment"], {0: "duda", 1: "caio"}, [caio, duda],
                player=host)


def my_turn(state: Frame) -> bool:
    view = state["view"]
    return bool(state["status"] == "playing" and view and view["legal"]
                and view["turn"] == state["seat"])


def wait_my_turn(c: Client) -> Frame:
    """The first state where this client is to move (bots move at once, so the table is then
    quiet until this client acts)."""
    frame = c.until(lambda f: f["type"] == "state" and my_turn(f["data"]))
    return frame["data"]  # type: ignore[no-any-return]


def comparable(state: Frame) -> Frame:
    """A state without its clock's countdown (it runs while nobody moves) nor the `connected`
    flags (they change as sockets come and go)."""
    out = {k: v for k, v in state.items() if k not in ("clock", "players")}
    out["clock_seat"] = state["clock"] and state["clock"]["seat"]
    return out


def news(c: Client, state: Frame) -> list[Frame]:
    """The frames before a ping's pong, less states that only repeat `state` (a re-join makes
    the table publish the seat's presence again)."""
    return [f for f in c.ping()
            if f["type"] != "state" or comparable(f["data"]) != comparable(state)]


def test_spectator_sees_no_hand(client: TestClient) -> None:
    host, fan = guest(client, "gabi"), guest(client, "theo")
    created = create_table(client, host, "pontos", ["me", "bot:greedy"])
    with ExitStack() as stack:
        gabi = connect(stack, client, host, "gabi")
        spectator = connect(stack, client, fan, "theo")
        watching = spectator.join(created["id"])
        assert watching["seat"] is None
        play(gabi, created["id"], random_chooser(6))
        watch(spectator, None)
        # A spectator cannot move or chat: it has no seat.
        spectator.move("6-6")
        assert spectator.until_type("error")["data"]["code"] == "not_seated"
        spectator.send("chat", {"text": "oi"})
        assert spectator.until_type("error")["data"]["code"] == "not_seated"
    states = spectator.states()
    assert len(states) > 3
    for s in states:
        assert s["seat"] is None and "rating" not in s
        if s["view"] is not None:
            assert s["view"]["hand"] == [] and s["view"]["legal"] == []
            assert s["view"]["seat"] is None
            assert all("tile" not in st for st in s["view"]["steps"] if st["type"] == "draw")
    assert sum(1 for s in states if s["view"] and s["view"]["table"]) > 1


def test_reconnect_mid_match_resumes_the_view(client: TestClient) -> None:
    token, fan = guest(client, "nina"), guest(client, "otto")
    created = create_table(client, token, "mano-a-mano", ["me", "bot:greedy"], options={})
    match_id = created["id"]
    with ExitStack() as outer:
        spectator = connect(outer, client, fan, "otto")
        spectator.join(match_id)
        with ExitStack() as first_socket:
            nina = connect(first_socket, client, token, "nina")
            before = play(nina, match_id, random_chooser(7),
                          stop=lambda s: my_turn(s) and len(nina.sent) >= 3)
            spectator.until(lambda f: f["type"] == "state"
                            and f["data"]["version"] == before["version"])
        # The socket is gone: the others see the seat go quiet, the clock keeps running.
        quiet = spectator.until(lambda f: f["type"] == "state"
                                and not f["data"]["players"][0]["connected"])["data"]
        assert quiet["version"] == before["version"]
        with ExitStack() as second_socket:
            again = connect(second_socket, client, token, "nina")
            again.next_id = nina.next_id  # move ids keep counting per seat
            resumed = again.join(match_id)
            assert resumed["seat"] == 0 and resumed["players"][0]["connected"]
            assert comparable(resumed) == comparable(before)
            assert resumed["view"]["hand"] and sorted(resumed["view"]["hand"]) == sorted(
                before["view"]["hand"])
            assert resumed["view"]["legal"] == before["view"]["legal"]
            back = spectator.until(lambda f: f["type"] == "state"
                                   and f["data"]["players"][0]["connected"])["data"]
            assert back["version"] == before["version"]
            final = play_from(again, resumed, random_chooser(8))
        watch(spectator, None)
    assert final["status"] == "finished"
    nina.sent.extend(again.sent)
    nina.frames.extend(again.frames)
    nina.raw.extend(again.raw)
    check_match(client, match_id, created["commitment"], {0: "nina"}, [nina], [spectator],
                player=token)


def play_from(c: Client, state: Frame, choose: Any) -> Frame:
    """Play on from a state already read (the answer to a join)."""
    if my_turn(state):
        c.move(choose(state["view"]))
        return play(c, None, choose, sent_for=state["version"])
    return play(c, None, choose)


def test_duplicate_and_stale_move_ids(client: TestClient) -> None:
    token = guest(client, "lia")
    created = create_table(client, token, "bloqueio", ["me", "bot:random"], options={})
    match_id = created["id"]
    with ExitStack() as stack:
        lia = connect(stack, client, token, "lia")
        lia.send("join", {"match": match_id})
        state = wait_my_turn(lia)
        lia.move(state["view"]["legal"][0], 0)
        ack = lia.until_type("ack")["data"]
        assert ack == {"id": 0, "version": state["version"] + 1}
        state = next_turn(lia)
        # The same id again: acknowledged as a duplicate, nothing played, whatever the action.
        for action in ("nonsense", state["view"]["legal"][-1]):
            lia.send("move", {"id": 0, "action": action})
            between = news(lia, state)
            assert [f["type"] for f in between] == ["ack"], between
            assert between[0]["data"] == {"id": 0, "version": state["version"],
                                          "duplicate": True}
            assert comparable(lia.join(match_id)) == comparable(state)
        # A jump forward is fine; then any lower id is stale.
        lia.move(state["view"]["legal"][0], 5)
        assert lia.until_type("ack")["data"]["id"] == 5
        state = next_turn(lia)
        for stale in (3, 0):
            lia.send("move", {"id": stale, "action": state["view"]["legal"][0]})
            between = news(lia, state)
            assert [f["type"] for f in between] == ["error"], between
            assert between[0]["data"]["code"] == "stale_move"
            assert between[0]["data"]["id"] == stale
            assert comparable(lia.join(match_id)) == comparable(state)
        lia.next_id = 6
        play_from(lia, state, random_chooser(9))
    rec = record.loads(client.get(f"/api/matches/{match_id}/record", headers=auth(token)).text)
    record.verify(rec)
    mine = [a for h in rec["hands"] for a in h["actions"] if a["seat"] == 0]
    assert len(mine) == len([a for a in lia.acks() if not a.get("duplicate")])


def next_turn(c: Client) -> Frame:
    """After an ack: the state where this client moves next (it may already have arrived, when
    the move ended a hand and this client opens the next one)."""
    last = c.states()[-1]
    return last if my_turn(last) else wait_my_turn(c)


def test_clock_follows_the_turn(client: TestClient) -> None:
    """Every state sent while a human is to move carries that human's clock, and none while a
    bot is to move or once the match is over."""
    token = guest(client, "ivo")
    created = create_table(client, token, "pontos", ["me", "bot:greedy"])
    with ExitStack() as stack:
        ivo = connect(stack, client, token, "ivo")
        play(ivo, created["id"], random_chooser(10))
    wrong = []
    for s in ivo.states():
        view = s["view"]
        if view is None:
            continue
        expected = view["turn"] if s["status"] == "playing" and view["turn"] == 0 else None
        shown = s["clock"] and s["clock"]["seat"]
        if shown != expected:
            wrong.append((s["version"], view["turn"], shown))
    assert not wrong, f"(version, turn, clock seat) out of step: {wrong[:5]}"
