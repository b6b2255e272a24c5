"""Worker behaviours for the bot service's tests: each a module-level function, so a spawned
worker process can import it by name. And `a_view`, a position to ask the workers about."""

from __future__ import annotations

import json
import os
import time
from typing import Any

from carroca.botservice import think
from carroca.botservice.jobs import judge
from carroca.rules import Match, Observation, actions, get_ruleset, observation

RULESET = get_ruleset("duplas-pontos")


def another_seats_tile(level: str, seed: int, think_ms: int | None, view: Observation) -> str:
    """A malicious worker: plays a tile the seat does not hold (another seat's, or the
    boneyard's) on an open end."""
    held = set(view.hand) | {t for _, t, _ in view.table}
    tile = next(t for t in range(28) if t not in held)
    return str(actions.play(tile, next(iter(view.ends), None)))


def nonsense(level: str, seed: int, think_ms: int | None, view: Observation) -> str:
    return "drop table matches"


def crash(level: str, seed: int, think_ms: int | None, view: Observation) -> str:
    raise RuntimeError("out of memory")


def slow(level: str, seed: int, think_ms: int | None, view: Observation) -> str:
    """Thinks for 3 s whatever the budget says (a worker on a machine far too busy)."""
    time.sleep(3)
    return think(level, seed, think_ms, view)


def spin(level: str, seed: int, think_ms: int | None, view: Observation) -> str:
    """A hung worker: spends 5 s of CPU in a loop before answering."""
    end = time.process_time() + 5
    while time.process_time() < end:
        pass
    return think(level, seed, think_ms, view)


def pid_then_think(level: str, seed: int, think_ms: int | None, view: Observation) -> str:
    """Marks its process as thinking (a file named by its pid) for the test to kill it."""
    marker = os.environ["CARROCA_TEST_MARKS"]
    path = os.path.join(marker, str(os.getpid()))
    if not os.path.exists(path):
        open(path, "w").close()
        time.sleep(5)  # the first job of a process: killed here
    return think(level, seed, think_ms, view)


def judge_another_step(body: dict[str, Any]) -> str:
    """A review's worker that answers for another step than the one it was asked for."""
    text = json.loads(judge(body))
    text["index"] += 1
    return json.dumps(text)


def judge_nonsense(body: dict[str, Any]) -> str:
    """A review's worker that rates the action played as the only, best, option with a loss."""
    text = json.loads(judge(body))
    text["options"] = [{"action": text["played"], "value": 0.0}]
    text["best"] = "0-0"
    return json.dumps(text)


def judge_slowly(body: dict[str, Any]) -> str:
    time.sleep(0.4)
    return judge(body)


__all__ = ["another_seats_tile", "crash", "judge_another_step", "judge_nonsense", "judge_slowly",
           "nonsense", "pid_then_think", "slow"]


def a_view() -> Observation:
    """A duplas-pontos position a few plays in, with several legal moves."""
    m = Match(RULESET, RULESET.make_options({}))
    m.deal(list(range(28)))
    for _ in range(3):
        seat = m.current_player
        m.apply(observation(m, seat).legal[0], seat)
    view = observation(m, m.current_player)
    assert len(view.legal) > 1
    return view
