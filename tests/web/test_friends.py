"""A friends' table in two browsers: the host creates it, the friend opens the invite link, both
play to the end; a finished friends' match is its players' until its host makes it public."""

from __future__ import annotations

from typing import Any

from tests.support.browser import DESKTOP, PHONE, shot, unique_name, watch
from tests.support.sockplay import play_match, token_of
from tests.support.webplay import (
    TABLE,
    create_friends_table,
    join_by_invite,
    open_lobby_as_guest,
    open_new_table,
    play_together,
    sign_in,
    sign_in_guest,
)

REPLAY = "[data-testid=replay]"

def test_host_and_friend_play_a_whole_match(new_context: Any) -> None:
    host = new_context(PHONE).new_page()
    friend = new_context(DESKTOP).new_page()
    host_errors, friend_errors = watch(host), watch(friend)
    open_lobby_as_guest(host, unique_name("Host"))
    create_friends_table(host, "mano-a-mano", ["open"], {"target": "10"})
    invite = host.locator("[data-testid=invite-link]")
    invite.wait_for()
    assert host.get_attribute(TABLE, "data-status") == "waiting"
    shot(host, "phone-friends-waiting")
    link = invite.input_value()
    assert "/?convite=" in link

    friend.goto(link)
    assert "convidado" in friend.locator("#notice .notice").inner_text()
    sign_in_guest(friend, unique_name("Amiga"))
    friend.wait_for_url("**/mesa.html?id=*")
    for p in (host, friend):
        p.wait_for_selector(f"{TABLE}[data-status=playing]")
    assert host.url.split("id=")[1] == friend.url.split("id=")[1]
    seats = {int(str(p.get_attribute(TABLE, "data-seat"))): p for p in (host, friend)}
    assert sorted(seats) == [0, 1]
    # each sees the other's name on the scoreboard (1v1: the two names)
    host_labels = (host.inner_text("#score-label-0"), host.inner_text("#score-label-1"))
    friend_labels = (friend.inner_text("#score-label-0"), friend.inner_text("#score-label-1"))
    assert host_labels == friend_labels

    tallies = play_together(host, seats, 400)
    for p in (host, friend):
        p.wait_for_selector(f"{TABLE}[data-status=finished]")
        p.wait_for_selector("#end-dialog[open]")
    shot(friend, "desktop-friends-end")
    titles = {host.inner_text("#end-title"), friend.inner_text("#end-title")}
    assert any("Você venceu" in t for t in titles), titles
    assert tallies[0].tiles > 0 and tallies[1].tiles > 0
    assert not (host_errors or friend_errors), (host_errors, friend_errors)


def test_chat_and_mute_at_a_friends_table(new_context: Any) -> None:
    """Quick phrases and text reach the other player; muting silences them; from the same row,
    a friend request and a block, whose lines then never arrive."""
    host = new_context(DESKTOP).new_page()
    friend = new_context(PHONE).new_page()
    host_errors, friend_errors = watch(host), watch(friend)
    friend_name, host_name = unique_name("Rui"), unique_name("Lia")
    sign_in(host.context, host_name)
    table = open_new_table(host, "bloqueio", ["open"])
    sign_in(friend.context, friend_name)
    join_by_invite(friend, table["invite"])
    friend.wait_for_selector(f"{TABLE}[data-status=playing]")
    host.wait_for_selector(f"{TABLE}[data-status=playing]")

    # the friend opens the chat (a drawer on the phone) and sends a quick phrase and a text
    friend.click("#btn-chat")
    friend.get_by_role("button", name="Boa jogada!").click()
    friend.fill("#chat-input", "Bora, mais uma!")
    friend.get_by_role("button", name="Enviar").click()
    host.click("#tab-chat")
    host.wait_for_selector("#chat .chat-line:has-text('Bora, mais uma!')")
    assert host.locator("#chat .chat-line:has-text('Boa jogada!')").count() == 1
    shot(friend, "phone-chat")

    # the host mutes the friend: the next line does not arrive, then unmutes
    host.get_by_role("button", name=f"Silenciar {friend_name}").click()
    host.wait_for_selector("#mutes [aria-pressed=true]")
    friend.fill("#chat-input", "ninguém me ouve")
    friend.get_by_role("button", name="Enviar").click()
    friend.wait_for_selector("#chat .chat-line.mine:has-text('ninguém me ouve')")
    host.get_by_role("button", name=f"Ouvir {friend_name}").click()
    host.wait_for_selector("#mutes [aria-pressed=false]")
    friend.fill("#chat-input", "voltei")
    friend.get_by_role("button", name="Enviar").click()
    host.wait_for_selector("#chat .chat-line:has-text('voltei')")
    assert host.locator("#chat .chat-line:has-text('ninguém me ouve')").count() == 0

    # from the table's people: a friend request, then a block (after a confirmation), which
    # holds the friend's lines back for good and is silent to them
    host.get_by_role("button", name=f"Adicionar {friend_name}").click()
    host.wait_for_selector("#mutes button[data-action=befriend]:has-text('Pedido enviado')")
    incoming = friend.request.get("/api/friends").json()["incoming"]
    assert [p["name"] for p in incoming] == [host_name], incoming
    host.once("dialog", lambda dialog: dialog.accept())
    host.get_by_role("button", name=f"Bloquear {friend_name}").click()
    host.wait_for_selector("#mutes button[data-action=block]:has-text('Você bloqueou')")
    shot(host, "desktop-chat-people-blocked")
    friend.fill("#chat-input", "me bloqueou?")
    friend.get_by_role("button", name="Enviar").click()
    friend.wait_for_selector("#chat .chat-line.mine:has-text('me bloqueou?')")
    host.fill("#chat-input", "alguém aí?")
    host.get_by_role("button", name="Enviar").click()
    host.wait_for_selector("#chat .chat-line.mine:has-text('alguém aí?')")
    friend.wait_for_selector("#chat .chat-line:has-text('alguém aí?')")  # the blocker is heard
    assert host.locator("#chat .chat-line:has-text('me bloqueou?')").count() == 0
    assert not (host_errors or friend_errors), (host_errors, friend_errors)


def test_ranked_queue_matches_two_players_without_chat(new_context: Any) -> None:
    """The first in the queue waits (and is sent to the table by the `matched` frame); the
    second is matched at once. Ranked tables have no chat."""
    first = new_context(PHONE).new_page()
    second = new_context(DESKTOP).new_page()
    first_errors, second_errors = watch(first), watch(second)
    for p, name in ((first, "Gil"), (second, "Ivo")):
        open_lobby_as_guest(p, unique_name(name))
        p.check("input[name=ruleset][value=classico]")
        # Ranked is for accounts: a guest is told so and keeps their nickname with a password.
        p.click("#btn-ranked")
        p.wait_for_selector(".toast:has-text('conta')")
        assert p.evaluate("document.activeElement.id") == "upgrade-password"
        p.fill("#upgrade-password", "senha-secreta")
        p.press("#upgrade-password", "Enter")
        p.wait_for_selector("#upgrade[hidden]", state="attached")
    first.click("#btn-ranked")
    first.wait_for_selector("#queue:not([hidden])")
    assert "Clássico" in first.inner_text("#queue-title")
    shot(first, "phone-ranked-queue")
    second.click("#btn-ranked")
    for p in (first, second):
        p.wait_for_url("**/mesa.html?id=*")
        p.wait_for_selector(f"{TABLE}[data-status=playing][data-mode=ranked]")
        assert not p.locator("#btn-chat").is_visible()
        assert p.locator("#tab-chat").is_hidden()
    match_id = first.url.split("id=")[1]
    assert second.url.split("id=")[1] == match_id

    # someone else watches: the table and both players' tile counts, no hand, no moves
    watcher = new_context(PHONE).new_page()
    watcher_errors = watch(watcher)
    sign_in(watcher.context, unique_name("Ze"))
    watcher.goto(f"/mesa.html?id={match_id}")
    watcher.wait_for_selector(f"{TABLE}[data-status=playing].spectator")
    assert watcher.get_attribute(TABLE, "data-seat") == ""
    assert watcher.locator("#hand [data-tile]").count() == 0
    assert "assistindo" in watcher.inner_text("#turn-msg")
    assert watcher.locator(".actions").is_hidden()
    assert not (first_errors or second_errors or watcher_errors)


def table_with_a_bot(host: Any) -> str:
    """A friends' mano-a-mano to 10 of the host's player against a bot; returns its id."""
    made = host.request.post("/api/tables", data={
        "ruleset": "mano-a-mano", "options": {"target": 10}, "seats": ["me", "bot:greedy"]})
    assert made.ok, made.text()
    return str(made.json()["id"])


def test_the_host_makes_a_finished_friends_match_public(new_context: Any, server: str) -> None:
    """The end dialog of a friends' match says it is its players' only, and makes it public;
    the profile's history offers the same for another one. The matches are played on the
    host's own socket (the first while the host's page shows it to its end)."""
    host = new_context(DESKTOP).new_page()
    stranger = new_context(PHONE).new_page()
    host_errors, stranger_errors = watch(host), watch(stranger)
    sign_in(host.context, unique_name("Dona"))
    match_id = table_with_a_bot(host)
    host.goto(f"/mesa.html?id={match_id}")
    host.wait_for_selector(f"{TABLE}[data-status=playing]")
    play_match(server, [token_of(host.context)], match_id)
    host.wait_for_selector("#end-dialog[open]")
    control = host.locator("#end-privacy")
    control.locator("[data-testid=make-public]").wait_for()
    assert "só quem jogou" in control.inner_text()
    shot(host, "desktop-friends-end-private")

    # Someone else, even with the address, finds nothing.
    stranger.goto(f"/replay.html?id={match_id}")
    stranger.wait_for_selector(f"{REPLAY}[data-status=error]")
    assert "Partida não encontrada" in stranger.inner_text("#overlay")

    host.click("#end-privacy [data-testid=make-public]")
    host.wait_for_selector("#end-privacy:has-text('Partida pública')")
    stranger.reload()
    stranger.wait_for_selector(f"{REPLAY}[data-status=ready]")

    # Another one, left private: the profile's history offers the same choice to its host.
    second = table_with_a_bot(host)
    play_match(server, [token_of(host.context)], second)
    host.goto("/")
    item = host.locator("#profile li", has=host.locator(f"a[href='replay.html?id={second}']"))
    item.locator("button:has-text('Tornar partida pública')").click()
    item.locator("text=Pública").wait_for()
    first = host.locator("#profile li", has=host.locator(f"a[href='replay.html?id={match_id}']"))
    assert not first.locator("button").count()  # public already
    stranger.goto(f"/replay.html?id={second}")
    stranger.wait_for_selector(f"{REPLAY}[data-status=ready]")
    assert not (host_errors or stranger_errors), (host_errors, stranger_errors)


def test_met_at_a_table_then_friends_online_playing_challenged_and_a_block(
        new_context: Any, server: str) -> None:
    """A and B play a hand at a table; A adds B from the end dialog; B accepts in the lobby; A
    sees B online, then "jogando" once B sits at a table; B challenges A and both are taken to
    the new table. C blocks A: A's request to C is answered as any other and never reaches C.
    The hand is played on A's and B's own sockets while their pages show it."""
    a, b = new_context(DESKTOP).new_page(), new_context(PHONE).new_page()
    a_errors, b_errors = watch(a), watch(b)
    ana, bia, caio = unique_name("Ana"), unique_name("Bia"), unique_name("Caio")
    open_lobby_as_guest(a, ana)
    create_friends_table(a, "bloqueio", ["open"], {"target": "1"})
    b.goto(a.locator("[data-testid=invite-link]").input_value())
    sign_in_guest(b, bia)
    for p in (a, b):
        p.wait_for_selector(f"{TABLE}[data-status=playing]")
    play_match(server, [token_of(a.context), token_of(b.context)], a.url.split("id=")[1])

    # A adds B from the end dialog; B accepts in the lobby's friends tab
    a.get_by_role("button", name=f"Adicionar {bia} aos amigos").click()
    a.wait_for_selector("[data-testid=end-friends] button:has-text('Pedido enviado')")
    b.goto("/")
    b.locator("#friend-requests li", has_text=ana).get_by_role("button", name="Aceitar").click()
    b.wait_for_selector(f"#friend-list li:has-text('{ana}')")

    # A sees B online, then playing once B sits at a table
    a.goto("/")
    state = f"#friend-list li:has-text('{bia}') .friend-state"
    a.wait_for_selector(f"{state}:text-is('online')")
    shot(a, "desktop-friends-online")
    create_friends_table(b, "bloqueio", ["bot:greedy"])
    a.wait_for_selector(f"{state}:text-is('jogando')")

    # B challenges A from the lobby: A accepts where they are, and both are taken to the table
    b.goto("/")
    b.locator(f"#friend-list li:has-text('{ana}')").get_by_role("button", name="Desafiar").click()
    assert b.locator("#challenge-ruleset").input_value() == "mano-a-mano"
    b.get_by_role("button", name="Enviar desafio").click()
    box = a.wait_for_selector(".challenge-box")
    said = box.text_content() if box is not None else ""
    assert f"{bia} desafia você!" in said and "Mano a Mano até 50 pontos" in said, said
    assert "1 contra 1 com compra" in said and "target" not in said, said
    shot(a, "desktop-friends-challenge")
    box.wait_for_selector("button:has-text('Aceitar')").click()
    a.wait_for_url("**/mesa.html?id=*")
    b.wait_for_url("**/mesa.html?id=*")
    assert a.url.split("id=")[1] == b.url.split("id=")[1]

    # C blocks A: A's request is answered as sent, and C never sees it
    c = new_context(PHONE)
    sign_in(c, caio)
    assert c.request.post("/api/blocks", data={"name": ana}).ok
    asked = a.request.post("/api/friends", data={"name": caio})
    assert asked.ok and asked.json()["status"] == "requested", asked.text()
    assert c.request.get("/api/friends").json()["incoming"] == []
    assert not (a_errors or b_errors), (a_errors, b_errors)
