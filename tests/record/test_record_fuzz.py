"""Properties: `verify` raises nothing but RecordError, and catches every meaningful change.

The inputs are arbitrary JSON values and random mutations of real records. A mutation of the
second kind is one that no consistent record can survive (a changed score, seat, deal or drawn
tile, a dropped, duplicated or swapped action, a deleted required key, a scalar turned into
text); it must be refused in the hand it touched.
"""

from __future__ import annotations

import contextlib
import functools
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.support.examples import examples
from tests.support.records import GOLDEN, sample_records

from carroca.record import RecordError, dumps, loads, verify
from carroca.rules import Match
from carroca.rules import tiles as T

FUZZ = settings(
    max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)

Path = tuple[str | int, ...]

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
    | st.sampled_from(["0-0", "6-3", "6-6", "play", "draw", "left", "up", "batida", "target"])
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=12,
)


@functools.cache
def lines() -> tuple[str, ...]:
    return tuple(line for _, line in sample_records()) + tuple(
        dumps(spec.record()) for spec in GOLDEN.values()
    )


def check(value: object) -> Match | RecordError:
    """Verify, allowing only RecordError out."""
    try:
        return verify(value)
    except RecordError as exc:
        assert str(exc)
        return exc


def paths(value: Any, prefix: Path = ()) -> list[Path]:
    """Every place in a JSON value, parents before children."""
    out = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            out += paths(item, (*prefix, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out += paths(item, (*prefix, i))
    return out


def at(value: Any, path: Path) -> Any:
    for key in path:
        value = value[key]
    return value


# --------------------------------------------------------------------------- never crashes


@FUZZ
@given(json_values)
def test_arbitrary_json(value: object) -> None:
    assert isinstance(check(value), RecordError)


@FUZZ
@given(
    st.fixed_dictionaries(
        {},
        optional={
            "format": st.just("carroca-record/1") | json_values,
            "ruleset": st.sampled_from(["duplas-pontos", "mano-a-mano", "pontos"]) | json_values,
            "options": st.just({"target": 100}) | json_values,
            "players": st.just(["a", "b"]) | json_values,
            "fairness": json_values,
            "hands": st.lists(json_values, max_size=3) | json_values,
            "result": json_values,
        },
    )
)
def test_record_shaped_json(value: dict[str, Any]) -> None:
    check(value)


@FUZZ
@given(st.text(max_size=40) | st.binary(max_size=40))
def test_loads_of_anything(text: str | bytes) -> None:
    with contextlib.suppress(RecordError):
        loads(text)


@FUZZ
@given(json_values)
def test_dumps_loads(value: object) -> None:
    assert loads(dumps(value)) == value


@FUZZ
@given(st.data())
def test_random_mutations_never_crash(data: st.DataObject) -> None:
    rec = loads(data.draw(st.sampled_from(lines())))
    for _ in range(data.draw(st.integers(1, 3))):
        places = paths(rec)
        path = data.draw(st.sampled_from(places))
        op = data.draw(st.sampled_from(["replace", "flip", "delete", "duplicate", "swap", "add"]))
        if not path:
            rec = data.draw(json_values)
            continue
        parent, key = at(rec, path[:-1]), path[-1]
        value = parent[key]
        if op == "replace":
            parent[key] = data.draw(json_values)
        elif op == "flip":
            if isinstance(value, bool):
                parent[key] = not value
            elif isinstance(value, int):
                parent[key] = value + data.draw(st.sampled_from([-1, 1, 5, -(2**40)]))
            elif isinstance(value, str):
                parent[key] = value[::-1] + data.draw(st.sampled_from(["", "0", "-"]))
        elif op == "delete":
            del parent[key]
        elif op == "duplicate" and isinstance(parent, list):
            parent.insert(int(key), json.loads(json.dumps(value)))
        elif op == "swap" and isinstance(parent, list) and len(parent) > 1:
            i, other = int(key), data.draw(st.integers(0, len(parent) - 1))
            parent[i], parent[other] = parent[other], parent[i]
        elif op == "add" and isinstance(value, dict):
            value[data.draw(st.text(max_size=6))] = data.draw(json_values)
    check(rec)


# --------------------------------------------------------------------------- meaning is checked

_OPTIONAL_KEYS = {"auto", "pneu"}


def _under_hands(path: Path) -> int | None:
    return int(path[1]) if len(path) > 1 and path[0] == "hands" else None


def _under_action(path: Path) -> int | None:
    if len(path) > 3 and path[0] == "hands" and path[2] == "actions":
        return int(path[3])
    return None


def _refused_in_place(rec: dict[str, Any], path: Path) -> None:
    result = check(rec)
    assert isinstance(result, RecordError), f"mutation at {path} was accepted"
    hand = _under_hands(path)
    if hand is not None:
        assert result.hand == hand, (path, str(result))
    action = _under_action(path)
    if action is not None:
        assert result.action is not None and result.action >= action, (path, str(result))


@FUZZ
@given(st.data())
def test_changed_numbers_are_refused(data: st.DataObject) -> None:
    rec = loads(data.draw(st.sampled_from(lines())))
    places = [
        p
        for p in paths(rec)
        if p and p[0] in ("hands", "result")
        and isinstance(at(rec, p), int) and not isinstance(at(rec, p), bool)
    ]
    path = data.draw(st.sampled_from(places))
    delta = data.draw(st.integers(-9, 9).filter(bool))
    at(rec, path[:-1])[path[-1]] += delta
    _refused_in_place(rec, path)


@FUZZ
@given(st.data())
def test_scalars_turned_into_text_are_refused(data: st.DataObject) -> None:
    rec = loads(data.draw(st.sampled_from(lines())))
    places = [
        p for p in paths(rec)
        if p and p[0] != "players" and not isinstance(at(rec, p), dict | list)
    ]
    path = data.draw(st.sampled_from(places))
    at(rec, path[:-1])[path[-1]] = "x"
    _refused_in_place(rec, path)


@FUZZ
@given(st.data())
def test_deleted_required_keys_are_refused(data: st.DataObject) -> None:
    rec = loads(data.draw(st.sampled_from(lines())))
    places = [
        p for p in paths(rec)
        if p and isinstance(p[-1], str) and p[-1] not in _OPTIONAL_KEYS
    ]
    path = data.draw(st.sampled_from(places))
    del at(rec, path[:-1])[path[-1]]
    _refused_in_place(rec, path)


@FUZZ
@given(st.data())
def test_changed_tiles_of_deals_and_draws_are_refused(data: st.DataObject) -> None:
    rec = loads(data.draw(st.sampled_from(lines())))
    places = [
        p for p in paths(rec)
        if p and p[0] == "hands" and len(p) > 2 and (
            (p[2] in ("dealt", "boneyard") and isinstance(at(rec, p), str))
            or (p[2] == "actions" and p[-1] == "tile" and at(rec, p[:-1])["type"] == "draw")
        )
    ]
    path = data.draw(st.sampled_from(places))
    old = at(rec, path)
    new = data.draw(st.sampled_from([n for n in T.NAMES if n != old]))
    at(rec, path[:-1])[path[-1]] = new
    _refused_in_place(rec, path)


@FUZZ
@given(st.data())
def test_dropped_duplicated_or_swapped_actions_are_refused(data: st.DataObject) -> None:
    rec = loads(data.draw(st.sampled_from(lines())))
    h = data.draw(st.integers(0, len(rec["hands"]) - 1))
    actions = rec["hands"][h]["actions"]
    j = data.draw(st.integers(0, len(actions) - 1))
    op = data.draw(st.sampled_from(["drop", "duplicate", "swap"]))
    if op == "drop":
        del actions[j]
    elif op == "duplicate":
        actions.insert(j, dict(actions[j]))
    else:
        k = j + 1 if j + 1 < len(actions) else j - 1
        if k < 0 or actions[j] == actions[k]:
            return
        actions[j], actions[k] = actions[k], actions[j]
        j = min(j, k)
    _refused_in_place(rec, ("hands", h, "actions", j))


@FUZZ
@given(st.data())
def test_changed_seeds_are_refused(data: st.DataObject) -> None:
    rec = loads(data.draw(st.sampled_from(lines())))
    key = data.draw(st.sampled_from(["commitment", "server_seed", "client_seed"]))
    old = rec["fairness"][key]
    new = data.draw(
        st.text("0123456789abcdef", min_size=64, max_size=64)
        if key != "client_seed"
        else st.text(max_size=12)
    )
    if new == old:
        return
    rec["fairness"][key] = new
    assert isinstance(check(rec), RecordError)
