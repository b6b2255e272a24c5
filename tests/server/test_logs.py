"""The log's format and its flood guard, line by line (tests/security/test_logs.py tries them
on a running server)."""

from __future__ import annotations

import json
import logging

import pytest

from carroca.server.logs import Json, Repeats, Text, configure


def record(msg: str, *args: object, level: int = logging.WARNING, **extra: object
           ) -> logging.LogRecord:
    rec = logging.LogRecord("carroca.server", level, __file__, 1, msg, args, None)
    for k, v in extra.items():
        setattr(rec, k, v)
    return rec


def test_a_repeated_line_is_held_back_then_counted() -> None:
    now = [0.0]
    repeats = Repeats(burst=3, window=60.0, clock=lambda: now[0])
    passed = [repeats.filter(record("match %s gone", i)) for i in range(10)]
    assert passed == [True] * 3 + [False] * 7  # one template, whatever its arguments
    assert repeats.filter(record("another kind of line"))  # other lines are not held
    now[0] = 61.0
    first = record("match %s gone", 99)
    assert repeats.filter(first)
    assert first.held == 7  # type: ignore[attr-defined]
    assert Text().format(first).endswith("(7 more like it held back)")


def test_json_lines_carry_the_ids_and_the_error() -> None:
    rec = record("match %s could not be finished", "m1", match="m1", player=7)
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        import sys

        rec.exc_info = sys.exc_info()
    entry = json.loads(Json().format(rec))
    assert entry["message"] == "match m1 could not be finished"
    assert (entry["match"], entry["player"], entry["level"]) == ("m1", 7, "warning")
    assert entry["error"] == "RuntimeError" and "boom" in entry["traceback"]
    assert "\n" not in Json().format(rec)  # one line, the traceback escaped within it


def test_an_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="text or json"):
        configure("xml")
