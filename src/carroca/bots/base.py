"""The bot interface: every level, the server's auto-play and `carroca simulate` use it.

A bot sees only a seat's `Observation` (never the match itself), so it cannot read hidden tiles.
"""

from __future__ import annotations

from typing import Protocol

from carroca.rules import Action, Observation


class Bot(Protocol):
    """Chooses one of `obs.legal` for the seat whose turn it is."""

    name: str

    def choose(self, obs: Observation) -> Action: ...
