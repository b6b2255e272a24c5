"""One budget for bot work, whatever the route: friends', casual, bots-only and rematch tables
with searching bots count together per player, per address and against the node's capacity.

Before: the caps were per route (bots-only: 2 per player; friends': 2 per host; casual and
rematch: none), so nine guests from one address kept 18+ expert tables busy and an expert's
move at a real player's table went from 0.13 s to 2.1-3.3 s.
"""

from __future__ import annotations

from collections.abc import Callable

from tests.support.attacks import error_of, guest, http
from tests.support.serverproc import Server, wait_until

FRIENDS_EXPERT = {"ruleset": "bloqueio", "seats": ["me", "bot:expert"]}
CASUAL_EXPERT = {"ruleset": "bloqueio", "bot_level": "expert"}
BOTS_EXPERT = {"ruleset": "bloqueio", "seats": ["bot:expert", "bot:medium"]}
# One worker admitting 8 searching tables: a per-address share of max(2, 8 // 4) = 2.
ROOMY = {"CARROCA_BOT_WORKERS": "1", "CARROCA_BOT_TABLES_PER_WORKER": "8",
         "CARROCA_CASUAL_WAIT_SECONDS": "60"}


def test_one_address_has_one_budget_across_routes(servers: Callable[..., Server]) -> None:
    server = servers(env=ROOMY)
    with http(server, token=guest(server, "Ana")) as c:
        assert c.post("/api/tables", json=FRIENDS_EXPERT).status_code == 201
    with http(server, token=guest(server, "Bia")) as c:
        assert c.post("/api/casual", json=CASUAL_EXPERT).status_code == 200
    with http(server, token=guest(server, "Cida")) as c:  # the same address, a third route
        third = c.post("/api/matches", json=BOTS_EXPERT)
        assert third.status_code == 429 and error_of(third)["code"] == "too_many_bot_matches"
        assert "sua rede" in error_of(third)["message"]
        # Bots that do not search are not bot work to speak of.
        assert c.post("/api/tables", json={"ruleset": "bloqueio",
                                           "seats": ["me", "bot:medium"]}).status_code == 201
    with http(server, "127.0.0.2", token=guest(server, "Duda", "127.0.0.2")) as c:
        assert c.post("/api/matches", json=BOTS_EXPERT).status_code == 201


def test_a_player_has_one_budget_across_routes(servers: Callable[..., Server]) -> None:
    server = servers(env=ROOMY)
    token = guest(server, "Eva")
    with http(server, token=token) as c:
        assert c.post("/api/casual", json=CASUAL_EXPERT).status_code == 200
        assert c.post("/api/tables", json=FRIENDS_EXPERT).status_code == 201
        third = c.post("/api/matches", json=BOTS_EXPERT)
        assert third.status_code == 429 and error_of(third)["code"] == "too_many_bot_matches"
        assert "Você já tem 2 mesas" in error_of(third)["message"]


def test_a_rematch_counts_against_the_asker(servers: Callable[..., Server]) -> None:
    """The rematch route used to skip the host's caps: a finished expert table's rematch is a
    new expert table like any other."""
    server = servers(env=ROOMY)
    token = guest(server, "Fia")
    with http(server, token=token) as c:
        # A friends' table against an expert that ends fast: its player never moves (two
        # timeouts are played for them, the third is abandonment).
        made = c.post("/api/tables", json={**FRIENDS_EXPERT, "turn_seconds": 1})
        assert made.status_code == 201, made.text
        first = made.json()["id"]
        wait_until(lambda: c.get(f"/api/matches/{first}").json()["status"] == "finished",
                   "the abandoned match's end", timeout=60)
        assert c.post("/api/tables", json=FRIENDS_EXPERT).status_code == 201
        assert c.post("/api/tables", json=FRIENDS_EXPERT).status_code == 201
        again = c.post(f"/api/matches/{first}/rematch", json={})
        assert again.status_code == 429 and error_of(again)["code"] == "too_many_bot_matches"


def test_at_capacity_new_expert_seats_are_refused_with_a_lower_level_offered(
        servers: Callable[..., Server]) -> None:
    server = servers(env={"CARROCA_BOT_WORKERS": "1", "CARROCA_BOT_TABLES_PER_WORKER": "2"})
    for i, ip in enumerate(("127.0.0.1", "127.0.0.2")):
        with http(server, ip, token=guest(server, f"Gil{i}", ip)) as c:
            assert c.post("/api/tables", json=FRIENDS_EXPERT).status_code == 201
    with http(server, "127.0.0.3", token=guest(server, "Hugo", "127.0.0.3")) as c:
        busy = c.post("/api/tables", json=FRIENDS_EXPERT)
        assert busy.status_code == 503 and error_of(busy)["code"] == "bots_busy"
        assert "Médio" in error_of(busy)["message"]
        busy = c.post("/api/casual", json=CASUAL_EXPERT)
        assert busy.status_code == 503 and error_of(busy)["code"] == "bots_busy"
        assert c.post("/api/casual", json={**CASUAL_EXPERT, "bot_level": "medium"}
                      ).status_code == 200
