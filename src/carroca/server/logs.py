"""The server's log: text lines or JSON lines (`CARROCA_LOG_FORMAT`), and no flood.

A log line that says the same thing again (same logger, level and message template) is let
through a few times a minute and then held back, and the next line of that kind says how many
were held: whatever a client does to make the server log, it cannot make it log fast. JSON
lines carry the ids a line is about (`match`, `event`, `player`, `node`), given as `extra=`.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

#: The ids a line may be about, given with `extra={"match": …}`: fields of a JSON line.
CONTEXT = ("match", "event", "player", "node", "table", "code")

#: Lines of one kind let through per window, then held back until the window ends.
BURST = 10
WINDOW_SECONDS = 60.0


class Repeats(logging.Filter):
    """Holds back a kind of line seen more than `burst` times in `window` seconds."""

    def __init__(self, burst: int = BURST, window: float = WINDOW_SECONDS,
                 clock: Any = time.monotonic) -> None:
        super().__init__()
        self.burst, self.window, self.clock = burst, window, clock
        self._seen: dict[tuple[str, int, str], list[float]] = {}  # kind -> [start, count, held]

    def filter(self, record: logging.LogRecord) -> bool:
        kind = (record.name, record.levelno, str(record.msg))
        now = self.clock()
        seen = self._seen.get(kind)
        if seen is None or now - seen[0] >= self.window:
            held = int(seen[2]) if seen is not None else 0
            self._seen[kind] = [now, 1.0, 0.0]
            if len(self._seen) > 10_000:  # kinds are templates: a bound against the unforeseen
                self._seen = {kind: self._seen[kind]}
            if held:
                record.held = held
            return True
        seen[1] += 1
        if seen[1] <= self.burst:
            return True
        seen[2] += 1
        return False


class Text(logging.Formatter):
    def __init__(self) -> None:
        super().__init__("%(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        held = getattr(record, "held", 0)
        return f"{line} ({held} more like it held back)" if held else line


class Json(logging.Formatter):
    """One JSON object a line: time, level, logger, message, the ids it is about, and the
    exception's type and traceback when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, object] = {
            "time": round(record.created, 3), "level": record.levelname.lower(),
            "logger": record.name, "message": record.getMessage(),
        }
        for key in CONTEXT:
            value = getattr(record, key, None)
            if value is not None:
                out[key] = value
        held = getattr(record, "held", 0)
        if held:
            out["held"] = held
        if record.exc_info and record.exc_info[0] is not None:
            out["error"] = record.exc_info[0].__name__
            out["traceback"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False, default=str)


def configure(fmt: str = "text", level: int = logging.INFO) -> None:
    """The process's logging: one handler on stderr, in `fmt` ("text" or "json"), with the
    repeats held back; uvicorn's loggers write through it too."""
    if fmt not in ("text", "json"):
        raise ValueError(f"log format {fmt!r}: text or json")
    handler = logging.StreamHandler()
    handler.setFormatter(Json() if fmt == "json" else Text())
    handler.addFilter(Repeats())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    logging.getLogger("alembic").setLevel(logging.WARNING)  # migrations: what is wrong only
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logger = logging.getLogger(name)
        logger.handlers.clear()
        logger.propagate = True
