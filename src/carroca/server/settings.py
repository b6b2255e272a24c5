"""Server settings: defaults, then `CARROCA_*` environment variables, then command-line flags."""

from __future__ import annotations

import os
from dataclasses import dataclass, fields, replace
from typing import Any

DEFAULT_DATABASE = "sqlite:///carroca.db"


@dataclass(frozen=True)
class Settings:
    host: str = "127.0.0.1"
    port: int = 8000
    database: str = DEFAULT_DATABASE
    turn_seconds: float = 20.0  # the turn clock of tables with humans
    choice_seconds: float = 15.0  # the cinco-carroças window; its default is "points"
    bot_delay_ms: int = 800  # a bot's pause before acting (0: bots-only matches at full speed)
    casual_wait_seconds: float = 10.0  # empty seats of a casual table get bots after this
    autoplay_bot: str = "medium"  # plays for a player whose time ran out
    session_days: float = 30.0
    secure_cookies: bool = False  # set behind HTTPS
    chat_per_10s: int = 5
    finished_keep_seconds: float = 120.0  # a finished table stays live this long for its players

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None, **overrides: Any) -> Settings:
        env = dict(os.environ if env is None else env)
        values: dict[str, Any] = {}
        for f in fields(cls):
            raw = env.get(f"CARROCA_{f.name.upper()}")
            if raw is None:
                continue
            kind = type(getattr(cls(), f.name))
            if kind is bool:
                values[f.name] = raw.strip().lower() in ("1", "true", "yes", "on")
            else:
                values[f.name] = kind(raw)
        values.update({k: v for k, v in overrides.items() if v is not None})
        return replace(cls(), **values)
