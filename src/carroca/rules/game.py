"""The match state machine shared by every ruleset.

A `Match` is a whole match: it waits for a deal (`needs_deal`, then `deal(order)` with the 28
tiles in shuffle order — dealing is a chance step supplied from outside, so tests script exact
hands and the server uses the verifiable shuffle), then takes actions from the seat to move until
the hand ends, scores it, and waits for the next deal or declares the match over.

Legal actions come in a stable, documented order (`legal_actions`):
  1. the cinco-carroças choice: `five-doubles:points`, then `five-doubles:redeal`;
  2. the opening: one play per allowed tile, ascending tile index (`0-0`, `0-1`, …, `6-6`);
  3. otherwise plays grouped by end — `left`, `right`, `up`, `down` — and within an end by
     ascending tile index (a tile that fits two ends appears once per end);
  4. when no tile fits: `draw` if the boneyard is in use and not empty, else `pass`.

`push`/`pop` save and restore the state around an action for search; `copy` is a cheap clone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Final, NamedTuple

import carroca.rules.actions as A
import carroca.rules.tiles as T
from carroca.rules.actions import Action
from carroca.rules.errors import GameOver, IllegalMove, InvalidDeal, NotYourTurn
from carroca.rules.rulesets import (
    FIRST_HAND,
    HandEnding,
    HandScore,
    OpeningRule,
    Options,
    Ruleset,
    get_ruleset,
)

# Module constants are `Final` so that the compiled build reads them as C statics.
_PLAYS: Final = A.PLAYS
#: Every action by its code (a play's code: 5 * tile + end).
_ACTIONS: Final = A.ACTIONS
_NUMBER_MASK: Final = T.NUMBER_MASK
_OTHER: Final = T.OTHER_HALF
_IS_DOUBLE: Final = T.IS_DOUBLE
_BIT: Final = T.BIT
_LOW: Final = T.LOW
_HIGH: Final = T.HIGH
_DOUBLES: Final = T.DOUBLES_MASK
_PASS: Final = A.PASS_ACTION
_DRAW: Final = A.DRAW_ACTION
_FIVE_POINTS: Final = A.FIVE_POINTS
_FIVE_REDEAL: Final = A.FIVE_REDEAL
_OPENING: Final = A.OPENING
_SAIDA_PASS_POINTS: Final = 20
_ALL_TILE_SET: Final = frozenset(range(T.TILE_COUNT))
_ALL_TILES: Final = T.ALL_TILES
#: Timeouts in a row that count as abandonment (rules.md §5).
ABANDON_TIMEOUTS: Final = 3

# Phases as plain ints on the hot path; `Match.phase` exposes them as `Phase`.
_DEAL: Final = 0
_CHOICE: Final = 1
_PLAY: Final = 2
_OVER: Final = 3


#: OPEN_MASK[l][r]: the tiles that fit a table whose two ends show l and r.
_OPEN_MASK: Final = tuple(
    tuple(_NUMBER_MASK[a] | _NUMBER_MASK[b] for b in range(7)) for a in range(7)
)


class Phase(IntEnum):
    DEAL = _DEAL  # waiting for the next deal
    CHOICE = _CHOICE  # cinco carroças: the seat with five or more doubles chooses
    PLAY = _PLAY  # opening and play
    OVER = _OVER  # match over


class Step(NamedTuple):
    """One action as it happened: who, what, the tile drawn (draws), and the server's `auto`."""

    seat: int
    action: Action
    drawn: int = -1
    auto: bool = False


_new_tuple: Final = tuple.__new__
_ACTION_COUNT: Final = A.ACTION_COUNT
#: The steps without a drawn tile, shared (they are immutable): `_STEPS[(4 * auto + seat) *
#: ACTION_COUNT + action.code]`; and every draw, `_DRAWN[(4 * auto + seat) * 28 + tile]`.
_STEPS: Final = tuple(
    _new_tuple(Step, (seat, a, -1, auto)) for auto in (False, True) for seat in range(4)
    for a in A.ACTIONS
)
_DRAWN: Final = tuple(
    _new_tuple(Step, (seat, _DRAW, t, auto)) for auto in (False, True) for seat in range(4)
    for t in range(T.TILE_COUNT)
)
#: The table's placements, shared: `_PLACED[seat * 140 + 5 * tile + end]` is (seat, tile, end)
#: (items typed Any so that the compiled build appends the shared tuple, not a new copy).
_PLACED: Final[tuple[Any, ...]] = tuple(
    (seat, t, e) for seat in range(4) for t in range(T.TILE_COUNT) for e in range(5)
)


# The frozen dataclasses built on every hand write their fields in their own `__init__` with
# `object.__setattr__`, which the compiled build turns into plain stores (the `__init__` that
# `dataclass` would generate runs as interpreted code, several microseconds a hand).


@dataclass(frozen=True, slots=True, init=False)
class ScoreEvent:
    """Points scored: after step `index` of the hand (-1: at the end of the hand)."""

    index: int
    team: int
    points: int
    reason: str

    def __init__(self, index: int, team: int, points: int, reason: str) -> None:
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "team", team)
        object.__setattr__(self, "points", points)
        object.__setattr__(self, "reason", reason)


@dataclass(frozen=True, slots=True, init=False)
class HandEnd:
    kind: str  # batida | fechado | redeal | abandon
    seat: int | None  # batedor, locker or who abandoned; None for redeal
    winner: int | None = None  # the team that won the hand, if any
    detail: str = ""  # e.g. the bloqueio batida type, "capicu", "batida-carroca"

    def __init__(
        self, kind: str, seat: int | None, winner: int | None = None, detail: str = ""
    ) -> None:
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "winner", winner)
        object.__setattr__(self, "detail", detail)


@dataclass(frozen=True, slots=True, init=False)
class HandLog:
    """A finished (or abandoned) hand: what a record stores, plus the scoring breakdown."""

    deal_index: int
    dealt: tuple[tuple[int, ...], ...]
    boneyard: tuple[int, ...]
    steps: tuple[Step, ...]
    end: HandEnd
    score: tuple[int, ...]
    events: tuple[ScoreEvent, ...]
    opener: int
    rule: OpeningRule

    def __init__(
        self,
        deal_index: int,
        dealt: tuple[tuple[int, ...], ...],
        boneyard: tuple[int, ...],
        steps: tuple[Step, ...],
        end: HandEnd,
        score: tuple[int, ...],
        events: tuple[ScoreEvent, ...],
        opener: int,
        rule: OpeningRule,
    ) -> None:
        object.__setattr__(self, "deal_index", deal_index)
        object.__setattr__(self, "dealt", dealt)
        object.__setattr__(self, "boneyard", boneyard)
        object.__setattr__(self, "steps", steps)
        object.__setattr__(self, "end", end)
        object.__setattr__(self, "score", score)
        object.__setattr__(self, "events", events)
        object.__setattr__(self, "opener", opener)
        object.__setattr__(self, "rule", rule)


@dataclass(frozen=True, slots=True, init=False)
class MatchResult:
    winner: int
    score: tuple[int, ...]
    reason: str  # target | abandon
    pneu: bool = False  # the losers ended on zero

    def __init__(
        self, winner: int, score: tuple[int, ...], reason: str, pneu: bool = False
    ) -> None:
        object.__setattr__(self, "winner", winner)
        object.__setattr__(self, "score", score)
        object.__setattr__(self, "reason", reason)
        object.__setattr__(self, "pneu", pneu)


class Match:
    """A whole match of one ruleset; see the module docstring for the protocol."""

    def __init__(self, ruleset: Ruleset | str, options: Options | None = None) -> None:
        rs = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
        if options is None:
            options = rs.default_options
        elif not isinstance(options, rs.options_type):
            raise TypeError(f"options for {rs.name} must be {rs.options_type.__name__}")
        self.ruleset: Ruleset = rs
        self.options: Any = options
        self.n: int = rs.seats
        # ruleset flags, copied once for the hot path
        self._draws: bool = rs.draws
        self._spinner_rule: bool = rs.spinner
        self._table_points: bool = rs.table_points
        self._pass_points: int = getattr(options, "pass_points", 0) if rs.pass_points else 0
        self._galo_points: int = getattr(options, "galo_points", 0) if rs.pass_points else 0
        self.score: list[int] = [0, 0]
        self._phase: int = _DEAL
        self.deal_index: int = 0
        self.history: list[HandLog] = []
        self.result: MatchResult | None = None
        self.hand_rule: OpeningRule = FIRST_HAND
        self._stack: list[tuple[Any, ...]] = []
        self.hands: list[int] = [0] * self.n
        self.dealt: tuple[tuple[int, ...], ...] = ()
        self.boneyard: tuple[int, ...] = ()
        self._reset_hand()

    def _reset_hand(self) -> None:
        self.bone_pos: int = 0
        # ends[e]: the number open at end e (-1: closed); mult[e]: how it counts (0, 1, 2).
        self.ends: list[int] = [-1, -1, -1, -1]
        self.mult: list[int] = [0, 0, 0, 0]
        self.spinner: int = -1  # the spinner's number while an arm is still uncovered
        self.arms: int = 0  # bit 0: the spinner's left arm has a tile; bit 1: its right arm
        self.table: list[tuple[int, int, int]] = []  # (seat, tile, end) in play order
        self.steps: list[Step] = []
        self.events: list[ScoreEvent] = []
        # caches kept for `observation` (public form of each step; the revealed last hand)
        self.public_cache: list[Any] = []
        self.revealed_cache: tuple[HandLog, dict[str, Any]] | None = None
        self.turn: int = -1
        self.opener: int = -1
        self.opening_mask: int = -1  # >= 0 while the opening tile is still to be played
        self.pass_run: int = 0
        self.last_player: int = -1
        self._legal: list[Action] | None = None

    # ------------------------------------------------------------------ queries

    @property
    def phase(self) -> Phase:
        return Phase(self._phase)

    @property
    def needs_deal(self) -> bool:
        return self._phase == _DEAL

    @property
    def is_over(self) -> bool:
        return self._phase == _OVER

    @property
    def current_player(self) -> int | None:
        """The seat to act, or None while waiting for a deal or after the match."""
        return self.turn if self._phase == _PLAY or self._phase == _CHOICE else None

    @property
    def hand_number(self) -> int:
        """How many hands (deals) were completed before the current one."""
        return len(self.history)

    @property
    def boneyard_left(self) -> int:
        return len(self.boneyard) - self.bone_pos if self._draws else 0

    def team_of(self, seat: int) -> int:
        return seat % 2

    def open_ends(self) -> list[tuple[int, int]]:
        """(end, number) of every end a tile can be played on now."""
        return [(e, v) for e, v in enumerate(self.ends) if v >= 0]

    def table_count(self) -> int:
        """The table count of rules.md §1 (one tile: its pips; else ends, doubles twice)."""
        if len(self.table) == 1:
            return T.PIPS[self.table[0][1]]
        e = self.ends
        m = self.mult
        return e[0] * m[0] + e[1] * m[1] + e[2] * m[2] + e[3] * m[3]

    def count_after(self, action: Action) -> int:
        """The table count right after a legal play (rules.md §1), without playing it."""
        tile = action.tile
        end = action.end
        if end == _OPENING:
            return T.PIPS[tile]
        e0, e1, e2, e3 = self.ends
        m0, m1, m2, m3 = self.mult
        new = _OTHER[tile][self.ends[end]]
        weight = 2 if _IS_DOUBLE[tile] else 1
        if end == 0:
            e0, m0 = new, weight
        elif end == 1:
            e1, m1 = new, weight
        elif end == 2:
            e2, m2 = new, weight
        else:
            e3, m3 = new, weight
        total = e0 * m0 + e1 * m1
        if e2 >= 0:
            total += e2 * m2
        if e3 >= 0:
            total += e3 * m3
        return total

    def points_after(self, action: Action) -> int:
        """What a legal play scores on the table (rules.md §1): its count if a multiple of 5."""
        count = self.count_after(action)
        return 0 if count % 5 else count

    def legal_actions(self) -> list[Action]:
        """Legal actions of the seat to move, in the documented order (empty if none).

        The list is shared until the next action: copy it before changing it.
        """
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        return legal

    def _generate(self) -> list[Action]:
        if self._phase != _PLAY:
            if self._phase == _CHOICE:
                return [_FIVE_POINTS, _FIVE_REDEAL]
            return []
        if self.opening_mask >= 0:
            if not self.opening_mask:
                return [_PASS]  # duplas-pontos: the batedor without a double passes the saída
            return [_PLAYS[t][_OPENING] for t in T.iter_tiles(self.opening_mask)]
        hand = self.hands[self.turn]
        ends = self.ends
        out: list[Action] = []
        # Each end's tiles, ascending: the lowest set bit of what fits, one at a time.
        m = hand & _NUMBER_MASK[ends[0]]
        while m:
            low = m & -m
            out.append(_ACTIONS[5 * low.bit_length() - 5])
            m ^= low
        m = hand & _NUMBER_MASK[ends[1]]
        while m:
            low = m & -m
            out.append(_ACTIONS[5 * low.bit_length() - 4])
            m ^= low
        if ends[2] >= 0:
            m = hand & _NUMBER_MASK[ends[2]]
            while m:
                low = m & -m
                out.append(_ACTIONS[5 * low.bit_length() - 3])
                m ^= low
            m = hand & _NUMBER_MASK[ends[3]]
            while m:
                low = m & -m
                out.append(_ACTIONS[5 * low.bit_length() - 2])
                m ^= low
        if out:
            return out
        if self._draws and self.bone_pos < len(self.boneyard):
            return [_DRAW]
        return [_PASS]

    def is_legal(self, action: Action) -> bool:
        return action in self.legal_actions()

    # ------------------------------------------------------------------ dealing

    def deal(self, order: Sequence[int]) -> None:
        """Start the next hand from the 28 tiles in shuffle order (record.md, shuffle step 4)."""
        if self._phase != _DEAL:
            raise InvalidDeal("Não é hora de distribuir as pedras.")
        order = tuple(order)
        if len(order) != T.TILE_COUNT or not _all_tiles_once(order):
            raise InvalidDeal("A distribuição precisa conter as 28 pedras, cada uma uma vez.")
        n = self.n
        self._reset_hand()
        dealt = []
        hands = []
        for s in range(n):
            part = order[7 * s : 7 * s + 7]
            dealt.append(part)
            mask = 0
            for t in part:
                mask |= _BIT[t]
            hands.append(mask)
        self.dealt = tuple(dealt)
        self.hands = hands
        self.boneyard = order[7 * n :]
        self._phase = _PLAY
        if self.ruleset.five_doubles:
            for seat, hand in enumerate(self.hands):
                if (hand & _DOUBLES).bit_count() >= 5:
                    self._phase = _CHOICE
                    self.turn = seat
                    return
        self._begin_opening()

    def _begin_opening(self) -> None:
        kind, seat = self.hand_rule
        if kind == "first":
            seat, mask = self.ruleset.first_opening(self.hands)
        elif kind == "double":
            mask = self.hands[seat] & _DOUBLES
        else:
            mask = self.hands[seat]
        self.turn = seat
        self.opener = seat
        self.opening_mask = mask
        self._legal = None

    # ------------------------------------------------------------------ acting

    def apply(self, action: Action, seat: int | None = None, *, auto: bool = False) -> None:
        """Apply the action of the seat to move; `seat`, when given, must be that seat.

        A refused action raises (NotYourTurn, IllegalMove, GameOver) and changes nothing.
        """
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        if action not in legal or (seat is not None and seat != self.turn):
            raise self._refusal(action, seat)
        self._legal = None
        turn = self.turn
        code = action.code
        if code < 140:  # a play
            self._play(turn, action, auto)
        elif code == 141:
            self._pass(turn, action, auto)
        elif code == 140:
            tile = self.boneyard[self.bone_pos]
            self.bone_pos += 1
            self.hands[turn] |= _BIT[tile]
            self.steps.append(_DRAWN[(4 * auto + turn) * 28 + tile])
            if self.bone_pos == len(self.boneyard) and self._blocked():
                self._end_hand("fechado", self.last_player)
        else:
            self._five_doubles(turn, action, auto)

    def _play(self, seat: int, action: Action, auto: bool) -> None:
        tile = action.tile
        end = action.end
        self.hands[seat] ^= _BIT[tile]
        code = action.code
        self.steps.append(_STEPS[(4 * auto + seat) * _ACTION_COUNT + code])
        self.table.append(_PLACED[seat * 140 + code])
        ends = self.ends
        before0 = ends[0]
        before1 = ends[1]
        if end == _OPENING:
            self.opening_mask = -1
            ends[0] = _LOW[tile]
            ends[1] = _HIGH[tile]
            self.mult[0] = self.mult[1] = 2 if _IS_DOUBLE[tile] else 1
            if self._spinner_rule:
                self.spinner = _LOW[tile]
        else:
            ends[end] = _OTHER[tile][ends[end]]
            self.mult[end] = 2 if _IS_DOUBLE[tile] else 1
            if self.spinner >= 0 and end < 2:
                self.arms |= end + 1
                if self.arms == 3:
                    ends[2] = ends[3] = self.spinner  # up and down open; they count once covered
                    self.spinner = -1
        if self._table_points:
            count = self.table_count()
            if count and not count % 5:
                self._score(seat % 2, count, "mesa")
        self.last_player = seat
        self.pass_run = 0
        hands = self.hands
        if not hands[seat]:
            self._end_hand("batida", seat, tile, (before0, before1), end)
            return
        if not self._draws or self.bone_pos >= len(self.boneyard):
            fits = _OPEN_MASK[ends[0]][ends[1]]
            if ends[2] >= 0:
                fits |= _OPEN_MASK[ends[2]][ends[3]]
            for h in hands:
                if h & fits:
                    break
            else:
                self._end_hand("fechado", seat, tile, (before0, before1), end)
                return
        self.turn = (seat + 1) % self.n

    def _blocked(self) -> bool:
        m = 0
        for v in self.ends:
            if v >= 0:
                m |= _NUMBER_MASK[v]
        return not any(h & m for h in self.hands)

    def _pass(self, seat: int, action: Action, auto: bool) -> None:
        self.steps.append(_STEPS[(4 * auto + seat) * _ACTION_COUNT + action.code])
        n = self.n
        if self.opening_mask == 0:
            # The batedor holds no double: the other team scores 20 and the saída goes to the
            # next seat in turn order that holds a double (rules.md §2, Saída).
            self._score(1 - seat % 2, _SAIDA_PASS_POINTS, "saida-passada")
            for k in range(1, n):
                nxt = (seat + k) % n
                doubles = self.hands[nxt] & _DOUBLES
                if doubles:
                    self.turn = self.opener = nxt
                    self.opening_mask = doubles
                    return
            raise IllegalMove("Ninguém tem carroça para sair.")  # impossible with 28 dealt
        if self._pass_points and self.pass_run == 0:
            self._score(self.last_player % 2, self._pass_points, "passe")
        if self._galo_points and self.pass_run == n - 2:
            self._score(self.last_player % 2, self._galo_points, "galo")
        self.pass_run += 1
        self.turn = (seat + 1) % n

    def _five_doubles(self, seat: int, action: Action, auto: bool) -> None:
        self.steps.append(_STEPS[(4 * auto + seat) * _ACTION_COUNT + action.code])
        if action.choice == "points":
            doubles = (self.hands[seat] & _DOUBLES).bit_count()
            self._score(seat % 2, 10 * doubles, "cinco-carrocas")
            self._phase = _PLAY
            self._begin_opening()
        else:
            self._finish_hand(HandEnd("redeal", None), next_rule=self.hand_rule)

    def _score(self, team: int, points: int, reason: str, index: int | None = None) -> None:
        self.score[team] += points
        idx = len(self.steps) - 1 if index is None else index
        self.events.append(ScoreEvent(idx, team, points, reason))

    def _end_hand(
        self,
        kind: str,
        seat: int,
        last_tile: int = -1,
        before: tuple[int, int] = (-1, -1),
        last_end: int = -1,
    ) -> None:
        if last_tile < 0:  # blocked by a draw: the last tile is the last one on the table
            _, last_tile, last_end = self.table[-1]
        ending = HandEnding(
            kind,  # type: ignore[arg-type]
            seat,
            tuple(self.hands),
            last_tile,
            before,
            last_end,
            self.opener,
            self.hand_rule,
        )
        verdict: HandScore = self.ruleset.score_hand(self.options, ending)
        for team, points, reason in verdict.points:
            if points:
                self._score(team, points, reason, index=-1)
        next_rule = self.ruleset.next_opening(self.options, ending, verdict.winner)
        self._finish_hand(HandEnd(kind, seat, verdict.winner, verdict.detail), next_rule)

    def _log_hand(self, end: HandEnd) -> None:
        self.history.append(
            HandLog(
                self.deal_index,
                self.dealt,
                self.boneyard,
                tuple(self.steps),
                end,
                tuple(self.score),
                tuple(self.events),
                self.opener,
                self.hand_rule,
            )
        )
        self.deal_index += 1
        self.turn = -1

    def _finish_hand(self, end: HandEnd, next_rule: OpeningRule) -> None:
        self._log_hand(end)
        self.hand_rule = next_rule
        winner = None
        if end.kind != "redeal":
            winner = self.ruleset.match_winner(self.options, self.score)
        if winner is None:
            self._phase = _DEAL
        else:
            self._declare(winner, "target")

    def _declare(self, winner: int, reason: str) -> None:
        score = tuple(self.score)
        pneu = score[1 - winner] == 0 and score[winner] > 0
        self.result = MatchResult(winner, score, reason, pneu)
        self._phase = _OVER

    def timeouts_in_a_row(self, seat: int) -> int:
        """How many of the seat's latest actions in this match were made for it (`auto`)."""
        count = 0
        for steps in (self.steps, *(log.steps for log in reversed(self.history))):
            for step in reversed(steps):
                if step.seat == seat:
                    if not step.auto:
                        return count
                    count += 1
        return count

    def abandon(self, seat: int) -> None:
        """The seat to move abandons at its third timeout in a row (two `auto` actions before).

        The hand stops where it is and the other team wins the match (rules.md §5).
        """
        if self._phase != _PLAY and self._phase != _CHOICE:
            raise GameOver("Não há mão em andamento para abandonar.")
        if seat != self.turn:
            raise NotYourTurn(seat, self.turn)
        if self.timeouts_in_a_row(seat) < ABANDON_TIMEOUTS - 1:
            raise IllegalMove(
                f"Abandono é o {ABANDON_TIMEOUTS}º tempo estourado seguido; "
                f"este jogador tem {self.timeouts_in_a_row(seat)} antes deste."
            )
        self._legal = None
        winner = 1 - seat % 2
        self._log_hand(HandEnd("abandon", seat, winner))
        self._declare(winner, "abandon")

    # ------------------------------------------------------------------ refusals

    def _refusal(self, action: object, seat: int | None) -> IllegalMove:
        """Why an action is refused, in words a player understands."""
        phase = self._phase
        if phase == _OVER:
            return GameOver("A partida já terminou.")
        if phase == _DEAL:
            return GameOver("A mão terminou; aguarde a próxima distribuição.")
        if seat is not None and seat != self.turn:
            return NotYourTurn(seat, self.turn)
        if not isinstance(action, Action):
            return IllegalMove(f"Ação inválida: {action!r}.")
        if phase == _CHOICE:
            return IllegalMove(
                "Você tem cinco carroças ou mais: "
                "escolha ficar com os pontos ou embaralhar de novo."
            )
        if action.kind == "five-doubles":
            return IllegalMove("A escolha das cinco carroças só vale antes da saída.")
        hand = self.hands[self.turn]
        legal = self.legal_actions()
        if self.opening_mask >= 0:
            if not self.opening_mask:
                return IllegalMove("Você não tem carroça: passe a saída.")
            if action.kind == "play" and not hand & _BIT[action.tile]:
                return IllegalMove(f"Você não tem a pedra {T.NAMES[action.tile]}.")
            if self.opening_mask.bit_count() == 1:
                return IllegalMove(f"A saída tem de ser com a {T.NAMES[legal[0].tile]}.")
            if self.opening_mask == hand:
                return IllegalMove("Esta é a saída: jogue a primeira pedra da mão, sem ponta.")
            return IllegalMove("A saída tem de ser com uma carroça.")
        if action.kind == "play":
            if not hand & _BIT[action.tile]:
                return IllegalMove(f"Você não tem a pedra {T.NAMES[action.tile]}.")
            if action.end == _OPENING:
                return IllegalMove("Escolha a ponta onde colocar a pedra.")
            v = self.ends[action.end]
            if v < 0:
                return IllegalMove(f"A ponta {_END_PT[action.end]} não está aberta.")
            return IllegalMove(
                f"A pedra {T.NAMES[action.tile]} não encaixa na ponta {_END_PT[action.end]}, "
                f"que mostra {v}."
            )
        if legal[0].kind == "play":
            what = "comprar" if action.kind == "draw" else "passar"
            return IllegalMove(f"Você tem pedra que serve: não pode {what}.")
        if action.kind == "pass":
            return IllegalMove("Nenhuma pedra serve: compre do monte antes de passar.")
        if not self._draws:
            return IllegalMove("Nesta modalidade não se compra: passe a vez.")
        return IllegalMove("O monte acabou: passe a vez.")

    # ------------------------------------------------------------------ search support

    def snapshot(self) -> tuple[Any, ...]:
        """The position as `push` saves it and `pop` restores it: equal snapshots, equal
        positions (search relies on it; tests check that push then pop leaves it unchanged)."""
        return (
            self._phase,
            self.turn,
            list(self.hands),
            self.bone_pos,
            list(self.ends),
            list(self.mult),
            self.spinner,
            self.arms,
            len(self.table),
            len(self.steps),
            len(self.events),
            len(self.history),
            list(self.score),
            self.opener,
            self.opening_mask,
            self.pass_run,
            self.last_player,
            self.result,
            self.hand_rule,
            self.deal_index,
        )

    def push(self, action: Action, seat: int | None = None) -> None:
        """Apply an action, remembering how to undo it with `pop` (within a deal)."""
        snap = self.snapshot()
        self.apply(action, seat)
        self._stack.append(snap)

    def pop(self) -> None:
        """Undo the last `push`."""
        if not self._stack:
            raise IllegalMove("Nada para desfazer.")
        (
            self._phase,
            self.turn,
            self.hands,
            self.bone_pos,
            self.ends,
            self.mult,
            self.spinner,
            self.arms,
            table_len,
            steps_len,
            events_len,
            history_len,
            self.score,
            self.opener,
            self.opening_mask,
            self.pass_run,
            self.last_player,
            self.result,
            self.hand_rule,
            self.deal_index,
        ) = self._stack.pop()
        del self.history[history_len:]
        del self.table[table_len:]
        del self.steps[steps_len:]
        del self.events[events_len:]
        del self.public_cache[steps_len:]
        self._legal = None

    @classmethod
    def from_position(
        cls,
        ruleset: Ruleset | str,
        options: Options | None,
        *,
        hands: Sequence[int],
        table: Sequence[tuple[int, int, int]],
        turn: int,
        score: Sequence[int],
        boneyard: Sequence[int] = (),
        pass_run: int = 0,
        opening_mask: int = -1,
    ) -> Match:
        """A hand in progress, built from what is on the table and in every hand.

        Search uses it on sampled worlds: `hands` are bitmasks of the tiles each seat holds now,
        `table` the placements (seat, tile, end) in play order, `boneyard` the tiles still to
        draw in order. With an empty table the seat `turn` is to open with `opening_mask`.
        Finished hands, the steps that led here and the opening rule are not reconstructed.
        """
        m = cls(ruleset, options)
        held = list(hands)
        for seat, tile, _ in table:  # each placement starts in its player's hand
            held[seat] |= _BIT[tile]
        m.hands = held
        m.boneyard = tuple(boneyard)
        m._phase = _PLAY
        for seat, tile, end in table:
            m.turn = seat
            m.opening_mask = 0 if end == _OPENING else -1
            m._play(seat, _PLAYS[tile][end], False)
        m.hands = list(hands)
        m.steps = []
        m.events = []
        m.public_cache = []
        m.score = list(score)
        m.turn = turn
        m.pass_run = pass_run
        m.last_player = table[-1][0] if table else -1
        if not table:
            m.opener = turn
            m.opening_mask = opening_mask if opening_mask >= 0 else m.hands[turn]
        m._legal = None
        return m

    def copy(self, keep_caches: bool = False) -> Match:
        """An independent clone (finished hands are immutable and shared). `keep_caches`: the
        clone keeps what `observation` converted so far (a server replacing its match by the
        clone once a move is stored does not convert the hand again)."""
        new = Match(self.ruleset, self.options)
        if keep_caches:
            new.public_cache = list(self.public_cache)
            new.revealed_cache = self.revealed_cache
        new._phase = self._phase
        new.deal_index = self.deal_index
        new.result = self.result
        new.hand_rule = self.hand_rule
        new.dealt = self.dealt
        new.boneyard = self.boneyard
        new.bone_pos = self.bone_pos
        new.spinner = self.spinner
        new.arms = self.arms
        new.turn = self.turn
        new.opener = self.opener
        new.opening_mask = self.opening_mask
        new.pass_run = self.pass_run
        new.last_player = self.last_player
        new.hands = list(self.hands)
        new.ends = list(self.ends)
        new.mult = list(self.mult)
        new.score = list(self.score)
        new.table = list(self.table)
        new.steps = list(self.steps)
        new.events = list(self.events)
        new.history = list(self.history)
        return new


def _all_tiles_once(order: tuple[object, ...]) -> bool:
    """Whether the 28 values are the 28 tiles, each once: `set(order) == {0, …, 27}`, without
    building the set when every value is a tile index."""
    seen = 0
    for t in order:
        if not isinstance(t, int) or not 0 <= t < T.TILE_COUNT:
            return set(order) == _ALL_TILE_SET  # values equal to a tile (1.0, True) count
        seen |= _BIT[t]
    return seen == _ALL_TILES


_END_PT = ("da esquerda", "da direita", "de cima", "de baixo")
