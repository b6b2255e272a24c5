"""Tournaments: Suíço, Mata-mata and Arena events, for 1v1 players and duplas.

A pure core, no I/O: `Tournament` (director.py) is driven step by step — create, register,
withdraw, start, pair a round (or, in an arena, those waiting), record each game's match record
or forfeit, read the standings — and everything it decides follows from the event's committed
seed and those inputs. `eventrecord` writes an event's record and verifies one by replaying it;
`offline` runs a bots-only event (`carroca tournament`). docs/tournaments.md has the details.
"""

from __future__ import annotations

from carroca.tournament.director import Game, GameKey, Round, Tie, Tournament
from carroca.tournament.errors import (
    AlreadyRegistered,
    BadResult,
    EventFull,
    EventRecordError,
    InvalidEvent,
    RegistrationClosed,
    TournamentError,
    UnknownEntrant,
    UnknownGame,
    WrongState,
)
from carroca.tournament.event import FORMAT_NAMES, FORMATS, Entrant, EventSpec
from carroca.tournament.eventrecord import is_event_record, replay, to_record, verify
from carroca.tournament.results import Meeting, Outcome
from carroca.tournament.standings import Standing

__all__ = [
    "FORMATS",
    "FORMAT_NAMES",
    "AlreadyRegistered",
    "BadResult",
    "Entrant",
    "EventFull",
    "EventRecordError",
    "EventSpec",
    "Game",
    "GameKey",
    "InvalidEvent",
    "Meeting",
    "Outcome",
    "RegistrationClosed",
    "Round",
    "Standing",
    "Tie",
    "Tournament",
    "TournamentError",
    "UnknownEntrant",
    "UnknownGame",
    "WrongState",
    "is_event_record",
    "replay",
    "to_record",
    "verify",
]
