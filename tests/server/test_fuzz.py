"""Fuzzing the WebSocket protocol: whatever a client sends, the table does not change.

A two-human 1v1 table with a long clock stays still while its player to move (`mover`), the
other player (`idle`) and a spectator send bad frames: malformed or non-object JSON, unknown
types, missing, extra or wrong-typed fields, out-of-turn and illegal moves, moves without a seat,
replayed ids, and arbitrary JSON values and text from Hypothesis. Each refusal must be one typed
`error` (a `code` and a Portuguese `message`); the socket must still answer a ping, unless the
frame must close it (binary: 1003, over 4096 bytes: 1009); and a fresh `join` must show the same
version and view as before.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect
from tests.support.examples import examples
from tests.support.server_app import guest
from tests.support.wsplay import Client, Frame, auth, connect

from carroca.rules import RulesError, actions

TYPES = ("join", "leave", "move", "chat", "mute", "ping")
REPLIES = {"error", "pong", "left", "muted", "chat", "state"}  # what a frame may be answered by
CODE = re.compile(r"[a-z][a-z_]*")
#: Words of the English messages a validation library writes; none may reach a player.
ENGLISH = re.compile(r"\b(Input|should|Field required|Extra inputs|permitted|String|valid "
                     r"(integer|string|dictionary)|instance of|at least|at most|less than)\b")
FUZZ = settings(max_examples=examples(100), deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12,
)


@dataclass
class Table:
    """A started table and its three clients; `before` is each seat's state at the start."""

    id: str
    mover: Client
    idle: Client
    spectator: Client
    before: dict[str, Frame]
    tokens: dict[str, str]

    def legal(self) -> list[str]:
        return list(self.before["mover"]["view"]["legal"])


def comparable(state: Frame) -> Frame:
    """What must not change while nobody plays: all but the clock's countdown and the
    `connected` flags (a re-join on one socket toggles them)."""
    return {k: v for k, v in state.items() if k not in ("clock", "players")}


NAMES = ("mover", "idle", "spectator")


@contextmanager
def still_table(client: TestClient, ruleset: str = "pontos") -> Iterator[Table]:
    """Two humans and a spectator at a started table, nobody moving (120 s clock)."""
    a, b, fan = guest(client, "ana"), guest(client, "beto"), guest(client, "cris")
    r = client.post("/api/tables", headers=auth(a), json={
        "ruleset": ruleset, "seats": ["me", "open"], "turn_seconds": 120})
    assert r.status_code == 201, r.text
    created = r.json()
    r = client.post("/api/tables/join", headers=auth(b), json={"invite": created["invite"]})
    assert r.status_code == 200, r.text
    with ExitStack() as stack:
        ca, cb = connect(stack, client, a, "ana"), connect(stack, client, b, "beto")
        spectator = connect(stack, client, fan, "cris")
        turn = ca.join(created["id"])["view"]["turn"]
        cb.join(created["id"])
        spectator.join(created["id"])
        assert turn in (0, 1)
        mover, idle = (ca, cb) if turn == 0 else (cb, ca)
        tokens = {"mover": a if turn == 0 else b, "idle": b if turn == 0 else a, "spectator": fan}
        table = Table(created["id"], mover, idle, spectator, {}, tokens)
        settle(table)
        assert table.before["mover"]["status"] == "playing"
        yield table
        assert_unchanged(client, table)


def settle(table: Table) -> None:
    """Read what every client has pending; `before` becomes each one's latest state."""
    for name in NAMES:
        c: Client = getattr(table, name)
        c.ping()
        table.before[name] = c.states()[-1]


def drain(table: Table) -> None:
    """Read what every client has pending: states must be unchanged (a re-join publishes one
    to the others), anything else a chat line."""
    for name in NAMES:
        c: Client = getattr(table, name)
        for f in c.ping():
            assert f["type"] in ("state", "chat"), (name, f)
            if f["type"] == "state":
                assert comparable(f["data"]) == comparable(table.before[name]), name


def assert_unchanged(client: TestClient, table: Table) -> None:
    """Every client, joining again, sees what it saw at the start."""
    for name in NAMES:
        c: Client = getattr(table, name)
        c.ping()
        now = c.join(table.id)
        assert comparable(now) == comparable(table.before[name]), name
    drain(table)
    info = client.get(f"/api/matches/{table.id}").json()
    assert info["status"] == "playing"
    assert info["score"] == table.before["mover"]["view"]["score"]


def check_error(frame: Frame, code: str | None = None) -> None:
    assert frame["type"] == "error", frame
    data = frame["data"]
    assert set(data) <= {"code", "message", "id"}, data
    assert isinstance(data["code"], str) and CODE.fullmatch(data["code"]), data
    assert code is None or data["code"] == code, (code, data)
    assert isinstance(data["message"], str) and data["message"].strip(), data


def answers(c: Client, text: str) -> list[Frame]:
    """Send one raw text frame; returns what came back before the pong of a ping sent after
    it (the socket must still be open)."""
    c.ws.send_text(text)
    return c.ping()


def refused(c: Client, text: str, code: str | None = None) -> Frame:
    """The frame is answered by exactly one typed error (and nothing else); returns it."""
    got = answers(c, text)
    assert len(got) == 1, (text[:80], got)
    check_error(got[0], code)
    return got[0]["data"]  # type: ignore[no-any-return]


def move_text(move_id: Any, action: Any) -> str:
    return json.dumps({"type": "move", "data": {"id": move_id, "action": action}})


#: (frame, code): each is refused by the protocol layer before anything else looks at it.
MALFORMED: list[tuple[str, str]] = [
    ("", "bad_json"), ("{", "bad_json"), ("not json", "bad_json"), ("{'type': 'ping'}", "bad_json"),
    ('{"type": "ping",}', "bad_json"), ("\x00", "bad_json"),
    ("[]", "bad_message"), ("1", "bad_message"), ('"ping"', "bad_message"),
    ("null", "bad_message"), ("true", "bad_message"), ("NaN", "bad_message"),
    ('[{"type": "ping"}]', "bad_message"),
    ("{}", "unknown_type"), ('{"data": {}}', "unknown_type"), ('{"type": "dance"}', "unknown_type"),
    ('{"type": "PING"}', "unknown_type"), ('{"type": 1}', "unknown_type"),
    ('{"type": null}', "unknown_type"), ('{"type": ["ping"]}', "unknown_type"),
    ('{"type": {"ping": 1}}', "unknown_type"), ('{"type": " ping"}', "unknown_type"),
    ('{"type": "move"}', "bad_message"), ('{"type": "move", "data": {}}', "bad_message"),
    ('{"type": "move", "data": {"id": 1}}', "bad_message"),
    ('{"type": "move", "data": {"action": "pass"}}', "bad_message"),
    (move_text("1", "pass"), "bad_message"), (move_text(1.0, "pass"), "bad_message"),
    (move_text(True, "pass"), "bad_message"), (move_text(-1, "pass"), "bad_message"),
    (move_text(2**31 + 1, "pass"), "bad_message"), (move_text(None, "pass"), "bad_message"),
    (move_text(1, ""), "bad_message"), (move_text(1, "x" * 25), "bad_message"),
    (move_text(1, 5), "bad_message"), (move_text(1, ["6-6"]), "bad_message"),
    ('{"type": "move", "data": {"id": 1, "action": "pass", "seat": 1}}', "bad_message"),
    ('{"type": "move", "data": {"id": 1, "action": "pass"}, "seat": 1}', "bad_message"),
    ('{"type": "move", "data": [1, "pass"]}', "bad_message"),
    ('{"type": "move", "data": "pass"}', "bad_message"),
    ('{"type": "join"}', "bad_message"), ('{"type": "join", "data": {"match": ""}}', "bad_message"),
    ('{"type": "join", "data": {"match": 5}}', "bad_message"),
    ('{"type": "join", "data": {"match": "' + "x" * 17 + '"}}', "bad_message"),
    ('{"type": "join", "data": {"match": "abc", "client_seed": "a b"}}', "bad_message"),
    ('{"type": "join", "data": {"match": "abc", "client_seed": ""}}', "bad_message"),
    ('{"type": "join", "data": {"match": "abc", "seat": 0}}', "bad_message"),
    ('{"type": "join", "data": {"match": "nowhere"}}', "not_found"),
    ('{"type": "chat", "data": {"text": ""}}', "bad_message"),
    ('{"type": "chat", "data": {"text": "' + "a" * 201 + '"}}', "bad_message"),
    ('{"type": "chat", "data": {"text": 5}}', "bad_message"),
    ('{"type": "chat", "data": {"text": "oi", "seat": 1}}', "bad_message"),
    ('{"type": "mute", "data": {"seat": 4, "muted": true}}', "bad_message"),
    ('{"type": "mute", "data": {"seat": -1, "muted": true}}', "bad_message"),
    ('{"type": "mute", "data": {"seat": 0, "muted": "yes"}}', "bad_message"),
    ('{"type": "mute", "data": {"seat": 0, "muted": 1}}', "bad_message"),
    ('{"type": "mute", "data": {"seat": 0}}', "bad_message"),
    ('{"type": "ping", "data": {"x": 1}}', "bad_message"),
    ('{"type": "ping", "data": null}', "bad_message"),
    ('{"type": "ping", "data": []}', "bad_message"),
    ('{"type": "ping", "extra": 1}', "bad_message"),
    ('{"type": "leave", "data": {"match": "abc"}}', "bad_message"),
]


def test_malformed_frames_are_refused_and_change_nothing(client: TestClient) -> None:
    with still_table(client) as table:
        for c in (table.mover, table.idle, table.spectator):
            for text, code in MALFORMED:
                refused(c, text, code)


def test_rules_refusals_change_nothing(client: TestClient) -> None:
    with still_table(client) as table:
        mover, idle = table.mover, table.idle
        legal = table.legal()
        hand = table.before["mover"]["view"]["hand"]
        idle_hand = table.before["idle"]["view"]["hand"]
        # Out of turn: the other player's own tiles, the mover's legal moves, draw and pass.
        for i, action in enumerate([*idle_hand, *legal, "draw", "pass"]):
            got = refused(idle, move_text(i, action), "not_your_turn")
            assert got["id"] == i
        # The mover: tiles not in hand, tiles that do not fit, actions of other rulesets.
        tiles = [f"{a}-{b}" for a in range(7) for b in range(a, 7)]
        wrong = [t for t in tiles if t not in legal] + [f"{t}:left" for t in hand]
        wrong += ["pass", "five-doubles:points", "five-doubles:redeal"]
        if table.before["mover"]["view"]["table"] == []:
            wrong += [f"{legal[0]}:up", f"{legal[0]}:right"]
        for i, action in enumerate(wrong):
            got = refused(mover, move_text(100 + i, action))
            assert got["code"] in ("illegal_move", "invalid_action"), (action, got)
            assert got["id"] == 100 + i
        for i, action in enumerate(["7-7", "6-", "a-b", "dance", "6-6:sideways", "draw:left",
                                    "6-6:", ":left", "-1-2", "66"]):
            got = refused(mover, move_text(200 + i, action))
            assert got["code"] in ("invalid_tile", "invalid_action"), (action, got)
        # No seat here: the spectator, and a socket that follows no table at all.
        for action in legal:
            assert refused(table.spectator, move_text(7, action), "not_seated")["id"] == 7
        refused(table.spectator, json.dumps({"type": "chat", "data": {"text": "oi"}}),
                "not_seated")
        with ExitStack() as stack:
            lost = connect(stack, client, table.tokens["mover"], "lost")
            for action in legal:
                refused(lost, move_text(0, action), "not_seated")
            # Leaving the table turns the seat's moves away too, until it joins again.
            mover.send("leave")
            assert mover.until(lambda f: f["type"] != "pong")["type"] == "left"
            refused(mover, move_text(300, legal[0]), "not_seated")
            mover.join(table.id)


def test_replayed_ids_change_nothing(client: TestClient) -> None:
    """After a move with id 10: id 10 again is a duplicate, a lower one is stale, whatever the
    action says."""
    with still_table(client) as table:
        mover = table.mover
        mover.move(table.legal()[0], 10)
        ack = mover.until_type("ack")["data"]
        assert ack == {"id": 10, "version": table.before["mover"]["version"] + 1}
        # Now the other player is to move: this is the still table again.
        settle(table)
        assert table.before["idle"]["view"]["turn"] == table.before["idle"]["seat"]
        version = ack["version"]

        @FUZZ
        @given(st.integers(0, 10), st.text(min_size=1, max_size=24) | st.sampled_from(
            [*table.before["idle"]["view"]["legal"], "draw", "pass"]))
        def replay(move_id: int, action: str) -> None:
            got = answers(mover, move_text(move_id, action))
            assert len(got) == 1, got
            if move_id == 10:
                assert got[0] == {"type": "ack",
                                  "data": {"id": 10, "version": version, "duplicate": True}}
            else:
                check_error(got[0], "stale_move")
                assert got[0]["data"]["id"] == move_id

        replay()


def test_binary_frames_close_with_1003(client: TestClient) -> None:
    with still_table(client) as table, ExitStack() as stack:
        for payload in (b"", b"\x00\xff", json.dumps({"type": "ping", "data": {}}).encode()):
            c = connect(stack, client, table.tokens["mover"], "binary")
            c.join(table.id)
            c.ws.send_bytes(payload)
            with pytest.raises(WebSocketDisconnect) as closed:
                c.until(lambda f: False, timeout=10)
            assert closed.value.code == 1003


def frame_of(size: int) -> str:
    """A valid ping frame of exactly `size` bytes (ASCII spaces pad it)."""
    base = '{"type":"ping","data":{}}'
    return base + " " * (size - len(base))


def test_frames_over_4096_bytes_close_with_1009(client: TestClient) -> None:
    with still_table(client) as table, ExitStack() as stack:
        c = connect(stack, client, table.tokens["mover"], "big")
        c.ws.send_text(frame_of(4096))  # the limit itself is fine
        assert c.until(lambda f: True)["type"] == "pong"
        for size in (4097, 100_000):
            c = connect(stack, client, table.tokens["mover"], "big")
            c.join(table.id)
            c.ws.send_text(frame_of(size))
            with pytest.raises(WebSocketDisconnect) as closed:
                c.until(lambda f: False, timeout=10)
            assert closed.value.code == 1009


def test_the_frame_limit_counts_bytes(client: TestClient) -> None:
    with still_table(client) as table, ExitStack() as stack:
        c = connect(stack, client, table.tokens["mover"], "wide")
        text = json.dumps({"type": "chat", "data": {"text": "é" * 2100}}, ensure_ascii=False)
        assert len(text) <= 4096 < len(text.encode())
        c.ws.send_text(text)
        c.send("ping")  # a pong would mean the socket stayed open
        with pytest.raises(WebSocketDisconnect) as closed:
            c.until_type("pong", timeout=10)
        assert closed.value.code == 1009


def test_deeply_nested_json_is_a_typed_error(client: TestClient) -> None:
    with still_table(client) as table, ExitStack() as stack:
        c = connect(stack, client, table.tokens["spectator"], "deep")
        for text in ("[" * 2000 + "]" * 2000,
                     '{"type": "ping", "data": ' + "{" * 1000 + "}" * 1000 + "}"):
            assert len(text.encode()) <= 4096
            c.ws.send_text(text)
            got = c.recv(timeout=3)
            check_error(got, "bad_json")


def test_field_errors_are_in_portuguese(client: TestClient) -> None:
    with still_table(client) as table:
        english = []
        for text, code in MALFORMED:
            message = refused(table.spectator, text, code)["message"]
            if ENGLISH.search(message):
                english.append(message)
        assert not english, english[:5]


def plays(text: str, legal: list[str]) -> bool:
    """Whether a frame is, or may be read as, one of the mover's legal moves (the only frames
    that rightly change the table); the engine reads actions leniently (` 6|6 `, `PASSO`)."""
    try:
        raw = json.loads(text)
    except (ValueError, RecursionError):
        return False
    data = raw.get("data") if isinstance(raw, dict) else None
    if not (isinstance(data, dict) and raw.get("type") == "move"):
        return False
    try:
        return str(actions.parse(data.get("action"))) in legal  # type: ignore[arg-type]
    except (RulesError, AttributeError, TypeError):
        return False


def expected_code(raw_text: str) -> str | None:
    """The refusal a frame must get from the first checks alone (None: it gets further)."""
    try:
        raw = json.loads(raw_text)
    except (ValueError, RecursionError):
        return "bad_json"
    if not isinstance(raw, dict):
        return "bad_message"
    if not isinstance(raw.get("type"), str) or raw["type"] not in TYPES:
        return "unknown_type"
    return None


def check_answer(text: str, got: list[Frame]) -> None:
    """One frame's answer: a single typed error, or the reply of a valid message."""
    assert {f["type"] for f in got} <= REPLIES, (text[:80], got)
    errors = [f for f in got if f["type"] == "error"]
    for e in errors:
        check_error(e)
    code = expected_code(text)
    if code is not None:
        assert len(got) == 1 and errors, (text[:80], got)
        check_error(errors[0], code)
    elif errors:
        assert len(got) == 1, (text[:80], got)
    else:  # a valid message: ping (its pong came first), leave, mute or chat
        kind = json.loads(text)["type"]
        replies = {"ping": [], "leave": ["left"], "mute": ["muted"], "chat": ["chat"]}
        assert [f["type"] for f in got] == replies.get(kind), (text[:80], got)


def fuzz(table: Table, texts: st.SearchStrategy[str]) -> None:
    """Send each generated frame from one of the clients; after each, the table is unchanged."""
    legal = table.legal()

    @FUZZ
    @given(texts, st.sampled_from(NAMES))
    def run(text: str, who: str) -> None:
        if who == "mover" and plays(text, legal):
            return  # a legal move would (rightly) change the table
        c: Client = getattr(table, who)
        got = answers(c, text)
        for f in got:
            if f["type"] == "state":  # published by an earlier re-join: nothing new
                assert comparable(f["data"]) == comparable(table.before[who])
        check_answer(text, [f for f in got if f["type"] != "state"])
        # A fresh join shows the same table (and undoes a valid `leave`).
        assert comparable(c.join(table.id)) == comparable(table.before[who])
        drain(table)

    run()


def test_fuzz_json_values(client: TestClient) -> None:
    with still_table(client) as table:
        fuzz(table, json_values.map(json.dumps))


def test_fuzz_messages_of_every_type(client: TestClient) -> None:
    """Right type, arbitrary data: the frames that reach field validation."""
    messages = st.fixed_dictionaries(
        {"type": st.sampled_from(TYPES)},
        optional={"data": json_values | st.fixed_dictionaries(
            {}, optional={"id": json_values | st.integers(-5, 2**32),
                          "action": json_values | st.sampled_from(["6-6", "draw", "pass"]),
                          "match": json_values, "text": json_values, "seat": json_values,
                          "muted": json_values, "client_seed": json_values})},
    )
    with still_table(client) as table:
        fuzz(table, messages.map(json.dumps))


def test_fuzz_text_frames(client: TestClient) -> None:
    with still_table(client) as table:
        fuzz(table, st.text(max_size=300) | st.text("{}[]\":,0123456789.-eEtruflsn ",
                                                     max_size=60))
