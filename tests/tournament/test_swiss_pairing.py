"""Swiss pairing's properties, over arbitrary standings and histories (Hypothesis).

Everyone is paired once per round (or has the bye); nobody has a second bye while someone has
had none; no pair meets again while some pairing avoids it (checked against every possible
pairing, by brute force); the answer is a function of the input and the seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st
from tests.support.examples import examples

from carroca.tournament import Entrant, EventSpec, Tournament, seeds
from carroca.tournament.knockout import bracket_order
from carroca.tournament.swiss import Contender, SwissPairing, pair_swiss

SEEDS = st.binary(min_size=32, max_size=32).map(bytes.hex)


@st.composite
def fields(draw: st.DrawFn, low: int = 2, high: int = 11) -> tuple[
        list[Contender], dict[frozenset[str], int], dict[str, int]]:
    n = draw(st.integers(low, high))
    ids = [f"e{i}" for i in range(n)]
    points = sorted(draw(st.lists(st.integers(0, 4), min_size=n, max_size=n)), reverse=True)
    byes = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    pairs = [frozenset((a, b)) for i, a in enumerate(ids) for b in ids[i + 1:]]
    met_pairs = draw(st.lists(st.sampled_from(pairs), max_size=3 * n)) if pairs else []
    met: dict[frozenset[str], int] = {}
    for p in met_pairs:
        met[p] = met.get(p, 0) + 1
    seed = draw(SEEDS)
    keys = seeds.round_keys(seed, draw(st.integers(1, 9)), ids)
    return ([Contender(i, p, b) for i, p, b in zip(ids, points, byes, strict=True)], met, keys)


def matchings(nodes: list[str]) -> Iterator[list[tuple[str, str]]]:
    if not nodes:
        yield []
        return
    first, rest = nodes[0], nodes[1:]
    for k, other in enumerate(rest):
        for tail in matchings(rest[:k] + rest[k + 1:]):
            yield [(first, other), *tail]


def badness(pairs: list[tuple[str, str]], bye: str | None, met: dict[frozenset[str], int],
            byes: dict[str, int]) -> tuple[int, int]:
    """(second byes, repeated pairs): the two criteria that outrank everything else."""
    second = 1 if bye is not None and byes[bye] else 0
    return second, sum(1 for a, b in pairs if met.get(frozenset((a, b)), 0))


def best_badness(ids: list[str], met: dict[frozenset[str], int], byes: dict[str, int]) -> tuple[
        int, int]:
    nodes = [*ids, "BYE"] if len(ids) % 2 else ids
    best = None
    for m in matchings(nodes):
        bye = next((a if b == "BYE" else b for a, b in m if "BYE" in (a, b)), None)
        real = [(a, b) for a, b in m if "BYE" not in (a, b)]
        value = badness(real, bye, met, byes)
        best = value if best is None or value < best else best
    assert best is not None
    return best


def everyone_once(pairing: SwissPairing, ids: list[str]) -> None:
    seen = [e for pair in pairing.pairs for e in pair] + ([pairing.bye] if pairing.bye else [])
    assert sorted(seen) == sorted(ids)
    assert (pairing.bye is None) == (len(ids) % 2 == 0)


@settings(max_examples=examples(150), deadline=None)
@given(fields())
def test_no_repeat_and_no_second_bye_while_avoidable(field: tuple[
        list[Contender], dict[frozenset[str], int], dict[str, int]]) -> None:
    contenders, met, keys = field
    ids = [c.id for c in contenders]
    byes = {c.id: c.byes for c in contenders}
    pairing = pair_swiss(contenders, met, keys)
    everyone_once(pairing, ids)
    assert badness(list(pairing.pairs), pairing.bye, met, byes) == best_badness(ids, met, byes)
    if pairing.bye is not None and any(b == 0 for b in byes.values()):
        assert byes[pairing.bye] == 0


@settings(max_examples=examples(100), deadline=None)
@given(fields(), st.randoms(use_true_random=False))
def test_the_same_input_gives_the_same_pairing(field: tuple[
        list[Contender], dict[frozenset[str], int], dict[str, int]], rnd: random.Random) -> None:
    contenders, met, keys = field
    again = dict(sorted(met.items(), key=lambda _: rnd.random()))  # another insertion order
    assert pair_swiss(contenders, met, keys) == pair_swiss(contenders, again, dict(keys))


@settings(max_examples=examples(100), deadline=None)
@given(fields(low=3, high=11))
def test_the_bye_goes_to_the_lowest_ranked_without_one(field: tuple[
        list[Contender], dict[frozenset[str], int], dict[str, int]]) -> None:
    contenders, _, keys = field
    if len(contenders) % 2 == 0:
        contenders = contenders[:-1]
    pairing = pair_swiss(contenders, {}, keys)  # no history: nothing outranks the bye rule
    fewest = min(c.byes for c in contenders)
    assert pairing.bye == [c.id for c in contenders if c.byes == fewest][-1]


@settings(max_examples=examples(60), deadline=None)
@given(fields(low=5, high=40), st.integers(4, 8))
def test_large_fields_in_blocks_pair_everyone_once(field: tuple[
        list[Contender], dict[frozenset[str], int], dict[str, int]], block: int) -> None:
    """The block-wise path (for fields above EXACT_LIMIT), forced here on small fields."""
    contenders, met, keys = field
    ids = [c.id for c in contenders]
    pairing = pair_swiss(contenders, met, keys, exact_limit=4, block=block)
    everyone_once(pairing, ids)
    assert pairing == pair_swiss(contenders, met, keys, exact_limit=4, block=block)
    if pairing.bye is not None:
        fewest = min(c.byes for c in contenders)
        assert pairing.bye == [c.id for c in contenders if c.byes == fewest][-1]


def test_a_whole_swiss_in_blocks_repeats_no_pair() -> None:
    """Six rounds of 60 through the block-wise path with random results: no pair twice."""
    rnd = random.Random(5)
    ids = [f"e{i:02d}" for i in range(59)]
    points = dict.fromkeys(ids, 0)
    byes = dict.fromkeys(ids, 0)
    met: dict[frozenset[str], int] = {}
    for number in range(1, 7):
        order = sorted(ids, key=lambda e: (-points[e], e))
        keys = seeds.round_keys("ab" * 32, number, ids)
        pairing = pair_swiss([Contender(e, points[e], byes[e]) for e in order], met, keys,
                             exact_limit=10, block=8)
        everyone_once(pairing, ids)
        for a, b in pairing.pairs:
            assert frozenset((a, b)) not in met
            met[frozenset((a, b))] = 1
            points[a if rnd.random() < 0.5 else b] += 1
        assert pairing.bye is not None and byes[pairing.bye] == 0
        byes[pairing.bye] += 1
        points[pairing.bye] += 1


def test_score_groups_meet_top_half_against_bottom_half() -> None:
    contenders = [Contender(f"e{i}", 0) for i in range(8)]
    pairing = pair_swiss(contenders, {}, {})
    assert pairing.pairs == (("e0", "e4"), ("e1", "e5"), ("e2", "e6"), ("e3", "e7"))
    # two groups of four: each folds in itself
    contenders = [Contender(f"e{i}", 1 if i < 4 else 0) for i in range(8)]
    assert pair_swiss(contenders, {}, {}).pairs == (("e0", "e2"), ("e1", "e3"),
                                                    ("e4", "e6"), ("e5", "e7"))
    # an odd group: its lowest floats down to meet the top of the next group
    contenders = [Contender(f"e{i}", 1 if i < 3 else 0) for i in range(6)]
    assert pair_swiss(contenders, {}, {}).pairs == (("e0", "e1"), ("e2", "e3"), ("e4", "e5"))


@settings(max_examples=examples(25), deadline=None)
@given(st.integers(3, 9), st.integers(0, 2**32), SEEDS)
def test_an_event_gives_nobody_a_second_bye(n: int, draw: int, event_seed: str) -> None:
    """Through the director, results by forfeit (quick): as many rounds as entrants allow."""
    rnd = random.Random(draw)
    t = Tournament.create(EventSpec("swiss", "mano-a-mano", rounds=n - 1 if n % 2 else n - 2),
                          "prop", event_seed)
    for i in range(n):
        t.register(Entrant(f"e{i}", f"e{i}", (f"e{i}",)))
    t.start()
    while not t.is_finished:
        rnd_ = t.pair_next_round()
        everyone_once(SwissPairing(tuple(tie.sides for tie in rnd_.ties),
                                   rnd_.byes[0] if rnd_.byes else None), [e.id for e in
                                                                           t.entrants])
        for game in t.pending_games():
            t.record_forfeit(game.key, [game.sides[rnd.randrange(2)]])
    assert all(s.byes <= 1 for s in t.standings())
    again = Tournament.create(t.spec, "prop", event_seed)
    for e in t.registrations:
        again.register(e)
    again.start()
    assert [e.id for e in again.entrants] == [e.id for e in t.entrants]
    assert again.pair_next_round().ties[0].sides == t.rounds[0].ties[0].sides


def test_bracket_order() -> None:
    assert bracket_order(2) == [1, 2]
    assert bracket_order(4) == [1, 4, 2, 3]
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert sorted(bracket_order(64)) == list(range(1, 65))
