"""The Bot API from a person's side: an account made a bot account on its profile page, a token
made there and shown once, then a program (the Python client, `run_bot`) plays that account at
a friends' table against a person in the browser, who sees it marked BOT in the friends' list
and at the table."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from tests.support.browser import DESKTOP, PHONE, shot, unique_name, watch
from tests.support.webplay import TABLE, open_lobby_as_guest, play_to_end

from carroca.client import BotClient, level_chooser, run_bot

pytestmark = pytest.mark.browser


def test_a_person_challenges_and_plays_a_bot_account_run_by_the_client(
        new_context: Any, server: str) -> None:
    owner = new_context(DESKTOP).new_page()
    person = new_context(PHONE).new_page()
    owner_errors, person_errors = watch(owner), watch(person)
    robo, pessoa = unique_name("Robo"), unique_name("Gil")

    # The owner signs up, makes the account a bot account and a token, on the profile page.
    owner.goto("/")
    made = owner.request.post("/api/register", data={"name": robo, "password": "senha-secreta"})
    assert made.ok, made.text()
    bot_id = made.json()["player"]["id"]
    owner.goto("/")
    owner.click("#bot-api summary")  # the desktop shows every panel of the lobby at once
    assert owner.is_disabled("#bot-upgrade-go")  # confirmed first: it cannot be undone
    owner.check("#bot-upgrade-sure")
    owner.click("#bot-upgrade-go")
    owner.wait_for_selector("#bot-is-bot:not([hidden])")
    owner.fill("#bot-token-label", "meu robô")
    owner.check("#bot-token-scopes input[value='bot:play']")
    owner.check("#bot-token-scopes input[value='challenge:write']")
    owner.click("#bot-token-form button[type=submit]")
    token = owner.locator("[data-testid=new-token]").text_content() or ""
    assert token.startswith("crc_")
    owner.wait_for_selector("#bot-tokens [data-token]:has-text('meu robô')")
    shot(owner, "desktop-bot-api")

    # The person befriends the bot account (its owner accepts for it) and challenges it.
    open_lobby_as_guest(person, pessoa)
    assert person.request.post("/api/friends", data={"name": robo}).ok
    me = person.request.get("/api/me").json()["player"]["id"]
    assert owner.request.post(f"/api/friends/{me}/accept").ok
    stop = threading.Event()
    with BotClient(server, token) as client:
        runner = threading.Thread(target=run_bot, daemon=True,
                                  args=(client, lambda: level_chooser("greedy", 3)),
                                  kwargs={"stop": stop})
        runner.start()
        try:
            person.goto("/")
            person.click("#tab-amigos")
            row = person.locator(f"#friend-list li[data-id='{bot_id}']")
            row.locator(".badge-bot:text-is('BOT')").wait_for()
            # One hand of bloqueio (the friends' list's button asks for a longer match: its
            # own test is tests/web/test_friends.py); the page goes to the table once accepted.
            asked = person.request.post("/api/challenges", data={
                "ruleset": "bloqueio", "options": {"target": 1},
                "seats": ["me", f"player:{bot_id}"]})
            assert asked.ok, asked.text()
            person.wait_for_url("**/mesa.html?id=*")
            person.wait_for_selector(f"{TABLE}[data-status=playing]")
            card = person.locator(f".seat [aria-label*='{robo}']").first
            label = card.get_attribute("aria-label")
            assert label is not None and f"{robo} (BOT)" in label, label
            shot(person, "phone-bot-account-at-table")
            tally = play_to_end(person)
        finally:
            stop.set()
            runner.join(timeout=30)
        assert not runner.is_alive()
    assert tally.tiles > 0
    match = person.url.split("id=")[1]
    rec = person.request.get(f"/api/matches/{match}/record").json()
    bot_seat = rec["players"].index(robo)
    assert any(a["seat"] == bot_seat and not a.get("auto")
               for h in rec["hands"] for a in h["actions"]), "the bot played no move itself"
    # The replay and the bot's profile mark it too.
    person.goto(f"/replay.html?id={match}")
    person.locator(f".hand-row[data-seat='{bot_seat}'] .badge-bot:text-is('BOT')").wait_for()
    assert person.locator(".hand-row .badge-bot").count() == 1
    person.goto(f"/perfil.html?id={bot_id}")
    person.locator("#p-name .badge-bot:text-is('BOT')").wait_for()
    assert not (owner_errors or person_errors), (owner_errors, person_errors)
