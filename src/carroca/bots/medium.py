"""The `medium` level: the reasons a good Brazilian table player gives for a move.

It reads nothing but the seat's `Observation`. From the public steps it learns which numbers each
seat lacks (a pass or a draw shows that the seat held no tile of any number open then), counts the
tiles of each number it has not seen, and spreads the unseen tiles over the other hands (and the
boneyard or the tiles out of play) as probabilities. Each legal action is then scored by a few
weighted reasons, all in the ruleset's own points so that they add up:

- the points it scores now (`greedy.points_now`), and in `duplas-pontos` the passe it forces;
- the next opponent made to pass (or draw): ends showing numbers he lacks;
- keeping a number to follow and a variety of numbers in hand;
- shedding heavy tiles, more so near the end of the hand, and doubles early (a carroça fits only
  its own number and can be left stranded);
- in 2v2, not leaving the partner without a play and keeping open the numbers he led;
- where points are on the table, the points the next opponent could score in reply;
- a lock (jogo fechado) valued by who would win the count.

No search and no randomness: the same observation always gives the same move, and equal scores go
to the first action in the engine's legal order.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from carroca.bots.greedy import count_after, points_now
from carroca.rules import Action, Observation, get_ruleset
from carroca.rules import actions as A
from carroca.rules import tiles as T
from carroca.rules.observation import PublicStep

TableEntry = tuple[int, int, str | None]
_ARMS = frozenset(("left", "right"))
#: Rounds of scaling that spread the unseen tiles over the hands (see `spread`).
_ROUNDS = 12


def open_mask(numbers: Iterable[int]) -> int:
    """The tiles that fit any of these numbers."""
    mask = 0
    for n in numbers:
        mask |= T.NUMBER_MASK[n]
    return mask


@dataclass(slots=True)
class Layout:
    """The open ends of a hand, enough of it to place tiles (the spinner's arms included)."""

    ends: dict[str, int]
    arms: set[str]  # which of the spinner's left/right arms hold a tile
    spinner: int  # the spinner's number while up/down are still closed, else -1

    @classmethod
    def of(cls, obs: Observation, spinner_rule: bool) -> Layout:
        arms = {e for _s, _t, e in obs.table if e in _ARMS}
        spinner = -1
        if spinner_rule and obs.table and "up" not in obs.ends:
            spinner = T.LOW[obs.table[0][1]]
        return cls(dict(obs.ends), arms, spinner)

    def copy(self) -> Layout:
        return Layout(dict(self.ends), set(self.arms), self.spinner)

    def place(self, tile: int, end: str | None, spinner_rule: bool) -> None:
        """Put `tile` on `end` (None: the opening), as the engine does."""
        if end is None:
            self.ends = {"left": T.LOW[tile], "right": T.HIGH[tile]}
            self.arms = set()
            self.spinner = T.LOW[tile] if spinner_rule else -1
            return
        self.ends[end] = T.OTHER_HALF[tile][self.ends[end]]
        if self.spinner >= 0 and end in _ARMS:
            self.arms.add(end)
            if self.arms == _ARMS:  # both arms covered: up and down open on the spinner
                self.ends["up"] = self.ends["down"] = self.spinner
                self.spinner = -1


def infer_cannot(steps: Sequence[PublicStep], seats: int, spinner_rule: bool) -> list[int]:
    """For each seat, the tiles it cannot hold now, as far as the public steps show.

    A pass or a draw means no tile of any open number. A draw that did not fit (the seat drew
    again or passed) brought an unknown tile of some other number, so what was known before
    about that seat is kept only for the numbers open at that draw. Passing the saída in
    `duplas-pontos` (no end open yet) means no double.
    """
    cannot = [0] * seats
    layout = Layout({}, set(), -1)
    drew: dict[int, int] = {}  # seat -> open tiles at its last draw, while that tile is unplayed
    for step in steps:
        seat = step.seat
        if step.kind == A.PLAY:
            drew.pop(seat, None)  # the drawn tile fitted and was played
            layout.place(step.tile, step.end, spinner_rule)
        elif step.kind in (A.PASS, A.DRAW):
            fits = open_mask(layout.ends.values())
            if seat in drew:
                cannot[seat] = drew.pop(seat)
            if layout.ends:
                cannot[seat] |= fits
            elif step.kind == A.PASS:
                cannot[seat] |= T.DOUBLES_MASK
            if step.kind == A.DRAW:
                drew[seat] = fits
    return cannot


def spread(unseen: Sequence[int], holders: Sequence[tuple[int, int]]) -> list[list[float]]:
    """P(holder h has tile t) for each holder (capacity, tiles it cannot hold) and unseen tile.

    Every tile is somewhere (columns sum to 1) and every holder has its size (rows sum to the
    capacity): alternate scaling of a 0/1 start approaches both, so a number two seats lack
    lands in the third hand. A few rounds leave a row within a quarter of a tile of its size,
    which is plenty for a heuristic; a nearly forced hand would need many more.
    """
    w = [[0.0 if cannot >> t & 1 else 1.0 for t in unseen] for _cap, cannot in holders]
    for _ in range(_ROUNDS):
        for row, (cap, _c) in zip(w, holders, strict=True):
            total = sum(row)
            if total > 0:
                f = cap / total
                for i in range(len(row)):
                    row[i] *= f
        for i in range(len(unseen)):
            total = sum(row[i] for row in w)
            if total > 0:
                for row in w:
                    row[i] /= total
    return w


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What the seat knows: its hand, the unseen tiles and where they probably are."""

    seat: int
    seats: int
    hand: int  # own tiles as a mask
    unseen: int  # tiles neither in own hand nor on the table
    cannot: tuple[int, ...]  # per seat, from `infer_cannot`
    prob: tuple[tuple[float, ...], ...]  # prob[s][t]: seat s holds unseen tile t (own seat: 0)
    sizes: tuple[int, ...]
    pool: int  # unseen tiles in no hand: the boneyard, or the tiles out of play in bloqueio
    led: tuple[frozenset[int], ...]  # numbers each seat left open by its own plays

    @classmethod
    def of(cls, obs: Observation) -> Knowledge:
        if obs.seat is None:
            raise ValueError("a spectator has no hand to play")
        rs = get_ruleset(obs.ruleset)
        seats = rs.seats
        hand = T.mask_of(obs.hand)
        unseen = T.ALL_TILES & ~hand & ~T.mask_of(t for _s, t, _e in obs.table)
        cannot = infer_cannot(obs.steps, seats, rs.spinner)
        sizes = obs.hand_sizes or (0,) * seats
        others = [s for s in range(seats) if s != obs.seat]
        holders = [(sizes[s], cannot[s]) for s in others]
        pool = unseen.bit_count() - sum(sizes[s] for s in others)
        if pool > 0:
            holders.append((pool, 0))  # the boneyard, or the tiles out of play in bloqueio
        tiles = T.tiles_of(unseen)
        w = spread(tiles, holders)
        prob = [[0.0] * T.TILE_COUNT for _ in range(seats)]
        for s, row in zip(others, w, strict=False):
            for t, p in zip(tiles, row, strict=True):
                prob[s][t] = min(1.0, p)
        return cls(
            obs.seat,
            seats,
            hand,
            unseen,
            tuple(cannot),
            tuple(tuple(r) for r in prob),
            tuple(sizes),
            max(0, pool),
            _led(obs.steps, seats, rs.spinner, cannot),
        )

    def p_none(self, seat: int, fits: int) -> float:
        """P(the seat holds no tile of `fits`)."""
        p = 1.0
        row = self.prob[seat]
        for t in T.iter_tiles(self.unseen & fits):
            p *= 1.0 - row[t]
        return p

    def expected_pips(self, seat: int) -> float:
        row = self.prob[seat]
        return sum(row[t] * T.PIPS[t] for t in T.iter_tiles(self.unseen))


def _led(
    steps: Sequence[PublicStep], seats: int, spinner_rule: bool, cannot: Sequence[int]
) -> tuple[frozenset[int], ...]:
    """The numbers each seat opened with its plays and does not visibly lack now."""
    led: list[set[int]] = [set() for _ in range(seats)]
    layout = Layout({}, set(), -1)
    for step in steps:
        if step.kind != A.PLAY:
            continue
        layout.place(step.tile, step.end, spinner_rule)
        if step.end is None:
            led[step.seat].update((T.LOW[step.tile], T.HIGH[step.tile]))
        else:
            led[step.seat].add(layout.ends[step.end])
    return tuple(
        frozenset(n for n in numbers if cannot[s] & T.NUMBER_MASK[n] != T.NUMBER_MASK[n])
        for s, numbers in enumerate(led)
    )


@dataclass(frozen=True, slots=True)
class Weights:
    """How much each reason counts. Points now and the reply points are in the ruleset's points;
    `hand` (about what a hand is worth) turns the other reasons into points too."""

    hand: float
    block: float = 0.30  # next opponent cannot play
    block_later: float = 0.08  # the opponent after the partner cannot play either
    partner_stuck: float = 0.20  # partner cannot play
    partner_led: float = 0.04  # an end keeps a number the partner led
    follow: float = 0.25  # I still have a tile for one of the ends
    follow_share: float = 0.10  # share of the ends I can follow
    variety: float = 0.03  # per distinct number kept in hand
    double: float = 0.10  # play a double while it still fits
    stranded: float = 0.15  # a double left in hand whose number is nearly gone
    pip: float = 0.008  # per pip shed
    endgame: float = 2.0  # pips count more as the shortest other hand nears zero
    threat: float = 0.9  # the next opponent's expected reply points (table points only)
    lock: float = 2.0  # times the expected result of a lock


#: Tuned on duplicate deals against `greedy` (bench/strength.py). With a boneyard or 14 tiles
#: out of play, making the opponent pass or draw is worth most; in duplas-pontos, points on the
#: table and the reply they leave; variety matters little once you can draw.
_ONE_V_ONE = Weights(hand=1.0, block=1.5, variety=0.01, follow_share=0.0, stranded=0.05)
WEIGHTS: dict[str, Weights] = {
    "duplas-torneio": Weights(hand=30.0, block=1.0, partner_stuck=0.05),
    "duplas-pontos": Weights(hand=25.0, block=0.5, pip=0.001),
    "mano-a-mano": replace(_ONE_V_ONE, hand=15.0),
    "classico": _ONE_V_ONE,
    "bloqueio": replace(_ONE_V_ONE, hand=1.5, lock=3.0),
    "pontos": Weights(hand=10.0, follow=0.1),
}


class MediumBot:
    """Scores every legal action by the reasons in the module docstring and plays the best."""

    name = "medium"

    def __init__(self, seed: int | None = None, weights: Mapping[str, Weights] | None = None):
        self.seed = seed  # deterministic: kept only so every level is built the same way
        self.weights = dict(WEIGHTS if weights is None else weights)

    def choose(self, obs: Observation) -> Action:
        legal = obs.legal
        if not legal:
            raise ValueError("no legal action for this seat now")
        if legal[0].kind == A.FIVE_DOUBLES:
            return A.FIVE_POINTS  # cinco carroças: take the points
        if len(legal) == 1:
            return legal[0]
        scores = self.scores(obs)
        best = 0
        for i, s in enumerate(scores):
            if s > scores[best]:  # strict: the first of equals wins
                best = i
        return legal[best]

    def scores(self, obs: Observation) -> list[float]:
        """The score of each legal action, in legal order (for tests and tuning)."""
        know = Knowledge.of(obs)
        w = self.weights[obs.ruleset]
        spinner_rule = get_ruleset(obs.ruleset).spinner
        layout = Layout.of(obs, spinner_rule)
        return [_score(obs, know, w, layout, a, spinner_rule) for a in obs.legal]


def _score(
    obs: Observation, know: Knowledge, w: Weights, layout: Layout, action: Action,
    spinner_rule: bool,
) -> float:
    if action.kind != A.PLAY:
        return 0.0
    tile = action.tile
    pts = float(points_now(obs, action))
    rest = know.hand & ~T.BIT[tile]
    if not rest:
        return 1e6 + pts  # batida
    after = layout.copy()
    after.place(tile, action.end_name, spinner_rule)
    ends = after.ends
    fits = open_mask(ends.values())
    me, n = know.seat, know.seats
    nxt = (me + 1) % n
    v = w.hand
    score = pts

    # the next opponent stuck: he passes (or draws), and in duplas-pontos we score the passe
    stuck = know.p_none(nxt, fits)
    score += v * w.block * stuck
    if obs.ruleset == "duplas-pontos":
        score += stuck * float(obs.options.get("pass_points", 20))
    if n == 4:
        partner, later = (me + 2) % 4, (me + 3) % 4
        score += v * w.block_later * know.p_none(later, fits)
        score -= v * w.partner_stuck * know.p_none(partner, fits)
        score += v * w.partner_led * sum(1 for x in ends.values() if x in know.led[partner])

    # my own next play and the numbers I keep
    mine = rest & fits
    if mine:
        score += v * w.follow
    ends_followed = sum(1 for x in ends.values() if rest & T.NUMBER_MASK[x])
    score += v * w.follow_share * ends_followed / len(ends)
    numbers = {x for t in T.iter_tiles(rest) for x in (T.LOW[t], T.HIGH[t])}
    score += v * w.variety * len(numbers)

    # heavy tiles and doubles out early
    shortest = min(know.sizes[s] for s in range(n) if s != me) if know.sizes else 7
    score += v * w.pip * T.PIPS[tile] * (1.0 + w.endgame / max(1, shortest))
    if T.IS_DOUBLE[tile]:
        score += v * w.double
    for d in T.iter_tiles(rest & T.DOUBLES_MASK):
        x = T.LOW[d]
        if x in ends.values():
            continue
        others = ((know.unseen | rest) & ~T.BIT[d] & T.NUMBER_MASK[x]).bit_count()
        score -= v * w.stranded / (1 + others)

    # points the next opponent may score in reply
    if w.threat and get_ruleset(obs.ruleset).table_points:
        table = (*obs.table, (me, tile, action.end_name))
        score -= w.threat * _reply_points(know, nxt, table, ends)

    # a lock ends the hand on the count: then only the count matters, not the reasons above
    if not mine and obs.boneyard == 0:
        if not know.unseen & fits:
            p_lock = 1.0
        elif know.pool:  # the unseen tiles that fit may all be out of play
            p_lock = math.prod(know.p_none(s, fits) for s in range(n) if s != me)
        else:  # every unseen tile is in a hand: someone can play
            p_lock = 0.0
        if p_lock > 0:
            locked = pts + w.lock * _lock_value(obs, know, rest)
            score = (1.0 - p_lock) * score + p_lock * locked
    return score


def _reply_points(
    know: Knowledge, seat: int, table: Sequence[TableEntry], ends: Mapping[str, int]
) -> float:
    """The expected best table points `seat` can score on the next play."""
    best: list[tuple[int, float]] = []
    row = know.prob[seat]
    for t in T.iter_tiles(know.unseen & open_mask(ends.values())):
        if row[t] <= 0:
            continue
        top = 0
        for end, x in ends.items():
            if T.OTHER_HALF[t][x] < 0:
                continue
            c = count_after(table, ends, A.play(t, end))
            if c > top and c % 5 == 0:
                top = c
        if top:
            best.append((top, row[t]))
    best.sort(key=lambda item: -item[0])
    expected, none_better = 0.0, 1.0
    for pts, p in best:
        expected += pts * p * none_better
        none_better *= 1.0 - p
    return expected


def _lock_value(obs: Observation, know: Knowledge, rest: int) -> float:
    """What the seat's team expects from the hand ending blocked now, in the ruleset's points."""
    me, n = know.seat, know.seats
    mine = float(T.pips_of(rest))
    if n == 4:
        ours = mine + know.expected_pips((me + 2) % 4)
        theirs = know.expected_pips((me + 1) % 4) + know.expected_pips((me + 3) % 4)
    else:
        ours, theirs = mine, know.expected_pips((me + 1) % 2)
    margin = theirs - ours
    if obs.ruleset == "mano-a-mano":
        margin -= 0.5  # on equal counts the locker loses
    win = 1.0 / (1.0 + math.exp(-margin / 3.0))  # P(our count is the lower one), roughly
    if obs.ruleset == "duplas-torneio":
        return (2 * win - 1) * (ours + theirs)
    if obs.ruleset == "duplas-pontos":
        return win * 5 * (theirs // 5) - (1 - win) * 5 * (ours // 5)
    if obs.ruleset == "mano-a-mano":
        return win * theirs - (1 - win) * ours
    if obs.ruleset == "pontos":
        if obs.options.get("hand_end_pips"):
            return win * 5 * (theirs // 5) - (1 - win) * 5 * (ours // 5)
        return 0.0
    return 2 * win - 1  # classico, bloqueio: a trancado won is worth one hand


__all__ = ["Knowledge", "Layout", "MediumBot", "Weights", "infer_cannot", "open_mask", "spread"]
