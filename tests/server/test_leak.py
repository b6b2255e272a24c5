"""No frame ever shows a tile its receiver could not see at that moment (rules.md §5).

Every seat is a human WebSocket client (so every seat's frames exist) and a spectator watches;
each plays whole matches. Afterwards the final record (dealt hands, boneyard, actions) is the
oracle, computed here from the record's JSON alone, not from the engine's observation code:

- a `state` at version v shows the table after v - 1 actions (the deal is version 1), so its
  moment in the record is known without trusting the frame's own view;
- at that moment a seat may see its own hand, the tiles played in the hand in progress and its own
  draws; a spectator only the tiles played; the previous hand, fully, only inside `last_hand`;
- every string and key of every frame (not just `view.hand`) is scanned for tile names, which
  must be in that set; `hand`, `steps`, `legal`, `last_hand`, `hand_sizes` and `boneyard` are also
  compared exactly with the record.

Coverage per run (deals are random; measured over three runs): 14 whole matches over all six
rulesets, a spectator at each — duplas-pontos (4, two of them with the cinco-carroças choice
forced, one re-dealt) and duplas-torneio (2) with four humans; pontos and mano-a-mano (3 each: the
rulesets with a boneyard and draws), classico and bloqueio (1 each) with two humans. That is 54
receivers, 35-41 hands, 4,300-4,700 frames (3,400-3,700 states) and 92,000-99,000 tile names
checked; 100-170 draws, each checked as shown to its drawer and hidden from everyone else; and
150-190 answers of the public HTTP routes, read while the matches were played, hold no tile.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

import pytest
from fastapi.testclient import TestClient
from tests.support.leak_oracle import TILE, Coverage, Oracle, check_frames, check_state
from tests.support.server_app import guest
from tests.support.wsplay import (
    Client,
    Frame,
    auth,
    connect,
    play,
    random_chooser,
    run_together,
    watch,
)

from carroca import fair, record
from carroca.rules import RULESETS
from carroca.rules import tiles as T

SHORT: dict[str, dict[str, Any]] = {
    "duplas-pontos": {"target": 100},
    "duplas-torneio": {"target": 50},
    "mano-a-mano": {"target": 30},
    "classico": {"hands_to_win": 2},
    "bloqueio": {"target": 3},
    "pontos": {"target": 40},
}
#: (ruleset, seed) for each match: the seed picks the players' moves and client seeds.
MATCHES = [
    ("duplas-pontos", 1), ("duplas-pontos", 10), ("duplas-torneio", 2), ("duplas-torneio", 11),
    ("pontos", 3), ("pontos", 4), ("pontos", 12), ("mano-a-mano", 5), ("mano-a-mano", 6),
    ("mano-a-mano", 13), ("classico", 7), ("bloqueio", 8),
]


def poll_http(client: TestClient, match_id: str, seen: list[tuple[str, str]],
              headers: dict[str, str]) -> Frame:
    """Read the match's HTTP routes until it is over (what its players, and anyone once it is
    public, may fetch meanwhile) with `headers` (a seated player's: a friends' match is theirs);
    returns the final match information."""
    while True:
        info = client.get(f"/api/matches/{match_id}", headers=headers)
        assert info.status_code == 200, info.text
        if info.json()["status"] == "finished":
            return info.json()  # type: ignore[no-any-return]
        seen.append(("GET /api/matches/{id}", info.text))
        rec = client.get(f"/api/matches/{match_id}/record", headers=headers)
        if rec.status_code == 200:  # it ended in between
            info = client.get(f"/api/matches/{match_id}", headers=headers)
            assert info.json()["status"] == "finished"
            return info.json()  # type: ignore[no-any-return]
        assert rec.status_code == 409, rec.text
        seen.append(("GET /api/matches/{id}/record", rec.text))
        seen.append(("GET /api/matches", client.get("/api/matches").text))
        time.sleep(0.02)


def client_seeds(seed: int, n: int) -> list[str]:
    return [f"seed{seed}"] + [f"s{seed}x{i}" for i in range(1, n)]


def chooser(seed: int, prefer: str | None) -> Callable[[Frame], str]:
    pick = random_chooser(seed)
    return lambda view: prefer if prefer in view["legal"] else pick(view)


def play_match(
    client: TestClient, ruleset: str, seed: int, http: list[tuple[str, str]] | None = None,
    prefer: str | None = None,
) -> tuple[Oracle, list[Client], Client]:
    """A whole match with a human at every seat and a spectator; returns every client. `http`
    collects what the public HTTP routes answered during the match; `prefer` is an action the
    players take whenever it is legal."""
    n = RULESETS[ruleset].seats
    seeds = client_seeds(seed, n)
    tokens = [guest(client, f"p{seed}s{i}") for i in range(n)]
    fan = guest(client, f"fan{seed}")
    r = client.post("/api/tables", headers=auth(tokens[0]), json={
        "ruleset": ruleset, "options": SHORT[ruleset], "seats": ["me"] + ["open"] * (n - 1),
        "client_seed": seeds[0],
    })
    assert r.status_code == 201, r.text
    created = r.json()
    match_id = created["id"]
    with ExitStack() as stack:
        spectator = connect(stack, client, fan, "spectator")
        spectator.join(match_id)
        seats = [connect(stack, client, tokens[0], "seat0")]
        seats[0].join(match_id)
        for i in range(1, n):
            joined = client.post("/api/tables/join", headers=auth(tokens[i]),
                                 json={"invite": created["invite"], "client_seed": seeds[i]})
            assert joined.json()["seat"] == i, joined.text
            seats.append(connect(stack, client, tokens[i], f"seat{i}"))
        jobs = [lambda c=c: play(c, None, chooser(seed * 10, prefer)) for c in seats[:1]]
        jobs += [lambda c=c, i=i: play(c, match_id, chooser(seed * 10 + i, prefer))
                 for i, c in enumerate(seats) if i]
        jobs.append(lambda: watch(spectator, None))
        if http is not None:
            jobs.append(lambda: poll_http(client, match_id, http, auth(tokens[0])))
        run_together(jobs)
    rec = record.loads(client.get(f"/api/matches/{match_id}/record",
                                  headers=auth(tokens[0])).text)
    record.verify(rec)
    return Oracle(rec), seats, spectator


@pytest.mark.parametrize(("ruleset", "seed"), MATCHES)
def test_no_frame_shows_a_hidden_tile(client: TestClient, ruleset: str, seed: int) -> None:
    http: list[tuple[str, str]] = []
    oracle, seats, spectator = play_match(client, ruleset, seed, http)
    cov = Coverage()
    for seat, c in enumerate(seats):
        check_frames(oracle, c, seat, cov)
    check_frames(oracle, spectator, None, cov)
    # During the match the HTTP routes show no tile at all, nor the seed.
    assert http
    seed_hex = oracle.rec["fairness"]["server_seed"]
    for route, text in http:
        assert not TILE.findall(text), (route, text)
        assert "server_seed" not in text and seed_hex not in text, route
    # The oracle was exercised: whole matches, several hands, and draws where there are some.
    assert cov.states >= 10 * len(seats) and cov.tiles > 100
    assert len(oracle.hands) >= 1 and oracle.rec["result"]["reason"] == "target"
    if oracle.draws:
        drawn = sum(1 for h in oracle.hands for a in h["actions"] if a["type"] == "draw")
        assert cov.draws_seen >= drawn  # each draw was seen by its drawer at least once


def five_doubles_seed(client_seed: str) -> str:
    """A server seed whose first deal gives some seat five doubles (about 1 deal in 65)."""
    for i in range(100_000):
        server_seed = f"{i:064x}"
        order = fair.shuffle(server_seed, client_seed, 0)
        if any(sum(T.IS_DOUBLE[t] for t in order[7 * s:7 * s + 7]) >= 5 for s in range(4)):
            return server_seed
    raise AssertionError("no such seed")


@pytest.mark.parametrize("choice", ["redeal", "points"])
def test_the_five_doubles_choice_leaks_nothing(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, choice: str
) -> None:
    """The cinco-carroças window (a choice before the opening) and its re-deal, which reveals a
    hand nobody played."""
    seed = 30 if choice == "redeal" else 31
    forced = five_doubles_seed(":".join(client_seeds(seed, 4)))
    monkeypatch.setattr(fair, "new_server_seed", lambda: forced)
    oracle, seats, spectator = play_match(client, "duplas-pontos", seed,
                                          prefer=f"five-doubles:{choice}")
    first = oracle.hands[0]
    assert first["actions"][0]["type"] == "five-doubles"
    assert first["actions"][0]["choice"] == choice
    assert (first.get("end", {}).get("kind") == "redeal") == (choice == "redeal")
    cov = Coverage()
    for seat, c in enumerate(seats):
        check_frames(oracle, c, seat, cov)
    check_frames(oracle, spectator, None, cov)
    chooser_seat = first["actions"][0]["seat"]
    assert any(s["view"] and s["view"]["phase"] == "choice" for s in seats[chooser_seat].states())


def test_the_checker_catches_a_leak(client: TestClient) -> None:
    """The oracle is not vacuous: a hidden tile slipped anywhere in a frame is caught."""
    oracle, seats, spectator = play_match(client, "mano-a-mano", 9)
    cov = Coverage()
    frame = next(f for f in seats[0].frames
                 if f["type"] == "state" and f["data"]["status"] == "playing")
    m = oracle.moment(frame["data"]["version"])
    assert m.hand is not None
    held, _, _ = oracle.held(m.hand, m.done)
    hidden = sorted(held[1])[0]  # in the opponent's hand
    undrawn = oracle.hands[m.hand]["boneyard"][-1]  # at the bottom of the boneyard
    for tile in (hidden, undrawn):
        for poke in ({"note": f"pedra {tile}"}, {tile: 1}, {"x": [[{"y": tile}]]}):
            bad = {**frame, "data": {**frame["data"], "extra": poke}}
            with pytest.raises(AssertionError, match=tile):
                check_state(oracle, bad["data"], 0, "poke", cov)
    spectators_frame = next(f for f in spectator.frames
                            if f["type"] == "state" and f["data"]["status"] == "playing")
    peek = {**spectators_frame["data"], "view": {**spectators_frame["data"]["view"],
                                                  "hand": frame["data"]["view"]["hand"]}}
    with pytest.raises(AssertionError):
        check_state(oracle, peek, None, "spectator", cov)


def test_no_state_is_published_before_its_move_is_stored(client: TestClient) -> None:
    """While a move waits for its commit, a socket closing (which publishes the seat going quiet)
    must not broadcast that move: it is neither stored nor acknowledged yet, and a frame showing
    it under the old version would be out of step with the record."""
    a, b, fan = guest(client, "alan"), guest(client, "beto"), guest(client, "cris")
    r = client.post("/api/tables", headers=auth(a), json={
        "ruleset": "bloqueio", "seats": ["me", "open"], "turn_seconds": 60})
    created = r.json()
    client.post("/api/tables/join", headers=auth(b), json={"invite": created["invite"]})
    store = client.app.state.store  # type: ignore[attr-defined]
    table = client.app.state.tables.get(created["id"])  # type: ignore[attr-defined]
    real_append = store.append_move
    in_flight, release = threading.Event(), threading.Event()

    async def slow_append(row: Any) -> None:
        in_flight.set()
        while not release.is_set():  # the database is slow today
            await asyncio.sleep(0.005)
        await real_append(row)

    with ExitStack() as stack:
        spectator = connect(stack, client, fan, "spectator")
        before = spectator.join(created["id"])
        assert before["status"] == "playing"
        mover = before["view"]["turn"]
        with ExitStack() as sockets:
            alan = connect(sockets, client, a, "alan")
            beto = connect(sockets, client, b, "beto")
            alan.join(created["id"])
            beto.join(created["id"])
            spectator.ping()
            start = len(spectator.frames)
            c, other = (alan, beto) if mover == 0 else (beto, alan)
            state = c.states()[-1]
            store.append_move = slow_append
            try:
                c.move(state["view"]["legal"][0])
                assert in_flight.wait(10)
                other.ws.close()  # the other player drops while the move is being stored
                deadline = time.monotonic() + 10
                while table.seat_connected(1 - mover) and time.monotonic() < deadline:
                    time.sleep(0.005)
                assert not table.seat_connected(1 - mover)  # the server saw the socket go
                spectator.ping()  # anything published meanwhile is read by now
            finally:
                release.set()
                store.append_move = real_append
            c.until_type("ack")
        quiet = spectator.until(lambda f: f["type"] == "state" and not all(
            p["connected"] for p in f["data"]["players"]))["data"]
        assert quiet["version"] == before["version"] + 1  # published after the commit
        seen = [f["data"] for f in spectator.frames[start:] if f["type"] == "state"]

        def played(s: dict[str, Any]) -> bool:
            # The move shows as a step, or (five doubles chosen on a deal) as the next deal.
            view, old = s["view"], before["view"]
            return bool(view["steps"]) or view["deal_index"] != old["deal_index"]

        assert before["view"]["steps"] == []
        for s in seen:
            # A state either predates the move (old version, not played) or includes it.
            assert (s["version"] == before["version"]) == (not played(s)), s
