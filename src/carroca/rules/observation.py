"""What one seat may know: the only view of a match that leaves the engine for a player.

Own tiles, the table, every public action (a draw by someone else shows that they drew, not the
tile), hand sizes, the boneyard's size, scores and, after a hand ends, the hands it revealed.
A spectator (`seat=None`) sees the same minus any hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import carroca.rules.actions as actions
import carroca.rules.tiles as T
from carroca.rules.actions import Action
from carroca.rules.game import HandLog, Match, Phase, Step
from carroca.rules.rulesets import options_dict


class PublicStep(NamedTuple):
    """An action as everyone at the table saw it (a draw's tile only for the one who drew)."""

    seat: int
    kind: str  # play | draw | pass | five-doubles
    tile: int = -1  # the tile played, or the tile drawn when the viewer drew it
    end: str | None = None
    choice: str = ""
    auto: bool = False

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"seat": self.seat, "type": self.kind}
        if self.tile >= 0:
            d["tile"] = T.NAMES[self.tile]
        if self.end is not None:
            d["end"] = self.end
        if self.choice:
            d["choice"] = self.choice
        if self.auto:
            d["auto"] = True
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> PublicStep:
        tile = d.get("tile")
        return cls(int(d["seat"]), str(d["type"]), -1 if tile is None else T.parse(tile),
                   d.get("end"), str(d.get("choice", "")), bool(d.get("auto", False)))


@dataclass(frozen=True, slots=True)
class Observation:
    """One seat's view at one moment. Read-only: `last_hand` is shared between views."""

    ruleset: str
    options: dict[str, Any]
    seat: int | None
    phase: str  # deal | choice | play | over
    turn: int | None
    hand: tuple[int, ...]  # own tiles (empty for a spectator)
    hand_sizes: tuple[int, ...]
    boneyard: int  # tiles left to draw (0 where there is no drawing)
    table: tuple[tuple[int, int, str | None], ...]  # (seat, tile, end) in play order
    ends: dict[str, int]  # open end -> number shown
    table_count: int
    score: tuple[int, ...]
    hand_number: int
    deal_index: int
    opener: int | None
    steps: tuple[PublicStep, ...]
    legal: tuple[Action, ...]  # the viewer's legal actions when it is their turn
    last_hand: dict[str, Any] | None  # the previous hand, revealed, once it is over
    result: dict[str, Any] | None

    def to_dict(self, steps: bool = True) -> dict[str, Any]:
        """Plain JSON types; without `steps` (a caller that encodes them on its own)."""
        d: dict[str, Any] = {
            "ruleset": self.ruleset,
            "options": self.options,
            "seat": self.seat,
            "phase": self.phase,
            "turn": self.turn,
            "hand": [T.NAMES[t] for t in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "boneyard": self.boneyard,
            "table": [
                {"seat": s, "tile": T.NAMES[t], **({"end": e} if e else {})}
                for s, t, e in self.table
            ],
            "ends": self.ends,
            "table_count": self.table_count,
            "score": list(self.score),
            "hand_number": self.hand_number,
            "deal_index": self.deal_index,
            "opener": self.opener,
        }
        if steps:
            d["steps"] = [s.to_dict() for s in self.steps]
        d["legal"] = [str(a) for a in self.legal]
        d["last_hand"] = self.last_hand
        d["result"] = self.result
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Observation:
        """The view `to_dict` wrote (a bot worker on another machine reads it from JSON)."""
        return cls(
            ruleset=str(d["ruleset"]),
            options=dict(d["options"]),
            seat=d["seat"],
            phase=str(d["phase"]),
            turn=d["turn"],
            hand=tuple(T.parse(t) for t in d["hand"]),
            hand_sizes=tuple(int(n) for n in d["hand_sizes"]),
            boneyard=int(d["boneyard"]),
            table=tuple((int(e["seat"]), T.parse(e["tile"]), e.get("end")) for e in d["table"]),
            ends={str(k): int(v) for k, v in d["ends"].items()},
            table_count=int(d["table_count"]),
            score=tuple(int(x) for x in d["score"]),
            hand_number=int(d["hand_number"]),
            deal_index=int(d["deal_index"]),
            opener=d["opener"],
            steps=tuple(PublicStep.from_dict(s) for s in d["steps"]),
            legal=tuple(actions.parse(a) for a in d["legal"]),
            last_hand=d["last_hand"],
            result=d["result"],
        )


_END_NAMES = ("left", "right", "up", "down", None)


def public_step(step: Step) -> PublicStep:
    a = step.action
    if a.kind == "play":
        return PublicStep(step.seat, "play", a.tile, _END_NAMES[a.end], "", step.auto)
    return PublicStep(step.seat, a.kind, -1, None, a.choice, step.auto)


def public_steps(match: Match, viewer: int | None) -> tuple[PublicStep, ...]:
    """The hand's public steps, converted once per step and kept on the match."""
    cache: list[Any] = match.public_cache
    steps = match.steps
    if len(cache) > len(steps):
        del cache[len(steps) :]
    for i in range(len(cache), len(steps)):
        cache.append(public_step(steps[i]))
    if viewer is None or not match.ruleset.draws:
        return tuple(cache)
    out = list(cache)
    for i, step in enumerate(steps):
        if step.seat == viewer and step.drawn >= 0:
            out[i] = out[i]._replace(tile=step.drawn)
    return tuple(out)


def revealed_last(match: Match) -> dict[str, Any] | None:
    """The previous hand revealed (`revealed_hand`), converted once per hand and kept."""
    if not match.history:
        return None
    last = match.history[-1]
    cached = match.revealed_cache
    if cached is None or cached[0] is not last:
        cached = match.revealed_cache = (last, revealed_hand(last))
    result: dict[str, Any] = cached[1]
    return result


def revealed_hand(log: HandLog) -> dict[str, Any]:
    """A finished hand as everyone sees it afterwards: the end, the scores, the hands left and
    the final table (its plays in order), so a client can still draw it."""
    held = [set(d) for d in log.dealt]
    table: list[dict[str, Any]] = []
    for step in log.steps:
        a = step.action
        if a.kind == "play":
            held[step.seat].discard(a.tile)
            end = _END_NAMES[a.end]
            play = {"seat": step.seat, "tile": T.NAMES[a.tile]}
            table.append({**play, "end": end} if end else play)
        elif a.kind == "draw":
            held[step.seat].add(step.drawn)
    return {
        "deal_index": log.deal_index,
        "end": {"kind": log.end.kind, "seat": log.end.seat, "winner": log.end.winner,
                "detail": log.end.detail},
        "score": list(log.score),
        "hands_left": [[T.NAMES[t] for t in sorted(h)] for h in held],
        "table": table,
        "events": [
            {"index": e.index, "team": e.team, "points": e.points, "reason": e.reason}
            for e in log.events
        ],
    }


def ends_dict(match: Match) -> dict[str, int]:
    """The open ends by name and the number each shows."""
    return {n: v for n, v in zip(("left", "right", "up", "down"), match.ends, strict=True)
            if v >= 0}


def result_dict(match: Match) -> dict[str, Any] | None:
    res = match.result
    return None if res is None else {
        "winner": res.winner, "score": list(res.score), "reason": res.reason, "pneu": res.pneu,
    }


def observation(match: Match, seat: int | None) -> Observation:
    """The view of `seat` (None: a spectator)."""
    if seat is not None and not 0 <= seat < match.n:
        raise ValueError(f"no seat {seat} in a {match.n}-seat match")
    hand_live = match.phase in (Phase.PLAY, Phase.CHOICE)
    own = tuple(T.tiles_of(match.hands[seat])) if seat is not None and hand_live else ()
    turn = match.current_player
    legal = tuple(match.legal_actions()) if seat is not None and turn == seat else ()
    return Observation(
        ruleset=match.ruleset.name,
        options=options_dict(match.options),
        seat=seat,
        phase=match.phase.name.lower(),
        turn=turn,
        hand=own,
        hand_sizes=tuple(h.bit_count() for h in match.hands) if hand_live else (),
        boneyard=match.boneyard_left if hand_live else 0,
        table=tuple(
            (s, t, _END_NAMES[e]) for s, t, e in match.table
        ) if hand_live else (),
        ends=ends_dict(match) if hand_live else {},
        table_count=match.table_count() if hand_live and match.table else 0,
        score=tuple(match.score),
        hand_number=match.hand_number,
        deal_index=match.deal_index,
        opener=match.opener if hand_live and match.opener >= 0 else None,
        steps=public_steps(match, seat) if hand_live else (),
        legal=legal,
        last_hand=revealed_last(match),
        result=result_dict(match),
    )
