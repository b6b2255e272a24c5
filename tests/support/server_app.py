"""Server fixtures: an app on a fresh database per test (SQLite, or PostgreSQL when
`CARROCA_TEST_POSTGRES` names a server URL, as `.ci/run` sets it)."""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from carroca.server.app import create_app
from carroca.server.settings import Settings
from carroca.server.storage.db import migrate, normalize_url

POSTGRES = os.environ.get("CARROCA_TEST_POSTGRES")


@pytest.fixture(scope="session")
def template_database(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One migrated database per test process; each test starts from a copy of it (migrating
    from scratch for every test costs about a second on PostgreSQL)."""
    if not POSTGRES:
        path = tmp_path_factory.mktemp("template") / "carroca.db"
        migrate(f"sqlite:///{path}")
        yield str(path)
        return
    name = f"carroca_template_{secrets.token_hex(6)}"
    admin = sa.create_engine(normalize_url(POSTGRES), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    migrate(_postgres_url(name))
    yield name
    with admin.connect() as conn:
        conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


def _postgres_url(name: str) -> str:
    assert POSTGRES
    base = sa.engine.make_url(normalize_url(POSTGRES))
    return base.set(database=name).render_as_string(hide_password=False)


@pytest.fixture
def database(tmp_path: Path, template_database: str) -> Iterator[str]:
    """A URL to a database of its own, migrated and empty."""
    with fresh_database(tmp_path, template_database) as url:
        yield url


@contextlib.contextmanager
def fresh_database(directory: Path, template_database: str) -> Iterator[str]:
    """A copy of the template (a file in `directory` on SQLite), dropped at the end."""
    if not POSTGRES:
        target = directory / "carroca.db"
        shutil.copyfile(template_database, target)
        yield f"sqlite:///{target}"
        return
    name = f"carroca_test_{secrets.token_hex(6)}"
    admin = sa.create_engine(normalize_url(POSTGRES), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}" TEMPLATE "{template_database}"'))
    try:
        yield _postgres_url(name)
    finally:
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


#: The tests' argon2 cost: 1 pass over 8 MiB in 1 lane, 30 times less CPU than the default. The
#: tests' passwords protect nothing; what they check is who may sign in and how often.
CHEAP_PASSWORDS: dict[str, int] = {
    "password_time_cost": 1, "password_memory_kib": 8192, "password_parallelism": 1}


def settings_for(database: str, **kw: object) -> Settings:
    base: dict[str, object] = {
        "database": database, "bot_delay_ms": 0, "turn_seconds": 20.0,
        "casual_wait_seconds": 0.2, "finished_keep_seconds": 60.0, "hand_pause_seconds": 0.0,
        # Test clients are programs that play at machine speed, not people.
        "socket_frames_per_second": 0.0,
        "limit_signups": "100000/minute",
        "commit_gap_ms": 2.0,  # nobody plays alongside most tests' tables: no wait for others
        # No ranked match reviewed in the background for the fair-play signal unless a test asks
        # (tests/moderation/test_fairplay.py): the workers are the tests' own.
        "fairplay_reviews": False,
        **CHEAP_PASSWORDS,
    }
    base.update(kw)
    return Settings(**base)  # type: ignore[arg-type]


@pytest.fixture
def settings(database: str) -> Settings:
    return settings_for(database)


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as c:
        yield c


def guest(client: TestClient, name: str) -> str:
    """Sign in a guest; returns the session token (also set as the client's cookie)."""
    r = client.post("/api/guest", json={"name": name})
    assert r.status_code == 200, r.text
    token: str = r.json()["token"]
    return token


def guests(client: TestClient, *names: str) -> list[dict[str, str]]:
    """A guest signed in per name: the request headers acting as each (the client keeps no
    cookie, so that every request says who asks)."""
    tokens = [guest(client, n) for n in names]
    client.cookies.clear()
    return [{"Authorization": f"Bearer {t}"} for t in tokens]


def account(client: TestClient, name: str, password: str = "senha-secreta") -> str:
    """Register an account (ranked matches are for accounts); returns the session token."""
    r = client.post("/api/register", json={"name": name, "password": password})
    assert r.status_code == 200, r.text
    token: str = r.json()["token"]
    return token


def wait_status(
    client: TestClient, match_id: str, status: str = "finished", timeout: float = 30,
    headers: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Poll GET /api/matches/{id} until the match reaches `status` (with `headers`: as the
    player they name; a finished friends' match is its players')."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        info: dict[str, Any] = client.get(f"/api/matches/{match_id}", headers=headers).json()
        if info["status"] == status:
            return info
        time.sleep(0.02)
    raise AssertionError(f"match {match_id} never reached {status!r}")


def wait_finished(client: TestClient, match_id: str, timeout: float = 30) -> dict[str, Any]:
    return wait_status(client, match_id, "finished", timeout)
