"""Friends across nodes: presence and a challenge, with the friend on one node and the player on
the other (through the fan-out over Redis), and a friend's node that dies."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import httpx2
from tests.support.cluster_players import guest, post
from tests.support.clusterproc import Cluster
from tests.support.serverproc import NO_PROXY
from websockets.sync.client import ClientConnection, connect


def socket(base: str, token: str) -> ClientConnection:
    ws: ClientConnection = connect(f"{base.replace('http', 'ws', 1)}/ws?token={token}",
                                   open_timeout=30, close_timeout=1, legacy=True, **NO_PROXY)
    return ws


def frame(ws: ClientConnection, check: Callable[[dict[str, Any]], bool],
          seconds: float = 20) -> dict[str, Any]:
    """The first frame that `check` accepts."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        got: dict[str, Any] = json.loads(ws.recv(timeout=deadline - time.monotonic()))
        if check(got):
            return got
    raise AssertionError(f"no such frame in {seconds} s")


def say(ws: ClientConnection, text: str) -> None:
    ws.send(json.dumps({"type": "chat", "data": {"text": text}}))


def friend_is(name: str, state: str) -> Callable[[dict[str, Any]], bool]:
    """A `presence` frame, or a `friends` list, that says `name` is in `state`."""
    def check(f: dict[str, Any]) -> bool:
        entries = [f["data"]["friend"]] if f["type"] == "presence" else \
            f["data"]["friends"] if f["type"] == "friends" else []
        return any(e["name"] == name and e["state"] == state for e in entries)
    return check


def test_presence_and_a_challenge_between_two_nodes(cluster_factory: Callable[..., Cluster]
                                                    ) -> None:
    cluster = cluster_factory(nodes=3, env={"CARROCA_PRESENCE_SECONDS": "0.2"})
    one, two, three = cluster.node_url(1), cluster.node_url(2), cluster.node_url(3)
    ana, bia = guest(one, "ana"), guest(two, "bia")
    assert post(one, ana, "/api/friends", {"name": "bia"})["status"] == "requested"
    assert post(two, bia, "/api/friends", {"name": "ana"})["status"] == "friends"

    lobby = socket(one, ana)  # Ana on n1
    frame(lobby, friend_is("bia", "offline"))
    far = socket(two, bia)  # Bia comes online on n2: Ana hears it on n1
    frame(lobby, friend_is("bia", "online"))
    made = post(two, bia, "/api/casual", {"ruleset": "mano-a-mano"})
    far.send(json.dumps({"type": "join", "data": {"match": made["id"]}}))
    seen = frame(lobby, friend_is("bia", "playing"))
    entries = [seen["data"]["friend"]] if seen["type"] == "presence" else seen["data"]["friends"]
    assert next(e for e in entries if e["name"] == "bia")["match"] == made["id"]  # public

    # Ana (n1) challenges Bia (n2): Bia hears it on n2, accepts there, Ana is told on n1
    with httpx2.Client(base_url=two, timeout=30, trust_env=False,
                       headers={"Authorization": f"Bearer {bia}"}) as c:
        bia_id = c.get("/api/me").json()["player"]["id"]
    sent = post(one, ana, "/api/challenges", {"ruleset": "bloqueio",
                                              "seats": ["me", f"player:{bia_id}"]})
    told = frame(far, lambda f: f["type"] == "challenge")["data"]
    assert (told["id"], told["by"], told["ruleset"]) == (sent["id"], "ana", "bloqueio")
    with httpx2.Client(base_url=two, timeout=30, trust_env=False,
                       headers={"Authorization": f"Bearer {bia}"}) as c:
        for made_up in (sent["id"].split(".")[0] + ".bm93aGVyZQ", sent["id"] + "x"):
            refused = c.post(f"/api/challenges/{made_up}/accept")  # no such node: at once
            assert refused.status_code == 404, refused.text
    accepted = post(two, bia, f"/api/challenges/{sent['id']}/accept", {})
    ended = frame(lobby, lambda f: f["type"] == "challenge_end")["data"]
    assert (ended["status"], ended["match"]) == ("accepted", accepted["match"])

    far.close()  # Bia leaves: offline on n1, with the time last seen
    gone = frame(lobby, friend_is("bia", "offline"))
    entries = [gone["data"]["friend"]] if gone["type"] == "presence" else gone["data"]["friends"]
    assert next(e for e in entries if e["name"] == "bia")["seen"] is not None

    # Bia back on n2, then n2 dies (no goodbye from its sockets): once its lease runs out, n1
    # takes her for offline
    far = socket(two, bia)
    frame(lobby, friend_is("bia", "online"))
    cluster.kill(2)
    frame(lobby, friend_is("bia", "offline"), seconds=30)

    # At a table of Ana's, Bia (her socket on n3) blocks Ana through n1: n3 hears of it (the
    # presence channel's links message) and drops Ana's lines from then on. Each round, Ana's
    # line is seen to come back to her before Bia speaks, so it reaches Bia first if it does.
    made = post(one, ana, "/api/tables", {"ruleset": "bloqueio", "seats": ["me", "open"]})
    post(three, bia, "/api/tables/join", {"invite": made["invite"]})
    far = socket(three, bia)
    for ws in (lobby, far):
        ws.send(json.dumps({"type": "join", "data": {"match": made["id"]}}))
        frame(ws, lambda f: f["type"] == "state")
    post(one, bia, "/api/blocks", {"name": "ana"})
    heard: list[bool] = []
    for i in range(12):
        say(lobby, f"oi {i}")
        frame(lobby, lambda f, i=i: f["type"] == "chat" and f["data"]["text"] == f"oi {i}")
        say(far, f"eco {i}")
        got = frame(far, lambda f: f["type"] == "chat")["data"]["text"]
        heard.append(got == f"oi {i}")
        if got == f"oi {i}":
            frame(far, lambda f, i=i: f["type"] == "chat" and f["data"]["text"] == f"eco {i}")
        if heard[-3:] == [False] * 3:
            break
    assert heard[-3:] == [False] * 3, heard  # in force within a few rounds
    assert not any(heard[heard.index(False):]), heard  # and for good
    far.close()
    lobby.close()
