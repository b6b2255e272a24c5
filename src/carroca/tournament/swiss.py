"""Swiss pairing: a minimum-cost perfect matching over the standings.

Entrants come in standings order (`Contender`s). Every possible pair gets a cost, a tuple of
criteria from the most important down (see `matching`):

1. no second bye for anyone while some entrant has had none;
2. no pair meets again while that can be avoided: the fewest pairs that met before, then the
   fewest earlier meetings among them;
3. the bye goes to the lowest-ranked entrant without one (in a large field: who floats down);
4. entrants meet others of their own score: the square of the score difference;
5. within a score group, the top half meets the bottom half in order (1st with the first of
   the bottom half, …), as the Dutch system does; a floater meets the top of the group below;
6. a per-round draw from the event's seed, so equal pairings are settled by the seed and not by
   the matching algorithm's internals.

The bye is an extra node, present when the count is odd. Up to `EXACT_LIMIT` entrants the
matching is solved over every pair at once, and the criteria hold exactly. Above it, blossom
over every pair is too slow (O(n³): seconds for 1,000 entrants), so the field is cut into
blocks of at most `BLOCK` entrants along the score groups (a larger group is dealt into
interleaved blocks, which keeps its top-half-against-bottom-half shape), each block is matched
on its own from the top, and who cannot be paired well in a block floats down into the next;
the bye is settled first (the lowest-ranked without one). A block that still has to repeat a
pair is merged with its neighbour and the field matched again, up to `MERGE_LIMIT` entrants in
a block.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

from carroca.tournament.matching import Cost, Edge, min_cost_matching
from carroca.tournament.seeds import jitter

#: Fields up to this size are matched in one piece, every criterion exact.
EXACT_LIMIT = 64
#: The size of a block in a larger field.
BLOCK = 32
#: The largest block that merging (to avoid a repeat) may build.
MERGE_LIMIT = 160

_BYE = ("bye",)


@dataclass(frozen=True)
class Contender:
    """An entrant to pair, as the standings see it now."""

    id: str
    points: int
    byes: int = 0


@dataclass(frozen=True)
class SwissPairing:
    """The round: pairs (higher-ranked first) from the top board down, and who has the bye."""

    pairs: tuple[tuple[str, str], ...]
    bye: str | None


def _key(a: str, b: str) -> frozenset[str]:
    return frozenset((a, b))


class _Field:
    """The contenders with their rank, score group and place in it."""

    def __init__(self, contenders: Sequence[Contender], met: Mapping[frozenset[str], int],
                 keys: Mapping[str, int]) -> None:
        self.by_id = {c.id: c for c in contenders}
        self.rank = {c.id: r for r, c in enumerate(contenders)}
        self.met = met
        self.keys = keys
        self.n = len(contenders)
        self.group_of: dict[str, tuple[int, int]] = {}  # id -> (place in group, group size)
        self.groups: list[list[str]] = []
        for c in contenders:
            if self.groups and self.by_id[self.groups[-1][0]].points == c.points:
                self.groups[-1].append(c.id)
            else:
                self.groups.append([c.id])
        for group in self.groups:
            for place, i in enumerate(group):
                self.group_of[i] = (place, len(group))

    def pair_cost(self, a: str, b: str) -> Cost:
        hi, lo = (a, b) if self.rank[a] < self.rank[b] else (b, a)
        diff = self.by_id[hi].points - self.by_id[lo].points
        p_hi, g_hi = self.group_of[hi]
        p_lo = self.group_of[lo][0]
        # In a group the top half meets the bottom half; across groups the bottom of the
        # group above meets the top of the group below.
        fold = (p_lo - p_hi - g_hi // 2) ** 2 if diff == 0 else (g_hi - 1 - p_hi) ** 2 + p_lo**2
        met = self.met.get(_key(a, b), 0)
        return (0, 1 if met else 0, met, 0, diff * diff, fold,
                jitter(self.keys.get(a, 0), self.keys.get(b, 0)))

    def bye_cost(self, a: str) -> Cost:
        return (1 if self.by_id[a].byes else 0, 0, 0, self.n - 1 - self.rank[a], 0, 0, 0)

    def float_cost(self, a: str, carried: bool) -> Cost:
        return (0, 0, 0, 1 + self.n - self.rank[a] + (self.n + 1 if carried else 0), 0, 0, 0)

    def repeats(self, pairs: Sequence[tuple[str, str]]) -> int:
        return sum(1 for a, b in pairs if self.met.get(_key(a, b), 0))


def pair_swiss(
    contenders: Sequence[Contender],
    met: Mapping[frozenset[str], int],
    keys: Mapping[str, int],
    *,
    exact_limit: int = EXACT_LIMIT,
    block: int = BLOCK,
) -> SwissPairing:
    """Pair one round. `contenders` in standings order (points first), `met` counts earlier
    meetings per pair (`frozenset({a, b})`), `keys` are the round's draw (`seeds.round_keys`)."""
    field = _Field(contenders, met, keys)
    ids = [c.id for c in contenders]
    if len(ids) <= exact_limit:
        pairs, bye = _exact(field, ids)
    else:
        pairs, bye = _in_blocks(field, ids, block)
    pairs.sort(key=lambda p: field.rank[p[0]])
    return SwissPairing(tuple(pairs), bye)


def _ordered(field: _Field, a: str, b: str) -> tuple[str, str]:
    return (a, b) if field.rank[a] < field.rank[b] else (b, a)


def _exact(field: _Field, ids: list[str]) -> tuple[list[tuple[str, str]], str | None]:
    nodes: list[Hashable] = list(ids)
    edges: list[Edge] = [
        (a, b, field.pair_cost(a, b)) for i, a in enumerate(ids) for b in ids[i + 1:]
    ]
    if len(ids) % 2:
        nodes.append(_BYE)
        edges += [(a, _BYE, field.bye_cost(a)) for a in ids]
    bye = None
    pairs = []
    for u, v in min_cost_matching(nodes, edges):
        if v == _BYE:
            bye = str(u)
        else:
            pairs.append(_ordered(field, str(u), str(v)))
    return pairs, bye


def _blocks(groups: list[list[str]], size: int) -> list[list[str]]:
    """Whole score groups gathered up to `size`; a larger group dealt into interleaved blocks."""
    blocks: list[list[str]] = []
    current: list[str] = []
    for group in groups:
        if len(group) > size:
            if current:
                blocks.append(current)
                current = []
            count = -(-len(group) // size)
            blocks += [group[k::count] for k in range(count)]
        else:
            if current and len(current) + len(group) > size:
                blocks.append(current)
                current = []
            current += group
    if current:
        blocks.append(current)
    return blocks


def _in_blocks(
    field: _Field, ids: list[str], size: int
) -> tuple[list[tuple[str, str]], str | None]:
    bye = None
    if len(ids) % 2:  # the lowest-ranked among those with the fewest byes
        bye = min(ids, key=lambda i: (field.by_id[i].byes, -field.rank[i]))
    rest = set(ids) - {bye}
    groups = [[i for i in g if i in rest] for g in field.groups]
    blocks = _blocks([g for g in groups if g], size)
    while True:
        pairs, repeat_at = _match_blocks(field, blocks)
        if repeat_at is None:
            return pairs, bye
        b = repeat_at if repeat_at > 0 else 1
        if b >= len(blocks) or len(blocks[b - 1]) + len(blocks[b]) > MERGE_LIMIT:
            return pairs, bye  # no neighbour within reach: the repeat stands
        blocks = [*blocks[: b - 1], blocks[b - 1] + blocks[b], *blocks[b + 1:]]


def _match_blocks(
    field: _Field, blocks: list[list[str]]
) -> tuple[list[tuple[str, str]], int | None]:
    """Match block after block, floaters carried down; the first block that repeats a pair."""
    pairs: list[tuple[str, str]] = []
    carry: list[str] = []
    first_repeat: int | None = None
    for b, block in enumerate(blocks):
        members = sorted(carry + block, key=field.rank.__getitem__)
        carried = set(carry)
        nodes: list[Hashable] = list(members)
        edges: list[Edge] = [
            (a, c, field.pair_cost(a, c))
            for i, a in enumerate(members) for c in members[i + 1:]
        ]
        if b < len(blocks) - 1:  # room to float down: one for parity, two more against repeats
            downs = [("down", k) for k in range(len(members) % 2 + 2)]
            nodes += downs
            zero = (0, 0, 0, 0, 0, 0, 0)
            edges += [(a, d, field.float_cost(a, a in carried)) for a in members for d in downs]
            edges += [(d, e, zero) for k, d in enumerate(downs) for e in downs[k + 1:]]
        carry = []
        found = []
        for u, v in min_cost_matching(nodes, edges):
            if isinstance(u, str) and isinstance(v, str):
                found.append(_ordered(field, u, v))
            elif isinstance(u, str):
                carry.append(u)
            elif isinstance(v, str):
                carry.append(v)
        if first_repeat is None and field.repeats(found):
            first_repeat = b
        pairs += found
    return pairs, first_repeat
