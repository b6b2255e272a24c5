"""A knockout of four in the browser where one entrant never comes: the player whose opponent
did not show wins by W.O., is told so and what comes next, and is taken to the final from
wherever they wait (the closed table, the lobby, the event's page) and plays it; the other
semifinal's winner is taken there from their end dialog, its loser told they are out, and the
absent one, coming later, that they lost by W.O.

The pairing is read from the event's page once it started: the present player's opponent is
left absent, the other two open their table and play it."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from tests.support.browser import DESKTOP, PHONE, LiveServer, shot, unique_name, watch, web_settings
from tests.support.webplay import TABLE, open_lobby_as_guest, play_together

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


def guest_context(new_context: Any, name: str) -> Any:
    """A browser context signed in as the guest `name`, through the API."""
    context = new_context(DESKTOP)
    assert context.request.post("/api/guest", data={"name": name}).ok
    return context


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


# Where the present player waits: the closed table (on a phone), the lobby, the event's page
# (on a desktop, which shows the W.O. card first at the table, as the phone does).
@pytest.mark.parametrize(("viewport", "where"), [
    (PHONE, "table"), (PHONE, "lobby"), (DESKTOP, "event"),
], ids=["phone-table", "phone-lobby", "desktop-event"])
def test_a_no_show_leaves_nobody_stranded(new_context: Any, viewport: dict[str, int],
                                          where: str) -> None:
    me = unique_name("Ana")
    page = new_context(viewport).new_page()
    errors = watch(page)
    open_lobby_as_guest(page, me)
    made = page.request.post("/api/tournaments", data={
        "name": f"Copa {me}", "format": "knockout", "ruleset": "bloqueio",
        "options": {"target": 1}, "capacity": 4, "starts_in": 3600})
    assert made.status == 201, made.text()
    event_id = made.json()["id"]
    assert page.request.post(f"/api/tournaments/{event_id}/register").ok
    others = {name: guest_context(new_context, name)
              for name in (unique_name("Bia"), unique_name("Caio"), unique_name("Duda"))}
    for context in others.values():
        assert context.request.post(f"/api/tournaments/{event_id}/register").ok

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

    # The other semifinal's players open their table at once (it starts when both are there),
    # and wait: the final is paired only once they finish, after the W.O. below.
    players = {name: others[name].new_page() for name in other["sides"]}
    for p in players.values():
        watch(p)
        p.goto(f"/mesa.html?id={other['games'][0]['match']}")
    for p in players.values():
        p.wait_for_selector(f"{TABLE}[data-status=playing]")

    card = page.wait_for_selector("#wo-card[data-kind=won]", timeout=(SHOW_UP + 20) * 1000)
    assert card is not None
    said = card.text_content() or ""
    assert "Você venceu por W.O." in said and "Seu adversário não veio." in said, said
    assert "A final começa quando a outra semifinal terminar." in said, said
    assert page.text_content("#wo-card #btn-tourney") == "Voltar ao torneio"
    shot(page, f"tourney-wo-{viewport['width']}")
    if where == "lobby":
        page.click("#wo-card a:has-text('Voltar ao salão')")
        page.wait_for_selector("#home:not([hidden])")
    elif where == "event":
        page.click("#wo-card #btn-tourney")
        page.wait_for_selector("[data-testid=tourney][data-status=running] #my-verdict")
        assert "Você venceu por W.O." in (page.text_content("#my-verdict") or "")
        assert "A final começa quando a outra semifinal terminar." in (
            page.text_content("#my-next") or "")
        assert page.locator(f".tie .side.won:has-text('{me}') .wo-tag").count() == 1

    first = next(iter(players.values()))
    play_together(first, {seat_of(p): p for p in players.values()}, turns=300)
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
    play_together(page, {seat_of(p): p for p in (page, players[rival])}, turns=300)
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
    late = others[absent].new_page()
    late.goto(f"/mesa.html?id={semi}")
    late.wait_for_selector("#wo-card[data-kind=out]")
    assert late.text_content("#wo-card h2") == "Você perdeu por W.O."
    assert not errors, errors
