"""The operator's announcement (`carroca admin announce`) as players see it: a banner under the
lobby's header at the next page, at a table (live, over the socket), closable, gone when taken
down; on a phone and on a desktop."""

from __future__ import annotations

from typing import Any

import pytest
from tests.support.browser import DESKTOP, PHONE, shot, unique_name, watch
from tests.support.webplay import open_lobby_as_guest, sign_in

from carroca.server.storage import admin, db

TEXT = "Manutenção hoje às 23h: as mesas voltam em 5 minutos."


def operator(database: str, text: str | None) -> None:
    engine = db.make_engine(database)
    try:
        with engine.begin() as conn:
            if text is None:
                admin.clear_announcements(conn)
            else:
                admin.announce(conn, text, hours=1)
    finally:
        engine.dispose()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_banner_comes_closes_and_goes(new_context: Any, server_database: str,
                                          viewport: dict[str, int]) -> None:
    page = new_context(viewport).new_page()
    errors = watch(page)
    sign_in(page.context, unique_name("Avisada"))
    made = page.request.post("/api/matches", data={
        "ruleset": "bloqueio", "options": {"target": 6}, "seats": ["bot:greedy"] * 2})
    assert made.status == 201, made.text()
    try:
        operator(server_database, TEXT)
        page.goto(f"/mesa.html?id={made.json()['id']}")  # watching a bots' table
        banner = page.locator("#announcement")
        banner.wait_for()  # from the page's load, or its socket, whichever comes first
        assert banner.get_attribute("role") == "status"
        assert TEXT in (banner.text_content() or "")
        box = banner.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
        shot(page, f"announcement-{viewport['width']}")

        other = new_context(viewport).new_page()  # another player, arriving in the lobby
        other_errors = watch(other)
        open_lobby_as_guest(other, unique_name("Chegou"))
        other.locator("#announcement").wait_for()
        other.click("#announcement .announcement-close")
        assert other.locator("#announcement").count() == 0
        other.reload()  # closed for the rest of the visit
        other.wait_for_load_state("networkidle")
        assert other.locator("#announcement").count() == 0
        assert not other_errors, other_errors
    finally:
        operator(server_database, None)
    banner.wait_for(state="detached")  # taken down at the table, over its socket
    assert not errors, errors
