"""A knockout of four in the browser where one entrant never comes: the player whose opponent
did not show wins by W.O., is told so and what comes next, and is taken to the final from
wherever they wait (the closed table, the lobby, the event's page) and plays it; the other
semifinal's winner is taken there from their end dialog, its loser told they are out, and the
absent one, coming later, that they lost by W.O.

The pairing is read from the event's page once it started: the present player's opponent is
left absent, the other two are at their table at once and play it after the W.O. The whole
story is told once, the present player waiting at the closed table on a phone; waiting in the
lobby or on the event's page, the test ends once they are taken to the final. The games are
played on the players' own sockets (tests/support/sockplay.py) while their pages show them:
the pages' moves are test_tournament.py's."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from tests.support.browser import DESKTOP, PHONE, LiveServer, shot, unique_name, watch, web_settings
from tests.support.sockplay import Seat, play_match, play_seats, token_of
from tests.support.webplay import TABLE, sign_in

SHOW_UP = 15.0  # seconds a game's table waits for its players (the countdown to the next is 5)

FIRST_LINK = """() => document.querySelector(
    '#end-dialog[open] .end-links > :first-child')?.textContent"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose event tables wait SHOW_UP seconds for their players."""
    db = tmp_path_factory.mktemp("noshow-server") / "carroca.db"
    live = LiveServer(web_settings(f"sqlite:///{db}", tournament_show_up_seconds=SHOW_UP))
    live.start()
    try:
        yield live.url
    finally:
        live.stop()


def event_page(page: Any, event_id: str) -> dict[str, Any]:
    info: dict[str, Any] = page.request.get(f"/api/tournaments/{event_id}").json()
    return info


def wait_final(page: Any, event_id: str) -> dict[str, Any]:
    """The final's tie, once it is paired."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        rounds = event_page(page, event_id)["rounds"]
        if len(rounds) == 2 and rounds[1]["tables"][0]["games"][0]["match"]:
            tie: dict[str, Any] = rounds[1]["tables"][0]
            return tie
        time.sleep(0.2)
    raise AssertionError("the final was never paired")


def seat_of(page: Any) -> int:
    return int(str(page.get_attribute(TABLE, "data-seat")))


def first_link(page: Any, text: str) -> None:
    """The end dialog's first (main) action reads `text`."""
    page.wait_for_function(f"() => ({FIRST_LINK})() === {text!r}")


def no_show(new_context: Any, server: str, viewport: dict[str, int]) -> dict[str, Any]:
    """A knockout of four bloqueio games to one point, started by its creator (`page`, signed
    in through the API), whose semifinal's opponent (`absent`) never comes; the other
    semifinal's two players (`others`: each a signed-in context, `tokens`: theirs) are at their
    table at once, on sockets of their own (`seats`), and play only when the test says. Returns
    all of it once the creator's W.O. card says they won."""
    me = unique_name("Ana")
    context = new_context(viewport)
    sign_in(context, me)
    page = context.new_page()
    errors = watch(page)
    made = page.request.post("/api/tournaments", data={
        "name": f"Copa {me}", "format": "knockout", "ruleset": "bloqueio",
        "options": {"target": 1}, "capacity": 4, "starts_in": 3600})
    assert made.status == 201, made.text()
    event_id = made.json()["id"]
    assert page.request.post(f"/api/tournaments/{event_id}/register").ok
    others = {name: new_context(DESKTOP)
              for name in (unique_name("Bia"), unique_name("Caio"), unique_name("Duda"))}
    tokens = {name: sign_in(context, name) for name, context in others.items()}
    for other in others.values():
        assert other.request.post(f"/api/tournaments/{event_id}/register").ok

    page.goto(f"/torneio.html?id={event_id}")
    page.wait_for_selector("[data-testid=tourney][data-status=upcoming] #btn-start")
    page.click("#btn-start")
    page.wait_for_url("**/mesa.html?id=*")  # the pairing's frame takes the creator there
    semi = page.url.split("id=")[1]
    ties = event_page(page, event_id)["rounds"][0]["tables"]
    mine = next(t for t in ties if me in t["sides"])
    absent = next(s for s in mine["sides"] if s != me)
    other = next(t for t in ties if t is not mine)
    assert mine["games"][0]["match"] == semi
    # The other semifinal's players are at their table at once (it starts when both are
    # there), and wait: the final is paired only once they finish, after the W.O. below.
    seats = {name: Seat(server, tokens[name], other["games"][0]["match"])
             for name in other["sides"]}

    card = page.wait_for_selector("#wo-card[data-kind=won]", timeout=(SHOW_UP + 20) * 1000)
    assert card is not None
    said = card.text_content() or ""
    assert "Você venceu por W.O." in said and "Seu adversário não veio." in said, said
    assert "A final começa quando a outra semifinal terminar." in said, said
    assert page.text_content("#wo-card #btn-tourney") == "Voltar ao torneio"
    shot(page, f"tourney-wo-{viewport['width']}")
    return {"me": me, "page": page, "errors": errors, "event": event_id, "semi": semi,
            "absent": absent, "others": others, "tokens": tokens, "other": other,
            "seats": seats}


def test_a_no_show_leaves_nobody_stranded(new_context: Any, server: str) -> None:
    """On a phone, waiting at the closed table: the W.O. card, then the final (the other
    semifinal's winner taken there from their end dialog, its loser told they are out) is
    played to its champion, and the absent one, coming later, reads that they lost by W.O.
    The games are played on the players' own sockets while their pages show them."""
    event = no_show(new_context, server, PHONE)
    page, me, event_id = event["page"], event["me"], event["event"]
    others, seats = event["others"], event["seats"]
    players = {name: others[name].new_page() for name in seats}
    for p in players.values():
        watch(p)
        p.goto(f"/mesa.html?id={event['other']['games'][0]['match']}")
    for p in players.values():
        p.wait_for_selector(f"{TABLE}[data-status=playing]")
    play_seats(list(seats.values()))
    final = wait_final(page, event_id)
    rival = next(s for s in final["sides"] if s != me)
    loser = next(n for n in players if n != rival)
    # The semifinal's winner: the next table first in the end dialog, then taken there.
    first_link(players[rival], "Ir para a próxima partida")
    first_link(players[loser], "Voltar ao torneio")
    assert "Você foi eliminado na semifinal." in (
        players[loser].text_content("#tourney-next[data-kind=out]") or "")

    final_match = final["games"][0]["match"]
    page.wait_for_url(f"**/mesa.html?id={final_match}", timeout=(SHOW_UP - 2) * 1000)
    players[rival].wait_for_url(f"**/mesa.html?id={final_match}", timeout=(SHOW_UP - 2) * 1000)
    for p in (page, players[rival]):
        p.wait_for_selector(f"{TABLE}[data-status=playing]")
    play_match(server, [token_of(page.context), event["tokens"][rival]], final_match)
    info = event_page(page, event_id)
    assert info["rounds"][1]["tables"][0]["games"][0]["outcome"]["kind"] == "played"
    champion = info["rounds"][1]["tables"][0]["winner"]
    page.wait_for_selector("#tourney-next[data-kind=champion], #tourney-next[data-kind=out]")
    verdict = page.text_content("#tourney-next") or ""
    if champion == me:
        assert "Você é o campeão do torneio!" in verdict, verdict
    else:
        assert "Você foi eliminado na final." in verdict, verdict
    first_link(page, "Voltar ao torneio")

    # The absent one, coming later, reads that they lost by W.O.
    late = others[event["absent"]].new_page()
    late.goto(f"/mesa.html?id={event['semi']}")
    late.wait_for_selector("#wo-card[data-kind=out]")
    assert late.text_content("#wo-card h2") == "Você perdeu por W.O."
    assert not event["errors"], event["errors"]


# Where else the present player waits: the lobby (on a phone), the event's page (on a desktop,
# which shows the W.O. card first at the table, as the phone does). The rest of the story is
# the test above's.
@pytest.mark.parametrize(("viewport", "where"), [(PHONE, "lobby"), (DESKTOP, "event")],
                         ids=["phone-lobby", "desktop-event"])
def test_the_winner_by_wo_is_taken_to_the_final_from_where_they_wait(
        new_context: Any, server: str, viewport: dict[str, int], where: str) -> None:
    event = no_show(new_context, server, viewport)
    page, me = event["page"], event["me"]
    if where == "lobby":
        page.click("#wo-card a:has-text('Voltar ao salão')")
        page.wait_for_selector("#home:not([hidden])")
    else:
        page.click("#wo-card #btn-tourney")
        page.wait_for_selector("[data-testid=tourney][data-status=running] #my-verdict")
        assert "Você venceu por W.O." in (page.text_content("#my-verdict") or "")
        assert "A final começa quando a outra semifinal terminar." in (
            page.text_content("#my-next") or "")
        assert page.locator(f".tie .side.won:has-text('{me}') .wo-tag").count() == 1
    play_seats(list(event["seats"].values()))
    final = wait_final(page, event["event"])
    page.wait_for_url(f"**/mesa.html?id={final['games'][0]['match']}",
                      timeout=(SHOW_UP - 2) * 1000)
    page.wait_for_selector(f"{TABLE}[data-status=waiting], {TABLE}[data-status=playing]")
    assert not event["errors"], event["errors"]
