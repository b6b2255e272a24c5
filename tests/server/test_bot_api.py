"""The Bot API: tokens with scopes, made and revoked by their owner, never a session; bot
accounts, only for an account that never played and never in the people's ranked queue; and a
bot account that plays a person through the Python client, whose game stream carries its own
seat's view only (checked against the match's record), on a real server."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.support.docs import run_block
from tests.support.leak_oracle import Coverage, Oracle, check_state
from tests.support.server_app import account, guest, settings_for
from tests.support.serverproc import Server, wait_until
from tests.support.wsplay import auth

from carroca import record
from carroca.client import ApiError, BotClient, play_game, run_bot
from carroca.server.app import create_app


def make_token(http: Any, headers: dict[str, str], *scopes: str, label: str = "meu bot"
               ) -> tuple[str, int]:
    resp = http.post("/api/me/tokens", json={"label": label, "scopes": list(scopes)},
                     headers=headers)
    assert resp.status_code == 201, resp.text
    return resp.json()["token"], resp.json()["id"]


def code(resp: Any) -> tuple[int, str]:
    return resp.status_code, resp.json()["error"]["code"]


@pytest.mark.postgres  # stored: tokens, bot accounts
def test_tokens_have_scopes_are_revoked_and_are_never_a_session(database: str) -> None:
    settings = settings_for(database, max_api_tokens=3)
    with TestClient(create_app(settings)) as c:
        owner = auth(account(c, "Dona Bot"))
        c.cookies.clear()
        play_only, _ = make_token(c, owner, "bot:play")
        challenges, _ = make_token(c, owner, "challenge:write")
        # The routes of a program want a token; a session or a cookie is not one.
        assert code(c.get("/api/bot/account")) == (401, "token_required")
        assert code(c.get("/api/bot/account", headers=owner)) == (401, "bad_token")
        assert code(c.get("/api/bot/account", headers=auth("crc_nada"))) == (401, "bad_token")
        # A token is not a session: the people's routes do not take it.
        assert code(c.get("/api/me", headers=auth(play_only))) == (401, "login_required")
        assert c.get("/api/bot/account", headers=auth(challenges)).json()["scopes"] == \
            ["challenge:write"]
        # bot:play is a bot account's; a token without a scope is refused what needs it.
        assert code(c.get("/api/bot/stream/event", headers=auth(play_only))) == \
            (403, "not_a_bot")
        assert code(c.get("/api/bot/stream/event", headers=auth(challenges))) == \
            (403, "missing_scope")
        assert code(c.post("/api/me/tokens", json={"scopes": ["admin"]}, headers=owner)) == \
            (422, "bad_scopes")
        listed = c.get("/api/me/tokens", headers=owner).json()
        assert [t["scopes"] for t in listed["tokens"]] == [["bot:play"], ["challenge:write"]]
        assert "token" not in json.dumps(listed["tokens"]).replace('"tokens"', "")
        assert set(listed["scopes"]) == {"bot:play", "challenge:write", "tournament:write"}
        third, third_id = make_token(c, owner, "bot:play", "challenge:write")
        assert code(c.post("/api/me/tokens", json={"scopes": ["bot:play"]}, headers=owner)) \
            == (409, "too_many_tokens")
        # Revoked: refused at once, listed as revoked, and a place for a new one.
        assert c.delete(f"/api/me/tokens/{third_id}", headers=owner).status_code == 200
        assert code(c.get("/api/bot/account", headers=auth(third))) == (401, "bad_token")
        assert code(c.delete(f"/api/me/tokens/{third_id}", headers=owner)) == (404, "no_token")
        assert [t["revoked_at"] is not None for t in
                c.get("/api/me/tokens", headers=owner).json()["tokens"]] == [False, False, True]
        make_token(c, owner, "bot:play")
        # Another player cannot revoke or list someone's tokens.
        other = auth(account(c, "Seu Outro"))
        c.cookies.clear()
        assert code(c.delete(f"/api/me/tokens/{third_id}", headers=other)) == (404, "no_token")
        assert c.get("/api/me/tokens", headers=other).json()["tokens"] == []
        # A cross-site page cannot make a token with the player's cookie.
        c.cookies.set("carroca_session", owner["Authorization"][7:])
        assert c.post("/api/me/tokens", json={"scopes": ["bot:play"]},
                      headers={"Origin": "https://evil.example"}).status_code == 403
        c.cookies.clear()


@pytest.mark.postgres  # stored: tokens, bot accounts
def test_only_an_account_that_never_played_becomes_a_bot_and_never_ranked(database: str
                                                                          ) -> None:
    with TestClient(create_app(settings_for(database))) as c:
        visitor = auth(guest(c, "Visitante"))
        assert code(c.post("/api/me/bot", headers=visitor)) == (403, "bot_needs_account")
        player = auth(account(c, "Jogadora"))
        table = c.post("/api/tables", json={"ruleset": "mano-a-mano",
                                            "seats": ["me", "bot:random"]}, headers=player)
        assert table.status_code == 201, table.text
        assert code(c.post("/api/me/bot", headers=player)) == (409, "already_played")
        assert c.get("/api/me", headers=player).json()["player"]["kind"] == "account"
        # Queued for the people's ranked, a person stays one until they leave the queue.
        waiting = auth(account(c, "Na Fila"))
        assert c.post("/api/ranked", json={"ruleset": "mano-a-mano"},
                      headers=waiting).json()["status"] == "queued"
        assert code(c.post("/api/me/bot", headers=waiting)) == (409, "waiting_somewhere")
        assert c.request("DELETE", "/api/ranked", headers=waiting).status_code == 200
        assert c.post("/api/me/bot", headers=waiting).status_code == 200
        fresh = auth(account(c, "Robozinho"))
        c.cookies.clear()
        made = c.post("/api/me/bot", headers=fresh)
        assert made.status_code == 200 and made.json()["player"]["kind"] == "bot"
        assert c.get("/api/me", headers=fresh).json()["player"]["kind"] == "bot"
        assert c.post("/api/me/bot", headers=fresh).status_code == 200  # for good: still one
        assert code(c.post("/api/ranked", json={"ruleset": "mano-a-mano"}, headers=fresh)) == \
            (403, "bot_not_ranked")
        # A bot follows and plays only the games it has a seat at.
        token, _ = make_token(c, fresh, "bot:play")
        game = table.json()["id"]
        assert code(c.get(f"/api/bot/game/stream/{game}", headers=auth(token))) == \
            (404, "not_seated")
        assert code(c.post(f"/api/bot/game/{game}/move", json={"id": 1, "action": "pass"},
                           headers=auth(token))) == (404, "not_seated")


@pytest.mark.postgres  # stored: tokens, bot accounts
def test_calls_beyond_a_tokens_budget_are_refused(database: str) -> None:
    settings = settings_for(database, api_calls_per_second=0.01, api_call_burst=3)
    with TestClient(create_app(settings)) as c:
        owner = auth(account(c, "Apressado"))
        c.cookies.clear()
        token, _ = make_token(c, owner, "challenge:write")
        other, _ = make_token(c, owner, "challenge:write")
        for _ in range(3):
            assert c.get("/api/bot/account", headers=auth(token)).status_code == 200
        refused = c.get("/api/bot/account", headers=auth(token))
        assert code(refused) == (429, "api_calls") and int(refused.headers["Retry-After"]) >= 1
        assert c.get("/api/bot/account", headers=auth(other)).status_code == 200  # per token


def _person_plays(server: Server, token: str, match: str) -> list[dict[str, Any]]:
    """A person at the table through the WebSocket: the first legal move each turn, until the
    match is over; returns the states seen."""
    states: list[dict[str, Any]] = []
    with server.socket(token) as ws:
        ws.send(json.dumps({"type": "join", "data": {"match": match}}))
        sent = -1
        while True:
            frame = json.loads(ws.recv(timeout=60))
            if frame["type"] != "state":
                continue
            state = frame["data"]
            states.append(state)
            if state["status"] in ("finished", "expired"):
                return states
            view = state["view"]
            if view and view["legal"] and view["turn"] == state["seat"] and \
                    state["version"] != sent and not state["pause"]:
                sent = state["version"]
                ws.send(json.dumps({"type": "move", "data": {
                    "id": sent, "action": view["legal"][0], "version": sent}}))


def _sign_up(http: Any, name: str) -> tuple[dict[str, str], int]:
    resp = http.post("/api/register", json={"name": name, "password": "senha-secreta"})
    assert resp.status_code == 200, resp.text
    headers = {"Authorization": f"Bearer {resp.json()['token']}"}
    http.cookies.clear()
    return headers, int(http.get("/api/me", headers=headers).json()["player"]["id"])

def http_record(server: Server, headers: dict[str, str], match: str) -> str:
    with server.http(headers["Authorization"][7:]) as http:
        return str(http.get(f"/api/matches/{match}/record").text)


def _bot_account(http: Any, name: str, *scopes: str) -> tuple[str, int]:
    """A new account made a bot account, and a token of it with `scopes`: the token, the id."""
    headers, player_id = _sign_up(http, name)
    assert http.post("/api/me/bot", headers=headers).status_code == 200
    return make_token(http, headers, *scopes)[0], player_id


def test_a_bot_account_plays_a_person_through_the_client(
        servers: Callable[..., Server]) -> None:
    """A person challenges a bot account they are not friends with; the bot (docs/bots.md's
    twenty-line bot, run by `run_bot` on its token) accepts and plays the match to its end
    against the person's socket. Every state of the bot's game stream holds what its seat may
    see and nothing more (the leak oracle, from the match's record); a move after the end is
    refused; `carroca bot-connect` with a made-up token says so."""
    server = servers(env={"CARROCA_API_KEEPALIVE_SECONDS": "0.5"})
    with server.http() as http:
        token, bot_id = _bot_account(http, "Robô Teste", "bot:play", "challenge:write")
        person_headers, _ = _sign_up(http, "Pessoa")
        person_token = person_headers["Authorization"][7:]
    stop = threading.Event()
    seen: dict[str, list[dict[str, Any]]] = {}

    choose = run_block("bots.md", 0)["choose"]  # docs/bots.md's twenty-line bot

    with BotClient(server.base, token) as client:
        assert client.account()["player"] == {"id": bot_id, "name": "Robô Teste", "kind": "bot"}
        # The challenge comes before the bot's program listens: its event stream tells it
        # again when it opens.
        with server.http(person_token) as http:
            made = http.post("/api/challenges", json={
                "ruleset": "mano-a-mano", "options": {"target": 10},
                "seats": ["me", f"player:{bot_id}"]})
            assert made.status_code == 201, made.text
            runner = threading.Thread(
                target=run_bot, args=(client, lambda: choose), daemon=True,
                kwargs={"stop": stop,
                        "on_state": lambda m, s: seen.setdefault(m, []).append(s)})
            runner.start()
            tables = wait_until(lambda: http.get("/api/me").json()["tables"],
                                "the table made by the accepted challenge")
        match = tables[0]
        states = _person_plays(server, person_token, match)
        assert states[-1]["status"] == "finished"
        wait_until(lambda: seen.get(match) and seen[match][-1]["status"] == "finished",
                   "the bot's stream to end with the match")
        with pytest.raises(ApiError) as refused:
            client.move(match, "pass", 10_000)
        assert (refused.value.status, refused.value.code) == (409, "game_over")
        # Opened again after the end: the last state, then the stream ends.
        last = play_game(client, match, lambda obs: "pass")
        assert last is not None and last["status"] == "finished"
        stop.set()
        runner.join(timeout=30)
        assert not runner.is_alive()
    with server.http(person_token) as http:  # a friends' table: its players' record
        rec = record.loads(http.get(f"/api/matches/{match}/record").text)
        record.verify(rec)
        person_seat = rec["players"].index("Pessoa")
        bot_seat = 1 - person_seat
    oracle, cov = Oracle(rec), Coverage()
    versions = [s["version"] for s in seen[match]]
    assert versions == sorted(versions) and len(versions) > 10
    for i, state in enumerate(seen[match]):
        check_state(oracle, state, bot_seat, f"bot's state {i}", cov)
    assert cov.tiles > 0  # the check saw tiles: the bot's own, and those played
    moves = sum(1 for h in rec["hands"] for a in h["actions"] if a["seat"] == bot_seat)
    assert moves > 0
    # `carroca bot-connect` says why it cannot play: a revoked or made-up token.
    connect = subprocess.run(
        [sys.executable, "-m", "carroca", "bot-connect", "--server", server.base,
         "--token", "crc_inventado", "--level", "greedy"],
        capture_output=True, text=True, timeout=60)
    assert connect.returncode == 1 and "bad_token" in connect.stderr, connect.stderr
    # The person's page shows the seat as a bot account's ("BOT"), the bot's as a person's.
    assert states[-1]["players"][bot_seat]["bot_account"] is True
    assert "bot_account" not in states[-1]["players"][person_seat]
    with server.http(person_token) as http:
        assert http.get(f"/api/matches/{match}").json()["bot_accounts"] == [bot_seat]


def test_a_bot_account_plays_a_tournament_through_the_client(
        servers: Callable[..., Server]) -> None:
    """An event that takes bot accounts: the bot enters and plays its game only through the
    Python client; an event that does not take them refuses its entry."""
    server = servers(env={"CARROCA_API_KEEPALIVE_SECONDS": "0.5"})
    with server.http() as http:
        token, _ = _bot_account(http, "Robô Torneio", "bot:play", "tournament:write")
        person_headers, _ = _sign_up(http, "Organizadora")
        person_token = person_headers["Authorization"][7:]
    event = {"name": "Copa dos Robôs", "format": "swiss", "ruleset": "bloqueio",
             "options": {"target": 1}, "rounds": 1, "starts_in": 3600}
    stop = threading.Event()
    with server.http(person_token) as http, BotClient(server.base, token) as client:
        closed = http.post("/api/tournaments", json=event).json()["id"]
        with pytest.raises(ApiError) as refused:
            client.register(closed)
        assert (refused.value.status, refused.value.code) == (403, "bots_not_invited")
        made = http.post("/api/tournaments", json={**event, "bot_accounts": True})
        assert made.status_code == 201, made.text
        open_id = made.json()["id"]
        assert client.register(open_id)["entrant"]
        assert http.post(f"/api/tournaments/{open_id}/register").status_code == 200
        page = http.get(f"/api/tournaments/{open_id}").json()
        assert page["bot_accounts"] is True and len(page["registrations"]) == 2
        # The bot's entry is marked "BOT" on the event's page, the person's is not.
        assert {r["name"]: r["bot_account"] for r in page["registrations"]} == {
            "Robô Torneio": True, "Organizadora": False}
        runner = threading.Thread(target=run_bot, daemon=True, kwargs={"stop": stop},
                                  args=(client, lambda: run_block("bots.md", 0)["choose"]))
        runner.start()
        try:
            assert http.post(f"/api/tournaments/{open_id}/start").status_code == 200
            tables = wait_until(lambda: http.get("/api/me").json()["tables"],
                                "the event's table")
            states = _person_plays(server, person_token, tables[0])
            assert states[-1]["status"] == "finished"
            bot_seat = next(i for i, p in enumerate(states[-1]["players"])
                            if p["name"] == "Robô Torneio")
            assert states[-1]["players"][bot_seat]["bot_account"] is True
            over = wait_until(lambda: (p := http.get(f"/api/tournaments/{open_id}").json())
                              ["status"] == "finished" and p, "the event's end")
        finally:
            stop.set()
            runner.join(timeout=30)
    assert {s["name"] for s in over["standings"]} == {"Robô Torneio", "Organizadora"}


def test_two_bot_accounts_meet_on_the_bots_ladder_rated_apart(
        servers: Callable[..., Server]) -> None:
    """Two bot accounts queue for the bots' ladder through the client and play their match;
    their ratings are the bots' ("bot-mano"), never in the people's list. One then plays a
    casual table filled by built-in bots; the API is in the server's OpenAPI description."""
    # Both programs run here, from one address: the marks would keep them apart.
    server = servers(env={"CARROCA_API_KEEPALIVE_SECONDS": "0.5",
                          "CARROCA_RANKED_ADDRESS_MARKS": "false",
                          "CARROCA_CASUAL_WAIT_SECONDS": "0.2", "CARROCA_BOT_DELAY_MS": "0"})
    with server.http() as http:
        made = [_bot_account(http, name, "bot:play") for name in ("Robô Um", "Robô Dois")]
    tokens = [token for token, _ in made]
    stop = threading.Event()
    clients = [BotClient(server.base, token) for token in tokens]
    runners = [threading.Thread(target=run_bot, daemon=True, kwargs={"stop": stop},
                                args=(c, lambda: run_block("bots.md", 0)["choose"]))
               for c in clients]
    try:
        for runner in runners:
            runner.start()
        assert clients[0].ladder("bloqueio")["status"] == "queued"
        matched = clients[1].ladder("bloqueio")
        assert matched["status"] == "matched", matched
        with server.http() as http:
            board = wait_until(lambda: http.get("/api/leaderboard/bot-mano").json()["players"],
                               "the bots' ratings", timeout=120)
            assert {p["name"] for p in board} == {"Robô Um", "Robô Dois"}
            assert http.get("/api/leaderboard/mano").json()["players"] == []
            # Its profile shows the bots' ladder's rating and its course, nothing of the people's.
            page = http.get(f"/api/players/{made[0][1]}/profile").json()
            assert (page["kind"], set(page["ratings"]), set(page["rating_history"])) == (
                "bot", {"bot-mano"}, {"bot-mano"})
            # A casual table too: built-in bots fill it, the bot account plays its seat.
            casual = clients[0].casual("bloqueio", "random")["match"]
            over = wait_until(lambda: (m := http.get(f"/api/matches/{casual}").json())
                              ["status"] == "finished" and m, "the casual match", timeout=120)
            assert "Robô Um" in over["players"]
            # The pages that list names mark the bot account's seat ("BOT"): the match's
            # page (the replay reads it) and the lobby's finished list.
            assert over["bot_accounts"] == [over["players"].index("Robô Um")]
            listed = next(m for m in http.get("/api/matches").json()["finished"]
                          if m["id"] == casual)
            assert [bool(s and s.get("bot_account")) for s in listed["seats"]] == [
                name == "Robô Um" for name in over["players"]]
            paths = http.get("/api/openapi.json").json()["paths"]
            assert {"/api/bot/stream/event", "/api/bot/game/stream/{match_id}",
                    "/api/bot/game/{match_id}/move", "/api/bot/ladder", "/api/bot/casual",
                    "/api/me/tokens"} <= set(paths)
    finally:
        stop.set()
        for runner in runners:
            runner.join(timeout=30)
        for c in clients:
            c.close()


def test_a_bot_chats_and_resigns_by_its_calls(servers: Callable[..., Server]) -> None:
    """Without `run_bot`: the bot's program reads the challenge from its event stream, accepts
    it, follows the game, says a line the person's socket hears, and resigns, out of its turn:
    its turns run out at once, the third is its abandonment (the rules' only way out, so the
    record still verifies), the person wins, and the game's stream ends with that last state.
    The person plays their turns meanwhile."""
    server = servers()
    with server.http() as http:
        token, bot_id = _bot_account(http, "Robô Cortês", "bot:play", "challenge:write")
        person_headers, _ = _sign_up(http, "Visita")
    with BotClient(server.base, token) as client, server.http(
            person_headers["Authorization"][7:]) as http:
        assert http.post("/api/challenges", json={
            "ruleset": "mano-a-mano", "seats": ["me", f"player:{bot_id}"]}).status_code == 201
        events = client.events()
        challenge = next(f["data"] for f in events if f["type"] == "challenge")
        assert client.accept(challenge["id"])["status"] == "accepted"
        match = next(f["data"]["match"] for f in events if f["type"] == "matched")
        with server.socket(person_headers["Authorization"][7:]) as ws:
            ws.send(json.dumps({"type": "join", "data": {"match": match}}))
            game = client.game(match)
            first = next(game)["data"]
            assert first["status"] == "playing" and first["seat"] is not None
            client.chat(match, "Boa sorte!")
            said = wait_until(lambda: (f := json.loads(ws.recv(timeout=30)))["type"] == "chat"
                              and f["data"], "the bot's line")
            assert (said["name"], said["text"]) == ("Robô Cortês", "Boa sorte!")
            client.resign(match)
            with pytest.raises(ApiError) as gone:  # it gave up: its moves are refused
                client.move(match, "pass", 99_999)
            assert (gone.value.status, gone.value.code) == (409, "resigned")
            last: dict[str, Any] = {}
            while not last:  # the person answers their turns; the bot's run out at once
                frame = json.loads(ws.recv(timeout=60))
                state = frame["data"]
                if frame["type"] != "state":
                    continue
                if state["status"] == "finished":
                    last = state
                elif state["view"]["turn"] == state["seat"] and state["view"]["legal"]:
                    ws.send(json.dumps({"type": "move", "data": {
                        "id": state["version"], "action": state["view"]["legal"][0]}}))
            ended = [f["data"] for f in game if f["type"] == "state"]
            assert ended[-1]["status"] == "finished"  # and the stream is over
        with pytest.raises(ApiError) as again:
            client.resign(match)
        assert again.value.code == "game_over"
    result = last["view"]["result"]
    assert result["reason"] == "abandon" and result["winner"] != first["seat"] % 2
    rec = record.loads(http_record(server, person_headers, match))
    record.verify(rec)
    steps = [a for a in rec["hands"][-1]["actions"] if a["seat"] == first["seat"]]
    assert [a.get("auto", False) for a in steps[-2:]] == [True, True]  # then its abandonment
    # The person has played a whole match now: never a bot account.
    with server.http(person_headers["Authorization"][7:]) as http:
        refused = http.post("/api/me/bot")
        assert (refused.status_code, refused.json()["error"]["code"]) == (409, "already_played")


def test_open_streams_are_capped_and_end_with_their_token(servers: Callable[..., Server]
                                                          ) -> None:
    """A token holds at most its streams open (the next is refused, one closed gives a place
    back), and a revocation ends those still open within a keep-alive."""
    server = servers(env={"CARROCA_API_KEEPALIVE_SECONDS": "0.3",
                          "CARROCA_API_STREAMS_PER_TOKEN": "2"})
    with server.http() as http:
        headers, _ = _sign_up(http, "Robô Limite")
        assert http.post("/api/me/bot", headers=headers).status_code == 200
        token, token_id = make_token(http, headers, "bot:play")
        with BotClient(server.base, token) as client:
            first, second = client.events(alive=True), client.events(alive=True)
            assert next(first)["type"] == next(second)["type"] == "alive"
            with pytest.raises(ApiError) as third:
                next(client.events())
            assert (third.value.status, third.value.code) == (429, "too_many_streams")
            second.close()  # its place is given back once the server sees it gone
            again = wait_until(lambda: _opened(client), "a place for a stream again")
            assert http.delete(f"/api/me/tokens/{token_id}", headers=headers).status_code == 200
            for stream in (first, again):
                assert [f for f in stream if f["type"] != "alive"] == []  # ended, nothing else


def _opened(client: BotClient) -> Any:
    stream = client.events(alive=True)
    try:
        next(stream)
    except ApiError:
        stream.close()
        return None
    return stream
