"""Ratings: only ranked matches move them, per family, winners up and losers down; profiles keep
the history and the leaderboard orders by the conservative estimate (mu − 3σ)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from tests.support.server_app import account, guest, settings_for, wait_finished
from tests.support.wsplay import auth, send

from carroca.server.app import create_app
from carroca.server.storage.db import make_engine, ratings

# Stored state is this module's subject: `make unit-postgres` runs it again on PostgreSQL.
pytestmark = pytest.mark.postgres


@pytest.fixture
def fast(database: str) -> Iterator[TestClient]:
    """Nobody moves and the clock is short: every match ends by abandonment in seconds (rated
    here, though nobody moved: tests/security checks that such matches are unrated by default),
    and abandoning bans nobody from the queue (the ladder: tests/moderation)."""
    settings = settings_for(database, turn_seconds=0.3, choice_seconds=0.3, ranked_min_moves=0,
                            ranked_min_hands=0, ranked_min_share=0, abandon_ban_minutes="")
    with TestClient(create_app(settings)) as client:
        yield client



def ranked_match(client: TestClient, ruleset: str, tokens: list[str]) -> dict[str, Any]:
    """Queue everyone, then wait for the end; returns the finished match's info."""
    answers = [client.post("/api/ranked", headers=auth(t), json={"ruleset": ruleset}).json()
               for t in tokens]
    assert [a["status"] for a in answers] == ["queued"] * (len(tokens) - 1) + ["matched"]
    return wait_finished(client, answers[-1]["id"])


def profile(client: TestClient, name: str) -> dict[str, Any]:
    r = client.get(f"/api/players/{name}")
    assert r.status_code == 200, r.text
    found: dict[str, Any] = r.json()
    return found


def set_rating(database: str, player_id: int, family: str, mu: float, sigma: float) -> None:
    engine = make_engine(database)
    try:
        with engine.begin() as conn:
            conn.execute(sa.insert(ratings).values(
                player_id=player_id, family=family, mu=mu, sigma=sigma, games=5, wins=2,
                ordinal=mu - 3 * sigma,
            ))
    finally:
        engine.dispose()


def player_id(client: TestClient, token: str) -> int:
    pid: int = client.get("/api/me", headers=auth(token)).json()["player"]["id"]
    return pid


@pytest.mark.slow
def test_a_ranked_mano_match_rates_both_players(fast: TestClient) -> None:
    names = ["Ana", "Bia"]
    tokens = [account(fast, n) for n in names]
    info = ranked_match(fast, "mano-a-mano", tokens)
    assert info["result"]["reason"] == "abandon"
    winner = info["players"][info["result"]["winner"]]
    loser = info["players"][1 - info["result"]["winner"]]
    won, lost = profile(fast, winner), profile(fast, loser)
    for p, wins in ((won, 1), (lost, 0)):
        assert set(p["ratings"]) == {"mano"}
        assert p["ratings"]["mano"]["games"] == 1 and p["ratings"]["mano"]["wins"] == wins
        (game,) = p["history"]
        assert game["id"] == info["id"] and game["mode"] == "ranked"
        assert game["rating_before"] == pytest.approx(0.0, abs=1e-6)  # mu 25, sigma 25/3
        assert game["rating_after"] == pytest.approx(p["ratings"]["mano"]["rating"])
    assert won["history"][0]["rating_after"] > won["history"][0]["rating_before"]
    assert lost["history"][0]["rating_after"] < lost["history"][0]["rating_before"]

    # The table, still live for a while, tells each seat its own change.
    with fast.websocket_connect(f"/ws?token={tokens[names.index(winner)]}") as ws:
        assert ws.receive_json()["type"] == "hello"
        send(ws, "join", {"match": info["id"]})
        state = ws.receive_json()["data"]
        assert state["status"] == "finished" and state["server_seed"]
        assert state["rating"] == {"before": won["history"][0]["rating_before"],
                                   "after": won["history"][0]["rating_after"]}

    board = fast.get("/api/leaderboard/mano").json()
    assert board["family"] == "mano"
    assert [p["name"] for p in board["players"]] == [winner, loser]
    assert fast.get("/api/leaderboard/mano-a-mano").json() == board  # a ruleset names its family
    assert fast.get("/api/leaderboard/duplas").json()["players"] == []
    assert fast.get("/api/leaderboard/xadrez").status_code == 404

    # A second match starts from the ratings the first one left.
    again = ranked_match(fast, "pontos", tokens)
    for name in names:
        p = profile(fast, name)
        assert p["ratings"]["mano"]["games"] == 2
        latest, first = p["history"]
        assert latest["id"] == again["id"]
        assert latest["rating_before"] == pytest.approx(first["rating_after"])
        assert latest["rating_after"] == pytest.approx(p["ratings"]["mano"]["rating"])


@pytest.mark.slow
def test_a_ranked_duplas_match_moves_winners_above_losers(fast: TestClient) -> None:
    names = ["Caio", "Duda", "Edu", "Fabi"]
    info = ranked_match(fast, "duplas-pontos", [account(fast, n) for n in names])
    assert info["result"]["reason"] == "abandon"
    team = info["result"]["winner"]
    winners = {n for seat, n in enumerate(info["players"]) if seat % 2 == team}
    rating = {n: profile(fast, n)["ratings"]["duplas"] for n in names}
    for name in names:
        assert rating[name]["games"] == 1
        assert rating[name]["wins"] == (1 if name in winners else 0)
        assert rating[name]["rating"] == pytest.approx(
            rating[name]["mu"] - 3 * rating[name]["sigma"])
    assert min(rating[n]["rating"] for n in winners) > \
        max(rating[n]["rating"] for n in set(names) - winners)
    board = fast.get("/api/leaderboard/duplas").json()["players"]
    assert {p["name"] for p in board[:2]} == winners
    assert [p["rating"] for p in board] == sorted((p["rating"] for p in board), reverse=True)
    assert all(p["games"] == 1 for p in board)
    assert fast.get("/api/leaderboard/mano").json()["players"] == []


def test_casual_and_friends_matches_leave_ratings_alone(database: str, fast: TestClient) -> None:
    token = guest(fast, "Gil")
    set_rating(database, player_id(fast, token), "mano", mu=30.0, sigma=4.0)
    before = profile(fast, "Gil")["ratings"]

    casual = fast.post("/api/casual", headers=auth(token),
                       json={"ruleset": "mano-a-mano", "bot_level": "greedy"}).json()
    wait_finished(fast, casual["id"])
    friends = fast.post("/api/tables", headers=auth(token),
                        json={"ruleset": "pontos", "seats": ["bot:greedy", "me"]}).json()
    wait_finished(fast, friends["id"])

    p = profile(fast, "Gil")
    assert p["ratings"] == before
    assert {g["id"] for g in p["history"]} == {casual["id"], friends["id"]}
    for game in p["history"]:
        assert game["rating_before"] is None and game["rating_after"] is None
    assert [x["name"] for x in fast.get("/api/leaderboard/mano").json()["players"]] == ["Gil"]


def test_the_leaderboard_orders_by_the_conservative_estimate(
    database: str, client: TestClient
) -> None:
    # Highest mu first would be Hugo, Iris, Joca; mu − 3σ puts the steady Iris on top.
    for name, mu, sigma in (("Hugo", 40.0, 8.0), ("Iris", 30.0, 2.0), ("Joca", 20.0, 1.0)):
        set_rating(database, player_id(client, guest(client, name)), "duplas", mu, sigma)
    board = client.get("/api/leaderboard/duplas").json()["players"]
    assert [(p["name"], p["rating"]) for p in board] == [
        ("Iris", 24.0), ("Joca", 17.0), ("Hugo", 16.0),
    ]
    assert client.get("/api/leaderboard/duplas-torneio").json()["players"] == board
    assert client.get("/api/leaderboard/mano").json()["players"] == []


def test_unknown_players_have_no_profile(client: TestClient) -> None:
    r = client.get("/api/players/ninguem")
    assert r.status_code == 404 and r.json()["error"]["code"] == "no_player"
    guest(client, "Kiko")
    assert profile(client, "kiko") | {"history": []} == {
        "name": "Kiko", "kind": "guest", "ratings": {}, "history": []}


def test_the_match_page_never_shows_finished_without_its_result(
    fast: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page reads the live table and the stored row: a table that finishes while the row is
    being read must not be shown `finished` with the row's result from before (still none)."""
    store = fast.app.state.store  # type: ignore[attr-defined]
    tables = fast.app.state.tables  # type: ignore[attr-defined]
    read_row = store.get_match
    raced: list[bool] = []

    async def slow_read(match_id: str) -> Any:
        row = await read_row(match_id)
        table = tables.get(match_id)
        if row is not None and row["result"] is None and table is not None and not raced:
            raced.append(True)
            while table.status != "finished":  # the table finishes after the row was read
                await asyncio.sleep(0.01)
        return row

    monkeypatch.setattr(store, "get_match", slow_read)
    names = ["Gil", "Hebe"]
    tokens = [account(fast, n) for n in names]
    answers = [fast.post("/api/ranked", headers=auth(t), json={"ruleset": "mano-a-mano"}).json()
               for t in tokens]
    info = fast.get(f"/api/matches/{answers[-1]['id']}").json()
    assert raced
    assert info["status"] != "finished" or info["result"] is not None, info
    assert wait_finished(fast, answers[-1]["id"])["result"]["reason"] == "abandon"
