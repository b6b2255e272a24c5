"""The fair-play signal on the server (docs/moderation.md, "Fair play"): every ranked match's
decisions counted from its stored review, the reviews nobody asked for produced in the
background, and a player's signal read for moderators. Never acted on: it writes no sanction and
no report; a moderator weighs it with the rest of the player's history.

Off the moves' path and cheap where it can be: a review already stored (a player asked for it)
is counted as it is, never judged again; one nobody asked for is asked for here, one at a time
per node and at most one every `fairplay_seconds`, only while the players' own reviews leave
room, and its decisions are judged by the bot service's workers in the review class, behind every
bot move (`tables.reviews`). A node claims the match in the database first, so two nodes never
review the same one.
"""

from __future__ import annotations

import math
import time
from functools import partial
from typing import TYPE_CHECKING

from sqlalchemy.engine import Connection

from carroca.server.moderation import tallies
from carroca.server.moderation.agreement import Population, Rules, Signal, signals
from carroca.server.settings import Settings
from carroca.server.storage.store import poll
from carroca.server.tables.reviews import DEADLINE_SECONDS, MAX_PENDING, Reviews, ReviewsBusy

if TYPE_CHECKING:
    from carroca.server.storage.store import Store

#: The populations are one query over every tally: read again at most this often on a node
#: (and after this node counted new matches).
POPULATION_SECONDS = 300.0
#: A background review claimed longer ago than this ended without being stored (given up, or
#: its node stopped): the match can be claimed again, `MAX_ATTEMPTS` times in all.
CLAIM_SECONDS = 2 * DEADLINE_SECONDS
MAX_ATTEMPTS = 3
#: Reviewed matches counted per transaction; a step counts a few batches at most.
COUNT_BATCH = 50
COUNT_BATCHES = 10
#: Players a moderator looked at lately, whose matches are reviewed first.
WANTED = 20


class FairPlay:
    """Counts ranked matches' decisions and answers a player's signal, on this node."""

    def __init__(self, store: Store, settings: Settings, reviews: Reviews) -> None:
        self._store, self._settings, self._reviews = store, settings, reviews
        self.rules = Rules(settings.fairplay_min_decisions, settings.fairplay_min_players,
                           settings.fairplay_z)
        self._populations: dict[str, Population] = {}
        self._read_at = -math.inf
        self._current: str | None = None  # the background review this node asked for
        self._wanted: dict[int, None] = {}  # ordered: the latest last
        self.counted = 0  # matches counted by this node
        self.asked = 0  # reviews asked for in the background by this node

    async def ended(self, match_id: str) -> None:
        """A ranked match ended: its decisions are due to be counted."""
        await self._store.run_side(partial(tallies.make_due, match_id=match_id,
                                           finished_at=time.time()))

    def want(self, player_id: int) -> None:
        """A moderator looks at this player: their matches are reviewed first from now on."""
        self._wanted.pop(player_id, None)
        self._wanted[player_id] = None
        while len(self._wanted) > WANTED:
            del self._wanted[next(iter(self._wanted))]

    async def run(self) -> None:
        await poll(self._settings.fairplay_seconds, self.step)

    async def step(self) -> int:
        """Count the reviewed matches due, then ask for the next background review if there is
        room for one. Returns the matches counted."""
        counted = 0
        for _ in range(COUNT_BATCHES):
            done = await self._store.run_side(partial(tallies.count_reviewed,
                                                      limit=COUNT_BATCH))
            counted += done
            if done < COUNT_BATCH:
                break
        if counted:
            self.counted += counted
            self._read_at = -math.inf  # the populations changed
        if self._settings.fairplay_reviews and not self._busy():
            await self._ask()
        return counted

    def _busy(self) -> bool:
        """Whether the background review asked for is still being produced, or the players'
        reviews take half the room or more."""
        current = self._current
        if current is not None and self._reviews.running(current) and \
                current not in self._reviews.stored:
            return True
        self._current = None
        return self._reviews.pending >= MAX_PENDING // 2

    async def _ask(self) -> None:
        now = time.time()
        found = await self._store.run_side(partial(
            tallies.claim, now=now, stale_before=now - CLAIM_SECONDS, max_attempts=MAX_ATTEMPTS,
            wanted=list(self._wanted)))
        if found is None:
            return
        match_id, record_text = found
        try:
            self._reviews.request(match_id, record_text)
        except ReviewsBusy:  # players asked for reviews meanwhile: the claim runs out, and
            return  # the match is claimed again later
        self._current = match_id
        self.asked += 1

    def signals(self, conn: Connection, player_id: int) -> list[Signal]:
        """The player's signal, one line per ruleset they have ranked decisions counted in
        (on the store's side thread, in the caller's transaction)."""
        if time.monotonic() - self._read_at > POPULATION_SECONDS:
            self._populations = tallies.populations(conn, self.rules.min_decisions)
            self._read_at = time.monotonic()
        return signals(tallies.player_counts(conn, player_id), self._populations, self.rules)
