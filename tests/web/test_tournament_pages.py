"""The tournament pages as players see them, on a phone and on a desktop: a tournament table
states the rules of its own match (not the ruleset's defaults), the Torneios tab shows each
event whole, the standings show every tiebreak and what decided the lines level on them, a
cancelled event still lists who had registered, and a private event's invitation and a dupla's
partner invitation are sent as a friends' table sends its own (Copiar, WhatsApp)."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, unquote, urlparse

import pytest
from tests.support.browser import DESKTOP, PHONE, shot, unique_name, watch
from tests.support.table_script import RECT, Script, overlap
from tests.support.webplay import open_lobby_as_guest, sign_in

VIEWPORTS = pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])

#: Each element inside shows all of its text: nothing cut by an ellipsis or a hidden overflow.
WHOLE = """(el) => [el, ...el.querySelectorAll('*')].every(
    (e) => e.scrollWidth <= e.clientWidth + 1 || getComputedStyle(e).overflowX === 'visible')"""


def create_event(page: Any, **body: Any) -> dict[str, Any]:
    """An event made through the API by the page's player (signed in)."""
    fields = {"format": "swiss", "starts_in": 3600, **body}
    made = page.request.post("/api/tournaments", data=fields)
    assert made.status == 201, made.text()
    return dict(made.json())


def open_side_panel(page: Any, viewport: dict[str, int]) -> None:
    """The side panel with the match's facts: a sheet opened by its button on a phone, beside
    the table on a desktop."""
    if viewport is PHONE:
        page.click("#btn-log")
        page.wait_for_selector("#side.open")
    page.locator("#match-facts").wait_for(state="visible")


# ---------------------------------------------------------------------- 3. the rules told


@VIEWPORTS
def test_a_tournament_table_states_the_rules_of_its_own_match(
        new_context: Any, viewport: dict[str, int]) -> None:
    """A tournament may play a ruleset to another length (or with other options): the side
    panel says the match's, not the ruleset's default ("até 50" for a match to 20)."""
    cases = [
        ("mano-a-mano", {"target": 20}, "até 20 pontos",
         "quem bate leva os pontos da mão do outro", "até 50"),
        ("duplas-torneio", {"target": 50, "count_partner": False}, "até 50 pontos",
         "quem bate leva os pontos das mãos dos adversários", "até 100"),
        ("classico", {"hands_to_win": 3}, "3 mãos para vencer", "cada mão vencida vale 1",
         "melhor de 3"),
        ("duplas-pontos", {"target": 100, "pass_points": 0}, "até 100 pontos",
         "pontos nas pontas (múltiplos de 5), galo, garagem", "passe"),
    ]
    context = new_context(viewport)
    for ruleset, options, length, rules, wrong in cases:
        script = Script(ruleset, f"regras-{ruleset}", options=options)
        page, errors = script.open_page(context, [script.state(mode="tournament")])
        open_side_panel(page, viewport)
        page.locator("#match-facts .facts-desc").wait_for(state="visible")
        facts = page.locator("#match-facts").text_content() or ""
        assert f"{length} · partida de torneio" in facts, facts
        assert (page.locator("#match-facts .facts-desc").text_content() or "").startswith(
            {"mano-a-mano": "1 contra 1", "classico": "1 contra 1"}.get(ruleset, "2 contra 2"))
        assert rules in facts, facts
        assert wrong not in facts, facts
        if ruleset == "mano-a-mano":
            shot(page, f"tourney-table-rules-{viewport['width']}")
        assert not errors, errors
        page.close()


@VIEWPORTS
def test_a_friends_tables_invitation_tells_the_match_it_invites_to(
        new_context: Any, viewport: dict[str, int]) -> None:
    """The waiting room's WhatsApp message names the ruleset with the table's own length."""
    script = Script("mano-a-mano", "convite-regras", options={"target": 20})
    waiting = script.state(status="waiting", view=None, invite="CONVITE2", mode="friends",
                           players=[script.players[0], None], clock=None)
    page, errors = script.open_page(new_context(viewport), [waiting])
    link = page.get_by_label("Link do convite").input_value()
    text = whatsapp_text(page, ".waiting-card")
    assert text == ("Bora jogar dominó? Mano a Mano até 20 pontos: senta na minha mesa pelo"
                    f" link {link}")
    assert page.locator(".waiting-card button:has-text('Copiar')").is_visible()
    assert not errors, errors


# ---------------------------------------------------------------------- 4. the Torneios tab


@VIEWPORTS
def test_the_torneios_tab_shows_each_event_whole(new_context: Any,
                                                  viewport: dict[str, int]) -> None:
    """A long name, its format · ruleset (with what its matches are played to) and its time
    are read whole, wrapped rather than cut; on a phone the button goes below them."""
    page = new_context(viewport).new_page()
    errors = watch(page)
    open_lobby_as_guest(page, unique_name("Lia"))
    name = f"Copa da Primavera do Clube de Dominó {unique_name('')}"
    event = create_event(page, name=name, ruleset="mano-a-mano", options={"target": 20},
                         starts_in=240)
    page.reload()
    page.wait_for_selector("#home:not([hidden])")
    if viewport is PHONE:
        page.click("#tab-torneios")
    item = page.locator(f"[data-tourney='{event['id']}']")
    item.wait_for()
    texts = item.locator(".table-text > *")
    assert texts.nth(0).inner_text() == name
    assert texts.nth(1).inner_text().startswith("Suíço · Mano a Mano até 20 pontos")
    assert texts.nth(2).inner_text().startswith("Começa em")
    assert item.evaluate(WHOLE), "a line of the event is cut"
    row = list(item.evaluate(RECT))
    text_box = list(item.locator(".table-text").evaluate(RECT))
    button = list(item.locator(".btn").evaluate(RECT))
    assert not overlap(text_box, button)
    assert button[2] <= viewport["width"]
    if viewport is PHONE:  # the text has the row's width, the button is below it
        assert button[1] >= text_box[3] - 1
        assert text_box[2] - text_box[0] > 0.7 * (row[2] - row[0])
    shot(page, f"tourney-list-{viewport['width']}")
    item.locator(".btn").click()
    page.wait_for_selector("[data-testid=tourney][data-status=upcoming]")
    assert "Suíço · Mano a Mano até 20 pontos · " in page.inner_text("#t-what")
    assert not errors, errors


# ---------------------------------------------------------------------- 6. the tiebreaks


@VIEWPORTS
def test_the_standings_show_every_tiebreak_and_what_decided(
        new_context: Any, viewport: dict[str, int]) -> None:
    """A Suíço of eight, one round of Clássico to one hand: every win is 1 to 0, so lines are
    level on points, Buchholz and points difference; the legend tells the whole order and a
    line level with the one above says what put it below. On a phone the names keep one or two
    lines: the wins and losses go under the name."""
    page = new_context(viewport).new_page()
    errors = watch(page)
    me = unique_name("Maria Souza ")
    sign_in(page.context, me)
    event = create_event(page, name="Copa dos Empates", ruleset="classico",
                         options={"hands_to_win": 1}, rounds=1, capacity=8, bots="greedy")
    event_id = event["id"]
    page.goto("about:blank")  # no page of the site: nothing calls the player to their table
    assert page.request.post(f"/api/tournaments/{event_id}/register", data={}).status == 200
    assert page.request.post(f"/api/tournaments/{event_id}/start").status == 200
    # the player leaves at once: their game is forfeited, the bots' are played
    assert page.request.post(f"/api/tournaments/{event_id}/withdraw").status == 200
    page.goto(f"/torneio.html?id={event_id}")
    page.wait_for_selector("[data-testid=tourney][data-status=finished]", timeout=60_000)
    heads = page.locator("#standings thead th").evaluate_all(
        "(els) => els.map((e) => e.textContent)")
    assert heads == ["#", "Nome", "Pts", "V", "D", "Buch.", "Saldo"]
    assert page.inner_text("#tiebreak-legend") == \
        "Desempate: Buchholz, saldo de pontos, confronto direto, rating e sorteio."
    rows = page.locator("#standings tbody tr")
    assert rows.count() == 8
    names = [rows.nth(i).locator(".st-name").inner_text() for i in range(8)]
    decided = [rows.nth(i).get_attribute("data-decided") for i in range(8)]
    assert sum(d is not None for d in decided) >= 4, decided  # three winners level, and losers
    for i, why in enumerate(decided):
        note = rows.nth(i).locator(".st-why")
        if why is None:
            assert note.count() == 0
            continue
        said = {"lot": "no sorteio", "rating": "pelo rating", "direct": "no confronto direto"}
        assert note.inner_text() == f"atrás de {names[i - 1]} {said[why]}"
        # level on every number shown: points, Buchholz, points difference
        cells = rows.nth(i).locator("td")
        above = rows.nth(i - 1).locator("td")
        for c in (1, 4, 5):
            assert cells.nth(c).inner_text() == above.nth(c).inner_text()
    mine = page.locator(f"#standings tbody tr:has(.st-name:text-is('{me}'))")
    assert mine.locator("th").inner_text().startswith(f"{me} (saiu)")
    wide = page.locator("#standings thead .wide-col").first
    sub = page.locator("#standings .st-sub").first
    if viewport is PHONE:
        assert not wide.is_visible() and sub.is_visible()
        assert sub.inner_text().endswith("D")
        for i in range(8):  # one or two lines for every name
            lines = rows.nth(i).locator(".st-name").evaluate("(el) => el.getClientRects().length")
            assert 1 <= lines <= 2, (names[i], lines)
        table = page.locator("#standings")
        assert table.evaluate("(el) => el.scrollWidth <= el.parentElement.clientWidth + 1")
    else:
        assert wide.is_visible() and not sub.is_visible()
        for i in range(8):
            lines = rows.nth(i).locator(".st-name").evaluate("(el) => el.getClientRects().length")
            assert lines == 1, (names[i], lines)
    page.locator("#standings-card").scroll_into_view_if_needed()
    shot(page, f"tourney-tiebreaks-{viewport['width']}", full_page=True)
    assert not errors, errors


@VIEWPORTS
def test_a_knockouts_standings_tell_the_final_and_the_round_reached(
        new_context: Any, viewport: dict[str, int]) -> None:
    """A Mata-mata of four bots: the round reached is the column, the legend tells the order,
    the finalist is below the champion for the final, and the two out in the semifinals by
    the seed."""
    page = new_context(viewport).new_page()
    errors = watch(page)
    sign_in(page.context, unique_name("Edu"))
    event = create_event(page, name="Mata-mata dos empates", format="knockout",
                         ruleset="bloqueio", options={"target": 1}, capacity=4, bots="greedy")
    assert page.request.post(f"/api/tournaments/{event['id']}/start").status == 200
    page.goto(f"/torneio.html?id={event['id']}")
    page.wait_for_selector("[data-testid=tourney][data-status=finished]", timeout=60_000)
    heads = page.locator("#standings thead th").evaluate_all(
        "(els) => els.map((e) => e.textContent)")
    assert heads == ["#", "Nome", "Pts", "V", "D", "Rodada"]
    assert page.inner_text("#tiebreak-legend") == \
        "Ordem: o campeão, depois a última rodada alcançada; empate: rating e sorteio."
    rows = page.locator("#standings tbody tr")
    names = [rows.nth(i).locator(".st-name").inner_text() for i in range(4)]
    reached = [rows.nth(i).locator("td").last.inner_text() for i in range(4)]
    assert reached == ["2", "2", "1", "1"]
    assert [rows.nth(i).get_attribute("data-decided") for i in range(4)] == \
        [None, "final", None, "lot"]
    assert rows.nth(1).locator(".st-why").inner_text() == f"perdeu a final para {names[0]}"
    assert rows.nth(3).locator(".st-why").inner_text() == f"atrás de {names[2]} no sorteio"
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    assert not errors, errors


# ---------------------------------------------------------------------- 7. a cancelled event


@VIEWPORTS
def test_a_cancelled_event_lists_who_had_registered(new_context: Any,
                                                     viewport: dict[str, int]) -> None:
    page = new_context(viewport).new_page()
    errors = watch(page)
    me = unique_name("Rui")
    sign_in(page.context, me)
    event = create_event(page, name=f"Copa Vazia {unique_name('')}", ruleset="bloqueio")
    page.goto(f"/torneio.html?id={event['id']}")
    page.click("#btn-register")
    page.wait_for_selector(f"#entrants li[data-entrant='{me}']")
    page.click("#btn-start")  # alone at the start: cancelled
    page.wait_for_selector("[data-testid=tourney][data-status=cancelled]")
    assert page.inner_text("#t-when") == "Cancelado: não houve inscritos suficientes."
    assert page.locator("#entrants li").all_inner_texts() == [me]
    assert page.inner_text("#entrants-title") == "Inscritos (1)"
    shot(page, f"tourney-cancelled-{viewport['width']}")
    assert not errors, errors


# ---------------------------------------------------------------------- 8. the invitations


def whatsapp_text(page: Any, box: str) -> str:
    href = page.locator(f"{box} a:has-text('WhatsApp')").get_attribute("href") or ""
    assert href.startswith("https://wa.me/?text="), href
    return unquote(parse_qs(urlparse(href).query)["text"][0])


def copied(page: Any, box: str, testid: str) -> str:
    """Tap the invitation's "Copiar": what it says, and what the clipboard then holds."""
    page.locator(f"{box} button:has-text('Copiar')").click()
    said = page.locator(f"[data-testid={testid}]")
    page.wait_for_function("(el) => el.textContent !== ''", arg=said.element_handle())
    return f"{said.inner_text()}|{page.evaluate('navigator.clipboard.readText()')}"


@VIEWPORTS
def test_a_private_event_and_a_dupla_invite_with_copy_and_whatsapp(
        new_context: Any, viewport: dict[str, int]) -> None:
    """The creator of a private event sends its invitation as a friends' table's is sent; a
    player who registers a dupla sends their partner's the same way, and the partner who
    opens it joins the dupla."""
    context = new_context(viewport)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    errors = watch(page)
    me = unique_name("Gil")
    sign_in(page.context, me)
    name = f"Copa Fechada {unique_name('')}"
    event = create_event(page, name=name, ruleset="duplas-torneio", options={"target": 50},
                         private=True)
    page.goto(f"/torneio.html?id={event['id']}")
    box = "#t-invite"
    page.wait_for_selector(f"{box} [data-testid=t-invite-link]")
    link = page.get_by_label("Link do convite do torneio").input_value()
    assert f"codigo={event['invite']}" in link
    assert copied(page, box, "t-invite-copied") == f"Convite copiado!|{link}"
    text = whatsapp_text(page, box)
    assert text.endswith(link) and name in text
    assert "Suíço · Duplas de torneio até 50 pontos" in text

    page.click("#btn-register-dupla")
    partner_box = "#partner-invite"
    page.wait_for_selector(f"{partner_box} [data-testid=partner-invite-link]")
    partner_link = page.get_by_label("Link do convite do parceiro").input_value()
    assert "dupla=" in partner_link
    assert copied(page, partner_box, "partner-invite-copied") == \
        f"Convite copiado!|{partner_link}"
    assert whatsapp_text(page, partner_box).endswith(partner_link)
    # both invitations fit the page: no sideways scroll on a phone
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    shot(page, f"tourney-invites-{viewport['width']}", full_page=True)

    friend = new_context(viewport).new_page()
    friend_errors = watch(friend)
    partner = unique_name("Ida")
    sign_in(friend.context, partner)
    friend.goto(partner_link)
    friend.click("#btn-register")
    friend.wait_for_selector(f"#entrants li[data-entrant='{me}+{partner}']")
    assert not errors, errors
    assert not friend_errors, friend_errors
