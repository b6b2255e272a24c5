"""Tables ended by an operator while the server runs (`carroca admin end`, straight on the
database, which works with every node down too): every few seconds the node reads the entries
added to their log since it last looked and closes those of its tables, whose sockets are then
told why. The command has already expired the row and raised its epoch, so a write of the node
in between is refused (several nodes) or lands before the close (one server), never after."""

from __future__ import annotations

from carroca.server.storage.store import Store, poll
from carroca.server.tables.registry import Tables

POLL_SECONDS = 2.0


class EndedTables:
    def __init__(self, store: Store, tables: Tables, every: float = POLL_SECONDS) -> None:
        self._store, self._tables, self._every = store, tables, every
        self._last: int | None = None  # the log's entry read last (None: not read yet)

    async def run(self) -> None:
        await poll(self._every, self.check)

    async def check(self) -> int:
        """Returns the tables closed here."""
        ended, self._last = await self._store.ended_after(self._last)
        closed = 0
        for match_id, reason in ended:
            table = self._tables.get(match_id)
            if table is not None and await table.end_by_operator(reason):
                self._tables.log.info("match %s ended by an operator: %s", match_id, reason,
                                      extra={"match": match_id})
                closed += 1
        return closed
