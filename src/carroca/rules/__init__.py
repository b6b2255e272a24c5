"""The rules of Brazilian dominoes as a pure library: no I/O, no imports from the rest of carroca.

Start with `Match(ruleset_name)`, feed it deals (`deal`) and actions (`apply`); read a seat's view
with `observation`. See `game.py` for the order of legal actions.
"""

from __future__ import annotations

from carroca.rules import actions, tiles
from carroca.rules.actions import ACTIONS, Action
from carroca.rules.errors import (
    GameOver,
    IllegalMove,
    InvalidAction,
    InvalidDeal,
    InvalidOption,
    InvalidTile,
    NotYourTurn,
    RulesError,
    UnknownRuleset,
)
from carroca.rules.game import HandEnd, HandLog, Match, MatchResult, Phase, ScoreEvent, Step
from carroca.rules.observation import Observation, observation
from carroca.rules.rulesets import RULESETS, Options, Ruleset, get_ruleset, options_dict

__all__ = [
    "ACTIONS",
    "RULESETS",
    "Action",
    "GameOver",
    "HandEnd",
    "HandLog",
    "IllegalMove",
    "InvalidAction",
    "InvalidDeal",
    "InvalidOption",
    "InvalidTile",
    "Match",
    "MatchResult",
    "NotYourTurn",
    "Observation",
    "Options",
    "Phase",
    "RulesError",
    "Ruleset",
    "ScoreEvent",
    "Step",
    "UnknownRuleset",
    "actions",
    "get_ruleset",
    "observation",
    "options_dict",
    "tiles",
]
