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
from tests.support.browser import PHONE, LiveServer, watch, web_settings


@pytest.fixture(scope="session")
def server_database(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The URL of the test server's database (for what an operator does beside it)."""
    return f"sqlite:///{tmp_path_factory.mktemp('web-server') / 'carroca.db'}"


@pytest.fixture(scope="session")
def server(server_database: str) -> Iterator[str]:
    """The base URL of a server with fast bots and a short casual wait."""
    live = LiveServer(web_settings(server_database))
    live.start()
    try:
        yield live.url
    finally:
        live.stop()


@pytest.fixture
def new_context(browser: Any, server: str) -> Iterator[Any]:
    """A factory of fresh browser contexts (own cookies) at a given viewport.

    The service worker is left out unless a test asks for it (`service_workers=True`: the
    offline tests of tests/web/test_pwa.py): a fresh context installs it and caches every page
    and script again, about a third of the CPU of its first page, and nothing else the tests
    check goes through it."""
    made: list[Any] = []

    def make(viewport: dict[str, int] | None = None, service_workers: bool = False) -> Any:
        ctx = browser.new_context(
            viewport=viewport or PHONE, base_url=server, locale="pt-BR",
            reduced_motion="reduce", service_workers="allow" if service_workers else "block",
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
