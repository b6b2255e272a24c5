"""Helpers for scripted-deal tests: build a deal from hands, play a transcript of actions.

A test reads like a game transcript::

    m = deal(Match("duplas-pontos"), seats("6-6 5-6 0-0 0-1 0-2 0-3 0-4", "...", "...", "..."))
    play(m, "6-6", "3-6:left", "pass")
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from carroca.rules import Match, get_ruleset, observation
from carroca.rules import actions as A
from carroca.rules import tiles as T
from carroca.rules.game import ABANDON_TIMEOUTS


def seats(*hands: str | list[str]) -> list[list[str]]:
    """The hands of a scripted deal, seat by seat: each a list of tiles or one string of them
    separated by spaces (`"6-6 5-6 0-0 0-1 0-2 0-3 0-4"`)."""
    return [hand.split() if isinstance(hand, str) else list(hand) for hand in hands]


def order_from_hands(
    hands: list[list[str]], boneyard: list[str] | None = None, *, fill: bool = False
) -> list[int]:
    """A 28-tile deal order: seat s gets `hands[s]`, then the boneyard in draw order.

    2v2: four hands of 7 and no boneyard. 1v1: two hands of 7 and a boneyard of the 14 other
    tiles in draw order; `boneyard=None` puts the remaining tiles in canonical order, and
    `fill=True` lets `boneyard` name only the first draws, the rest following canonically.
    Every one of the 28 tiles must appear exactly once.
    """
    if len(hands) not in (2, 4):
        raise ValueError(f"need 2 or 4 hands, got {len(hands)}")
    order: list[int] = []
    for seat, hand in enumerate(hands):
        if len(hand) != 7:
            raise ValueError(f"seat {seat} has {len(hand)} tiles, not 7")
        order.extend(T.parse(text, strict=True) for text in hand)
    if len(hands) == 4 and boneyard:
        raise ValueError("2v2 deals all 28 tiles: no boneyard")
    order.extend(T.parse(text, strict=True) for text in boneyard or [])
    if boneyard is None or fill:
        used = set(order)
        order.extend(t for t in range(T.TILE_COUNT) if t not in used)
    counts = Counter(order)
    dupes = sorted(t for t, c in counts.items() if c > 1)
    if dupes:
        raise ValueError(f"tiles used twice: {', '.join(T.NAMES[t] for t in dupes)}")
    if len(order) != T.TILE_COUNT:
        missing = sorted(set(range(T.TILE_COUNT)) - set(order))
        raise ValueError(f"missing tiles: {', '.join(T.NAMES[t] for t in missing)}")
    return order


def new_match(ruleset: str, **options: object) -> Match:
    """A match of `ruleset` with `options` over the ruleset's defaults."""
    return Match(ruleset, get_ruleset(ruleset).make_options(options))


def deal(match: Match, hands: list[list[str]], boneyard: list[str] | None = None,
         *, fill: bool = False) -> Match:
    """Deal the scripted hands to `match` and return it."""
    match.deal(order_from_hands(hands, boneyard, fill=fill))
    return match


def play(match: Match, *texts: str, auto: bool = False) -> None:
    """Apply each action (`6-6`, `3-6:left`, `pass`, `draw`, `five-doubles:points`) in turn.

    Each action is applied for the seat to move, passing that seat explicitly; `auto=True`
    marks them as made by the server for a player who ran out of time.
    """
    for text in texts:
        seat = match.current_player
        try:
            match.apply(A.parse(text), seat, auto=auto)
        except Exception as exc:
            exc.add_note(f"while playing {text!r} for seat {seat}")
            raise


def time_out(
    match: Match,
    seat: int | None = None,
    times: int = ABANDON_TIMEOUTS - 1,
    next_deal: Callable[[Match], None] | None = None,
) -> int:
    """Play on until `seat` (default: the seat to move) has timed out `times` times in a row
    and is to move again, so that it may abandon (rules.md §5). Every action is the seat to
    move's first legal one; `seat`'s are made with `auto=True`, the others' in time. When a hand
    ends, `next_deal(match)` deals the next one (without it, an ended hand is an error).
    Returns the seat."""
    seat = match.turn if seat is None else seat
    done = 0
    while True:
        if match.needs_deal and next_deal is not None:
            next_deal(match)
        turn = match.current_player
        if turn is None:
            raise AssertionError(f"the hand ended before seat {seat} timed out {times} times")
        if turn == seat:
            if done == times:
                return seat
            done += 1
        match.apply(match.legal_actions()[0], turn, auto=turn == seat)


def hand_names(match: Match, seat: int) -> list[str]:
    """The tiles a seat holds now, as text, ascending."""
    return [T.NAMES[t] for t in T.tiles_of(match.hands[seat])]


def legal(match: Match) -> list[str]:
    """The legal actions of the seat to move, as text, in the engine's order."""
    return [str(a) for a in match.legal_actions()]


def events(match: Match) -> list[tuple[int, int, str]]:
    """The current hand's score events as (team, points, reason)."""
    return [(e.team, e.points, e.reason) for e in match.events]


def last_events(match: Match) -> list[tuple[int, int, str]]:
    """The last finished hand's score events as (team, points, reason)."""
    return [(e.team, e.points, e.reason) for e in match.history[-1].events]


def views(match: Match) -> list[dict[str, object]]:
    """Every seat's observation and the spectator's, as dicts: what 'unchanged' compares."""
    seats: list[int | None] = [*range(match.n), None]
    return [observation(match, s).to_dict() for s in seats]


def assert_refused(
    match: Match, text: str, error: type[Exception], seat: int | None = None
) -> Exception:
    """Applying `text` (for `seat`, default the seat to move) raises exactly `error`, and the
    match is unchanged: every seat's view, the score, the steps and the turn."""
    before = (views(match), list(match.score), len(match.steps), match.turn, match.phase)
    who = match.current_player if seat is None else seat
    action = A.parse(text)
    try:
        match.apply(action, who)
    except Exception as exc:
        assert type(exc) is error, f"{text!r}: expected {error.__name__}, got {exc!r}"
        after = (views(match), list(match.score), len(match.steps), match.turn, match.phase)
        assert after == before, f"{text!r} was refused but changed the match"
        return exc
    raise AssertionError(f"{text!r} for seat {who} was accepted; expected {error.__name__}")


def assert_abandon_refused(match: Match, seat: int, error: type[Exception]) -> Exception:
    """`match.abandon(seat)` raises exactly `error` and changes nothing: the views, the score,
    the steps, the turn, the phase, the history and the result."""

    def state() -> tuple[object, ...]:
        return (
            views(match),
            list(match.score),
            list(match.steps),
            match.turn,
            match.phase,
            len(match.history),
            match.result,
            match.timeouts_in_a_row(seat),
        )

    before = state()
    try:
        match.abandon(seat)
    except Exception as exc:
        assert type(exc) is error, f"abandon({seat}): expected {error.__name__}, got {exc!r}"
        assert state() == before, f"abandon({seat}) was refused but changed the match"
        return exc
    raise AssertionError(f"abandon({seat}) was accepted; expected {error.__name__}")


def deal_shuffled(m: Match, rng: random.Random) -> None:
    """Deal `m`'s next hand from a random order of the 28 tiles."""
    order = list(range(28))
    rng.shuffle(order)
    m.deal(order)


def fresh_deals(name: str, rng: random.Random, count: int) -> Iterator[Match]:
    """`count` new matches of ruleset `name`, one at a time, each with its first hand dealt from
    `rng` (the caller draws from the same `rng` in between)."""
    for _ in range(count):
        m = Match(name)
        deal_shuffled(m, rng)
        yield m


def random_position(name: str, rng: random.Random, options: dict[str, Any] | None,
                    stop: Callable[[Match], bool]) -> Match:
    """A hand in progress from random play (sometimes a later hand of the match): the first
    position past the opening (a tile on the table) where `stop` holds; a hand that ends before
    is dealt again."""
    while True:
        m = Match(name, get_ruleset(name).make_options(options) if options else None)
        for _ in range(rng.choice((1, 1, 2))):
            if m.is_over:
                break
            deal_shuffled(m, rng)
            while m.current_player is not None and (
                    m.opening_mask >= 0 or not m.table or not stop(m)):
                m.apply(rng.choice(m.legal_actions()))
            if m.current_player is not None:
                return m
