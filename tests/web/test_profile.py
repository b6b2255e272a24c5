"""A player's profile page (perfil.html) and the duplas challenge, in the browser.

The players, friendships and matches are made through the API (and two ranked matches written
beside the server, as its database holds them): the page is what is under test, not how a
match is played."""

from __future__ import annotations

import json
import time
from contextlib import ExitStack
from typing import Any

from tests.support.browser import DESKTOP, PHONE, shot, unique_name, watch
from websockets.sync.client import ClientConnection, connect

from carroca.server.storage import db

PROFILE = "[data-testid=profile]"


def sign_up(ctx: Any, name: str) -> tuple[str, int]:
    """A guest through the context's API (its cookie is then theirs): token and id."""
    token = str(ctx.request.post("/api/guest", data={"name": name}).json()["token"])
    me = ctx.request.get("/api/me", headers=bearer(token)).json()
    return token, int(me["player"]["id"])


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def befriend(ctx: Any, a: str, b: str, a_name: str, b_name: str) -> None:
    ctx.request.post("/api/friends", data={"name": b_name}, headers=bearer(a))
    answer = ctx.request.post("/api/friends", data={"name": a_name}, headers=bearer(b)).json()
    assert answer["status"] == "friends", answer


def ranked_history(database: str, player: int, ratings: list[float]) -> None:
    """Ranked mano-a-mano matches of `player` against a bot, a day apart, as stored."""
    engine = db.make_engine(database)
    now = time.time()
    try:
        with engine.begin() as conn:
            for k, rating in enumerate(ratings):
                match = f"r{player}x{k}"
                won = k % 2 == 0
                conn.execute(db.matches.insert().values(
                    id=match, mode="ranked", ruleset="mano-a-mano", options={},
                    seats=[{"player": player, "name": "?"},
                           {"bot": "medium", "name": "bot:medium"}],
                    status="finished", turn_seconds=20.0, bot_level="medium",
                    server_seed="0" * 64, commitment="0" * 64, client_seeds=[None, None],
                    created_at=now, finished_at=now - (len(ratings) - k) * 86400,
                    score=[50, 10], result={"winner": 0 if won else 1, "score": [50, 10],
                                            "reason": "target", "pneu": False}))
                conn.execute(db.participants.insert().values(
                    match_id=match, seat=0, player_id=player, rating_before=0.0,
                    rating_after=rating, won=won, batidas=2, galos=0, capicus=0))
            conn.execute(db.ratings.insert().values(
                player_id=player, family="mano", mu=25.0, sigma=5.0, games=len(ratings),
                wins=(len(ratings) + 1) // 2, ordinal=ratings[-1]))
    finally:
        engine.dispose()


def test_a_profile_its_graph_figures_friends_in_common_and_a_block(
        new_context: Any, server_database: str) -> None:
    ctx = new_context(PHONE)
    page = ctx.new_page()
    errors = watch(page)
    ana, bia, caio = unique_name("Ana"), unique_name("Bia"), unique_name("Caio")
    ana_token, ana_id = sign_up(ctx, ana)
    caio_token, _ = sign_up(ctx, caio)
    bia_token, _ = sign_up(ctx, bia)  # the page's player: the context's cookie is hers
    befriend(ctx, ana_token, caio_token, ana, caio)
    befriend(ctx, bia_token, caio_token, bia, caio)
    befriend(ctx, bia_token, ana_token, bia, ana)
    ranked_history(server_database, ana_id, [1.5, 4.25, 3.0])

    page.goto(f"/perfil.html?id={ana_id}")
    page.wait_for_selector(f"{PROFILE}[data-status=ready]")
    assert page.inner_text("#p-name").startswith(ana)
    assert page.inner_text("#p-since").startswith("Joga desde ")
    graph = page.locator("figure.p-graph[data-family='1 contra 1'] svg")
    assert graph.locator("circle").count() == 3
    said = str(graph.get_attribute("aria-label"))
    assert said.startswith("1 contra 1: de 1,5 a 3,0 em 3 partidas ranqueadas"), said
    row = page.locator("#p-stats tr[data-ruleset=mano-a-mano] td")
    assert row.all_inner_texts() == ["3", "2", "6", "–", "–"]
    assert page.locator("#p-recent a[href^='replay.html?id=']").count() == 3
    assert page.locator("#p-common a").all_inner_texts() == [caio]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "phone-profile", full_page=True)

    # A friend: Desafiar opens the challenge; then Bia blocks Ana: no challenge, Desbloquear.
    page.get_by_role("button", name="Desafiar").click()
    page.wait_for_selector("#challenge-dialog[open]")
    assert page.inner_text("#challenge-title") == f"Desafiar {ana}"
    page.get_by_role("button", name="Cancelar").click()
    page.once("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Bloquear").click()
    page.wait_for_selector("#p-actions button:has-text('Desbloquear')")
    assert page.locator("#p-actions button:has-text('Desafiar')").count() == 0

    # Ana's own view of Bia's page: a player like any other (Adicionar), with nothing said.
    other = new_context(DESKTOP)
    other.add_cookies([{"name": "carroca_session", "value": ana_token,
                        "url": page.url.split("/perfil")[0]}])
    theirs = other.new_page()
    theirs.goto(f"/perfil.html?nome={bia}")
    theirs.wait_for_selector(f"{PROFILE}[data-status=ready]")
    assert theirs.locator("#p-actions button").all_inner_texts() == ["Adicionar", "Bloquear"]
    theirs.goto("/perfil.html?nome=ninguem-tem-este-nome")
    theirs.wait_for_selector(f"{PROFILE}[data-status=error]")
    assert "Jogador não encontrado" in theirs.inner_text("#notice")
    assert not errors, errors


def frames_until(ws: ClientConnection, kind: str) -> dict[str, Any]:
    """The next frame of `kind` on a socket of the test's own."""
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        frame: dict[str, Any] = json.loads(ws.recv(timeout=deadline - time.monotonic()))
        if frame["type"] == kind:
            return frame["data"]  # type: ignore[no-any-return]
    raise AssertionError(f"no {kind} frame")


def test_a_duplas_challenge_with_a_partner_against_two_friends_online(
        new_context: Any, server: str) -> None:
    """From the lobby's friends: Desafiar, Duplas de pontos, the friend as partner and two
    friends online (their sockets here) as opponents; all three accept, and the challenger is
    taken to the table where each sits where chosen."""
    ctx = new_context(DESKTOP)
    page = ctx.new_page()
    errors = watch(page)
    names = [unique_name(n) for n in ("Ana", "Bia", "Caio", "Davi")]
    tokens = [sign_up(ctx, n)[0] for n in names[1:]]
    ana_token, _ = sign_up(ctx, names[0])
    for token, name in zip(tokens, names[1:], strict=True):
        befriend(ctx, ana_token, token, names[0], name)
    socket = server.replace("http", "ws", 1) + "/ws?token="
    with ExitStack() as stack:
        friends = [stack.enter_context(connect(socket + t, open_timeout=10)) for t in tokens]
        page.goto("/")
        page.wait_for_selector("#home:not([hidden]) #friend-list li")
        for name in names[1:]:  # online, as the socket tells the lobby
            page.wait_for_selector(f"#friend-list li:has-text('{name}') "
                                   ".friend-state:text-is('online')")
        page.locator(f"#friend-list li:has-text('{names[1]}')").get_by_role(
            "button", name="Desafiar").click()
        page.select_option("#challenge-ruleset", "duplas-pontos")
        assert page.locator("#challenge-seat-2 option:checked").inner_text() == names[1]
        page.select_option("#challenge-seat-1", label=names[2])
        page.select_option("#challenge-seat-3", label=names[3])
        shot(page, "desktop-challenge-duplas")
        page.get_by_role("button", name="Enviar desafio").click()
        page.wait_for_selector("#challenge-dialog", state="detached")
        got = [frames_until(ws, "challenge") for ws in friends]
        assert got[0]["seats"] == [names[0], names[2], names[1], names[3]]
        for token in tokens:
            answer = ctx.request.post(f"/api/challenges/{got[0]['id']}/accept",
                                      headers=bearer(token))
            assert answer.ok, answer.text()
        page.wait_for_url("**/mesa.html?id=*")
        match = ctx.request.get(f"/api/matches/{page.url.split('id=')[1]}",
                                headers=bearer(ana_token)).json()
        assert match["players"] == [names[0], names[2], names[1], names[3]]
    assert not errors, errors
