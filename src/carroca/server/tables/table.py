"""One live table: its seats, its match, its clock and its bots, owned by the table alone.

A table is an actor: the sockets, the other nodes, the lobby, the events and the bot service send
it commands (`join`, `move`, `chat`, `sit`, `start`, `expire`, `rematch`, `close`, and the
clock's and the bots' own turns), each a method that takes the table's private lock, answers, or
raises a named `ServerError`. Nobody else takes the lock or writes its state; what others need to
know is read from its public facts (`status`, `seats`, `seat_of`, `match`, `version`, ...), which
only the table changes.

A change to the match is checked by the engine, stored (the move's transaction commits), and only
then published to the seats. A table can always be rebuilt from its database row and move log
(`Table.restore`), which is how a restarted server resumes its matches.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, NamedTuple, Protocol

from carroca import fair, record
from carroca.bots import SEARCHING_LEVELS
from carroca.bots.expert import DEFAULT_THINK_MS
from carroca.botservice import BotService, Decision, Job, Priority
from carroca.rules import Action, Match, Phase, RulesError, actions, observation
from carroca.server import records
from carroca.server.errors import (
    ChatTooFast,
    EmptyChat,
    HandPause,
    MatchGone,
    MatchOver,
    MoveNotStored,
    NoChat,
    NoMoreTime,
    NotStarted,
    NotStored,
    RematchStarted,
    Resigned,
    StaleMove,
    StaleState,
    TableFull,
    TableMoving,
)
from carroca.server.players.ratings import Ratings
from carroca.server.players.stats import seat_stats
from carroca.server.realtime import protocol, wire
from carroca.server.realtime.fanout import Fanout, chat_channel, player_channel, seat_channel
from carroca.server.realtime.frames import FrameCache, OwnState, StateFrames, table_state
from carroca.server.records import BotSeat, LiveInfo, Mode, Player, Seat, is_bot, is_person
from carroca.server.settings import Settings
from carroca.server.storage.rows import MatchRow
from carroca.server.storage.store import Fenced, MoveRow, Store
from carroca.server.tables.chat import ChatRate, clean_text
from carroca.server.tables.tablerow import TableRow, player_seat
from carroca.server.tables.turnclock import Timers

ABANDON = "abandon"
# The longest a hand's summary holds a table for the players reading it (`Table.hold`), so that
# nobody holds a table for ever: casual, friends' and bots' tables; ranked and tournament ones.
HOLD_MOST = 60.0
HOLD_MOST_TIMED = 15.0
# A player's "mais tempo" (`Table.more_time`): their turns (and their cinco-carroças choice) last
# this many times the table's, at the tables where the time is the players' to choose; ranked
# and tournament tables keep the same clock for everyone.
MORE_TIME = 2.0
MORE_TIME_MODES = ("casual", "friends")
MIN_BACKOFF, MAX_BACKOFF = 0.5, 10.0  # a bot's retries while the database refuses its moves
#: Told once to the people of a table whose bot played the safe move (the bot service behind).
BOTS_SIMPLE = ("Os robôs desta mesa estão jogando no modo simples: o servidor que pensa por eles "
               "está ocupado ou fora do ar. A partida continua normalmente.")


class TableHost(Protocol):
    """What a table needs of whoever runs it (`tables.Tables`): the services it uses, and the
    events it reports upward. A table never reaches the lobby or other tables."""

    @property
    def settings(self) -> Settings: ...
    @property
    def store(self) -> Store: ...
    @property
    def fanout(self) -> Fanout: ...
    @property
    def bots(self) -> BotService: ...
    @property
    def ratings(self) -> Ratings: ...
    @property
    def log(self) -> logging.Logger: ...
    @property
    def clustered(self) -> bool:
        """Several nodes share the database: writes are fenced, scores shown elsewhere."""

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run a background task that the host stops with the server."""

    def table_started(self, table: Table) -> None: ...
    def table_finished(self, table: Table) -> None: ...
    def table_closed(self, table: Table) -> None:
        """The table ended unplayed (expired): it is no longer run here."""

    def lost(self, table: Table) -> None:
        """The database refused a write: another node runs this match now."""

    def start_when_stored(self, table: Table) -> Coroutine[Any, Any, None]:
        """A full table whose start the database refused, started once it is back."""


class Joined(NamedTuple):
    """A join's answer: the joiner's seat (None: a spectator), the table's mode, and its
    `state` frame for that seat (None when the join published it to everyone already)."""

    seat: int | None
    mode: Mode
    frame: str | None


class Table(TableRow):
    """A table running here: its match, clock and bots, on top of what its row holds.

    Read-only facts for others (written by the table only): `match`, `score`, `version`,
    `clock` and `pause` (what the frames show), and the row's fields (`TableRow`)."""

    def __init__(self, host: TableHost, row: MatchRow, address: str | None = None) -> None:
        super().__init__(row, address)
        self._host = host
        self.match: Match | None = None
        self.score: list[int] = []
        self.seq = 0
        self.version = 0
        self._lock = asyncio.Lock()
        self.clock: records.Clock | None = None
        self._timers = Timers()
        self._autoplay: asyncio.Future[Decision] | None = None  # a timed-out seat's bot job
        self._move_ids: dict[int, int] = {}
        self._chat_rate = ChatRate()
        self._backoff = 0.0  # seconds before a bot retries a move the database refused
        self._told_simple = False  # its people know its bots fell back to the safe move
        # Between two hands (records.Pause): no clock runs, no bot moves, nobody may move. In
        # memory only: after a restart the next hand's clock simply starts.
        self.pause: records.Pause | None = None
        # The seats that asked the table to wait at each hand's end while they read its
        # summary (`hold`); kept while the table runs here, sent again by a client that joins.
        self.holders: set[int] = set()
        # The seats whose turns last MORE_TIME times the table's (`more_time`); kept while the
        # table runs here, sent again by a client that joins, shown to everyone in the state.
        self.more_time_seats: set[int] = set()
        # Seats whose player gave up (`resign`): their turns run out at once (in memory: after
        # a restart the seat plays on its clock again, and its program may resign again).
        self.resigned: set[int] = set()
        self.frame_cache = FrameCache()  # text of the hand so far, for the next frames

    # ------------------------------------------------------------------ restore

    def restore(self, moves: list[MoveRow]) -> None:
        """Rebuild the match from its log: the same deals, the same actions, in order (before
        the table is shared: at its start, or when a node adopts it)."""
        if self.status == "waiting":
            return
        match = Match(self.ruleset, self.options)
        self._deal(match)
        for mv in moves:
            if mv.action == ABANDON:
                match.abandon(mv.seat)
            else:
                match.apply(actions.parse(mv.action), mv.seat, auto=mv.auto)
            self._deal(match)
        self.match = match
        self.score = list(match.score)  # as stored: what public routes show
        self.seq = len(moves)
        self.version = self.seq + 1  # the same after a restart: clients never see it go back
        for mv in moves:
            if mv.client_id is not None:
                self._move_ids[mv.seat] = mv.client_id

    def _deal(self, match: Match) -> None:
        assert self.client_seed is not None
        while match.needs_deal:
            match.deal(fair.shuffle(self.server_seed, self.client_seed, match.deal_index))

    # ------------------------------------------------------------------ facts

    def info(self) -> LiveInfo:
        """The live part of the public match page (`GET /api/matches/{id}`)."""
        return {"status": self.status, "players": [s["name"] if s else None for s in self.seats],
                "score": self.score if self.match else None, "client_seed": self.client_seed}

    @property
    def fence(self) -> int | None:
        """The epoch the database must still have for this node's writes (several nodes)."""
        return self.epoch if self._host.clustered else None

    def seat_connected(self, seat: int) -> bool:
        """A bot, or a player with a socket open on any node (the seat's channel has a
        listener somewhere)."""
        return self.is_bot(seat) or self._host.fanout.listening(seat_channel(self.id, seat))

    def last_move_id(self, seat: int) -> int | None:
        """The id of the seat's last stored move (its next one must be higher)."""
        return self._move_ids.get(seat)

    # ------------------------------------------------------------------ commands: seats

    async def join(self, player_id: int, client_seed: str | None = None,
                   follow: Callable[[int | None], None] | None = None,
                   watching: bool = False) -> Joined:
        """A player comes to the table, from a socket here (`follow` subscribes it to its
        seat's channel, under the lock) or on another node (subscribed there already). Their
        client seed is taken while the match has not started. The first socket of a seat
        makes the table publish (everyone sees the seat come back, the joiner included).
        `watching`: the socket follows this table already (a finished private match's end
        stays shown to it). Raises `MatchGone` for a private match's end to a stranger."""
        seat = self.seat_of(player_id)
        if self.hidden_from(seat) and not watching:
            raise MatchGone()
        async with self._lock:
            if seat is not None and client_seed:
                await self._set_client_seed(seat, client_seed)
            if follow is None:
                return Joined(seat, self.mode, self.message(seat))
            first = seat is not None and not self._host.fanout.listening(
                seat_channel(self.id, seat))
            follow(seat)
            if first:
                self.publish()
                return Joined(seat, self.mode, None)
            return Joined(seat, self.mode, self.message(seat))

    async def sit(self, who: Seat, client_seed: str | None = None,
                  seat: int | None = None) -> int | None:
        """Take an open seat (`seat` if it is open, else the first one) for `who` (a player's
        or a bot's seat, `tablerow.player_seat`); the table starts when none is left. Returns
        the seat: the player's own when they have one already (asking twice never takes two),
        None when the table is not waiting or has no open seat.

        The seat is taken in memory only once the database has it: a failed write raises
        `NotStored` (503) and leaves the seat open, here and in the database alike."""
        async with self._lock:
            if is_person(who) and self.status in ("waiting", "playing"):
                mine = self.seat_of(who["player"])
                if mine is not None:
                    return mine
            free = self.open_seats()
            if self.status != "waiting" or not free:
                return None
            target = seat if seat in free else free[0]
            await self._sit(target, who, client_seed)
            return target

    async def _sit(self, seat: int, who: Seat, client_seed: str | None) -> None:
        seats = list(self.seats)
        seats[seat] = who
        seeds = list(self.client_seeds)
        if client_seed and seeds[seat] is None:
            seeds[seat] = client_seed
        try:
            await self._host.store.update_match(self.id, self.fence, seats=seats,
                                                client_seeds=seeds)
        except Fenced:
            self._host.lost(self)
            raise TableMoving() from None
        except Exception:
            raise NotStored() from None
        self.seats, self.client_seeds = seats, seeds
        self.publish()
        if not self.open_seats():
            try:
                await self._start()
            except Exception:  # the seat is stored: the start is retried until it is too
                self._host.spawn(self._host.start_when_stored(self))

    async def _set_client_seed(self, seat: int, seed: str) -> bool:
        if self.status != "waiting" or self.client_seeds[seat] is not None \
                or self.client_seed is not None:  # an event's match: fixed in advance
            return False
        seeds = list(self.client_seeds)
        seeds[seat] = seed
        try:
            await self._host.store.update_match(self.id, self.fence, client_seeds=seeds)
        except Fenced:
            self._host.lost(self)
            raise TableMoving() from None
        self.client_seeds = seeds
        return True

    def set_private(self, private: bool) -> None:
        """Its host changed who may see the match: who may join its end follows."""
        self.private = private

    async def expire(self, force: bool = False, absent: list[int] | None = None) -> bool:
        """Close a table still waiting for its players, unplayed (its time ran out, or its
        event's game was decided without it): its sockets see it expired. Returns whether the
        database has it expired. A refusal leaves it running, unless `force`d (an event's
        game: the row stays waiting, and a restart starts it). `absent`: a tournament's
        table closed at its show-up time, the teams none of whose players came (stored)."""
        async with self._lock:
            if self.status != "waiting":
                return False
            try:
                stored = await self._host.store.expire_match(self.id, self.fence, absent)
            except Exception:
                if not force:
                    raise
                stored = False
            if not stored and not force and self._host.clustered:  # another node runs it now
                self._host.lost(self)
                return False
            self.status = "expired"
            self.absent = absent
            self.publish()
            self.close()
        self._host.table_closed(self)
        return stored

    async def end_by_operator(self, reason: str) -> bool:
        """An operator ended this table (`carroca admin end`, straight on the database: the
        row is expired already, under a raised epoch): stop running it here, once any move in
        flight is stored, and show its sockets why. False when it had ended already."""
        async with self._lock:
            if self.closed or self.status not in ("waiting", "playing"):
                return False
            self.status, self.ended_reason = "expired", reason
            self.publish()
            self.close()
        self._host.table_closed(self)
        return True

    async def rematch(self, player: Player, find: Callable[[str], Table | None],
                      make: Callable[[], Awaitable[Table]]) -> Table:
        """The next match with this finished table's settings, made once (`make`) even when
        two players ask at once; asked again, the one made before (`find` gives it while it
        runs). Once made, the others who played here are offered it (a `rematch` frame), and
        this table's state names it."""
        async with self._lock:
            new = find(self.rematch_id) if self.rematch_id else None
            if new is not None:
                return new
            new = await make()
            self.rematch_id, self.rematch_by = new.id, player["name"]
            offer = wire.frame(wire.Rematch(match=self.id, id=new.id, mode=new.mode,
                                            by=player["name"]))
            for _, pid in self.humans():
                if pid != player["id"]:
                    self._host.fanout.publish(player_channel(pid), offer)
            self.publish()
            return new

    async def sit_rematch(self, player: Player, client_seed: str | None,
                          seat: int) -> int:
        """A player of the finished table comes to its rematch (this table): their own seat
        when it is open. Raises `RematchStarted` when it began without them."""
        got = await self.sit(player_seat(player), client_seed, seat)
        if got is None:
            raise RematchStarted()
        return got

    async def sit_invited(self, player: Player, client_seed: str | None) -> int:
        """A player with the invitation sits (their own seat when they have one). Raises
        `TableFull` when it is complete or started."""
        got = await self.sit(player_seat(player), client_seed)
        if got is None:
            raise TableFull()
        return got

    # ------------------------------------------------------------------ commands: running

    async def start(self) -> None:
        """Start a full waiting table (nothing when it is not). Raises when the database
        refused it: the caller tries again."""
        async with self._lock:
            if self.status == "waiting" and not self.open_seats():
                await self._start()

    async def start_with_bots(self, bot: BotSeat) -> None:
        """Start a waiting table now, its open seats filled with `bot` (a casual table whose
        players did not come); nothing when it started already."""
        async with self._lock:
            if self.status == "waiting":
                fill = BotSeat(bot=bot["bot"], name=bot["name"])  # a copy per seat
                await self._start([s or fill.copy() for s in self.seats])

    async def finish_stored(self) -> None:
        """A match stopped between its last move and its end: store its end now."""
        async with self._lock:
            try:
                await self._finish()
            except Fenced:
                self._host.lost(self)

    async def _start(self, seats: list[Seat | None] | None = None) -> None:
        """Fix the client seed (every seat's seed, joined) and deal the first hand; `seats`
        fills the open seats (with bots) in the same write."""
        seats = list(self.seats if seats is None else seats)
        if self.client_seed is not None:  # fixed in advance (an event's match)
            seeds: list[str | None] = list(self.client_seeds)
            client_seed = self.client_seed
        else:
            seeds = [s or secrets.token_hex(8) for s in self.client_seeds]
            client_seed = ":".join(s or "" for s in seeds)
        try:
            await self._host.store.update_match(
                self.id, self.fence, status="playing", client_seeds=seeds,
                client_seed=client_seed, started_at=time.time(), seats=seats,
            )
        except Fenced:
            self._host.lost(self)
            raise
        self.seats, self.client_seeds, self.client_seed = seats, seeds, client_seed
        self.status = "playing"
        self.restore([])
        self._host.table_started(self)
        self.schedule()  # first: the frames carry the clock of the seat now to move
        self.publish()

    def schedule(self) -> None:
        """Arm the clock of the seat to move, or the bot's turn (the table's own; called once
        by whoever adopts a restored table, before it is shared)."""
        self._timers.stop()
        self.clock = None
        match = self.match
        if self.closed or self.status != "playing" or match is None or match.is_over:
            return
        seat = match.current_player
        if seat is None:
            return
        version = self.version
        settings = self._host.settings
        if self.pause is not None:
            left = self.pause.until - time.time()
            if left > 0:  # the next hand waits: its clock or its bot starts after the pause
                self._timers.later(left, self._spawn, self.end_pause, version)
                return
            self.pause = None
        if self.is_bot(seat):
            delay = max(settings.bot_delay_ms / 1000, self._backoff)
            self._timers.later(delay, self._spawn, self._bot_turn, version)
            return
        if seat in self.resigned:
            self._timers.later(self._backoff, self._spawn, self._timeout, version)
            return
        seconds = self.clock_seconds(seat, match.phase)
        self.clock = records.Clock(seat, time.time() + seconds, seconds)
        self._timers.clock(seconds, version, self._clock_ran_out)

    def clock_seconds(self, seat: int, phase: Phase) -> float:
        """How long a person at `seat` has to act: the table's turn (the cinco-carroças
        choice's window in the choice phase), MORE_TIME times it for a seat that asked."""
        base = self._host.settings.choice_seconds if phase == Phase.CHOICE \
            else self.turn_seconds
        return base * MORE_TIME if seat in self.more_time_seats else base

    async def more_time(self, seat: int, on: bool) -> None:
        """A player asks for their turns to last MORE_TIME times the table's (or no longer).
        Turned on during their own turn, the running clock gets the extra time at once; turned
        off, it ends as it was set, and their next turn has the table's time. Everyone sees who
        has more time (the state's `more_time`, and their clock). Raises `NoMoreTime` at ranked
        and tournament tables, where the clock is the same for everyone."""
        if self.mode not in MORE_TIME_MODES:
            raise NoMoreTime()
        async with self._lock:
            if self.closed or self.status not in ("waiting", "playing") \
                    or on == (seat in self.more_time_seats):
                return
            if not on:
                self.more_time_seats.discard(seat)
                self.publish()
                return
            self.more_time_seats.add(seat)
            clock, match = self.clock, self.match
            # its own turn, whose time has not run out yet (the auto-play may be on its way)
            if clock is not None and clock.seat == seat and match is not None \
                    and self._timers.running():
                seconds = self.clock_seconds(seat, match.phase)
                if seconds > clock.seconds:
                    deadline = clock.deadline + seconds - clock.seconds
                    self.clock = records.Clock(seat, deadline, seconds)
                    self._timers.clock(max(0.0, deadline - time.time()), self.version,
                                       self._clock_ran_out)
            self.publish()

    def _clock_ran_out(self, version: int) -> None:
        if not self.closed:
            self._host.spawn(self._timeout(version))

    def _spawn(self, fn: Callable[[int], Any], version: int) -> None:
        self._host.spawn(fn(version))

    def hand_pause(self) -> float:
        """Seconds between two hands, while the hand's summary shows (0: none)."""
        return max(0.0, self._host.settings.hand_pause_seconds)

    def hold_most(self) -> float:
        """The longest a hand's summary may hold the table for the players reading it: short
        where the schedule or the opponents' time matter (ranked, tournaments)."""
        return HOLD_MOST_TIMED if self.mode in ("ranked", "tournament") else HOLD_MOST

    def _pause_after_hand(self, pause: float) -> records.Pause | None:
        """The pause after a hand: the ordinary one, longer (up to `hold_most`) while a
        connected player who asked for it reads the summary; None when there is none."""
        readers = sorted(s for s in self.holders
                         if not self.is_bot(s) and self.seat_connected(s))
        if pause <= 0 and not readers:
            return None
        now = time.time()
        seconds = max(pause, self.hold_most()) if readers else pause
        return records.Pause(until=now + seconds, seconds=seconds, least=now + pause,
                             reading=tuple(readers))

    async def hold(self, seat: int, on: bool) -> None:
        """A player asks the table to wait (or no longer) at each hand's end while they read
        its summary; off during a pause counts as having read it."""
        if on:
            self.holders.add(seat)
        else:
            self.holders.discard(seat)
            await self.ready(seat)

    async def ready(self, seat: int) -> None:
        """A player read the summary: once nobody is reading, the pause ends when the ordinary
        one would have (at once if that is past)."""
        async with self._lock:
            pause = self.pause
            if self.closed or pause is None or seat not in pause.reading:
                return
            reading = tuple(s for s in pause.reading if s != seat)
            until = pause.until if reading else min(pause.until, max(time.time(), pause.least))
            self.pause = dataclasses.replace(pause, until=until, reading=reading)
            self.schedule()  # first: the frames carry the clock of the seat now to move
            self.publish()

    async def end_pause(self, version: int) -> None:
        """The pause between hands is over: the next hand's clock (or bot) starts."""
        async with self._lock:
            if version != self.version or self.closed or self.pause is None:
                return
            self.pause = None
            self.schedule()  # first: the frames carry the clock of the seat now to move
            self.publish()

    def _job(self, seat: int, level: str) -> Job:
        """A bot's decision for the bot service: this seat's view only, never the match."""
        assert self.match is not None
        loop = asyncio.get_running_loop()
        return Job(
            key=self.id, level=level, view=observation(self.match, seat),
            seed=secrets.randbits(32),
            priority=Priority.BOTS if self.mode == "bots" else Priority.PEOPLE,
            think_ms=DEFAULT_THINK_MS if level in SEARCHING_LEVELS else None,
            deadline=loop.time() + self._host.settings.bot_deadline_seconds,
        )

    async def _bot_turn(self, version: int) -> None:
        async with self._lock:
            match = self.match
            if version != self.version or match is None or match.is_over:
                return
            seat = match.current_player
            if seat is None or not self.is_bot(seat):
                return
            bot = self.seats[seat]
            assert bot is not None and is_bot(bot)
            job = self._job(seat, bot["bot"])
        # Thought out by a bot worker, without the lock: joins and reconnections go on meanwhile.
        decision = await self._host.bots.decide(job)
        async with self._lock:
            if version == self.version and not self.closed:
                await self._commit(seat, actions.parse(decision.action), auto=False)
                if decision.fallback and not self._told_simple:
                    # Told once, to someone: a table whose people are not connected yet (its
                    # bots moved first) tells them at the next fallback instead.
                    self._told_simple = self.notify_players(wire.Notice(
                        match=self.id, code="bots_simple", message=BOTS_SIMPLE)) > 0

    async def _timeout(self, version: int) -> None:
        """Time ran out: the third time in a row is abandonment, otherwise a bot plays for them."""
        async with self._lock:
            match = self.match
            if version != self.version or match is None or match.is_over:
                return
            seat = match.current_player
            if seat is None:
                return
            if match.timeouts_in_a_row(seat) >= 2:
                await self._commit(seat, None, auto=True)
                return
            if match.phase == Phase.CHOICE:
                await self._commit(seat, actions.FIVE_POINTS, auto=True)
                return
            job = self._job(seat, self._host.settings.autoplay_bot)
            # The player may still move before the bot's answer: then theirs stands, and the
            # job leaves the queue (or its worker's answer is dropped) at once (`_commit`).
            thinking = self._autoplay = asyncio.ensure_future(self._host.bots.decide(job))
        try:
            decision = await thinking
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is not None and task.cancelling():  # this task was stopped, not the job
                raise
            return
        finally:
            if self._autoplay is thinking:
                self._autoplay = None
        async with self._lock:
            if version == self.version and not self.closed:
                await self._commit(seat, actions.parse(decision.action), auto=True)

    async def move(
        self, seat: int, move_id: int, text: str, version: int | None = None
    ) -> str:
        """A player's move: the reply is an ack or a typed error; a refusal changes nothing."""
        async with self._lock:
            if self.closed and self.status != "finished":  # another node runs it (or soon will)
                return protocol.refusal(TableMoving(), move_id)
            last = self._move_ids.get(seat, -1)
            if move_id == last:
                return wire.frame(wire.Ack(id=move_id, version=self.version, duplicate=True))
            if move_id < last:
                return protocol.refusal(StaleMove(), move_id)
            match = self.match
            if self.status == "waiting" or match is None:
                return protocol.refusal(NotStarted(), move_id)
            if match.is_over or self.status == "finished":
                return protocol.refusal(MatchOver(), move_id)
            if self.pause is not None:
                return protocol.refusal(HandPause(), move_id)
            if seat in self.resigned:
                return protocol.refusal(Resigned(), move_id)
            if version is not None and version != self.version:
                return protocol.refusal(StaleState(), move_id)
            try:
                # The engine refuses before changing anything, so a refusal stores nothing.
                stored = await self._commit(seat, actions.parse(text), auto=False,
                                            client_id=move_id)
            except RulesError as exc:
                return protocol.refusal(exc, move_id)
            if not stored and self.closed:
                return protocol.refusal(TableMoving(), move_id)
            if not stored:
                return protocol.refusal(MoveNotStored(), move_id)
            return wire.frame(wire.Ack(id=move_id, version=self.version))

    async def resign(self, seat: int) -> str | None:
        """The seat gives the match up (the Bot API's `resign`). The rules know one way to
        leave a match, the abandonment at the third time run out in a row (rules.md §5), and a
        record must stay one the rules replay: so from now on the seat's turns run out at
        once, the first two played for it as any time run out, the third its abandonment (the
        other side wins). None once under way, else the refusal's frame."""
        async with self._lock:
            if self.closed and self.status != "finished":
                return protocol.refusal(TableMoving())
            match = self.match
            if self.status == "waiting" or match is None:
                return protocol.refusal(NotStarted())
            if match.is_over or self.status == "finished":
                return protocol.refusal(MatchOver())
            self.resigned.add(seat)
            if match.current_player == seat and self.pause is None:
                self.schedule()  # its clock runs out now
            return None

    async def _commit(
        self, seat: int, action: Action | None, auto: bool, client_id: int | None = None
    ) -> bool:
        """Apply (None: the seat abandons), store, then publish: a move is broadcast only once
        its commit succeeded.

        The action is applied to a copy of the match, which replaces it only once stored, so a
        failed write leaves the table exactly as the log has it. Rules refusals raise before
        anything is stored; a failed write returns False.
        """
        current = self.match
        assert current is not None
        match = current.copy(keep_caches=True)
        hands_before = len(current.history)
        if action is None:
            match.abandon(seat)
        else:
            match.apply(action, seat, auto=auto)
        text = ABANDON if action is None else str(action)
        row = MoveRow(self.id, self.seq, seat, text, auto, time.time(), client_id, self.fence)
        host = self._host
        try:
            await host.store.append_move(row)
        except Fenced:  # another node runs this match now: its sockets get its frames
            host.lost(self)
            return False
        except Exception:  # logged once per outage by the store
            self._backoff = min(MAX_BACKOFF, max(MIN_BACKOFF, self._backoff * 2))
            self.schedule()  # the clock, or the bot after its back-off, tries again
            return False
        self._backoff = 0.0
        if self._autoplay is not None:  # a bot was thinking for this seat: no longer needed
            self._autoplay.cancel()
        self.match = match
        self.seq += 1
        if client_id is not None:
            self._move_ids[seat] = client_id
        self._deal(match)
        self.version = self.seq + 1
        self.score = list(match.score)
        pause = self.hand_pause()
        if len(match.history) != hands_before and not match.is_over:
            self.pause = self._pause_after_hand(pause)
            if host.clustered:  # the lobby of other nodes shows it
                host.spawn(self._store_score(list(match.score)))
        try:
            if match.is_over:
                await self._finish()
        except Fenced:  # another node runs it now, and finishes it
            host.lost(self)
        except Exception:  # stored but not closed: the next start finishes it from the log
            host.log.exception("match %s could not be finished", self.id,
                               extra={"match": self.id})
        finally:
            self.schedule()  # first: the frames carry the clock of the seat now to move
            self.publish()
        return True

    async def _store_score(self, score: list[int]) -> None:
        try:
            await self._host.store.update_match(self.id, self.fence, score=score)
        except Fenced:
            self._host.lost(self)
        except Exception:  # only the lobby's figure: the next hand's end writes it again
            pass

    async def _finish(self) -> None:
        """Store the end, the record and the ratings; only then is the table `finished`."""
        match = self.match
        assert match is not None and match.result is not None
        rec = record.to_record(
            match, self.names(),
            record.Fairness(self.commitment, self.client_seed or "", self.server_seed),
        )
        result = rec["result"]
        participants, rating_rows = await self._host.ratings.after_match(self, result["winner"])
        did = seat_stats(match)
        for p in participants:  # what each player did, for their profile
            seat = did[p["seat"]]
            p["won"], p["batidas"] = seat["won"], seat["batidas"]
            p["galos"], p["capicus"] = seat["galos"], seat["capicus"]
        await self._host.store.finish_match(
            self.id,
            {"status": "finished", "finished_at": time.time(), "score": result["score"],
             "result": result, "record": record.dumps(rec)},
            participants,
            rating_rows,
            self.fence,
        )
        self.rating_changes = {p["seat"]: (p["rating_before"], p["rating_after"])
                               for p in participants}
        self.status = "finished"
        self._host.table_finished(self)

    # ------------------------------------------------------------------ views

    def state(self, seat: int | None, view: dict[str, Any] | None = None) -> wire.State:
        """What one seat (None: a spectator) is sent
        (`carroca.server.realtime.frames.table_state`)."""
        return table_state(self, seat, view)

    def own_state(self, seat: int) -> OwnState:
        """The entries of a seated player's state that nobody else gets (besides the view's)."""
        own: OwnState = {"last_move_id": self.last_move_id(seat)}  # where its ids resume
        if self.status == "finished" and seat in self.rating_changes:
            before, after = self.rating_changes[seat]
            own["rating"] = wire.RatingChange(before=before, after=after)
        if self.invite and self.mode == "friends":
            own["invite"] = self.invite  # seated players only: a spectator could take a seat
        if self.rematch_id is not None and self.rematch_by is not None:
            own["rematch"] = wire.RematchAsked(id=self.rematch_id, by=self.rematch_by)
        return own

    async def refresh(self) -> None:
        """Publish again from outside a move (a seat's socket came or went, a node came
        back): once any move in flight is stored."""
        async with self._lock:
            if not self.closed:
                self.publish()

    def message(self, seat: int | None) -> str:
        """The `state` frame of one seat (None: a spectator), as `publish` would send it."""
        return StateFrames(self).frame(seat)

    def publish(self) -> None:
        """Send every listening seat and the spectators their own view of the table. The part
        of the view they share is built and encoded once (`carroca.server.realtime.frames`)."""
        fanout = self._host.fanout
        frames: StateFrames | None = None
        for seat in (*range(len(self.seats)), None):
            channel = seat_channel(self.id, seat)
            if fanout.listening(channel):
                frames = frames or StateFrames(self)
                fanout.publish(channel, frames.frame(seat))

    def chat(self, seat: int, player_id: int, text: str) -> str | None:
        """Publish a chat line; returns an error frame when it is refused."""
        if self.mode not in ("casual", "friends"):
            return protocol.refusal(NoChat())
        if not self._chat_rate.allow(player_id, self._host.settings.chat_per_10s):
            return protocol.refusal(ChatTooFast())
        clean = " ".join(clean_text(text).split())
        if not clean:
            return protocol.refusal(EmptyChat())
        # The sender's id goes before the frame, for the sockets of those who blocked them to
        # drop the line (`tables.chat.said_by`); it is never sent to a client.
        self._host.fanout.publish(
            chat_channel(self.id),
            f"{player_id}|" + wire.frame(wire.ChatLine(seat=seat, name=self.names()[seat],
                                                       text=clean,
                                     at=time.time())),
        )
        return None

    def notify_players(self, data: wire.Data) -> int:
        """A frame on the own channel of each player seated here; how many sockets (or nodes)
        it reached."""
        frame = wire.frame(data)
        return sum(self._host.fanout.publish(player_channel(pid), frame)
                   for _, pid in self.humans())

    def close(self) -> None:
        """Stop running the table here: no clock, no bot, no move (it ended, moved to another
        node, or the server stops)."""
        self.closed = True
        self._timers.close()
        if self._autoplay is not None:
            self._autoplay.cancel()
