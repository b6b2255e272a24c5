"""Table chat: what a typed line may hold, and how often a player may send one."""

from __future__ import annotations

import time
import unicodedata
from collections import deque
from collections.abc import Awaitable, Callable

from carroca.server.players.accounts import MAX_MARKS  # as in names: two marks on a letter at most

# Control characters (NUL, ESC, …) and the invisible formatting ones that reorder or hide text
# (bidi overrides and isolates, zero-width spaces), except the joiner that emoji sequences need.
_KEEP_FORMAT = frozenset("\u200d")
_BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800")  # letters and braille that draw nothing
WINDOW_SECONDS = 10.0


def clean_text(text: str) -> str:
    """Text a player typed, without control and invisible formatting characters, and with at
    most `MAX_MARKS` combining marks on a letter (199 of them drew a tower over the chat)."""
    out: list[str] = []
    marks = 0
    for ch in text:
        kind = unicodedata.category(ch)
        if ch in _BLANK or (kind in ("Cc", "Cf", "Co", "Cs") and ch not in _KEEP_FORMAT
                            and ch not in "\t\n"):
            continue
        if kind in ("Mn", "Me", "Mc"):
            marks += 1
            if marks > MAX_MARKS:
                continue
        else:
            marks = 0
        out.append(ch)
    return "".join(out)


class ChatRate:
    """At most `per_window` lines per player in any `WINDOW_SECONDS`."""

    def __init__(self) -> None:
        self._times: dict[int, deque[float]] = {}

    def allow(self, player_id: int, per_window: int) -> bool:
        now = time.monotonic()
        times = self._times.setdefault(player_id, deque())
        while times and now - times[0] > WINDOW_SECONDS:
            times.popleft()
        if len(times) >= per_window:
            return False
        times.append(now)
        return True


class Mutes:
    """The seats each player silenced at each match (`mute` frames): kept per player and
    match, so a reload or a second tab keeps them, until the match's table is dropped."""

    def __init__(self) -> None:
        self._muted: dict[tuple[str, int], set[int]] = {}

    def of(self, match_id: str, player_id: int) -> set[int] | None:
        """The seats the player silenced at the match (None: none ever)."""
        return self._muted.get((match_id, player_id))

    def set(self, match_id: str, player_id: int, seat: int, muted: bool) -> list[int]:
        """Silence a seat (or hear it again); returns the seats silenced now."""
        seats = self._muted.setdefault((match_id, player_id), set())
        if muted:
            seats.add(seat)
        else:
            seats.discard(seat)
        return sorted(seats)

    def forget(self, match_id: str) -> None:
        """The match's table is gone: its mutes with it."""
        for key in [k for k in self._muted if k[0] == match_id]:
            del self._muted[key]


class Blocks:
    """Whom each player with a socket here blocked: those players' chat lines never reach them
    (at every table, unlike a mute). Read from the store when the player's first socket here
    joins a table, again when this node takes a block or an unblock of theirs, before it
    answers (`load` is a block listener of `players.friends`), and when another node took one
    (its `links` message on the presence channel); dropped with their last socket here. Only
    players who blocked someone take an entry."""

    def __init__(self, read: Callable[[int], Awaitable[set[int]]]) -> None:
        self._read = read
        self._of: dict[int, frozenset[int]] = {}

    async def load(self, player: int) -> None:
        blocked = frozenset(await self._read(player))
        if blocked:
            self._of[player] = blocked
        else:
            self._of.pop(player, None)

    def of(self, player: int) -> frozenset[int]:
        return self._of.get(player, _NOBODY)

    def drop(self, player: int) -> None:
        self._of.pop(player, None)


_NOBODY: frozenset[int] = frozenset()


def said_by(payload: str) -> tuple[int | None, str]:
    """A chat channel's message: the sender's id and the frame to send (`Table.chat` puts the
    id before the frame; a message without one is the frame alone)."""
    head, bar, frame = payload.partition("|")
    if bar and head.isdigit():
        return int(head), frame
    return None, payload
