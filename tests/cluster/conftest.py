"""Cluster fixtures: a PostgreSQL server for the whole run, a Redis per test process, a fresh
database and a local cluster (tests/support/clusterproc.py: nodes behind HAProxy) for each test.

- PostgreSQL: the server CARROCA_TEST_POSTGRES names, else a throwaway one started here with
  scripts/test-postgres.sh. Each test gets a database of its own, copied from a migrated
  template: tests/support/server_app.py's `database` fixture.
- Redis: the one CARROCA_TEST_REDIS names (the tests empty its database 0 and may stop and start
  it: CARROCA_TEST_REDIS_DIR names its scripts/test-redis.sh directory, without which
  `restart_redis` cannot be used), else a throwaway one started here with scripts/test-redis.sh.
- HAProxy: Debian's, installed by scripts/test-haproxy.sh when missing (as root).

`make unit-cluster` starts PostgreSQL once and sets its variable, and runs two test processes
(`-n 2`), each starting a Redis of its own. Whatever cannot be had skips the tests, saying what is
missing; under CARROCA_CI it fails them instead. With CARROCA_TEST_REDIS set, the tests run one
at a time: they empty that Redis.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import Any, NoReturn

import pytest
import redis
import sqlalchemy as sa
import tests.support.server_app as server_fixtures
from tests.support.clusterproc import HAPROXY_SCRIPT, REDIS_SCRIPT, ROOT, Cluster, RedisServer

from carroca.server.storage.db import normalize_url

POSTGRES_SCRIPT = ROOT / "scripts" / "test-postgres.sh"
PROMETHEUS_SCRIPT = ROOT / "scripts" / "test-prometheus.sh"
CLUSTERS = pytest.StashKey[list[Cluster]]()


def unavailable(reason: str) -> NoReturn:
    if os.environ.get("CARROCA_CI"):
        pytest.fail(f"{reason} (CARROCA_CI is set: a failure, not a skip)", pytrace=False)
    pytest.skip(reason)


def _script(script: Path, *args: str) -> subprocess.CompletedProcess[str]:
    # Installing a package with apt-get can take minutes on a bare machine.
    return subprocess.run(["bash", str(script), *args], capture_output=True, text=True,
                          timeout=900, check=False)


def _why(done: subprocess.CompletedProcess[str]) -> str:
    lines = done.stderr.strip().splitlines()
    return lines[-1] if lines else f"exit status {done.returncode}"


def _started(script: Path, name: str, missing: str, remedy: str) -> tuple[str, str]:
    """A throwaway server that `script` starts in a new directory: the directory and the URL it
    printed; the tests that need it `unavailable` when it could not start."""
    workdir = tempfile.mkdtemp(prefix=f"carroca-cluster-{name}-")
    done = _script(script, "start", workdir)
    if done.returncode:
        shutil.rmtree(workdir, ignore_errors=True)
        unavailable(f"{missing} ({_why(done)}); {remedy}")
    return workdir, done.stdout.strip()


@pytest.fixture(scope="session", autouse=True)
def postgres_server() -> Iterator[str]:
    """A PostgreSQL server's URL (its `postgres` database). Autouse, so that it is there before
    tests/support/server_app.py's session `template_database`, which reads it."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        unavailable("the cluster tests need the PostgreSQL driver psycopg: make setup")
    url = os.environ.get("CARROCA_TEST_POSTGRES")
    if url:
        engine = sa.create_engine(normalize_url(url), poolclass=sa.pool.NullPool,
                                  connect_args={"connect_timeout": 5})
        try:
            with engine.connect():
                pass
        except sa.exc.OperationalError as exc:
            unavailable(f"PostgreSQL at CARROCA_TEST_POSTGRES does not answer: {exc.orig}")
        finally:
            engine.dispose()
        yield url
        return
    # Not under pytest's temporary directory: PostgreSQL runs as the `postgres` user when we are
    # root, and must reach its directory (scripts/test-postgres.sh).
    workdir, url = _started(POSTGRES_SCRIPT, "pg", "no PostgreSQL for the cluster tests",
                            "install it, or set CARROCA_TEST_POSTGRES to a server URL")
    try:
        # tests/support/server_app.py reads CARROCA_TEST_POSTGRES when it is imported: point its
        # `database` fixture at this server for the run.
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(server_fixtures, "POSTGRES", url)
            yield url
    finally:
        _script(POSTGRES_SCRIPT, "stop", workdir)
        shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    url = os.environ.get("CARROCA_TEST_REDIS")
    workdir: str | None = None
    if url:
        given = os.environ.get("CARROCA_TEST_REDIS_DIR")
        server = RedisServer(url, Path(given) if given else None)
    else:
        workdir, url = _started(REDIS_SCRIPT, "redis", "no Redis for the cluster tests",
                                "install redis-server, or set CARROCA_TEST_REDIS to a server URL")
        server = RedisServer(url, Path(workdir))
    try:
        try:
            with redis.Redis.from_url(server.url, socket_timeout=5) as client:
                client.ping()
        except redis.RedisError as exc:
            unavailable(f"Redis at {server.url} does not answer: {exc}")
        yield server
    finally:
        if workdir is not None:
            _script(REDIS_SCRIPT, "stop", workdir)
            shutil.rmtree(workdir, ignore_errors=True)


def _installed(script: Path, missing: str) -> str:
    """The binary `script` installs (with apt-get when missing and we are root), or the tests
    that need it `unavailable`, saying `missing`."""
    done = _script(script, "install")
    if done.returncode:
        unavailable(f"{missing} ({_why(done)})")
    return done.stdout.strip()


@pytest.fixture(scope="session")
def haproxy() -> str:
    """The haproxy binary."""
    return _installed(HAPROXY_SCRIPT, "no HAProxy for the cluster tests")


@pytest.fixture(scope="session")
def prometheus_binary() -> str:
    """Debian's prometheus."""
    return _installed(PROMETHEUS_SCRIPT, "no Prometheus for the monitoring tests")


@pytest.fixture
def cluster_factory(request: pytest.FixtureRequest, database: str,
                    redis_server: RedisServer, haproxy: str, tmp_path: Path
                    ) -> Iterator[Callable[..., Cluster]]:
    """Starts the test's cluster with other settings than `cluster`'s: `nodes`, leases, `env`,
    `flags` (Cluster's keywords). One cluster per test: it owns the test's database."""
    started: list[Cluster] = request.node.stash.setdefault(CLUSTERS, [])

    def start(**options: Any) -> Cluster:
        if started:
            raise RuntimeError("one cluster per test (it owns the test's database)")
        assert database.startswith("postgresql"), database
        started.append(Cluster(database, redis_server.url, tmp_path,
                               redis_dir=redis_server.dir, **options))
        return started[-1]

    yield start
    for cluster in started:
        cluster.stop()


@pytest.fixture
def cluster(cluster_factory: Callable[..., Cluster]) -> Cluster:
    """Three nodes (n1, n2, n3) behind the proxy, with short leases."""
    return cluster_factory()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]
                              ) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """A failing test's report shows the end of every node's and the proxy's log."""
    report = yield
    if report.failed:
        for cluster in item.stash.get(CLUSTERS, []):
            with contextlib.suppress(OSError):
                report.sections.append(("cluster logs", cluster.logs()))
    return report
