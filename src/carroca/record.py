"""Match records (record.md): write them, read them, and verify them by replaying the match.

A record is plain JSON — the PGN of a match. `to_record` writes one from a `Match`, `dumps` and
`loads` turn it into one compact line and back, and `verify` trusts nothing in it: it recomputes
every deal from the revealed seed, replays every action through the rules engine and compares
every stored end, score and result with the recomputation. The first point of disagreement is
reported as a `RecordError` naming the hand and action (0-based indices into `hands` and that
hand's `actions`), so a tampered or buggy record is pinpointed rather than merely refused.
"""

from __future__ import annotations

import json
import os
import re
import reprlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final, NoReturn

from carroca import fair
from carroca.rules import RULESETS, Match, RulesError, get_ruleset, options_dict
from carroca.rules import actions as A
from carroca.rules import tiles as T
from carroca.rules.game import HandEnd, HandLog, Step

FORMAT: Final = "carroca-record/1"

_HEX64 = re.compile(r"[0-9a-f]{64}")
_ACTION_TYPES: Final = (A.PLAY, A.DRAW, A.PASS, A.FIVE_DOUBLES)
_END_KINDS: Final = ("batida", "fechado", "redeal", "abandon")
_REASONS: Final = ("target", "abandon")

# Known keys in the order `dumps` writes them; unknown keys follow in their own order.
_TOP_KEYS: Final = ("format", "ruleset", "options", "players", "fairness", "hands", "result")
_FAIRNESS_KEYS: Final = ("commitment", "server_seed", "client_seed")
_HAND_KEYS: Final = ("deal_index", "dealt", "boneyard", "actions", "end", "score")
_ACTION_KEYS: Final = ("seat", "type", "tile", "end", "choice", "auto")
_END_KEYS: Final = ("kind", "seat")
_RESULT_KEYS: Final = ("winner", "score", "reason", "pneu")


class RecordError(ValueError):
    """A record that is not JSON, not shaped as record.md says, or disagrees with its replay.

    `hand` and `action` locate the first disagreement (0-based indices into `hands` and that
    hand's `actions`; None outside them). `expected` and `found` hold the two sides.
    """

    def __init__(
        self,
        message: str,
        *,
        hand: int | None = None,
        action: int | None = None,
        expected: object = None,
        found: object = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.hand = hand
        self.action = action
        self.expected = expected
        self.found = found

    @property
    def location(self) -> str:
        """`hand 2, action 14`, `hand 2` or empty."""
        if self.hand is None:
            return ""
        if self.action is None:
            return f"hand {self.hand}"
        return f"hand {self.hand}, action {self.action}"

    def __str__(self) -> str:
        where = self.location
        return f"{where}: {self.message}" if where else self.message


@dataclass(frozen=True)
class Fairness:
    """The shuffle's public inputs; `server_seed` stays None until the match is over."""

    commitment: str
    client_seed: str
    server_seed: str | None = None


# --------------------------------------------------------------------------- writing


def to_record(match: Match, players: Sequence[str], fairness: Fairness) -> dict[str, Any]:
    """The record of a match, finished or not.

    An unfinished match has no `result`; a hand still in play is written without `end` and
    `score`, so a server can store a match in progress and `verify` can replay it.
    """
    if isinstance(players, str) or len(players) != match.n:
        raise ValueError(f"{match.ruleset.name} needs {match.n} player names")
    if not all(isinstance(p, str) for p in players):
        raise TypeError("player names must be strings")
    fairness_dict: dict[str, Any] = {"commitment": fairness.commitment}
    if fairness.server_seed is not None:
        fairness_dict["server_seed"] = fairness.server_seed
    fairness_dict["client_seed"] = fairness.client_seed
    hands = [_hand_dict(log) for log in match.history]
    if match.current_player is not None:  # a hand in play
        hands.append(
            {
                "deal_index": match.deal_index,
                "dealt": [[T.NAMES[t] for t in seat] for seat in match.dealt],
                "boneyard": [T.NAMES[t] for t in match.boneyard],
                "actions": [_action_dict(step) for step in match.steps],
            }
        )
    record: dict[str, Any] = {
        "format": FORMAT,
        "ruleset": match.ruleset.name,
        "options": options_dict(match.options),
        "players": list(players),
        "fairness": fairness_dict,
        "hands": hands,
    }
    if match.result is not None:
        r = match.result
        record["result"] = {
            "winner": r.winner,
            "score": list(r.score),
            "reason": r.reason,
            "pneu": r.pneu,
        }
    return record


def _hand_dict(log: HandLog) -> dict[str, Any]:
    return {
        "deal_index": log.deal_index,
        "dealt": [[T.NAMES[t] for t in seat] for seat in log.dealt],
        "boneyard": [T.NAMES[t] for t in log.boneyard],
        "actions": [_action_dict(step) for step in log.steps],
        "end": _end_dict(log.end),
        "score": list(log.score),
    }


def _end_dict(end: HandEnd) -> dict[str, Any]:
    if end.seat is None:
        return {"kind": end.kind}
    return {"kind": end.kind, "seat": end.seat}


def _action_dict(step: Step) -> dict[str, Any]:
    action = step.action
    d: dict[str, Any] = {"seat": step.seat, "type": action.kind}
    if action.kind == A.PLAY:
        d["tile"] = T.NAMES[action.tile]
        if action.end_name is not None:
            d["end"] = action.end_name
    elif action.kind == A.DRAW:
        d["tile"] = T.NAMES[step.drawn]
    elif action.kind == A.FIVE_DOUBLES:
        d["choice"] = action.choice
    if step.auto:
        d["auto"] = True
    return d


def dumps(record: Any) -> str:
    """One compact JSON line; known keys in record.md's order, unknown keys after them."""
    return json.dumps(
        _canonical(record), ensure_ascii=False, separators=(",", ":"), allow_nan=False
    )


def _ordered(obj: Any, keys: Sequence[str]) -> Any:
    if not isinstance(obj, dict):
        return obj
    out = {k: obj[k] for k in keys if k in obj}
    out.update((k, v) for k, v in obj.items() if k not in out)
    return out


def _canonical(record: Any) -> Any:
    record = _ordered(record, _TOP_KEYS)
    if not isinstance(record, dict):
        return record
    options = record.get("options")
    ruleset = record.get("ruleset")
    if isinstance(options, dict) and isinstance(ruleset, str) and ruleset in RULESETS:
        record["options"] = _ordered(options, RULESETS[ruleset].option_names())
    if "fairness" in record:
        record["fairness"] = _ordered(record["fairness"], _FAIRNESS_KEYS)
    if "result" in record:
        record["result"] = _ordered(record["result"], _RESULT_KEYS)
    hands = record.get("hands")
    if isinstance(hands, list):
        record["hands"] = [_canonical_hand(h) for h in hands]
    return record


def _canonical_hand(hand: Any) -> Any:
    hand = _ordered(hand, _HAND_KEYS)
    if isinstance(hand, dict):
        if isinstance(hand.get("actions"), list):
            hand["actions"] = [_ordered(a, _ACTION_KEYS) for a in hand["actions"]]
        if "end" in hand:
            hand["end"] = _ordered(hand["end"], _END_KEYS)
    return hand


# --------------------------------------------------------------------------- reading


def _object_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise RecordError(f"not valid JSON: duplicate key {key!r} in an object")
        out[key] = value
    return out


def _no_constant(name: str) -> NoReturn:
    raise RecordError(f"not valid JSON: {name} is not a JSON number")


def loads(text: str | bytes) -> Any:
    """Parse one record's JSON (strict: no NaN/Infinity, no duplicate keys)."""
    try:
        if isinstance(text, bytes | bytearray):
            text = bytes(text).decode("utf-8")
        return json.loads(text, object_pairs_hook=_object_pairs, parse_constant=_no_constant)
    except RecordError:
        raise
    except UnicodeDecodeError as exc:
        raise RecordError(f"not valid UTF-8: byte {exc.start}: {exc.reason}") from None
    except json.JSONDecodeError as exc:
        raise RecordError(f"not valid JSON: {exc}") from None
    except (ValueError, RecursionError) as exc:  # e.g. a number too long, nesting too deep
        raise RecordError(f"not valid JSON: {exc or type(exc).__name__}") from None


def _texts(line: bytes) -> list[str | bytes]:
    """The JSON texts of one line: usually the line itself; several when records were joined
    with no newline between them (`cat a.jsonl b.jsonl` where `a` did not end with one)."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        return [line]  # `loads` names the bad byte
    decoder = json.JSONDecoder()
    parts: list[str | bytes] = []
    pos = 0
    while pos < len(text):
        try:
            _, end = decoder.raw_decode(text, pos)
        except (ValueError, RecursionError):
            parts.append(text[pos:])  # not JSON from here: `loads` says why
            break
        parts.append(text[pos:end])
        pos = end
        while pos < len(text) and text[pos] in " \t\r":
            pos += 1
    return parts or [line]


def read_jsonl(path: str | os.PathLike[str]) -> Iterator[tuple[int, Any | RecordError]]:
    """(record number from 1, parsed record or its RecordError) for each record of the file.

    One record per line; empty lines are skipped, and records written back to back on one line
    (files concatenated with no newline between them) are read one by one.
    """
    number = 0
    with open(path, "rb") as f:
        for raw in f:
            line = raw.strip()
            if number == 0 and line.startswith(b"\xef\xbb\xbf"):
                line = line[3:].strip()  # a byte-order mark some editors write
            if not line:
                continue
            for text in _texts(line):
                number += 1
                parsed: Any | RecordError
                try:
                    parsed = loads(text)
                except RecordError as exc:
                    parsed = exc
                yield number, parsed


# --------------------------------------------------------------------------- verifying


def verify(record: object) -> Match:
    """Check everything record.md fixes by replaying the record; return the replayed match.

    Raises RecordError (and nothing else, whatever the input) at the first disagreement:
    structure and types, the commitment, every deal, every action, every hand's end and score,
    and the result. A record without `result` is an unfinished match: it may hide its seed
    (deals then cannot be checked, play still is) and its last hand may still be in play.
    """
    return _Verifier(record).run()


def _show(value: object) -> str:
    """A value as it looks in the record, cut short when long."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = reprlib.repr(value)
    return text if len(text) <= 160 else text[:157] + "..."


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _kind_of(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _end_text(end: HandEnd) -> str:
    if end.kind == "batida":
        return f"batida by seat {end.seat}"
    if end.kind == "fechado":
        return f"fechado, locked by seat {end.seat}"
    if end.kind == "abandon":
        return f"abandoned by seat {end.seat}"
    return "re-deal (cinco carroças)"


class _Verifier:
    """One pass over one record; `hand`/`action` track where an error is to be reported."""

    def __init__(self, record: object) -> None:
        self.record = record
        self.hand: int | None = None
        self.action: int | None = None

    # ------------------------------------------------------------------ failing

    def fail(self, message: str, expected: object = None, found: object = None) -> NoReturn:
        raise RecordError(
            message, hand=self.hand, action=self.action, expected=expected, found=found
        )

    def mismatch(self, what: str, expected: object, found: object) -> NoReturn:
        self.fail(f"expected {what}{_show(expected)}, found {_show(found)}", expected, found)

    # ------------------------------------------------------------------ typed access

    def obj(self, value: object, what: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            self.fail(f"{what}: expected a JSON object, found {_kind_of(value)}", "object", value)
        return value

    def need(self, obj: dict[str, Any], key: str, where: str = "") -> Any:
        if key not in obj:
            prefix = f"{where}: " if where else ""
            self.fail(f"{prefix}missing key {key!r}", key, None)
        return obj[key]

    def typed(self, value: object, ok: bool, desc: str, path: str) -> None:
        if not ok:
            self.fail(f"{path}: expected {desc}, found {_show(value)}", desc, value)

    def int_at(self, obj: dict[str, Any], key: str, where: str = "") -> int:
        value = self.need(obj, key, where)
        self.typed(value, _is_int(value), "an integer", f"{where}.{key}" if where else key)
        return int(value)

    def str_at(self, obj: dict[str, Any], key: str, where: str = "") -> str:
        value = self.need(obj, key, where)
        self.typed(value, isinstance(value, str), "a string", f"{where}.{key}" if where else key)
        return str(value)

    def list_at(self, obj: dict[str, Any], key: str, where: str = "") -> list[Any]:
        value = self.need(obj, key, where)
        self.typed(value, isinstance(value, list), "a list", f"{where}.{key}" if where else key)
        return list(value)

    def tile(self, value: object, path: str) -> int:
        if isinstance(value, str):
            try:
                return T.parse(value, strict=True)
            except RulesError:
                pass
        self.fail(
            f"{path}: expected a tile written a-b with a <= b (0-0 … 6-6), found {_show(value)}",
            "tile",
            value,
        )

    def seat_list(self, value: object, n: int, path: str) -> list[int]:
        """A list of one integer per team (scores)."""
        if not isinstance(value, list) or len(value) != n or not all(map(_is_int, value)):
            self.fail(f"{path}: expected a list of {n} integers, found {_show(value)}",
                      f"a list of {n} integers", value)
        return [int(v) for v in value]

    # ------------------------------------------------------------------ the record

    def run(self) -> Match:
        try:
            return self._run()
        except RulesError as exc:  # the engine refused something not caught above
            self.fail(f"refused by the rules: {exc.message}")
        except fair.FairnessError as exc:
            self.fail(f"fairness: {exc}")

    def _run(self) -> Match:
        rec = self.obj(self.record, "record")
        fmt = self.need(rec, "format")
        if fmt != FORMAT:
            self.mismatch("format ", FORMAT, fmt)
        name = self.str_at(rec, "ruleset")
        try:
            ruleset = get_ruleset(name)
        except RulesError:
            known = list(RULESETS)
            self.fail(f"ruleset: expected one of {', '.join(known)}, found {_show(name)}",
                      known, name)
        n = ruleset.seats
        options = self.obj(self.need(rec, "options"), "options")
        values = {key: self.need(options, key, "options") for key in ruleset.option_names()}
        try:
            opts = ruleset.make_options(values)
        except RulesError as exc:
            self.fail(f"options: {exc.message}", None, values)

        players = self.list_at(rec, "players")
        ok = len(players) == n and all(isinstance(p, str) for p in players)
        self.typed(players, ok, f"a list of {n} player names (strings)", "players")

        fairness = self.obj(self.need(rec, "fairness"), "fairness")
        commitment = self.str_at(fairness, "commitment", "fairness")
        self.typed(commitment, bool(_HEX64.fullmatch(commitment)),
                   "64 lowercase hex characters", "fairness.commitment")
        client_seed = self.str_at(fairness, "client_seed", "fairness")
        try:
            client_seed.encode("utf-8")
        except UnicodeEncodeError:
            self.fail("fairness.client_seed: not encodable as UTF-8", "text", client_seed)
        seed: str | None = None
        if "server_seed" in fairness:
            seed = self.str_at(fairness, "server_seed", "fairness")
            self.typed(seed, bool(_HEX64.fullmatch(seed)),
                       "64 lowercase hex characters", "fairness.server_seed")
            digest = fair.commitment(seed)
            if digest != commitment:
                self.fail(
                    f"fairness.commitment: expected sha256(server_seed) = {_show(digest)}, "
                    f"found {_show(commitment)}",
                    digest,
                    commitment,
                )
        elif "result" in rec:
            self.fail("fairness: missing key 'server_seed' (a finished record must reveal it)",
                      "server_seed", None)

        hands = self.list_at(rec, "hands")
        match = Match(ruleset, opts)
        for i, hand in enumerate(hands):
            self.hand = i
            self.action = None
            open_ok = i == len(hands) - 1 and "result" not in rec
            self._hand(match, i, hand, seed, client_seed, open_ok)
        self.hand = self.action = None
        self._result(match, rec)
        return match

    def _result(self, match: Match, rec: dict[str, Any]) -> None:
        r = match.result
        if r is None:
            if "result" in rec:
                state = f"score {_show(list(match.score))}"
                self.fail(
                    f"result: expected none, the match is not over after the last hand ({state})",
                    None,
                    rec["result"],
                )
            return
        expected = {"winner": r.winner, "score": list(r.score), "reason": r.reason}
        if "result" not in rec:
            self.fail(f"missing key 'result': the match is over, expected {_show(expected)}",
                      expected, None)
        res = self.obj(rec["result"], "result")
        winner = self.int_at(res, "winner", "result")
        score = self.seat_list(self.need(res, "score", "result"), 2, "result.score")
        reason = self.str_at(res, "reason", "result")
        if winner != r.winner:
            self.mismatch("result.winner ", r.winner, winner)
        if score != list(r.score):
            self.mismatch("result.score ", list(r.score), score)
        if reason != r.reason:
            self.mismatch("result.reason ", r.reason, reason)
        if "pneu" in res and res["pneu"] is not r.pneu:
            self.mismatch("result.pneu ", r.pneu, res["pneu"])

    # ------------------------------------------------------------------ hands

    def _hand(
        self,
        match: Match,
        i: int,
        value: object,
        seed: str | None,
        client_seed: str,
        open_ok: bool,
    ) -> None:
        if match.is_over:
            last = match.history[-1]
            self.fail(
                f"expected no more hands: the match ended after hand {i - 1} "
                f"({_end_text(last.end)}), found another hand",
                None,
                value,
            )
        hand = self.obj(value, "hand")
        deal_index = self.int_at(hand, "deal_index")
        if deal_index != i:
            self.mismatch("deal_index ", i, deal_index)
        order = self._deal(hand, match.n, seed, client_seed, i)
        match.deal(order)

        actions = self.list_at(hand, "actions")
        for j, action in enumerate(actions):
            self.action = j
            self._action(match, action)
        self.action = None

        turn = match.current_player
        if turn is not None:  # the engine says the hand goes on
            if "end" not in hand:
                if open_ok:  # the hand in play of an unfinished record
                    if "score" in hand:
                        self.fail("score: expected none for a hand still in play",
                                  None, hand["score"])
                    return
                self.action = len(actions)
                self.fail(
                    f"expected an action by seat {turn} (the hand is not over), "
                    "found the end of the actions and no 'end'",
                    turn,
                    None,
                )
            kind, seat, end = self._end(hand, match.n)
            if kind != "abandon" or seat is None:
                self.action = len(actions)
                self.fail(
                    f"expected an action by seat {turn} (the hand is not over), "
                    f"found the end of the actions and end {_show(end)}",
                    turn,
                    end,
                )
            try:
                match.abandon(seat)
            except RulesError as err:
                self.action = len(actions)
                self.fail(
                    f"end: abandon by seat {seat} refused by the rules: {err.message}",
                    "abandon by the seat to move after two timeouts",
                    end,
                )
        else:
            log = match.history[-1]
            expected = _end_dict(log.end)
            if "end" not in hand:
                self.fail(f"missing key 'end': expected {_show(expected)}", expected, None)
            kind, seat, end = self._end(hand, match.n)
            if kind != log.end.kind or seat != log.end.seat:
                self.mismatch("end ", expected, end)
        score = self.seat_list(self.need(hand, "score"), 2, "score")
        if score != list(match.score):
            self.mismatch("score ", list(match.score), score)

    def _deal(
        self, hand: dict[str, Any], n: int, seed: str | None, client_seed: str, index: int
    ) -> list[int]:
        """The deal order to replay: checked tile by tile, and against the shuffle if seeded."""
        dealt_value = self.list_at(hand, "dealt")
        self.typed(dealt_value, len(dealt_value) == n, f"a list of {n} hands", "dealt")
        dealt: list[list[int]] = []
        for s, seat_tiles in enumerate(dealt_value):
            ok = isinstance(seat_tiles, list) and len(seat_tiles) == 7
            self.typed(seat_tiles, ok, "a list of 7 tiles", f"dealt[{s}]")
            dealt.append([self.tile(t, f"dealt[{s}][{k}]") for k, t in enumerate(seat_tiles)])
        boneyard_value = self.list_at(hand, "boneyard")
        size = 28 - 7 * n
        self.typed(boneyard_value, len(boneyard_value) == size,
                   f"a list of {size} tiles" if size else "[] (2v2 deals every tile)",
                   "boneyard")
        boneyard = [self.tile(t, f"boneyard[{k}]") for k, t in enumerate(boneyard_value)]
        order = [t for seat_tiles in dealt for t in seat_tiles] + boneyard
        seen: set[int] = set()
        for t in order:
            if t in seen:
                self.fail(f"dealt/boneyard: tile {T.NAMES[t]} appears twice", None, T.NAMES[t])
            seen.add(t)
        if seed is None:
            return order  # unfinished and unrevealed: the deal cannot be checked yet
        shuffled = fair.shuffle(seed, client_seed, index)
        for s in range(n):
            want = sorted(shuffled[7 * s : 7 * s + 7])
            if sorted(dealt[s]) != want:
                self.mismatch(f"dealt[{s}] (any order) ", [T.NAMES[t] for t in want],
                              dealt_value[s])
        want_bones = [T.NAMES[t] for t in shuffled[7 * n :]]
        if boneyard_value != want_bones:
            self.mismatch("boneyard ", want_bones, boneyard_value)
        return shuffled

    def _end(self, hand: dict[str, Any], n: int) -> tuple[str, int | None, dict[str, Any]]:
        end = self.obj(hand["end"], "end")
        kind = self.str_at(end, "kind", "end")
        if kind not in _END_KINDS:
            self.fail(f"end.kind: expected one of {', '.join(_END_KINDS)}, found {_show(kind)}",
                      _END_KINDS, kind)
        if kind == "redeal":
            if "seat" in end:
                self.fail("end.seat: expected none for a redeal", None, end["seat"])
            return kind, None, end
        seat = self.int_at(end, "seat", "end")
        self.typed(seat, 0 <= seat < n, f"a seat 0..{n - 1}", "end.seat")
        return kind, seat, end

    # ------------------------------------------------------------------ actions

    def _action(self, match: Match, value: object) -> None:
        a = self.obj(value, "action")
        seat = self.int_at(a, "seat")
        kind = self.str_at(a, "type")
        drawn = -1
        if kind == A.PLAY:
            tile = self.tile(self.need(a, "tile"), "tile")
            end = A.OPENING
            if "end" in a:
                name = a["end"]
                ok = isinstance(name, str) and name in A.END_NAMES
                self.typed(name, ok, "one of left, right, up, down (omitted for the opening)",
                           "end")
                end = A.end_index(name)
            action = A.PLAYS[tile][end]
        elif kind == A.DRAW:
            drawn = self.tile(self.need(a, "tile"), "tile")
            action = A.DRAW_ACTION
        elif kind == A.PASS:
            action = A.PASS_ACTION
        elif kind == A.FIVE_DOUBLES:
            choice = self.need(a, "choice")
            self.typed(choice, choice in A.FIVE_CHOICES, "points or redeal", "choice")
            action = A.FIVE_POINTS if choice == "points" else A.FIVE_REDEAL
        else:
            self.fail(f"type: expected one of {', '.join(_ACTION_TYPES)}, found {_show(kind)}",
                      _ACTION_TYPES, kind)
        auto = a.get("auto", False)
        self.typed(auto, isinstance(auto, bool), "true or false", "auto")

        turn = match.current_player
        if turn is None:
            end_text = _end_text(match.history[-1].end)
            self.fail(f"expected no more actions: the hand ended ({end_text}), "
                      f"found {_show(value)}", None, value)
        if seat != turn:
            self.mismatch("an action by seat ", turn, seat)
        legal = match.legal_actions()
        if action not in legal:
            reason = "refused"
            try:
                match.apply(action, seat)
            except RulesError as exc:
                reason = exc.message
            shown = ", ".join(str(x) for x in legal)
            self.fail(
                f"expected one of {shown}; found {action} by seat {seat}, refused by the "
                f"rules: {reason}",
                [str(x) for x in legal],
                str(action),
            )
        if drawn >= 0:
            want = match.boneyard[match.bone_pos]
            if drawn != want:
                self.mismatch("the boneyard's next tile ", T.NAMES[want], T.NAMES[drawn])
        match.apply(action, seat, auto=bool(auto))
