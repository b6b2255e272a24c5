"""`carroca tournament` end to end on small fields of fast bots, and `carroca verify` on its
event records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from carroca.cli import app

runner = CliRunner()
WIDE = {"COLUMNS": "200"}


def _run(*args: str) -> str:
    result = runner.invoke(app, ["tournament", *args], env=WIDE)
    assert result.exit_code == 0, result.output
    return result.stdout


def test_a_swiss_prints_standings_and_writes_a_record_that_verifies(tmp_path: Path) -> None:
    path = tmp_path / "swiss.json"
    out = _run("--format", "swiss", "-r", "mano-a-mano", "--players", "8", "--bots",
               "greedy,random", "--rounds", "3", "--seed", "4", "--record", str(path))
    assert "Swiss of mano-a-mano: standings" in out and "Buchholz" in out
    assert "By bot" in out and "greedy#1" in out
    assert "8 entrants, 3 rounds, 12 matches" in out
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("record 1: ok (event record: swiss of mano-a-mano, "
                                    "8 entrants, 3 rounds, 12 matches)")
    again = tmp_path / "again.json"
    _run("--format", "swiss", "-r", "mano-a-mano", "--players", "8", "--bots",
         "greedy,random", "--rounds", "3", "--seed", "4", "--record", str(again),
         "--workers", "2")
    assert again.read_bytes() == path.read_bytes()  # the same seed, the same event


def test_json_standings_and_the_summary_by_bot() -> None:
    out = _run("--format", "knockout", "-r", "duplas-torneio", "--players", "16", "--bots",
               "greedy,random", "--best-of", "3", "--json")
    data = json.loads(out)
    assert data["event"]["format"] == "knockout" and data["event"]["ruleset"] == "duplas-torneio"
    assert len(data["standings"]) == 8 and data["standings"][0]["reached"] == 3
    assert {row["bot"] for row in data["bots"]} == {"greedy", "random"}
    assert sum(row["entrants"] for row in data["bots"]) == 8


def test_an_arena_and_solo_entries(tmp_path: Path) -> None:
    path = tmp_path / "arena.json"
    out = _run("--format", "arena", "--players", "8", "--entry", "solo", "--bots", "greedy",
               "--duration", "15", "--record", str(path))
    assert "Arena of duplas-pontos: standings" in out and "pairing waves" in out
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["event"]["duration"] == 15 * 60
    assert all("+" in e["id"] for e in record["entrants"])  # solo bots paired into duplas
    assert runner.invoke(app, ["verify", str(path)]).exit_code == 0


def test_verify_rejects_a_tampered_event_record_and_reads_an_indented_one(
        tmp_path: Path) -> None:
    path = tmp_path / "ev.json"
    _run("-r", "bloqueio", "--players", "6", "--bots", "greedy,random", "--rounds", "2",
         "--record", str(path))
    record = json.loads(path.read_text(encoding="utf-8"))
    pretty = tmp_path / "pretty.json"
    pretty.write_text(json.dumps(record, indent=2, ensure_ascii=False), encoding="utf-8")
    result = runner.invoke(app, ["verify", "--json", str(pretty)])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["event"]["matches"] == 6
    outcome = record["rounds"][1]["tables"][0]["games"][0]["outcome"]
    outcome["winner"] = 1 - outcome["winner"]
    path.write_text(json.dumps(record), encoding="utf-8")
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 1
    assert result.stdout.startswith("record 1: rejected: event record: round 2, table 1, game "
                                    "1: expected outcome")


def test_matches_named_by_id_are_found_in_the_other_files(tmp_path: Path) -> None:
    path = tmp_path / "ev.json"
    _run("-r", "classico", "--players", "4", "--bots", "greedy", "--rounds", "1",
         "--record", str(path))
    record = json.loads(path.read_text(encoding="utf-8"))
    matches = []
    for n, table in enumerate(record["rounds"][0]["tables"]):
        game = table["games"][0]
        match = game.pop("record")
        match["id"] = f"m{n}"
        game["outcome"]["record_id"] = f"m{n}"
        matches.append(json.dumps(match))
    path.write_text(json.dumps(record), encoding="utf-8")
    alone = runner.invoke(app, ["verify", str(path)])
    assert alone.exit_code == 1 and "neither embedded nor given" in alone.stdout
    side = tmp_path / "matches.jsonl"
    side.write_text("\n".join(matches) + "\n", encoding="utf-8")
    both = runner.invoke(app, ["verify", str(path), str(side)])
    assert both.exit_code == 0, both.output
    assert both.stdout.count(": ok") == 3


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--format", "roundrobin"], "the formats are swiss, knockout, arena"),
        (["--format", "knockout", "--rounds", "3"], "--rounds is for --format swiss"),
        (["--format", "swiss", "--duration", "5"], "--duration is for --format arena"),
        (["--format", "knockout", "--best-of", "2"], "odd N"),
        (["--players", "7"], "even number"),
        (["--bots", "greedy,,random"], "--bots"),
        (["--bots", "grandmaster"], "unknown bot 'grandmaster'"),
        (["--entry", "trio"], "--entry 'trio'"),
        (["-r", "canastra"], "unknown ruleset"),
    ],
)
def test_bad_input_exits_2(args: list[str], words: str) -> None:
    result = runner.invoke(app, ["tournament", *args], env=WIDE)
    assert result.exit_code == 2, result.output
    assert words in result.output
    assert "Traceback" not in result.output
