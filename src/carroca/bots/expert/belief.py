"""How likely a sampled world makes what the other seats chose: beliefs from their play.

Passes and draws exclude tiles for certain (`knowledge`); choices say more, softly. A player who
opened with a double, kept a number open or scored on the table usually did so because of the
tiles in hand. Each other seat is modelled as a soft-max over a cheap score of the plays it had
(heavier tiles and doubles first, leaving open a number it holds, table points; where fitted,
also what the play left the next seats: a play for them, points to score in reply, tiles to
follow), and a world is weighted by the product, over that seat's past plays, of P(the play it
made | the plays that world's hand allowed then). A seat's hand at a past play is its hand in the
world plus the tiles it played since — exact unless it drew since, so plays before a seat's last
draw are left out. The partner may have a model of its own (`partner_for`).

A seat may also be read by several models at once, a mixture: the kind of player at a seat is
not known (a table player, a searching bot, a person), so a world weighs Σ over the models of
P(model) × P(that seat's plays | the world, the model), with the models equally likely before
the hand. Each model's product is over the seat's whole hand, so the plays read so far tell the
kinds apart by themselves: worlds that one model explains far better than the others follow that
model once the seat's plays are that model's, not before. From the second hand on, the models
start from what the previous hand said of each seat (`previous_hand`: it is revealed once over,
so its plays are read with every hand known): the kind of player at a seat does not change
between hands. Read as that sum it was measured in `duplas-pontos` and not taken (README): the
mixture keeps a world the sharp model rules out at half the weight of the others', and gives
back what the sharp model gains. So a mixture may instead choose (`select`, the default there):
each seat is read by the one model that explained its previous hand best, by the first model in
a match's first hand.

Everything here is read from the observation (public steps and the seat's own tiles), never from
the match: the weights of two deals that agree with the observation depend only on the deals.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Final, NamedTuple

from carroca.bots.medium import infer_cannot
from carroca.rules import Observation, get_ruleset
from carroca.rules import tiles as T
from carroca.rules.actions import END_NAMES, OPENING, PASS, PLAY
from carroca.rules.observation import PublicStep
from carroca.rules.tiles import BIT as _BIT
from carroca.rules.tiles import HIGH as _HIGH
from carroca.rules.tiles import IS_DOUBLE as _DOUBLE
from carroca.rules.tiles import LOW as _LOW
from carroca.rules.tiles import NUMBER_MASK as _NM
from carroca.rules.tiles import OTHER_HALF as _OTHER
from carroca.rules.tiles import PIPS as _PIPS

_END_INDEX: Final = {name: i for i, name in enumerate(END_NAMES)}

#: How the opening tile of this hand was chosen: the seat could play any tile, or any double.
ANY: Final = 1
DOUBLES: Final = 2


@dataclass(frozen=True, slots=True)
class Params:
    """Weights of the play score, already divided by the soft-max temperature."""

    pips: float = 0.1  # per pip of the tile played
    double: float = 1.1  # a double
    keep: float = 0.35  # per tile left in hand with the number the play leaves open
    points: float = 1.2  # per 5 table points the play scores (rulesets with table points)
    scale: float = 1.0  # inverse temperature on top of the weights (0 for every seat: uniform
    #                     worlds; for some seats only, or in a mixture: a random player)
    stuck_next: float = 0.0  # the next seat has no tile for the ends left (as far as it shows)
    stuck_partner: float = 0.0  # the same for the partner (2v2)
    threat: float = 0.0  # per 5 table points the next seat could score in reply, subtracted
    # (2/3)^n, n the tiles that could answer the ends left, neither on the table, nor in the
    # seat's hand, nor shown lacking by that seat: about the chance it holds none of them
    soft_next: float = 0.0  # the next seat
    soft_partner: float = 0.0  # the partner (2v2)
    soft_later: float = 0.0  # the seat after the partner (2v2)
    follow: float = 0.0  # the seat still holds a tile for the ends left
    follow_ends: float = 0.0  # the share of the ends left that the seat can follow
    variety: float = 0.0  # per number left in hand

    @property
    def reads_table(self) -> bool:
        """Whether a play's score depends on more than the tile and the numbers it leaves."""
        return bool(self.stuck_next or self.stuck_partner or self.threat or self.soft_next
                    or self.soft_partner or self.soft_later or self.follow or self.follow_ends
                    or self.variety)


#: One model of a seat, or a mixture of several (`Belief`).
Model = Params | tuple[Params, ...]

#: `bench/belief_fit.py --ruleset duplas-pontos` on `medium`'s plays (300 matches), whose hands
#: are known: a table player leaves the next seat without a play, not the partner, avoids leaving
#: points to score in reply and keeps tiles for the ends. It explains `medium`'s plays at -0.48
#: nats a play, against -1.00 with `Params()`.
TABLE_PLAYER_PONTOS: Final = Params(
    pips=0.003, double=2.731, keep=0.235, points=4.197, stuck_next=-9.405, stuck_partner=-8.921,
    threat=1.935, soft_next=35.106, soft_partner=-6.573, soft_later=-3.982, follow=4.891,
    follow_ends=2.999, variety=0.186)
#: The same fitted to the `expert`'s own plays (`--level expert --matches 40`, -1.03 nats a play;
#: the table player's model reads them at -1.88, worse than `Params()`'s -1.22).
EXPERT_PONTOS: Final = Params(
    pips=0.02, double=0.981, keep=0.229, points=0.82, stuck_next=-2.851, stuck_partner=-0.798,
    threat=0.419, soft_next=7.805, soft_partner=-2.225, soft_later=-0.257, follow=-0.334,
    follow_ends=1.832, variety=-0.423)
#: The other team's model per ruleset (elsewhere `Params()`), the partner's where it has its
#: own, and the rulesets whose mixtures choose a model per seat (`select_for`). In
#: `duplas-pontos` the other team is read by `Params()` in a match's first hand and, from the
#: second on, by whichever of `Params()` and the table player explained the seat's previous
#: hand better; the partner by the expert's model; late in a hand with every deal listed
#: (`planner.POSTERIOR`). Measured (README): 71.1% of 1,200 matches against `medium` (seeds
#: 202-204), where `Params()` by batches won 67.8%, and 62.9% of 800 against `expert-1` at equal
#: CPU. The two fitted models alone won 69.3% of the 1,200 against `medium` by batches (70.2%
#: with the posterior) but 58.9% of 800 against `expert-1` (60.0% of 400): a confident model
#: of the wrong kind of player misleads more than none, and a mixture read as one sum gives
#: back what the sharp model gains (67.5-68.8% on seed 202).
FITTED: Final[dict[str, Model]] = {"duplas-pontos": (Params(), TABLE_PLAYER_PONTOS)}
PARTNER: Final[dict[str, Model]] = {"duplas-pontos": EXPERT_PONTOS}
SELECT: Final[frozenset[str]] = frozenset({"duplas-pontos"})

#: The models by name, for settings given as text (`models_named`).
MODELS: Final[dict[str, Params]] = {
    "default": Params(),
    "table-player-pontos": TABLE_PLAYER_PONTOS,
    "expert-pontos": EXPERT_PONTOS,
}
#: Most models in one mixture.
MAX_MODELS: Final = 8


def models_named(text: str) -> Model:
    """The model, or the mixture, that comma-separated names of `MODELS` give."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    unknown = [n for n in names if n not in MODELS]
    if unknown or not names or len(names) > MAX_MODELS:
        raise ValueError(f"belief models are 1 to {MAX_MODELS} of {', '.join(MODELS)}, "
                         f"comma-separated; got {text!r}")
    found = tuple(MODELS[n] for n in names)
    return found[0] if len(found) == 1 else found


def mixture(model: Model) -> tuple[Params, ...]:
    """A model as a mixture (one model: a mixture of one)."""
    found = (model,) if isinstance(model, Params) else tuple(model)
    if not found or len(found) > MAX_MODELS:
        raise ValueError(f"a mixture has 1 to {MAX_MODELS} models, not {len(found)}")
    return found


def params_for(ruleset: str) -> Model:
    """The other team's model in a ruleset: fitted, or the default one."""
    return FITTED.get(ruleset, Params())


def partner_for(ruleset: str) -> Model | None:
    """The partner's model in a ruleset, where it has its own."""
    return PARTNER.get(ruleset)


def select_for(ruleset: str) -> bool:
    """Whether a ruleset's mixtures read each seat by one model (`Belief(select=True)`)."""
    return ruleset in SELECT


class Decision(NamedTuple):
    """One past play of another seat, with what the table looked like just before it."""

    seat: int
    tile: int
    end: int  # 0-3, or OPENING
    later: int  # tiles that seat played from this play on, this one included
    ends: tuple[int, int, int, int]
    mult: tuple[int, int, int, int]
    opening: int  # 0 not the opening, ANY or DOUBLES
    spinner: int = -1  # the spinner's number while its arms are not both covered
    arms: int = 0  # the spinner's arms covered (bits 1, 2)
    table: int = 0  # tiles on the table before the play
    step: int = 0  # its index in the observation's steps


def opening_kind(obs: Observation) -> int:
    """Whether the opener of this hand chose its tile freely (ANY, DOUBLES) or was forced (0).

    The opening rule of a hand follows from the previous hand's end, which the observation shows
    in `last_hand`; the first hand (the 6-6 or the highest double) and unknown rulesets are 0.
    """
    last = obs.last_hand
    if last is None:
        return 0
    end = last.get("end") or {}
    kind = end.get("kind")
    if kind in (None, "redeal", "abandon"):
        return 0
    name = obs.ruleset
    if name == "duplas-pontos":
        if obs.options.get("always_six_six") or kind == "fechado":
            return 0
        return DOUBLES
    if name in ("duplas-torneio", "mano-a-mano"):
        return ANY
    if name in ("classico", "bloqueio", "pontos"):
        return ANY if end.get("winner") is not None else 0
    return 0


def _spinner_rule(ruleset: str) -> bool:
    try:
        return get_ruleset(ruleset).spinner
    except Exception:  # a ruleset registered elsewhere: no cross
        return False


def decisions(obs: Observation) -> list[Decision]:
    """The other seats' plays of this hand that say something about their tiles now."""
    if obs.seat is None:
        raise ValueError("a spectator has no beliefs to weigh")
    spinner_rule = _spinner_rule(obs.ruleset)
    steps = obs.steps
    last_draw = [-1] * len(obs.hand_sizes)
    for i, step in enumerate(steps):
        if step.kind == "draw":
            last_draw[step.seat] = i
    ends = [-1, -1, -1, -1]
    mult = [0, 0, 0, 0]
    spinner = -1
    arms = 0
    found: list[tuple[int, Decision]] = []  # (its step, the decision without `later`)
    opening = opening_kind(obs)
    table = 0
    for i, step in enumerate(steps):
        if step.kind != "play":
            continue
        tile = step.tile
        end = OPENING if step.end is None else _END_INDEX[step.end]
        if step.seat != obs.seat and i > last_draw[step.seat]:
            kind = opening if end == OPENING else 0
            if end != OPENING or kind:
                found.append((i, Decision(step.seat, tile, end, 0, (ends[0], ends[1], ends[2],
                                          ends[3]), (mult[0], mult[1], mult[2], mult[3]), kind,
                                          spinner, arms, table)))
        table |= _BIT[tile]
        if end == OPENING:
            ends[0], ends[1] = _LOW[tile], _HIGH[tile]
            mult[0] = mult[1] = 2 if _DOUBLE[tile] else 1
            if spinner_rule:
                spinner = _LOW[tile]
        else:
            ends[end] = _OTHER[tile][ends[end]]
            mult[end] = 2 if _DOUBLE[tile] else 1
            if spinner >= 0 and end < 2:
                arms |= end + 1
                if arms == 3:
                    ends[2] = ends[3] = spinner
                    spinner = -1
    out: list[Decision] = []
    for i, d in found:
        later = 0
        for step in steps[i:]:
            if step.seat == d.seat and step.kind == "play":
                later |= _BIT[step.tile]
        out.append(d._replace(later=later, step=i))
    return out


def previous_hand(obs: Observation) -> tuple[Observation, list[int]] | None:
    """The previous hand of the match as public steps, in a copy of `obs` (only its steps and
    `last_hand` changed: read it with `decisions`, nothing else), and every seat's tiles left
    (`last_hand`, revealed once it is over), for reading its plays with the hands known. Between
    two plays a seat skipped in turn passed; a pass before the first tile (a saída with no
    double) is not rebuilt, so the table reads miss that one "no double". What was drawn is not
    revealed: rulesets that draw, and a hand with no play, give None."""
    last = obs.last_hand
    if last is None or obs.seat is None:
        return None
    try:
        if get_ruleset(obs.ruleset).draws:
            return None
    except Exception:
        return None
    table = last.get("table") or []
    left = last.get("hands_left") or []
    seats = len(obs.hand_sizes)
    if not table or len(left) != seats:
        return None
    steps: list[PublicStep] = []
    before = -1
    for play in table:
        seat = play["seat"]
        if not 0 <= seat < seats:
            return None
        if before >= 0:
            skipped = (before + 1) % seats
            while skipped != seat:
                steps.append(PublicStep(skipped, PASS))
                skipped = (skipped + 1) % seats
        steps.append(PublicStep(seat, PLAY, T.parse(play["tile"]), play.get("end")))
        before = seat
    held = [sum(_BIT[T.parse(name)] for name in names) for names in left]
    return replace(obs, steps=tuple(steps), last_hand=None), held


#: The last few observations' priors: every decision of a hand reads the same previous hand
#: (`last_hand` is one object shared by the hand's views, kept here so its id is not reused).
_PRIORS: dict[tuple[int, int, object, object], tuple[object, dict[int, list[float]]]] = {}


def _log_sum_exp(values: list[float]) -> float:
    top = max(values)
    return top + math.log(sum(math.exp(x - top) for x in values))


def model_priors(obs: Observation, params: Model | None,
                 partner: Model | None) -> dict[int, list[float]]:
    """Per seat read by a mixture: log P(each model) after the previous hand's plays (a seat
    left out: equally likely)."""
    last = obs.last_hand
    mixed = len(mixture(params if params is not None else Params())) > 1 or (
        partner is not None and len(mixture(partner)) > 1)
    if last is None or obs.seat is None or not mixed:
        return {}
    key = (id(last), obs.seat, params, partner)
    found = _PRIORS.get(key)
    if found is not None and found[0] is last:
        return found[1]
    out: dict[int, list[float]] = {}
    past = previous_hand(obs)
    if past is not None:
        view, held = past
        then = Belief(view, params, partner)
        for seat, items, count in then._by_seat:
            if count > 1:
                parts = then._parts(items, count, held[seat])
                norm = _log_sum_exp(parts)
                out[seat] = [x - norm for x in parts]
    if len(_PRIORS) >= 16:
        _PRIORS.clear()
    _PRIORS[key] = (last, out)
    return out


class Belief:
    """Log-likelihood of a world's hands under the play model, from one observation."""

    def __init__(self, obs: Observation, params: Model | None = None,
                 partner: Model | None = None, select: bool = False) -> None:
        others = mixture(params if params is not None else Params())
        self.params = others[0]
        try:
            self.table_points = get_ruleset(obs.ruleset).table_points
        except Exception:
            self.table_points = False
        # The models of each decision's seat: `partner` for the seat's partner (2v2), if given.
        own = obs.seat if obs.seat is not None else -1
        mate = (own + 2) % 4 if len(obs.hand_sizes) == 4 and partner is not None else -1
        mates = mixture(partner) if partner is not None and mate >= 0 else others
        self.decisions = (decisions(obs) if any(q.scale > 0 for q in others + mates) else [])
        self.models: list[tuple[Params, ...]] = [mates if d.seat == mate else others
                                                 for d in self.decisions]
        # Per seat read by a mixture: log P(model) from the previous hand (else equal).
        self.priors = model_priors(obs, params, partner) if self.decisions else {}
        if select:  # each seat by one model only: its previous hand's best, else the first
            for i, d in enumerate(self.decisions):
                prior = self.priors.get(d.seat)
                if len(self.models[i]) > 1:
                    best = max(range(len(prior)), key=prior.__getitem__) if prior else 0
                    self.models[i] = (self.models[i][best],)
        # What each play would have left the next seats, per decision and model (public: no
        # hand in it), with what each seat had shown it lacks just before the play.
        spinner_rule = _spinner_rule(obs.ruleset)
        self.reads: list[tuple[dict[int, Read] | None, ...]] = []
        for d, models in zip(self.decisions, self.models, strict=True):
            cannot: Sequence[int] | None = None
            reads: list[dict[int, Read] | None] = []
            for q in models:
                if q.reads_table and d.opening == 0:
                    if cannot is None:
                        cannot = infer_cannot(obs.steps[:d.step], len(obs.hand_sizes),
                                              spinner_rule)
                    reads.append(_table_reads(d, q, self.table_points, cannot))
                else:
                    reads.append(None)
            self.reads.append(tuple(reads))
        self._memo: dict[int, float] = {}  # (decision, model, hand then) -> log P
        by_seat: dict[int, list[tuple[int, Decision]]] = {}
        for i, d in enumerate(self.decisions):
            by_seat.setdefault(d.seat, []).append((i, d))
        self._by_seat = [(seat, items, len(self.models[items[0][0]]))
                         for seat, items in sorted(by_seat.items())]
        self._seats = {seat: (items, count) for seat, items, count in self._by_seat}
        self._seat_memo: dict[int, float] = {}  # (seat, hand now) -> that seat's log P

    @property
    def informative(self) -> bool:
        """False when every world weighs the same (no play to read)."""
        return bool(self.decisions)

    def log_weight(self, hands: list[int]) -> float:
        """Σ over the other seats of log P(their past plays | the world's hands then): one
        model's Σ over the plays, or the log of the mixture's Σ of P(model) × each model's
        product."""
        total = 0.0
        seat_memo = self._seat_memo
        for seat, _items, _count in self._by_seat:
            hand = hands[seat]
            part = seat_memo.get((seat << 28) | hand)
            total += part if part is not None else self.seat_weight(seat, hand)
        return total

    def seat_weight(self, seat: int, hand: int) -> float:
        """One seat's term of `log_weight`, the seat holding `hand` now (0 for a seat with no
        play to read): a world's weight is the sum of these, each of one seat's hand alone."""
        seat_key = (seat << 28) | hand
        part = self._seat_memo.get(seat_key)
        if part is not None:
            return part
        found = self._seats.get(seat)
        if found is None:
            return 0.0
        items, count = found
        parts = self._parts(items, count, hand)  # its plays one by one (hands then repeat)
        if count == 1:
            part = parts[0]
        else:
            prior = self.priors.get(seat) or [-math.log(count)] * count
            part = _log_sum_exp([x + w for x, w in zip(parts, prior, strict=True)])
        self._seat_memo[seat_key] = part
        return part

    def _parts(self, items: list[tuple[int, Decision]], count: int, hand: int) -> list[float]:
        """Each model's Σ log P over one seat's plays (`items`), the seat holding `hand` now."""
        memo = self._memo
        parts = [0.0] * count
        for i, d in items:
            then = hand | d.later
            models = self.models[i]
            reads = self.reads[i]
            for j in range(count):
                key = (((i << 3) | j) << 28) | then
                value = memo.get(key)
                if value is None:
                    value = memo[key] = self.log_p(d, then, reads[j], models[j])
                parts[j] += value
        return parts

    def log_p(self, d: Decision, hand: int, reads: dict[int, Read] | None = None,
               params: Params | None = None) -> float:
        """log P(the play d made | the seat held `hand` then) under the soft-max; `reads`: what
        each play would leave the next seats (`_table_reads`), scored on top."""
        scores, chosen = self.scores(d, hand, reads, params)
        if len(scores) < 2 or chosen < 0:
            return 0.0
        top = max(scores)
        return scores[chosen] - top - math.log(sum(math.exp(x - top) for x in scores))

    def scores(self, d: Decision, hand: int, reads: dict[int, Read] | None = None,
               params: Params | None = None) -> tuple[list[float], int]:
        """The score of each play the seat had at decision `d` with `hand`, and the index of
        the one it made (-1 if `hand` could not make it). Linear in the weights: with all but one
        of them 0 the scores are that reason's own values (`bench/belief_fit.py` reads them so).
        `params`: the model (default: the belief's)."""
        p = params or self.params
        s = p.scale
        wp, wd, wk, wt = p.pips * s, p.double * s, p.keep * s, p.points * s / 5.0
        points = self.table_points and wt != 0.0
        scores: list[float] = []
        chosen = -1
        if d.opening:
            m = hand if d.opening == ANY else hand & T.DOUBLES_MASK
            while m:
                low = m & -m
                t = low.bit_length() - 1
                m ^= low
                rest = hand ^ low
                keep = (rest & (_NM[_LOW[t]] | _NM[_HIGH[t]])).bit_count()
                sc = wp * _PIPS[t] + (wd if _DOUBLE[t] else 0.0) + wk * keep
                if points and not _PIPS[t] % 5:
                    sc += wt * _PIPS[t]
                if t == d.tile:
                    chosen = len(scores)
                scores.append(sc)
        else:
            ends = d.ends
            mult = d.mult
            base = 0
            if points:
                base = ends[0] * mult[0] + ends[1] * mult[1]
                if ends[2] >= 0:
                    base += ends[2] * mult[2]
                if ends[3] >= 0:
                    base += ends[3] * mult[3]
            for e in range(4):
                v = ends[e]
                if v < 0:
                    continue
                m = hand & _NM[v]
                while m:
                    low = m & -m
                    t = low.bit_length() - 1
                    m ^= low
                    new = _OTHER[t][v]
                    sc = wp * _PIPS[t] + wk * ((hand ^ low) & _NM[new]).bit_count()
                    if _DOUBLE[t]:
                        sc += wd
                    if points:
                        after = base - v * mult[e] + new * (2 if _DOUBLE[t] else 1)
                        if after and not after % 5:
                            sc += wt * after
                    if reads is not None:
                        sc += _read(reads[t * 4 + e], hand ^ low)
                    if t == d.tile and e == d.end:
                        chosen = len(scores)
                    scores.append(sc)
        return scores, chosen


class Read(NamedTuple):
    """What one play leaves the next seats, read from the table and what they showed they lack."""

    public: float  # its score from the seats left without a play, as far as they show
    replies: tuple[tuple[float, int], ...]  # the next seat's scoring replies, best first:
    #                                         (their score, the bit of the tile)
    answers: tuple[int, int, int]  # tiles that could answer it: next seat, partner, the other
    fits: int  # tiles that fit the ends it leaves
    ends: tuple[int, ...]  # per end it leaves, the tiles that fit it
    weights: tuple[float, ...]  # the hand's reasons, scaled: soft_next, soft_partner,
    #                             soft_later, follow, follow_ends per end, variety


#: (2/3)^n for the n tiles that could answer a play.
_SOFT: Final = tuple((2.0 / 3.0) ** n for n in range(29))
_N0, _N1, _N2, _N3, _N4, _N5, _N6 = _NM


def _read(r: Read, rest: int) -> float:
    """A play's score from what it leaves the next seats, the seat holding `rest` after it."""
    sc = r.public
    for value, bit in r.replies:  # the best reply not in the seat's own hand
        if not rest & bit:
            sc += value
            break
    w_next, w_partner, w_later, w_follow, w_ends, w_variety = r.weights
    nxt, partner, later = r.answers
    if w_next:
        sc += w_next * _SOFT[(nxt & ~rest).bit_count()]
    if w_partner:
        sc += w_partner * _SOFT[(partner & ~rest).bit_count()]
    if w_later:
        sc += w_later * _SOFT[(later & ~rest).bit_count()]
    if w_follow and rest & r.fits:
        sc += w_follow
    if w_ends:
        for fits in r.ends:
            if rest & fits:
                sc += w_ends
    if w_variety:  # the numbers left in hand
        sc += w_variety * ((rest & _N0 != 0) + (rest & _N1 != 0) + (rest & _N2 != 0)
                           + (rest & _N3 != 0) + (rest & _N4 != 0) + (rest & _N5 != 0)
                           + (rest & _N6 != 0))
    return sc


def _table_reads(d: Decision, p: Params, table_points: bool, cannot: Sequence[int]
                 ) -> dict[int, Read]:
    """Per play `tile * 4 + end` open at decision `d`: the parts of its score that depend on
    the table and on what the next seats showed they lack (`cannot`, per seat), not on the hand;
    `_read` adds the hand's part (and skips the replies the hand holds itself)."""
    s = p.scale
    seats = len(cannot)
    nxt = (d.seat + 1) % seats
    partner = (d.seat + 2) % seats if seats == 4 else -1
    out: dict[int, Read] = {}
    weights = (p.soft_next * s, p.soft_partner * s, p.soft_later * s, p.follow * s)
    free = T.ALL_TILES & ~d.table
    for e, v, t, low in _fitting(free, d.ends):
        ends = list(d.ends)
        mult = list(d.mult)
        ends[e] = _OTHER[t][v]
        mult[e] = 2 if _DOUBLE[t] else 1
        if d.spinner >= 0 and e < 2 and (d.arms | (e + 1)) == 3:
            ends[2] = ends[3] = d.spinner
        fits = 0
        for x in ends:
            if x >= 0:
                fits |= _NM[x]
        left = fits & free & ~low  # tiles that could answer, the one played aside
        public = 0.0
        if not left & ~cannot[nxt]:
            public += p.stuck_next * s
        if partner >= 0 and not left & ~cannot[partner]:
            public += p.stuck_partner * s
        replies: tuple[tuple[float, int], ...] = ()
        if table_points and p.threat:
            replies = _replies(ends, mult, left & ~cannot[nxt], -p.threat * s / 5.0)
        answers = (left & ~cannot[nxt], left & ~cannot[partner] if partner >= 0 else 0,
                   left & ~cannot[(d.seat + 3) % 4] if partner >= 0 else 0)
        open_ends = tuple(_NM[x] for x in ends if x >= 0)
        out[t * 4 + e] = Read(public, replies, answers, fits, open_ends,
                              (*weights, p.follow_ends * s / len(open_ends), p.variety * s))
    return out


def _fitting(tiles: int, ends: Sequence[int]) -> Iterator[tuple[int, int, int, int]]:
    """(end, its number, tile, the tile's bit) for each of `tiles` that fits an open end."""
    for e, v in enumerate(ends):
        if v < 0:
            continue
        m = tiles & _NM[v]
        while m:
            low = m & -m
            m ^= low
            yield e, v, low.bit_length() - 1, low


def _replies(ends: list[int], mult: list[int], tiles: int, weight: float
             ) -> tuple[tuple[float, int], ...]:
    """The table points each of `tiles` would score at best on these ends, times `weight`,
    highest first (tiles that score nothing are left out)."""
    count = sum(x * k for x, k in zip(ends, mult, strict=True) if x >= 0)
    best: dict[int, int] = {}
    for j, v, u, _bit in _fitting(tiles, ends):
        made = count - v * mult[j] + _OTHER[u][v] * (2 if _DOUBLE[u] else 1)
        if made > 0 and not made % 5 and made > best.get(u, 0):
            best[u] = made
    order = sorted(best.items(), key=lambda item: -item[1])
    return tuple((weight * made, _BIT[u]) for u, made in order)


def resample(log_weights: list[float], count: int, u: float) -> list[int]:
    """Systematic resampling: `count` indices drawn in proportion to the weights (`u` in [0, 1))."""
    top = max(log_weights)
    weights = [math.exp(w - top) for w in log_weights]
    total = sum(weights)
    step = total / count
    out: list[int] = []
    target = u * step
    acc = 0.0
    i = 0
    last = len(weights) - 1
    for _ in range(count):
        while i < last and acc + weights[i] <= target:
            acc += weights[i]
            i += 1
        out.append(i)
        target += step
    return out
