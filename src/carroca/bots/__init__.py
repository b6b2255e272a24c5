"""Bot levels by name: what `carroca simulate --bots` and the server's tables pick from."""

from __future__ import annotations

from collections.abc import Callable

from carroca.bots.base import Bot
from carroca.bots.greedy import GreedyBot
from carroca.bots.random_bot import RandomBot

BotFactory = Callable[[int | None], Bot]

#: Level name -> factory taking a seed.
BOT_LEVELS: dict[str, BotFactory] = {
    "random": RandomBot,
    "greedy": GreedyBot,
}


class UnknownBot(ValueError):
    """A bot level that does not exist; the message is for players (pt-BR)."""

    code = "unknown_bot"

    def __init__(self, name: str) -> None:
        super().__init__(f"Bot desconhecido: {name!r}. Os bots são: {', '.join(BOT_LEVELS)}.")
        self.name = name
        self.message = str(self)


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A new bot of the named level, seeded."""
    try:
        factory = BOT_LEVELS[name]
    except (KeyError, TypeError):
        raise UnknownBot(str(name)) from None
    return factory(seed)


__all__ = ["BOT_LEVELS", "Bot", "BotFactory", "GreedyBot", "RandomBot", "UnknownBot", "make_bot"]
