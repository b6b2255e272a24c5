"""The "mais tempo" setting in the browser: ticked in the table's side panel, it reaches the
table (the server's state lists the seat, the seat shows it, the player's clock is twice the
table's turn), and it is remembered: the next table the player opens gives it at once."""

from __future__ import annotations

import re
from typing import Any

from tests.support.browser import unique_name
from tests.support.webplay import TABLE, open_lobby_as_guest

TURN = 20

MORE_TIME_AT_SEAT_0 = "() => (window.carroca.ctx.state?.more_time ?? []).includes(0)"
MY_CLOCK = """() => {
  const c = window.carroca.ctx.state?.clock;
  return c && c.seat === 0 ? c.seconds : null;
}"""


def open_table(page: Any) -> None:
    made = page.request.post("/api/tables", data={
        "ruleset": "bloqueio", "seats": ["me", "bot:random"], "turn_seconds": TURN})
    assert made.ok, made.text()
    page.goto(f"/mesa.html?id={made.json()['id']}")
    page.wait_for_selector(f"{TABLE}[data-status=playing]")


def test_the_setting_reaches_the_table_and_is_remembered(page: Any) -> None:
    open_lobby_as_guest(page, unique_name("Calma"))
    open_table(page)
    page.click("#btn-log")  # a phone: the side panel is a sheet
    page.wait_for_selector("#side.open")
    setting = page.get_by_role("checkbox", name=re.compile("Mais tempo nas minhas jogadas"))
    assert not setting.is_checked()
    assert page.text_content("#mais-tempo-nota") == \
        f"Nesta mesa, {2 * TURN} segundos em vez de {TURN}. Os outros veem."
    setting.check()
    page.wait_for_function(MORE_TIME_AT_SEAT_0)
    assert page.locator("#seat-bottom .badge-time").inner_text().lower() == "mais tempo"
    seconds = page.wait_for_function(MY_CLOCK).json_value()
    assert seconds == 2 * TURN

    open_table(page)  # another table: the remembered setting is sent on joining it
    page.wait_for_function(MORE_TIME_AT_SEAT_0)
    page.click("#btn-log")
    page.wait_for_selector("#side.open")
    assert page.get_by_role("checkbox", name=re.compile("Mais tempo")).is_checked()
    assert page.wait_for_function(MY_CLOCK).json_value() == 2 * TURN
