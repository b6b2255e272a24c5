"""Reviews without a server: a store that keeps them in a dict, a finished match's record, what
`carroca analyze` says of it, and a wait for a review to end."""

from __future__ import annotations

import asyncio
import json
import time

from carroca import record
from carroca.analysis import DEFAULT_WORLDS, analyze_match, to_json
from carroca.server.tables.reviews import Reviews
from carroca.simulate import play_one


class ReviewStore:
    """Where a review is stored: here, a dict (the database's side is tested above)."""

    def __init__(self) -> None:
        self.analyses: dict[str, str] = {}

    async def set_analysis(self, match_id: str, text: str) -> None:
        self.analyses[match_id] = text


def a_record(ruleset: str = "duplas-pontos", seed: int = 0) -> str:
    line = play_one(ruleset, None, ("greedy",), seed, 0, record=True).line
    assert line is not None
    return line


def analyzed(line: str) -> str:
    """What `carroca analyze` says of the record, as the server stores it."""
    rec = record.loads(line)
    analysis = analyze_match(record.verify(rec), rec["players"], seed=0, worlds=DEFAULT_WORLDS)
    return json.dumps(to_json(analysis), separators=(",", ":"), ensure_ascii=False)


async def finished(reviews: Reviews, match_id: str, seconds: float = 120) -> None:
    end = time.monotonic() + seconds
    while reviews.running(match_id) and match_id not in reviews.stored:
        assert time.monotonic() < end, f"the review of {match_id} did not end"
        await asyncio.sleep(0.05)
