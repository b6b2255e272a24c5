"""The `carroca` command through Typer's runner: simulate, verify, replay, and bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from carroca.cli import app
from carroca.rules import RULESETS

runner = CliRunner()
WIDE = {"COLUMNS": "200"}


def _simulate(
    tmp_path: Path, ruleset: str, bots: str, games: int = 3, seed: int = 1, *extra: str
) -> Path:
    out = tmp_path / f"{ruleset}-{bots.replace(',', '_')}-{seed}.jsonl"
    result = runner.invoke(
        app,
        [
            "simulate",
            "--ruleset",
            ruleset,
            "--games",
            str(games),
            "--seed",
            str(seed),
            "--bots",
            bots,
            "--out",
            str(out),
            "--json",
            *extra,
        ],
    )
    assert result.exit_code == 0, result.output
    return out


def _no_traceback(result: object) -> None:
    output = getattr(result, "output", "")
    assert "Traceback" not in output
    exc = getattr(result, "exception", None)
    assert exc is None or isinstance(exc, SystemExit)


# --------------------------------------------------------------------------- simulate + verify


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
@pytest.mark.parametrize("bots", ["random", "greedy,random"])
def test_simulate_then_verify_every_ruleset(tmp_path: Path, ruleset: str, bots: str) -> None:
    out = _simulate(tmp_path, ruleset, bots)
    assert len(out.read_text(encoding="utf-8").splitlines()) == 3
    result = runner.invoke(app, ["verify", str(out)])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == ["record 1: ok", "record 2: ok", "record 3: ok"]


def test_simulate_json_summary(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["simulate", "-r", "pontos", "-n", "4", "--seed", "9", "--bots", "greedy", "--json"]
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert set(summary) == {"matches", "hands", "wins", "points", "seconds", "hands_per_second"}
    assert summary["matches"] == 4
    assert sum(summary["wins"]) == 4
    assert len(summary["points"]) == 2
    assert summary["hands"] >= 4


def test_simulate_options_reach_the_records(tmp_path: Path) -> None:
    out = _simulate(
        tmp_path,
        "duplas-pontos",
        "random",
        1,
        1,
        "--option",
        "target=100",
        "-o",
        "always_six_six=true",
    )
    record = json.loads(out.read_text(encoding="utf-8"))
    assert record["options"]["target"] == 100
    assert record["options"]["always_six_six"] is True


def test_simulate_readable_summary() -> None:
    result = runner.invoke(
        app, ["simulate", "-r", "bloqueio", "-n", "2", "--bots", "greedy,random"], env=WIDE
    )
    assert result.exit_code == 0, result.output
    assert "wins" in result.stdout
    assert "greedy" in result.stdout and "random" in result.stdout


def test_workers_give_the_same_file(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    one = _simulate(tmp_path / "a", "mano-a-mano", "greedy,random", 5, 4)
    two = _simulate(tmp_path / "b", "mano-a-mano", "greedy,random", 5, 4, "--workers", "2")
    assert one.read_bytes() == two.read_bytes()


def _tamper(path: Path, index: int) -> None:
    lines = path.read_text(encoding="utf-8").splitlines()
    record = json.loads(lines[index])
    record["hands"][0]["score"][0] += 5
    lines[index] = json.dumps(record)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_verify_rejects_a_tampered_record(tmp_path: Path) -> None:
    out = _simulate(tmp_path, "duplas-pontos", "greedy")
    _tamper(out, 1)
    result = runner.invoke(app, ["verify", str(out)])
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0] == "record 1: ok"
    assert lines[1].startswith("record 2: rejected: ")
    assert "score" in lines[1]
    assert lines[2] == "record 3: ok"
    _no_traceback(result)


def test_verify_json_lines(tmp_path: Path) -> None:
    out = _simulate(tmp_path, "classico", "random", 2)
    _tamper(out, 0)
    result = runner.invoke(app, ["verify", "--json", str(out)])
    assert result.exit_code == 1
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert rows[0]["record"] == 1 and rows[0]["ok"] is False and rows[0]["error"]
    assert rows[1] == {"record": 2, "ok": True, "error": None}


def test_verify_counts_across_files_and_names_them(tmp_path: Path) -> None:
    a = _simulate(tmp_path, "pontos", "random", 2, 1)
    b = _simulate(tmp_path, "bloqueio", "random", 2, 2)
    result = runner.invoke(app, ["verify", str(a), str(b)])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == [f"record {n}" for n in (1, 2, 3, 4)]
    assert all(line.startswith(f"record {n}: ok") for n, line in enumerate(lines, start=1))
    assert a.name in lines[0] and b.name in lines[3]


def test_verify_a_line_that_is_not_json(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"format": "carroca-record/1"\n', encoding="utf-8")
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 1
    assert result.stdout.startswith("record 1: rejected: ")
    _no_traceback(result)


# --------------------------------------------------------------------------- bad input: exit 2


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["simulate", "-r", "canastra"], "unknown ruleset"),
        (["simulate", "-r", "pontos", "-o", "target=muito"], "target"),
        (["simulate", "-r", "pontos", "-o", "galo_points=50"], "no option 'galo_points'"),
        (["simulate", "-r", "pontos", "-o", "target"], "key=value"),
        (["simulate", "-r", "pontos", "--bots", "grandmaster"], "unknown bot"),
        (["simulate", "-r", "pontos", "--bots", "a,b,c"], "--bots"),
        (["verify", "missing.jsonl"], "file not found"),
        (["replay", "missing.jsonl"], "file not found"),
    ],
)
def test_bad_input_exits_2_with_a_message(args: list[str], words: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert words in result.stderr
    assert result.stdout == ""
    _no_traceback(result)


def test_unwritable_out_exits_2(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["simulate", "-r", "pontos", "--out", str(tmp_path / "no" / "such" / "x.jsonl")]
    )
    assert result.exit_code == 2
    assert "cannot write" in result.stderr
    _no_traceback(result)


def test_python_dash_m() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "carroca", "simulate", "-r", "bloqueio", "-n", "1", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["matches"] == 1


def test_verify_summary(tmp_path: Path) -> None:
    out = _simulate(tmp_path, "pontos", "greedy", 3)
    result = runner.invoke(app, ["verify", "--summary", str(out)])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == ["3 records: 3 ok, 0 rejected"]
    _tamper(out, 2)
    result = runner.invoke(app, ["verify", "--summary", "--json", str(out)])
    assert result.exit_code == 1
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert rows[0]["record"] == 3 and rows[0]["ok"] is False
    assert rows[1] == {"records": 3, "ok": 2, "rejected": 1}


# --------------------------------------------------------------------------- joined files


def test_verify_reads_files_joined_with_cat(tmp_path: Path) -> None:
    """`cat a b > both` where `a` has no final newline (a download, before it had one)."""
    a = _simulate(tmp_path, "pontos", "random", 2, 1)
    b = _simulate(tmp_path, "bloqueio", "greedy", 1, 2)
    both = tmp_path / "both.jsonl"
    both.write_bytes(a.read_bytes().rstrip(b"\n") + b.read_bytes())
    result = runner.invoke(app, ["verify", str(both)])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == ["record 1: ok", "record 2: ok", "record 3: ok"]
    one_line = tmp_path / "one-line.jsonl"  # every record back to back, spaces between
    records = [line for f in (a, b) for line in f.read_text(encoding="utf-8").splitlines()]
    one_line.write_text(" ".join(records), encoding="utf-8")
    result = runner.invoke(app, ["verify", "--summary", str(one_line)])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == ["3 records: 3 ok, 0 rejected"]


def test_verify_joined_record_with_a_broken_tail(tmp_path: Path) -> None:
    a = _simulate(tmp_path, "classico", "random", 1, 1)
    path = tmp_path / "tail.jsonl"
    path.write_bytes(a.read_bytes().rstrip(b"\n") + b'{"format": \n')
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0] == "record 1: ok"
    assert lines[1].startswith("record 2: rejected: not valid JSON")
    assert len(lines) == 2
