"""The medium bot: legal everywhere, sound inferences, deterministic, blind to hidden tiles, and
scripted positions where each of its reasons decides the move."""

from __future__ import annotations

import dataclasses
import hashlib
import random

import pytest
from tests.support.deals import FIVE_DOUBLES_S0
from tests.support.scripted import deal, play, seats

from carroca import driver, fair
from carroca.bots import Bot, GreedyBot, MediumBot, RandomBot, make_bot
from carroca.bots.medium import WEIGHTS, Knowledge, Layout, infer_cannot, spread
from carroca.rules import RULESETS, Action, Match, Observation, observation
from carroca.rules import actions as A
from carroca.rules import tiles as T
from carroca.rules.observation import PublicStep


def _obs(m: Match) -> Observation:
    seat = m.current_player
    assert seat is not None
    return observation(m, seat)


def _without(ruleset: str, **changes: float) -> MediumBot:
    """A medium bot with some reasons turned off (or reweighted) for one ruleset."""
    weights = dict(WEIGHTS)
    weights[ruleset] = dataclasses.replace(weights[ruleset], **changes)
    return MediumBot(0, weights)


def _drivers(rs_seats: int, i: int) -> list[Bot]:
    """A mix of levels, so that positions every kind of play reaches are covered."""
    kinds = (
        lambda s: RandomBot(i * 10 + s),
        lambda s: GreedyBot(s),
        lambda s: MediumBot(s),
    )
    return [kinds[(s + i) % 3](s) for s in range(rs_seats)]


# --------------------------------------------------------------------------- random positions


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_legal_and_sound_in_thousands_of_positions(ruleset: str) -> None:
    """On every decision of many matches: the choice is legal, what the bot infers about the
    other hands is true of the real hands, and its layout replay gives the engine's ends."""
    rs = RULESETS[ruleset]
    medium = MediumBot(0)
    decisions = 0
    for i in range(40):
        seed = hashlib.sha256(f"medium-test:{ruleset}:{i}".encode()).hexdigest()
        drivers = _drivers(rs.seats, i)
        m = Match(rs)
        while not m.is_over and m.deal_index < 8:
            if m.needs_deal:
                m.deal(fair.shuffle(seed, "t", m.deal_index))
                continue
            seat = m.turn
            obs = observation(m, seat)
            choice = medium.choose(obs)
            assert choice in obs.legal
            decisions += 1
            if obs.legal[0].kind != A.FIVE_DOUBLES:
                know = Knowledge.of(obs)
                for s in range(rs.seats):
                    if s != seat:
                        assert know.cannot[s] & m.hands[s] == 0, (ruleset, s, obs.steps)
                        assert all(know.prob[s][t] == 0 for t in T.iter_tiles(know.cannot[s]))
                        expected = sum(know.prob[s][t] for t in range(T.TILE_COUNT))
                        size = len(T.tiles_of(m.hands[s]))
                        assert expected == pytest.approx(size, abs=0.25)  # see `spread`
                layout = Layout({}, set(), -1)
                for step in obs.steps:
                    if step.kind == A.PLAY:
                        layout.place(step.tile, step.end, rs.spinner)
                assert layout.ends == obs.ends
            m.apply(drivers[seat].choose(obs), seat)
    assert decisions >= 1000, decisions


def test_deterministic_with_a_seed() -> None:
    def run() -> list[list[str]]:
        bots: list[Bot] = [MediumBot(3), RandomBot(4), MediumBot(3), RandomBot(5)]
        m = driver.play_match("duplas-torneio", None, bots, "ab" * 32, "det")
        return [[str(s.action) for s in log.steps] for log in m.history]

    first = run()
    assert first == run()
    assert sum(len(h) for h in first) > 20


def test_registered_as_medium() -> None:
    bot = make_bot("medium", 1)
    assert isinstance(bot, MediumBot)
    assert bot.name == "medium"


# --------------------------------------------------------------------------- hidden tiles


def _hidden(m: Match, seat: int) -> list[int]:
    """Tiles the seat cannot see: other hands and the tiles not yet drawn (or out of play)."""
    out = [t for s in range(m.n) if s != seat for t in T.tiles_of(m.hands[s])]
    return out + list(m.boneyard[m.bone_pos :])


def _replay(ruleset: str, order: list[int], actions: list[tuple[int, Action]]) -> Match | None:
    m = Match(ruleset)
    m.deal(order)
    for seat, action in actions:
        if m.current_player != seat or not m.is_legal(action):
            return None
        m.apply(action, seat)
    return m


@pytest.mark.parametrize("ruleset", sorted(RULESETS))
def test_same_view_same_choice_whatever_the_hidden_tiles(ruleset: str) -> None:
    """Two matches with the same public history and the same own hand but other hidden hands
    (the hidden tiles permuted, every public step replayed): the same move and scores."""
    rs = RULESETS[ruleset]
    rng = random.Random(ruleset)
    compared = 0
    for i in range(30):
        order = fair.shuffle("cd" * 32, f"hidden-{ruleset}", i)
        m = Match(rs)
        m.deal(order)
        drivers = _drivers(rs.seats, i)
        actions: list[tuple[int, Action]] = []
        for _ in range(rng.randrange(1, 14)):
            if m.current_player is None:
                break
            seat = m.turn
            action = drivers[seat].choose(_obs(m))
            actions.append((seat, action))
            m.apply(action, seat)
        me = m.current_player
        if me is None or m.legal_actions()[0].kind == A.FIVE_DOUBLES:
            continue
        hidden = _hidden(m, me)
        for _attempt in range(30):
            shuffled = hidden[:]
            rng.shuffle(shuffled)
            swap = dict(zip(hidden, shuffled, strict=True))
            other = _replay(rs.name, [swap.get(t, t) for t in order], actions)
            if other is not None and other.hands != m.hands:
                break
        else:
            continue
        mine, theirs = observation(m, me), observation(other, me)
        assert mine.to_dict() == theirs.to_dict()
        bot = MediumBot(7)
        assert bot.choose(mine) is bot.choose(theirs)
        assert bot.scores(mine) == bot.scores(theirs)
        compared += 1
    assert compared >= 10, compared


# --------------------------------------------------------------------------- inference


def test_a_pass_shows_a_void_and_a_non_fitting_draw_forgets_older_voids() -> None:
    m = deal(
        Match("mano-a-mano"),
        seats(
            "6-6 5-6 1-3 1-5 0-5 2-3 2-5",
            "0-0 0-2 1-1 1-2 2-2 0-4 2-4",
        ),
        ["0-1", "3-6", "1-4", "4-5"],
        fill=True,
    )
    # seat 1 has no 6: draws 0-1 (no fit) and 3-6, plays it
    play(m, "6-6", "draw", "draw", "3-6:left")
    steps = _obs(m).steps
    assert infer_cannot(steps, 2, False)[1] == T.NUMBER_MASK[6]
    # ends 3 and 5: seat 1 draws 1-4 (no fit) and 4-5. The 1-4 could have been a 6 for all
    # seat 0 knows, so only the 3s and 5s stay excluded.
    play(m, "5-6:right", "draw", "draw", "4-5:right")
    cannot = Knowledge.of(_obs(m)).cannot[1]
    assert cannot == T.NUMBER_MASK[3] | T.NUMBER_MASK[5]
    assert cannot & m.hands[1] == 0


def test_saida_passed_means_no_double() -> None:
    # duplas-pontos: the batedor without a double passes the saída before any tile is down
    cannot = infer_cannot([PublicStep(1, A.PASS), PublicStep(2, A.PLAY, T.parse("4-4"))], 4, True)
    assert cannot == [0, T.DOUBLES_MASK, 0, 0]


def test_spread_by_hand() -> None:
    a, b, c = T.parse("0-1"), T.parse("2-3"), T.parse("4-5")
    # holder 0 takes two tiles, holder 1 one tile but not a: a is surely holder 0's, and b, c
    # are equally likely anywhere else
    w = spread([a, b, c], [(2, 0), (1, T.BIT[a])])
    assert w[0] == pytest.approx([1.0, 0.5, 0.5], abs=1e-6)
    assert w[1] == pytest.approx([0.0, 0.5, 0.5], abs=1e-6)


# --------------------------------------------------------------------------- its reasons


@dataclasses.dataclass(frozen=True)
class Reason:
    """A scripted position where one reason of the medium bot decides the move: the greedy
    bot plays `greedy`, the medium bot `medium`, and the medium bot with the weights in `off`
    set to 0 falls back to greedy's move."""

    ruleset: str
    hands: list[list[str]]
    plays: tuple[str, ...]
    greedy: str
    medium: str
    off: tuple[str, ...]

    def view(self) -> Observation:
        m = deal(Match(self.ruleset), self.hands)
        play(m, *self.plays)
        return _obs(m)


REASONS = {
    # seat 1 passed on 6: he has no 6. Seat 0, ends 4 and 6: 2-6 is heavier but covers the 6;
    # 0-4 leaves the 6 showing to the player who lacks it
    "blocks the number the next opponent lacks": Reason(
        "duplas-torneio",
        seats(
            "6-6 2-6 0-4 0-0 1-1 1-2 2-2",
            "0-1 0-2 0-3 1-3 1-4 2-3 2-4",
            "5-6 0-6 1-6 3-3 3-4 4-4 5-5",
            "4-5 3-6 4-6 0-5 1-5 2-5 3-5",
        ),
        ("6-6", "pass", "5-6:left", "4-5:left"),
        greedy="2-6:right", medium="0-4:left", off=("block", "block_later"),
    ),
    # seat 2, ends 0 and 6, no 0 in hand: 3-6 leaves 0 and 3, nothing to follow with; 1-6
    # leaves a 1, and the 1-2 follows it
    "keeps a number it can follow": Reason(
        "duplas-torneio",
        seats(
            "0-5 0-1 3-4 0-3 1-4 1-5 6-6",
            "1-1 2-6 0-6 0-0 3-5 0-2 5-5",
            "3-6 2-4 4-4 1-2 4-5 1-6 2-5",
            "2-3 1-3 5-6 0-4 2-2 4-6 3-3",
        ),
        ("6-6", "0-6:left"),
        greedy="3-6:right", medium="1-6:right", off=("follow", "follow_share", "variety"),
    ),
    # seat 2: the 3-3 fits now; later the 3s may run out
    "plays a double early": Reason(
        "duplas-torneio",
        seats(
            "0-1 2-3 2-4 6-6 1-1 2-6 3-4",
            "3-6 0-6 1-3 0-0 4-4 1-4 2-5",
            "3-3 1-2 4-6 2-2 5-5 0-5 4-5",
            "0-3 5-6 3-5 1-6 0-2 0-4 1-5",
        ),
        ("6-6", "3-6:left"),
        greedy="4-6:right", medium="3-3:left", off=("double", "stranded"),
    ),
    # seat 3, whose partner (seat 1) opened the 2; greedy: equal pips, the first
    "keeps open the number the partner led": Reason(
        "duplas-torneio",
        seats(
            "3-3 6-6 0-3 1-2 4-5 1-3 2-4",
            "0-4 1-1 2-5 2-2 2-6 1-6 0-6",
            "3-6 0-5 4-4 1-5 4-6 0-2 3-4",
            "2-3 3-5 5-5 0-0 0-1 5-6 1-4",
        ),
        ("6-6", "2-6:left", "4-6:right"),
        greedy="2-3:left", medium="1-4:right", off=("partner_led", "partner_stuck"),
    ),
    # seat 3; the spinner's uncovered right arm counts 12. 3-4 (heaviest) leaves 4 + 12: a 4-4
    # on it makes 20 for the next opponent
    "duplas-pontos: does not set up the opponents' points": Reason(
        "duplas-pontos",
        seats(
            "2-5 1-5 0-4 4-6 0-0 3-5 0-3",
            "2-3 5-5 2-6 0-2 6-6 1-1 3-3",
            "5-6 2-2 3-6 1-2 0-6 4-4 0-5",
            "0-1 2-4 1-3 3-4 1-6 4-5 1-4",
        ),
        ("6-6", "3-6:left"),
        greedy="3-4:left", medium="1-3:left", off=("threat",),
    ),
}


@pytest.mark.parametrize("name", list(REASONS))
def test_the_reason_decides_the_move(name: str) -> None:
    reason = REASONS[name]
    obs = reason.view()
    assert GreedyBot().choose(obs) is A.parse(reason.greedy)
    assert MediumBot().choose(obs) is A.parse(reason.medium)
    off = _without(reason.ruleset, **dict.fromkeys(reason.off, 0))
    assert off.choose(obs) is A.parse(reason.greedy)


def test_what_it_knows_in_the_scripted_positions() -> None:
    blocks = REASONS["blocks the number the next opponent lacks"].view()
    assert blocks.ends == {"left": 4, "right": 6}
    assert Knowledge.of(blocks).cannot[1] & T.NUMBER_MASK[6] == T.NUMBER_MASK[6]
    partner = REASONS["keeps open the number the partner led"].view()
    assert Knowledge.of(partner).led[1] == {2}


# a bloqueio table holding every 6 but the 5-6: ends 6 (left) and 5 (right)
_LOCK_TABLE = (
    (0, "6-6", None), (1, "0-6", "left"), (0, "0-4", "left"), (1, "4-6", "left"),
    (0, "1-6", "right"), (1, "1-2", "right"), (0, "2-6", "right"), (1, "3-6", "right"),
    (0, "3-5", "right"),
)  # fmt: skip


def _lock_view(hand: list[str]) -> Observation:
    m = Match("bloqueio")
    m.deal(fair.shuffle("00" * 32, "x", 0))
    return dataclasses.replace(
        observation(m, m.current_player),
        seat=1,
        turn=1,
        hand=tuple(T.parse(t) for t in hand),
        hand_sizes=(2, 3),
        table=tuple((s, T.parse(t), e) for s, t, e in _LOCK_TABLE),
        ends={"left": 6, "right": 5},
        steps=(),
        legal=(A.play("5-6", "left"), A.play("5-6", "right")),
    )


def test_locks_when_its_count_is_lower() -> None:
    # 5-6 on the 5 leaves 6 and 6 with every 6 played: nobody can play, the lighter hand wins
    light = _lock_view(["5-6", "0-1", "0-0"])  # 1 pip against two unseen tiles
    assert MediumBot().choose(light) is A.play("5-6", "right")
    heavy = _lock_view(["5-6", "4-4", "3-4"])  # 15 pips: locking would lose
    assert MediumBot().choose(heavy) is A.play("5-6", "left")
    assert _without("bloqueio", lock=0).choose(light) is A.play("5-6", "left")


def test_five_doubles_takes_the_points() -> None:
    m = deal(Match("duplas-pontos"), FIVE_DOUBLES_S0)
    assert MediumBot().choose(_obs(m)) is A.FIVE_POINTS


def test_the_last_tile_outweighs_every_reason() -> None:
    # bloqueio: the last tile 3-4 on ends 3 and 4 is a lá-e-lô (3 points) on either end
    view = _lock_view(["3-4"])
    view = dataclasses.replace(
        view, ends={"left": 3, "right": 4}, legal=(A.play("3-4", "left"), A.play("3-4", "right"))
    )
    scores = MediumBot().scores(view)
    assert min(scores) > 1e5  # a batida beats any other reason
    assert scores[0] - 1e6 == 3  # and carries its points
    assert MediumBot().choose(view) is A.play("3-4", "left")


def test_no_legal_action_is_an_error() -> None:
    with pytest.raises(ValueError):
        MediumBot().choose(observation(Match("pontos"), 0))
