"""Bot thinking as a service: every bot decision is a job, thought out by worker processes.

The socket process never runs a searching bot: it sends the seat's observation (never the
hidden state), the level, a budget and a deadline to a worker, and checks what comes back with
the engine. A late, failed or illegal answer is replaced by the level's safe move (`safe_move`),
so a table never waits longer than its deadline for a bot. Jobs are taken fairly (`FairQueue`):
tables with people first, then bots-only matches, then reviews, round robin over tables within
each class; when more jobs wait than the workers can serve, searching levels think less
(`bend`), down to a floor, before any move is late.
"""

from __future__ import annotations

from carroca.botservice.jobs import (
    INLINE_LEVELS,
    SAFE_LEVEL,
    Decision,
    Job,
    Priority,
    ReviewJob,
    Work,
    safe_move,
    think,
)
from carroca.botservice.scheduler import FairQueue, bend
from carroca.botservice.service import BotService, JobFailed, LocalBots

__all__ = [
    "INLINE_LEVELS",
    "SAFE_LEVEL",
    "BotService",
    "Decision",
    "FairQueue",
    "Job",
    "JobFailed",
    "LocalBots",
    "Priority",
    "ReviewJob",
    "Work",
    "bend",
    "safe_move",
    "think",
]
