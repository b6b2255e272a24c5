"""The open sockets of each sign-in (session): counted for the per-session cap, closed at
logout, and the players they speak for kept by the clean-up."""

from __future__ import annotations

from typing import Protocol

from carroca.server.records import Player


class Socket(Protocol):
    """An open WebSocket, as a session counts it (`carroca.server.routes.connection`)."""

    @property
    def player(self) -> Player: ...
    def end_session(self) -> None:
        """Its sign-in ended: close it (4401)."""

    def send(self, text: str) -> None:
        """Queue a frame to it."""


class Sessions:
    """The open sockets per session (a token's hash)."""

    def __init__(self) -> None:
        self._sockets: dict[str, set[Socket]] = {}

    def opened(self, session: str, conn: Socket) -> None:
        self._sockets.setdefault(session, set()).add(conn)

    def closed(self, session: str, conn: Socket) -> None:
        conns = self._sockets.get(session)
        if conns is not None:
            conns.discard(conn)
            if not conns:
                del self._sockets[session]

    def count(self, session: str) -> int:
        """The session's open sockets."""
        return len(self._sockets.get(session, ()))

    def total(self) -> int:
        """Every open socket of every session."""
        return sum(len(conns) for conns in self._sockets.values())

    def players(self) -> set[int]:
        """The players with a socket open."""
        return {c.player["id"] for conns in self._sockets.values() for c in conns}

    def sockets(self) -> list[Socket]:
        """Every open socket of this node."""
        return [c for conns in self._sockets.values() for c in conns]

    def end_players(self, player_ids: set[int]) -> int:
        """Every socket of these players is closed (4401); returns how many."""
        ended = 0
        for session in [s for s, conns in self._sockets.items()
                        if any(c.player["id"] in player_ids for c in conns)]:
            ended += self.end(session)
        return ended

    def end(self, session: str) -> int:
        """Logout: that sign-in's open sockets are closed (4401); returns how many."""
        conns = self._sockets.pop(session, set())
        for conn in conns:
            conn.end_session()
        return len(conns)
