"""The fair scheduler and the budget's bending, at unit level: deterministic, no process."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from carroca.botservice import FairQueue, Job, Priority, bend
from carroca.rules import Match, get_ruleset, observation

_RS = get_ruleset("bloqueio")
_MATCH = Match(_RS, _RS.make_options({}))
_MATCH.deal(list(range(28)))
VIEW = observation(_MATCH, 0)


def job(key: str, priority: Priority = Priority.PEOPLE) -> Job:
    return Job(key=key, level="expert", view=VIEW, seed=0, priority=priority, think_ms=200)


def drain(queue: FairQueue) -> list[Job]:
    out = []
    while (j := queue.pop()) is not None:
        out.append(j)
    return out


def test_a_flooding_table_does_not_push_another_back() -> None:
    """FIFO over jobs would serve the flood's 50 jobs first; round robin over tables serves the
    quiet table's one job second."""
    q = FairQueue()
    flood = [job("flood") for _ in range(50)]
    for j in flood:
        q.push(j)
    quiet = job("quiet")
    q.push(quiet)
    order = drain(q)
    assert order[:2] == [flood[0], quiet]
    assert order[2:] == flood[1:]  # a table's own jobs stay in their order


def test_round_robin_over_many_tables() -> None:
    q = FairQueue()
    for key in "abc":
        for _ in range(3):
            q.push(job(key))
    assert [j.key for j in drain(q)] == list("abcabcabc")


def test_people_before_bots_only_before_reviews() -> None:
    q = FairQueue()
    review, demo, person = job("r", Priority.REVIEW), job("d", Priority.BOTS), job("p")
    for j in (review, demo, person):
        q.push(j)
    assert drain(q) == [person, demo, review]
    # A person's table that gets a job while demos wait is still served first.
    demos = [job(f"d{i}", Priority.BOTS) for i in range(5)]
    for j in demos:
        q.push(j)
    assert q.pop() is demos[0]
    late = job("p")
    q.push(late)
    assert q.pop() is late


def test_a_job_put_back_goes_first() -> None:
    q = FairQueue()
    a, b = job("a"), job("b")
    q.push(a)
    q.push(b)
    again = job("c")
    q.push(again, front=True)
    assert drain(q) == [again, a, b]
    # ... also when its table has others waiting, behind other tables
    a2, b2, c1, c2 = job("a"), job("b"), job("c"), job("c")
    for j in (a2, b2, c1):
        q.push(j)
    q.push(c2, front=True)
    assert drain(q) == [c2, a2, b2, c1]


def test_remove_and_counts() -> None:
    q = FairQueue()
    jobs = [job("a"), job("a"), job("b", Priority.BOTS)]
    for j in jobs:
        q.push(j)
    assert len(q) == 3 and q.waiting(Priority.PEOPLE) == 2 and q.waiting(Priority.BOTS) == 1
    assert q.remove(jobs[0]) and not q.remove(jobs[0])
    assert q.remove(jobs[2])
    assert drain(q) == [jobs[1]] and len(q) == 0


@given(st.lists(st.tuples(st.sampled_from("abcdef"), st.sampled_from(list(Priority))),
                max_size=60))
def test_fairness_property(pushes: list[tuple[str, Priority]]) -> None:
    """Whatever the pushes: every job comes out once; no job of a lower class comes out while a
    higher one waits; within a class, no table gets a second job before every other table
    waiting in that class got one."""
    q = FairQueue()
    jobs = [job(k, p) for k, p in pushes]
    for j in jobs:
        q.push(j)
    order = drain(q)
    assert sorted(id(j) for j in order) == sorted(id(j) for j in jobs)
    assert [j.priority for j in order] == sorted(j.priority for j in order)
    for p in Priority:
        served = [j.key for j in order if j.priority == p]
        counts = {k: served.count(k) for k in set(served)}
        seen: dict[str, int] = {}
        for k in served:
            seen[k] = seen.get(k, 0) + 1
            # before a table's n-th job, every table with n-1 jobs or more had its (n-1)-th
            assert all(seen.get(o, 0) >= seen[k] - 1 for o in counts if counts[o] >= seen[k] - 1)


@pytest.mark.parametrize(("waiting", "busy", "workers", "expected"), [
    (0, 0, 2, 200),   # a worker free for each job: the full budget
    (0, 1, 2, 200),
    (1, 1, 2, 133),   # three jobs for two workers: two thirds
    (6, 1, 2, 50),
    (100, 2, 2, 40),  # never under the floor
    (3, 0, 4, 200),
])
def test_bend(waiting: int, busy: int, workers: int, expected: int) -> None:
    assert bend(200, waiting, busy, workers, floor_ms=40) == expected


def test_bend_leaves_a_small_budget_alone() -> None:
    assert bend(30, 50, 2, 2, floor_ms=40) == 30
