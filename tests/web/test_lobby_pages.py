"""What a browser meets around the lobby: a pt-BR page for an address that does not exist, no
error logged by a signed-out visit, nicknames in any alphabet, and a fairness page that forgets
its verdict when it is given something it cannot read."""

from __future__ import annotations

import secrets
from typing import Any

from tests.support.browser import PHONE, shot, watch
from tests.support.webmatches import finished_match
from tests.support.webplay import sign_in_guest


def console_errors(page: Any) -> list[str]:
    """Every message the browser logs as an error (a failed request is one: "Failed to load
    resource: the server responded with a status of 401")."""
    found: list[str] = []
    page.on("console", lambda msg: found.append(msg.text) if msg.type == "error" else None)
    return found


def test_an_unknown_address_gets_a_page_back_to_the_lobby(new_context: Any) -> None:
    page = new_context(PHONE).new_page()
    errors = watch(page)
    response = page.goto("/mesa/que/nao/existe?id=1")
    assert response is not None and response.status == 404
    assert response.headers["content-type"].startswith("text/html")
    page.wait_for_selector("[data-testid=not-found] h1:has-text('Página não encontrada')")
    page.wait_for_load_state("networkidle")
    # its styles loaded although the address is deep (every link starts at the root)
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") != "rgba(0, 0, 0, 0)"
    shot(page, "not-found-phone")
    page.click("text=Ir para o início")
    page.wait_for_selector("#entry:not([hidden]) #guest-name")
    # the API keeps answering JSON, whoever asks
    api = page.request.get("/api/nao-existe", headers={"Accept": "text/html"})
    assert api.status == 404 and api.json()["error"]["code"] == "not_found"
    assert not errors, errors


def test_signed_out_visits_log_no_error(new_context: Any) -> None:
    page = new_context(PHONE).new_page()
    errors = watch(page)
    logged = console_errors(page)
    for path, ready in (("/", "#entry:not([hidden]) #guest-name"),
                        ("/regras.html", "#inicio h2"),
                        ("/?convite=NAOEXISTE", "#notice .notice")):
        page.goto(path)
        page.wait_for_selector(ready)
        page.wait_for_load_state("networkidle")
    assert not logged, logged
    assert not errors, errors


def test_nicknames_in_other_alphabets(new_context: Any) -> None:
    page = new_context(PHONE).new_page()
    errors = watch(page)
    page.goto("/")
    mixed = "Mаria" + str(secrets.randbelow(10**6))  # a Cyrillic "а" among Latin letters
    sign_in_guest(page, mixed)
    page.wait_for_selector("#guest-error:has-text('alfabeto')")
    name = f"Даша{secrets.randbelow(10**6)}"
    page.fill("#guest-name", name)
    page.click("#form-guest button[type=submit]")
    page.wait_for_selector("#home:not([hidden]) #rs-list input")
    assert page.inner_text("#who .who-name").startswith(name)
    assert not errors, errors


def test_the_fairness_page_drops_its_verdict_after_unreadable_input(
    new_context: Any, server: str
) -> None:
    match_id = finished_match(server, "bloqueio")
    page = new_context(PHONE).new_page()
    errors = watch(page)
    page.goto(f"/justo.html?id={match_id}")
    page.wait_for_selector("#verdict[data-state=ok]")
    assert page.locator("#deals-box").is_visible()
    record = page.evaluate(f"fetch('/api/matches/{match_id}/record').then((r) => r.text())")

    for text, error in (("isto não é um registro", "não é um registro em JSON"),
                        ('{"format": "outra-coisa"}', "carroca-record/1")):
        page.fill("#own-text", text)
        page.click("#own-check")
        page.wait_for_selector(f"#own-error:has-text('{error}')")
        page.wait_for_selector("#verdict[data-state=idle]")
        assert "confere" not in page.inner_text("#verdict").lower()
        for box in ("#match-box", "#seeds-box", "#deals-box"):
            assert page.locator(box).is_hidden(), box
    page.locator("#verdict").scroll_into_view_if_needed()
    shot(page, "fairness-unreadable-record")

    page.fill("#own-text", record)  # a readable record is checked again
    page.click("#own-check")
    page.wait_for_selector("#verdict[data-state=ok]")
    assert page.inner_text("#own-error") == ""
    assert page.locator("#deals-box").is_visible()
    assert not errors, errors
