"""`BotBudget.check` with the other nodes' tables (`Elsewhere`): a player's and an address's
searching tables are counted on every node; the node's capacity is its own."""

from __future__ import annotations

import pytest

from carroca.server.errors import RateLimited, ServerError
from carroca.server.settings import Settings
from carroca.server.tables.botbudget import BotBudget, Charge, Elsewhere, tally


def budget(**settings: int) -> BotBudget:
    return BotBudget(Settings(database="sqlite://", **settings), lambda: 1)  # type: ignore[arg-type]


def test_a_players_tables_elsewhere_count() -> None:
    b = budget(max_bot_matches_per_player=2, bot_tables_per_address=10, bot_tables_per_worker=10)
    b.check([Charge(7, "a")], 7, "a")  # one here: a second is fine
    with pytest.raises(RateLimited) as refused:
        b.check([Charge(7, "a")], 7, "a", Elsewhere({7: 1}, {}))  # and one on another node
    assert refused.value.code == "too_many_bot_matches"
    b.check([Charge(7, "a")], 8, "b", Elsewhere({7: 5}, {"a": 5}))  # others' are theirs


def test_an_addresss_tables_elsewhere_count() -> None:
    b = budget(max_bot_matches_per_player=10, bot_tables_per_address=2, bot_tables_per_worker=10)
    with pytest.raises(RateLimited):
        b.check([Charge(1, "a")], 2, "a", Elsewhere({3: 1}, {"a": 1}))


def test_capacity_is_the_nodes_own() -> None:
    b = budget(max_bot_matches_per_player=10, bot_tables_per_address=10, bot_tables_per_worker=2)
    b.check([Charge(1, "a")], 2, "b", Elsewhere({3: 50}, {"c": 50}))
    with pytest.raises(ServerError) as busy:
        b.check([Charge(1, "a"), Charge(4, "d")], 2, "b")
    assert busy.value.code == "bots_busy"


def test_tally_counts_per_player_and_address() -> None:
    said = tally([Charge(1, "a"), Charge(1, "b"), Charge(None, "a"), Charge(2, None)])
    assert said == Elsewhere({1: 2, 2: 1}, {"a": 2, "b": 1})
