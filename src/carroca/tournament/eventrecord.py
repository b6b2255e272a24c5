"""Event records: the whole story of an event, and `verify`, which trusts none of it.

An event record is one JSON document (`"format": "carroca-event/1"`): the event as created, its
seed's commitment and, once the event is over, the seed; the registrations; the entrants in
seed order; every round's pairings, byes and games, each game with its seeds, its outcome and
its match record (embedded, or named by `record_id`); the director's log of inputs in order; the
standings. docs/tournaments.md describes every key.

`verify` replays the log on a new director built from the record's event, seed and
registrations: every pairing must be the one the director makes from the standings and the
seed at that point, every game's outcome must be its match record's (the match record itself
is verified by `carroca.record.verify`, and must use the seeds derived from the event's), and
the standings at the end must be the ones recomputed. The first disagreement is reported as an
`EventRecordError` naming the round, table and game.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, Final, NoReturn

from carroca import fair
from carroca.tournament.director import Game, Round, Tournament
from carroca.tournament.errors import EventRecordError, TournamentError
from carroca.tournament.event import Entrant, EventSpec

FORMAT: Final = "carroca-event/1"

#: A lookup for match records the event record names by `record_id` instead of embedding.
Resolver = Callable[[str], Mapping[str, Any] | None]


def is_event_record(value: object) -> bool:
    return isinstance(value, dict) and value.get("format") == FORMAT


# --------------------------------------------------------------------------- writing


def to_record(t: Tournament, *, reveal: bool | None = None) -> dict[str, Any]:
    """The event's record. The seed is written once the event is over (or if `reveal`)."""
    fairness: dict[str, Any] = {"commitment": t.commitment}
    if reveal or (reveal is None and t.is_finished):
        fairness["event_seed"] = t.event_seed
    out: dict[str, Any] = {
        "format": FORMAT,
        "event": {"id": t.event_id, **t.spec.to_dict()},
        "fairness": fairness,
        "registrations": [e.to_dict() for e in t.registrations],
        "entrants": [{"seed": i + 1, **e.to_dict()} for i, e in enumerate(t.entrants)],
        "left_out": [e.id for e in t.left_out],
        "rounds": [_round_dict(r) for r in t.rounds],
        "log": [dict(entry) for entry in t.log],
        "standings": [s.to_dict() for s in t.standings()],
        "state": t.state,
    }
    return out


def _round_dict(rnd: Round) -> dict[str, Any]:
    out: dict[str, Any] = {"round": rnd.number}
    if rnd.at is not None:
        out["at"] = rnd.at
    out["byes"] = list(rnd.byes)
    out["tables"] = [
        {
            "table": tie.table,
            "sides": list(tie.sides),
            "winner": tie.winner,
            "games": [_game_dict(g) for g in tie.games],
        }
        for tie in rnd.ties
    ]
    return out


def _game_dict(game: Game) -> dict[str, Any]:
    out: dict[str, Any] = {
        "game": game.key[2],
        "sides": list(game.sides),
        "players": list(game.players),
        "commitment": game.commitment,
        "client_seed": game.client_seed,
    }
    if game.outcome is not None:
        out["outcome"] = game.outcome.to_dict()
    if game.record is not None:
        out["record"] = game.record
    return out


def embed(record: dict[str, Any], resolve: Resolver) -> dict[str, Any]:
    """The record with every match named only by `record_id` embedded, when `resolve` finds
    it (in place): a record that verifies on its own."""
    for rnd in record["rounds"]:
        for tie in rnd["tables"]:
            for game in tie["games"]:
                record_id = (game.get("outcome") or {}).get("record_id")
                if "record" not in game and record_id is not None:
                    found = resolve(record_id)
                    if found is not None:
                        game["record"] = found
    return record


def dumps(record: Mapping[str, Any]) -> str:
    """One compact JSON line (so a `.jsonl` file may hold event and match records alike)."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


# --------------------------------------------------------------------------- verifying


def verify(record: object, resolve: Resolver | None = None) -> Tournament:
    """Replay and check an event record; return the replayed director.

    Raises EventRecordError (and nothing else, whatever the input) at the first disagreement.
    `resolve` finds the match records named by `record_id` that are not embedded.
    """
    return _Replay(record, resolve, check=True).run()


def replay(record: Mapping[str, Any], event_seed: str | None = None,
           resolve: Resolver | None = None, *, keep: bool = True) -> Tournament:
    """Rebuild a director from an event's record, e.g. a server's after a restart: the record
    may hold no seed yet (pass the event's own `event_seed`, kept apart until the end).
    `keep=False`: the director keeps no match record, only its `record_id` (a server keeps
    them in its matches' rows)."""
    return _Replay(record, resolve, check=False, event_seed=event_seed, keep=keep).run()


def _show(value: object) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return text if len(text) <= 160 else text[:157] + "..."


class _Replay:
    def __init__(self, record: object, resolve: Resolver | None, *, check: bool,
                 event_seed: str | None = None, keep: bool = True) -> None:
        self.record = record
        self.keep = keep
        self.resolve = resolve
        self.check = check
        self.seed = event_seed
        self.where = ""

    def fail(self, message: str) -> NoReturn:
        raise EventRecordError(message, self.where)

    def obj(self, value: object, what: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            self.fail(f"{what}: expected a JSON object, found {_show(value)}")
        return value

    def lst(self, value: object, what: str) -> list[Any]:
        if not isinstance(value, list):
            self.fail(f"{what}: expected a list, found {_show(value)}")
        return value

    def need(self, obj: dict[str, Any], key: str, what: str) -> Any:
        if key not in obj:
            self.fail(f"{what}: missing key {key!r}")
        return obj[key]

    def same(self, what: str, expected: object, found: object, why: str = "") -> None:
        if expected != found:
            self.fail(f"expected {what} {_show(expected)}{why}, found {_show(found)}")

    # ------------------------------------------------------------------ the record

    def run(self) -> Tournament:
        try:
            return self._run()
        except EventRecordError:
            raise
        except TournamentError as exc:
            self.fail(f"refused by the director: {exc.message}")
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            self.fail(f"malformed event record: {type(exc).__name__}: {exc}")

    def _run(self) -> Tournament:
        rec_ = self.obj(self.record, "event record")
        fmt = self.need(rec_, "format", "event record")
        self.same("format", FORMAT, fmt)
        event = self.obj(self.need(rec_, "event", "event record"), "event")
        spec = EventSpec.from_dict(event)
        event_id = self.need(event, "id", "event")
        if not isinstance(event_id, str):
            self.fail(f"event.id: expected a string, found {_show(event_id)}")
        fairness = self.obj(self.need(rec_, "fairness", "event record"), "fairness")
        commitment = self.need(fairness, "commitment", "fairness")
        seed = fairness.get("event_seed", self.seed)
        if seed is None:
            self.fail("fairness: missing key 'event_seed': an event is verified once it is "
                      "over and its seed revealed")
        try:
            digest = fair.commitment(seed)
        except fair.FairnessError as exc:
            self.fail(f"fairness.event_seed: {exc}")
        if (self.check or "event_seed" in fairness) and digest != commitment:
            self.fail(f"fairness.commitment: expected sha256(event_seed) = {_show(digest)}, "
                      f"found {_show(commitment)}")
        t = Tournament(spec, event_id, seed)
        for i, reg in enumerate(self.lst(self.need(rec_, "registrations", "event record"),
                                         "registrations")):
            self.where = f"registration {i + 1}"
            t.register(Entrant.from_dict(self.obj(reg, "registration")))
        self.where = ""
        rounds = self.lst(self.need(rec_, "rounds", "event record"), "rounds")
        log = self.lst(self.need(rec_, "log", "event record"), "log")
        for n, entry in enumerate(log):
            self.where = f"log entry {n + 1}"
            self._input(t, self.obj(entry, "log entry"), rec_, rounds)
        self.where = ""
        self.same("log", t.log, log, " (the director's own entries included)")
        if len(rounds) != len(t.rounds):
            self.fail(f"expected {len(t.rounds)} rounds, found {len(rounds)}")
        for rnd in t.rounds:
            self._compare_round(rnd, rounds[rnd.number - 1], results=True)
        self.where = ""
        if self.check or "standings" in rec_:
            self._compare_standings(t, self.lst(self.need(rec_, "standings", "event record"),
                                                "standings"))
        if "state" in rec_:
            self.same("state", t.state, rec_["state"])
        return t

    def _input(self, t: Tournament, entry: dict[str, Any], rec_: dict[str, Any],
               rounds: list[Any]) -> None:
        at = entry.get("at")
        if "start" in entry:
            t.start()
            self.where = "entrants"
            found = [self.obj(e, "entrant").get("id") for e in
                     self.lst(self.need(rec_, "entrants", "event record"), "entrants")]
            self.same("entrants in seed order", [e.id for e in t.entrants], found,
                      " (rating, then the draw of lots from the event seed)")
            self.same("left_out", [e.id for e in t.left_out], rec_.get("left_out", []))
            for e, data in zip(t.entrants, rec_["entrants"], strict=True):
                self.same(f"entrant {e.id}", {"seed": t.entrants.index(e) + 1, **e.to_dict()},
                          data)
        elif "pair" in entry:
            number = entry["pair"]
            rnd = t.pair_waiting(self._at(at)) if t.spec.format == "arena" else \
                t.pair_next_round()
            if rnd is None:
                self.fail(f"expected no pairing at {at}: nobody can be paired then")
            if number != rnd.number or number > len(rounds):
                self.fail(f"expected the pairing of round {rnd.number}, found {_show(entry)}")
            self._compare_round(rnd, rounds[number - 1], results=False)
        elif "result" in entry:
            key = self._key(entry["result"])
            game = self._recorded_game(rounds, key)
            self.where = self._place(key)
            record, record_id = self._match_record(game)
            outcome = t.record_game(key, record, record_id=record_id, at=at, keep=self.keep)
            self.same("outcome", outcome.to_dict(), game.get("outcome"),
                      " (from its match record)")
        elif "forfeit" in entry:
            key = self._key(entry["forfeit"])
            t.record_forfeit(key, self.lst(entry.get("absent"), "absent"), at)
        elif "withdraw" in entry:
            t.withdraw(str(entry["withdraw"]), at)
        elif "close" in entry:
            t.close(self._at(at))
        elif "finish" in entry:
            pass  # written by the director itself; compared with the whole log at the end
        else:
            self.fail(f"unknown log entry {_show(entry)}")

    def _at(self, value: object) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            self.fail(f"expected a time in seconds ('at'), found {_show(value)}")
        return float(value)

    def _key(self, value: object) -> tuple[int, int, int]:
        if not (isinstance(value, list) and len(value) == 3 and
                all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value)):
            self.fail(f"expected a game as [round, table, game], found {_show(value)}")
        return (value[0], value[1], value[2])

    @staticmethod
    def _place(key: tuple[int, int, int]) -> str:
        return f"round {key[0]}, table {key[1]}, game {key[2]}"

    def _recorded_game(self, rounds: list[Any], key: tuple[int, int, int]) -> dict[str, Any]:
        r, tb, g = key
        try:
            rnd = self.obj(rounds[r - 1], "round")
            tie = self.obj(self.lst(rnd["tables"], "tables")[tb - 1], "table")
            return self.obj(self.lst(tie["games"], "games")[g - 1], "game")
        except (IndexError, KeyError):
            self.fail(f"the log names {self._place(key)}, which the rounds do not hold")

    def _match_record(self, game: dict[str, Any]) -> tuple[Mapping[str, Any], str | None]:
        record_id = game.get("outcome", {}).get("record_id")
        if "record" in game:
            return self.obj(game["record"], "record"), record_id
        if record_id is not None and self.resolve is not None:
            found = self.resolve(record_id)
            if found is not None:
                return found, record_id
        if record_id is not None:
            self.fail(f"match record {_show(record_id)} is neither embedded nor given: its "
                      "result cannot be checked")
        self.fail("a played game without its match record")

    def _compare_round(self, rnd: Round, data: object, *, results: bool) -> None:
        self.where = f"round {rnd.number}"
        found = self.obj(data, "round")
        self.same("round number", rnd.number, found.get("round"))
        if rnd.at is not None or "at" in found:
            self.same("time of the pairing", rnd.at, found.get("at"))
        self.same("byes", rnd.byes, found.get("byes"), self._bye_rule)
        tables = self.lst(found.get("tables"), "tables")
        why = " (from the standings and the seed)"
        if len(tables) != len(rnd.ties):
            self.fail(f"expected {len(rnd.ties)} tables{why}, found {len(tables)}")
        for tie, table in zip(rnd.ties, tables, strict=True):
            self.where = f"round {rnd.number}, table {tie.table}"
            table = self.obj(table, "table")
            self.same("table number", tie.table, table.get("table"))
            self.same("sides", list(tie.sides), table.get("sides"), why)
            if not results:
                continue
            self.same("winner", tie.winner, table.get("winner"))
            games = self.lst(table.get("games"), "games")
            if len(games) != len(tie.games):
                self.fail(f"expected {len(tie.games)} games, found {len(games)}")
            for game, data_g in zip(tie.games, games, strict=True):
                self.where = self._place(game.key)
                data_g = self.obj(data_g, "game")
                want = _game_dict(game)
                want.pop("record", None)
                for key, value in want.items():
                    self.same(key, value, data_g.get(key))

    @property
    def _bye_rule(self) -> str:
        if isinstance(self.record, dict) and self.record.get("event", {}).get("format") == \
                "knockout":
            return " (the bracket's places without an opponent)"
        return " (the lowest-ranked without a bye)"

    def _compare_standings(self, t: Tournament, found: list[Any]) -> None:
        want = [s.to_dict() for s in t.standings()]
        if len(want) != len(found):
            self.fail(f"standings: expected {len(want)} lines, found {len(found)}")
        for row, data in zip(want, found, strict=True):
            self.where = f"standings, rank {row['rank']}"
            self.same("line", row, data, " (recomputed from the results)")
