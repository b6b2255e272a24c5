"""The lobby across nodes: the ranked queue, casual seating, chat, "mais tempo", the list of
tables and a player's tables, whichever node each request reaches."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import httpx2
import pytest
from tests.support.cluster_players import Player, guest, play, post
from tests.support.clusterproc import Cluster
from tests.support.serverproc import NO_PROXY
from websockets.sync.client import ClientConnection, connect


@pytest.fixture
def cluster(cluster_factory: Callable[..., Cluster]) -> Cluster:
    """Casual tables wait long for people before bots fill them."""
    return cluster_factory(env={"CARROCA_CASUAL_WAIT_SECONDS": "60"})


def account(base: str, name: str) -> str:
    with httpx2.Client(base_url=base, timeout=30, trust_env=False) as c:
        r = c.post("/api/register", json={"name": name, "password": "senha-secreta"})
        assert r.status_code == 200, r.text
        token: str = r.json()["token"]
        return token


def get(base: str, path: str, token: str | None = None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    with httpx2.Client(base_url=base, timeout=30, trust_env=False, headers=headers) as c:
        r = c.get(path)
        assert r.status_code == 200, r.text
        answer: dict[str, Any] = r.json()
        return answer


def socket(base: str, token: str) -> ClientConnection:
    ws: ClientConnection = connect(f"{base.replace('http', 'ws', 1)}/ws?token={token}",
                                   open_timeout=30, close_timeout=1, legacy=True, **NO_PROXY)
    return ws


def until(ws: ClientConnection, kind: str, check: Callable[[dict[str, Any]], bool] = bool,
          seconds: float = 15) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        frame = json.loads(ws.recv(timeout=deadline - time.monotonic()))
        if frame["type"] == kind and check(frame["data"]):
            data: dict[str, Any] = frame["data"]
            return data
    raise AssertionError(f"no {kind} frame in {seconds} s")


def test_ranked_players_queued_on_two_nodes_are_matched_once(cluster: Cluster) -> None:
    ana, bia = account(cluster.node_url(1), "ana"), account(cluster.node_url(2), "bia")
    lobby = socket(cluster.node_url(3), ana)  # Ana waits with her lobby open on n3
    until(lobby, "hello")
    first = post(cluster.node_url(1), ana, "/api/ranked", {"ruleset": "bloqueio"})
    assert first["status"] == "queued"
    assert get(cluster.node_url(2), "/api/me", ana)["queued"] == "bloqueio"
    second = post(cluster.node_url(2), bia, "/api/ranked", {"ruleset": "bloqueio"})
    assert second["status"] == "matched"
    matched = until(lobby, "matched")  # through Redis: n2 made the match
    assert matched["match"] == second["id"]
    for token, node in ((ana, 3), (bia, 1)):
        me = get(cluster.node_url(node), "/api/me", token)
        assert me["tables"] == [second["id"]] and me["queued"] is None
    # Queuing again while seated answers the same match, from any node.
    again = post(cluster.node_url(3), ana, "/api/ranked", {"ruleset": "bloqueio"})
    assert (again["status"], again["id"]) == ("matched", second["id"])
    lobby.close()


def test_casual_seating_chat_and_lists_across_nodes(cluster: Cluster) -> None:
    ana, bia = guest(cluster.node_url(1), "ana"), guest(cluster.node_url(2), "bia")
    made = post(cluster.node_url(1), ana, "/api/casual",
                {"ruleset": "bloqueio", "bot_level": "greedy"})
    assert made["seat"] == 0
    listed = get(cluster.node_url(3), "/api/matches")["live"]
    assert [t["open_seats"] for t in listed if t["id"] == made["id"]] == [1]
    seated = post(cluster.node_url(2), bia, "/api/casual",
                  {"ruleset": "bloqueio", "bot_level": "greedy"})
    assert (seated["id"], seated["seat"]) == (made["id"], 1)  # her table, not a new one
    again = post(cluster.node_url(3), bia, "/api/casual",
                 {"ruleset": "bloqueio", "bot_level": "greedy"})
    assert (again["id"], again["seat"]) == (made["id"], 1)  # seated already: the same seat
    info = get(cluster.node_url(3), f"/api/matches/{made['id']}")
    assert info["status"] == "playing" and info["players"] == ["ana", "bia"]
    # Ana follows the table on n1 (its owner), Bia on n2: chat crosses Redis both ways.
    wa, wb = socket(cluster.node_url(1), ana), socket(cluster.node_url(2), bia)
    for ws in (wa, wb):
        ws.send(json.dumps({"type": "join", "data": {"match": made["id"]}}))
        assert until(ws, "state")["id"] == made["id"]
    # Both are connected, whichever node their socket is on.
    until(wa, "state", lambda d: all(p["connected"] for p in d["players"]))
    wb.send(json.dumps({"type": "chat", "data": {"text": "boa sorte!"}}))
    assert until(wa, "chat")["text"] == "boa sorte!"
    wa.send(json.dumps({"type": "chat", "data": {"text": "pra você também"}}))
    assert until(wb, "chat", lambda d: d["text"] != "boa sorte!")["text"] == "pra você também"
    # Bia's "mais tempo", asked on n2, reaches the table on n1: Ana sees it.
    wb.send(json.dumps({"type": "more_time", "data": {"match": made["id"], "on": True}}))
    assert until(wa, "state", lambda d: d["more_time"] == [1])["id"] == made["id"]
    wb.close()  # Bia leaves: Ana sees it
    until(wa, "state", lambda d: not d["players"][1]["connected"])
    wa.close()


def test_a_socket_is_told_its_tables_owner_and_the_proxy_routes_to_it(cluster: Cluster) -> None:
    ana = guest(cluster.node_url(1), "ana")
    made = post(cluster.node_url(1), ana, "/api/casual",
                {"ruleset": "bloqueio", "bot_level": "greedy"})
    on_owner, elsewhere = socket(cluster.node_url(1), ana), socket(cluster.node_url(2), ana)
    assert until(on_owner, "hello")["node"] == "n1"
    assert until(elsewhere, "hello")["node"] == "n2"
    for ws in (on_owner, elsewhere):
        ws.send(json.dumps({"type": "join", "data": {"match": made["id"]}}))
    assert until(elsewhere, "state")["id"] == made["id"]
    assert until(elsewhere, "owner") == {"match": made["id"], "node": "n1"}
    # The owner sends no `owner` frame: the state, then nothing about owners.
    on_owner.send(json.dumps({"type": "ping", "data": {}}))
    seen = []
    while not seen or seen[-1] != "pong":
        seen.append(json.loads(on_owner.recv(timeout=15))["type"])
    assert "state" in seen and "owner" not in seen, seen
    on_owner.close()
    elsewhere.close()
    # Through the proxy, `?node=` picks the node (round robin would visit all three).
    for name in ("n1", "n3", "n1", "n2", "n3"):
        ws = connect(f"{cluster.url.replace('http', 'ws', 1)}/ws?token={ana}&node={name}",
                     open_timeout=30, close_timeout=1, legacy=True, **NO_PROXY)
        assert until(ws, "hello")["node"] == name
        ws.close()
    # A node's name the proxy does not know: round robin, no error.
    ws = connect(f"{cluster.url.replace('http', 'ws', 1)}/ws?token={ana}&node=n9",
                 open_timeout=30, close_timeout=1, legacy=True, **NO_PROXY)
    assert until(ws, "hello")["node"] in ("n1", "n2", "n3")
    ws.close()


def test_the_lobby_of_every_node_shows_the_score_between_hands(cluster: Cluster) -> None:
    ana, bia = guest(cluster.node_url(1), "ana"), guest(cluster.node_url(2), "bia")
    made = post(cluster.node_url(1), ana, "/api/casual",
                {"ruleset": "bloqueio", "bot_level": "greedy"})
    post(cluster.node_url(2), bia, "/api/casual", {"ruleset": "bloqueio", "bot_level": "greedy"})

    def listed(node: int) -> dict[str, Any]:
        rows = [t for t in get(cluster.node_url(node), "/api/matches")["live"]
                if t["id"] == made["id"]]
        assert len(rows) == 1, rows
        return rows[0]

    assert listed(1)["score"] == listed(3)["score"] == [0, 0]  # owner and not: same figure
    players = [Player(cluster, ana, made["id"], cluster.node_url(2)),
               Player(cluster, bia, made["id"], cluster.node_url(3))]
    # The first hand's end, as the players saw it: the match goes on with points scored.
    def after_a_hand(p: Player) -> bool:
        return bool(p.state and p.state["status"] == "playing" and p.state["view"]
                    and p.state["view"]["last_hand"])

    play(players, lambda: any(after_a_hand(p) for p in players), 60)
    seen = next(p.state["view"]["score"] for p in players if after_a_hand(p) and p.state)
    for p in players:
        assert p.ws is not None
        p.ws.close()
    deadline = time.monotonic() + 15
    while listed(3)["score"] != listed(1)["score"] and time.monotonic() < deadline:
        time.sleep(0.2)
    assert listed(3)["score"] == listed(1)["score"] == seen


def test_who_may_see_a_finished_match_follows_its_host_on_any_node(cluster: Cluster) -> None:
    """A friends' match run on n1, over: its host makes it public through n2, then private
    again through n3; a stranger's socket on n1 (its owner, where its end is kept live) may
    join that end exactly while it is public."""
    n1, n2, n3 = (cluster.node_url(i) for i in (1, 2, 3))
    ana, caio = guest(n1, "ana"), guest(n1, "caio")
    made = post(n1, ana, "/api/tables", {"ruleset": "bloqueio", "options": {"target": 1},
                                         "seats": ["me", "bot:greedy"]})
    host = Player(cluster, ana, made["id"], base=n1)
    play([host], lambda: host.finished, 60)
    host.close()

    def stranger_sees_the_end() -> bool:
        ws = socket(n1, caio)
        try:
            ws.send(json.dumps({"type": "join", "data": {"match": made["id"]}}))
            while True:
                frame = json.loads(ws.recv(timeout=15))
                if frame["type"] == "state":
                    return True
                if frame["type"] == "error":
                    assert frame["data"]["code"] == "not_found", frame
                    return False
        finally:
            ws.close()

    assert not stranger_sees_the_end()  # a friends' match is its players' by default
    assert post(n2, ana, f"/api/matches/{made['id']}/public", {"public": True})["public"]
    assert stranger_sees_the_end()
    assert not post(n3, ana, f"/api/matches/{made['id']}/public", {"public": False})["public"]
    assert not stranger_sees_the_end()


def test_the_bot_budget_counts_a_players_tables_on_every_node(
        cluster_factory: Callable[..., Cluster]) -> None:
    """One searching table per player: made on n1, a second one is refused on n2 (each node
    counted only its own tables, so a player could have one on every node)."""
    cluster = cluster_factory(env={"CARROCA_MAX_BOT_MATCHES_PER_PLAYER": "1"})
    n1, n2 = cluster.node_url(1), cluster.node_url(2)
    ana = guest(n1, "ana")
    experts = {"ruleset": "duplas-pontos", "seats": ["me", "bot:expert", "open", "bot:expert"]}
    post(n1, ana, "/api/tables", experts)  # waits for a friend; its bots count already
    deadline = time.monotonic() + 15
    while get(n2, "/api/stats")["bots"].get("tables_elsewhere", 0) < 1:
        assert time.monotonic() < deadline, "n2 never heard of n1's table"
        time.sleep(0.05)
    with httpx2.Client(base_url=n2, timeout=30, trust_env=False,
                       headers={"Authorization": f"Bearer {ana}"}) as c:
        refused = c.post("/api/tables", json=experts)
    assert refused.status_code == 429, refused.text
    assert refused.json()["error"]["code"] == "too_many_bot_matches"
