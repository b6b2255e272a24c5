"""Plays whole matches between bots with the verifiable shuffle: simulations, tests, demos."""

from __future__ import annotations

from collections.abc import Sequence

from carroca import fair
from carroca.bots.base import Bot
from carroca.rules import Match, Options, get_ruleset, observation


class MatchTooLong(RuntimeError):
    """A safety stop: no sensible option set needs this many deals."""


def play_match(
    ruleset: str,
    options: Options | None,
    bots: Sequence[Bot],
    server_seed: str,
    client_seed: str,
    max_hands: int = 5000,
) -> Match:
    """One whole match; `bots[s]` plays seat s. Deals come from `fair.shuffle`."""
    rs = get_ruleset(ruleset)
    if len(bots) != rs.seats:
        raise ValueError(f"{ruleset} needs {rs.seats} bots, got {len(bots)}")
    match = Match(rs, options)
    while not match.is_over:
        if match.needs_deal:
            if match.deal_index >= max_hands:
                raise MatchTooLong(f"A partida não terminou em {max_hands} distribuições.")
            match.deal(fair.shuffle(server_seed, client_seed, match.deal_index))
            continue
        seat = match.turn
        action = bots[seat].choose(observation(match, seat))
        match.apply(action, seat)
    return match
