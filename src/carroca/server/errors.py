"""Errors the server answers with: an HTTP status, a stable code and a message in pt-BR."""

from __future__ import annotations


class LobbyError(ValueError):
    """A request that cannot be met; `status` is the HTTP status, message in pt-BR."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


class RateLimited(LobbyError):
    """429 with the seconds until the next attempt may succeed (the `Retry-After` header)."""

    def __init__(self, retry_after: int, message: str, code: str = "rate_limited") -> None:
        super().__init__(429, code, message)
        self.retry_after = retry_after


NOT_STORED = "Não deu para registrar agora (erro no servidor); tente de novo em instantes."
