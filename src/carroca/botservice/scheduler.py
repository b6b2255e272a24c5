"""Which job a free worker takes next, and how long it may think.

Not first in, first out over jobs: a class of work at a time (`Priority`), and within it round
robin over tables, so a table (or a review) with many jobs cannot push another table's move back.
Pure and deterministic: the order follows from the pushes alone (tested at unit level).
"""

from __future__ import annotations

from collections import OrderedDict, deque
from collections.abc import Iterator

from carroca.botservice.jobs import Priority, Work

#: The least a searching level may think when the workers are behind (ms of wall time). Below
#: it a search has too few worlds to beat the medium level; the expert also plays out at least
#: `MIN_WORLDS` worlds whatever its budget.
FLOOR_MS = 40


def bend(think_ms: int, waiting: int, busy: int, workers: int, floor_ms: int = FLOOR_MS) -> int:
    """The budget of a job taken now: the full `think_ms` while every job can have a worker at
    once, else shared out (full budget x workers / jobs in the system), never under the floor."""
    demand = waiting + busy + 1  # this job included
    if demand <= workers or think_ms <= floor_ms:
        return think_ms
    return max(floor_ms, think_ms * workers // demand)


class FairQueue:
    def __init__(self) -> None:
        self._classes: dict[Priority, OrderedDict[str, deque[Work]]] = {
            p: OrderedDict() for p in Priority
        }
        self._size = 0

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator[Work]:
        for tables in self._classes.values():
            for jobs in tables.values():
                yield from jobs

    def push(self, job: Work, front: bool = False) -> None:
        """Queue a job behind its table's others (`front`: ahead of them, for a job whose
        worker died: it has waited already)."""
        tables = self._classes[job.priority]
        jobs = tables.get(job.key)
        if jobs is None:
            jobs = tables[job.key] = deque()
        if front:
            tables.move_to_end(job.key, last=False)
            jobs.appendleft(job)
        else:
            jobs.append(job)
        self._size += 1

    def pop(self) -> Work | None:
        """The next job: the first table in turn of the most urgent class; that table then goes
        to the back of its class's turn."""
        for tables in self._classes.values():
            if not tables:
                continue
            key, jobs = next(iter(tables.items()))
            job = jobs.popleft()
            if jobs:
                tables.move_to_end(key)
            else:
                del tables[key]
            self._size -= 1
            return job
        return None

    def remove(self, job: Work) -> bool:
        tables = self._classes[job.priority]
        jobs = tables.get(job.key)
        if jobs is None or job not in jobs:
            return False
        jobs.remove(job)
        if not jobs:
            del tables[job.key]
        self._size -= 1
        return True

    def waiting(self, priority: Priority | None = None) -> int:
        if priority is None:
            return self._size
        return sum(len(j) for j in self._classes[priority].values())

    def ahead(self, priority: Priority) -> int:
        """Jobs waiting that a job of `priority` does not pass: its class and the more urgent."""
        return sum(self.waiting(p) for p in Priority if p <= priority)
