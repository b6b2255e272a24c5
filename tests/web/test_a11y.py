"""Accessibility: names in pt-BR for every control and tile, text contrast, the hand by keyboard."""

from __future__ import annotations

import re
from typing import Any

from tests.support.a11y import SMALL_CONTROLS, check_contrast, check_names
from tests.support.browser import DESKTOP, PHONE, shot, unique_name, watch
from tests.support.webplay import (
    TABLE,
    create_friends_table,
    hand,
    phone_lobby_as_guest,
    sign_in_guest,
)


def test_names_contrast_and_keyboard_play(new_context: Any) -> None:
    page = new_context(DESKTOP).new_page()
    errors = watch(page)
    page.goto("/")
    page.wait_for_selector("#entry:not([hidden])")
    check_names(page, "entry")
    check_contrast(page, "entry")
    sign_in_guest(page, unique_name("Davi"))
    page.wait_for_selector("#home:not([hidden]) #rs-list input")
    page.wait_for_selector("#profile .ratings")
    check_names(page, "lobby")
    check_contrast(page, "lobby")

    create_friends_table(page, "duplas-torneio", ["bot:random", "bot:random", "bot:random"])
    page.wait_for_selector(f"{TABLE}[data-status=playing][data-my-turn=true]")
    check_names(page, "table")
    check_contrast(page, "table")
    tiles = page.locator("#hand [data-tile]")
    for i in range(tiles.count()):
        label = str(tiles.nth(i).get_attribute("aria-label"))
        assert re.fullmatch(r"Pedra \d e \d|Carroça de \w+ \(\d e \d\)", label), label
    assert page.get_by_role("button", name="Passo").count() == 1

    # Tab to a lit tile, Enter plays it (and Enter again on the first place, when it fits twice);
    # with no tile to play (the bots before may leave none), Tab reaches "Passo" and Enter passes.
    held = hand(page)
    version = page.get_attribute(TABLE, "data-version")
    for _ in range(60):
        page.keyboard.press("Tab")
        played = page.evaluate("""() => {
          const el = document.activeElement;
          return el?.dataset?.legal === 'true' ? (el.dataset.tile ?? el.id) : null;
        }""")
        if played:
            break
    else:
        raise AssertionError("Tab never reached a playable tile or Passo")
    page.keyboard.press("Enter")
    if page.evaluate("document.activeElement?.dataset?.end !== undefined"):
        page.keyboard.press("Enter")
    page.wait_for_function(
        "(v) => document.querySelector('[data-testid=table]').dataset.version !== v", arg=version
    )
    if played == "btn-pass":
        assert hand(page) == held
    else:
        assert played in held and played not in hand(page)
    shot(page, "desktop-table-torneio")
    assert not errors, errors


def test_phone_fits_without_horizontal_scroll(new_context: Any) -> None:
    """At 390 px: no horizontal scrolling, every control at least 44 px, in lobby and table."""
    page, errors = phone_lobby_as_guest(new_context, unique_name("Eva"))
    create_friends_table(page, "duplas-pontos", ["bot:random", "bot:random", "bot:random"])
    page.wait_for_selector(f"{TABLE}[data-status=playing][data-my-turn=true]")
    for where in ("/", page.url):
        page.goto(where)
        page.wait_for_load_state("networkidle")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"{where}: page is {width} px wide"
        small = page.evaluate(SMALL_CONTROLS)
        assert not small, f"{where}: controls under 44 px: {small}"
    assert not errors, errors
