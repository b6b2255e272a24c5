"""The server's frames as typed models (`carroca.server.realtime.wire`): the bytes they encode are
those of the plain dicts they replaced, they read back strictly, docs/protocol.md names every frame
and member of both directions (and nothing else), and the browser client's declarations
(`src/carroca/web/js/wire.d.ts`) are the ones the models generate."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal, get_args, get_origin

import msgspec
import orjson
import pytest
from pydantic import BaseModel

from carroca.server import records
from carroca.server.realtime import protocol, schema, wire
from carroca.server.tables.lobby import MODES

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
DECLARATIONS = ROOT / "src" / "carroca" / "web" / "js" / "wire.d.ts"

# Each frame with the dict the server sent for it before it was typed.
SAMPLES: list[tuple[wire.Data, dict[str, Any]]] = [
    (wire.Hello(player=wire.Player(id=7, name="Zé Ção", kind="guest"), node=None),
     {"player": {"id": 7, "name": "Zé Ção", "kind": "guest"}, "protocol": 1, "node": None}),
    (wire.Hello(player=wire.Player(id=7, name="ana", kind="account"), node="n2"),
     {"player": {"id": 7, "name": "ana", "kind": "account"}, "protocol": 1, "node": "n2"}),
    (wire.Owner(match="k3J9x0aQ2LmZ", node="n1"), {"match": "k3J9x0aQ2LmZ", "node": "n1"}),
    (wire.Ack(id=3, version=41), {"id": 3, "version": 41}),
    (wire.Ack(id=3, version=41, duplicate=True), {"id": 3, "version": 41, "duplicate": True}),
    (wire.Error(code="not_found", message="Partida não encontrada."),
     {"code": "not_found", "message": "Partida não encontrada."}),
    (wire.Error(code="stale_move", message="Jogada \"repetida\"\n", id=2**31),
     {"code": "stale_move", "message": "Jogada \"repetida\"\n", "id": 2**31}),
    (wire.ChatLine(seat=2, name="ana", text="oi 🁣 </script>", at=1754321098.1234567),
     {"seat": 2, "name": "ana", "text": "oi 🁣 </script>", "at": 1754321098.1234567}),
    (wire.Matched(match="abc", mode="ranked"), {"match": "abc", "mode": "ranked"}),
    (wire.Tournament(event="e1", name="Copa", status="finished"),
     {"event": "e1", "name": "Copa", "status": "finished"}),
    (wire.Tournament(event="e1", name="Copa", status="running", match="m", round=1, table=0,
                     game=2),
     {"event": "e1", "name": "Copa", "status": "running", "match": "m", "round": 1, "table": 0,
      "game": 2}),
    (wire.EventView(event="e1", version=None, view={"id": "e1", "status": "finished"}),
     {"event": "e1", "version": None, "view": {"id": "e1", "status": "finished"}}),
    (wire.EventChange(event="e1", version=7, set={"status": "running"},
                      standings=[{"entrant": "ana", "rank": 1}],
                      rounds=[{"round": 1, "byes": [], "tables": []}]),
     {"event": "e1", "version": 7, "set": {"status": "running"},
      "standings": [{"entrant": "ana", "rank": 1}],
      "rounds": [{"round": 1, "byes": [], "tables": []}]}),
    (wire.Rematch(match="a", id="b", mode="friends", by="ana"),
     {"match": "a", "id": "b", "mode": "friends", "by": "ana"}),
    (wire.Pong(), {}),
    (wire.Left(), {}),
    (wire.Muted(seats=[0, 3]), {"seats": [0, 3]}),
    (wire.Announcement(id=4, text="Manutenção às 23h"), {"id": 4, "text": "Manutenção às 23h"}),
    (wire.Announcement(id=None, text=None), {"id": None, "text": None}),
    (wire.Notice(match="m1", code="bots_simple", message="Modo simples."),
     {"match": "m1", "code": "bots_simple", "message": "Modo simples."}),
    (wire.Friends(friends=[wire.FriendPresence(id=3, name="Bia", state="offline", seen=1.5)]),
     {"friends": [{"id": 3, "name": "Bia", "state": "offline", "match": None, "event": None,
                   "seen": 1.5}]}),
    (wire.Challenge(id="c1", by="Ana", ruleset="mano-a-mano", options={"target": 100},
                    turn_seconds=20.0, seats=["Ana", "Bia"], expires=1754321098.5),
     {"id": "c1", "by": "Ana", "ruleset": "mano-a-mano", "options": {"target": 100},
      "turn_seconds": 20.0, "seats": ["Ana", "Bia"], "expires": 1754321098.5}),
    (wire.ChallengeEnd(id="c1", status="accepted", match="m"),
     {"id": "c1", "status": "accepted", "match": "m", "by": None}),
    (wire.GameEnd(match="m", status="finished"), {"match": "m", "status": "finished"}),
    (wire.Presence(friend=wire.FriendPresence(id=3, name="Bia", state="playing", match="m")),
     {"friend": {"id": 3, "name": "Bia", "state": "playing", "match": "m", "event": None,
                 "seen": None}}),
]


def old_envelope(kind: str, data: Any) -> str:
    """How frames were encoded before they were typed (orjson over plain dicts)."""
    return orjson.dumps({"type": kind, "data": data}, option=orjson.OPT_NON_STR_KEYS).decode()


@pytest.mark.parametrize(("data", "plain"), SAMPLES)
def test_the_bytes_of_the_untyped_frames(data: wire.Data, plain: dict[str, Any]) -> None:
    assert wire.frame(data) == old_envelope(data.kind, plain)
    assert protocol.envelope(data.kind, data) == wire.frame(data)
    assert wire.decode(wire.frame(data)) == data


def test_every_frame_kind_has_a_sample() -> None:
    assert {d.kind for d, _ in SAMPLES} | {"state"} == {cls.kind for cls in wire.FRAMES}


def test_errors_with_and_without_a_move_id() -> None:
    assert protocol.error("x", "y") == old_envelope("error", {"code": "x", "message": "y"})
    assert protocol.error("x", "y", 0) == old_envelope("error",
                                                       {"code": "x", "message": "y", "id": 0})


@pytest.mark.parametrize("text", [
    '{"type": "ack", "data": {"id": 1}}',  # a member missing
    '{"type": "ack", "data": {"id": 1, "version": 2, "extra": 3}}',  # a member unknown
    '{"type": "ack", "data": {"id": "1", "version": 2}}',  # of the wrong type
    '{"type": "pong", "data": {}, "more": 1}',
])
def test_decode_is_strict(text: str) -> None:
    with pytest.raises((msgspec.ValidationError, KeyError)):
        wire.decode(text)


def test_the_schema_covers_both_directions() -> None:
    published = schema.schema()
    client = {d["properties"]["type"]["const"] for d in published["client"]["$defs"].values()
              if "type" in d.get("properties", {}) and "const" in d["properties"]["type"]}
    assert client == set(protocol.TYPES)
    server = published["server"]
    kinds = {server["$defs"][ref["$ref"].rsplit("/", 1)[1]]["properties"]["type"]["const"]
             for ref in server["oneOf"]}
    assert kinds == {cls.kind for cls in wire.FRAMES}
    assert server["$defs"]["State"]["properties"]["view"]["anyOf"][0] == {
        "$ref": "#/$defs/View"}


def test_the_declarations_are_generated_from_the_models() -> None:
    """Stale? Regenerate:
    python -m carroca.server.realtime.schema --typescript > src/carroca/web/js/wire.d.ts"""
    assert DECLARATIONS.read_text(encoding="utf-8") == schema.typescript()
    text = DECLARATIONS.read_text(encoding="utf-8")
    for cls in wire.FRAMES:
        assert f'export interface {cls.kind.capitalize()}Frame {{\n  type: "{cls.kind}";' in text


NAME_SETS = {name: get_args(value) for name, value in vars(wire).items()
             if get_origin(value) is Literal}


def test_the_declarations_type_each_set_of_names_as_its_union() -> None:
    text = schema.typescript()
    assert {"End", "StepType", "Phase", "Mode", "TableStatus", "PlayerKind"} <= set(NAME_SETS)
    for name, values in NAME_SETS.items():
        union = " | ".join(f'"{v}"' for v in values)
        assert f"export type {name} = {union};\n" in text
    members = ("  kind: PlayerKind;", "  mode: Mode;", "  status: TableStatus;",
               "  phase: Phase;", "  type: StepType;", "  end?: End;",
               "  ends: Partial<Record<End, number>>;", "  result: Result | null;",
               "  last_hand: LastHand | null;", "  kind: HandEndKind;")
    for member in members:
        assert f"\n{member}\n" in text, member


def test_a_frame_without_members_takes_no_member() -> None:
    """An empty interface would accept any object: `pong`, `left` and the client's empty data
    are declared to hold nothing."""
    text = schema.typescript()
    for name in ("Pong", "Left", "ClientEmptyData"):
        assert f"export type {name} = Record<string, never>;\n" in text
    assert not re.search(r"\{\n\}", text), "an empty interface"


def test_the_sets_of_names_are_the_servers() -> None:
    assert set(get_args(wire.Mode)) == {*MODES, "tournament"}
    assert wire.PlayerKind is records.PlayerKind


@pytest.mark.parametrize("text", [
    '{"id": "m2", "by": null}',  # a rematch is asked by someone
    '{"id": "m2", "by": "ana", "extra": 1}',
])
def test_a_rematch_names_who_asked(text: str) -> None:
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(text, type=wire.RematchAsked)
    assert msgspec.json.decode('{"id": "m2", "by": "ana"}', type=wire.RematchAsked).by == "ana"


@pytest.mark.parametrize("step", [
    {"seat": 0, "type": "play", "tile": "6-6", "end": None},  # the opening leaves `end` out
    {"seat": 0, "type": "jump"},
    {"seat": 0, "type": "play", "tile": "6-5", "end": "top"},
    {"seat": 0, "type": "five-doubles", "choice": "both"},
])
def test_a_step_says_only_what_is_sent(step: dict[str, Any]) -> None:
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert(step, wire.Step, strict=True)


# ---------------------------------------------------------------------- docs/protocol.md


def section(title: str) -> str:
    start = DOC.index(f"### {title}\n")
    end = DOC.index("\n### ", start + 1)
    return DOC[start:end]


def table_rows(text: str) -> dict[str, set[str]]:
    """`| type(s) | data |` rows: each type with the member names quoted in its row (not the
    values: `"status": "finished"`, `` `"cancelled"` ``)."""
    rows: dict[str, set[str]] = {}
    for line in text.splitlines():
        cells = line.split("|")
        if len(cells) < 4 or not cells[1].strip().startswith("`"):
            continue
        kinds = re.findall(r"`(\w+)`", cells[1])
        names = set(re.findall(r'(?<!: )"(\w+)"(?!`)', "|".join(cells[2:])))
        for kind in kinds:
            rows[kind] = names
    return rows


def struct_names(cls: type[msgspec.Struct]) -> tuple[set[str], set[str]]:
    """A Struct's own members, and those of the Structs inside it (documented in its row)."""
    own = {f.encode_name for f in msgspec.structs.fields(cls)}
    nested: set[str] = set()
    for f in msgspec.structs.fields(cls):
        for sub in re.findall(r"\b[A-Z]\w+", str(f.type)):
            found = getattr(wire, sub, None)
            if isinstance(found, type) and issubclass(found, msgspec.Struct):
                nested |= {g.encode_name for g in msgspec.structs.fields(found)}
    return own, nested


def test_docs_name_every_server_frame_and_member() -> None:
    rows = table_rows(section("Server → client"))
    by_kind = {cls.kind: cls for cls in wire.FRAMES}
    assert set(rows) == set(by_kind), "frame types documented ≠ frame types sent"
    for kind, documented in rows.items():
        if kind == "state":  # documented below its table
            continue
        own, nested = struct_names(by_kind[kind])
        assert own <= documented, f"{kind}: {sorted(own - documented)} undocumented"
        assert documented <= own | nested, f"{kind}: {sorted(documented - own)} not sent"


def test_docs_name_every_member_of_a_state() -> None:
    start = DOC.index("A `state`:")
    text = DOC[start:DOC.index("\n### ", start)]
    example = text[text.index("```json"):text.index("```", text.index("```json") + 3)]
    quoted = set(re.findall(r'"(\w+)":', re.sub(r'"options": \{.*?\}', "", example)))
    mentioned = set(re.findall(r"`(\w+)`", text)) | quoted
    own, nested = struct_names(wire.State)
    assert own <= mentioned, f"undocumented: {sorted(own - mentioned)}"
    view = {f.encode_name for f in msgspec.structs.fields(wire.View)}
    assert view <= mentioned, f"undocumented in view: {sorted(view - mentioned)}"
    assert quoted <= own | nested | view, f"not sent: {sorted(quoted - own - nested - view)}"
    inner = set(re.findall(r'"(\w+)"', text))  # `{"kind", "seat"}`: the view's own objects
    for cls in (wire.TableSpot, wire.Step, wire.LastHand, wire.HandEnd, wire.ScoreEvent,
                wire.Result):
        names = {f.encode_name for f in msgspec.structs.fields(cls)}
        assert names <= inner, f"undocumented in {cls.__name__}: {sorted(names - inner)}"
    for name in ("Mode", "TableStatus", "Phase", "End", "StepType", "FiveChoice", "HandEndKind",
                 "ResultReason"):
        values, named = set(NAME_SETS[name]), set(re.findall(r"`([\w-]+)`", text))
        assert values <= named, f"{name}: {sorted(values - named)} undocumented"


def test_docs_name_every_client_message_and_member() -> None:
    rows = table_rows(section("Client → server"))
    assert set(rows) == set(protocol.TYPES)
    messages: tuple[type[BaseModel], ...] = get_args(get_args(protocol.ClientMessage)[0])
    for message in messages:
        (kind,) = get_args(message.model_fields["type"].annotation)
        data = message.model_fields["data"].annotation
        assert isinstance(data, type) and issubclass(data, BaseModel)
        assert rows[kind] == set(data.model_fields), kind
