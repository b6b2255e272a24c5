"""Named errors of the tournament core.

`TournamentError` and its kinds are what a director refuses (a full event, a second
registration, a result for a match that is not being played): each carries a `code` for
machines and a message in pt-BR, because a server shows it to the player as it is.
`EventRecordError` is `verify`'s verdict on an event record, in English like `RecordError`.
"""

from __future__ import annotations

from carroca.rules.errors import PlayerError


class TournamentError(PlayerError):
    """Base class: something the event's rules or its state do not allow."""

    code = "tournament_error"


class InvalidEvent(TournamentError):
    """An event that cannot be held as described (format, rounds, capacity, ruleset)."""

    code = "invalid_event"


class RegistrationClosed(TournamentError):
    code = "registration_closed"

    def __init__(self) -> None:
        super().__init__("As inscrições estão encerradas: o torneio já começou.")


class EventFull(TournamentError):
    code = "event_full"

    def __init__(self, capacity: int) -> None:
        super().__init__(f"O torneio está lotado: são {capacity} vagas.")


class AlreadyRegistered(TournamentError):
    code = "already_registered"

    def __init__(self, name: str) -> None:
        super().__init__(f"{name} já está inscrito neste torneio.")


class UnknownEntrant(TournamentError):
    code = "unknown_entrant"

    def __init__(self, entrant: str) -> None:
        super().__init__(f"Não há inscrito {entrant!r} neste torneio.")


class WrongState(TournamentError):
    """A step out of order: pairing before the start, a round before the last one ended."""

    code = "wrong_state"


class UnknownGame(TournamentError):
    code = "unknown_game"

    def __init__(self, key: object) -> None:
        super().__init__(f"Não há partida {key} à espera de resultado neste torneio.")


class BadResult(TournamentError):
    """A match record that is not the record of the match the event asked for."""

    code = "bad_result"


class EventRecordError(ValueError):
    """An event record that is not shaped as docs/tournaments.md says, or disagrees with its
    replay. `where` locates the first disagreement (`round 2, table 3, game 1`, or empty)."""

    def __init__(self, message: str, where: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.where = where

    def __str__(self) -> str:
        return f"{self.where}: {self.message}" if self.where else self.message
