"""A tournament in the browser, on a phone and on a desktop: a player creates an event from the
lobby's Torneios tab, registers, starts it (bots fill the other places), is taken to each of
their tables, plays them, and sees the podium; a knockout's bracket is drawn; the end dialog of
an event's match leads on in the event (the next table, else the event; out, or champion); a
player reading another page is taken to their table, one in a match in play called by a
banner. (A no-show: test_tournament_noshow.py.)"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from tests.support.browser import DESKTOP, PHONE, shot, unique_name, watch
from tests.support.sockplay import play_match, token_of
from tests.support.webplay import TABLE, open_lobby_as_guest, open_new_table, play_to_end, sign_in

ON_TABLE = """() => location.pathname.endsWith('/mesa.html') ||
    Boolean(document.querySelector('#btn-my-match'))"""


FIRST_LINK = """() => document.querySelector(
    '#end-dialog[open] .end-links > :first-child')?.textContent"""


def first_link(page: Any, text: str) -> None:
    """The end dialog's first (main) action reads `text`."""
    page.wait_for_function(f"() => ({FIRST_LINK})() === {text!r}")


def to_my_table(page: Any) -> str:
    """From the event page: taken to the table by the socket (or by the link polling shows)."""
    page.wait_for_function(ON_TABLE)
    try:  # the socket's frame navigates at once
        page.wait_for_url("**/mesa.html?id=*", timeout=3000)
    except PlaywrightTimeout:  # the frame came before the socket was up: polling's link
        page.click("#btn-my-match")
        page.wait_for_url("**/mesa.html?id=*")
    return str(page.url)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_from_registration_to_the_podium(new_context: Any, viewport: dict[str, int]) -> None:
    page = new_context(viewport).new_page()
    errors = watch(page)
    name = unique_name("Tina")
    open_lobby_as_guest(page, name)
    if viewport is PHONE:
        page.click("#tab-torneios")
    page.wait_for_selector("#tourney-upcoming li")
    page.click("#tourney-more > summary")
    page.fill("#t-name", f"Copa {name}")
    page.select_option("#t-format", "swiss")
    page.select_option("#t-ruleset", "bloqueio")
    page.fill("#t-opt-target", "1")
    page.fill("#t-rounds", "2")
    page.fill("#t-capacity", "4")
    page.select_option("#t-bots", "greedy")
    shot(page, f"tourney-create-{viewport['width']}")
    page.click("#tourney-form button[type=submit]")
    page.wait_for_url("**/torneio.html?id=*")
    page.wait_for_selector("[data-testid=tourney][data-status=upcoming]")
    assert "Começa em" in (page.text_content("#t-when") or "")

    page.click("#btn-register")
    page.wait_for_selector(f"#entrants li[data-entrant='{name}']")
    # The event's push may list the entrant a moment before the page's own answer says it is
    # this player's entry (and offers to withdraw it).
    page.wait_for_selector("#btn-withdraw", state="visible")
    shot(page, f"tourney-upcoming-{viewport['width']}")
    page.click("#btn-start")

    first = to_my_table(page)
    play_to_end(page)
    # The next round's table comes first in the end dialog, and takes the player there.
    first_link(page, "Ir para a próxima partida")
    page.wait_for_url(lambda url: url.startswith(first.split("?")[0]) and url != first)
    play_to_end(page)
    # Over: the champion is told so, anyone else their place.
    page.wait_for_selector("#tourney-next[data-kind=champion], #tourney-next[data-kind=over]")
    said = page.text_content("#tourney-next") or ""
    assert "Você é o campeão do torneio!" in said or "O torneio terminou: você ficou em" in said
    first_link(page, "Voltar ao torneio")
    page.click("#btn-tourney")
    page.wait_for_selector("[data-testid=tourney][data-status=finished]")
    page.wait_for_selector("#podium:not([hidden]) li")
    assert page.locator("#podium-list li").count() == 3
    assert page.locator("#standings tbody tr").count() == 4
    assert page.locator(f"#standings tbody tr[data-entrant='{name}']").count() == 1
    shot(page, f"tourney-podium-{viewport['width']}", full_page=True)
    assert not errors, errors


def test_a_knockout_bracket_is_drawn(new_context: Any) -> None:
    page = new_context(DESKTOP).new_page()
    errors = watch(page)
    sign_in(page.context, unique_name("Beto"))
    made = page.request.post("/api/tournaments", data={
        "name": "Mata-mata dos bots", "format": "knockout", "ruleset": "bloqueio",
        "options": {"target": 1}, "capacity": 4, "bots": "greedy", "starts_in": 3600})
    assert made.status == 201, made.text()
    event_id = made.json()["id"]
    assert page.request.post(f"/api/tournaments/{event_id}/start").status == 200
    page.goto(f"/torneio.html?id={event_id}")
    page.wait_for_selector("[data-testid=tourney][data-status=finished]")
    assert page.locator(".bracket-round").count() == 2
    assert page.locator(".bracket-round .tie").count() == 3
    assert page.locator(".bracket-round .side.won").count() == 3
    assert page.locator("#podium-list li").count() == 3
    shot(page, "tourney-bracket-1366", full_page=True)
    assert not errors, errors


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_event_page_follows_its_channel_without_polling(new_context: Any,
                                                            viewport: dict[str, int]) -> None:
    """A page watching a running event shows each round and result as the server pushes them:
    its one GET of the event is the first load, whatever happens after."""
    page = new_context(viewport).new_page()
    errors = watch(page)
    sign_in(page.context, unique_name("Vera"))
    made = page.request.post("/api/tournaments", data={
        "name": "Copa sem espera", "format": "swiss", "ruleset": "bloqueio", "rounds": 2,
        "options": {"target": 1}, "capacity": 4, "bots": "greedy", "starts_in": 3600})
    assert made.status == 201, made.text()
    event_id = made.json()["id"]
    gets: list[str] = []
    page.on("request", lambda r: gets.append(r.url) if r.method == "GET" and
            r.url.split("?")[0].endswith(f"/api/tournaments/{event_id}") else None)
    page.goto(f"/torneio.html?id={event_id}")
    page.wait_for_selector("[data-testid=tourney][data-status=upcoming][data-live=on]")
    assert page.locator("#standings-card").is_hidden()
    assert page.request.post(f"/api/tournaments/{event_id}/start").status == 200
    page.wait_for_selector("[data-testid=tourney][data-status=finished]")
    page.wait_for_selector("#podium:not([hidden]) li")
    assert page.locator("#standings tbody tr").count() == 4
    points = page.locator("#standings tbody tr td:nth-child(3)").all_text_contents()
    assert sum(int(p) for p in points) == 4  # 2 rounds of 2 tables, a point a win
    assert page.locator("#podium-list li").count() == 3
    assert "Terminado" in (page.text_content("#t-when") or "")
    assert len(gets) == 1, gets  # the first load; every change came on the socket
    shot(page, f"tourney-live-{viewport['width']}", full_page=True)
    assert not errors, errors


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_end_of_a_knockout_match_leads_on_in_the_event(
        new_context: Any, server: str, viewport: dict[str, int]) -> None:
    """At a tournament's table the end dialog's first action is the event: the next table
    when it is ready (and the player is taken there), else the event; a knockout's loser reads
    that they are out, its champion that they won it. Within the phone's screen, unscrolled.
    The matches are played on the player's socket while the page shows them."""
    page = new_context(viewport).new_page()
    errors = watch(page)
    me = unique_name("Rita")
    sign_in(page.context, me)
    made = page.request.post("/api/tournaments", data={
        "name": f"Copa {me}", "format": "knockout", "ruleset": "bloqueio",
        "options": {"target": 1}, "capacity": 4, "bots": "greedy", "starts_in": 3600})
    assert made.status == 201, made.text()
    event_id = made.json()["id"]
    assert page.request.post(f"/api/tournaments/{event_id}/register").ok
    page.goto(f"/torneio.html?id={event_id}")
    page.click("#btn-start")
    page.wait_for_url("**/mesa.html?id=*")
    semi = page.url
    rounds = 2
    for reached in range(1, rounds + 1):
        play_match(server, [token_of(page.context)], page.url.split("id=")[1])
        page.wait_for_selector("#end-dialog[open]")
        page.wait_for_selector("#tourney-next[data-kind]:not([data-kind=''])")
        kind = page.get_attribute("#tourney-next", "data-kind")
        said = page.text_content("#tourney-next") or ""
        main = page.locator("#end-dialog .end-links > :first-child")
        box = main.bounding_box()
        assert box is not None and box["y"] + box["height"] <= viewport["height"], box
        shot(page, f"tourney-end-{reached}-{viewport['width']}")
        if kind == "out":
            stage = "semifinal" if reached == 1 else "final"
            assert f"Você foi eliminado na {stage}." in said, said
            first_link(page, "Voltar ao torneio")
            break
        if reached == rounds:
            assert kind == "champion" and "Você é o campeão do torneio!" in said, said
            first_link(page, "Voltar ao torneio")
            break
        assert kind == "won", said
        first_link(page, "Ir para a próxima partida")
        page.wait_for_selector("#tourney-next #next-in:has-text('Indo para a mesa em')")
        page.wait_for_url(lambda url: url != semi)  # the count ends at the final's table
    page.click("#btn-tourney")
    page.wait_for_selector("[data-testid=tourney][data-status=finished] #my-verdict")
    assert not errors, errors


def knockout_with_bots(page: Any, name: str) -> str:
    """A knockout of four made and entered by the page's player, bots in the other places."""
    made = page.request.post("/api/tournaments", data={
        "name": f"Copa {name}", "format": "knockout", "ruleset": "bloqueio",
        "options": {"target": 1}, "capacity": 4, "bots": "greedy", "starts_in": 3600})
    assert made.status == 201, made.text()
    event_id = str(made.json()["id"])
    assert page.request.post(f"/api/tournaments/{event_id}/register").ok
    return event_id


@pytest.mark.parametrize(("viewport", "where"), [
    (PHONE, "/regras.html"), (DESKTOP, "/replay.html?id=nenhuma"),
], ids=["phone-rules", "desktop-replay"])
def test_a_page_without_a_table_takes_the_player_to_theirs(
        new_context: Any, viewport: dict[str, int], where: str) -> None:
    """Pages with no socket of their own open one for a player with an event: paired while
    reading the rules or a replay, they are taken to their table."""
    page = new_context(viewport).new_page()
    errors = watch(page)
    me = unique_name("Lia")
    sign_in(page.context, me)
    event_id = knockout_with_bots(page, me)
    page.goto(where)
    page.wait_for_load_state("networkidle")
    assert page.request.post(f"/api/tournaments/{event_id}/start").ok
    page.wait_for_url("**/mesa.html?id=*")
    page.wait_for_selector(f"{TABLE}[data-mode=tournament]:not([data-seat=''])")
    assert not errors, errors


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_mid_match_a_banner_calls_the_player_to_their_table(
        new_context: Any, viewport: dict[str, int]) -> None:
    """In a match in play elsewhere the player is not pulled away: a banner at the top, with
    the table's link, calls them."""
    page = new_context(viewport).new_page()
    errors = watch(page)
    me = unique_name("Gil")
    sign_in(page.context, me)
    event_id = knockout_with_bots(page, me)
    open_new_table(page, "bloqueio", ["bot:greedy"])
    page.wait_for_selector(f"{TABLE}[data-status=playing]")
    casual = page.url
    assert page.request.post(f"/api/tournaments/{event_id}/start").ok
    page.wait_for_selector("#tourney-call a:has-text('Ir para a mesa')")
    assert page.url == casual
    shot(page, f"tourney-call-{viewport['width']}")
    page.click("#tourney-call a")
    page.wait_for_url("**/mesa.html?id=*")
    assert page.url != casual
    page.wait_for_selector(f"{TABLE}[data-mode=tournament]:not([data-seat=''])")
    assert not errors, errors
