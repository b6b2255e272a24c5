"""A player who reloads the page, or whose connection drops, comes back to the same table."""

from __future__ import annotations

from typing import Any

from tests.support.browser import PHONE, unique_name, watch
from tests.support.webplay import (
    TABLE,
    Tally,
    act,
    hand,
    open_new_table,
    scores,
    sign_in,
    wait_turn_or_end,
)


def table_tiles(page: Any) -> int:
    return int(page.locator(".board-svg > .tile").count())


def test_reload_and_dropped_connection_bring_the_table_back(new_context: Any) -> None:
    page = new_context(PHONE).new_page()
    errors = watch(page)
    sign_in(page.context, unique_name("Caio"))
    open_new_table(page, "pontos", ["bot:greedy"], {"target": 100})
    tally = Tally()
    # play a little, so that the table holds tiles
    for _ in range(2):
        assert wait_turn_or_end(page) == "playing"
        act(page, tally)
    assert wait_turn_or_end(page) == "playing"
    before = (
        hand(page), table_tiles(page), scores(page), page.get_attribute(TABLE, "data-version")
    )
    assert before[0] and before[1] > 0

    # 1. a reload: a new page, a new socket; the server sends the whole view again
    page.reload()
    page.wait_for_selector(f"{TABLE}[data-status=playing][data-my-turn=true]")
    after = (
        hand(page), table_tiles(page), scores(page), page.get_attribute(TABLE, "data-version")
    )
    assert after == before

    # 2. the socket drops: the page reconnects by itself and joins again
    assert page.get_attribute(TABLE, "data-connects") == "1"
    page.evaluate("window.carroca.socket.drop()")
    page.wait_for_selector(f"{TABLE}[data-connects='2'][data-connection=online]")
    page.wait_for_selector(f"{TABLE}[data-my-turn=true]")
    assert (hand(page), table_tiles(page), scores(page)) == before[:3]

    # moves still go through after both (a move id never repeats across reloads)
    act(page, tally)
    assert wait_turn_or_end(page) in ("playing", "finished")
    assert not errors, errors
