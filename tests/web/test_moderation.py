"""Moderation in the browser, on a phone and on a desktop: A insults B in a friends' table chat,
B reports the line; a moderator sees the report with its transcript and replay link and mutes A
for a day with a reason; A is told and cannot chat, B's report reads "analisada", the audit log
has the action; lifting the mute lets A talk again."""

from __future__ import annotations

from typing import Any

import pytest
from tests.moderation.helpers import make_moderator
from tests.support.browser import DESKTOP, PHONE, unique_name, watch
from tests.support.webplay import TABLE, join_by_invite, open_new_table, sign_in


def say(page: Any, text: str) -> None:
    page.fill("#chat-input", text)
    page.get_by_role("button", name="Enviar").click()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_reported_insult_is_muted_and_lifted(new_context: Any, server_database: str,
                                               viewport: dict[str, int]) -> None:
    a, b, mod = (new_context(viewport).new_page() for _ in range(3))
    errors = [watch(p) for p in (a, b, mod)]
    a_name, b_name, mod_name = unique_name("Aco"), unique_name("Bel"), unique_name("Moe")
    sign_in(a.context, a_name)
    table = open_new_table(a, "bloqueio", ["open"])
    sign_in(b.context, b_name)
    join_by_invite(b, table["invite"])
    for p in (a, b):
        p.wait_for_selector(f"{TABLE}[data-status=playing]")
        p.click("#btn-chat")

    say(a, "seu idiota")
    line = b.locator("#chat .chat-line:has-text('seu i*****')")  # masked for B
    line.wait_for()
    line.get_by_role("button", name=f"Denunciar a mensagem de {a_name}").click()
    dialog = b.locator("[data-testid=report-dialog]")
    assert dialog.locator("#report-reason").input_value() == "chat"
    dialog.get_by_role("button", name="Enviar denúncia").click()
    b.wait_for_selector(".toast:has-text('Denúncia recebida')")

    made = mod.request.post("/api/register", data={"name": mod_name,
                                                   "password": "senha-secreta"})
    assert made.ok, made.text()
    make_moderator(server_database, mod_name)
    mod.goto("/moderacao.html")
    group = mod.locator(f".mod-group[data-player='{a_name}']")
    group.get_by_role("button").first.click()
    report = mod.locator("[data-testid=mod-report]")
    report.locator("[data-testid=transcript] li:has-text('seu idiota')").wait_for()
    report.locator("[data-testid=fair-play] li:has-text('nenhuma ranqueada revisada')").wait_for()
    assert report.locator("[data-testid=replay-link]").get_attribute("href", timeout=2000) \
        .startswith("/replay.html?id=")
    mod.select_option("#action", "mute")
    mod.fill("#days", "1")
    mod.fill("#reason", "xingou no chat")
    mod.get_by_role("button", name="Aplicar").click()
    mod.wait_for_selector(f"[data-testid=mod-log] li[data-action=mute]:has-text('{a_name}')")

    a.wait_for_selector(".toast:has-text('Seu chat está suspenso até')")
    say(a, "oi")
    a.wait_for_selector("[data-testid=notice]:has-text('Seu chat está suspenso até')")
    b.goto("/")
    b.wait_for_selector("#my-reports [data-status=analisada]", state="attached")

    mod.fill("#reason", "pediu desculpas")
    mod.get_by_role("button", name="Encerrar sanção").click()
    mod.wait_for_selector("[data-testid=mod-log] li[data-action=lift]")
    say(a, "desculpa")
    a.wait_for_selector("#chat .chat-line.mine:has-text('desculpa')")
    assert not any(errors), errors
