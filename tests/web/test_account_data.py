"""The profile's "Seus dados e sua conta" (LGPD): the open sessions, the data download, and the
account's deletion behind a typed confirmation."""

from __future__ import annotations

from typing import Any

import pytest
from tests.support.browser import unique_name
from tests.support.webplay import phone_lobby_as_guest

pytestmark = pytest.mark.browser


def test_a_guest_sees_their_data_and_deletes_themselves(new_context: Any) -> None:
    name = unique_name("Lia")
    page, errors = phone_lobby_as_guest(new_context, name)
    page.click("#tab-perfil")
    page.click("#account-data summary")
    page.wait_for_selector("#sessions .session-item:has-text('Este aparelho')")
    assert page.is_hidden("#password-form")  # a guest has no password to change
    data = page.request.get(page.get_attribute("#data-download", "href") or "").json()
    assert data["profile"]["name"] == name

    page.click("#delete-open")
    page.fill("#delete-confirm", "talvez")
    page.click("#delete-dialog[open] #delete-yes")
    page.wait_for_selector("#delete-error:has-text('EXCLUIR')")
    page.fill("#delete-confirm", "excluir")
    page.click("#delete-dialog[open] #delete-yes")
    page.wait_for_selector("#entry:not([hidden]) #guest-name")
    assert page.request.get("/api/session").json()["player"] is None
    assert page.request.get(f"/api/players/{name}").status == 404
    assert not errors, errors
