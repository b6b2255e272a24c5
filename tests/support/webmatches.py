"""Finished matches for the replay and fairness pages: bots-only matches over the HTTP API, and
records made by the rules engine itself (for the browser's engine to replay)."""

from __future__ import annotations

import json
import random
import time
import urllib.request
from typing import Any

from carroca import fair, record
from carroca.rules import Match, get_ruleset

TIMEOUT_S = 30.0


_TOKENS: dict[str, str] = {}  # server -> the token of the guest who creates bots-only matches


def api(server: str, path: str, body: dict[str, Any] | None = None,
        token: str | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(server + path, data=data, method="GET" if body is None else "POST",
                                 headers=headers)
    with urllib.request.urlopen(req, timeout=TIMEOUT_S) as resp:
        return json.load(resp)


def finished_match(server: str, ruleset: str, options: dict[str, Any] | None = None,
                   bots: tuple[str, ...] = ("greedy", "random")) -> str:
    """A bots-only match (POST /api/matches), once it is over; returns its id."""
    n = get_ruleset(ruleset).seats
    seats = [f"bot:{bots[i % len(bots)]}" for i in range(n)]
    if server not in _TOKENS:  # bots-only matches are for signed-in players
        _TOKENS[server] = api(server, "/api/guest", {"name": f"demo_{random.randrange(10**6)}"}
                              )["token"]
    created = api(server, "/api/matches", {"ruleset": ruleset, "options": options or {},
                                           "seats": seats}, _TOKENS[server])
    match_id = str(created["id"])
    deadline = time.monotonic() + TIMEOUT_S
    while api(server, f"/api/matches/{match_id}")["status"] != "finished":
        if time.monotonic() > deadline:
            raise AssertionError(f"match {match_id} did not finish")
        time.sleep(0.02)  # polling the server for a condition, not a pause to synchronise
    return match_id


def engine_record(ruleset: str, seed: int, *, abandon: bool = False,
                  first_deal: list[int] | None = None) -> tuple[dict[str, Any], Match]:
    """A whole match of random legal moves under the verifiable shuffle, as a record.

    `abandon`: the seat to move times out three times in a row during the second hand (the
    server's `auto` actions, then abandonment). `first_deal`: the first hand's deal order.
    """
    rng = random.Random(seed)
    server_seed = f"{seed:064x}"[-64:]
    client_seed = f"teste-{seed}"
    m = Match(get_ruleset(ruleset))
    while not m.is_over:
        if m.needs_deal:
            if m.deal_index == 0 and first_deal is not None:
                m.deal(first_deal)
            else:
                m.deal(fair.shuffle(server_seed, client_seed, m.deal_index))
            continue
        seat = m.current_player
        assert seat is not None
        if abandon and m.hand_number == 1 and len(m.steps) >= 3:
            if m.timeouts_in_a_row(seat) >= 2:
                m.abandon(seat)
                break
            m.apply(m.legal_actions()[0], seat, auto=True)
            continue
        m.apply(rng.choice(m.legal_actions()))
    fairness = record.Fairness(fair.commitment(server_seed), client_seed, server_seed)
    rec = record.to_record(m, [f"jogador{i}" for i in range(m.n)], fairness)
    return rec, m


def five_doubles_deal() -> list[int]:
    """A duplas-pontos deal where seat 1 holds five doubles (28 tiles in deal order)."""
    from carroca.rules import tiles as T

    doubles = [T.DOUBLE_OF[n] for n in range(7)]
    rest = [t for t in range(T.TILE_COUNT) if t not in doubles]
    seat1 = doubles[:5] + rest[:2]
    others = doubles[5:] + rest[2:]
    return others[:7] + seat1 + others[7:]
