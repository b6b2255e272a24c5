"""The suite's set-up: `tests.support` importable whatever the rootdir's place on sys.path, its
fixture modules registered once, the tiers' markers set by directory, and tests/cluster kept out
of the whole suite.

Tiers (markers registered in pyproject.toml): `browser` (tests/web: Chromium), `cluster`
(tests/cluster: several servers behind HAProxy), `bench` (tests/bench: smoke runs of the bench
scripts), `slow` (more than a few seconds each: marked one by one, and every test that starts real
`carroca serve` processes through the `servers` or `shared_server` fixtures), `postgres` (the
tests that exercise the database layer, run again on PostgreSQL by `make unit-postgres`).

Hypothesis tests try fewer examples in `make check` (tests/support/examples.py).
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

_ROOT = str(Path(__file__).resolve().parent.parent)
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

# Plain asserts in the shared tools report their operands, as they would in a test module.
pytest.register_assert_rewrite("tests.support")

from tests.support.examples import register_profiles  # noqa: E402 (after the rewrite hook)

register_profiles()  # Hypothesis: `suite` for every run, `check` for `make check`

pytest_plugins = (
    "tests.support.server_app",  # template_database, database, settings, client
    "tests.support.serverproc",  # servers: real `carroca serve` processes
    "tests.support.browser",  # browser: one headless Chromium per test process
)

_TESTS = Path(__file__).resolve().parent
_CLUSTER_TESTS = _TESTS / "cluster"
#: Markers every test under a directory carries.
_BY_DIRECTORY = {"web": "browser", "cluster": "cluster", "bench": "bench"}


@pytest.fixture(autouse=True)
def _no_browser_loop(request: pytest.FixtureRequest) -> Iterator[None]:
    """Playwright's sync API (the `browser` session fixture) leaves its event loop set as this
    thread's running loop between its calls: any later test of the same process that calls
    `asyncio.run` would be refused ("cannot be called from a running event loop"), and a test
    process that ran a browser test may be given any other test next (`--dist worksteal`). Such
    a test runs with no loop set; the browser's is set back after it."""
    loop = asyncio._get_running_loop()
    if loop is None or "browser" in request.fixturenames:
        yield
        return
    asyncio._set_running_loop(None)
    try:
        yield
    finally:
        asyncio._set_running_loop(loop)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        parts = item.path.relative_to(_TESTS).parts if _TESTS in item.path.parents else ()
        marker = _BY_DIRECTORY.get(parts[0]) if parts else None
        if marker:
            item.add_marker(marker)
        if "browser" in item.fixturenames and marker != "browser":
            item.add_marker("browser")  # a cluster test that drives Chromium
        if "servers" in item.fixturenames or "shared_server" in item.fixturenames:
            item.add_marker("slow")  # real `carroca serve` processes: seconds each to start


# tests/cluster starts a PostgreSQL, a Redis, HAProxy and several servers per test: it runs on
# its own (`make unit-cluster`, or `pytest tests/cluster`), never within the whole suite that
# `make unit` runs with `-n auto` on SQLite. So the directory is collected only when an argument
# names it, or something inside it.
def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    if collection_path != _CLUSTER_TESTS:
        return None
    for arg in config.args:
        named = (config.invocation_params.dir / arg.split("::")[0]).resolve()
        if named == _CLUSTER_TESTS or _CLUSTER_TESTS in named.parents:
            return None
    return True
