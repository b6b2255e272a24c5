"""Table chat: what a typed line may hold, and how often a player may send one."""

from __future__ import annotations

import time
import unicodedata
from collections import deque

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
