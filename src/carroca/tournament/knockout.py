"""Mata-mata: a seeded bracket, losers out.

The bracket has the next power of two of places. Seeds go where the standard order puts them
(1 and 2 can meet only in the final, 1–4 only from the semifinals on, …), and the places left
over are byes: they fall to the top seeds, who go through to the second round without playing.
Each tie is one match or a best of N (the first to win ⌈N/2⌉ games); the winners' places make
the next round's bracket in order.
"""

from __future__ import annotations

from collections.abc import Sequence


def bracket_size(entrants: int) -> int:
    size = 1
    while size < entrants:
        size *= 2
    return size


def bracket_order(size: int) -> list[int]:
    """Seeds 1..size in bracket places: [1, 8, 4, 5, 2, 7, 3, 6] for 8."""
    order = [1]
    while len(order) < size:
        span = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, span - seed)]
    return order


def first_slots(seeded: Sequence[str]) -> list[str | None]:
    """The first round's places: entrants by seed, None where the place is a bye."""
    size = bracket_size(max(2, len(seeded)))
    return [seeded[s - 1] if s <= len(seeded) else None for s in bracket_order(size)]


def rounds_needed(entrants: int) -> int:
    return max(1, bracket_size(max(2, entrants)).bit_length() - 1)


def games_to_win(best_of: int) -> int:
    return best_of // 2 + 1
