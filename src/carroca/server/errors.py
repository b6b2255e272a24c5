"""Errors the server answers with: an HTTP status, a stable code and a message in pt-BR."""

from __future__ import annotations


class LobbyError(ValueError):
    """A request that cannot be met; `status` is the HTTP status, message in pt-BR."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
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
    def from_description(data: dict[str, object]) -> LobbyError:
        message = str(data.get("message", ""))
        code = str(data.get("code", "server_error"))
        if "retry_after" in data:
            return RateLimited(int(str(data["retry_after"])), message, code=code)
        return LobbyError(int(str(data.get("status", 500))), code, message)


class RateLimited(LobbyError):
    """429 with the seconds until the next attempt may succeed (the `Retry-After` header)."""

    def __init__(self, retry_after: int, message: str, code: str = "rate_limited") -> None:
        super().__init__(429, code, message)
        self.retry_after = retry_after


NOT_STORED = "Não deu para registrar agora (erro no servidor); tente de novo em instantes."
# A match that does not exist, or a private one asked for by who did not play it: the same answer,
# so that nobody learns a private match exists.
NO_MATCH = "Partida não encontrada."
MOVING = "A mesa está mudando de servidor; tente de novo em instantes."
