"""Browser tests of the web client: a real server on a free port, Debian's Chromium via Playwright.

Each xdist worker starts one server (uvicorn in a thread, on a socket bound to port 0, with its
own SQLite file) and one headless Chromium; every test gets fresh browser contexts and players
with names of their own, so tests share nothing else.

Chromium is taken from CARROCA_CHROMIUM or /usr/bin/chromium (Debian: `apt-get install
chromium`); Playwright never downloads a browser here. Without it the tests are skipped.
"""

from __future__ import annotations

import os
import secrets
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from carroca.server.app import create_app
from carroca.server.edge.guard import uvicorn_config
from carroca.server.settings import Settings

CHROMIUM = Path(os.environ.get("CARROCA_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 768}


class LiveServer:
    """The app served by uvicorn in a background thread."""

    def __init__(self, settings: Settings) -> None:
        import uvicorn

        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        config = uvicorn_config(create_app(settings), settings, timeout_graceful_shutdown=2)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True,
            name="carroca-web-test-server",
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(15)
        self.sock.close()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a server with fast bots and a short casual wait."""
    db = tmp_path_factory.mktemp("web-server") / "carroca.db"
    settings = Settings(
        database=f"sqlite:///{db}", bot_delay_ms=0, turn_seconds=60.0,
        casual_wait_seconds=0.3, finished_keep_seconds=600.0, hand_pause_seconds=0.0,
        # Every test's players come from this one address: the per-address limits are for
        # the open internet (tests/security checks them), not for a room of test players.
        limit_guest_ip="100000/minute", limit_register_ip="100000/hour",
        limit_password_ip="100000/minute",
        limit_tables_player="100000/minute", max_connections_per_ip=0,
        tournament_bots=True,  # short events: bots fill the places a test does not
    )
    live = LiveServer(settings)
    live.start()
    try:
        yield live.url
    finally:
        live.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        message = f"Chromium not found at {CHROMIUM} (Debian: apt-get install chromium)"
        if os.environ.get("CARROCA_REQUIRE_BROWSER"):
            pytest.fail(message)  # CI installs it: a missing browser is a failure there
        pytest.skip(message)
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is absent")
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


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


def watch(p: Any) -> list[str]:
    """Collect uncaught script errors of a page, and anything its Content-Security-Policy
    blocked (a blocked style or script is otherwise silent)."""
    errors: list[str] = []
    p.on("pageerror", lambda exc: errors.append(str(exc)))
    p.on("console", lambda msg: errors.append(msg.text)
         if "Content Security Policy" in msg.text else None)
    return errors


def unique_name(prefix: str) -> str:
    return f"{prefix}{secrets.token_hex(3)}"


def shot(p: Any, name: str, full_page: bool = False) -> Path:
    """Save a screenshot under test-artifacts/screenshots/ (git-ignored)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    p.screenshot(path=str(path), full_page=full_page, animations="disabled")
    return path
