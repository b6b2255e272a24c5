"""The browser tests' tools: Debian's Chromium via Playwright (the `browser` fixture, one per
test process), the app served by uvicorn in a thread (`LiveServer`), viewports, screenshots, and a
watch on a page's script errors.

Chromium is taken from CARROCA_CHROMIUM, else Debian's old headless shell (`apt-get install
chromium-headless-shell`: a fifth less CPU than chromium's own headless mode, the same engine),
else /usr/bin/chromium (`apt-get install chromium`); Playwright never downloads a browser here.
Without one the tests are skipped.
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
from tests.support.server_app import CHEAP_PASSWORDS

from carroca.server.app import create_app
from carroca.server.edge.guard import uvicorn_config
from carroca.server.settings import Settings

HEADLESS_SHELL = Path("/usr/lib/chromium/chromium-headless-shell")
CHROMIUM = Path(os.environ.get("CARROCA_CHROMIUM") or
                (HEADLESS_SHELL if HEADLESS_SHELL.exists() else "/usr/bin/chromium"))
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


def web_settings(database: str, **overrides: Any) -> Settings:
    """The browser tests' server: fast bots, a short casual wait, a turn clock of 60 s."""
    fields: dict[str, Any] = dict(
        database=database, bot_delay_ms=0, turn_seconds=60.0,
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
        # Nor are the ranked queue's address marks: test players share 127.0.0.1 and would never
        # be paired (tests/security checks the marks).
        ranked_address_marks=False,
        api_keepalive_seconds=1.0,  # a bot's client told to stop hears the stream within 1 s
        # Nor is a socket's frame rate: the tests' own sockets play at machine speed against
        # bots that answer at once (tests/security checks the limit).
        socket_frames_per_second=0,
        **CHEAP_PASSWORDS,
    )
    fields.update(overrides)
    return Settings(**fields)


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
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        message = (f"Chromium not found at {CHROMIUM} "
                   "(Debian: apt-get install chromium-headless-shell)")
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
