"""carroca's expert against OpenSpiel's ISMCTS, on OpenSpiel's own four-player dominoes.

OpenSpiel's ``python_team_dominoes`` is one hand of 2v2 dominoes: seven tiles each, no boneyard,
player 0 leads any tile, a player who cannot follow is skipped (there is no pass action), and the
hand ends when someone plays their last tile or nobody can play. Then the team with fewer pips
left takes the other team's pips and a tie scores nothing — so a team that dominoes still loses
the hand when the partner holds more than both opponents together.

Seats 0 and 2 or seats 1 and 3 are carroca's expert; the other team is OpenSpiel's Python
``ISMCTSBot`` with one random rollout per leaf (its C++ twin crashes on Python games). ISMCTS
gets a resampler that re-deals the tiles its seat cannot see uniformly among the deals
consistent with every skip: a skipped player holds none of the numbers open at that moment.
The expert reads the OpenSpiel state through a synthetic carroca `Observation` holding only
its own tiles and the public record (plays, and the skips as passes), and its action goes back
as an OpenSpiel action id. By default the expert searches under OpenSpiel's exact scoring
(`openspiel-team`, a ruleset this script registers at run time); ``--expert-rules torneio``
uses carroca's ``duplas-torneio`` with ``count_partner=false`` instead, which differs in two
places: the team that dominoes always wins there, and a blocked hand gives all four hands'
pips to the lighter team instead of the opponents' only.

Every deal is played twice with the teams swapped (duplicate pairs: OpenSpiel's chance outcomes
drawn from one seeded RNG), which cancels the luck of the tiles and of leading. ISMCTS's
simulation count gives it the expert's time per decision: both bots are timed on the same sample
positions in every worker before the duel, and the count then follows the CPU time the expert
actually got in the latest hands (its budget is wall-clock, so a busy machine gives it less).

    pip install -r bench/requirements.txt
    python bench/openspiel_duel.py --hands 200 --think-ms 100 [--seed 1] [--workers 2]

Reported: hands won by the expert (95% Wilson interval), mean points per hand of each side and
their difference (95% interval, each duplicate pair one sample), mean seconds per move and per
real decision (two or more legal moves) of each bot.
"""

from __future__ import annotations

import argparse
import bisect
import dataclasses
import hashlib
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from carroca.bots import make_bot
from carroca.rules import RULESETS, Action, Observation
from carroca.rules import tiles as T
from carroca.rules.actions import OPENING, PLAYS
from carroca.rules.observation import PublicStep
from carroca.rules.rulesets import HandEnding, HandScore, options_dict

sys.path.insert(0, str(Path(__file__).resolve().parent))
from strength import wilson

GAME = "python_team_dominoes"
SEATS = 4
HAND_SIZE = 7
#: Two-sided 95% normal quantile.
Z95 = 1.959963984540054
SIDES = ("expert", "ismcts")
#: ISMCTS's UCT constant. Returns are pips (tens of points), not ±1, so OpenSpiel's usual 2
#: hardly explores; in short duels against the expert ISMCTS did better as it grew to 150.
DEFAULT_UCT_C = 150.0

# --------------------------------------------------------------------------- OpenSpiel encoding
# Rebuilt from the game's source so that the adapter can be tested without OpenSpiel installed.
# The deck is `combinations_with_replacement(0..6, 2)`: carroca's canonical order, so a chance
# outcome (a deck index) is a carroca tile. A play is (player, tile, edge), edge the number it
# covers or None for the lead; ids run over players, then tiles, then edges None, 0, …, 6.

#: Edge of a lead (OpenSpiel's None).
LEAD = -1
Play = tuple[int, int, int]  # (seat, tile, edge)


def _action_table() -> tuple[dict[Play, int], tuple[Play, ...]]:
    ids: dict[Play, int] = {}
    for seat in range(SEATS):
        for tile in range(T.TILE_COUNT):
            for edge in (LEAD, *range(7)):
                if edge == LEAD or edge in (T.LOW[tile], T.HIGH[tile]):
                    ids[(seat, tile, edge)] = len(ids)
    return ids, tuple(ids)


ACTION_ID, ACTION_PLAY = _action_table()
#: OpenSpiel's tile tuples, by carroca tile.
OS_TILE = tuple((float(T.LOW[t]), float(T.HIGH[t])) for t in range(T.TILE_COUNT))


def tile_of(pips: Sequence[float]) -> int:
    """The carroca tile of an OpenSpiel tile tuple."""
    return T.tile(int(pips[0]), int(pips[1]))


def plays_of(state: Any) -> list[Play]:
    """The public record of an OpenSpiel state: every play, in order."""
    return [
        (a.player, tile_of(a.tile), LEAD if a.edge is None else int(a.edge))
        for a in state.actions_history
    ]


def hand_mask(state: Any, seat: int) -> T.Mask:
    return T.mask_of(tile_of(p) for p in state.hands[seat])


# --------------------------------------------------------------------------- the public record


def skipped(before: int, after: int) -> range:
    """Offsets of the seats skipped between a play by `before` and the next turn of `after`.

    OpenSpiel hands the turn to the first seat after the player that can follow, the player
    itself last, so every seat in between had no tile for the open numbers.
    """
    return range(1, (after - before) % SEATS or SEATS)


_END = ("left", "right")


@dataclass(frozen=True, slots=True)
class Public:
    """What every seat knows of a hand in progress, replayed on carroca's two ends."""

    steps: tuple[PublicStep, ...]  # plays and, for every skip, a pass
    table: tuple[tuple[int, int, int], ...]  # (seat, tile, carroca end) in play order
    ends: tuple[int, int]  # numbers open on the left and right (-1, -1 before the lead)
    mult: tuple[int, int]  # 2 where the end tile is a double
    sizes: tuple[int, ...]  # tiles each seat holds
    excluded: tuple[T.Mask, ...]  # per seat: tiles its skips show it cannot hold


def read_public(plays: Sequence[Play], to_move: int) -> Public:
    """The public record before `to_move` acts; a play on edge n goes on the end showing n.

    When both ends show n, either end leaves the same open numbers (all this game scores), so
    the left one is used.
    """
    ends = [-1, -1]
    mult = [0, 0]
    steps: list[PublicStep] = []
    table: list[tuple[int, int, int]] = []
    excluded = [0] * SEATS
    played = [0] * SEATS

    def skip(before: int, after: int) -> None:
        fits = T.NUMBER_MASK[ends[0]] | T.NUMBER_MASK[ends[1]]
        for k in skipped(before, after):
            s = (before + k) % SEATS
            steps.append(PublicStep(s, "pass"))
            excluded[s] |= fits

    last = -1
    for seat, tile, edge in plays:
        if last >= 0:
            skip(last, seat)
        if edge == LEAD:
            end = OPENING
            ends[0], ends[1] = T.LOW[tile], T.HIGH[tile]
            mult[0] = mult[1] = 2 if T.IS_DOUBLE[tile] else 1
        else:
            end = 0 if ends[0] == edge else 1
            if ends[end] != edge:
                raise ValueError(f"tile {T.NAMES[tile]} on edge {edge}: no end shows it")
            ends[end] = T.OTHER_HALF[tile][edge]
            mult[end] = 2 if T.IS_DOUBLE[tile] else 1
        steps.append(PublicStep(seat, "play", tile, None if end == OPENING else _END[end]))
        table.append((seat, tile, end))
        played[seat] += 1
        last = seat
    if last >= 0:
        skip(last, to_move)
    return Public(
        tuple(steps), tuple(table), (ends[0], ends[1]), (mult[0], mult[1]),
        tuple(HAND_SIZE - p for p in played), tuple(excluded),
    )


def legal_plays(own: T.Mask, public: Public) -> list[Action]:
    """The seat's legal actions in carroca's documented order (lead: any tile; else by end)."""
    if not public.table:
        return [PLAYS[t][OPENING] for t in T.iter_tiles(own)]
    return [
        PLAYS[t][end]
        for end in (0, 1)
        for t in T.iter_tiles(own & T.NUMBER_MASK[public.ends[end]])
    ]


def to_openspiel(action: Action, seat: int, public: Public) -> int:
    """The OpenSpiel action id of a carroca play: the edge is the number its end shows."""
    edge = LEAD if action.end == OPENING else public.ends[action.end]
    return ACTION_ID[(seat, action.tile, edge)]


# --------------------------------------------------------------------------- the expert's view

OPENSPIEL_RULESET = "openspiel-team"


def _score_openspiel(options: object, end: HandEnding) -> HandScore:
    """OpenSpiel's returns: the lighter team takes the other team's pips, however it ended."""
    totals = [0, 0]
    for seat, hand in enumerate(end.hands):
        totals[seat % 2] += T.pips_of(hand)
    if totals[0] == totals[1]:
        return HandScore(None)
    winner = 0 if totals[0] < totals[1] else 1
    return HandScore(winner, ((winner, totals[1 - winner], end.kind),))


def _no_match_winner(options: object, score: Sequence[int]) -> int | None:
    return None  # one hand is the whole game


def expert_rules(mode: str) -> tuple[str, dict[str, Any]]:
    """The ruleset name and options the expert searches under (see the module docstring).

    `openspiel` registers `openspiel-team` in carroca's ruleset registry on first use: the
    expert looks its ruleset up by the observation's name, in whatever process it runs.
    """
    base = RULESETS["duplas-torneio"]
    options = options_dict(base.make_options({"count_partner": False}))
    if mode == "torneio":
        return base.name, options
    if mode != "openspiel":
        raise ValueError(f"unknown expert rules {mode!r}")
    if OPENSPIEL_RULESET not in RULESETS:
        RULESETS[OPENSPIEL_RULESET] = dataclasses.replace(
            base,
            name=OPENSPIEL_RULESET,
            title="OpenSpiel team dominoes",
            summary="One hand; the lighter team takes the other team's pips.",
            score_hand=_score_openspiel,
            match_winner=_no_match_winner,
        )
    return OPENSPIEL_RULESET, options


def expert_observation(
    ruleset: str, options: dict[str, Any], seat: int, own: T.Mask, public: Public
) -> Observation:
    """What the seat may know, as a carroca observation: its own tiles and the public record.

    Nothing else of the OpenSpiel state goes in, so the expert cannot see a hidden tile.
    """
    ends, mult = public.ends, public.mult
    if not public.table:
        count = 0
    elif len(public.table) == 1:
        count = T.PIPS[public.table[0][1]]
    else:
        count = ends[0] * mult[0] + ends[1] * mult[1]
    return Observation(
        ruleset=ruleset,
        options=options,
        seat=seat,
        phase="play",
        turn=seat,
        hand=tuple(T.iter_tiles(own)),
        hand_sizes=public.sizes,
        boneyard=0,
        table=tuple(
            (s, t, None if e == OPENING else _END[e]) for s, t, e in public.table
        ),
        ends=dict(zip(_END, ends, strict=True)) if public.table else {},
        table_count=count,
        score=(0, 0),
        hand_number=0,
        deal_index=0,
        opener=0,
        steps=public.steps,
        legal=tuple(legal_plays(own, public)),
        last_hand=None,
        result=None,
    )


# --------------------------------------------------------------------------- ISMCTS's resampler


def _compositions(n: int, caps: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every way to split n into len(caps) parts, part i at most caps[i]."""
    if len(caps) == 1:
        if n <= caps[0]:
            yield (n,)
        return
    for k in range(min(n, caps[0]) + 1):
        for rest in _compositions(n - k, caps[1:]):
            yield (k, *rest)


class UnseenDeal:
    """Uniform deals of the tiles `seat` cannot see, consistent with every skip.

    Tiles are grouped by the set of seats that may hold them. A split says how many tiles of
    each group go to each seat; it is drawn with probability proportional to the number of
    deals it stands for (a product of multinomials), then each group is shuffled and cut. So
    every consistent deal is equally likely, which rejection sampling only gives slowly late in
    a hand, when skips rule out most deals.
    """

    def __init__(self, seat: int, own: T.Mask, public: Public) -> None:
        self.seat = seat
        self.own = own
        on_table = T.mask_of(t for _, t, _ in public.table)
        others = [s for s in range(SEATS) if s != seat]
        groups: dict[tuple[int, ...], list[int]] = {}
        for t in T.iter_tiles(T.ALL_TILES & ~(own | on_table)):
            holders = tuple(s for s in others if not public.excluded[s] & T.BIT[t])
            if not holders:
                raise ValueError(f"no seat can hold {T.NAMES[t]}")
            groups.setdefault(holders, []).append(t)
        self.groups = list(groups.items())
        caps = [public.sizes[s] if s != seat else 0 for s in range(SEATS)]
        self.splits: list[tuple[tuple[int, ...], ...]] = []
        self.cumulative: list[int] = []
        total = 0
        for weight, split in self._splits(0, caps):
            total += weight
            self.splits.append(split)
            self.cumulative.append(total)
        if not total:
            raise ValueError("the unseen tiles cannot fill the hands")

    def _splits(
        self, index: int, caps: list[int]
    ) -> Iterator[tuple[int, tuple[tuple[int, ...], ...]]]:
        if index == len(self.groups):
            if not any(caps):
                yield 1, ()
            return
        holders, tiles = self.groups[index]
        n = len(tiles)
        for parts in _compositions(n, [caps[s] for s in holders]):
            weight = math.factorial(n)
            for s, k in zip(holders, parts, strict=True):
                weight //= math.factorial(k)
                caps[s] -= k
            for rest_weight, rest in self._splits(index + 1, caps):
                yield weight * rest_weight, (parts, *rest)
            for s, k in zip(holders, parts, strict=True):
                caps[s] += k

    @property
    def deals(self) -> int:
        """How many consistent deals there are."""
        return self.cumulative[-1]

    def sample(self, rng: random.Random) -> list[T.Mask]:
        """Every seat's tiles in one consistent deal (the seat's own as they are)."""
        split = self.splits[bisect.bisect_right(self.cumulative, rng.randrange(self.deals))]
        hands = [0] * SEATS
        hands[self.seat] = self.own
        for (holders, tiles), parts in zip(self.groups, split, strict=True):
            pool = list(tiles)
            rng.shuffle(pool)
            start = 0
            for s, k in zip(holders, parts, strict=True):
                hands[s] |= T.mask_of(pool[start : start + k])
                start += k
        return hands


class Resampler:
    """ISMCTS's `resample_from_infostate`: the state with the hidden hands re-dealt.

    A search asks for many worlds of one information state, so the grouping is kept for the
    last one. Only the seat's own tiles and the public record are read.
    """

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self._key: tuple[int, int, tuple[Play, ...]] | None = None
        self._deal: UnseenDeal | None = None

    def __call__(self, state: Any, player: int) -> Any:
        plays = tuple(plays_of(state))
        own = hand_mask(state, player)
        key = (player, own, plays)
        if key != self._key or self._deal is None:
            self._deal = UnseenDeal(player, own, read_public(plays, player))
            self._key = key
        hands = self._deal.sample(self.rng)
        world = state.clone()
        world.hands = [[OS_TILE[t] for t in T.iter_tiles(h)] for h in hands]
        return world


# --------------------------------------------------------------------------- playing


def derived_seed(*parts: object) -> int:
    """A 32-bit seed from any labels (numpy's RandomState takes no more)."""
    digest = hashlib.sha256(":".join(str(p) for p in ("openspiel-duel", *parts)).encode())
    return int.from_bytes(digest.digest()[:4], "big")


@dataclass(frozen=True, slots=True)
class Job:
    """What every worker needs to play a pair (plain values: it crosses processes)."""

    seed: str
    think_ms: int
    simulations: int
    uct_c: float
    rules: str
    level: str = "expert"  # the carroca level on the expert's seats


_GAME: Any = None


def load_game() -> Any:
    """OpenSpiel's game, loaded once per process (the import registers the Python games)."""
    global _GAME
    if _GAME is None:
        import open_spiel.python.games  # noqa: F401
        import pyspiel

        _GAME = pyspiel.load_game(GAME)
    return _GAME


def make_ismcts(game: Any, simulations: int, uct_c: float, seed: int) -> Any:
    """OpenSpiel's Python ISMCTS with one random rollout per leaf and our resampler."""
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    evaluator = mcts.RandomRolloutEvaluator(
        n_rollouts=1, random_state=np.random.RandomState(derived_seed(seed, "rollout"))
    )
    bot = ismcts.ISMCTSBot(
        game,
        evaluator,
        uct_c,
        max_simulations=simulations,
        random_state=np.random.RandomState(derived_seed(seed, "tree")),
        final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
    )
    bot.set_resampler(Resampler(derived_seed(seed, "resample")))
    return bot


class ExpertSeat:
    """carroca's expert on one OpenSpiel seat, through the adapter."""

    def __init__(self, seed: int, think_ms: int, rules: str, level: str = "expert") -> None:
        self.bot = make_bot(level, seed, think_ms)
        self.ruleset, self.options = expert_rules(rules)

    def step(self, state: Any) -> int:
        seat = state.current_player()
        public = read_public(plays_of(state), seat)
        obs = expert_observation(self.ruleset, self.options, seat, hand_mask(state, seat), public)
        legal = {to_openspiel(a, seat, public) for a in obs.legal}
        if legal != set(state.legal_actions()):  # the mirror must agree with OpenSpiel
            raise AssertionError(f"legal moves differ at {state.history()}")
        return to_openspiel(self.bot.choose(obs), seat, public)


@dataclass(slots=True)
class HandResult:
    """One hand's outcome and each side's time: every move, and real decisions apart."""

    pair: int
    expert_team: int
    expert_return: float  # OpenSpiel's return of the expert's team
    simulations: int  # ISMCTS's simulations a decision in this hand
    seconds: dict[str, float] = field(default_factory=lambda: dict.fromkeys(SIDES, 0.0))
    moves: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SIDES, 0))
    decision_seconds: dict[str, float] = field(default_factory=lambda: dict.fromkeys(SIDES, 0.0))
    decision_cpu: dict[str, float] = field(default_factory=lambda: dict.fromkeys(SIDES, 0.0))
    decisions: dict[str, int] = field(default_factory=lambda: dict.fromkeys(SIDES, 0))


def deal(state: Any, rng: random.Random) -> None:
    """Play OpenSpiel's chance nodes (the deal) with outcomes drawn from `rng`."""
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(actions, weights=probs)[0])


def play_hand(job: Job, pair: int, expert_team: int) -> HandResult:
    game = load_game()
    state = game.new_initial_state()
    deal(state, random.Random(derived_seed(job.seed, "deal", pair)))
    bots: list[Any] = []
    for seat in range(SEATS):
        seed = derived_seed(job.seed, "bot", pair, expert_team, seat)
        if seat % 2 == expert_team:
            bots.append(ExpertSeat(seed, job.think_ms, job.rules, job.level))
        else:
            bots.append(make_ismcts(game, job.simulations, job.uct_c, seed))
    result = HandResult(pair, expert_team, 0.0, job.simulations)
    while not state.is_terminal():
        seat = state.current_player()
        side = SIDES[0] if seat % 2 == expert_team else SIDES[1]
        choices = len(state.legal_actions())
        start, cpu = time.perf_counter(), time.process_time()
        action = int(bots[seat].step(state))
        spent, cpu = time.perf_counter() - start, time.process_time() - cpu
        result.seconds[side] += spent
        result.moves[side] += 1
        if choices > 1:
            result.decision_seconds[side] += spent
            result.decision_cpu[side] += cpu
            result.decisions[side] += 1
        state.apply_action(action)
    result.expert_return = float(state.returns()[expert_team])
    return result


def play_pair(job: Job, pair: int) -> list[HandResult]:
    """One deal, the expert on team 0 and then on team 1."""
    return [play_hand(job, pair, team) for team in (0, 1)]


# --------------------------------------------------------------------------- calibration


def sample_positions(count: int, seed: int) -> list[Any]:
    """Decision points (two or more legal moves) of randomly played hands, like a duel's mix."""
    game = load_game()
    rng = random.Random(seed)
    positions: list[Any] = []
    while len(positions) < count:
        state = game.new_initial_state()
        deal(state, rng)
        while not state.is_terminal() and len(positions) < count:
            legal = state.legal_actions()
            if len(legal) > 1:
                positions.append(state.clone())
            state.apply_action(rng.choice(legal))
    return positions


def calibrate(
    think_ms: int, uct_c: float, rules: str, positions: int, probe: int, level: str = "expert"
) -> dict[str, float]:
    """Seconds (wall and CPU) of an expert decision and of one ISMCTS simulation, same mix.

    The CPU figures are what the simulation count is set from: on a shared machine the expert
    gets less of the processor within its wall-clock budget, and ISMCTS should get as much.
    """
    game = load_game()
    states = sample_positions(positions, derived_seed("calibrate", positions))
    expert = ExpertSeat(derived_seed("calibrate-expert"), think_ms, rules, level)
    ismcts = make_ismcts(game, probe, uct_c, derived_seed("calibrate-ismcts"))
    ismcts.step(states[0])  # warm-up: imports and first-call caches
    spent = dict.fromkeys(("expert_wall", "expert_cpu", "sim_wall", "sim_cpu"), 0.0)
    for state in states:
        for name, bot in (("expert", expert), ("sim", ismcts)):
            wall, cpu = time.perf_counter(), time.process_time()
            bot.step(state)
            spent[f"{name}_wall"] += time.perf_counter() - wall
            spent[f"{name}_cpu"] += time.process_time() - cpu
    return {
        k: v / (len(states) * (probe if k.startswith("sim") else 1)) for k, v in spent.items()
    }


def _calibrate_packed(args: tuple[int, float, str, int, int, str]) -> dict[str, float]:
    return calibrate(*args)


# --------------------------------------------------------------------------- summing up




def mean_interval(samples: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """Mean with a normal 95% interval."""
    m = statistics.fmean(samples) if samples else 0.0
    if len(samples) < 2:
        return (m, m, m)
    half = z * statistics.stdev(samples) / math.sqrt(len(samples))
    return (m, m - half, m + half)


def summarise(pairs: Sequence[list[HandResult]], job: Job) -> dict[str, Any]:
    """The figures of the report (and of `--json`); ties are hands nobody won."""
    hands = [h for p in pairs for h in p]
    n = len(hands)
    wins = sum(h.expert_return > 0 for h in hands)
    losses = sum(h.expert_return < 0 for h in hands)
    low, high = wilson(wins, n)
    decided = wins + losses
    d_low, d_high = wilson(wins, decided)
    # A pair's two hands share a deal, so the pair's mean margin is one sample.
    diff, diff_low, diff_high = mean_interval(
        [statistics.fmean(h.expert_return for h in p) for p in pairs]
    )

    def per(key: str, count: str, side: str) -> float:
        total = sum(getattr(h, key)[side] for h in hands)
        moves = sum(getattr(h, count)[side] for h in hands)
        return total / moves if moves else 0.0

    return {
        "game": GAME,
        "expert_rules": job.rules,
        "think_ms": job.think_ms,
        "ismcts_simulations_first": pairs[0][0].simulations if pairs else job.simulations,
        "ismcts_simulations_mean": (
            sum(h.simulations * h.decisions["ismcts"] for h in hands)
            / max(1, sum(h.decisions["ismcts"] for h in hands))
        ),
        "ismcts_simulations_range": [
            min((h.simulations for h in hands), default=0),
            max((h.simulations for h in hands), default=0),
        ],
        "uct_c": job.uct_c,
        "pairs": len(pairs),
        "hands": n,
        "expert_wins": wins,
        "expert_losses": losses,
        "ties": n - decided,
        "expert_win_rate": wins / n if n else 0.0,
        "expert_win_rate_95": [low, high],
        "expert_win_rate_decided": wins / decided if decided else 0.0,
        "expert_win_rate_decided_95": [d_low, d_high],
        "expert_points_per_hand": sum(max(h.expert_return, 0.0) for h in hands) / max(n, 1),
        "ismcts_points_per_hand": sum(max(-h.expert_return, 0.0) for h in hands) / max(n, 1),
        "diff_per_hand": diff,
        "diff_per_hand_95": [diff_low, diff_high],
        **{f"{s}_seconds_per_move": per("seconds", "moves", s) for s in SIDES},
        **{f"{s}_seconds_per_decision": per("decision_seconds", "decisions", s) for s in SIDES},
        **{f"{s}_cpu_per_decision": per("decision_cpu", "decisions", s) for s in SIDES},
        **{f"{s}_decisions": sum(h.decisions[s] for h in hands) for s in SIDES},
    }


def report(d: dict[str, Any]) -> str:
    low, high = d["expert_win_rate_95"]
    dl, dh = d["expert_win_rate_decided_95"]
    fl, fh = d["diff_per_hand_95"]
    lo, hi = d["ismcts_simulations_range"]
    return "\n".join(
        [
            f"{d['game']}: carroca expert ({d['think_ms']} ms, rules {d['expert_rules']}) vs "
            f"OpenSpiel ISMCTS ({d['ismcts_simulations_mean']:.0f} simulations a decision, "
            f"{lo}-{hi}, uct_c {d['uct_c']:g}); "
            f"{d['hands']} hands ({d['pairs']} duplicate pairs, teams swapped)",
            f"expert won {d['expert_wins']}/{d['hands']} hands = "
            f"{100 * d['expert_win_rate']:.1f}% [{100 * low:.1f}%, {100 * high:.1f}%] "
            f"(95% Wilson); lost {d['expert_losses']}, tied {d['ties']}; "
            f"of decided hands {100 * d['expert_win_rate_decided']:.1f}% "
            f"[{100 * dl:.1f}%, {100 * dh:.1f}%]",
            f"points per hand: expert {d['expert_points_per_hand']:.2f}, "
            f"ISMCTS {d['ismcts_points_per_hand']:.2f}, expert - ISMCTS "
            f"{d['diff_per_hand']:+.2f} [{fl:+.2f}, {fh:+.2f}] (95%, per pair)",
            f"seconds per move: expert {d['expert_seconds_per_move']:.3f}, "
            f"ISMCTS {d['ismcts_seconds_per_move']:.3f}; per decision (2+ legal moves): "
            f"expert {d['expert_seconds_per_decision']:.3f} ({d['expert_decisions']}), "
            f"ISMCTS {d['ismcts_seconds_per_decision']:.3f} ({d['ismcts_decisions']}); "
            f"CPU per decision: expert {d['expert_cpu_per_decision']:.3f}, "
            f"ISMCTS {d['ismcts_cpu_per_decision']:.3f}",
        ]
    )


def matched_simulations(recent: Sequence[HandResult]) -> int | None:
    """The simulation count that gives ISMCTS the expert's CPU time a decision, lately.

    The expert's budget is wall-clock time, so the CPU it gets follows the machine's load;
    ISMCTS's count follows it from the hands just played (None: too few decisions yet).
    """
    expert_cpu = sum(h.decision_cpu["expert"] for h in recent)
    expert_n = sum(h.decisions["expert"] for h in recent)
    sim_cpu = sum(h.decision_cpu["ismcts"] for h in recent)
    sims = sum(h.decisions["ismcts"] * h.simulations for h in recent)
    if expert_n < 50 or sims <= 0 or sim_cpu <= 0:
        return None
    return max(1, round(expert_cpu / expert_n / (sim_cpu / sims)))


def run(job: Job, pairs: int, workers: int, track: bool, window: int = 10) -> list[
    list[HandResult]
]:
    """Play the pairs, `workers` at a time; with `track`, re-match ISMCTS's count as they end.

    Each pair is played under the count known when it starts, so both hands of a deal are.
    """
    done: dict[int, list[HandResult]] = {}
    finished: list[list[HandResult]] = []

    def retune(result: list[HandResult]) -> None:
        nonlocal job
        finished.append(result)
        if track:
            count = matched_simulations([h for r in finished[-window:] for h in r])
            if count is not None:
                job = dataclasses.replace(job, simulations=count)

    if workers <= 1:
        for p in range(pairs):
            done[p] = play_pair(job, p)
            retune(done[p])
        return [done[p] for p in range(pairs)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending: dict[Future[list[HandResult]], int] = {}
        start = 0
        while start < pairs or pending:
            while start < pairs and len(pending) < workers:
                pending[pool.submit(play_pair, job, start)] = start
                start += 1
            ready, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in ready:
                pair = pending.pop(future)
                done[pair] = future.result()
                retune(done[pair])
    return [done[p] for p in range(pairs)]


def _map(fn: Callable[[Any], Any], args: list[Any], workers: int) -> list[Any]:
    """Run `fn` once per worker process at the same time, so each sees a duel's load."""
    if workers <= 1:
        return [fn(a) for a in args]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(fn, args))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hands", type=int, default=200, help="even: two per duplicate pair")
    parser.add_argument("--think-ms", type=int, default=100, help="the expert's budget a move")
    parser.add_argument("--seed", default="1")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--simulations", type=int, default=0,
        help="fixed ISMCTS simulations a decision (0: calibrate, then follow the expert's time)",
    )
    parser.add_argument(
        "--uct-c", type=float, default=DEFAULT_UCT_C,
        help="ISMCTS exploration constant (returns are raw pips)",
    )
    parser.add_argument("--expert-rules", choices=("openspiel", "torneio"), default="openspiel")
    parser.add_argument(
        "--level", default="expert", help="carroca's level on the expert's seats (e.g. expert-1)"
    )
    parser.add_argument(
        "--calibration-positions", type=int, default=40, help="positions timed per worker"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.hands < 2 or args.hands % 2:
        parser.error("--hands must be an even number >= 2 (two hands per duplicate pair)")
    expert_rules(args.expert_rules)  # registered before the workers fork
    started = time.perf_counter()
    calibration: dict[str, Any] = {}
    simulations = args.simulations
    if simulations <= 0:
        probe = 20
        timed = _map(
            _calibrate_packed,
            [
                (
                    args.think_ms, args.uct_c, args.expert_rules, args.calibration_positions,
                    probe, args.level,
                )
            ] * max(1, args.workers),
            args.workers,
        )
        calibration = {k: statistics.fmean(t[k] for t in timed) for k in timed[0]}
        simulations = max(1, round(calibration["expert_cpu"] / calibration["sim_cpu"]))
        if not args.json:
            c = calibration
            print(
                f"calibration: expert {c['expert_wall']:.3f} s a decision "
                f"({c['expert_cpu']:.3f} s CPU); ISMCTS {1 / c['sim_wall']:.0f} simulations/s "
                f"({1 / c['sim_cpu']:.0f} per CPU second) -> {simulations} simulations a move",
                flush=True,
            )
    job = Job(args.seed, args.think_ms, simulations, args.uct_c, args.expert_rules, args.level)
    pairs = run(job, args.hands // 2, args.workers, track=args.simulations <= 0)
    d = summarise(pairs, job)
    d["calibration"] = calibration
    d["workers"] = args.workers
    d["seconds"] = time.perf_counter() - started
    if args.json:
        print(json.dumps(d))
    else:
        print(report(d))
        print(f"wall time {d['seconds']:.0f} s on {args.workers} worker(s)")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
