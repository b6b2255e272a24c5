"""When the bot service cannot think in time and a bot plays the safe move, the people at the
table are told once, in pt-BR (before: never told; a table of experts played like greedy bots
without a word)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack

import pytest
from fastapi.testclient import TestClient
from tests.support.server_app import guest, settings_for
from tests.support.wsplay import auth, connect, play

from carroca.server.app import create_app


@pytest.fixture
def hurried(database: str) -> Iterator[TestClient]:
    """Bots given 20 ms to think: an expert's job is always late."""
    with TestClient(create_app(settings_for(database, bot_deadline_seconds=0.02,
                                            bot_workers=1))) as c:
        yield c


def test_a_safe_move_is_told_once(hurried: TestClient) -> None:
    token = guest(hurried, "Nina")
    made = hurried.post("/api/tables", headers=auth(token), json={
        "ruleset": "duplas-pontos", "options": {"target": 100},
        "seats": ["me", "bot:expert", "bot:expert", "bot:expert"]})
    assert made.status_code == 201, made.text
    with ExitStack() as stack:
        nina = connect(stack, hurried, token, "nina")
        state = play(nina, made.json()["id"])
        # The notice follows the move that fell back first, which may be the match's last:
        # then it comes after the finished state. Whatever was sent comes before a pong.
        nina.ping()
    assert state["status"] == "finished"
    notices = [f["data"] for f in nina.frames if f["type"] == "notice"]
    assert notices == [{
        "match": made.json()["id"], "code": "bots_simple",
        "message": "Os robôs desta mesa estão jogando no modo simples: o servidor que pensa "
                   "por eles está ocupado ou fora do ar. A partida continua normalmente."}]
    stats = hurried.get("/api/stats").json()["bots"]["decisions"]
    assert sum(n for k, n in stats.items() if k.startswith("fallback")) > 1  # told once only
