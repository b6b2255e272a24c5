"""The current expert's beliefs and budgets: weights read only the observation, a hand-checked
weighting, reproducible deterministic budgets and a wall-time budget that stops."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import replace

import pytest
from tests.support.scripted import deal_shuffled, random_position

from carroca.bots import make_bot
from carroca.bots.expert import ExpertBot
from carroca.bots.expert.belief import (
    ANY,
    EXPERT_PONTOS,
    TABLE_PLAYER_PONTOS,
    Belief,
    Params,
    decisions,
    model_priors,
    models_named,
    opening_kind,
    previous_hand,
    resample,
)
from carroca.bots.expert.knowledge import read
from carroca.bots.expert.planner import (
    BATCH,
    MIN_WORLDS,
    Config,
    deferred,
    rate_actions,
)
from carroca.bots.expert.posterior import listed
from carroca.bots.expert.search import Rated
from carroca.bots.medium import MediumBot
from carroca.rules import Action, IllegalMove, Match, Observation, get_ruleset, observation
from carroca.rules import actions as A
from carroca.rules import tiles as T
from carroca.rules.observation import public_step


def _tiles(*names: str) -> list[int]:
    return [T.parse(n) for n in names]


def _second_hand(name: str, rng: random.Random) -> Match:
    """A match whose first hand was played at random: the second opens by a chosen tile."""
    m = Match(name)
    deal_shuffled(m, rng)
    while m.current_player is not None:
        m.apply(rng.choice(m.legal_actions()))
    return m


def _second_hand_dealt(name: str, rng: random.Random) -> Match:
    """`_second_hand` with its second hand dealt."""
    m = _second_hand(name, rng)
    deal_shuffled(m, rng)
    return m


def test_partner_who_opened_with_six_six_more_likely_holds_a_six() -> None:
    """duplas-torneio, second hand, the opener chose 6-6 among seven tiles.

    With only the `keep` term (1 per other tile sharing a number), the opener's hand
    {6-6, 5-6, 0-1, 0-2, 1-3, 2-3, 4-4} scores 6-6 at 1 and gives P(6-6) = e / (1 + 2e + 4e²);
    swap 5-6 for 4-5 and 6-6 scores 0: P(6-6) = 1 / (1 + 2e + 4e²). The log weights differ by
    exactly 1; the next seat's 1-6, which fitted both ends showing 6, is 1/2 in every world.
    """
    m = _second_hand("duplas-torneio", random.Random("belief"))
    assert m.hand_rule[0] == "any"
    o = m.hand_rule[1]
    held = {
        o: _tiles("6-6", "5-6", "0-1", "0-2", "1-3", "2-3", "4-4"),
        (o + 1) % 4: _tiles("1-6", "3-4", "5-5", "0-0", "1-1", "2-2", "3-5"),
        (o + 2) % 4: _tiles("2-6", "0-3", "0-4", "0-5", "0-6", "1-4", "1-5"),
        (o + 3) % 4: _tiles("1-2", "2-4", "2-5", "3-3", "3-6", "4-5", "4-6"),
    }
    m.deal([t for s in range(4) for t in held[s]])
    assert m.turn == o
    m.apply(m.legal_actions()[_tiles("0-1", "0-2", "1-3", "2-3", "4-4", "5-6", "6-6").index(
        T.parse("6-6"))])
    assert m.table[-1][1] == T.parse("6-6")
    only = m.legal_actions()
    assert len(only) == 2 and {a.tile for a in only} == {T.parse("1-6")}  # 1-6 on either end
    m.apply(only[0])
    seeing = (o + 2) % 4
    obs = observation(m, seeing)
    assert opening_kind(obs) == ANY
    real = list(m.hands)
    swapped = list(real)
    swapped[o] = real[o] ^ T.BIT[T.parse("5-6")] | T.BIT[T.parse("4-5")]
    swapped[(o + 3) % 4] = real[(o + 3) % 4] ^ T.BIT[T.parse("4-5")] | T.BIT[T.parse("5-6")]
    keep_only = Belief(obs, Params(pips=0.0, double=0.0, keep=1.0, points=0.0))
    assert [d.seat for d in keep_only.decisions] == [o, (o + 1) % 4]
    e = math.e
    expected = 1 - math.log(1 + 2 * e + 4 * e * e) - math.log(2)
    assert keep_only.log_weight(real) == pytest.approx(expected)
    assert keep_only.log_weight(real) - keep_only.log_weight(swapped) == pytest.approx(1.0)
    default = Belief(obs)
    assert default.log_weight(real) > default.log_weight(swapped)
    assert Belief(obs, Params(scale=0.0)).log_weight(real) == 0.0


def test_a_skipped_double_makes_holding_it_less_likely() -> None:
    """A seat that played 1-2 where 6-6 also fitted: worlds where it held 6-6 weigh less."""
    m = Match("bloqueio")
    m.deal(
        _tiles("6-1", "0-0", "0-1", "0-2", "0-3", "0-4", "0-5")
        + _tiles("6-6", "1-2", "1-1", "1-3", "1-4", "1-5", "2-2")
        + _tiles("0-6", "2-3", "2-4", "2-5", "2-6", "3-3", "3-4", "3-5", "3-6", "4-4", "4-5",
                 "4-6", "5-5", "5-6")
    )
    assert m.turn == 1  # the 6-6 opens the first hand
    m.apply(m.legal_actions()[0])
    m.apply(next(a for a in m.legal_actions() if a.tile == T.parse("1-6")))
    hand = m.hands[1]
    m.apply(next(a for a in m.legal_actions() if a.tile == T.parse("1-2")))  # over 1-1, 1-3, …
    obs = observation(m, 0)
    belief = Belief(obs, Params(pips=0.0, double=1.0, keep=0.0, points=0.0))
    [d] = decisions(obs)
    assert (d.seat, d.tile) == (1, T.parse("1-2"))
    real = list(m.hands)
    assert real[1] == hand ^ T.BIT[T.parse("1-2")]
    # the options were 1-1 (a double) and four other ones: P(1-2) = 1 / (4 + e)
    assert belief.log_weight(real) == pytest.approx(-math.log(4 + math.e))


def _one_six_left() -> Match:
    """duplas-pontos, first hand: 6-6 opens (forced), seat 1 plays 1-6 on the left holding 3-6:
    the one play of another seat that seat 2 can read."""
    m = Match("duplas-pontos")
    m.deal(_tiles("6-6", "0-0", "0-1", "0-2", "0-3", "0-4", "0-5")
           + _tiles("1-6", "3-6", "1-1", "1-2", "2-2", "2-3", "2-4")
           + _tiles("0-6", "1-4", "1-5", "3-3", "3-4", "3-5", "4-4")
           + _tiles("1-3", "2-5", "2-6", "4-5", "4-6", "5-5", "5-6"))
    assert m.turn == 0
    m.apply(m.legal_actions()[0])
    play = next(a for a in m.legal_actions() if a.tile == T.parse("1-6") and a.end_name == "left")
    m.apply(play)
    return m


def test_leaving_the_next_seat_points_makes_holding_the_answer_likelier() -> None:
    """duplas-pontos, first hand: 6-6 opens, the next seat plays 1-6 on the left holding 3-6.

    With only the `threat` reason at 0.5 (0.1 a reply point), 1-6 on either arm leaves the next
    seat 1-3 on the 1 for 3 + 12 = 15 points, 3-6 leaves 6-2 on the other arm for 3 + 2 = 5:
    scores -1.5, -0.5, -1.5, -0.5 and P(1-6 left) = 1 / (2 + 2e). Had the seat held 1-3 itself,
    the best reply to 1-6 would be 6-4 on the other arm, 1 + 4 = 5: all four at -0.5, P = 1/4.
    So a world where it held the answer to its own play is the likelier one.
    """
    m = _one_six_left()
    obs = observation(m, 2)
    threat = Belief(obs, Params(pips=0.0, double=0.0, keep=0.0, points=0.0, threat=0.5))
    [d] = threat.decisions
    assert (d.seat, d.tile, d.end) == (1, T.parse("1-6"), 0)
    real = list(m.hands)
    scores, chosen = threat.scores(d, real[1] | d.later, threat.reads[0][0])
    assert scores == pytest.approx([-1.5, -0.5, -1.5, -0.5]) and chosen == 0
    assert threat.log_weight(real) == pytest.approx(-math.log(2 + 2 * math.e))
    swap = T.BIT[T.parse("1-3")] | T.BIT[T.parse("2-4")]
    held = [real[0], real[1] ^ swap, real[2], real[3] ^ swap]
    assert threat.log_weight(held) == pytest.approx(-math.log(4))
    # with only `soft_next`: (2/3)^n, n the tiles that could answer. 1-6 leaves 1 and 6 open:
    # 13 such tiles, 6-6 and 1-6 on the table, 3-6, 1-1 and 1-2 in hand, so 8; 3-6 leaves 3
    # and 6: 13, less 6-6, 3-6, 1-6 and 2-3, so 9
    soft = Belief(obs, Params(pips=0.0, double=0.0, keep=0.0, points=0.0, soft_next=1.0))
    scores, _ = soft.scores(d, real[1] | d.later, soft.reads[0][0])
    assert scores == pytest.approx([(2 / 3) ** n for n in (8, 9, 8, 9)])
    # the fitted model reads the same: the world with the answer in hand weighs more
    fitted = Belief(obs, TABLE_PLAYER_PONTOS)
    assert fitted.log_weight(held) > fitted.log_weight(real)
    # the partner's model reads the partner's plays only: seat 1 is seat 3's partner
    partner = Params(scale=0.0)
    assert Belief(obs, threat.params, partner).models == [(threat.params,)]
    seen_by_partner = Belief(observation(m, 3), threat.params, partner)
    assert seen_by_partner.models == [(partner,)] and seen_by_partner.reads == [(None,)]
    assert seen_by_partner.log_weight(real) == pytest.approx(-math.log(4))  # uniform: 1/4


def test_a_mixture_weighs_a_world_by_the_mean_of_its_models() -> None:
    """Seat 1's one play read by two models at once: the world's weight is the mean of the two
    likelihoods, P(1-6 left) = (1/(2 + 2e) + 1/4) / 2 with the threat model and a random
    player (scale 0: every play alike); the partner's mixture reads only the partner's plays."""
    m = _one_six_left()
    obs = observation(m, 2)
    real = list(m.hands)
    threat = Params(pips=0.0, double=0.0, keep=0.0, points=0.0, threat=0.5)
    random_player = Params(scale=0.0)
    mixed = Belief(obs, (threat, random_player))
    assert mixed.models == [(threat, random_player)] and len(mixed.reads[0]) == 2
    assert math.exp(mixed.log_weight(real)) == pytest.approx(
        (1 / (2 + 2 * math.e) + 1 / 4) / 2)
    # a mixture of one model twice is that model
    assert Belief(obs, (threat, threat)).log_weight(real) == pytest.approx(
        Belief(obs, threat).log_weight(real))
    # seat 1 is seat 3's partner: seat 3 reads it by the partner's mixture
    by_partner = Belief(observation(m, 3), random_player, (threat, TABLE_PLAYER_PONTOS))
    assert by_partner.models == [(threat, TABLE_PLAYER_PONTOS)]
    expected = (math.exp(Belief(observation(m, 3), threat).log_weight(real))
                + math.exp(Belief(observation(m, 3), TABLE_PLAYER_PONTOS).log_weight(real))) / 2
    assert math.exp(by_partner.log_weight(real)) == pytest.approx(expected)


def _seat_parts(obs: Observation, models: tuple[Params, ...], world: list[int], seat: int
                ) -> list[float]:
    """Each model's Σ log P over `seat`'s plays in `obs`, the seats holding `world` now, read
    by single-model beliefs (the mixture's parts, computed apart from it)."""
    out = []
    for q in models:
        b = Belief(obs, q)
        out.append(sum(b.log_p(d, world[d.seat] | d.later, b.reads[i][0], q)
                       for i, d in enumerate(b.decisions) if d.seat == seat))
    return out


def test_a_mixture_is_product_per_seat_not_per_play() -> None:
    """Two plays of one seat: the mixture multiplies each model's likelihoods over the plays,
    then takes their mean (a seat is one kind of player for the whole hand)."""
    rng = random.Random(5)

    def read_twice(m: Match) -> bool:  # first hand; every other seat has two plays to read
        if m.current_player is None or m.history:
            return False
        plays: dict[int, int] = {}
        for d in decisions(observation(m, m.turn)):
            plays[d.seat] = plays.get(d.seat, 0) + 1
        return len(plays) == 3 and min(plays.values()) >= 2

    mix = (Params(), TABLE_PLAYER_PONTOS)
    for _ in range(5):
        m = random_position("duplas-pontos", rng, None, read_twice)
        obs = observation(m, m.turn)
        world = list(m.hands)
        expected = 0.0
        for seat in (s for s in range(4) if s != m.turn):
            parts = _seat_parts(obs, mix, world, seat)
            expected += math.log((math.exp(parts[0]) + math.exp(parts[1])) / 2)
        belief = Belief(obs, mix)
        assert belief.priors == {}
        assert belief.log_weight(world) == pytest.approx(expected)


def _three_plays_read(m: Match) -> bool:
    return len(decisions(observation(m, 0))) >= 3


def _second_hand_until(m: Match, seed: int, ready: Callable[[Match], bool]) -> bool:
    """Deal `m`'s second hand (shuffled by `seed`) and play it by `medium` until `ready`; False
    when the hand ended first."""
    deal_shuffled(m, random.Random(seed))
    bots = [MediumBot() for _ in range(4)]
    while m.current_player is not None and not ready(m):
        m.apply(bots[m.turn].choose(observation(m, m.turn)), m.turn)
    return m.current_player is not None


def test_the_previous_hand_is_each_models_prior() -> None:
    """Second hand: P(model) for each seat is its likelihood of that seat's plays in the first
    hand (from the hand's true steps and hands, as the match logged them), normalised; a world's
    weight is Σ over the models of P(model) × that model's likelihood of this hand's plays."""
    mix = (Params(), TABLE_PLAYER_PONTOS)
    checked = 0
    for seed in range(3):
        m, ends = _played_to_second_hand(("medium", "random", "medium", "random"), seed)
        if m.is_over or not m.history[-1].steps:
            continue
        log = m.history[-1]
        held = [sum(T.BIT[t] for t in tiles) for tiles in log.dealt]
        for step in log.steps:
            if step.action.kind == A.PLAY:
                held[step.seat] ^= T.BIT[step.action.tile]
        true_first = replace(ends[0], steps=tuple(public_step(step) for step in log.steps),
                             last_hand=None)
        if not _second_hand_until(m, seed, _three_plays_read):
            continue
        obs = observation(m, 0)
        belief = Belief(obs, mix)
        world = list(m.hands)
        expected = 0.0
        for seat in (1, 2, 3):
            first = _seat_parts(true_first, mix, held, seat)
            norm = math.log(sum(math.exp(x) for x in first))
            assert belief.priors[seat] == pytest.approx([x - norm for x in first])
            now = _seat_parts(obs, mix, world, seat)
            expected += math.log(sum(math.exp(w + x) for w, x in
                                     zip(belief.priors[seat], now, strict=True)))
        assert belief.log_weight(world) == pytest.approx(expected)
        checked += 1
    assert checked >= 2


def test_select_reads_each_seat_by_the_model_its_previous_hand_chose() -> None:
    """`select`: no mixing. In the first hand every seat is read by the first model; from the
    second on, each seat by the one model with the highest prior (its previous hand's plays)."""
    mix = (Params(), TABLE_PLAYER_PONTOS)
    rng = random.Random(8)
    first = random_position("duplas-pontos", rng, None,
                            lambda m: not m.history and len(decisions(observation(m, m.turn))) > 4)
    obs = observation(first, first.turn)
    assert Belief(obs, mix, select=True).log_weight(list(first.hands)) == pytest.approx(
        Belief(obs, mix[0]).log_weight(list(first.hands)))
    checked = 0
    for seed in range(3):
        m, _ = _played_to_second_hand(("medium", "random", "medium", "random"), seed)
        if m.is_over or not m.history[-1].steps:
            continue
        if not _second_hand_until(m, seed, _three_plays_read):
            continue
        obs = observation(m, 0)
        chosen = Belief(obs, mix, select=True)
        world = list(m.hands)
        expected = 0.0
        for seat in (1, 2, 3):
            prior = chosen.priors[seat]
            best = max(range(len(mix)), key=prior.__getitem__)
            expected += _seat_parts(obs, mix, world, seat)[best]
        assert chosen.log_weight(world) == pytest.approx(expected)
        assert chosen.log_weight(world) != pytest.approx(Belief(obs, mix).log_weight(world))
        checked += 1
    assert checked >= 2


def test_duplas_pontos_defaults_are_the_measured_setting() -> None:
    """`Config()` in duplas-pontos: the other team by `Params()` or the table player, chosen
    per seat; the partner by the expert's model; every deal listed late in a hand."""
    measured = Config(params=(Params(), TABLE_PLAYER_PONTOS), partner=EXPERT_PONTOS, select=1,
                      posterior=6000)
    plain = Config(params=Params(), partner=Params(), select=0, posterior=0)
    differs = 0
    for seed in range(4):
        m, _ = _played_to_second_hand(("medium",) * 4, seed)
        if m.is_over:
            continue
        if not _second_hand_until(m, seed,
                                  lambda m: len(m.steps) >= 10 and len(m.legal_actions()) >= 2):
            continue
        obs = observation(m, m.turn)
        default = rate_actions(obs, random.Random(1), 0, 40)
        assert default == rate_actions(obs, random.Random(1), 0, 40, measured)
        differs += default != rate_actions(obs, random.Random(1), 0, 40, plain)
    assert differs >= 1


def _played_to_second_hand(levels: tuple[str, ...], seed: int) -> tuple[Match, list[Observation]]:
    """duplas-pontos played by `levels` (per seat) to the first turn of the second hand, and
    each seat's last observation of the first hand."""
    m = Match("duplas-pontos", get_ruleset("duplas-pontos").make_options({"target": 300}))
    bots = [make_bot(level, seed * 10 + i) for i, level in enumerate(levels)]
    rng = random.Random(seed)
    last: dict[int, Observation] = {}
    while True:
        if m.needs_deal:
            if m.history:
                return m, [last[s] for s in range(4)]
            deal_shuffled(m, rng)
            continue
        seat = m.turn
        last[seat] = observation(m, seat)
        m.apply(bots[seat].choose(last[seat]), seat)


def test_previous_hand_is_its_plays_and_passes_with_the_hands_left() -> None:
    for seed in range(3):
        m, ends = _played_to_second_hand(("medium",) * 4, seed)
        if m.is_over or m.history[-1].end.kind == "redeal":
            continue
        m.deal(list(range(28)))
        obs = observation(m, 0)
        past = previous_hand(obs)
        assert past is not None
        view, held = past
        seen = max(ends, key=lambda o: len(o.steps))  # the view just before the last play
        last = view.steps[-1]
        assert last.kind == A.PLAY and view.steps[:-1] == tuple(
            step for i, step in enumerate(seen.steps) if step.kind != "pass" or any(
                p.kind == A.PLAY for p in seen.steps[:i]))
        assert held == [int(sum(T.BIT[T.parse(t)] for t in h))
                        for h in obs.last_hand["hands_left"]]  # type: ignore[index]
        assert view.last_hand is None and view.seat == 0
    assert previous_hand(observation(Match("duplas-pontos"), 0)) is None  # the first hand
    m = Match("mano-a-mano")  # a hand with draws says nothing for sure about the hands
    m.deal(list(range(28)))
    assert previous_hand(observation(m, 0)) is None


def test_the_previous_hand_tells_the_kind_of_player() -> None:
    """Seats that played the first hand as `medium` start the second one read as the table
    player (fitted to `medium`) rather than by `Params()`; seats that played at random, the
    other way round: on average, and at most seats (a hand of few choices says little)."""
    mix = (Params(), TABLE_PLAYER_PONTOS)
    odds: dict[bool, dict[tuple[int, int], float]] = {True: {}, False: {}}  # medium's, random's
    for seed in range(6):
        m, _ = _played_to_second_hand(("medium", "random", "medium", "random"), seed)
        if m.is_over:
            continue
        m.deal(list(range(28)))
        for seat in (0, 1):
            priors = model_priors(observation(m, seat), mix, None)
            assert set(priors) <= {0, 1, 2, 3} - {seat}
            for other, prior in priors.items():
                assert math.exp(prior[0]) + math.exp(prior[1]) == pytest.approx(1.0)
                odds[other % 2 == 0][seed, other] = prior[1] - prior[0]
        assert model_priors(observation(m, 0), Params(), None) == {}  # nothing to learn
    table, chance = list(odds[True].values()), list(odds[False].values())
    assert len(table) >= 8 and len(chance) >= 8
    assert sum(table) / len(table) > 1.0 and sum(chance) / len(chance) < -1.0
    assert sum(x > 0 for x in table) >= 2 / 3 * len(table)
    assert sum(x < 0 for x in chance) >= 0.6 * len(chance)

def test_models_by_name() -> None:
    assert models_named("default") == Params()
    assert models_named("default, table-player-pontos") == (Params(), TABLE_PLAYER_PONTOS)
    for bad in ("", "defualt", ",".join(["default"] * 9)):
        with pytest.raises(ValueError, match="belief models are"):
            models_named(bad)


def test_resample_follows_the_weights() -> None:
    assert resample([0.0, 0.0], 4, 0.5) == [0, 0, 1, 1]
    assert resample([0.0, -1e9, 0.0], 2, 0.1) == [0, 2]
    picks = resample([math.log(3.0), 0.0], 8, 0.25)
    assert picks.count(0) == 6 and picks.count(1) == 2


def _replay(name: str, first: list[int], first_steps: list[Action], second: list[int],
            steps: list[Action]) -> Match:
    m = Match(name)
    m.deal(first)
    for a in first_steps:
        m.apply(a)
    m.deal(second)
    for a in steps:
        m.apply(a)
    return m


def _redeal(real: Match, rng: random.Random) -> list[int] | None:
    """The second hand's deal with the seat's unknowns re-dealt: the other hands (and, in
    bloqueio, the tiles out of play) swap tiles, each keeping its size and every exclusion its
    passes proved; the tiles already played stay where they were."""
    seat = real.turn
    k = read(observation(real, seat), real.ruleset.spinner)
    holders = [s for s in range(real.n) if s != seat]
    pool = [t for s in holders for t in T.tiles_of(real.hands[s])] + list(real.boneyard)
    for _ in range(50):
        rng.shuffle(pool)
        new: dict[int, int] = {}
        start = 0
        for s in holders:
            size = real.hands[s].bit_count()
            new[s] = T.mask_of(pool[start : start + size])
            start += size
        if any(new[s] & k.excluded[s] for s in holders):
            continue
        order: list[int] = []
        for s in range(real.n):
            played = T.mask_of(real.dealt[s]) ^ real.hands[s]
            order += real.dealt[s] if s == seat else T.tiles_of(played | new[s])
        return order + pool[start:]
    return None


@pytest.mark.parametrize("posterior", [0, 20_000], ids=["batches", "posterior"])
@pytest.mark.parametrize("name", ["duplas-torneio", "duplas-pontos", "bloqueio"])
def test_decisions_and_beliefs_read_only_the_observation(name: str, posterior: int) -> None:
    """Second hands (so the opening tile is read too): other hands re-dealt, same public story
    replayed, the same observation, decisions read and evaluation; with the deals listed
    (`posterior`) too, late positions where they are."""
    rng = random.Random(f"twins-{name}-{posterior}")
    config = Config(posterior=posterior)
    checked = 0
    for _ in range(600):
        first = list(range(28))
        rng.shuffle(first)
        m = Match(name)
        m.deal(first)
        while m.current_player is not None:
            m.apply(rng.choice(m.legal_actions()))
        if not m.needs_deal:
            continue
        first_steps = [step.action for step in m.steps] or [s.action for s in m.history[-1].steps]
        second = list(range(28))
        rng.shuffle(second)
        m.deal(second)
        stop = rng.randrange(2, 16) if not posterior else rng.randrange(10, 20)
        while m.current_player is not None and len(m.steps) < stop:
            m.apply(rng.choice(m.legal_actions()))
        if m.current_player is None or len(m.legal_actions()) < 2 or not m.table:
            continue
        other = _redeal(m, rng)
        if other is None:
            continue
        steps = [step.action for step in m.steps]
        try:
            twin = _replay(name, first, first_steps, other, steps)
        except IllegalMove:
            continue  # e.g. a re-dealt opening seat or cinco carroças: another story
        if twin.hands == m.hands:
            continue
        seat = m.turn
        a_obs = observation(m, seat)
        b_obs = observation(twin, seat)
        assert a_obs == b_obs
        assert decisions(a_obs) == decisions(b_obs)
        every = Params(stuck_next=1.0, stuck_partner=1.0, threat=1.0, soft_next=1.0,
                       soft_partner=1.0, soft_later=1.0, follow=1.0, follow_ends=1.0,
                       variety=1.0)  # every reason read, the table's ones too
        mix = (Params(), every)
        a_belief, b_belief = Belief(a_obs, mix, (every, Params())), Belief(b_obs, mix,
                                                                           (every, Params()))
        assert a_belief.reads == b_belief.reads and a_belief.models == b_belief.models
        world = list(m.hands)
        assert a_belief.log_weight(world) == b_belief.log_weight(world)
        a_one, b_one = (Belief(o, mix, (every, Params()), select=True) for o in (a_obs, b_obs))
        assert a_one.priors == b_one.priors and a_one.log_weight(world) == b_one.log_weight(world)
        k = read(a_obs, get_ruleset(name).spinner)
        a_listed, b_listed = listed(k, a_belief, posterior), listed(k, b_belief, posterior)
        if posterior:
            if a_listed is None:
                continue  # too many deals to list: the batches' case
            assert b_listed is not None
            assert (a_listed.hands, a_listed.log_weights) == (b_listed.hands, b_listed.log_weights)
        a = ExpertBot(seed=9, worlds=24, config=config).evaluate(a_obs)
        b = ExpertBot(seed=9, worlds=24, config=config).evaluate(b_obs)
        assert a == b
        checked += 1
        if checked == 6:
            break
    assert checked == 6


def test_deterministic_budget_counts_worlds_and_reproduces() -> None:
    rng = random.Random("budget")
    m = _second_hand_dealt("duplas-torneio", rng)
    while len(m.legal_actions()) < 2 or m.opening_mask >= 0:
        m.apply(rng.choice(m.legal_actions()))
    obs = observation(m, m.turn)
    for worlds in (1, 5, 13, 40):
        plain = Config(race=0.0)  # every action in every world: the count is exact
        rated = rate_actions(obs, random.Random(3), 0, worlds, plain)
        assert {r.worlds for r in rated} == {max(MIN_WORLDS, worlds)}
        assert rated == rate_actions(obs, random.Random(3), 0, worlds, plain)
    raced = rate_actions(obs, random.Random(3), 0, 200)
    assert raced == rate_actions(obs, random.Random(3), 0, 200)
    assert max(r.worlds for r in raced) <= 200 and raced[0].worlds == max(r.worlds for r in raced)
    assert ExpertBot(7, worlds=30).choose(obs) == ExpertBot(7, worlds=30).choose(obs)


def test_wall_time_budget_stops_and_keeps_the_minimum() -> None:
    """No tight clock: 20 ms of thinking ends (well within seconds) after at least the floor."""
    m = _second_hand("duplas-pontos", random.Random("clock"))
    order = list(range(28))
    random.Random(1).shuffle(order)
    m.deal(order)
    rng = random.Random(2)
    while len(m.legal_actions()) < 2 or m.opening_mask >= 0:
        m.apply(rng.choice(m.legal_actions()))
    obs = observation(m, m.turn)
    start = time.perf_counter()
    rated = rate_actions(obs, random.Random(0), 20, 6)
    assert time.perf_counter() - start < 30
    assert rated[0].worlds >= 6
    # a wall budget plays out whole worlds, never fewer than asked, in batches of at most BATCH
    assert rated[0].worlds >= 6 and BATCH >= 1


def test_defer_keeps_mediums_move_unless_the_search_is_sure() -> None:
    """Hand-made playout values (paired by world): a small noisy edge leaves medium's move first;
    an edge of several standard errors takes the best surely-better action; a dropped action is
    never picked on its short record."""
    moves = [Rated(A.PASS_ACTION, 0.0, 0) for _ in range(4)]
    fav = [0.0, 10.0, -10.0, 5.0, -5.0, 0.0]
    noisy = [v + d for v, d in zip(fav, [3.0, -2.0, 4.0, -1.0, 2.0, -3.0], strict=True)]  # +0.5
    sure = [v + d for v, d in zip(fav, [4.0, 5.0, 6.0, 5.0, 4.0, 6.0], strict=True)]  # +5, SE 0.4
    dropped = [40.0, 40.0]  # far better on two worlds, then dropped by racing
    values = [fav, noisy, sure, dropped]
    rated = [Rated(r.action, sum(v) / len(v), len(v)) for r, v in zip(moves, values, strict=True)]
    first = deferred(rated, values, [0, 1, 2], 0, 1.0)[0]
    assert first is rated[2]  # sure beats medium's move by 12 SEs
    assert deferred(rated, [*values[:2], fav, dropped], [0, 1, 2], 0, 1.0)[0] is rated[0]
    ranked = deferred(rated, values, [0, 1], 0, 1.0)
    assert ranked[0] is rated[0]  # only the noisy edge still races: medium's move stays
    assert ranked[-1] is not rated[1] and rated[3] in ranked[2:]  # dropped ones last


def test_defer_plays_legal_moves_and_reads_only_the_observation() -> None:
    m = _second_hand_dealt("duplas-torneio", random.Random("defer"))
    bot = ExpertBot(seed=4, worlds=16, config=Config(defer=1.0))
    for _ in range(12):
        if m.current_player is None:
            break
        obs = observation(m, m.turn)
        action = bot.choose(obs)
        assert action in m.legal_actions()
        assert ExpertBot(seed=4, worlds=16, config=Config(defer=1.0)).choose(obs) == \
            ExpertBot(seed=4, worlds=16, config=Config(defer=1.0)).choose(obs)
        m.apply(action, m.turn)


def _playout_decisions(name: str, seed: str, count: int) -> list[Observation]:
    """Decisions among three plays or more early in a hand (before the exact solver)."""
    rng = random.Random(seed)
    found: list[Observation] = []
    while len(found) < count:
        m = random_position(name, rng, None, lambda m: len(m.table) >= rng.randrange(1, 9) and len(
            [a for a in m.legal_actions() if a.kind == A.PLAY]) >= 3)
        if sum(h.bit_count() for h in m.hands) > 16:
            found.append(observation(m, m.turn))
    return found


def test_near_searches_only_the_actions_medium_scores_close_to_its_move() -> None:
    """`near`: an action `medium` scores more than that below its move is not played out; with
    nothing that close, `medium`'s move comes back unsearched; a wide `near` changes nothing."""
    left_out = alone = 0
    for i, obs in enumerate(_playout_decisions("duplas-pontos", "near", 12)):
        marks = MediumBot().scores(obs)
        best = max(marks)
        favourite = obs.legal[marks.index(best)]
        rated = rate_actions(obs, random.Random(i), 0, 24, Config(near=10.0))
        searched = any(r.worlds for r in rated)  # not when only medium's move is close
        for r in rated:
            close = best - marks[obs.legal.index(r.action)] <= 10.0
            assert bool(r.worlds) == (close and searched)
            left_out += not close
        tight = rate_actions(obs, random.Random(i), 0, 24, Config(near=1e-9))
        if marks.count(best) == 1:
            alone += 1
            assert tight[0].action == favourite and not any(r.worlds for r in tight)
        assert rate_actions(obs, random.Random(i), 0, 24, Config(near=1e9)) == rate_actions(
            obs, random.Random(i), 0, 24, Config())
    assert left_out and alone  # both cases met, or the test proves nothing
