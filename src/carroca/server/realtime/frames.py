"""A table's `state` frames, encoded once for every seat.

After every move a table sends its state to each of its seats and to its spectators. Built one
seat at a time (`observation(match, seat).to_dict()`, then the whole frame JSON-encoded), the
same work was done five times over at a table of four, though nearly everything in a state is
the same for every seat (players, options, commitment, clock, pause, the table, the steps, the
scores, the last hand).

`StateFrames` builds the spectators' state once (what `table_state(table, None)` holds: no hand
and no drawn tile; its view read straight from the match, without the `Observation` object),
encodes the part every seat shares once, and makes each seat's frame by appending that seat's
own few fields:

- in `view`: `seat`, `hand`, `legal` (only the seat to move has any) and `steps` (the same list,
  except that the tiles the seat drew itself show; only where there is a boneyard);
- in `data`: `seat` and what `Table.own_state` gives a seated player (`last_move_id`, `rating`,
  `invite`, `rematch`).

Those fields come last in their object, so a seat's frame is one shared prefix plus a short
suffix. JSON objects have no order (the web client reads fields by name), and a frame parses
equal to `table.state(seat)` (a `wire.State`): `tests/server/test_frames.py` checks it
for every seat over random matches of every ruleset, and that no seat gets another's tiles.
`bench/frames.py` measures both ways.

What grows through a hand is not encoded again at each move: a table keeps (`FrameCache`) the
text of the hand's public steps so far and of the table (its plays), extended by the new steps
only, of the match's options, and of the last hand's reveal, one object a hand. The cache is
checked by identity (the engine keeps its public steps and the reveal as the same objects until
they change), so a stale text is never sent.
"""

from __future__ import annotations

import json
import time
from typing import Any, NotRequired, Protocol, TypedDict

from msgspec import UNSET

from carroca.rules import Match, Options, Ruleset, observation
from carroca.rules import tiles as T
from carroca.rules.game import Phase
from carroca.rules.observation import (
    PublicStep,
    ends_dict,
    public_steps,
    result_dict,
    revealed_last,
)
from carroca.rules.rulesets import options_dict
from carroca.server import records
from carroca.server.realtime import wire
from carroca.server.records import Seat, is_bot


class FrameCache:
    """A table's encoded text that later frames reuse (see the module's docstring)."""

    __slots__ = ("_hands", "_last", "_last_text", "_options", "_options_text", "_steps",
                 "_steps_text", "_table_n", "_table_text")

    def __init__(self) -> None:
        self._steps: tuple[PublicStep, ...] = ()
        self._steps_text = "[]"
        self._table_text = "[]"  # the plays among those steps, as the view's `table`
        self._table_n = 0
        self._last: object = None
        self._last_text = "null"
        self._options: object = None
        self._options_text = "null"
        self._hands: dict[int, tuple[int, str]] = {}  # seat -> (its tiles' mask, their text)

    def hand(self, seat: int, mask: int) -> str:
        """A seat's tiles as JSON: one seat's hand changes at a move, not the others'."""
        known = self._hands.get(seat)
        if known is not None and known[0] == mask:
            return known[1]
        text = _json([T.NAMES[t] for t in T.tiles_of(mask)])
        self._hands[seat] = (mask, text)
        return text

    def steps(self, steps: tuple[PublicStep, ...]) -> str:
        """`steps` as JSON: the text cached for a prefix of them, extended by the rest. The
        plays among them, the view's `table`, are extended alongside (`table`)."""
        known = self._steps
        n = len(known)
        if n and (len(steps) < n or steps[n - 1] is not known[n - 1] or steps[0] is not known[0]):
            n = 0  # another hand (or a move undone): encoded again
        text = self._steps_text if n else "[]"
        table = self._table_text if n else "[]"
        plays_n = self._table_n if n else 0
        if len(steps) > n:
            new = _json([s.to_dict() for s in steps[n:]])
            text = new if n == 0 else f"{text[:-1]},{new[1:]}"
            plays = [{"seat": s.seat, "tile": T.NAMES[s.tile], **({"end": s.end} if s.end else {})}
                     for s in steps[n:] if s.kind == "play"]
            if plays:
                added = _json(plays)
                table = added if plays_n == 0 else f"{table[:-1]},{added[1:]}"
                plays_n += len(plays)
        self._steps, self._steps_text = steps, text
        self._table_text, self._table_n = table, plays_n
        return text

    def table(self, match: Match) -> str:
        """The view's `table` of the steps last given to `steps`: the match's plays in order
        (encoded from the match itself when its steps do not hold them all, as in a match
        set up from a position)."""
        if self._table_n == len(match.table):
            return self._table_text
        return _json(observation(match, None).to_dict(steps=False)["table"])

    def options(self, options: Options) -> str:
        if options is not self._options:
            self._options, self._options_text = options, _json(options_dict(options))
        return self._options_text

    def last_hand(self, last: dict[str, Any] | None) -> str:
        if last is not self._last:
            self._last, self._last_text = last, _json(last)
        return self._last_text


class OwnState(TypedDict):
    """The members of a seated player's state nobody else gets (`Table.own_state`), in the
    order they are sent: where the seat's move ids resume, its rating change once the match is
    over, a friends' table's invitation, the rematch asked for."""

    last_move_id: int | None
    rating: NotRequired[wire.RatingChange]
    invite: NotRequired[str]
    rematch: NotRequired[wire.RematchAsked]


class Stateful(Protocol):
    """What a state is built from (a `Table`)."""

    id: str
    mode: wire.Mode
    ruleset: Ruleset
    options: Options
    status: wire.TableStatus
    seats: list[Seat | None]
    commitment: str
    client_seeds: list[str | None]
    client_seed: str | None
    server_seed: str
    ended_reason: str | None
    version: int
    turn_seconds: float
    clock: records.Clock | None
    more_time_seats: set[int]

    @property
    def match(self) -> Match | None: ...
    @property
    def pause(self) -> records.Pause | None: ...
    @property
    def frame_cache(self) -> FrameCache: ...
    def own_state(self, seat: int) -> OwnState: ...
    def seat_connected(self, seat: int) -> bool: ...


def shared_state(table: Stateful, view: dict[str, Any] | None) -> wire.State:
    """The members of a state every seat shares (no `seat`, none of a seat's own), with `view`
    (a seat's observation as a dict, or None while the table waits)."""
    clock = None
    if table.clock is not None:
        left = max(0.0, table.clock.deadline - time.time())
        clock = wire.Clock(seat=table.clock.seat, seconds=table.clock.seconds,
                           remaining_ms=int(left * 1000))
    pause = None
    if table.pause is not None:
        left = max(0.0, table.pause.until - time.time())
        pause = wire.Pause(seconds=table.pause.seconds, remaining_ms=int(left * 1000),
                           reading=list(table.pause.reading))
        if view is not None:
            view["legal"] = []  # nobody moves before the next hand starts
    players = [
        wire.SeatPlayer(name=s["name"], bot=is_bot(s), connected=table.seat_connected(i),
                        bot_account=True if s.get("bot_account") else UNSET)
        if s else None
        for i, s in enumerate(table.seats)
    ]
    return wire.State(
        id=table.id,
        mode=table.mode,
        ruleset=table.ruleset.name,
        options=options_dict(table.options),
        status=table.status,
        players=players,
        commitment=table.commitment,
        client_seeds=table.client_seeds,
        client_seed=table.client_seed,
        version=table.version,
        turn_seconds=table.turn_seconds,
        clock=clock,
        pause=pause,
        more_time=sorted(table.more_time_seats),
        chat=table.mode in ("casual", "friends"),
        server_seed=table.server_seed if table.status == "finished" else UNSET,
        ended=table.ended_reason or UNSET,
        view=view,
    )


def table_state(table: Stateful, seat: int | None,
                view: dict[str, Any] | None = None) -> wire.State:
    """What one seat (None: a spectator) is sent: built from that seat's observation (or from
    `view`, that observation's dict already made).

    The reference of the frames a table sends: `StateFrames` builds them from the spectators'
    state and `own_state`, and they are equal to this for every seat."""
    match = table.match
    if view is None and match is not None:
        view = observation(match, seat).to_dict()
    state = shared_state(table, view)
    state.seat = seat
    if seat is not None:
        own = table.own_state(seat)
        state.last_move_id = own["last_move_id"]
        if "rating" in own:
            state.rating = own["rating"]
        if "invite" in own:
            state.invite = own["invite"]
        if "rematch" in own:
            state.rematch = own["rematch"]
    return state


# A seat's own fields in `view` (see `observation`): the rest of a view is the same for every
# seat and the spectators.
OWN_VIEW = ("seat", "hand", "steps", "legal")


def _json(value: Any) -> str:
    """msgspec's JSON, as the frames' models are encoded (`wire.encode`): the same text as
    `protocol.dumps`, and about three times faster on a view (whose `ends` and last hand have
    keys orjson writes only through its slower `OPT_NON_STR_KEYS`)."""
    return wire.encode(value)


class StateFrames:
    """The `state` frame of each seat (and of the spectators) of one table at one moment."""

    def __init__(self, table: Stateful) -> None:
        self.table = table
        match = table.match
        shared = shared_state(table, None)
        shared.view = UNSET
        head = f'{{"type":"state","data":{wire.encode(shared)[:-1]},"view":'
        self._has_view = match is not None
        if match is None:
            self._head = head + "null"  # left open: `data`, the frame
            return
        # The spectators' view (`observation(match, None)`, which `table_state` sends), without
        # the members each seat has its own of: what grows through a hand (the steps, the
        # table), the options and the last hand revealed come from the cache.
        cache = self._cache = table.frame_cache
        phase = match.phase
        # As `observation` has it: a hand, and one's own draws showing their tile, only while a
        # hand is played; legal actions for the seat to move, and for nobody during a pause.
        live = self._live = phase is Phase.PLAY or phase is Phase.CHOICE
        if live:
            self._steps = cache.steps(public_steps(match, None))
            table_text = cache.table(match)
            public = {
                "ruleset": match.ruleset.name, "phase": phase.name.lower(),
                "turn": match.current_player,
                "hand_sizes": [h.bit_count() for h in match.hands],
                "boneyard": match.boneyard_left, "ends": ends_dict(match),
                "table_count": match.table_count() if match.table else 0,
                "score": match.score, "hand_number": match.hand_number,
                "deal_index": match.deal_index,
                "opener": match.opener if match.opener >= 0 else None,
                "result": result_dict(match),
            }
        else:
            self._steps = "[]"
            table_text = "[]"
            public = {
                "ruleset": match.ruleset.name, "phase": phase.name.lower(),
                "turn": match.current_player, "hand_sizes": [], "boneyard": 0, "ends": {},
                "table_count": 0, "score": match.score, "hand_number": match.hand_number,
                "deal_index": match.deal_index, "opener": None, "result": result_dict(match),
            }
        last_hand = cache.last_hand(revealed_last(match))
        # left open: the view (each seat's own members), `data`, the frame
        self._head = (f'{head}{_json(public)[:-1]},"options":{cache.options(match.options)},'
                      f'"table":{table_text},"last_hand":{last_hand}')
        self._match = match
        self._draws = [(i, step.seat, step.drawn) for i, step in enumerate(match.steps)
                       if step.drawn >= 0] if live and match.ruleset.draws else []
        self._to_move = match.current_player if table.pause is None else None

    def _view(self, seat: int | None) -> str:
        """The seat's own members of `view`, and the view's closing brace."""
        if seat is None:
            return f',"seat":null,"hand":[],"steps":{self._steps},"legal":[]}}'
        match = self._match
        hand = self._cache.hand(seat, match.hands[seat]) if self._live else "[]"
        legal = [str(a) for a in match.legal_actions()] if seat == self._to_move else []
        steps = self._steps
        drawn = [(i, tile) for i, who, tile in self._draws if who == seat]
        if drawn:
            mine: list[dict[str, object]] = json.loads(steps)
            for i, tile in drawn:
                mine[i]["tile"] = T.NAMES[tile]
            steps = _json(mine)
        return f',"seat":{seat},"hand":{hand},"steps":{steps},"legal":{_json(legal)}}}'

    def frame(self, seat: int | None) -> str:
        """The frame of `seat` (None: a spectator), JSON text."""
        parts = [self._head]
        if self._has_view:
            parts.append(self._view(seat))
        if seat is None:
            parts.append(',"seat":null')
        else:
            own = self.table.own_state(seat)  # never empty: `last_move_id` at least
            if len(own) == 1:  # nearly always: where the seat's move ids resume, alone
                last = own["last_move_id"]
                parts.append(f',"seat":{seat},"last_move_id":{"null" if last is None else last}')
            else:
                parts.append(f',"seat":{seat},{_json(own)[1:-1]}')
        parts.append("}}")  # closes `data`, then the frame
        return "".join(parts)
