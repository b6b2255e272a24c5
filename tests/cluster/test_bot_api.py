"""The Bot API across nodes: a challenge made on one node before the bot's program listens is
told when its event stream opens on another (challenges stay on the node they were made on)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable

import httpx2
from tests.support.cluster_players import guest, post
from tests.support.clusterproc import Cluster


def test_an_event_stream_on_one_node_tells_a_challenge_held_on_another(
        cluster_factory: Callable[..., Cluster]) -> None:
    cluster = cluster_factory(nodes=2)
    one, two = cluster.node_url(1), cluster.node_url(2)
    with httpx2.Client(base_url=one, timeout=30, trust_env=False) as c:
        made = c.post("/api/register", json={"name": "Robô", "password": "senha-secreta"})
        assert made.status_code == 200, made.text
        c.cookies.clear()
        auth = {"Authorization": f"Bearer {made.json()['token']}"}
        bot_id = c.get("/api/me", headers=auth).json()["player"]["id"]
        assert c.post("/api/me/bot", headers=auth).status_code == 200
        scopes = ["bot:play", "challenge:write"]
        token = c.post("/api/me/tokens", headers=auth,
                       json={"label": "robô", "scopes": scopes}).json()["token"]
    ana = guest(one, "ana")
    sent = post(one, ana, "/api/challenges", {"ruleset": "bloqueio",
                                              "seats": ["me", f"player:{bot_id}"]})
    with httpx2.Client(base_url=two, timeout=30, trust_env=False,
                       headers={"Authorization": f"Bearer {token}"}) as c, \
            c.stream("GET", "/api/bot/stream/event") as stream:
        assert stream.status_code == 200
        deadline = time.monotonic() + 20  # keep-alives come every few seconds meanwhile
        for line in stream.iter_lines():
            assert time.monotonic() < deadline, "the challenge was not told"
            if not line.strip():
                continue  # a keep-alive
            event = json.loads(line)
            if event["type"] == "challenge":
                assert (event["data"]["id"], event["data"]["by"]) == (sent["id"], "ana")
                break
    # Accepted through the other node, the table is made where the challenge was.
    accepted = post(two, token, f"/api/bot/challenges/{sent['id']}/accept", {})
    assert accepted["match"]
