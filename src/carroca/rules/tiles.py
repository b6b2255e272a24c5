"""Tiles of the double-six set as small ints, and the bit masks the engine works with.

A tile is its index in the canonical order of record.md (`0-0, 0-1, …, 0-6, 1-1, …, 6-6`), so a
hand is a 28-bit int and "which tiles hold number n" is one precomputed mask.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

from carroca.rules.errors import InvalidTile

Tile = int
Mask = int

TILE_COUNT: Final[int] = 28
NUMBERS = range(7)

#: Halves of each tile, `low <= high`.
LOW: Final[tuple[int, ...]] = tuple(a for a in range(7) for b in range(a, 7))
HIGH: Final[tuple[int, ...]] = tuple(b for a in range(7) for b in range(a, 7))
PIPS: Final[tuple[int, ...]] = tuple(a + b for a, b in zip(LOW, HIGH, strict=True))
IS_DOUBLE: Final[tuple[bool, ...]] = tuple(a == b for a, b in zip(LOW, HIGH, strict=True))
BIT: Final[tuple[Mask, ...]] = tuple(1 << t for t in range(TILE_COUNT))
ALL_TILES: Final[Mask] = (1 << TILE_COUNT) - 1

_INDEX = {(a, b): t for t, (a, b) in enumerate(zip(LOW, HIGH, strict=True))}

#: NUMBER_MASK[n]: the seven tiles that hold the number n.
NUMBER_MASK: Final[tuple[Mask, ...]] = tuple(
    sum(BIT[t] for t in range(TILE_COUNT) if n in (LOW[t], HIGH[t])) for n in NUMBERS
)
DOUBLES_MASK: Final[Mask] = sum(BIT[t] for t in range(TILE_COUNT) if IS_DOUBLE[t])
#: DOUBLE_OF[n]: the tile n-n.
DOUBLE_OF: Final[tuple[Tile, ...]] = tuple(_INDEX[(n, n)] for n in NUMBERS)
#: Tiles of each number, ascending.
TILES_WITH: Final[tuple[tuple[Tile, ...], ...]] = tuple(
    tuple(t for t in range(TILE_COUNT) if NUMBER_MASK[n] >> t & 1) for n in NUMBERS
)
#: OTHER_HALF[t][n]: the half of t left open when t is placed on an end showing n (-1: no fit).
OTHER_HALF: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(
        HIGH[t] if LOW[t] == n else LOW[t] if HIGH[t] == n else -1 for n in NUMBERS
    )
    for t in range(TILE_COUNT)
)
#: Pip total of every subset of 7 tiles is summed through these byte-wise tables.
_PIP_TABLES: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(
        sum(PIPS[chunk * 7 + i] for i in range(7) if m >> i & 1) for m in range(128)
    )
    for chunk in range(4)
)


def tile(a: int, b: int) -> Tile:
    """The tile with halves a and b, in either order."""
    if not (0 <= a <= 6 and 0 <= b <= 6):
        raise InvalidTile(f"{a}-{b}")
    return _INDEX[(a, b) if a <= b else (b, a)]


def name(t: Tile) -> str:
    """The record form `a-b` with `a <= b`."""
    return f"{LOW[t]}-{HIGH[t]}"


NAMES: Final[tuple[str, ...]] = tuple(name(t) for t in range(TILE_COUNT))
_BY_NAME = {n: t for t, n in enumerate(NAMES)}


def parse(text: str, *, strict: bool = False) -> Tile:
    """A tile from `a-b` (also `a:b` and `b-a` unless strict, which wants record form)."""
    if strict:
        t = _BY_NAME.get(text) if isinstance(text, str) else None
        if t is None:
            raise InvalidTile(text)
        return t
    cleaned = str(text).strip().replace(":", "-").replace("|", "-")
    parts = cleaned.split("-")
    if len(parts) != 2 or not all(p.strip().isdigit() and len(p.strip()) == 1 for p in parts):
        raise InvalidTile(str(text))
    return tile(int(parts[0]), int(parts[1]))


def tiles_of(mask: Mask) -> list[Tile]:
    """The tiles of a mask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def iter_tiles(mask: Mask) -> Iterator[Tile]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(tiles: Iterable[Tile]) -> Mask:
    m = 0
    for t in tiles:
        m |= BIT[t]
    return m


def pips_of(mask: Mask) -> int:
    """Total pips of the tiles in a mask (four table look-ups)."""
    return (
        _PIP_TABLES[0][mask & 127]
        + _PIP_TABLES[1][mask >> 7 & 127]
        + _PIP_TABLES[2][mask >> 14 & 127]
        + _PIP_TABLES[3][mask >> 21 & 127]
    )


def count(mask: Mask) -> int:
    return mask.bit_count()
