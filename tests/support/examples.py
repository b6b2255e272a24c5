"""How many examples a Hypothesis test tries: its full count under the suite's own profile
(`make test`), a fifth of it under `check` (`make check`, `--hypothesis-profile=check`).

The profiles are registered in tests/conftest.py. A test that names its own count writes
`max_examples=examples(300)`: the count is scaled as the default of the tests that name none.
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings

FULL = 100  # Hypothesis' own default, which the counts written in the tests are relative to
FAST = 20  # `make check`: the same properties, fewer inputs each


def register_profiles() -> None:
    """`suite`, loaded for every run: no deadline and no health check on input generation's
    speed, since a busy shared machine makes either fail by chance; `check`: the same with
    fewer examples."""
    suite = settings(max_examples=FULL, deadline=None,
                     suppress_health_check=[HealthCheck.too_slow])
    settings.register_profile("suite", suite)
    settings.register_profile("check", suite, max_examples=FAST)
    settings.load_profile("suite")  # `--hypothesis-profile` on the command line comes later


def examples(full: int) -> int:
    """`full` under the suite's profile, scaled alike under one with fewer examples."""
    return max(5, full * settings().max_examples // FULL)
