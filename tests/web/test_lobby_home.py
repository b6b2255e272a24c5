"""The signed-in lobby: one tap to a table (a big "Jogar" for the last ruleset, a "Jogar" on each
ruleset), and the rest — friends' table, tables, ranking, profile — behind tabs on a phone, all
side by side on a wide screen."""

from __future__ import annotations

from typing import Any

from tests.support.browser import DESKTOP, PHONE, shot, unique_name, watch
from tests.support.webplay import TABLE, open_lobby_as_guest, phone_lobby_as_guest

# The phone lobby was 3,900 px of forms; now the play card is the first screen, then one panel
# (Amigos: the friends list above the friends' table form).
PHONE_LOBBY_MAX_PX = 2300

RECT = "(el) => { const r = el.getBoundingClientRect(); return [r.top, r.bottom, r.height]; }"


def test_phone_lobby_plays_in_one_tap_and_keeps_the_rest_behind_tabs(new_context: Any) -> None:
    page, errors = phone_lobby_as_guest(new_context, unique_name("Rui"))
    page.wait_for_selector("#casual-what:has-text('Duplas de pontos')")

    # the big Jogar sits in the first screen, large, and says what it plays
    top, bottom, height = page.locator("#btn-casual").evaluate(RECT)
    assert top >= 0 and bottom <= PHONE["height"] and height >= 64, (top, bottom, height)
    # each ruleset has its own Jogar, a touch target of its own
    plays = page.locator(".rs-play")
    assert plays.count() == 6
    for i in range(plays.count()):
        assert plays.nth(i).evaluate(RECT)[2] >= 44
    # the rest is behind tabs: one panel at a time
    tabs = page.get_by_role("tab")
    assert [t.strip() for t in page.locator("#lobby-tabs [role=tab]").all_inner_texts()] == [
        "Amigos", "Mesas", "Torneios", "Ranking", "Perfil"]
    assert tabs.count() >= 4
    visible = """() => [...document.querySelectorAll('.panel')]
        .filter((p) => p.getClientRects().length).map((p) => p.dataset.panel)"""
    assert page.evaluate(visible) == ["amigos"]
    page.wait_for_load_state("networkidle")
    length = page.evaluate("document.documentElement.scrollHeight")
    assert length <= PHONE_LOBBY_MAX_PX, f"the phone lobby is {length} px long"
    shot(page, "lobby-phone")
    shot(page, "lobby-phone-full", full_page=True)

    page.click("#tab-perfil")
    page.wait_for_selector("#panel-perfil #profile .ratings")
    assert page.evaluate(visible) == ["perfil"]
    assert page.get_attribute("#tab-perfil", "aria-selected") == "true"
    page.keyboard.press("ArrowRight")  # wraps around to the first tab, focus following
    assert page.evaluate(visible) == ["amigos"]
    assert page.evaluate("document.activeElement.id") == "tab-amigos"
    page.click("#tab-mesas")
    assert page.evaluate(visible) == ["mesas"]
    shot(page, "lobby-phone-mesas")

    # one tap: Bloqueio's own Jogar opens a Bloqueio table…
    page.click(".rs-option[data-ruleset=bloqueio] .rs-play")
    page.wait_for_url("**/mesa.html?id=*")
    page.wait_for_selector(f"{TABLE}[data-status=playing]")
    assert page.get_attribute(TABLE, "data-ruleset") == "bloqueio"
    # …and back in the lobby the big button plays it again
    page.goto("/")
    page.wait_for_selector("#casual-what:has-text('Bloqueio')")
    assert page.is_checked("input[name=ruleset][value=bloqueio]")
    assert not errors, errors


def test_desktop_lobby_shows_everything_without_tabs(new_context: Any) -> None:
    page = new_context(DESKTOP).new_page()
    errors = watch(page)
    open_lobby_as_guest(page, unique_name("Lia"))
    page.wait_for_selector("#profile .ratings")
    assert not page.locator("#lobby-tabs").is_visible()
    for panel in ("amigos", "mesas", "torneios", "ranking", "perfil"):
        assert page.locator(f"#panel-{panel}").is_visible(), panel
    top, bottom, _ = page.locator("#btn-casual").evaluate(RECT)
    assert bottom <= DESKTOP["height"], (top, bottom)
    page.wait_for_load_state("networkidle")
    shot(page, "lobby-desktop")
    assert not errors, errors


# What players call each level (words.js BOT_LEVELS), weakest first; the ids stay the API's.
LEVEL_NAMES = {"random": "Iniciante", "greedy": "Fácil", "medium": "Médio",
               "expert-1": "Difícil", "expert": "Mestre"}
SAVED_BOT = "localStorage.setItem('carroca:prefs', JSON.stringify({bot: %s}))"


def test_bot_levels_are_named_weakest_first_and_a_saved_level_is_kept(new_context: Any) -> None:
    ctx = new_context(DESKTOP)
    ctx.add_init_script(SAVED_BOT % '"expert"')  # saved before the levels were renamed
    page = ctx.new_page()
    errors = watch(page)
    open_lobby_as_guest(page, unique_name("Bia"))
    served = page.evaluate("fetch('/api/bots').then((r) => r.json())")
    expected = [name for level, name in LEVEL_NAMES.items() if level in served]
    assert len(expected) == len(served), f"a level without a name for players: {served}"
    options = page.locator("#bot-level option")
    assert [t.strip() for t in options.all_inner_texts()] == expected
    assert page.input_value("#bot-level") == "expert"  # still the player's choice, now "Mestre"
    seat = page.locator("#seat-1 option")  # the friends' table names bots the same way
    assert [t.strip() for t in seat.all_inner_texts() if t.startswith("Bot ")] == [
        f"Bot {name}" for name in expected]
    assert not errors, errors

    # a level the server no longer offers falls back to Médio, not to the first option
    stale = new_context(DESKTOP)
    stale.add_init_script(SAVED_BOT % '"genio"')
    page = stale.new_page()
    open_lobby_as_guest(page, unique_name("Caio"))
    page.wait_for_selector("#bot-level option", state="attached")
    assert page.input_value("#bot-level") == "medium"
