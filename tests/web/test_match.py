"""Whole matches in the browser: a guest against bots, by clicking what the table lights up."""

from __future__ import annotations

import re
from typing import Any

from tests.support.browser import DESKTOP, shot, unique_name, watch
from tests.support.sockplay import play_match, token_of
from tests.support.webplay import (
    TABLE,
    Tally,
    act,
    create_friends_table,
    hand,
    open_lobby_as_guest,
    phone_lobby_as_guest,
    play_to_end,
    scores,
    wait_turn_or_end,
)


def check_end_screen(page: Any) -> None:
    dialog = page.locator("#end-dialog")
    assert re.search(r"venceu|venceram|Vitória", dialog.locator("#end-title").inner_text())
    assert dialog.locator("[data-testid=final-score]").inner_text()
    match_id = page.evaluate("new URLSearchParams(location.search).get('id')")
    assert dialog.locator(f"a[href='replay.html?id={match_id}']").count() == 1
    assert dialog.locator(f"a[href='justo.html?id={match_id}']").count() == 1
    assert page.get_attribute(TABLE, "data-status") == "finished"


def hand_number(page: Any) -> int:
    """The hands over so far, as the page's last state has them."""
    return int(page.evaluate("window.carroca.ctx.state.view?.hand_number ?? 0"))


def test_duplas_pontos_against_bots_to_the_end(new_context: Any) -> None:
    """2v2 with the spinner, target 100: every kind of click until the end-of-match screen; an
    illegal (dimmed) tile changes nothing; screenshots at phone size."""
    page, errors = phone_lobby_as_guest(new_context, unique_name("Ana"))
    shot(page, "phone-lobby", full_page=True)
    create_friends_table(
        page, "duplas-pontos", ["bot:greedy", "bot:greedy", "bot:greedy"], {"target": "100"}
    )
    page.wait_for_selector(f"{TABLE}[data-ruleset=duplas-pontos]")
    assert page.get_attribute(TABLE, "data-seats") == "4"
    assert page.inner_text("#score-label-0") in ("Nós", "Eles")

    tally = Tally()
    checked_illegal = shot_choice = False
    while wait_turn_or_end(page) != "finished":
        dim = page.locator("#hand [data-legal=false]")
        if not checked_illegal and dim.count() and page.locator("#hand [data-legal=true]").count():
            tile = dim.first.get_attribute("data-tile")
            before = (page.get_attribute(TABLE, "data-version"), hand(page), scores(page),
                      page.locator(".board-svg .tile").count())
            dim.first.click(force=True)  # marked aria-disabled: a user can still tap it
            page.wait_for_selector("#turn-msg.hint")
            assert "não encaixa" in page.inner_text("#turn-msg")
            after = (page.get_attribute(TABLE, "data-version"), hand(page), scores(page),
                     page.locator(".board-svg .tile").count())
            assert after == before and tile in after[1]
            assert page.get_attribute(TABLE, "data-busy") == "false"
            checked_illegal = True
        if not shot_choice and page.locator(".board-svg .tile").count() >= 4:
            shot(page, "phone-table-duplas")
            shot_choice = True
        act(page, tally)
    page.wait_for_selector("#end-dialog[open]")
    check_end_screen(page)
    shot(page, "phone-match-end-duplas")
    assert checked_illegal
    assert tally.tiles > 0
    assert max(scores(page)) >= 100
    assert not errors, errors


def test_mano_a_mano_casual_to_the_end(new_context: Any, server: str) -> None:
    """1v1 with a boneyard from "Jogar agora" (a casual table that bots fill), at desktop size:
    Comprar (and Passo) when nothing fits, until the end-of-match screen. The page clicks until
    a hand has ended with a draw among its clicks; the rest of the match (to 50 points against
    a random bot: many hands) is played on the player's own socket while the page shows it."""
    page = new_context(DESKTOP).new_page()
    errors = watch(page)
    open_lobby_as_guest(page, unique_name("Bia"))
    page.check("input[name=ruleset][value=mano-a-mano]")
    page.select_option("#bot-level", "random")
    shot(page, "desktop-lobby")
    page.click("#btn-casual")
    page.wait_for_url("**/mesa.html?id=*")
    page.wait_for_selector(f"{TABLE}[data-status=playing]")
    assert page.get_attribute(TABLE, "data-ruleset") == "mano-a-mano"
    assert page.get_attribute(TABLE, "data-seats") == "2"
    assert page.locator("#btn-draw").is_visible()
    tally = Tally()
    shot_taken = False
    while wait_turn_or_end(page) != "finished" and not (tally.draws and hand_number(page)):
        if not shot_taken and page.locator(".board-svg .tile").count() >= 5:
            shot(page, "desktop-table-mano")
            shot_taken = True
        act(page, tally)
    match_id = page.url.split("id=")[1]
    play_match(server, [token_of(page.context)], match_id)
    tally = play_to_end(page, tally)
    check_end_screen(page)
    shot(page, "desktop-match-end-mano")
    assert tally.tiles > 0
    assert not errors, errors
