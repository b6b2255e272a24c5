"""Helpers of the tournament tests: genuine match records whose winner the test chooses."""

from __future__ import annotations

from typing import Any

from carroca import fair
from carroca import record as rec
from carroca.bots import make_bot
from carroca.rules import Match, get_ruleset, observation
from carroca.tournament import Entrant, Game, Tournament


def scripted_record(t: Tournament, game: Game, winner: str) -> dict[str, Any]:
    """The record of `game` won by the entrant `winner`: greedy bots play on the table's seeds,
    and the other side times out three times in a row (rules.md §5): an abandonment, which
    the record and its verification know."""
    rs = get_ruleset(t.spec.ruleset)
    match = Match(rs, rs.make_options(dict(t.spec.options)))
    loser_team = 1 - game.sides.index(winner)
    quitter = loser_team  # the loser's first seat (seat % 2 is the team)
    bots = [make_bot("greedy", seat) for seat in range(rs.seats)]
    while not match.is_over:
        if match.needs_deal:
            match.deal(fair.shuffle(game.server_seed, game.client_seed, match.deal_index))
            continue
        seat = match.turn
        if seat == quitter and match.timeouts_in_a_row(seat) >= 2:
            match.abandon(seat)
            continue
        match.apply(bots[seat].choose(observation(match, seat)), seat, auto=seat == quitter)
    assert match.result is not None and match.result.winner == 1 - loser_team
    fairness = rec.Fairness(fair.commitment(game.server_seed), game.client_seed,
                            game.server_seed)
    return rec.to_record(match, list(game.players), fairness)


def play_scripted(t: Tournament, winner_of: Any) -> None:
    """Record every pending game, won by `winner_of(t, game)` (an entrant id)."""
    for game in t.pending_games():
        t.record_game(game.key, scripted_record(t, game, winner_of(t, game)))


def solos(count: int, prefix: str = "p") -> list[Entrant]:
    return [Entrant(f"{prefix}{i:02d}", f"{prefix}{i:02d}", (f"{prefix}{i:02d}",))
            for i in range(1, count + 1)]


def duplas(count: int, prefix: str = "d") -> list[Entrant]:
    return [Entrant(f"{prefix}{i}", f"{prefix}{i}", (f"{prefix}{i}a", f"{prefix}{i}b"))
            for i in range(1, count + 1)]


def higher_seed_wins(t: Tournament, game: Game) -> str:
    order = [e.id for e in t.entrants]
    return min(game.sides, key=order.index)
