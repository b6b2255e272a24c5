"""Browser tests of the web client: a real server on a free port, Debian's Chromium via Playwright
(tests/support/browser.py).

Each xdist worker starts one server (uvicorn in a thread, on a socket bound to port 0, with its
own SQLite file) and one headless Chromium; every test gets fresh browser contexts and players
with names of their own, so tests share nothing else.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests.support.browser import PHONE, LiveServer, watch

from carroca.server.settings import Settings


@pytest.fixture(scope="session")
def server_database(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The URL of the test server's database (for what an operator does beside it)."""
    return f"sqlite:///{tmp_path_factory.mktemp('web-server') / 'carroca.db'}"


@pytest.fixture(scope="session")
def server(server_database: str) -> Iterator[str]:
    """The base URL of a server with fast bots and a short casual wait."""
    settings = Settings(
        database=server_database, bot_delay_ms=0, turn_seconds=60.0,
        casual_wait_seconds=0.3, finished_keep_seconds=600.0, hand_pause_seconds=0.0,
        # Every test's players come from this one address: the per-address limits are for
        # the open internet (tests/security checks them), not for a room of test players.
        limit_guest_ip="100000/minute", limit_register_ip="100000/hour",
        limit_signups="100000/minute",
        limit_password_ip="100000/minute",
        limit_tables_player="100000/minute", max_connections_per_ip=0,
        # Nor are the newcomers' share of public events (every test player is a new guest).
        max_newcomer_tournaments=100000,
        tournament_bots=True,  # short events: bots fill the places a test does not
    )
    live = LiveServer(settings)
    live.start()
    try:
        yield live.url
    finally:
        live.stop()


@pytest.fixture
def new_context(browser: Any, server: str) -> Iterator[Any]:
    """A factory of fresh browser contexts (own cookies) at a given viewport."""
    made: list[Any] = []

    def make(viewport: dict[str, int] | None = None) -> Any:
        ctx = browser.new_context(
            viewport=viewport or PHONE, base_url=server, locale="pt-BR",
            reduced_motion="reduce",
        )
        ctx.set_default_timeout(20_000)
        made.append(ctx)
        return ctx

    yield make
    for ctx in made:
        ctx.close()


@pytest.fixture
def page(new_context: Any) -> Any:
    """A page in its own context, phone-sized, whose script errors fail the test."""
    p = new_context(PHONE).new_page()
    errors = watch(p)
    yield p
    assert not errors, f"errors in the page: {errors}"
