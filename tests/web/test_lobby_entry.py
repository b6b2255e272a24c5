"""The entry page: it opens at its headline (or at the invitation), never scrolled down to the
nickname field; a guest who taps "Sair" signs in again as the same guest on this device, and one
who forgets the device leaves nothing behind for the next person."""

from __future__ import annotations

import json
import urllib.error
from collections.abc import Iterator
from typing import Any

import pytest
from tests.support.browser import DESKTOP, PHONE, shot, unique_name, watch
from tests.support.webmatches import api
from tests.support.webplay import open_lobby_as_guest, phone_lobby_as_guest, sign_in_guest

IN_VIEW = """(sel) => {
  const r = document.querySelector(sel).getBoundingClientRect();
  return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight;
}"""


@pytest.fixture
def phone(browser: Any, server: str) -> Iterator[Any]:
    """A page as a phone has it: touch, no mouse (so no field grabs the focus)."""
    ctx = browser.new_context(viewport=PHONE, base_url=server, locale="pt-BR", is_mobile=True,
                              has_touch=True, reduced_motion="reduce")
    ctx.set_default_timeout(20_000)
    page = ctx.new_page()
    errors = watch(page)
    yield page
    ctx.close()
    assert not errors, errors


def test_the_first_visit_opens_at_the_headline(phone: Any) -> None:
    phone.goto("/")
    phone.wait_for_selector("#entry:not([hidden]) #guest-name")
    phone.wait_for_load_state("networkidle")
    assert phone.evaluate("scrollY") == 0
    assert phone.evaluate(IN_VIEW, ".hero h1")
    # the nickname and its button are on the first screen too, without being focused (a
    # focused field would open the phone's keyboard over the headline)
    assert phone.evaluate(IN_VIEW, "#guest-name")
    assert phone.evaluate(IN_VIEW, "#form-guest button[type=submit]")
    assert phone.evaluate("document.activeElement === document.body")
    shot(phone, "entry-phone")


def test_an_invited_friend_reads_the_invitation_first(phone: Any, server: str) -> None:
    host = api(server, "/api/guest", {"name": unique_name("Anfi")})["token"]
    table = api(server, "/api/tables", {"ruleset": "mano-a-mano", "seats": ["me", "open"]},
                token=host)
    phone.goto(f"/?convite={table['invite']}")
    phone.wait_for_selector("#entry:not([hidden]) #guest-name")
    phone.wait_for_load_state("networkidle")
    assert phone.evaluate("scrollY") == 0
    assert "convidado" in phone.inner_text("#notice .notice")
    assert phone.evaluate(IN_VIEW, "#notice .notice")
    assert phone.evaluate(IN_VIEW, "#guest-name")
    assert phone.evaluate(IN_VIEW, "#form-guest button[type=submit]")
    shot(phone, "entry-phone-invited")
    sign_in_guest(phone, unique_name("Amiga"))
    phone.wait_for_url(f"**/mesa.html?id={table['id']}")


def test_a_desktop_visit_keeps_the_form_beside_the_headline(new_context: Any) -> None:
    page = new_context(DESKTOP).new_page()
    errors = watch(page)
    page.goto("/")
    page.wait_for_selector("#entry:not([hidden]) #guest-name")
    page.wait_for_load_state("networkidle")
    assert page.evaluate("scrollY") == 0
    for sel in (".hero h1", "#guest-name", "#form-guest button[type=submit]"):
        assert page.evaluate(IN_VIEW, sel), sel
    shot(page, "entry-desktop")
    assert not errors, errors


def test_a_guest_who_taps_sair_comes_back_as_the_same_guest(new_context: Any) -> None:
    name = unique_name("Zé ")
    page, errors = phone_lobby_as_guest(new_context, name)
    page.click("#who button:has-text('Sair')")
    page.click("#signout-dialog[open] #signout-keep")  # keep this device
    page.wait_for_selector("#entry:not([hidden]) #guest-name")
    assert page.input_value("#guest-name") == name
    assert "continua seu" in page.inner_text("#guest-help")
    shot(page, "entry-phone-returning")

    # someone else, in another browser, cannot take the nickname
    other = new_context(PHONE).new_page()
    other.goto("/")
    sign_in_guest(other, name)
    other.wait_for_selector("#guest-error:has-text('já está em uso')")

    # this browser kept the guest's key: the same guest, with the same games, is back
    page.click("#form-guest button[type=submit]")
    page.wait_for_selector("#home:not([hidden]) #rs-list input")
    assert page.inner_text("#who .who-name").startswith(name)
    assert page.inner_text("#guest-error") == ""
    assert not errors, errors


def console_errors(p: Any) -> list[str]:
    """Everything the page logs as an error (a failed request included), and script errors."""
    errors: list[str] = []
    p.on("pageerror", lambda exc: errors.append(str(exc)))
    p.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    return errors


def test_a_guest_who_forgets_the_device_leaves_nothing_behind(new_context: Any,
                                                               server: str) -> None:
    """A shared computer: the guest signs out with "Esquecer este aparelho"; the lobby, reloaded,
    is signed out, offers no nickname, and the old key no longer signs anyone in."""
    name = unique_name("Lan ")
    page = new_context(DESKTOP).new_page()
    errors = console_errors(page)
    open_lobby_as_guest(page, name)
    key = page.evaluate("""(name) => JSON.parse(localStorage.getItem('carroca:guest-keys'))
                             [name.normalize('NFKC').trim().toLowerCase()]""", name)
    assert isinstance(key, str) and len(key) >= 40
    page.click("#who button:has-text('Sair')")
    dialog = page.locator("#signout-dialog[open]")
    dialog.wait_for()
    assert "não volta mais a este convidado" in dialog.inner_text()
    shot(page, "signout-dialog-desktop")
    page.click("#signout-forget")
    page.wait_for_selector("#entry:not([hidden]) #guest-name")
    page.reload()
    page.wait_for_selector("#entry:not([hidden]) #guest-name")
    page.wait_for_load_state("networkidle")
    assert page.input_value("#guest-name") == ""
    assert "continua seu" not in page.inner_text("#guest-help")
    assert page.evaluate("localStorage.getItem('carroca:guest-keys')") == "{}"
    assert "carroca_session" not in {c["name"] for c in page.context.cookies()}
    # the server refuses the old key: whoever kept a copy cannot come back as the guest
    with pytest.raises(urllib.error.HTTPError) as refused:
        api(server, "/api/guest", {"name": name, "key": key})
    assert refused.value.code == 401
    assert json.load(refused.value)["error"]["code"] == "bad_guest_key"
    # the next person starts fresh, as a new guest
    other = unique_name("Outra ")
    sign_in_guest(page, other)
    page.wait_for_selector("#home:not([hidden]) #rs-list input")
    assert page.inner_text("#who .who-name").startswith(other)
    assert not errors, errors
