"""The lobby's Torneios tab on a phone and on a desktop: an event of the operator's schedule
reads "Todo dia às 20h" (in the list and on its page), and each list shows its first page with
"Ver mais" for the next. A server of its own: its schedule and its 13 upcoming events."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest
from tests.support.browser import DESKTOP, PHONE, LiveServer, shot, unique_name, watch
from tests.support.webplay import open_lobby_as_guest

from carroca.server.settings import Settings

OTHERS = 12  # events besides the scheduled one: 13 upcoming, 10 a page


@pytest.fixture(scope="module")
def scheduled_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    home: Path = tmp_path_factory.mktemp("scheduled-server")
    schedule = home / "agenda.toml"
    schedule.write_text('''ahead_hours = 24

[[event]]
key = "suico-20h"
at = "20:00"
name = "Suíço das 20h"
format = "swiss"
ruleset = "duplas-pontos"
rounds = 5
''', encoding="utf-8")
    settings = Settings(
        database=f"sqlite:///{home / 'carroca.db'}", bot_delay_ms=0, turn_seconds=60.0,
        limit_guest_ip="100000/minute", limit_tournaments_player="100000/hour",
        max_connections_per_ip=0, max_upcoming_tournaments_per_player=OTHERS,
        max_newcomer_tournaments=OTHERS, tournament_schedule=str(schedule))
    live = LiveServer(settings)
    live.start()
    try:
        with httpx2.Client(base_url=live.url, trust_env=False, timeout=30) as c:
            token = c.post("/api/guest", json={"name": "Organizador"}).json()["token"]
            for i in range(OTHERS):  # after the next 20:00 (made 24 h ahead at most)
                made = c.post("/api/tournaments", headers={"Authorization": f"Bearer {token}"},
                              json={"name": f"Copa {i + 1:02d}", "format": "arena",
                                    "ruleset": "bloqueio", "duration": 600,
                                    "starts_in": 25 * 3600 + 60 * i})
                assert made.status_code == 201, made.text
        yield live.url
    finally:
        live.stop()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_daily_event_and_the_next_page(browser: Any, scheduled_server: str,
                                         viewport: dict[str, int]) -> None:
    ctx = browser.new_context(viewport=viewport, base_url=scheduled_server, locale="pt-BR",
                              reduced_motion="reduce")
    ctx.set_default_timeout(20_000)
    try:
        page = ctx.new_page()
        errors = watch(page)
        open_lobby_as_guest(page, unique_name("Rita"))
        if viewport is PHONE:
            page.click("#tab-torneios")
        items = "#tourney-upcoming li[data-tourney]"
        daily = page.locator(f"{items}:has-text('Suíço das 20h')")
        daily.wait_for()
        assert daily.locator(".recurring").text_content() == "Todo dia às 20h"
        assert daily.locator(".recurring").is_visible()
        assert daily.locator(".recurring").evaluate(  # read whole, not cut off
            "el => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight")
        assert page.locator(items).count() == 10
        more = page.locator("#tourney-upcoming button:has-text('Ver mais')")
        assert more.is_visible()
        more.scroll_into_view_if_needed()
        shot(page, f"torneios-ver-mais-{viewport['width']}")
        more.click()
        page.wait_for_function(f"() => document.querySelectorAll({items!r}).length === 13")
        assert page.locator("#tourney-upcoming button:has-text('Ver mais')").count() == 0
        names = page.locator(f"{items} strong").all_text_contents()
        assert names == ["Suíço das 20h", *(f"Copa {i:02d}" for i in range(1, OTHERS + 1))]
        daily.locator("a").click()
        page.wait_for_url("**/torneio.html?id=*")
        page.wait_for_selector("[data-testid=tourney][data-status=upcoming]")
        assert "Todo dia às 20h" in (page.text_content("#t-what") or "")
        assert not errors, errors
    finally:
        ctx.close()
