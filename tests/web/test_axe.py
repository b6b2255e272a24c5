"""axe-core (npm, pinned by package-lock.json) on every page, at a phone's size (390x844) and a
laptop's (1366x768): no violation of WCAG 2.0/2.1 A and AA.

The pages are audited as a player sees them: the entry and the lobby (each of its tabs, with an
event listed), a table in play, the rules, the tutorial, the fairness check, a replay, an
event's page, a player's profile and the page for an unknown address."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from tests.support.browser import DESKTOP, PHONE, ROOT, unique_name, watch
from tests.support.webplay import TABLE, sign_in

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
LOBBY_TABS = ("Amigos", "Mesas", "Torneios", "Ranking", "Perfil")


def axe_source() -> str:
    if not AXE.exists():
        message = f"axe-core not installed at {AXE} (npm ci)"
        if os.environ.get("CARROCA_REQUIRE_BROWSER"):
            pytest.fail(message)
        pytest.skip(message)
    return AXE.read_text(encoding="utf-8")


def audit(page: Any, where: str, source: str) -> list[str]:
    """axe's violations on the page as it is now, one line each (rule, impact, first nodes)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(source)  # as the test driver, not a script of the page: no CSP applies
    found = page.evaluate("(tags) => axe.run(document, {runOnly: {type: 'tag', values: tags}})"
                          ".then((r) => r.violations.map((v) => ({id: v.id, impact: v.impact,"
                          " nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' '))})))",
                          TAGS)
    return [f"{where}: {v['id']} ({v['impact']}) at {json.dumps(v['nodes'])}" for v in found]


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_no_axe_violation_on_any_page(new_context: Any, size: dict[str, int]) -> None:
    source = axe_source()
    page = new_context(size).new_page()
    errors = watch(page)
    found: list[str] = []
    page.goto("/")
    page.wait_for_selector("#entry:not([hidden])")
    found += audit(page, "entry", source)
    for where in ("regras.html", "tutorial.html", "justo.html", "pagina-que-nao-existe"):
        page.goto(f"/{where}")
        page.wait_for_load_state("networkidle")
        found += audit(page, where, source)

    name = unique_name("Axe")
    sign_in(page.context, name)
    made = page.request.post("/api/tournaments", data={
        "name": f"Copa {name}", "format": "knockout", "ruleset": "bloqueio",
        "options": {"target": 1}, "capacity": 4, "starts_in": 3600})
    assert made.status == 201, made.text()
    event_id = made.json()["id"]
    bots = page.request.post("/api/matches", data={
        "ruleset": "bloqueio", "options": {"target": 1}, "seats": ["bot:random", "bot:random"]})
    assert bots.status == 201, bots.text()
    page.goto("/")
    page.wait_for_selector("#home:not([hidden]) #rs-list input")
    page.wait_for_selector(f"[data-tourney='{event_id}']", state="attached")
    for tab in LOBBY_TABS:  # a phone's tabs; a wide screen shows every panel at once
        control = page.get_by_role("tab", name=tab)
        if control.is_visible():
            control.click()
            page.wait_for_load_state("networkidle")
            found += audit(page, f"lobby {tab}", source)
    if not found and not page.get_by_role("tab", name=LOBBY_TABS[0]).is_visible():
        found += audit(page, "lobby", source)
    page.goto(f"/torneio.html?id={event_id}")
    page.wait_for_load_state("networkidle")
    found += audit(page, "torneio", source)
    page.goto(f"/perfil.html?nome={name}")
    page.wait_for_selector("[data-testid=profile][data-status=ready]")
    found += audit(page, "perfil", source)
    page.goto(f"/replay.html?id={bots.json()['id']}")
    page.wait_for_selector("#narration:not(:empty)")
    found += audit(page, "replay", source)

    table = page.request.post("/api/tables", data={
        "ruleset": "duplas-pontos", "seats": ["me", "bot:random", "bot:random", "bot:random"]})
    assert table.ok, table.text()
    page.goto(f"/mesa.html?id={table.json()['id']}")
    page.wait_for_selector(f"{TABLE}[data-status=playing][data-my-turn=true]")
    found += audit(page, "mesa", source)
    page.keyboard.press("?")
    page.wait_for_selector("#keys-dialog[open]")
    found += audit(page, "mesa: atalhos", source)
    assert not found, "\n".join(found)
    assert not errors, errors


def test_the_audit_finds_a_violation(new_context: Any) -> None:
    """The audit is live: a page with an unnamed button fails it."""
    source = axe_source()
    page = new_context(PHONE).new_page()
    page.goto("/regras.html")
    page.evaluate("document.querySelector('main').append(document.createElement('button'))")
    assert any("button-name" in line for line in audit(page, "regras", source))


