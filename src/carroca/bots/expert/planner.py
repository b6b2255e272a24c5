"""The current expert's search: flat Monte Carlo over worlds resampled by belief.

Each batch deals `oversample` times more candidate worlds than it plays (dealing is cheap next to
playing a world out), weighs each by how well it explains the other seats' plays (`belief`) and
keeps a batch drawn in proportion to the weights (systematic resampling). Every legal action is
then played to the end of the hand in each kept world — by a fast policy (heavy tiles, doubles,
numbers kept), or exactly by alpha-beta (`solver`) once at most `EXACT_TILES` remain in the
hands and nothing is left to draw — and the best mean wins. Measured choices on top of
`expert-1`'s flat search:

- solving early: the playout policy's bias, not the number of worlds, is what holds the search
  back, and an exact world has none; the bitmask solver (about twice as fast as alpha-beta
  through `Match`) makes 15 tiles affordable in `duplas-torneio`;

- common random numbers: a world's playouts share one noise table (each seat's taste for each
  tile), so two actions meet the same opponents and their difference is less noisy;
- racing: an action whose paired difference to the leader is surely negative stops being played
  out, so the budget goes to the contenders (and a decided move stops early);
- deferring to table sense: the move `medium`'s heuristics pick is played unless an action still
  racing beats it surely (paired gap over 1.5 standard errors). Playout values carry noise and
  the bias of a simple playout policy; a gap they cannot tell from that is no reason to leave a
  good table player's move (duplas-torneio, 120 worlds, 200 matches against `medium`: 68.5-69.0%
  of match wins at 1-2 SEs, 62.0% at 0.5, 60.5% with the earlier 3-point prior instead). Not in
  exact endgames, where the values have no playout noise.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Final

from carroca.bots.expert.belief import (
    Belief,
    Model,
    params_for,
    partner_for,
    resample,
    select_for,
)
from carroca.bots.expert.knowledge import read
from carroca.bots.expert.playout import crn_playout
from carroca.bots.expert.posterior import listed
from carroca.bots.expert.sampler import World, deal
from carroca.bots.expert.search import (
    Rated,
    Table,
    alphabeta,
    rollout,
    without_search,
    world_position,
)
from carroca.bots.expert.solver import Bounds, solve
from carroca.bots.medium import MediumBot
from carroca.rules import Action, Match, Observation, get_ruleset
from carroca.rules.tiles import BIT as _BIT
from carroca.rules.tiles import IS_DOUBLE as _DOUBLE
from carroca.rules.tiles import NUMBER_MASK as _NM
from carroca.rules.tiles import OTHER_HALF as _OTHER
from carroca.rules.tiles import PIPS as _PIPS

#: Worlds played out at the least, whatever the budget says.
MIN_WORLDS: Final = 4
#: Worlds played out per resampled batch.
BATCH: Final = 8


#: Tiles in all hands at most (nothing to draw) from which a decision is solved exactly, world
#: by world, per ruleset; 9 where not measured. Solving earlier takes the playout policy's bias
#: out of the values (against `medium`, 400 matches, the same deals each): `duplas-torneio` at
#: 120 worlds 65.5% of match wins at 9 tiles, 68.5% at 13, 71.5% at 15; `duplas-pontos` at
#: 400 worlds 64.5% at 9, 68.0% at 12, 68.0% at 13 (its positions cost more: table points,
#: four ends; 12 is kept, the cheaper).
EXACT_TILES: Final[dict[str, int]] = {
    "duplas-torneio": 15,
    "duplas-pontos": 12,
}
#: An exact decision's fixed budget at most, per ruleset (elsewhere the decision's own): an
#: exact world costs more than a playout and its value has no playout noise. `duplas-torneio`
#: at its default worlds with exact decisions at 120: 72.3% against `medium` (above: 71.5% at
#: 120 worlds throughout). `duplas-pontos` needs its worlds: at 400 worlds with exact decisions
#: at 120 it won 64.0%, no better than from 9 tiles (its exact values swing with table points).
EXACT_WORLDS: Final[dict[str, int]] = {
    "duplas-torneio": 120,
}
#: An exact decision's budget as a multiple of the decision's worlds, per ruleset (elsewhere 1),
#: before the cap above. Measured and left at 1: `duplas-pontos` at 2.5 times its 400 worlds won
#: 68.0% against `medium`, as at 1 (the same deals), for 10% more CPU.
EXACT_SCALE: Final[dict[str, float]] = {}
#: Positions the bitmask solver keeps at most (about 360 bytes each) before it starts afresh
#: (checked between worlds: a world's own positions are always kept, as a table per world had).
#: One table serves every world of an exact decision: its keys hold every hand, and worlds meet
#: the same positions once their hidden tiles are played (400 worlds of 13-tile duplas-pontos
#: decisions: 2.2x less CPU than a table per world when unbounded, 1.7x at 100,000 positions).
EXACT_TABLE: Final = 100_000
#: Deals at most (exclusions aside) below which a decision lists every deal with its belief
#: weight and draws its worlds from them all (`posterior`), per ruleset (elsewhere 0: batches of
#: candidates resampled one by one). The sharper the model, the more the batches flatten it: in
#: `duplas-pontos` no change with `Params()` (67.2% against `medium` on seed 202, 68.0% by
#: batches), with the fitted models 72.8% against their 70.5% by batches (README).
POSTERIOR: Final[dict[str, int]] = {"duplas-pontos": 6000}


def exact_tiles(cfg: Config, ruleset: str) -> int:
    """The configured count, or the ruleset's measured one."""
    return cfg.exact_tiles or EXACT_TILES.get(ruleset, 9)


def exact_scale(cfg: Config, ruleset: str) -> float:
    """The configured multiple, or the ruleset's measured one (1: the decision's worlds)."""
    return cfg.exact_scale if cfg.exact_scale > 0 else EXACT_SCALE.get(ruleset, 1.0)


def posterior_cap(cfg: Config, ruleset: str) -> int:
    """The configured cap, or the ruleset's measured one (0: never list the deals)."""
    return cfg.posterior if cfg.posterior >= 0 else POSTERIOR.get(ruleset, 0)


def exact_worlds(cfg: Config, ruleset: str) -> int:
    """The configured cap, or the ruleset's measured one (0: none)."""
    return cfg.exact_worlds if cfg.exact_worlds >= 0 else EXACT_WORLDS.get(ruleset, 0)


@dataclass(frozen=True, slots=True)
class Config:
    """The search's knobs (measured choices are the defaults)."""

    params: Model | None = None  # the belief model or mixture (None: the ruleset's, `params_for`)
    partner: Model | None = None  # the partner's (None: `partner_for`, unless `params` given)
    oversample: int = 6  # candidate worlds dealt per world played out
    exact_tiles: int = 0  # solve exactly at most this many tiles in hands (0: `EXACT_TILES`)
    exact_worlds: int = -1  # an exact decision's fixed budget at most (0: none; -1: `EXACT_WORLDS`)
    exact_scale: float = 0.0  # an exact decision's budget in decision worlds (0: `EXACT_SCALE`)
    policy: int = 1  # playouts: 0 heaviest tile with noise (expert-1's), 1 also keeps numbers
    keep: float = 1.5  # policy 1: per tile kept of the number a play leaves open
    double: float = 2.0  # policy 1: bonus for shedding a double
    noise: float = 3.0  # policy 1: uniform noise added to each score
    crn: bool = True  # one noise table per world for every action (common random numbers)
    race: float = 2.5  # drop an action once its paired gap to the leader is z SEs below 0
    race_after: int = 16  # worlds before the first drop
    prior: float = 3.0  # with defer 0: points credited to `medium`'s move (a tie-breaker)
    defer: float = 1.5  # >0: play `medium`'s move unless the search beats it by z SEs (paired)
    defer_exact: float = 0.0  # the same in exact decisions (0: the best mean, no deferring)
    near: float = 0.0  # >0: playout decisions search only actions `medium` scores this close
    #                    (duplas-pontos, near=10: 67.5% against medium over 1,200 matches,
    #                    the default then 67.8%, 10% less CPU; not taken)
    bitmask: bool = True  # playouts, solver on bare bitmasks (False: through `Match`, same values)
    playout_exact: int = 0  # playouts solve the rest exactly from this many tiles (0: never)
    posterior: int = -1  # list every deal and draw from them all below this many (0: never;
    #                      -1: `POSTERIOR`)
    select: int = -1  # 1: a seat read by a mixture is read by its one model that explained the
    #                   seat's previous hand best (the first one in a match's first hand); 0: by
    #                   the mixture's sum; -1: the ruleset's (`belief.select_for`)


def _keeper(m: Match, legal: list[Action], rng: random.Random, cfg: Config,
            table_points: bool) -> Action:
    """Playout move: heavy tiles, doubles and plays that leave open a number still held."""
    hand = m.hands[m.turn]
    ends = m.ends
    best = legal[0]
    best_score = -1e9
    rand = rng.random
    for a in legal:
        if a.kind != "play":
            return a
        t = a.tile
        score = _PIPS[t] + rand() * cfg.noise
        if _DOUBLE[t]:
            score += cfg.double
        if a.end < 4:
            score += cfg.keep * ((hand ^ _BIT[t]) & _NM[_OTHER[t][ends[a.end]]]).bit_count()
        if table_points:
            score += 2.0 * m.points_after(a)
        if score > best_score:
            best, best_score = a, score
    return best


def _playout(m: Match, team: int, rng: random.Random, cfg: Config, table_points: bool) -> int:
    while m.current_player is not None:
        legal = m.legal_actions()
        m.apply(legal[0] if len(legal) == 1 else _keeper(m, legal, rng, cfg, table_points))
    return m.score[team] - m.score[1 - team]


def _noise_table(rng: random.Random, seats: int, scale: float) -> list[float]:
    """Per world: each seat's fixed taste for each tile, shared by every action's playout."""
    rand = rng.random
    return [rand() * scale for _ in range(seats * 32)]


def match_crn_playout(m: Match, team: int, noise: list[float], keep: float, double: float,
                 table_points: bool, exact_at: int = 0) -> int:
    """Playout whose noise depends on (seat, tile) only: actions meet the same opponents.
    From `exact_at` tiles in hands with nothing to draw, the rest is solved exactly."""
    while m.current_player is not None:
        if exact_at and not (m.ruleset.draws and m.bone_pos < len(m.boneyard)) and sum(
                h.bit_count() for h in m.hands) <= exact_at:
            return int(alphabeta(m, team, -1e9, 1e9))
        legal = m.legal_actions()
        if len(legal) == 1 or legal[0].kind != "play":
            m.apply(legal[0])
            continue
        turn = m.turn
        hand = m.hands[turn]
        ends = m.ends
        row = turn * 32
        best = legal[0]
        best_score = -1e9
        for a in legal:
            t = a.tile
            e = a.end
            score = _PIPS[t] + noise[row + t]
            if keep:
                if _DOUBLE[t]:
                    score += double
                if e < 4:
                    score += keep * ((hand ^ _BIT[t]) & _NM[_OTHER[t][ends[e]]]).bit_count()
            if table_points:
                score += 2.0 * m.points_after(a)
            if score > best_score:
                best, best_score = a, score
        m.apply(best)
    return m.score[team] - m.score[1 - team]


def _paired_gap(values: list[float], base: list[float]) -> tuple[float, float]:
    """Mean and standard error of `values - base` over the worlds both were played out in.

    Paired: the worlds are common, so the luck of the deal cancels from the difference."""
    n = len(base)
    diffs = [a - b for a, b in zip(values, base, strict=True)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, (var / n) ** 0.5


def _race(values: list[list[float]], active: list[int], z: float) -> list[int]:
    """The actions still in the race: those not surely worse than the leader.

    Every active action was played out in the same worlds, so the test is on paired
    differences with the leader (common worlds cancel most of the luck of the deal).
    """
    n = len(values[active[0]])
    means = {i: sum(values[i]) / n for i in active}
    lead = max(active, key=lambda i: means[i])
    lead_values = values[lead]
    keep = []
    for i in active:
        if i == lead:
            keep.append(i)
            continue
        mean, se = _paired_gap(values[i], lead_values)
        if mean + z * se >= 0.0:
            keep.append(i)
    return keep


def _medium_marks(obs: Observation) -> list[float] | None:
    """`medium`'s score of each legal action (its move: the first best), or None in a ruleset
    it has no weights for (e.g. a bench's own)."""
    bot = MediumBot()
    if obs.ruleset not in bot.weights:
        return None
    return bot.scores(obs)


def rate_actions(
    obs: Observation,
    rng: random.Random,
    think_ms: float,
    worlds: int = MIN_WORLDS,
    config: Config | None = None,
) -> list[Rated]:
    """Every legal action of the seat to move with its expected points, best first.

    At least `worlds` worlds played out (never fewer than `MIN_WORLDS`), more while `think_ms`
    of wall time has not passed; with `think_ms=0` the result follows from `rng` alone. With
    racing on, an action surely worse than the leader stops being played out (its value is the
    mean of the worlds it had), and the search ends once one action is left.
    """
    cfg = config or Config()
    legal = list(obs.legal)
    if (rated := without_search(legal)) is not None:
        return rated
    rs = get_ruleset(obs.ruleset)
    k = read(obs, rs.spinner)
    belief = Belief(obs, cfg.params if cfg.params is not None else params_for(rs.name),
                    cfg.partner if cfg.partner is not None
                    else (None if cfg.params is not None else partner_for(rs.name)),
                    select_for(rs.name) if cfg.select < 0 else bool(cfg.select))
    oversample = cfg.oversample if belief.informative else 1
    team = k.seat % 2
    least = max(MIN_WORLDS, worlds)
    deadline = time.perf_counter() + think_ms / 1000.0
    values: list[list[float]] = [[] for _ in legal]
    active = list(range(len(legal)))
    done = 0
    exact = k.boneyard == 0 and sum(k.sizes) <= exact_tiles(cfg, rs.name)
    cap = exact_worlds(cfg, rs.name) if exact else 0
    if exact:
        least = max(MIN_WORLDS, round(least * exact_scale(cfg, rs.name)))
    if cap:
        least = max(MIN_WORLDS, min(least, cap))
    timed = think_ms > 0
    keep = cfg.keep if cfg.policy else 0.0
    defer = cfg.defer_exact if exact else cfg.defer
    near = cfg.near if not exact else 0.0
    marks = _medium_marks(obs) if (defer or near or (cfg.prior and not exact)) else None
    fav = marks.index(max(marks)) if marks is not None else -1
    favourite = legal[fav] if fav >= 0 else None
    if near and marks is not None:
        active = [i for i in active if marks[fav] - marks[i] <= near]
        if len(active) == 1:  # nothing close to `medium`'s move: no search
            return [Rated(legal[fav], 0.0, 0)] + [Rated(a, 0.0, 0) for i, a in enumerate(legal)
                                                   if i != fav]
    base = obs.score[team] - obs.score[1 - team]  # every world's score: the observed one
    shared: Match | None = None
    bounds: Bounds = {}
    everything = listed(k, belief, posterior_cap(cfg, rs.name)) if belief.informative else None
    drawn: list[World] = []
    while len(active) > 1 and (done < least or (timed and time.perf_counter() < deadline)):
        size = BATCH if timed else min(BATCH, least - done)
        if size <= 0:
            size = BATCH
        if everything is not None:  # the exact posterior: the first `least` worlds at once
            if not drawn:
                drawn = everything.draw(least if done < least else size, rng)
            chosen, drawn = drawn[:size], drawn[size:]
        elif oversample > 1:
            dealt = [deal(k, rng) for _ in range(size * oversample)]
            weights = [belief.log_weight(hands) for hands, _ in dealt]
            chosen = [dealt[i] for i in resample(weights, size, rng.random())]
        else:
            chosen = [deal(k, rng) for _ in range(size)]
        for hands, boneyard in chosen:
            noise = _noise_table(rng, k.seats, cfg.noise) if cfg.crn and not exact else None
            table: Table = {}  # exact: one per world, the actions' endgames share positions
            if len(bounds) > EXACT_TABLE:  # the bitmask solver's: the worlds share it too
                bounds.clear()
            position: Match | None = None  # this world as a Match, built only if needed
            for i in active:
                action = legal[i]
                if noise is not None and cfg.bitmask and action.end < 4:  # past the opening
                    # Only the hands and the boneyard differ between worlds: the first world's
                    # position serves every world's bitmask playouts.
                    if shared is None:
                        shared = world_position(k, obs, hands, boneyard)
                    values[i].append(crn_playout(
                        shared, team, noise, keep, cfg.double, rs.table_points,
                        (action.tile, action.end), hands, boneyard, cfg.playout_exact,
                        bounds) - base)
                    continue
                if exact and cfg.bitmask and action.end < 4:
                    if shared is None:
                        shared = world_position(k, obs, hands, boneyard)
                    values[i].append(
                        solve(shared, team, (action.tile, action.end), hands, bounds) - base)
                    continue
                if position is None:
                    position = world_position(k, obs, hands, boneyard)
                child = position.copy()
                child.apply(action)
                if exact:
                    value = alphabeta(child, team, -1e9, 1e9, table)
                elif noise is not None:
                    value = match_crn_playout(child, team, noise, keep, cfg.double, rs.table_points,
                                         cfg.playout_exact)
                elif cfg.policy:
                    value = _playout(child, team, rng, cfg, rs.table_points)
                else:
                    value = rollout(child, team, rng, rs.table_points)
                values[i].append(value - base)
            done += 1
            if timed and done >= least and time.perf_counter() >= deadline:
                break
        if cfg.race and done >= cfg.race_after:
            active = _race(values, active, cfg.race)
    rated = [Rated(a, sum(values[i]) / len(values[i]) if values[i] else 0.0, len(values[i]))
             for i, a in enumerate(legal)]
    if defer and favourite is not None and fav in active:
        return deferred(rated, values, active, fav, defer)
    # The actions still racing first (a dropped one is not chosen on a lucky tail), best first
    # counting the prior (the values stay the playouts' means); stable: ties keep legal order.
    order = sorted(
        range(len(legal)),
        key=lambda i: (
            i not in active,
            -(rated[i].value + (cfg.prior if legal[i] is favourite and not exact else 0.0))
        ),
    )
    return [rated[i] for i in order]


def deferred(
    rated: list[Rated], values: list[list[float]], active: list[int], fav: int, z: float
) -> list[Rated]:
    """`medium`'s move first unless an action still racing beats it surely: its paired gap over
    the worlds both were played out in more than `z` standard errors above 0. Then the best such
    action by that gap; the others after it by value, those still racing first.

    The searches' values carry playout noise and the bias of a simple playout policy, so a gap
    that a few dozen worlds cannot tell from noise is no reason to leave a move that good table
    play picks; a gap they can tell is."""
    base = values[fav]
    n = len(base)
    gaps: dict[int, float] = {}
    for i in active:
        if i == fav or n < 2:
            continue
        mean, se = _paired_gap(values[i], base)
        if mean - z * se > 0.0:
            gaps[i] = mean
    first = max(gaps, key=lambda i: gaps[i]) if gaps else fav
    rest = sorted((i for i in range(len(rated)) if i != first),
                  key=lambda i: (i not in active, -rated[i].value))
    return [rated[first]] + [rated[i] for i in rest]
