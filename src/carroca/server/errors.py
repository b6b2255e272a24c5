"""Errors the server answers with: an HTTP status, a stable code and a message in pt-BR.

Each refusal is named once here, as `rules/errors.py` names the engine's: a subclass of
`ServerError` with its `status`, its `code` and its message, so a route, a socket and another
node all answer it the same way and a test can name what it expects. A message that depends on
the request takes its facts as arguments; the wording stays here.
"""

from __future__ import annotations

from typing import ClassVar


class ServerError(ValueError):
    """A request that cannot be met: `status` is the HTTP status, `message` is in pt-BR.

    Named errors set `status`, `code` and `text` on the class and are raised without arguments
    (or with the facts their message needs); the three-argument form is kept for errors that
    come whole from elsewhere: another node's answer (`from_description`), the tournament
    director's refusals.
    """

    status: int = 400
    code: str = "bad_request"
    text: ClassVar[str] = ""

    def __init__(self, status: int | None = None, code: str | None = None,
                 message: str | None = None) -> None:
        message = self.text if message is None else message
        super().__init__(message)
        if status is not None:
            self.status = status
        if code is not None:
            self.code = code
        self.message = message

    def describe(self) -> dict[str, object]:
        """As sent from one node to another (`from_description` makes it again)."""
        out: dict[str, object] = {"status": self.status, "code": self.code,
                                  "message": self.message}
        if isinstance(self, RateLimited):
            out["retry_after"] = self.retry_after
        return out

    @staticmethod
    def from_description(data: dict[str, object]) -> ServerError:
        message = str(data.get("message", ""))
        code = str(data.get("code", "server_error"))
        if "retry_after" in data:
            return RateLimited(int(str(data["retry_after"])), message, code=code)
        return ServerError(int(str(data.get("status", 500))), code, message)


class RateLimited(ServerError):
    """429 with the seconds until the next attempt may succeed (the `Retry-After` header)."""

    status = 429
    code = "rate_limited"

    def __init__(self, retry_after: int, message: str, code: str = "rate_limited") -> None:
        super().__init__(429, code, message)
        self.retry_after = retry_after


NOT_STORED = "Não deu para registrar agora (erro no servidor); tente de novo em instantes."
# A match that does not exist, or a private one asked for by who did not play it: the same answer,
# so that nobody learns a private match exists.
NO_MATCH = "Partida não encontrada."
MOVING = "A mesa está mudando de servidor; tente de novo em instantes."


class NotStored(ServerError):
    """The database refused or failed a write: nothing changed, the player may try again."""

    status = 503
    code = "not_stored"
    text = NOT_STORED


class MatchNotFound(ServerError):
    status = 404
    code = "not_found"
    text = NO_MATCH


class TableMoving(ServerError):
    """The table's match is changing nodes (a takeover is under way)."""

    status = 503
    code = "moving"
    text = MOVING
