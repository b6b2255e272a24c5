"""The table, second pass: a spectator's board on a desktop, announcements on time and off the
count, friends' tables that wait for friends, a readable end of a hand, names that stay whole,
notices that do not linger, a moment of victory at the end of a match, and a table link opened
signed out without an error in the console.

Most tests answer the page's WebSocket themselves (tests/web/test_table_feel.Script: the rules
engine on a scripted deal, frames pushed when the test wants them).
"""

from __future__ import annotations

from typing import Any

from tests.web.conftest import DESKTOP, PHONE, shot, watch
from tests.web.test_table_feel import RECT, Script, open_table, rect, wait_version

PEOPLE = [{"name": name, "bot": False, "connected": True} for name in ("Ana", "Bia", "Caio", "Davi")]


# ---------------------------------------------------------------------- 1. a spectator's board


def test_a_spectator_sees_the_board_on_a_desktop_and_a_phone(new_context: Any) -> None:
    """A spectator (no seat) of a 2v2 and of a 1v1: the board takes most of the table, the
    bottom seat's tile backs are as small as the others', every tile on the table is drawn at a
    readable size."""
    for ruleset, n in (("duplas-pontos", 4), ("mano-a-mano", 2)):
        for size, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
            script = Script(ruleset, "plateia", viewer=None, players=PEOPLE[:n])
            stream = [script.state(), *script.others(until=lambda m: len(m.steps) >= 5)]
            page = new_context(size).new_page()
            errors = watch(page)
            script.serve(page, stream)
            open_table(page)
            wait_version(page, script.version)
            assert page.get_attribute("[data-testid=table]", "data-seat") == ""
            board = rect(page, ".board-wrap")
            assert board[3] - board[1] > 0.4 * size["height"], (ruleset, name, board)
            backs = page.locator(".seat .backs .tile-svg")
            assert backs.count() > 0
            for box in backs.evaluate_all(f"els => els.map({RECT})"):
                assert max(box[2] - box[0], box[3] - box[1]) <= 40, (ruleset, name, box)
            plays = len(script.state()["view"]["table"])
            tiles = page.locator(".board-svg .tile")
            assert tiles.count() == plays
            for box in tiles.evaluate_all(f"els => els.map({RECT})"):
                assert min(box[2] - box[0], box[3] - box[1]) >= 18, (ruleset, name, box)
            me = rect(page, "#me-area")
            assert me[3] - me[1] < 0.25 * size["height"], (ruleset, name, me)
            shot(page, f"{name}-spectator-{ruleset}")
            assert not errors, errors
            page.close()
