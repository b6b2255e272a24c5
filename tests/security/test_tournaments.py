"""Tournaments: registration churn and event floods, and private events kept to their people.

Before: one player could register and withdraw without end (each one rewrites the event's
stored record) and create events as fast as tables; a private event's page, record and matches
were readable by anyone who knew its id, and its tables were listed in the lobby to watch.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx2
from tests.support.attacks import error_of, guest, http
from tests.support.serverproc import Server, wait_until

EVENT = {"name": "Copa", "format": "swiss", "ruleset": "bloqueio", "options": {"target": 1},
         "starts_in": 3600}


def test_registrations_withdrawals_and_new_events_are_rate_limited(
        servers: Callable[..., Server]) -> None:
    server = servers(env={"CARROCA_LIMIT_TOURNAMENT_ENTRIES_PLAYER": "4/minute",
                          "CARROCA_LIMIT_TOURNAMENTS_PLAYER": "2/hour",
                          "CARROCA_MAX_UPCOMING_TOURNAMENTS_PER_PLAYER": "10"})
    with http(server, token=guest(server, "Ana")) as ana:
        ids = [ana.post("/api/tournaments", json=EVENT).json()["id"] for _ in range(2)]
        third = ana.post("/api/tournaments", json=EVENT)
        assert third.status_code == 429 and "retry-after" in third.headers
        error = error_of(third)
        assert error["code"] == "rate_limited" and "torneios" in error["message"]
    with http(server, token=guest(server, "Bia")) as bia:
        for _ in range(2):  # register, withdraw, register, withdraw: the allowance
            assert bia.post(f"/api/tournaments/{ids[0]}/register").status_code == 200
            assert bia.post(f"/api/tournaments/{ids[0]}/withdraw").status_code == 200
        churn = bia.post(f"/api/tournaments/{ids[1]}/register")  # in any event
        assert churn.status_code == 429 and "retry-after" in churn.headers
        assert "inscrições" in error_of(churn)["message"]
        assert bia.post(f"/api/tournaments/{ids[0]}/withdraw").status_code == 429
    with http(server, token=guest(server, "Caio")) as caio:  # others are not held back
        assert caio.post(f"/api/tournaments/{ids[1]}/register").status_code == 200


def _page(client: httpx2.Client, event_id: str, code: str | None = None) -> httpx2.Response:
    return client.get(f"/api/tournaments/{event_id}", params={"code": code} if code else None)


def test_a_private_event_is_shown_only_to_its_creator_entrants_and_invitation(
        servers: Callable[..., Server]) -> None:
    server = servers("--bot-delay-ms", "150", env={"CARROCA_TOURNAMENT_BOTS": "true",
                                                   "CARROCA_TOURNAMENT_SHOW_UP_SECONDS": "1"})
    ana = http(server, token=guest(server, "Ana"))  # creates it
    bia = http(server, token=guest(server, "Bia"))  # registers with its code
    caio = http(server, token=guest(server, "Caio"))  # knows its id only
    anyone = http(server)
    try:
        r = ana.post("/api/tournaments", json={**EVENT, "private": True, "capacity": 4,
                                               "bots": "greedy", "rounds": 2})
        assert r.status_code == 201, r.text
        event_id, code = r.json()["id"], r.json()["invite"]
        assert bia.post(f"/api/tournaments/{event_id}/register",
                        json={"code": code}).status_code == 200

        def shown_as_it_should_be() -> None:
            for client, seen in ((ana, True), (bia, True), (caio, False), (anyone, False)):
                for path in ("", "/record"):
                    answer = client.get(f"/api/tournaments/{event_id}{path}")
                    assert (answer.status_code == 200) == seen, (path, answer.text)
                    if not seen:  # as for an event that does not exist
                        missing = client.get(f"/api/tournaments/nada{path}")
                        assert answer.status_code == missing.status_code == 404
                        assert error_of(answer) == error_of(missing)
            for client in (caio, anyone):  # the invitation link shows it
                assert _page(client, event_id, code).status_code == 200
                assert client.get(f"/api/tournaments/{event_id}/record",
                                  params={"code": code}).status_code == 200
                assert _page(client, event_id, code[::-1] + "x").status_code == 404
            listing = anyone.get("/api/tournaments").json()
            assert event_id not in {e["id"] for k in ("upcoming", "live", "finished")
                                    for e in listing[k]}

        shown_as_it_should_be()
        for action in ("register", "withdraw", "start"):  # nor does acting on it confirm it
            refused = caio.post(f"/api/tournaments/{event_id}/{action}")
            assert refused.status_code == 404 and error_of(refused)["code"] == "not_found"
        assert ana.post(f"/api/tournaments/{event_id}/start").status_code == 200

        # Its tables are not listed to watch, and its matches, once over, are their players'.
        def playing() -> list[str]:
            page: dict[str, Any] = ana.get(f"/api/tournaments/{event_id}").json()
            return [g["match"] for rnd in page["rounds"] for t in rnd["tables"]
                    for g in t["games"] if g["match"] and g["outcome"] is None
                    and "Bia" not in t["sides"]]

        live = wait_until(playing, "a match of the event in play")
        listed = {m["id"] for m in anyone.get("/api/matches").json()["live"]}
        assert not listed & set(live)
        shown_as_it_should_be()

        def over() -> dict[str, Any] | None:
            page: dict[str, Any] = ana.get(f"/api/tournaments/{event_id}").json()
            return page if page["status"] == "finished" else None

        page = wait_until(over, "the event's end", timeout=120)
        shown_as_it_should_be()
        matches = [g["match"] for rnd in page["rounds"] for t in rnd["tables"]
                   for g in t["games"] if g["outcome"]["kind"] == "played"]
        assert matches
        finished = {m["id"] for m in anyone.get("/api/matches").json()["finished"]}
        assert not finished & set(matches)
        for match_id in matches:  # bots played them: nobody here sat at them
            assert caio.get(f"/api/matches/{match_id}").status_code == 404
            assert anyone.get(f"/api/matches/{match_id}/record").status_code == 404
    finally:
        for client in (ana, bia, caio, anyone):
            client.close()
