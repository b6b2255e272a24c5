"""The HTTP API end to end: a bots-only match created, watched, finished and verified."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from tests.support.server_app import guest, wait_finished
from typer.testing import CliRunner

from carroca import fair, record
from carroca.cli import app as cli_app

# Stored state is this module's subject: `make unit-postgres` runs it again on PostgreSQL.
pytestmark = pytest.mark.postgres


def test_health(client: TestClient) -> None:
    assert client.get("/api/health").json() == {"status": "ok"}


def test_bots_match_finishes_and_its_record_verifies(client: TestClient) -> None:
    guest(client, "Beto")  # bots-only matches are for signed-in players
    r = client.post("/api/matches", json={
        "ruleset": "duplas-torneio", "seats": ["bot:greedy", "bot:random"] * 2,
    })
    assert r.status_code == 201
    created = r.json()
    info = wait_finished(client, created["id"])
    assert info["commitment"] == created["commitment"]
    assert fair.commitment(info["server_seed"]) == created["commitment"]
    rec = client.get(f"/api/matches/{created['id']}/record")
    assert rec.status_code == 200
    match = record.verify(record.loads(rec.text))
    assert match.is_over
    assert list(match.score) == info["score"]


def test_downloaded_records_end_with_a_newline_and_join_with_cat(
    client: TestClient, tmp_path: Path
) -> None:
    """`cat a.jsonl b.jsonl > both.jsonl` of two downloads is a file `carroca verify` accepts."""
    guest(client, "Caio")
    texts = []
    for seats in (["bot:greedy", "bot:random"], ["bot:random", "bot:greedy"]):
        created = client.post("/api/matches", json={
            "ruleset": "bloqueio", "options": {"target": 1}, "seats": seats,
        }).json()
        wait_finished(client, created["id"])
        text = client.get(f"/api/matches/{created['id']}/record").text
        assert text.endswith("}\n") and text.count("\n") == 1  # one JSONL line
        texts.append(text)
    both = tmp_path / "both.jsonl"
    both.write_text("".join(texts), encoding="utf-8")
    result = CliRunner().invoke(cli_app, ["verify", str(both)])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == ["record 1: ok", "record 2: ok"]
