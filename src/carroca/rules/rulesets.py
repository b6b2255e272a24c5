"""The six rulesets: data (a frozen options object and flags) plus a few named hooks.

The engine (`game.py`) is one machine for all of them; a ruleset only says what differs:
how many seats, whether there is a boneyard to draw from, the spinner, points on the table, who
opens (`first_opening`, `next_opening`), what a finished hand scores (`score_hand`) and when the
match is over (`match_winner`). `RULESETS` is the registry; `get_ruleset` resolves a name.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Literal

import carroca.rules.tiles as T
from carroca.rules.errors import InvalidOption, UnknownRuleset

# --------------------------------------------------------------------------- options


_POSITIVE = "A opção {} precisa ser um número inteiro positivo."
_BOOLEAN = "A opção {} precisa ser true ou false."
_POINTS_STEP = {"capicu_bonus": 1}  # other point options are multiples of 5


def _points_message(name: str, step: int) -> str:
    return f"A opção {name} precisa ser um número inteiro ≥ 0" + (
        f", múltiplo de {step}." if step > 1 else "."
    )


def _check_target(
    value: int, allowed: Sequence[int] | None, name: str = "target", maximum: int = 0
) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise InvalidOption(_POSITIVE.format(name))
    if maximum and value > maximum:
        raise InvalidOption(f"A opção {name} vale {value}, mas o máximo é {maximum}.")
    if allowed is not None and value not in allowed:
        shown = ", ".join(str(v) for v in allowed)
        raise InvalidOption(f"A opção {name} vale {value}, mas só pode ser {shown}.")


def _check_points(value: int, name: str, step: int = 5) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0 or value % step:
        raise InvalidOption(_points_message(name, step))


def _check_bool(value: object, name: str) -> None:
    if not isinstance(value, bool):
        raise InvalidOption(_BOOLEAN.format(name))


@dataclass(frozen=True, slots=True)
class DuplasPontosOptions:
    target: int = 200
    pass_points: int = 20
    galo_points: int = 50
    always_six_six: bool = False

    def __post_init__(self) -> None:
        _check_target(self.target, (100, 200, 300))
        _check_points(self.pass_points, "pass_points")
        _check_points(self.galo_points, "galo_points")
        _check_bool(self.always_six_six, "always_six_six")


@dataclass(frozen=True, slots=True)
class DuplasTorneioOptions:
    target: int = 100
    count_partner: bool = True
    capicu_bonus: int = 0

    def __post_init__(self) -> None:
        _check_target(self.target, (50, 100, 150, 200, 500))
        _check_bool(self.count_partner, "count_partner")
        _check_points(self.capicu_bonus, "capicu_bonus", step=1)


@dataclass(frozen=True, slots=True)
class ManoAManoOptions:
    target: int = 50

    def __post_init__(self) -> None:
        _check_target(self.target, None, maximum=1000)


@dataclass(frozen=True, slots=True)
class ClassicoOptions:
    hands_to_win: int = 2

    def __post_init__(self) -> None:
        _check_target(self.hands_to_win, None, "hands_to_win", maximum=50)


@dataclass(frozen=True, slots=True)
class BloqueioOptions:
    target: int = 6

    def __post_init__(self) -> None:
        _check_target(self.target, None, maximum=100)


@dataclass(frozen=True, slots=True)
class PontosOptions:
    target: int = 100
    hand_end_pips: bool = False

    def __post_init__(self) -> None:
        _check_target(self.target, None, maximum=1000)
        _check_bool(self.hand_end_pips, "hand_end_pips")


Options = (
    DuplasPontosOptions
    | DuplasTorneioOptions
    | ManoAManoOptions
    | ClassicoOptions
    | BloqueioOptions
    | PontosOptions
)


def _check_type(key: str, value: object, default: object) -> None:
    if isinstance(default, bool):
        _check_bool(value, key)
    elif isinstance(value, bool) or not isinstance(value, int):
        if key in ("target", "hands_to_win"):
            raise InvalidOption(_POSITIVE.format(key))
        raise InvalidOption(_points_message(key, _POINTS_STEP.get(key, 5)))


_DEFAULTS: dict[str, Options] = {}


def _parse_option(key: str, value: object, default: object) -> object:
    if not isinstance(value, str):
        return value
    text = value.strip().lower()
    if isinstance(default, bool):
        if text in ("true", "1", "yes", "sim", "on"):
            return True
        if text in ("false", "0", "no", "nao", "não", "off"):
            return False
        raise InvalidOption(f"A opção {key} precisa ser true ou false, não {value!r}.")
    try:
        return int(text)
    except ValueError:
        raise InvalidOption(
            f"A opção {key} precisa ser um número inteiro, não {value!r}."
        ) from None


def options_dict(options: Options) -> dict[str, object]:
    """Every option with its value, in declaration order (what a record stores); a new dict
    each call (the caller may change it), from the names read once per options class."""
    names = _OPTION_NAMES.get(type(options))
    if names is None:
        names = _OPTION_NAMES[type(options)] = tuple(f.name for f in dataclasses.fields(options))
    return {name: getattr(options, name) for name in names}


_OPTION_NAMES: dict[type, tuple[str, ...]] = {}


# --------------------------------------------------------------------------- hook types

#: How a hand opens: ("first", -1) the first-hand rule; ("any", seat) that seat with any tile;
#: ("double", seat) that seat with any double, passing the saída when it holds none.
OpeningRule = tuple[Literal["first", "any", "double"], int]
FIRST_HAND: OpeningRule = ("first", -1)


# HandEnding and HandScore are built on every hand: their own `__init__` writes the fields with
# `object.__setattr__`, which the compiled build turns into plain stores (`dataclass`'s generated
# `__init__` would run as interpreted code).
@dataclass(frozen=True, slots=True, init=False)
class HandEnding:
    """What a hook needs to know about a hand that just ended (batida or fechado)."""

    kind: Literal["batida", "fechado"]
    seat: int  # batedor or locker
    hands: tuple[T.Mask, ...]  # tiles left in each seat's hand
    last_tile: T.Tile
    ends_before: tuple[int, int]  # left and right ends before the last tile was played
    last_end: int  # the end the last tile went on
    opener: int  # the seat that opened this hand
    rule: OpeningRule  # the opening rule this hand was played under

    def __init__(
        self,
        kind: Literal["batida", "fechado"],
        seat: int,
        hands: tuple[T.Mask, ...],
        last_tile: T.Tile,
        ends_before: tuple[int, int],
        last_end: int,
        opener: int,
        rule: OpeningRule,
    ) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "hands", hands)
        object.__setattr__(self, "last_tile", last_tile)
        object.__setattr__(self, "ends_before", ends_before)
        object.__setattr__(self, "last_end", last_end)
        object.__setattr__(self, "opener", opener)
        object.__setattr__(self, "rule", rule)


@dataclass(frozen=True, slots=True, init=False)
class HandScore:
    """A hook's verdict: the team that won the hand (None: nobody) and points per reason."""

    winner: int | None
    points: tuple[tuple[int, int, str], ...] = ()  # (team, points, reason)
    detail: str = ""  # what players announce: batida type, "capicu", "batida-carroca"

    def __init__(
        self,
        winner: int | None,
        points: tuple[tuple[int, int, str], ...] = (),
        detail: str = "",
    ) -> None:
        object.__setattr__(self, "winner", winner)
        object.__setattr__(self, "points", points)
        object.__setattr__(self, "detail", detail)


# --------------------------------------------------------------------------- hooks: opening

_SIX_SIX: Final = T.DOUBLE_OF[6]
_SIX_SIX_BIT: Final = T.BIT[_SIX_SIX]


def _six_six_opens(hands: Sequence[T.Mask]) -> tuple[int, T.Mask]:
    for seat, hand in enumerate(hands):
        if hand & _SIX_SIX_BIT:
            return seat, _SIX_SIX_BIT
    raise InvalidOption("Nenhum jogador tem o 6-6.")  # cannot happen with all 28 dealt


def _highest_double_opens(hands: Sequence[T.Mask]) -> tuple[int, T.Mask]:
    """1v1 first hand: the highest double of the 14 dealt tiles, else the heaviest tile."""
    for n in range(6, -1, -1):
        bit = T.BIT[T.DOUBLE_OF[n]]
        for seat, hand in enumerate(hands):
            if hand & bit:
                return seat, bit
    best: tuple[tuple[int, int], int, int] | None = None
    for seat, hand in enumerate(hands):
        for t in T.iter_tiles(hand):
            key = (T.PIPS[t], T.HIGH[t])
            if best is None or key > best[0]:
                best = (key, seat, t)
    if best is None:
        raise InvalidOption("Mão vazia na saída.")
    return best[1], T.BIT[best[2]]


def _next_duplas_pontos(
    options: DuplasPontosOptions, end: HandEnding | None, winner: int | None
) -> OpeningRule:
    if options.always_six_six or end is None or end.kind == "fechado":
        return FIRST_HAND
    return ("double", end.seat)


def _next_duplas_torneio(
    options: DuplasTorneioOptions, end: HandEnding | None, winner: int | None
) -> OpeningRule:
    if end is None:
        return FIRST_HAND
    return ("any", end.seat)  # the batedor, or the locker whichever side won


def _next_alternate(options: object, end: HandEnding | None, winner: int | None) -> OpeningRule:
    if end is None:
        return FIRST_HAND
    return ("any", 1 - end.opener)


def _next_winner(options: object, end: HandEnding | None, winner: int | None) -> OpeningRule:
    if end is None:
        return FIRST_HAND
    if winner is None:
        return end.rule  # no winner: the next deal opens under the same rule as this hand
    return ("any", winner)


# --------------------------------------------------------------------------- hooks: scoring


def _floor5(n: int) -> int:
    return n - n % 5


def _team_pips(hands: Sequence[T.Mask]) -> list[int]:
    totals = [0, 0]
    for seat, hand in enumerate(hands):
        totals[seat % 2] += T.pips_of(hand)
    return totals


def _lighter_team(totals: Sequence[int]) -> int | None:
    if totals[0] == totals[1]:
        return None
    return 0 if totals[0] < totals[1] else 1


def _score_duplas_pontos(options: DuplasPontosOptions, end: HandEnding) -> HandScore:
    if end.kind == "batida":
        team = end.seat % 2
        garagem = _floor5(sum(T.pips_of(h) for s, h in enumerate(end.hands) if s % 2 != team))
        points = [(team, garagem, "garagem")]
        if T.IS_DOUBLE[end.last_tile]:
            points.append((team, 20, "batida-carroca"))
            return HandScore(team, tuple(points), "batida-carroca")
        return HandScore(team, tuple(points))
    totals = _team_pips(end.hands)
    winner = _lighter_team(totals)
    if winner is None:
        return HandScore(None)
    return HandScore(winner, ((winner, _floor5(totals[1 - winner]), "fechado"),))


def is_capicu(last_tile: T.Tile, ends_before: tuple[int, int]) -> bool:
    """A non-double that fits both ends while they show different numbers."""
    left, right = ends_before
    lo, hi = T.LOW[last_tile], T.HIGH[last_tile]
    # {left, right} == {lo, hi} with left != right: the two ends are the tile's two halves
    return lo != hi and ((left == lo and right == hi) or (left == hi and right == lo))


def _score_duplas_torneio(options: DuplasTorneioOptions, end: HandEnding) -> HandScore:
    if end.kind == "batida":
        team = end.seat % 2
        counted = sum(
            T.pips_of(h)
            for s, h in enumerate(end.hands)
            if s % 2 != team or (options.count_partner and s != end.seat)
        )
        points = [(team, counted, "batida")]
        capicu = is_capicu(end.last_tile, end.ends_before)
        if capicu and options.capicu_bonus:
            points.append((team, options.capicu_bonus, "capicu"))
        return HandScore(team, tuple(points), "capicu" if capicu else "")
    winner = _lighter_team(_team_pips(end.hands))
    if winner is None:
        return HandScore(None)
    return HandScore(winner, ((winner, sum(T.pips_of(h) for h in end.hands), "trancado"),))


def _one_v_one_winner(end: HandEnding, locker_loses_ties: bool) -> int | None:
    if end.kind == "batida":
        return end.seat
    a, b = T.pips_of(end.hands[0]), T.pips_of(end.hands[1])
    if a != b:
        return 0 if a < b else 1
    return 1 - end.seat if locker_loses_ties else None


def _score_mano_a_mano(options: ManoAManoOptions, end: HandEnding) -> HandScore:
    winner = _one_v_one_winner(end, locker_loses_ties=True)
    if winner is None:  # unreachable: the locker loses ties
        return HandScore(None)
    reason = "batida" if end.kind == "batida" else "trancado"
    return HandScore(winner, ((winner, T.pips_of(end.hands[1 - winner]), reason),))


def _score_classico(options: ClassicoOptions, end: HandEnding) -> HandScore:
    winner = _one_v_one_winner(end, locker_loses_ties=False)
    if winner is None:
        return HandScore(None)
    return HandScore(winner, ((winner, 1, "mao"),))


def bloqueio_batida(last_tile: T.Tile, ends_before: tuple[int, int]) -> tuple[str, int]:
    """The batida type and its points, by the last tile and the two ends before it."""
    left, right = ends_before
    lo, hi = T.LOW[last_tile], T.HIGH[last_tile]
    if lo == hi:
        if left == lo and right == lo:
            return "cruzada", 4
        return "batida-carroca", 2
    if (left == lo and right == hi) or (left == hi and right == lo):  # {left, right} == {lo, hi}
        return "la-e-lo", 3
    return "simples", 1


def _score_bloqueio(options: BloqueioOptions, end: HandEnding) -> HandScore:
    winner = _one_v_one_winner(end, locker_loses_ties=False)
    if winner is None:
        return HandScore(None)
    if end.kind == "batida":
        kind, points = bloqueio_batida(end.last_tile, end.ends_before)
        return HandScore(winner, ((winner, points, kind),), kind)
    return HandScore(winner, ((winner, 1, "trancado"),))


def _score_pontos(options: PontosOptions, end: HandEnding) -> HandScore:
    winner = _one_v_one_winner(end, locker_loses_ties=False)
    if winner is None or not options.hand_end_pips:
        return HandScore(winner)
    return HandScore(winner, ((winner, _floor5(T.pips_of(end.hands[1 - winner])), "pontos-mao"),))


# --------------------------------------------------------------------------- hooks: match end


def _reach_target(target: int, score: Sequence[int]) -> int | None:
    """At least one side at the target: the one with more wins; level sides play on."""
    if max(score) < target or score[0] == score[1]:
        return None
    return 0 if score[0] > score[1] else 1


def _winner_by_target(options: Any, score: Sequence[int]) -> int | None:
    return _reach_target(options.target, score)


def _winner_by_hands(options: ClassicoOptions, score: Sequence[int]) -> int | None:
    return _reach_target(options.hands_to_win, score)


# --------------------------------------------------------------------------- registry


@dataclass(frozen=True, slots=True)
class Ruleset:
    name: str
    title: str  # pt-BR, for players
    summary: str  # pt-BR one-liner
    seats: int
    options_type: type[Any]
    score_hand: Callable[[Any, HandEnding], HandScore]
    # What differs from a 1v1 game without a boneyard, opened by the highest double, the hand's
    # winner opening the next, played to `options.target`:
    draws: bool = False  # a boneyard to draw from (1v1 except bloqueio)
    spinner: bool = False  # the opening double grows in a cross (duplas-pontos)
    table_points: bool = False  # table count multiple of 5 scores after every play
    pass_points: bool = False  # passe / galo / saída passada points (duplas-pontos)
    five_doubles: bool = False  # the cinco-carroças choice before the opening
    first_opening: Callable[[Sequence[T.Mask]], tuple[int, T.Mask]] = _highest_double_opens
    next_opening: Callable[[Any, HandEnding | None, int | None], OpeningRule] = _next_winner
    match_winner: Callable[[Any, Sequence[int]], int | None] = field(
        default=_winner_by_target, repr=False
    )

    @property
    def teams(self) -> int:
        return 2

    def team_of(self, seat: int) -> int:
        return seat % 2

    @property
    def default_options(self) -> Options:
        """The defaults, built once per ruleset (options objects are immutable)."""
        opts = _DEFAULTS.get(self.name)
        if opts is None:
            opts = _DEFAULTS[self.name] = self.options_type()
        return opts

    def summary_of(self, options: Options) -> str:
        """`summary` for a match with these options: the length it ends with ("até 200",
        "melhor de 3") is the match's, which a tournament or a friends' table may change."""
        rules, _ = self.summary.rstrip(".").rsplit(", ", 1)
        if isinstance(options, ClassicoOptions):
            length = f"melhor de {2 * options.hands_to_win - 1}"
        else:
            length = f"até {options.target}"
        return f"{rules}, {length}."

    def option_names(self) -> list[str]:
        return [f.name for f in dataclasses.fields(self.options_type)]

    def make_options(
        self, values: Mapping[str, object] | None = None, *, strings: bool = False
    ) -> Options:
        """Options from a mapping (unknown keys refused); `strings=True` parses CLI text."""
        values = dict(values or {})
        fields = {f.name: f for f in dataclasses.fields(self.options_type)}
        unknown = sorted(set(values) - set(fields))
        if unknown:
            raise InvalidOption(
                f"Opção desconhecida para {self.name}: {', '.join(unknown)}. "
                f"As opções são: {', '.join(fields)}."
            )
        if strings:
            values = {k: _parse_option(k, v, fields[k].default) for k, v in values.items()}
        for key, value in values.items():  # types first: the compiled build enforces them
            _check_type(key, value, fields[key].default)
        opts: Options = self.options_type(**values)
        return opts



#: Each ruleset says only what differs from the defaults of `Ruleset`.
RULESETS: dict[str, Ruleset] = {
    r.name: r
    for r in (
        Ruleset(
            "duplas-pontos", "Duplas — pontos",
            "2 contra 2 em cruz: pontos na mesa, passe, galo e garagem, até 200.",
            4, DuplasPontosOptions, _score_duplas_pontos, spinner=True, table_points=True,
            pass_points=True, five_doubles=True, first_opening=_six_six_opens,
            next_opening=_next_duplas_pontos,
        ),
        Ruleset(
            "duplas-torneio", "Duplas — torneio",
            "2 contra 2, regra de torneio: quem bate leva todas as pedras, até 100.",
            4, DuplasTorneioOptions, _score_duplas_torneio,
            first_opening=_six_six_opens, next_opening=_next_duplas_torneio,
        ),
        Ruleset(
            "mano-a-mano", "Mano a Mano",
            "1 contra 1 com compra: quem vence leva os pontos da mão do outro, até 50.",
            2, ManoAManoOptions, _score_mano_a_mano, draws=True, next_opening=_next_alternate,
        ),
        Ruleset(
            "classico", "Clássico", "1 contra 1 com compra: cada mão vale 1, melhor de 3.",
            2, ClassicoOptions, _score_classico, draws=True, match_winner=_winner_by_hands,
        ),
        Ruleset(
            "bloqueio", "Bloqueio",
            "1 contra 1 sem compra: a batida vale pelo tipo (1 a 4), até 6.",
            2, BloqueioOptions, _score_bloqueio,
        ),
        Ruleset(
            "pontos", "Pontos",
            "1 contra 1 com compra: pontas em múltiplo de 5 marcam na hora, até 100.",
            2, PontosOptions, _score_pontos, draws=True, table_points=True,
        ),
    )
}


def get_ruleset(name: str) -> Ruleset:
    try:
        return RULESETS[name]
    except (KeyError, TypeError):
        raise UnknownRuleset(str(name), list(RULESETS)) from None
