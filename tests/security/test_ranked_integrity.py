"""Ranked integrity, tried as an attacker would.

Before: a fresh puppet account that played 6 moves of a ranked bloqueio match and then idled
until its three timeouts gave its opponent +2.6 to +3.4 rating points each time; and the ranked
queue paired two accounts signed up from one address as opponents.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from tests.support.attacks import account, http, play_first_legal, socket_for
from tests.support.serverproc import Server

FARMER_IP, PUPPET_IP = "127.0.0.2", "127.0.0.3"


def play(server: Server, token: str, seat: int, match_id: str,
         limit: int | None = None) -> tuple[dict[str, Any], int]:
    """Answer `seat`'s turns with its first legal action (the first `limit` ones only, then
    idle) until the match is over; returns the final state and the moves made."""
    with socket_for(server, token=token) as ws:
        return play_first_legal(ws, seat, match_id, limit, seconds=90)


def ranked_pair(server: Server, first: tuple[str, str], second: tuple[str, str]) -> str:
    """Queue two accounts (token, address) for ranked bloqueio; the match id."""
    with http(server, first[1], token=first[0]) as c:
        assert c.post("/api/ranked", json={"ruleset": "bloqueio"}).json()["status"] == "queued"
    with http(server, second[1], token=second[0]) as c:
        matched = c.post("/api/ranked", json={"ruleset": "bloqueio"}).json()
    assert matched["status"] == "matched", matched
    return str(matched["id"])


def test_a_puppet_that_plays_six_moves_then_idles_feeds_nobody(
    servers: Callable[..., Server]
) -> None:
    server = servers("--turn-seconds", "1", env={"CARROCA_HAND_PAUSE_SECONDS": "0.2"})
    farmer = account(server, "Fazendeiro", ip=FARMER_IP)
    for round_ in range(2):  # the trick repeated, each time with a fresh puppet
        puppet = account(server, f"Fantoche{round_}", ip=PUPPET_IP)
        match_id = ranked_pair(server, (farmer, FARMER_IP), (puppet, PUPPET_IP))
        with http(server) as c:
            players = c.get(f"/api/matches/{match_id}").json()["players"]
        seats = players.index("Fazendeiro"), players.index(f"Fantoche{round_}")
        with ThreadPoolExecutor(1) as pool:
            puppet_side = pool.submit(play, server, puppet, seats[1], match_id, 6)
            end, _ = play(server, farmer, seats[0], match_id)
            assert puppet_side.result(60)[1] == 6  # the puppet did make its six moves
        with http(server) as c:
            info = c.get(f"/api/matches/{match_id}").json()
            assert info["result"]["reason"] == "abandon"
            assert info["result"]["winner"] == seats[0] % 2
            assert c.get("/api/players/Fazendeiro").json()["ratings"] == {}, round_
        assert end["rating"] == {"before": None, "after": None}


def test_accounts_of_one_address_or_device_are_not_paired_in_ranked(
    servers: Callable[..., Server]
) -> None:
    server = servers("--turn-seconds", "1")
    ana, bia = account(server, "Ana", ip="127.0.0.4"), account(server, "Bia", ip="127.0.0.4")
    caio = account(server, "Caio", ip="127.0.0.5")
    with http(server, "127.0.0.4", token=ana) as c:
        assert c.post("/api/ranked", json={"ruleset": "bloqueio"}).json()["status"] == "queued"
    with http(server, "127.0.0.4", token=bia) as c:  # her twin waits: not her opponent
        assert c.post("/api/ranked", json={"ruleset": "bloqueio"}).json()["status"] == "queued"
    with http(server, "127.0.0.5", token=caio) as c:  # someone else: meets the first of them
        matched = c.post("/api/ranked", json={"ruleset": "bloqueio"}).json()
        assert matched["status"] == "matched"
    with http(server) as c:
        assert sorted(c.get(f"/api/matches/{matched['id']}").json()["players"]) == \
            ["Ana", "Caio"]
    with http(server, "127.0.0.4", token=bia) as c:
        assert c.get("/api/me").json()["queued"] == "bloqueio"
        assert c.delete("/api/ranked").json()["left"]
    # One phone, on the road: Dani signs in, then Edu; from other addresses they still wait.
    dani = account(server, "Dani", ip="127.0.0.6")
    account(server, "Edu", ip="127.0.0.7")
    with http(server, "127.0.0.8") as browser:
        r = browser.post("/api/login", json={"name": "Dani", "password": "senha-secreta"})
        assert r.status_code == 200 and browser.cookies.get("carroca_device")
        r = browser.post("/api/login", json={"name": "Edu", "password": "senha-secreta"})
        assert r.status_code == 200
        edu = r.json()["token"]
    with http(server, "127.0.0.9", token=dani) as c:
        assert c.post("/api/ranked", json={"ruleset": "bloqueio"}).json()["status"] == "queued"
    with http(server, "127.0.0.10", token=edu) as c:
        assert c.post("/api/ranked", json={"ruleset": "bloqueio"}).json()["status"] == "queued"
    with http(server, "127.0.0.11", token=account(server, "Fabi", ip="127.0.0.11")) as c:
        matched = c.post("/api/ranked", json={"ruleset": "bloqueio"}).json()
        assert matched["status"] == "matched"  # Dani, the first waiting, meets her
    with http(server) as c:
        assert sorted(c.get(f"/api/matches/{matched['id']}").json()["players"]) == \
            ["Dani", "Fabi"]
