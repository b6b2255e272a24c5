"""bench/ladder.py: the Elo fit on records with a known answer, the bootstrap, a tiny ladder."""

from __future__ import annotations

import importlib
import json
import math
import sys
from pathlib import Path

import pytest

_BENCH = str(Path(__file__).resolve().parents[2] / "bench")
if _BENCH not in sys.path:
    sys.path.insert(0, _BENCH)
L = importlib.import_module("ladder")

#: The Elo gap at which the stronger side wins 75%: 400·log10(3).
GAP_75 = 400 * math.log10(3)


def test_three_to_one_is_191_elo() -> None:
    assert round(GAP_75, 2) == 190.85
    assert L.elo_gap(0.75) == pytest.approx(GAP_75)
    r = L.fit_elo(["a", "b"], {("a", "b"): (300, 400)}, "b", 1500, prior=0)
    assert r == pytest.approx({"a": 1500 + GAP_75, "b": 1500})
    # the same record told from the other side, or anchored elsewhere: the same gap
    r = L.fit_elo(["a", "b"], {("b", "a"): (100, 400)}, "a", 0, prior=0)
    assert r == pytest.approx({"a": 0, "b": -GAP_75})


def test_records_that_fit_the_model_exactly_are_recovered() -> None:
    # a beats b 3:1, b beats c 3:1, so a beats c 9:1: ratings 2·191, 191, 0
    games = {("a", "b"): (750, 1000), ("b", "c"): (750, 1000), ("a", "c"): (900, 1000)}
    r = L.fit_elo(["a", "b", "c"], games, "c", 0, prior=0)
    assert r == pytest.approx({"a": 2 * GAP_75, "b": GAP_75, "c": 0}, abs=1e-6)


def test_even_and_symmetric_records() -> None:
    even = {("a", "b"): (50, 100), ("b", "c"): (50, 100), ("a", "c"): (50, 100)}
    assert L.fit_elo(["a", "b", "c"], even, "b", 1500) == pytest.approx(dict.fromkeys("abc", 1500))
    # a cycle (a > b > c > a, each 3:1) is even too
    cycle = {("a", "b"): (75, 100), ("b", "c"): (75, 100), ("c", "a"): (75, 100)}
    assert L.fit_elo(["a", "b", "c"], cycle, "a", 0) == pytest.approx(dict.fromkeys("abc", 0))
    # mirrored records give mirrored ratings around the middle level
    sym = {("a", "m"): (70, 100), ("m", "z"): (70, 100), ("a", "z"): (85, 100)}
    r = L.fit_elo(["a", "m", "z"], sym, "m", 1500)
    assert r["a"] - 1500 == pytest.approx(1500 - r["z"])
    assert r["a"] > 1500


def test_a_level_that_never_loses_gets_a_finite_rating() -> None:
    # one virtual drawn match: 10.5 to 0.5, i.e. 400·log10(21) ≈ 529 points
    r = L.fit_elo(["a", "b"], {("a", "b"): (10, 10)}, "b", 0)
    assert r["a"] == pytest.approx(400 * math.log10(21))
    with pytest.raises(ValueError, match="no finite maximum"):
        L.fit_elo(["a", "b"], {("a", "b"): (10, 10)}, "b", 0, prior=0)
    # with the prior, a large record barely moves: 300 of 400 is 190.4 instead of 190.85
    r = L.fit_elo(["a", "b"], {("a", "b"): (300, 400)}, "b", 0)
    assert r["a"] == pytest.approx(400 * math.log10(300.5 / 100.5))


def test_levels_the_schedule_does_not_link_are_refused() -> None:
    with pytest.raises(ValueError, match="no matches link c"):
        L.fit_elo(["a", "b", "c"], {("a", "b"): (5, 10)}, "a")
    with pytest.raises(ValueError, match="anchor"):
        L.fit_elo(["a", "b"], {("a", "b"): (5, 10)}, "x")


def test_schedules() -> None:
    levels = ["r", "g", "m", "e"]
    assert L.schedule(levels, "adjacent") == [("r", "g"), ("g", "m"), ("m", "e")]
    assert len(L.schedule(levels, "all")) == 6
    assert ("r", "e") in L.schedule(levels, "all")
    with pytest.raises(ValueError):
        L.schedule(levels, "swiss")


def test_bootstrap_is_reproducible_and_brackets_the_fit() -> None:
    # per duplicate pair: a's score out of 2 matches; a wins 70% against b, b 60% against c
    pairs = {
        ("a", "b"): [(2.0, 2)] * 8 + [(1.0, 2)] * 6 + [(0.0, 2)] * 1,
        ("b", "c"): [(2.0, 2)] * 5 + [(1.0, 2)] * 8 + [(0.0, 2)] * 2,
    }
    levels = ["a", "b", "c"]
    point = L.fit_elo(levels, L.totals(pairs), "c", 0)
    one = L.bootstrap(levels, pairs, "c", 0, resamples=200, seed=7)
    assert one == L.bootstrap(levels, pairs, "c", 0, resamples=200, seed=7)
    assert one != L.bootstrap(levels, pairs, "c", 0, resamples=200, seed=8)
    assert one["c"] == (0, 0)  # the anchor is fixed by definition
    for level in ("a", "b"):
        low, high = one[level]
        assert low < point[level] < high
    assert one["a"][0] > 0  # a is above c in nearly every resample


def test_percentile_interpolates() -> None:
    assert L.percentile([0.0, 10.0], 0.25) == 2.5
    assert L.percentile([1.0, 2.0, 3.0, 4.0, 5.0], 0.5) == 3.0
    assert L.percentile([4.0], 0.975) == 4.0


def test_unknown_level_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        L.main(["--levels", "random,grandmaster", "--matches", "2"])
    assert "unknown level grandmaster; the levels are random, greedy" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        L.main(["--levels", "random,random"])
    with pytest.raises(SystemExit):
        L.main(["--levels", "random,greedy", "--matches", "3"])
    with pytest.raises(SystemExit):
        L.main(["--levels", "random,greedy", "--anchor", "medium=1500"])


TINY = ["--rulesets", "duplas-torneio", "--levels", "random,greedy", "--matches", "4",
        "--worlds", "8", "--bootstrap", "50", "--seed", "3"]  # fmt: skip


def test_tiny_ladder_prints_a_table_and_draws_a_plot(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib")  # in the dev extra and bench/requirements.txt
    png = tmp_path / "img" / "ladder.png"  # the directory is made
    L.main([*TINY, "--plot", str(png)])
    text = capsys.readouterr().out
    assert "Elo on match wins (Bradley-Terry, draws half), random = 1500" in text
    assert "| level | `duplas-torneio` |" in text
    assert "| random | 1500 [1500, 1500] · 4 |" in text
    assert "| random vs greedy | `duplas-torneio` | 4 |" in text
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert png.stat().st_size > 10_000


def test_tiny_ladder_json_is_the_same_with_two_workers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "records.jsonl"
    L.main([*TINY, "--json", "--out", str(out)])
    one = json.loads(capsys.readouterr().out)
    L.main([*TINY, "--json", "--workers", "2"])
    two = json.loads(capsys.readouterr().out)
    for d in (one, two):
        d.pop("seconds")
        d.pop("workers")
        for m in d["matchups"]:
            for key in ("seconds", "a_seconds_per_decision", "b_seconds_per_decision",
                        "a_cpu_per_decision", "b_cpu_per_decision", "a_longest_decision",
                        "b_longest_decision"):
                m.pop(key)
    assert one == two
    assert one["anchor"] == {"random": 1500}
    rows = one["ratings"]["duplas-torneio"]
    assert [r["level"] for r in rows] == ["random", "greedy"]
    assert all(r["matches"] == 4 for r in rows)
    low, high = rows[1]["rating_95"]
    assert low <= rows[1]["rating"] <= high
    assert one["matchups"][0]["matches"] == 4
    assert len(out.read_text(encoding="utf-8").splitlines()) == 4
