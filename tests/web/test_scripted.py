"""Rare moments of a match, made to happen: the page's WebSocket is answered by the test itself,
which runs the rules engine on chosen deals (the cinco-carroças choice, a tile that fits three
ends of the spinner's cross, a galo, a pneu)."""

from __future__ import annotations

from typing import Any

from tests.support.browser import DESKTOP, PHONE, shot, watch
from tests.support.engine_cases import tiles_left
from tests.support.table_script import Script, cross_choice, open_table

from carroca.rules import tiles as T

SEED = "11" * 32


def test_cinco_carrocas_dialog_counts_down_and_keeps_the_points(new_context: Any) -> None:
    doubles = [T.parse(t) for t in ("0-0", "1-1", "2-2", "3-3", "4-4", "0-1", "0-2")]
    order = doubles + [t for t in range(T.TILE_COUNT) if t not in doubles]
    table = Script("duplas-pontos", "cinco", seed=SEED, first_deal=order)
    assert table.match.phase.name == "CHOICE" and table.match.current_player == 0
    page, errors = table.open_page(new_context(PHONE))
    dialog = page.locator("#five-dialog[open]")
    dialog.wait_for()
    assert "5 carroças" in dialog.inner_text()
    assert page.get_by_role("button", name="Ficar com os pontos (+50)").count() == 1
    assert page.get_by_role("button", name="Embaralhar de novo").count() == 1
    count = int(page.inner_text("#five-count"))
    assert 10 <= count <= 15
    shot(page, "phone-cinco-carrocas")
    page.click("#five-points")
    page.wait_for_selector("#five-dialog:not([open])", state="attached")
    assert table.moves == ["five-doubles:points"]
    page.wait_for_function("document.querySelector('[data-testid=score-0]').textContent === '50'")
    assert "cinco carroças" in (page.text_content("#log") or "")
    assert not errors, errors


def test_a_tile_that_fits_three_ends_of_the_cross(new_context: Any) -> None:
    table = Script("duplas-pontos", "c0", seed=SEED)

    # seat 0 plays its first legal action too, until it holds a tile with three places
    table.autoplay = True
    table.others(until=cross_choice)
    table.autoplay = False
    legal = [str(a) for a in table.match.legal_actions()]
    tile = next(t for t in {a.split(":")[0] for a in legal if ":" in a}
                if sum(a.startswith(t + ":") for a in legal) >= 3)
    ends = sorted(a.split(":")[1] for a in legal if a.startswith(tile + ":"))
    for size, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page, errors = table.open_page(new_context(size))
        page.wait_for_selector("[data-testid=table][data-my-turn=true]")
        page.click(f"#hand [data-tile='{tile}']")
        ghosts = page.locator("[data-end]")
        assert sorted(str(ghosts.nth(i).get_attribute("data-end"))
                      for i in range(ghosts.count())) == ends
        # touched is played: another tile cannot be chosen now
        other = page.locator(f"#hand [data-tile]:not([data-tile='{tile}'])").first
        other.click(force=True)
        assert "Pedra tocada é pedra jogada" in page.inner_text("#turn-msg")
        shot(page, f"{name}-cross-choice")
        if name == "phone":
            page.close()
            continue
        page.click("[data-end=up]")
        page.wait_for_function(
            "(t) => !document.querySelector(`#hand [data-tile='${t}']`)", arg=tile)
        assert table.moves == [f"{tile}:up"]
        assert not errors, errors


def test_announcements_galo_batida_and_pneu(new_context: Any) -> None:
    """A whole match streamed as the server would send it: passe and galo are announced as they
    happen, each hand's end shows the hands, and the match ends on a pneu."""
    table = Script("duplas-pontos", "g1", options={"target": 100}, seed=SEED, autoplay=True)
    stream = [table.state(), *table.others()]
    assert table.match.is_over
    page, errors = table.open_page(new_context(PHONE), stream)
    page.wait_for_selector("#end-dialog[open]")
    said = page.text_content("#announcements") or ""
    assert "passou: passe, 20 pontos para" in said and "Galo!" in said, said
    log = page.text_content("#log") or ""
    assert "galo" in log and "passe" in log, log

    pneu = Script("duplas-torneio", "p0", options={"target": 50}, seed=SEED, autoplay=True)
    stream = [pneu.state(), *pneu.others()]
    assert pneu.match.result is not None and pneu.match.result.pneu
    page = new_context(DESKTOP).new_page()
    errors += watch(page)
    pneu.serve(page, stream)
    open_table(page)
    page.wait_for_selector("#end-dialog[open]")
    said = page.text_content("#announcements") or ""
    assert "Pneu!" in said and ("bateu" in said or "Trancado" in said), said
    assert "Pneu!" in page.inner_text("#end-dialog")
    assert page.locator("#end-dialog .revealed-seat").count() == 4
    shot(page, "desktop-match-end-pneu")
    assert not errors, errors


def test_end_of_hand_shows_every_hand_and_the_count(new_context: Any) -> None:
    table = Script("duplas-pontos", "g1", seed=SEED, autoplay=True)
    stream = [table.state(), *table.others(until=lambda m: m.deal_index > 0)]
    last = table.match.history[-1]
    page, errors = table.open_page(new_context(PHONE), stream)
    summary = page.locator("[data-testid=hand-summary]")
    summary.wait_for()
    rows = summary.locator(".revealed-seat")
    assert rows.count() == 4
    for seat in range(4):
        left = [T.NAMES[t] for t in sorted(tiles_left(last)[seat])]
        pips = sum(int(a) + int(b) for a, b in (t.split("-") for t in left))
        row = summary.locator(f".revealed-seat[data-seat='{seat}']")
        assert row.locator(".revealed-sum").inner_text() == str(pips)
    totals: dict[tuple[int, str], int] = {}
    for event in last.events:
        totals[event.team, event.reason] = totals.get((event.team, event.reason), 0) + event.points
    for points in totals.values():
        assert f"+{points}" in summary.inner_text()
    shot(page, "phone-hand-summary")
    summary.get_by_role("button", name="Continuar").click()
    summary.wait_for(state="detached")
    assert not errors, errors
