"""A stand-in for a player's socket as `realtime.presence` reads it, for its tests and its
benchmark (bench/presence.py): what it follows, and the frames it was given."""

from __future__ import annotations


class Sock:
    """Player `pid`, named p<pid>, a guest at no table."""

    def __init__(self, pid: int) -> None:
        self.player = {"id": pid, "name": f"p{pid}", "kind": "guest"}
        self.match_id: str | None = None
        self.seat: int | None = None
        self.mode: str | None = None
        self.event_id: str | None = None
        self.frames: list[str] = []

    def send(self, payload: str) -> None:
        self.frames.append(payload)
