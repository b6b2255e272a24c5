"""What a bot job carries, what a worker does with it, and the safe move that replaces a bad
answer."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

from carroca.bots import SEARCHING_LEVELS, make_bot
from carroca.rules import Observation

#: The move that stands in for a late, failed or illegal answer: the greedy bot's, which costs a
#: few microseconds and is always legal.
SAFE_LEVEL = "greedy"

#: Levels that cost less to decide than a job costs to send (random ~0.4 us, greedy ~7 us a
#: decision, against ~40 us to pickle an observation for a worker): decided in place. Every
#: other level (medium ~0.26 ms, the searching levels 50-200 ms) is a job.
INLINE_LEVELS = frozenset({"random", "greedy"})

_ids = itertools.count(1)


class Priority(IntEnum):
    """Lower first: a person waits at the table, then demos, then reviews."""

    PEOPLE = 0
    BOTS = 1
    REVIEW = 2


@dataclass(eq=False)
class Job:
    """One decision to think out. `key` names the table (fair share is per key); `think_ms` is
    the searching levels' full budget, which the scheduler may lower (`bend`); `deadline` is on
    the event loop's clock (`loop.time()`)."""

    key: str
    level: str
    view: Observation
    seed: int
    priority: Priority = Priority.PEOPLE
    think_ms: int | None = None
    deadline: float = 0.0
    id: int = field(default_factory=lambda: next(_ids))
    attempts: int = 0  # workers that took it (more than one: a worker died thinking)

    def payload(self, think_ms: int | None) -> tuple[Any, ...]:
        """What a worker is sent: the seat's view only, never the match."""
        return (self.id, self.level, self.seed, think_ms, self.view)


@dataclass(frozen=True)
class Decision:
    """A job's outcome: the move and where it came from: `worker`, `inline` (a level cheaper
    than a job), `forced` (one legal action), or `fallback:<why>` with why one of late, failed,
    illegal."""

    action: str
    source: str
    think_ms: int | None = None

    @property
    def fallback(self) -> bool:
        return self.source.startswith("fallback:")


def think(level: str, seed: int, think_ms: int | None, view: Observation) -> str:
    """One decision, as a worker makes it: a bot of the level, seeded by the job."""
    if level in SEARCHING_LEVELS:
        bot = make_bot(level, seed=seed, think_ms=think_ms)
    else:
        bot = make_bot(level, seed=seed)
    return str(bot.choose(view))


def safe_move(view: Observation, seed: int = 0) -> str:
    """The level's safe move: legal by construction, and cheap enough to make anywhere."""
    return str(make_bot(SAFE_LEVEL, seed=seed).choose(view))


def legal_texts(view: Observation) -> frozenset[str]:
    return frozenset(str(a) for a in view.legal)
