"""Bot levels by name: what `carroca simulate --bots` and the server's tables pick from."""

from __future__ import annotations

from collections.abc import Callable

from carroca.bots.base import Bot
from carroca.bots.expert import ExpertBot, FlatExpertBot
from carroca.bots.greedy import GreedyBot
from carroca.bots.medium import MediumBot
from carroca.bots.random_bot import RandomBot

#: A factory takes a seed and a searching level's budget: thinking time in milliseconds and
#: sampled worlds per decision (None, None: the level's default, wall time; a count of worlds
#: alone: moves that follow from the seed). Levels that do not search ignore the budget.
BotFactory = Callable[[int | None, int | None, int | None], Bot]

BOT_LEVELS: dict[str, BotFactory] = {
    "random": lambda seed, think_ms, worlds: RandomBot(seed),
    "greedy": lambda seed, think_ms, worlds: GreedyBot(seed),
    "medium": lambda seed, think_ms, worlds: MediumBot(seed),
    "expert-1": FlatExpertBot,
    "expert": ExpertBot,
}


#: The levels as players know them (pt-BR), weakest first: the web client's words.js has the same.
BOT_NAMES: dict[str, str] = {
    "random": "Iniciante",
    "greedy": "Fácil",
    "medium": "Médio",
    "expert-1": "Difícil",
    "expert": "Mestre",
}

#: The levels that search (they think on the server's bot threads, and cost CPU per move).
SEARCHING_LEVELS = frozenset({"expert-1", "expert"})


def level_names(levels: list[str] | tuple[str, ...]) -> str:
    """'Iniciante (random), Fácil (greedy) e Médio (medium)': names, with the ids the API
    and the command line take."""
    named = [f"{BOT_NAMES.get(level, level)} ({level})" for level in levels]
    return named[0] if len(named) < 2 else f"{', '.join(named[:-1])} e {named[-1]}"


class UnknownBot(ValueError):
    """A bot level that does not exist; the message is for players (pt-BR)."""

    code = "unknown_bot"

    def __init__(self, name: str) -> None:
        super().__init__(f"Nível de bot desconhecido: {name!r}. Os níveis são: "
                         f"{level_names(tuple(BOT_LEVELS))}.")
        self.name = name
        self.message = str(self)


def make_bot(
    name: str, seed: int | None = None, think_ms: int | None = None, worlds: int | None = None
) -> Bot:
    """A new bot of the named level, seeded; `think_ms` (wall time) and `worlds` (sampled worlds,
    deterministic): the per-move budget of searching levels (see `carroca.bots.expert`)."""
    try:
        factory = BOT_LEVELS[name]
    except (KeyError, TypeError):
        raise UnknownBot(str(name)) from None
    return factory(seed, think_ms, worlds)


__all__ = [
    "BOT_LEVELS",
    "BOT_NAMES",
    "SEARCHING_LEVELS",
    "Bot",
    "BotFactory",
    "ExpertBot",
    "FlatExpertBot",
    "GreedyBot",
    "MediumBot",
    "RandomBot",
    "UnknownBot",
    "level_names",
    "make_bot",
]
