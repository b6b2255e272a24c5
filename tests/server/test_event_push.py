"""A tournament event's changes pushed on its channel: a thousand pages watching one event over
real sockets get each change once (registrations, withdrawals, the start and its pairing, every
result, the end) and nothing while nothing changes, and the page their frames build is the one
`GET /api/tournaments/{id}` answers."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

from fastapi.testclient import TestClient
from tests.support.server_app import guest, settings_for
from tests.support.serverproc import Server
from tests.support.watchers import Watchers, check_watchers, guests, run_apart, run_event
from tests.support.wsplay import auth, connect

from carroca.server.app import create_app

WATCHERS = 1000
ENV = {
    "CARROCA_TOURNAMENT_BOTS": "true", "CARROCA_BOT_DELAY_MS": "0",
    "CARROCA_MAX_SOCKETS_PER_SESSION": "200", "CARROCA_MAX_CONNECTIONS_PER_IP": "0",
    "CARROCA_LIMIT_GUEST_IP": "1000/minute",
}


def test_a_thousand_watchers_get_each_change_once(servers: Callable[..., Server]) -> None:
    server = servers(env=ENV)
    tokens = guests(server.base, 13, "Olheiro")
    creator, players, watching = tokens[0], tokens[1:3], tokens[3:]
    with server.http(creator) as c:
        r = c.post("/api/tournaments", json={
            "name": "Copa dos Olheiros", "format": "swiss", "ruleset": "bloqueio",
            "options": {"target": 1}, "rounds": 2, "capacity": 4, "starts_in": 3600,
            "bots": "greedy"})
        assert r.status_code == 201, r.text
        event_id = r.json()["id"]

    async def scenario() -> tuple[dict[str, Any], Watchers]:
        async with Watchers({server.port: WATCHERS}, watching, event_id) as watchers:
            assert len(watchers.all) == WATCHERS
            final = await run_event(server.base, watchers, event_id, creator, players)
            return final, watchers

    final, watchers = run_apart(scenario())
    games = sum(len(t["games"]) for r in final["rounds"] for t in r["tables"])
    assert final["status"] == "finished" and games == 4  # 2 rounds of 2 tables
    check_watchers(watchers, final, games)


def test_a_private_event_is_watched_only_by_its_people(database: str) -> None:
    """A private event's channel is its creator's, its entrants' and its invitation's: anyone
    else (and anyone asking for an unknown event) gets the API's 404, `not_found`, and no
    change of it reaches their socket."""
    settings = settings_for(database, limit_guest_ip="10000/minute", max_connections_per_ip=0)
    with TestClient(create_app(settings)) as client, ExitStack() as stack:
        ana, bia, caio, davi = (guest(client, n) for n in ("Ana", "Bia", "Caio", "Davi"))
        r = client.post("/api/tournaments", headers=auth(ana), json={
            "name": "Copa Fechada", "format": "swiss", "ruleset": "bloqueio",
            "options": {"target": 1}, "starts_in": 3600, "private": True})
        assert r.status_code == 201, r.text
        event_id, code = r.json()["id"], r.json()["invite"]
        creator, invited, stranger, late = (connect(stack, client, t, n) for t, n in (
            (ana, "ana"), (bia, "bia"), (caio, "caio"), (davi, "davi")))

        stranger.send("watch", {"event": event_id})
        refused = stranger.until_type("error")["data"]
        assert refused["code"] == "not_found"
        stranger.send("watch", {"event": event_id, "code": "errado"})
        assert stranger.until_type("error")["data"] == refused
        stranger.send("watch", {"event": "nada-disso"})
        assert stranger.until_type("error")["data"] == refused  # the same as unknown

        creator.send("watch", {"event": event_id})
        mine = creator.until_type("event")["data"]
        assert mine["view"]["creator"] is True and mine["view"]["id"] == event_id
        invited.send("watch", {"event": event_id, "code": code})
        theirs = invited.until_type("event")["data"]
        assert theirs["version"] == mine["version"] and theirs["view"]["creator"] is False

        r = client.post(f"/api/tournaments/{event_id}/register", headers=auth(davi),
                        json={"code": code})
        assert r.status_code == 200, r.text
        for watcher in (creator, invited):
            change = watcher.until_type("event_change")["data"]
            assert change["version"] == mine["version"] + 1
            assert [e["name"] for e in change["set"]["registrations"]] == ["Davi"]
        assert not [f for f in stranger.ping() if f["type"].startswith("event")]
        # An entrant sees it without the code; after `unwatch`, nothing more comes.
        late.send("watch", {"event": event_id})
        assert late.until_type("event")["data"]["view"]["me"]["name"] == "Davi"
        invited.send("unwatch")
        client.post(f"/api/tournaments/{event_id}/withdraw", headers=auth(davi))
        assert creator.until_type("event_change")["data"]["set"]["registrations"] == []
        assert not [f for f in invited.ping() if f["type"].startswith("event")]
        assert not [f for f in stranger.ping() if f["type"].startswith("event")]
