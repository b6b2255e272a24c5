"""What a bot job carries, what a worker does with it, and the safe move that replaces a bad
answer."""

from __future__ import annotations

import functools
import itertools
import json
from abc import ABC, abstractmethod
from collections.abc import Callable
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


@dataclass(eq=False, kw_only=True)
class Work(ABC):
    """What every job has. `key` names its table or review (fair share is per key);
    `think_ms` is a searching level's full budget, which the scheduler may lower (`bend`);
    `deadline` is on the event loop's clock (`loop.time()`)."""

    key: str
    priority: Priority
    think_ms: int | None = None
    deadline: float = 0.0
    id: int = field(default_factory=lambda: next(_ids))
    attempts: int = 0  # workers that took it (more than one: a worker died thinking)

    #: What a worker does with it: "decide" (`think`), or a name of `WORK`.
    kind = "decide"

    @abstractmethod
    def body(self, think_ms: int | None) -> Any:
        """What a worker is sent besides the job's id and kind."""

    @abstractmethod
    def message(self, think_ms: int | None) -> dict[str, Any]:
        """The body as JSON values, for a worker on another machine."""


@dataclass(eq=False, kw_only=True)
class Job(Work):
    """One bot decision: the seat's view only, never the match."""

    level: str
    view: Observation
    seed: int
    priority: Priority = Priority.PEOPLE

    def body(self, think_ms: int | None) -> tuple[str, int, int | None, Observation]:
        return (self.level, self.seed, think_ms, self.view)

    def message(self, think_ms: int | None) -> dict[str, Any]:
        return {"level": self.level, "seed": self.seed, "think_ms": think_ms,
                "view": self.view.to_dict()}


@dataclass(eq=False, kw_only=True)
class ReviewJob(Work):
    """One decision of a finished match to judge for its review (`analysis.judge_turn`): the
    match's record (public once it has ended) and the decision's place in it."""

    record: str
    hand: int
    index: int
    priority: Priority = Priority.REVIEW
    kind = "judge"

    def body(self, think_ms: int | None) -> dict[str, Any]:
        return self.message(think_ms)

    def message(self, think_ms: int | None) -> dict[str, Any]:
        return {"record": self.record, "hand": self.hand, "index": self.index}


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


#: The review's budget: a count of worlds with seed 0, never wall time, so a review is the same
#: on any machine (and the same as `carroca analyze` gives).
REVIEW_SEED = 0


@functools.lru_cache(maxsize=4)
def _verified(record_text: str) -> Any:
    from carroca import record

    return record.verify(record.loads(record_text))


def judge(body: dict[str, Any]) -> str:
    """A review's job, as a worker does it: one decision judged, as JSON."""
    from carroca.analysis import DEFAULT_WORLDS, decision_to_json, judge_turn

    decision = judge_turn(_verified(str(body["record"])), int(body["hand"]), int(body["index"]),
                          seed=REVIEW_SEED, worlds=DEFAULT_WORLDS)
    return json.dumps(decision_to_json(decision), separators=(",", ":"))


#: The work a worker does besides bot decisions, by job kind.
WORK: dict[str, Callable[[dict[str, Any]], str]] = {"judge": judge}


def legal_texts(view: Observation) -> frozenset[str]:
    return frozenset(str(a) for a in view.legal)
