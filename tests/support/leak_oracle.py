"""The leak oracle: what each receiver may see at each moment of a match, computed from its
final record alone, and the checks of every frame against it (tests/server/test_leak.py)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from tests.support.wsplay import (
    Client,
    Frame,
)

from carroca.rules import RULESETS

#: A tile name standing alone: not part of an id, a token or a longer number.
TILE = re.compile(r"(?<![\w-])[0-6]-[0-6](?![\w-])")


@dataclass
class Moment:
    """The match after some number of actions: the hand in progress (None: the match is over)
    and how many of its actions were made."""

    hand: int | None
    done: int


@dataclass
class Coverage:
    frames: int = 0
    states: int = 0
    tiles: int = 0
    draws_seen: int = 0
    receivers: set[str] = field(default_factory=set)


class Oracle:
    """What each seat could see at each moment, from the record alone."""

    def __init__(self, rec: dict[str, Any]) -> None:
        self.rec = rec
        self.hands: list[dict[str, Any]] = rec["hands"]
        self.n = len(rec["players"])
        self.draws = RULESETS[rec["ruleset"]].draws
        self.moments = [Moment(h, k) for h, hand in enumerate(self.hands)
                        for k in range(len(hand["actions"]))]
        if self.hands and self.hands[-1].get("end", {}).get("kind") == "abandon":
            # The abandonment is a move of its own, not an action of the record.
            self.moments.append(Moment(len(self.hands) - 1, len(self.hands[-1]["actions"])))
        self.moments.append(Moment(None, 0))

    def moment(self, version: int) -> Moment:
        assert 1 <= version <= len(self.moments), f"version {version} beyond the record"
        return self.moments[version - 1]

    def held(self, h: int, k: int) -> tuple[list[set[str]], set[str], list[list[str]]]:
        """Hands after k actions of hand h: each seat's tiles, the tiles played, each seat's
        draws in order."""
        hand = self.hands[h]
        held = [set(d) for d in hand["dealt"]]
        played: set[str] = set()
        drawn: list[list[str]] = [[] for _ in range(self.n)]
        for a in hand["actions"][:k]:
            if a["type"] == "play":
                held[a["seat"]].discard(a["tile"])
                played.add(a["tile"])
            elif a["type"] == "draw":
                held[a["seat"]].add(a["tile"])
                drawn[a["seat"]].append(a["tile"])
        return held, played, drawn

    def visible(self, seat: int | None, m: Moment) -> set[str]:
        if m.hand is None:
            return set()
        held, played, drawn = self.held(m.hand, m.done)
        if seat is None:
            return played
        return played | held[seat] | set(drawn[seat])

    def revealed(self, h: int) -> set[str]:
        """Everything of hand h: once it is over, nothing of it is secret."""
        hand = self.hands[h]
        return {t for d in hand["dealt"] for t in d} | set(hand["boneyard"])


def strings(value: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """Every string (keys too) in a JSON value, with where it is."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield f"{path}.{k}", k
            yield from strings(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from strings(v, f"{path}[{i}]")


def scan(value: Any, allowed: set[str], where: str, cov: Coverage) -> None:
    for path, text in strings(value):
        for tile in TILE.findall(text):
            cov.tiles += 1
            assert tile in allowed, f"{where}{path}: {tile} shown in {text!r}"


def check_state(
    oracle: Oracle, state: Frame, receiver: int | None, where: str, cov: Coverage
) -> Moment | None:
    """Check one state against the record; returns its moment."""
    assert state["seat"] == receiver, where
    view = state["view"]
    if state["status"] == "waiting":
        assert view is None and state["version"] == 0, where
        scan(state, set(), where, cov)
        return None
    m = oracle.moment(state["version"])
    allowed = oracle.visible(receiver, m)
    outside = {**state, "view": {k: v for k, v in view.items() if k != "last_hand"}}
    scan(outside, allowed, where, cov)
    # The previous hand, revealed only once it is over.
    last = view["last_hand"]
    previous = len(oracle.hands) - 1 if m.hand is None else m.hand - 1
    if previous < 0:
        assert last is None, where
    else:
        scan(last, oracle.revealed(previous), f"{where}.last_hand", cov)
        held, _, _ = oracle.held(previous, len(oracle.hands[previous]["actions"]))
        assert last["deal_index"] == oracle.hands[previous]["deal_index"], where
        assert [set(h) for h in last["hands_left"]] == held, where
    if m.hand is None:
        assert state["status"] == "finished" and view["hand"] == [], where
        return m
    hand = oracle.hands[m.hand]
    held, _, _ = oracle.held(m.hand, m.done)
    assert view["deal_index"] == hand["deal_index"], where
    assert len(view["steps"]) == m.done, f"{where}: steps out of step with version"
    assert set(view["hand"]) == (set() if receiver is None else held[receiver]), where
    assert len(view["hand"]) == len(set(view["hand"])), where
    assert view["hand_sizes"] == [len(h) for h in held], where
    if oracle.draws:
        taken = sum(1 for a in hand["actions"][:m.done] if a["type"] == "draw")
        assert view["boneyard"] == len(hand["boneyard"]) - taken, where
    for step, action in zip(view["steps"], hand["actions"], strict=False):
        assert step["seat"] == action["seat"] and step["type"] == action["type"], where
        if action["type"] == "play":
            assert step["tile"] == action["tile"], where
        elif action["type"] == "draw":
            if receiver == action["seat"]:
                assert step["tile"] == action["tile"], where
                cov.draws_seen += 1
            else:
                assert "tile" not in step, f"{where}: someone else's draw shows its tile"
    for action in view["legal"]:
        tile = TILE.match(action)
        assert tile is None or (receiver is not None and tile.group() in held[receiver]), where
    return m


def check_frames(oracle: Oracle, c: Client, receiver: int | None, cov: Coverage) -> None:
    """Every frame a client received, in order, against the record."""
    cov.receivers.add(c.label)
    moment: Moment | None = None
    for i, frame in enumerate(c.frames):
        where = f"{c.label} frame {i} ({frame['type']})"
        cov.frames += 1
        if frame["type"] == "state":
            cov.states += 1
            moment = check_state(oracle, frame["data"], receiver, where, cov)
            continue
        version = frame["data"].get("version") if frame["type"] == "ack" else None
        at = oracle.moment(version) if version else moment
        scan(frame, set() if at is None else oracle.visible(receiver, at), where, cov)
