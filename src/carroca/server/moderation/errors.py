"""The refusals of reports and moderation, in pt-BR (as `carroca.server.errors` names others)."""

from __future__ import annotations

from carroca.server.errors import ServerError


class NotModeration(ServerError, status=404, code="not_found",
                    text="Endereço não encontrado."):
    """Moderation routes for someone who is not a moderator: as if they did not exist."""


class ModeratorTarget(ServerError, status=403, code="moderator_target",
                      text="Só a administração pode agir sobre um moderador."):
    pass


class BadReport(ServerError, status=422, code="bad_report"):
    """A report that cannot be made (its message says why)."""


class TooManyReports(ServerError, status=429, code="too_many_reports",
                     text="Você já fez muitas denúncias na última hora; tente mais tarde."):
    pass


class NoSuchReport(ServerError, status=404, code="no_report", text="Denúncia não encontrada."):
    pass


class NoSuchSanction(ServerError, status=404, code="no_sanction",
                     text="Sanção não encontrada ou já encerrada."):
    pass


class BadAction(ServerError, status=422, code="bad_action"):
    """A moderator's action that cannot be done (its message says why)."""


class ChatMuted(ServerError, status=403, code="chat_muted"):
    """A chat line from a player whose chat is suspended: until when, as they read it."""

    def __init__(self, until: str) -> None:
        super().__init__(message=f"Seu chat está suspenso até {until}.")


class Sanctioned(ServerError, status=403, code="sanctioned"):
    """A player refused by a sanction in force (its message says which and until when)."""
