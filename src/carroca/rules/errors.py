"""Named errors of the rules engine.

Each carries a `code` for machines (the server's protocol) and a message in pt-BR that a player
can read as it is. A refused action never changes the state.
"""

from __future__ import annotations


class PlayerError(ValueError):
    """A refusal a player reads as it is: a `code` for machines, a `message` in pt-BR. The base
    of the rules' errors and of the tournament director's."""

    code = "player_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class RulesError(PlayerError):
    """Base class: something the rules do not allow, or input they cannot read."""

    code = "rules_error"


class InvalidTile(RulesError):
    code = "invalid_tile"

    def __init__(self, text: object) -> None:
        super().__init__(f"Pedra inválida: {text!r}. Escreva como 3-5, com números de 0 a 6.")


class InvalidAction(RulesError):
    """An action that cannot be read at all (unknown type, bad end name, missing tile)."""

    code = "invalid_action"


class IllegalMove(RulesError):
    """A well-formed action that the rules refuse in this position."""

    code = "illegal_move"


class NotYourTurn(IllegalMove):
    code = "not_your_turn"

    def __init__(self, seat: int, turn: int | None) -> None:
        if turn is None:
            text = "Não é a vez de ninguém agora."
        else:
            text = f"Não é a sua vez: agora é a vez do jogador {turn + 1}."
        super().__init__(text)
        self.seat = seat
        self.turn = turn


class GameOver(IllegalMove):
    """An action after the hand or the match ended."""

    code = "game_over"


class InvalidDeal(RulesError):
    code = "invalid_deal"


class UnknownRuleset(RulesError):
    code = "unknown_ruleset"

    def __init__(self, name: str, known: list[str]) -> None:
        super().__init__(
            f"Modalidade desconhecida: {name!r}. As modalidades são: {', '.join(known)}."
        )
        self.name = name


class InvalidOption(RulesError):
    code = "invalid_option"
