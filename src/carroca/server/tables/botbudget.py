"""One budget for bot work, whatever route makes the table (bots-only, friends', casual,
rematch): per player, per address, and for the node as a whole.

Only the searching levels cost real CPU (50-200 ms a decision; medium ~0.3 ms), so a table
counts when a bot at it searches, or when it is a casual table waiting to be filled with such
bots. A table is charged to its host (friends', bots-only, rematch) or, lacking one, to the
first player seated (casual), and to the address it was created from (kept in memory: a table
restored after a restart counts for its player only). In a cluster the per-player and
per-address counts are the whole cluster's: each node tells the others what its tables charge
whom (`Cluster`, every few seconds and at once when a table is admitted), and each node admits
against its own share of the workers.

The node's capacity scales with its bot workers. A searching table asks for at most one decision
per bot delay plus think time (a bots-only match, the worst case); at the floor budget a worker
serves (delay + floor) / floor such tables back to back, and half of that is admitted, so that
admitted tables think above the floor most of the time (`tables_per_worker`). Past it, new
searching seats are refused with a suggestion of the medium level, never silently slow.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass

from carroca.bots import BOT_NAMES, SEARCHING_LEVELS
from carroca.server.errors import BotsBusy, TooManyBotTables, TooManyBotTablesHere
from carroca.server.settings import Settings


def searching_levels() -> str:
    """'Difícil ou Mestre': the levels that search, as players know them."""
    return " ou ".join(BOT_NAMES[lv] for lv in BOT_NAMES if lv in SEARCHING_LEVELS)


@dataclass(frozen=True)
class Charge:
    """A live table that costs bot work: whose it is and where it was made from."""

    player: int | None
    address: str | None


@dataclass(frozen=True)
class Elsewhere:
    """The searching tables other nodes run, counted per player and per address."""

    players: dict[int, int]
    addresses: dict[str, int]


NOWHERE = Elsewhere({}, {})


def tally(charges: Iterable[Charge]) -> Elsewhere:
    """Charges counted per player and per address (what a node tells the others)."""
    players: dict[int, int] = {}
    addresses: dict[str, int] = {}
    for c in charges:
        if c.player is not None:
            players[c.player] = players.get(c.player, 0) + 1
        if c.address is not None:
            addresses[c.address] = addresses.get(c.address, 0) + 1
    return Elsewhere(players, addresses)


def tables_per_worker(settings: Settings) -> int:
    if settings.bot_tables_per_worker > 0:
        return settings.bot_tables_per_worker
    floor = max(1, settings.bot_floor_ms)
    return max(2, (settings.bot_delay_ms + floor) // (2 * floor))


class BotBudget:
    def __init__(self, settings: Settings, workers: Callable[[], int]) -> None:
        self.settings = settings
        self.workers = workers  # the bot workers running now (remote ones come and go)

    @property
    def capacity(self) -> int:
        """Live tables with searching bots this node admits."""
        return self.workers() * tables_per_worker(self.settings)

    @property
    def per_player(self) -> int:
        return self.settings.max_bot_matches_per_player

    @property
    def per_address(self) -> int:
        """A share of the capacity (a family behind one address may have several players),
        never less than one player's."""
        if self.settings.bot_tables_per_address > 0:
            return self.settings.bot_tables_per_address
        return max(self.per_player, self.capacity // 4)

    def room(self, live: Iterable[Charge], player: int | None, address: str | None,
             elsewhere: Elsewhere = NOWHERE) -> int:
        """How many more searching tables this player may have from this address, within
        the node's capacity too (an operator's event, `player` None, only within that)."""
        charges = list(live)
        free = self.capacity - len(charges)
        if player is not None:
            mine = sum(1 for c in charges if c.player == player) + \
                elsewhere.players.get(player, 0)
            free = min(free, self.per_player - mine)
        if address is not None:
            here = sum(1 for c in charges if c.address == address) + \
                elsewhere.addresses.get(address, 0)
            free = min(free, self.per_address - here)
        return max(0, free)

    def check(self, live: Iterable[Charge], player: int, address: str | None,
              elsewhere: Elsewhere = NOWHERE) -> None:
        """Raise unless one more searching table may be made by this player from this
        address (`live`: this node's tables; `elsewhere`: the other nodes')."""
        charges = list(live)
        mine = sum(1 for c in charges if c.player == player) + elsewhere.players.get(player, 0)
        if mine >= self.per_player:
            raise TooManyBotTables(mine, self.per_player, searching_levels())
        if address is not None:
            here = sum(1 for c in charges if c.address == address) + \
                elsewhere.addresses.get(address, 0)
            if here >= self.per_address:
                raise TooManyBotTablesHere(here, self.per_address, searching_levels())
        if len(charges) >= self.capacity:
            raise BotsBusy(searching_levels().replace(" ou ", " e "))


class BotAdmission:
    """Admits the tables whose bots search, one at a time: the budget is checked and the table
    made in one step (`admit`), whatever the route, so two requests at once never both take
    the last place. `elsewhere` gives what the other nodes' tables charge (a cluster), and
    `changed` tells them at once that this node admitted one.

    An event with searching bots takes its tables at once, for its whole length (`reserve`):
    as many as it could seat at a time, charged to its creator and their address, held until
    it ends (`release`), and counted with the live tables (`reserved`) instead of its own."""

    def __init__(self, settings: Settings, workers: Callable[[], int],
                 elsewhere: Callable[[], Elsewhere] = lambda: NOWHERE,
                 changed: Callable[[], None] = lambda: None) -> None:
        self.budget = BotBudget(settings, workers)
        self._lock = asyncio.Lock()  # innermost: held only to check the budget and insert
        self._elsewhere = elsewhere
        self._changed = changed
        self._reserved: dict[str, tuple[int, Charge]] = {}

    def reserved(self) -> list[Charge]:
        """The tables events hold, one charge a table."""
        return [charge for n, charge in self._reserved.values() for _ in range(n)]

    def room(self, live: Callable[[], Iterable[Charge]], player: int | None,
             address: str | None) -> int:
        return self.budget.room(live(), player, address, self._elsewhere())

    async def reserve(self, key: str, tables: int, live: Callable[[], Iterable[Charge]],
                      player: int | None, address: str | None, force: bool = False) -> int:
        """Hold `tables` searching tables for `key` (an event) if they fit (`force`: an event
        admitted before, rebuilt here). Returns the room there was: less than `tables` means
        nothing was held."""
        async with self._lock:
            self._reserved.pop(key, None)
            free = tables if force else self.budget.room(live(), player, address,
                                                         self._elsewhere())
            if free < tables:
                return free
            self._reserved[key] = (tables, Charge(player, address))
        self._changed()
        return free

    def release(self, key: str) -> None:
        if self._reserved.pop(key, None) is not None:
            self._changed()

    @contextlib.asynccontextmanager
    async def admit(self, searching: bool, live: Callable[[], Iterable[Charge]], player: int,
                    address: str | None) -> AsyncIterator[None]:
        """Hold the admission while a table is made: a searching one only within the budget
        (`live`: the searching tables here), or `RateLimited`/`ServerError` is raised."""
        async with self._lock:
            if searching:
                self.budget.check(live(), player, address, self._elsewhere())
            yield
            if searching:
                self._changed()
