"""Tournaments through the real server: guests register, the event starts, every table is
played by the players' own sockets until the final standings; a no-show forfeits and the event
goes on; the event record downloaded verifies (`carroca verify`), a tampered one does not; a
restart rebuilds a running event."""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from tests.support.server_app import guest, settings_for
from tests.support.wsplay import Client, auth, connect, random_chooser, run_together
from typer.testing import CliRunner

from carroca.cli import app as cli
from carroca.server.app import create_app
from carroca.server.storage.db import normalize_url
from carroca.tournament import EventRecordError, verify

# Stored state is this module's subject: `make unit-postgres` runs it again on PostgreSQL.
pytestmark = pytest.mark.postgres

FAST = {"ruleset": "bloqueio", "options": {"target": 1}}


def fast_settings(database: str, **kw: Any) -> Any:
    return settings_for(database, limit_guest_ip="10000/minute", max_connections_per_ip=0,
                        limit_tables_player="10000/minute", **kw)


def create(client: TestClient, token: str, **body: Any) -> str:
    fields = {"name": "Copa do Teste", "format": "swiss", **FAST, "starts_in": 3600, **body}
    r = client.post("/api/tournaments", json=fields, headers=auth(token))
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def wait_event(client: TestClient, event_id: str, status: str, timeout: float = 120
               ) -> dict[str, Any]:
    """Poll the event's page until it reaches `status`."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        info: dict[str, Any] = client.get(f"/api/tournaments/{event_id}").json()
        if info["status"] == status:
            return info
        time.sleep(0.05)
    raise AssertionError(f"event {event_id} never reached {status!r}: {info}")


def play_match(c: Client, match_id: str, choose: Callable[[Any], str]) -> dict[str, Any]:
    """Join the match and answer every turn until it ends (or is closed for a no-show). Frames
    of the player's previous table are skipped: its other players' coming and going still
    publishes its (finished) state to whoever has not left it yet."""
    c.send("join", {"match": match_id})
    sent_for = -1
    while True:
        frame = c.recv()
        assert frame["type"] != "error", f"{c.label}: {frame}"
        if frame["type"] != "state" or frame["data"]["id"] != match_id:
            continue
        state: dict[str, Any] = frame["data"]
        if state["status"] in ("finished", "expired"):
            c.drain_acks()
            return state
        view = state["view"]
        if view and view["legal"] and view["turn"] == state["seat"] and \
                state["version"] != sent_for:
            sent_for = state["version"]
            c.move(choose(view))


def play_event(c: Client, event_id: str, choose: Callable[[Any], str],
               done: set[str] | None = None) -> int:
    """A player's whole event: each `tournament` frame naming a match of theirs is played to
    its end, until the frame that says the event is over. A match is named again to a socket
    that opens while it waits; it is played once (`done`: those played already). Returns the
    matches played."""
    seen = 0
    played = 0
    done = set() if done is None else done
    while True:
        while seen < len(c.frames):
            frame = c.frames[seen]
            seen += 1
            if frame["type"] != "tournament" or frame["data"]["event"] != event_id:
                continue
            data = frame["data"]
            if data["status"] in ("finished", "cancelled"):
                return played
            if data.get("match") and data["match"] not in done:  # to its end, or closed
                done.add(data["match"])
                played += play_match(c, data["match"], choose)["status"] == "finished"
        c.recv()


@pytest.mark.slow
def test_a_swiss_of_sixteen_players_through_the_server(database: str, tmp_path: Path) -> None:
    with TestClient(create_app(fast_settings(database))) as client, ExitStack() as stack:
        tokens = [guest(client, f"Jogador{i:02d}") for i in range(16)]
        event_id = create(client, tokens[0], rounds=4, capacity=16)
        page = client.get(f"/api/tournaments/{event_id}").json()
        assert page["status"] == "upcoming" and page["format_name"] == "Suíço"
        assert any(e["id"] == event_id for e in client.get("/api/tournaments").json()["upcoming"])
        for token in tokens:
            r = client.post(f"/api/tournaments/{event_id}/register", headers=auth(token))
            assert r.status_code == 200, r.text
        again = client.post(f"/api/tournaments/{event_id}/register", headers=auth(tokens[3]))
        assert again.status_code == 409 and again.json()["error"]["code"] == "already_registered"
        late = guest(client, "Atrasado")
        full = client.post(f"/api/tournaments/{event_id}/register", headers=auth(late))
        assert full.status_code == 409 and "lotado" in full.json()["error"]["message"]
        not_mine = client.post(f"/api/tournaments/{event_id}/start", headers=auth(tokens[1]))
        assert not_mine.status_code == 403

        sockets = [connect(stack, client, t, f"p{i}") for i, t in enumerate(tokens)]
        r = client.post(f"/api/tournaments/{event_id}/start", headers=auth(tokens[0]))
        assert r.status_code == 200 and r.json()["status"] == "running", r.text
        played = run_together([lambda c=c, i=i: play_event(c, event_id, random_chooser(i))
                               for i, c in enumerate(sockets)], timeout=600)
        assert played == [4] * 16  # four rounds, nobody left out

        info = wait_event(client, event_id, "finished")
        assert len(info["rounds"]) == 4
        assert all(len(rnd["tables"]) == 8 for rnd in info["rounds"])
        assert all(g["match"] and g["outcome"]["kind"] == "played"
                   for rnd in info["rounds"] for t in rnd["tables"] for g in t["games"])
        assert [s["rank"] for s in info["standings"]] == list(range(1, 17))
        assert sum(s["wins"] for s in info["standings"]) == 32
        assert len(info["podium"]) == 3 and info["event_seed"]
        assert any(e["id"] == event_id for e in client.get("/api/tournaments").json()["finished"])
        match_id = info["rounds"][0]["tables"][0]["games"][0]["match"]
        assert client.get(f"/api/matches/{match_id}").json()["mode"] == "tournament"

        r = client.get(f"/api/tournaments/{event_id}/record")
        assert r.status_code == 200 and r.text.endswith("\n")
        record = r.json()
        replayed = verify(record)
        assert [s.entrant for s in replayed.standings()] == \
            [s["entrant"] for s in info["standings"]]
        path = tmp_path / "copa.json"
        path.write_text(r.text, encoding="utf-8")
        assert CliRunner().invoke(cli, ["verify", str(path)]).exit_code == 0

        tampered = copy.deepcopy(record)
        first, second = tampered["standings"][0], tampered["standings"][1]
        first["entrant"], second["entrant"] = second["entrant"], first["entrant"]
        with pytest.raises(EventRecordError):
            verify(tampered)
        bad = tmp_path / "adulterado.json"
        bad.write_text(json.dumps(tampered), encoding="utf-8")
        assert CliRunner().invoke(cli, ["verify", str(bad)]).exit_code != 0


@pytest.mark.slow
def test_a_player_who_never_shows_forfeits_and_the_event_goes_on(database: str) -> None:
    settings = fast_settings(database, tournament_show_up_seconds=2.0)
    with TestClient(create_app(settings)) as client, ExitStack() as stack:
        tokens = [guest(client, name) for name in ("Ana", "Bia", "Caio", "Duda")]
        present = [connect(stack, client, t, n) for t, n in zip(tokens[:3], "ABC", strict=True)]
        # Duda never connects; the event starts at its time without anyone asking.
        event_id = create(client, tokens[0], rounds=2, starts_in=2)
        for token in tokens:
            assert client.post(f"/api/tournaments/{event_id}/register",
                               headers=auth(token)).status_code == 200
        played = run_together([lambda c=c, i=i: play_event(c, event_id, random_chooser(i))
                               for i, c in enumerate(present)], timeout=300)
        info = wait_event(client, event_id, "finished")
        forfeits = [g["outcome"] for rnd in info["rounds"] for t in rnd["tables"]
                    for g in t["games"] if g["outcome"]["kind"] == "forfeit"]
        assert len(forfeits) == 2 and all(f["absent"] == ["Duda"] for f in forfeits)
        assert sum(played) == 4  # per round, one match of two players, one forfeit win
        assert len(info["standings"]) == 4
        duda = next(s for s in info["standings"] if s["entrant"] == "Duda")
        assert duda["points"] == 0 and duda["rank"] == 4
        verify(client.get(f"/api/tournaments/{event_id}/record").json())


def test_a_socket_opened_after_the_pairing_hears_of_the_game(database: str) -> None:
    """The `tournament` frame of a pairing goes to the sockets open then: one opened later (a
    page loading between two others) hears of the game right after its hello, as long as the
    game is not over."""
    settings = fast_settings(database, tournament_show_up_seconds=1.0)
    with TestClient(create_app(settings)) as client, ExitStack() as stack:
        ana, bia = guest(client, "Ana"), guest(client, "Bia")
        event_id = create(client, ana, rounds=1)
        for token in (ana, bia):
            client.post(f"/api/tournaments/{event_id}/register", headers=auth(token))
        client.post(f"/api/tournaments/{event_id}/start", headers=auth(ana))
        match_id = wait_event(client, event_id, "running")["rounds"][0]["tables"][0][
            "games"][0]["match"]
        late = connect(stack, client, ana, "Ana")  # nobody's socket was open at the pairing
        told = late.until_type("tournament", timeout=5)["data"]
        assert told == {"event": event_id, "name": "Copa do Teste", "status": "running",
                        "match": match_id, "round": 1, "table": 1, "game": 1}
        state = late.join(match_id)
        assert state["status"] == "waiting"
        closed = late.until(lambda f: f["type"] == "state" and f["data"]["status"] == "expired")
        assert closed["data"]["id"] == match_id
        info = wait_event(client, event_id, "finished")
        outcome = info["rounds"][0]["tables"][0]["games"][0]["outcome"]
        assert outcome["kind"] == "forfeit" and outcome["absent"] == ["Bia"]
        # The game is over: a socket opened now hears of nothing.
        again = connect(stack, client, ana, "Ana")
        assert not [f for f in again.ping() if f["type"] == "tournament"]


def test_registration_rules_and_withdrawal(database: str) -> None:
    with TestClient(create_app(fast_settings(database))) as client:
        ana, bia, caio = (guest(client, n) for n in ("Ana", "Bia", "Caio"))
        bad = client.post("/api/tournaments", headers=auth(ana), json={
            "name": "Copa", "format": "swiss", "ruleset": "bloqueio", "best_of": 3})
        assert bad.status_code == 422 and "mata-mata" in bad.json()["error"]["message"]
        no_bots = client.post("/api/tournaments", headers=auth(ana), json={
            "name": "Copa", "format": "swiss", "ruleset": "bloqueio", "bots": "greedy",
            "capacity": 4})
        assert no_bots.status_code == 403
        client.cookies.clear()  # from here on every request says who asks (or nobody)
        assert client.post("/api/tournaments", json={
            "name": "Copa", "format": "swiss", "ruleset": "bloqueio"}).status_code == 401

        # A dupla: Ana opens it, Bia comes by the invitation; Caio registers alone.
        duplas = create(client, ana, ruleset="duplas-pontos", options={"target": 100})
        r = client.post(f"/api/tournaments/{duplas}/register", json={"partner": True},
                        headers=auth(ana))
        invite = r.json()["partner_invite"]
        r = client.post(f"/api/tournaments/{duplas}/register", json={"invite": invite},
                        headers=auth(bia))
        assert r.status_code == 200 and r.json()["players"] == ["Ana", "Bia"], r.text
        assert client.post(f"/api/tournaments/{duplas}/register", json={"invite": invite},
                           headers=auth(caio)).status_code == 404
        client.post(f"/api/tournaments/{duplas}/register", headers=auth(caio))
        page = client.get(f"/api/tournaments/{duplas}", headers=auth(bia)).json()
        assert page["me"]["entrant"] == "Ana+Bia"
        assert [e["id"] for e in page["registrations"]] == ["Ana+Bia", "Caio"]
        r = client.post(f"/api/tournaments/{duplas}/withdraw", headers=auth(bia))
        assert r.status_code == 200 and r.json()["withdrawn"] == "Ana+Bia"
        page = client.get(f"/api/tournaments/{duplas}").json()
        assert [e["id"] for e in page["registrations"]] == ["Caio"]

        # A private event: listed to nobody, registration by its code.
        r = client.post("/api/tournaments", headers=auth(ana), json={
            "name": "Copa Fechada", "format": "knockout", **FAST, "private": True,
            "starts_in": 3600})
        private, code = r.json()["id"], r.json()["invite"]
        assert private not in {e["id"] for e in client.get("/api/tournaments").json()["upcoming"]}
        refused = client.post(f"/api/tournaments/{private}/register", headers=auth(bia))
        assert refused.status_code == 404  # as if it did not exist
        assert client.post(f"/api/tournaments/{private}/register", json={"code": code},
                           headers=auth(bia)).status_code == 200
        assert client.get("/api/tournaments", headers=auth(bia)).json()["mine"] == [private]

        # Fewer than two at the start: cancelled.
        lonely = create(client, caio)
        client.post(f"/api/tournaments/{lonely}/register", headers=auth(caio))
        client.post(f"/api/tournaments/{lonely}/start", headers=auth(caio))
        page = client.get(f"/api/tournaments/{lonely}").json()
        assert page["status"] == "cancelled"
        # who had registered is still told (the page lists them: the event never had entrants)
        assert [e["id"] for e in page["registrations"]] == ["Caio"] and page["entrants"] == []
        assert client.get("/api/tournaments/nada").status_code == 404


def first_game(client: TestClient, event_id: str, creator: str) -> str:
    """Start the event (its creator asks) and return the match of its first game."""
    client.post(f"/api/tournaments/{event_id}/start", headers=auth(creator))
    info = wait_event(client, event_id, "running")
    return str(info["rounds"][0]["tables"][0]["games"][0]["match"])


def test_every_event_plays_at_the_servers_turn(database: str) -> None:
    """An event's turn is the server's, as a ranked table's: another length is refused in
    Portuguese and nothing is made; an event stored when its creator chose its turn (here
    made while the server's was 60 s) keeps that turn for its games. A player's "mais tempo"
    is refused at an event's table."""
    with TestClient(create_app(fast_settings(database, turn_seconds=60.0))) as client:
        ana, bia = guest(client, "Ana"), guest(client, "Bia")
        old = create(client, ana, rounds=1, turn_seconds=60)
    with TestClient(create_app(fast_settings(database))) as client, ExitStack() as stack:
        for seconds in (45, 60, 10):
            refused = client.post("/api/tournaments", headers=auth(ana), json={
                "name": "Copa Lenta", "format": "swiss", **FAST, "starts_in": 3600,
                "turn_seconds": seconds})
            assert refused.status_code == 422, refused.text
            assert refused.json()["error"] == {
                "code": "bad_turn_seconds",
                "message": "Nos torneios o tempo por jogada é sempre de 20 segundos, "
                           "igual para todos."}
        listed = client.get("/api/tournaments").json()["upcoming"]
        assert [e["id"] for e in listed] == [old]  # the refusals made nothing
        same = create(client, ana, rounds=1, turn_seconds=20)  # the server's own: taken
        new = create(client, ana, rounds=1)
        for event_id, seconds in ((old, 60), (same, 20), (new, 20)):
            assert client.get(f"/api/tournaments/{event_id}").json()["turn_seconds"] == seconds
        c = connect(stack, client, ana, "Ana")
        for event_id, seconds in ((old, 60), (new, 20)):
            for token in (ana, bia):
                r = client.post(f"/api/tournaments/{event_id}/register", headers=auth(token))
                assert r.status_code == 200, r.text
            match_id = first_game(client, event_id, ana)
            state = c.join(match_id)
            assert state["mode"] == "tournament" and state["turn_seconds"] == seconds
        c.send("more_time", {"match": match_id, "on": True})  # nobody has more time here
        assert c.until_type("error")["data"]["code"] == "no_more_time"


def test_a_private_event_starts_at_its_time(database: str) -> None:
    """The start that comes with the time asks no one's leave: a private event, shown to no
    one but its people, still starts (here with one entrant: it is cancelled)."""
    with TestClient(create_app(fast_settings(database))) as client:
        ana = guest(client, "Ana")
        client.cookies.clear()
        event_id = create(client, ana, private=True, starts_in=0.3)
        assert client.post(f"/api/tournaments/{event_id}/register",
                           headers=auth(ana)).status_code == 200
        end = time.monotonic() + 30
        while (page := client.get(f"/api/tournaments/{event_id}", headers=auth(ana)).json()
               )["status"] == "upcoming":
            assert time.monotonic() < end, "the private event never started"
            time.sleep(0.05)
        assert page["status"] == "cancelled"
        assert client.get(f"/api/tournaments/{event_id}").status_code == 404


def test_a_running_event_survives_a_restart(database: str) -> None:
    """The server stops between two rounds' games; started again on the same database, it
    rebuilds the event from its record and seed, and the event ends as any other."""
    settings = fast_settings(database, tournament_bots=True, bot_delay_ms=0)
    with TestClient(create_app(settings)) as client, ExitStack() as stack:
        ana = guest(client, "Ana")
        event_id = create(client, ana, rounds=3, capacity=4, bots="greedy")
        client.post(f"/api/tournaments/{event_id}/register", headers=auth(ana))
        c = connect(stack, client, ana, "Ana")
        client.post(f"/api/tournaments/{event_id}/start", headers=auth(ana))
        frame = c.until(lambda f: f["type"] == "tournament" and bool(f["data"].get("match")))
        play_match(c, frame["data"]["match"], random_chooser(1))
        before = wait_rounds(client, event_id, 2)
    # As if the server had stopped between making round 2's tables and naming them: the
    # matches are found again by their client seeds, not made twice.
    engine = sa.create_engine(normalize_url(database))
    with engine.begin() as conn:
        conn.execute(sa.text("DELETE FROM tournament_games WHERE round = 2"))
    engine.dispose()
    with TestClient(create_app(settings)) as client, ExitStack() as stack:
        page = client.get(f"/api/tournaments/{event_id}").json()
        assert page["status"] == "running" and len(page["rounds"]) >= 2
        assert matches_of(page, 2) == before
        c = connect(stack, client, ana, "Ana")
        done = set()
        for rnd in page["rounds"][1:]:  # Ana's waiting match, on the rebuilt table
            for t in rnd["tables"]:
                if "Ana" in t["sides"] and t["games"][-1]["outcome"] is None:
                    waiting = t["games"][-1]["match"]
                    done.add(waiting)
                    # the rebuilt event tells her socket of it, as it says hello
                    c.until(lambda f, m=waiting: f["type"] == "tournament"  # type: ignore[misc]
                            and f["data"].get("match") == m, timeout=5)
                    play_match(c, waiting, random_chooser(2))
        played = play_event(c, event_id, random_chooser(3), done)
        info = wait_event(client, event_id, "finished")
        assert len(info["rounds"]) == 3 and played <= 1
        verify(client.get(f"/api/tournaments/{event_id}/record").json())


def test_a_restart_mid_round_loses_no_result(database: str) -> None:
    """A result alone does not write the event's record again (its match's row holds it): the
    server stops with one game of the round over and one waiting; started again, the event has
    that result back, from the same match, and goes on to its end."""
    settings = fast_settings(database, tournament_bots=True, bot_delay_ms=0)
    with TestClient(create_app(settings)) as client:
        ana = guest(client, "Ana")
        event_id = create(client, ana, rounds=2, capacity=4, bots="greedy")
        client.post(f"/api/tournaments/{event_id}/register", headers=auth(ana))
        client.post(f"/api/tournaments/{event_id}/start", headers=auth(ana))

        def bots_done() -> list[dict[str, Any]]:
            page = client.get(f"/api/tournaments/{event_id}").json()
            games = [g for t in page["rounds"][0]["tables"] for g in t["games"]] \
                if page["rounds"] else []
            return games if any(g["outcome"] for g in games) else []

        end = time.monotonic() + 60
        while not (before := bots_done()):
            assert time.monotonic() < end, "the bots' game never ended"
            time.sleep(0.05)
    engine = sa.create_engine(normalize_url(database))
    with engine.begin() as conn:
        stored = json.loads(conn.execute(sa.text("SELECT record FROM tournaments WHERE id = :i"),
                                         {"i": event_id}).scalar_one())
    engine.dispose()
    assert not any("result" in entry for entry in stored["log"])  # not written: in its row
    done = next(g for g in before if g["outcome"])
    with TestClient(create_app(settings)) as client, ExitStack() as stack:
        page = client.get(f"/api/tournaments/{event_id}").json()
        after = [g for t in page["rounds"][0]["tables"] for g in t["games"]]
        again = next(g for g in after if g["match"] == done["match"])
        assert again["outcome"] == done["outcome"]
        c = connect(stack, client, ana, "Ana")
        waiting = next(g for g in after if g["outcome"] is None)
        play_match(c, waiting["match"], random_chooser(4))
        play_event(c, event_id, random_chooser(5))
        info = wait_event(client, event_id, "finished")
        assert len(info["rounds"]) == 2
        record = verify(client.get(f"/api/tournaments/{event_id}/record").json())
        assert record.rounds[0].ties[0].games[0].outcome is not None


def matches_of(page: dict[str, Any], number: int) -> list[str | None]:
    return [g["match"] for t in page["rounds"][number - 1]["tables"] for g in t["games"]]


def wait_rounds(client: TestClient, event_id: str, rounds: int, timeout: float = 60
                ) -> list[str | None]:
    """Wait until round `rounds` is paired and each of its games has its match; those."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        page = client.get(f"/api/tournaments/{event_id}").json()
        if len(page["rounds"]) >= rounds and all(matches_of(page, rounds)):
            return matches_of(page, rounds)
        time.sleep(0.05)
    raise AssertionError(f"round {rounds} was never paired")


def started_arena(client: TestClient, seconds: int) -> str:
    """An arena of four greedy bots lasting `seconds`, made and started by Ana: its id."""
    ana = guest(client, "Ana")
    event_id = create(client, ana, format="arena", duration=seconds, capacity=4, bots="greedy")
    assert client.post(f"/api/tournaments/{event_id}/start",
                       headers=auth(ana)).status_code == 200
    return event_id


@pytest.mark.slow  # the arena lasts its 10 s
def test_an_arena_of_bots_runs_to_its_end(database: str) -> None:
    """Whoever is free is paired again until the arena's time is up; the games still running
    then count; the record verifies."""
    settings = fast_settings(database, tournament_bots=True, bot_delay_ms=40)
    with TestClient(create_app(settings)) as client:
        event_id = started_arena(client, 10)
        info = wait_event(client, event_id, "finished", timeout=60)
        waves = info["rounds"]
        assert len(waves) >= 2 and all("at" in w for w in waves)
        assert waves[-1]["at"] < 10
        assert info["standings"][0]["points"] >= 2
        verify(client.get(f"/api/tournaments/{event_id}/record").json())


def test_withdrawing_during_a_match_forfeits_it_and_the_event_goes_on(database: str) -> None:
    """The game is lost by forfeit at once, and the next round paired; the table itself plays
    on under the clock (the one who left times out), its result no longer counted."""
    with TestClient(create_app(fast_settings(database))) as client, ExitStack() as stack:
        ana, bia = guest(client, "Ana"), guest(client, "Bia")
        event_id = create(client, ana, rounds=2)
        for token in (ana, bia):
            client.post(f"/api/tournaments/{event_id}/register", headers=auth(token))
        a, b = connect(stack, client, ana, "Ana"), connect(stack, client, bia, "Bia")
        client.post(f"/api/tournaments/{event_id}/start", headers=auth(ana))
        match_id = a.until(lambda f: f["type"] == "tournament")["data"]["match"]
        for c in (a, b):
            c.send("join", {"match": match_id})
        b.until(lambda f: f["type"] == "state" and f["data"]["status"] == "playing")
        r = client.post(f"/api/tournaments/{event_id}/withdraw", headers=auth(ana))
        assert r.status_code == 200 and r.json()["withdrawn"] == "Ana", r.text
        info = wait_event(client, event_id, "finished")
        first = info["rounds"][0]["tables"][0]["games"][0]["outcome"]
        assert first["kind"] == "forfeit" and first["absent"] == ["Ana"]
        assert info["rounds"][1]["byes"] == ["Bia"] and not info["rounds"][1]["tables"]
        assert [(s["entrant"], s["points"], s.get("withdrawn", False))
                for s in info["standings"]] == [("Bia", 2, False), ("Ana", 0, True)]
        verify(client.get(f"/api/tournaments/{event_id}/record").json())


def test_duplas_by_invitation_and_solo_players_paired_at_the_start(database: str) -> None:
    """A 2v2 event: Ana and Bia register as a dupla by an invitation, Caio and Duda alone and
    are made a dupla at the start; partners sit across the table, and the record verifies."""
    with TestClient(create_app(fast_settings(database))) as client, ExitStack() as stack:
        tokens = {n: guest(client, n) for n in ("Ana", "Bia", "Caio", "Duda")}
        event_id = create(client, tokens["Ana"], ruleset="duplas-torneio",
                          options={"target": 50}, rounds=1)
        invite = client.post(f"/api/tournaments/{event_id}/register", json={"partner": True},
                             headers=auth(tokens["Ana"])).json()["partner_invite"]
        client.post(f"/api/tournaments/{event_id}/register", json={"invite": invite},
                    headers=auth(tokens["Bia"]))
        for n in ("Caio", "Duda"):
            client.post(f"/api/tournaments/{event_id}/register", headers=auth(tokens[n]))
        sockets = [connect(stack, client, t, n) for n, t in tokens.items()]
        client.post(f"/api/tournaments/{event_id}/start", headers=auth(tokens["Ana"]))
        played = run_together([lambda c=c, i=i: play_event(c, event_id, random_chooser(i))
                               for i, c in enumerate(sockets)], timeout=300)
        assert played == [1, 1, 1, 1]
        info = wait_event(client, event_id, "finished")
        entrants = {e["id"]: e["players"] for e in info["entrants"]}
        assert entrants["Ana+Bia"] == ["Ana", "Bia"]
        formed = next(k for k in entrants if k != "Ana+Bia")
        assert sorted(entrants[formed]) == ["Caio", "Duda"]
        match_id = info["rounds"][0]["tables"][0]["games"][0]["match"]
        players = client.get(f"/api/matches/{match_id}").json()["players"]
        assert {players[0], players[2]} in ({"Ana", "Bia"}, {"Caio", "Duda"})
        verify(client.get(f"/api/tournaments/{event_id}/record").json())


def test_a_knockout_of_best_of_three_plays_every_game_it_needs(database: str) -> None:
    settings = fast_settings(database, tournament_bots=True)
    with TestClient(create_app(settings)) as client:
        ana = guest(client, "Ana")
        event_id = create(client, ana, format="knockout", best_of=3, capacity=4, bots="greedy")
        client.post(f"/api/tournaments/{event_id}/start", headers=auth(ana))
        info = wait_event(client, event_id, "finished")
        ties = [t for rnd in info["rounds"] for t in rnd["tables"]]
        assert len(ties) == 3
        for tie in ties:
            wins = [g["sides"][g["outcome"]["winner"]] for g in tie["games"]]
            assert 2 <= len(tie["games"]) <= 3 and wins.count(tie["winner"]) == 2
            assert len({g["match"] for g in tie["games"]}) == len(tie["games"])
        assert info["podium"][0]["entrant"] == ties[-1]["winner"]
        verify(client.get(f"/api/tournaments/{event_id}/record").json())


@pytest.mark.slow
def test_a_waiting_table_keeps_its_show_up_time_across_a_restart(database: str) -> None:
    """The server stops while a game's table waits for its players; started again, the table
    still waits, until the time it was given when it was made (stored with it), and then the
    side that never came loses by forfeit: it is not started with its absent player left to
    the clock."""
    settings = fast_settings(database, tournament_show_up_seconds=8.0)
    with TestClient(create_app(settings)) as client:
        ana, bia = guest(client, "Ana"), guest(client, "Bia")
        event_id = create(client, ana, rounds=1)
        for token in (ana, bia):
            assert client.post(f"/api/tournaments/{event_id}/register",
                               headers=auth(token)).status_code == 200
        assert client.post(f"/api/tournaments/{event_id}/start",
                           headers=auth(ana)).status_code == 200
        [match] = wait_rounds(client, event_id, 1)
        made = time.time()
    with TestClient(create_app(settings)) as client, ExitStack() as stack:
        c = connect(stack, client, ana, "Ana")
        assert c.join(str(match))["status"] == "waiting"
        info = wait_event(client, event_id, "finished", timeout=60)
        assert time.time() >= made + 8.0 - 1.0  # not before its time (made a little earlier)
        [game] = info["rounds"][0]["tables"][0]["games"]
        assert game["outcome"]["kind"] == "forfeit" and game["outcome"]["absent"] == ["Bia"]
        assert info["standings"][0]["entrant"] == "Ana"
        verify(client.get(f"/api/tournaments/{event_id}/record").json())


@pytest.mark.slow  # the arena lasts its 12 s
def test_an_arena_restarted_mid_way_loses_no_wave(database: str) -> None:
    """An arena's waves append their log entries (`tournament_log`) instead of writing its
    whole record again; the server stops mid-way: started again, the arena is rebuilt from
    its record and those entries (the same waves), goes on to its end, and its record
    verifies."""
    settings = fast_settings(database, tournament_bots=True, bot_delay_ms=40)
    with TestClient(create_app(settings)) as client:
        event_id = started_arena(client, 12)
        end = time.monotonic() + 30
        while len((page := client.get(f"/api/tournaments/{event_id}").json())["rounds"]) < 3:
            assert time.monotonic() < end, "the arena never paired a third wave"
            time.sleep(0.05)
    waves = [[t["sides"] for t in w["tables"]] for w in page["rounds"]]
    engine = sa.create_engine(normalize_url(database))
    with engine.begin() as conn:
        stored = json.loads(conn.execute(sa.text("SELECT record FROM tournaments WHERE id = :i"),
                                         {"i": event_id}).scalar_one())
        appended = [json.loads(e) if isinstance(e, str) else e for e in conn.execute(
            sa.text("SELECT entry FROM tournament_log WHERE tournament_id = :i ORDER BY seq"),
            {"i": event_id}).scalars()]
    engine.dispose()
    assert len(stored["rounds"]) == 1  # written with the start; the next waves appended
    kept = 1 + len([e for e in appended if "pair" in e])  # (the last seen may not be yet)
    assert [e["pair"] for e in appended if "pair" in e] == list(range(2, kept + 1))
    assert kept >= len(waves) - 1 >= 2
    with TestClient(create_app(settings)) as client:
        again = client.get(f"/api/tournaments/{event_id}").json()
        assert [[t["sides"] for t in w["tables"]] for w in again["rounds"][:kept]] == \
            waves[:kept]
        info = wait_event(client, event_id, "finished", timeout=60)
        assert len(info["rounds"]) > kept
        verify(client.get(f"/api/tournaments/{event_id}/record").json())


def test_the_standings_say_what_decided_lines_level_on_every_number(database: str) -> None:
    """A Suíço of eight bots and one round of Clássico to one hand: every winner scores 1 to 0,
    so the four winners are level on points, Buchholz and points difference, and so are the
    four losers; what orders them is told on each line below another (the seed: no two met).
    The list tells each event's options (the ruleset's summary says what it is played to)."""
    settings = fast_settings(database, tournament_bots=True, bot_delay_ms=0)
    with TestClient(create_app(settings)) as client:
        ana = guest(client, "Ana")
        event_id = create(client, ana, ruleset="classico", options={"hands_to_win": 1},
                          rounds=1, capacity=8, bots="greedy")
        listed = client.get("/api/tournaments").json()["upcoming"]
        assert next(e for e in listed if e["id"] == event_id)["options"] == {"hands_to_win": 1}
        assert client.post(f"/api/tournaments/{event_id}/start",
                           headers=auth(ana)).status_code == 200
        info = wait_event(client, event_id, "finished", timeout=60)
        lines = info["standings"]
        assert [(s["points"], s["buchholz"], s["difference"]) for s in lines] == \
            [(1, 0, 1)] * 4 + [(0, 1, -1)] * 4
        decided = [s.get("decided") for s in lines]
        assert decided[0] is None and decided[4] is None  # the points tell these
        assert all(d in ("rating", "lot") for d in decided[1:4] + decided[5:]), decided
