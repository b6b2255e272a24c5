"""Bots' matches played through a server's HTTP API until one shows what a test looks for."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.support.serverproc import wait_until


def bots_matches(http: Any, done: Callable[[str], bool], tries: int = 5) -> list[str]:
    """One-hand bloqueio matches of an expert and a medium bot, one after another, until
    `done(match_id)` holds after one has finished: a hand may give the bots no choice to think
    about (blocked at its opening, single fits). The ids of the matches played."""
    played: list[str] = []
    for _ in range(tries):
        made = http.post("/api/matches", json={
            "ruleset": "bloqueio", "options": {"target": 1},
            "seats": ["bot:expert", "bot:medium"]})
        assert made.status_code == 201, made.text
        match_id = made.json()["id"]
        wait_until(lambda m=match_id: http.get(f"/api/matches/{m}").json()["status"]
                   == "finished", "the end of the match", timeout=120)
        played.append(match_id)
        if done(match_id):
            break
    return played
