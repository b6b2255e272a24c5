"""Accounts closed by an operator while the server runs (`carroca admin close`, straight on the
database): every few seconds the node asks which were closed since it last asked, forgets their
cached sessions and closes their sockets, so a closed account is out within seconds on every
node, not at its next sign-in."""

from __future__ import annotations

from carroca.server.players.accounts import Accounts
from carroca.server.realtime.sessions import Sessions
from carroca.server.storage.store import Store, poll

POLL_SECONDS = 2.0


class ClosedAccounts:
    def __init__(self, store: Store, accounts: Accounts, sessions: Sessions,
                 every: float = POLL_SECONDS) -> None:
        self._store, self._accounts, self._sessions = store, accounts, sessions
        self._every = every
        # The closing times are the admin command's clock, not this node's: the watermark is
        # the latest seen (from 0: the first check reads every closed account once).
        self._since = 0.0

    async def run(self) -> None:
        await poll(self._every, self.check)

    async def check(self) -> int:
        """Returns the sockets closed."""
        closed, self._since = await self._store.closed_since(self._since)
        if not closed:
            return 0
        self._accounts.drop_cached(closed)
        return self._sessions.end_players(closed)
