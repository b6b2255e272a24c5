"""Ranked matches for the fair-play tests: six accounts playing `bloqueio` against each other,
five with the `medium` bot's decisions and one (`EXPERT`) with the `expert` bot's, each match
stored with the review the server would store of it (seed 0, 128 worlds).

A bot-assisted account only stands out when both sides of the comparison are what the server
has: the expert at its own budget playing, and reviews of the server's 128 worlds judging. With
a few worlds on both sides the judge's noise swamps the difference (`bench/fairplay.py`), and
producing these matches takes about two minutes of CPU; so they are made once, with fixed seeds,
and kept in `tests/data/fairplay/matches.jsonl.gz`. `python -m tests.support.fairplay` writes the
file again (after a change to the engine or the bots that changes the moves or the review).

`stored_matches` reads them back; `insert_ranked` puts one into a database as a finished ranked
match of the accounts (its seats, record, review and participants, as the server writes them).
"""

from __future__ import annotations

import gzip
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy.engine import Connection

from carroca import driver, fair
from carroca import record as rec
from carroca.analysis import DEFAULT_WORLDS, analyze_match, to_json
from carroca.bots import make_bot
from carroca.server.storage import db
from carroca.simulate import bot_seed, match_seeds

RULESET = "bloqueio"
EXPERT = "Zeca"
MEDIUM = ("Ana", "Bia", "Caio", "Duda", "Edu")
ACCOUNTS = (EXPERT, *MEDIUM)
ROUNDS = 7  # each account plays this many matches (about 30 decisions each)
SEED = "fairplay"
PATH = Path(__file__).resolve().parent.parent / "data" / "fairplay" / "matches.jsonl.gz"


@dataclass(frozen=True, slots=True)
class StoredMatch:
    """A match of two accounts: their names in seat order, its record and its review (the
    texts the server stores)."""

    index: int
    players: tuple[str, str]
    record: str
    analysis: str


def pairings() -> Iterator[tuple[str, str]]:
    """Round robin (the circle method), `ROUNDS` rounds: three matches a round, each account
    in one of them; the seats alternate from one round to the next."""
    names = list(ACCOUNTS)
    for r in range(ROUNDS):
        turn = r % (len(names) - 1)
        circle = [names[0], *(names[1:][turn:] + names[1:][:turn])]
        for i in range(len(circle) // 2):
            a, b = circle[i], circle[-1 - i]
            yield (a, b) if (r + i) % 2 == 0 else (b, a)


def level(name: str) -> str:
    return "expert" if name == EXPERT else "medium"


def make_match(index: int, players: tuple[str, str]) -> StoredMatch:
    """The match, played by each account's bot (the expert at its own default budget), and
    its review as the server produces it."""
    server_seed, client_seed = match_seeds(SEED, index)
    bots = [make_bot(level(name), bot_seed(SEED, index, seat))
            for seat, name in enumerate(players)]
    match = driver.play_match(RULESET, None, bots, server_seed, client_seed)
    fairness = rec.Fairness(fair.commitment(server_seed), client_seed, server_seed)
    line = rec.dumps(rec.to_record(match, list(players), fairness))
    review = analyze_match(match, players, seed=0, worlds=DEFAULT_WORLDS)
    text = json.dumps(to_json(review), separators=(",", ":"), ensure_ascii=False)
    return StoredMatch(index, players, line, text)


def write() -> None:
    PATH.parent.mkdir(parents=True, exist_ok=True)
    lines = []
    for index, players in enumerate(pairings()):
        made = make_match(index, players)
        lines.append(json.dumps({"index": made.index, "players": list(made.players),
                                 "record": made.record, "analysis": made.analysis},
                                separators=(",", ":"), ensure_ascii=False))
        print(f"match {index}: {players[0]} x {players[1]}", flush=True)
    with gzip.open(PATH, "wt", encoding="utf-8", compresslevel=9) as out:
        out.write("\n".join(lines) + "\n")


def stored_matches() -> list[StoredMatch]:
    with gzip.open(PATH, "rt", encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    return [StoredMatch(r["index"], (r["players"][0], r["players"][1]), r["record"],
                        r["analysis"]) for r in rows]


def insert_ranked(conn: Connection, match_id: str, players: list[tuple[int, str]],
                  record_text: str, analysis: str | None) -> None:
    """A finished ranked match of these players (id, name; in seat order), its record and
    review (None: not reviewed yet), with its participants, as the server stores them."""
    data: dict[str, Any] = json.loads(record_text)
    now = time.time()
    conn.execute(db.matches.insert().values(
        id=match_id, mode="ranked", ruleset=data["ruleset"], options=data.get("options", {}),
        seats=[{"player": pid, "name": name} for pid, name in players], status="finished",
        turn_seconds=20.0, bot_level="medium", server_seed=data["fairness"]["server_seed"],
        commitment=data["fairness"]["commitment"], client_seeds=[None] * len(players),
        client_seed=data["fairness"]["client_seed"], created_at=now - 600, started_at=now - 600,
        finished_at=now, score=data["result"]["score"], result=data["result"],
        record=record_text, analysis=analysis))
    conn.execute(db.participants.insert(), [
        {"match_id": match_id, "seat": seat, "player_id": pid}
        for seat, (pid, _) in enumerate(players)])


if __name__ == "__main__":
    write()
