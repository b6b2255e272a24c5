"""The tournament director: one event's state, driven step by step by a server or offline.

`Tournament` holds no I/O and no clock of its own: the caller says what happened (a
registration, a match record, a no-show, a withdrawal, the time in an arena) and asks what to do
next (the next round's pairings, the games waiting for a result, the standings). Everything it
decides follows from the event's seed and the inputs, in order; it writes each input to `log`,
so replaying the log on a new director (`eventrecord.replay`) reaches the same state. That is
how `verify` checks an event record, and how a server can restore an event after a restart.

The life cycle: `create` → `register`/`withdraw` → `start` → per round `pair_next_round`
(Swiss, knockout) or, in an arena, `pair_waiting(at)` whenever entrants are free → a result per
game (`record_game` with its match record, or `record_forfeit`) → `standings` → `is_finished`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from carroca import fair
from carroca import record as rec
from carroca.tournament import arena, knockout, seeds, swiss
from carroca.tournament.errors import (
    AlreadyRegistered,
    BadResult,
    EventFull,
    RegistrationClosed,
    UnknownEntrant,
    UnknownGame,
    WrongState,
)
from carroca.tournament.event import (
    Entrant,
    EventSpec,
    form_duplas,
    seat_players,
    seed_order,
)
from carroca.tournament.results import Meeting, MeetingResult, Outcome
from carroca.tournament.standings import (
    Standing,
    arena_standings,
    knockout_standings,
    swiss_standings,
)

State = Literal["registration", "running", "finished"]
GameKey = tuple[int, int, int]  # (round or arena wave, table, game), each from 1


@dataclass
class Game:
    """One match to be played: team 0 is `sides[0]`. Its seeds follow from the event's."""

    key: GameKey
    sides: tuple[str, str]
    players: tuple[str, ...]
    server_seed: str
    client_seed: str
    outcome: Outcome | None = None
    record: dict[str, Any] | None = None

    @property
    def commitment(self) -> str:
        return fair.commitment(self.server_seed)


@dataclass
class Tie:
    """Two entrants paired at a table: one game, or a best of N in a knockout."""

    round: int
    table: int
    sides: tuple[str, str]
    games: list[Game] = field(default_factory=list)
    decided: bool = False
    winner: str | None = None


@dataclass
class Round:
    """A Swiss or knockout round, or an arena wave (pairings made at time `at`)."""

    number: int
    ties: list[Tie]
    byes: list[str]
    at: float | None = None


class Tournament:
    """One event. Create it with `Tournament.create`; see the module docstring."""

    def __init__(self, spec: EventSpec, event_id: str, event_seed: str) -> None:
        fair.check_seed(event_seed)
        self.spec = spec
        self.event_id = event_id
        self.event_seed = event_seed
        self.state: State = "registration"
        self.registrations: list[Entrant] = []
        self.entrants: list[Entrant] = []  # after the start, in seed order
        self.left_out: list[Entrant] = []
        self.withdrawn: set[str] = set()
        self.rounds: list[Round] = []
        self.log: list[dict[str, Any]] = []
        self.clock = 0.0  # arena: the latest time the caller has given
        self.closed = False  # arena: past its duration
        self._by_id: dict[str, Entrant] = {}
        self._order: list[str] = []  # entrant ids in seed order
        self._decided: list[Tie] = []  # ties in the order they were decided
        self._slots: list[str | None] = []  # knockout: the bracket's places now
        self._folded = 0  # knockout: rounds whose winners are in `_slots`
        self._reached: dict[str, int] = {}
        self._team0: dict[str, int] = {}  # how often each entrant sat as team 0
        self._last_opponent: dict[str, str] = {}

    @classmethod
    def create(cls, spec: EventSpec, event_id: str, event_seed: str | None = None) -> Tournament:
        """A new event; without `event_seed`, a fresh one from the system's secure source."""
        return cls(spec, event_id, event_seed or fair.new_server_seed())

    @property
    def commitment(self) -> str:
        """sha256 of the event seed: published at creation, before anyone registers."""
        return fair.commitment(self.event_seed)

    # ------------------------------------------------------------------ registration

    def register(self, entrant: Entrant) -> Entrant:
        """Add an entrant: one player, or a dupla in a 2v2 ruleset (a solo player there is
        paired with another at the start)."""
        if self.state != "registration":
            raise RegistrationClosed()
        size = len(entrant.players)
        if size not in ((1, 2) if self.spec.duplas else (1,)):
            raise WrongState("Neste torneio cada inscrição é de um jogador ou de uma dupla."
                             if self.spec.duplas else "Neste torneio cada inscrição é de um "
                             "jogador só.")
        taken = {p for e in self.registrations for p in e.players}
        for name in (entrant.id, *entrant.players):
            if name in self._by_id or name in taken:
                raise AlreadyRegistered(name)
        if len(set(entrant.players)) != size:
            raise AlreadyRegistered(entrant.players[0])
        if self.spec.capacity is not None and self._places() + size > self._capacity_places():
            raise EventFull(self.spec.capacity)
        self.registrations.append(entrant)
        self._by_id[entrant.id] = entrant
        return entrant

    def _places(self) -> int:
        return sum(len(e.players) for e in self.registrations)

    def _capacity_places(self) -> int:
        """Capacity counts entrants that play: a dupla, or two solo players, is one."""
        assert self.spec.capacity is not None
        return self.spec.capacity * (2 if self.spec.duplas else 1)

    def withdraw(self, entrant_id: str, at: float | None = None) -> None:
        """Before the start: the registration is removed. After it: the entrant is paired no
        more, and a game of theirs still waiting for a result is lost by forfeit."""
        if self.state == "registration":
            entrant = self._by_id.pop(entrant_id, None)
            if entrant is None:
                raise UnknownEntrant(entrant_id)
            self.registrations.remove(entrant)
            return
        if entrant_id not in self._order:
            raise UnknownEntrant(entrant_id)
        if entrant_id in self.withdrawn:
            return
        self._tick(at)
        self.log.append(self._entry({"withdraw": entrant_id}, at))
        self.withdrawn.add(entrant_id)
        for game in self.pending_games():
            if entrant_id in game.sides:
                self._forfeit(game, (entrant_id,), at)

    # ------------------------------------------------------------------ start

    def start(self) -> list[Entrant]:
        """Close registration: form duplas of solo players, fix the seed order."""
        if self.state != "registration":
            raise WrongState("O torneio já começou.")
        if self.spec.duplas:
            entrants, self.left_out = form_duplas(self.registrations, self.event_seed)
        else:
            entrants = list(self.registrations)
        if len(entrants) < 2:
            raise WrongState("São precisos pelo menos dois inscritos para começar.")
        self.entrants = seed_order(entrants, self.event_seed)
        self._order = [e.id for e in self.entrants]
        self._by_id = {e.id: e for e in self.entrants}
        self.state = "running"
        self.log.append({"start": True})
        if self.spec.format == "knockout":
            self._slots = knockout.first_slots(self._order)
        return self.entrants

    @property
    def total_rounds(self) -> int | None:
        """Swiss: rounds to play; knockout: rounds of the bracket; arena: None."""
        if self.spec.format == "swiss":
            return self.spec.rounds_for(len(self._order))
        if self.spec.format == "knockout":
            return knockout.rounds_needed(len(self._order))
        return None

    # ------------------------------------------------------------------ pairing

    def _require_running(self) -> None:
        if self.state == "registration":
            raise WrongState("O torneio ainda não começou.")
        if self.state == "finished":
            raise WrongState("O torneio já terminou.")

    def pair_next_round(self) -> Round:
        """The next Swiss or knockout round, from the standings (or bracket) and the seed."""
        self._require_running()
        if self.spec.format == "arena":
            raise WrongState("Na arena não há rodadas: use pair_waiting.")
        if self.rounds and self.pending_games():
            raise WrongState("A rodada anterior ainda tem partidas sem resultado.")
        total = self.total_rounds
        assert total is not None
        if len(self.rounds) >= total:
            raise WrongState("Todas as rodadas já foram emparelhadas.")
        number = len(self.rounds) + 1
        if self.spec.format == "swiss":
            pairs, byes = self._swiss_pairs(number)
        else:
            pairs, byes = self._knockout_pairs()
        rnd = self._make_round(number, pairs, byes, None)
        self.log.append({"pair": number})
        self._settle()
        return rnd

    def _swiss_pairs(self, number: int) -> tuple[list[tuple[str, str]], list[str]]:
        active = [s for s in self.standings() if s.entrant not in self.withdrawn]
        met: dict[frozenset[str], int] = {}
        for tie in self._decided:
            if any(g.outcome is not None and g.outcome.kind == "played" for g in tie.games):
                key = frozenset(tie.sides)
                met[key] = met.get(key, 0) + 1
        contenders = [swiss.Contender(s.entrant, s.points, s.byes) for s in active]
        keys = seeds.round_keys(self.event_seed, number, [c.id for c in contenders])
        pairing = swiss.pair_swiss(contenders, met, keys)
        return list(pairing.pairs), [pairing.bye] if pairing.bye else []

    def _knockout_pairs(self) -> tuple[list[tuple[str, str]], list[str]]:
        pairs: list[tuple[str, str]] = []
        byes: list[str] = []
        slots = [None if s in self.withdrawn else s for s in self._slots]
        for k in range(0, len(slots), 2):
            a, b = slots[k], slots[k + 1]
            if a is not None and b is not None:
                pairs.append((a, b))
            elif a is not None or b is not None:
                byes.append(a or b or "")
        return pairs, byes

    def pair_waiting(self, at: float) -> Round | None:
        """Arena: pair those waiting now (None when nobody can be paired)."""
        self._require_running()
        if self.spec.format != "arena":
            raise WrongState("Só a arena emparelha quem está à espera.")
        if self.closed:
            raise WrongState("A arena já acabou: não há novos emparelhamentos.")
        assert self.spec.duration is not None
        if at >= self.spec.duration:
            self.close(at)
            return None
        self._tick(at)
        busy = {e for g in self.pending_games() for e in g.sides}
        ranked = [s.entrant for s in self.standings()]
        waiting = [e for e in ranked if e not in busy and e not in self.withdrawn]
        pairs = arena.pair_waiting(waiting, self._last_opponent, bool(busy))
        if not pairs:
            return None
        number = len(self.rounds) + 1
        rnd = self._make_round(number, pairs, [], at)
        self.log.append(self._entry({"pair": number}, at))
        return rnd

    def close(self, at: float) -> None:
        """Arena: the duration is over; games still running count when they end."""
        if self.spec.format != "arena":
            raise WrongState("Só a arena tem hora para acabar.")
        self._require_running()
        self._tick(at)
        if self.closed:
            return
        self.closed = True
        self.log.append(self._entry({"close": True}, at))
        self._settle()

    def _tick(self, at: float | None) -> None:
        """Arena: time only moves forward (seconds from the start)."""
        if self.spec.format != "arena":
            return
        if isinstance(at, bool) or not isinstance(at, int | float) or not at >= self.clock:
            raise WrongState(f"Hora inválida: {at!r} (a arena já está em {self.clock}).")
        self.clock = float(at)

    @staticmethod
    def _entry(entry: dict[str, Any], at: float | None) -> dict[str, Any]:
        if at is not None:
            entry["at"] = at
        return entry

    def _make_round(self, number: int, pairs: Sequence[tuple[str, str]], byes: list[str],
                    at: float | None) -> Round:
        ties = []
        for table, (a, b) in enumerate(pairs, start=1):
            sides = self._sides(a, b, number)
            tie = Tie(number, table, sides)
            tie.games.append(self._game(tie, 1))
            ties.append(tie)
        rnd = Round(number, ties, list(byes), at)
        self.rounds.append(rnd)
        for e in byes:
            self._reached[e] = number
        for tie in ties:
            for e in tie.sides:
                self._reached[e] = number
        return rnd

    def _sides(self, a: str, b: str, number: int) -> tuple[str, str]:
        """Who is team 0: whoever sat there less often; if level, the higher-ranked (`a`) in
        odd rounds and the other in even ones."""
        ca, cb = self._team0.get(a, 0), self._team0.get(b, 0)
        first = a if ca < cb or (ca == cb and number % 2) else b
        sides = (first, b if first == a else a)
        self._team0[first] = self._team0.get(first, 0) + 1
        return sides

    def _game(self, tie: Tie, number: int) -> Game:
        """Game `number` of a tie: a best of N swaps the sides every game."""
        sides = tie.sides if number % 2 else (tie.sides[1], tie.sides[0])
        key = (tie.round, tie.table, number)
        team0, team1 = self._by_id[sides[0]], self._by_id[sides[1]]
        return Game(
            key,
            sides,
            tuple(seat_players(self.spec, team0, team1)),
            seeds.match_seed(self.event_seed, *key),
            seeds.client_seed(self.event_id, *key),
        )

    # ------------------------------------------------------------------ results

    def pending_games(self) -> list[Game]:
        """The games waiting for a result, in round and table order."""
        return [tie.games[-1] for rnd in self.rounds for tie in rnd.ties
                if not tie.decided and tie.games[-1].outcome is None]

    def game(self, key: GameKey) -> Game:
        """A game waiting for its result."""
        for game in self.pending_games():
            if game.key == tuple(key):
                return game
        raise UnknownGame(tuple(key))

    def record_game(
        self,
        key: GameKey,
        record: Mapping[str, Any],
        *,
        record_id: str | None = None,
        at: float | None = None,
        keep: bool = True,
    ) -> Outcome:
        """The result of a game from its match record, which is verified (record.md) and must be
        the match the event asked for: ruleset, options, players in seat order, seeds."""
        self._require_running()
        game = self.game(key)
        try:
            match = rec.verify(record)
        except rec.RecordError as exc:
            raise BadResult(f"O registro da partida {game.key} não confere: {exc}") from None
        self._check_record(game, record)
        result = match.result
        if result is None:
            raise BadResult(f"A partida {game.key} ainda não terminou.")
        self._tick(at)
        outcome = Outcome("played", result.winner, (result.score[0], result.score[1]),
                          record_id=record_id, at=at)
        self.log.append(self._entry({"result": list(game.key)}, at))
        game.record = dict(record) if keep else None
        self._finish_game(game, outcome)
        return outcome

    def _check_record(self, game: Game, record: Mapping[str, Any]) -> None:
        expected = {
            "ruleset": self.spec.ruleset,
            "options": dict(self.spec.options),
            "players": list(game.players),
        }
        for key, want in expected.items():
            if record.get(key) != want:
                raise BadResult(
                    f"O registro não é o da partida {game.key}: {key} devia ser {want!r}, "
                    f"e é {record.get(key)!r}."
                )
        fairness = record.get("fairness", {})
        if fairness.get("server_seed") != game.server_seed:
            raise BadResult(f"O registro da partida {game.key} não usa a semente do torneio.")
        if fairness.get("client_seed") != game.client_seed:
            raise BadResult(
                f"O registro da partida {game.key}: client_seed devia ser "
                f"{game.client_seed!r}."
            )

    def record_forfeit(
        self, key: GameKey, absent: Sequence[str], at: float | None = None
    ) -> Outcome:
        """A no-show: `absent` (one side, or both) lose the game and the tie without playing."""
        self._require_running()
        game = self.game(key)
        gone = tuple(dict.fromkeys(absent))
        if not gone or any(e not in game.sides for e in gone):
            raise BadResult(f"Os ausentes devem ser lados da partida {game.key}.")
        self._tick(at)
        self.log.append(self._entry({"forfeit": list(game.key), "absent": list(gone)}, at))
        return self._forfeit(game, gone, at)

    def _forfeit(self, game: Game, absent: tuple[str, ...], at: float | None) -> Outcome:
        present = [i for i, e in enumerate(game.sides) if e not in absent]
        winner = present[0] if len(present) == 1 else None
        outcome = Outcome("forfeit", winner, (0, 0), absent=tuple(absent), at=at)
        self._finish_game(game, outcome)
        return outcome

    def _finish_game(self, game: Game, outcome: Outcome) -> None:
        game.outcome = outcome
        tie = self._tie_of(game)
        wins = {e: 0 for e in tie.sides}
        for g in tie.games:
            if g.outcome is not None and g.outcome.winner is not None:
                wins[g.sides[g.outcome.winner]] += 1
        need = knockout.games_to_win(self.spec.best_of)
        leader = max(tie.sides, key=lambda e: wins[e])
        if outcome.kind == "forfeit":
            tie.decided = True
            tie.winner = None if outcome.winner is None else game.sides[outcome.winner]
        elif wins[leader] >= need:
            tie.decided = True
            tie.winner = leader
        else:
            tie.games.append(self._game(tie, len(tie.games) + 1))
        if tie.decided:
            self._decided.append(tie)
            a, b = tie.sides
            self._last_opponent[a], self._last_opponent[b] = b, a
            self._settle()

    def _tie_of(self, game: Game) -> Tie:
        rnd = self.rounds[game.key[0] - 1]
        return rnd.ties[game.key[1] - 1]

    def _settle(self) -> None:
        """Advance the bracket when a knockout round is complete; end the event when done."""
        if self.state != "running" or self.pending_games():
            return
        if self.spec.format == "knockout" and self._folded < len(self.rounds):
            self._slots = self._next_slots(self.rounds[-1])
            self._folded += 1
        total = self.total_rounds
        if self.spec.format == "arena":
            done = self.closed
        else:
            assert total is not None
            done = len(self.rounds) >= total
        if done:
            self.state = "finished"
            self.log.append({"finish": True})

    def _next_slots(self, rnd: Round) -> list[str | None]:
        winners: dict[str, str | None] = {}
        for tie in rnd.ties:
            for e in tie.sides:
                winners[e] = tie.winner
        out: list[str | None] = []
        for k in range(0, len(self._slots), 2):
            a, b = self._slots[k], self._slots[k + 1]
            if a in winners:
                out.append(winners[a])
            elif b in winners:
                out.append(winners[b])
            else:  # a bye, or an empty pair of places
                out.append(a if a is not None and a not in self.withdrawn else
                           b if b is not None and b not in self.withdrawn else None)
        return out

    # ------------------------------------------------------------------ standings

    @property
    def is_finished(self) -> bool:
        return self.state == "finished"

    @property
    def champion(self) -> str | None:
        """Knockout: the bracket's winner once the final is decided."""
        if self.spec.format == "knockout" and self.is_finished and len(self._slots) == 1:
            return self._slots[0]
        return None

    def meetings(self) -> dict[str, list[Meeting]]:
        """Each entrant's decided ties and byes, in the order they were decided."""
        out: dict[str, list[Meeting]] = {e: [] for e in self._order}
        byes_given = [(rnd.number, e) for rnd in self.rounds for e in rnd.byes]
        for _, e in byes_given:
            out[e].append(Meeting(None, "bye"))
        for tie in self._decided:
            for i, e in enumerate(tie.sides):
                other = tie.sides[1 - i]
                pf = pa = won = lost = 0
                forfeit = False
                for g in tie.games:
                    if g.outcome is None:
                        continue
                    mine = g.sides.index(e)
                    forfeit = forfeit or g.outcome.kind == "forfeit"
                    pf += g.outcome.score[mine]
                    pa += g.outcome.score[1 - mine]
                    if g.outcome.winner == mine:
                        won += 1
                    elif g.outcome.winner is not None:
                        lost += 1
                result: MeetingResult = "win" if tie.winner == e else "loss"
                out[e].append(Meeting(other, result, forfeit, pf, pa, won, lost))
        return out

    def standings(self) -> list[Standing]:
        """The standings now (before the start: empty)."""
        if self.state == "registration":
            return []
        meetings = self.meetings()
        if self.spec.format == "swiss":
            return swiss_standings(self._order, meetings, self.withdrawn)
        if self.spec.format == "knockout":
            return knockout_standings(self._order, meetings, self._reached, self.champion,
                                      self.withdrawn)
        return arena_standings(self._order, meetings, self.withdrawn)

    def entrant(self, entrant_id: str) -> Entrant:
        try:
            return self._by_id[entrant_id]
        except KeyError:
            raise UnknownEntrant(entrant_id) from None
