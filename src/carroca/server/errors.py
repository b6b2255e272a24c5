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


# Players, routes and tournaments

BAD_NAME = "Apelido inválido: de 3 a 20 letras, números, espaço, '_', '-' ou '.'."
MIXED_NAME = ("Apelido inválido: use um alfabeto só (sem misturar letras latinas, gregas e "
              "cirílicas).")
NAME_TAKEN = "Esse apelido já está em uso; escolha outro."
# A name in another alphabet that draws like a taken one ("раса59" beside "paca59"): see names.py
NAME_LOOKALIKE = "Esse apelido se parece demais com o de outro jogador; escolha outro."
BAD_GUEST_KEY = "A chave deste convidado não vale mais neste aparelho; escolha outro apelido."


class BadName(ServerError):
    """A nickname outside the rules of `accounts.check_name`."""

    status = 422
    code = "bad_name"
    text = BAD_NAME


class MixedName(BadName):
    """Letters of two alphabets that look alike (Latin, Greek, Cyrillic) in one nickname."""

    text = MIXED_NAME


class ReservedName(BadName):
    text = "Esse apelido é reservado; escolha outro."


class NicknameTaken(ServerError):
    status = 409
    code = "name_taken"
    text = NAME_TAKEN


class NicknameLookalike(NicknameTaken):
    """Taken in the sense of `names.py`: it draws like another player's nickname."""

    text = NAME_LOOKALIKE


class BadGuestKey(ServerError):
    status = 401
    code = "bad_guest_key"
    text = BAD_GUEST_KEY


class WeakPassword(ServerError):
    status = 422
    code = "weak_password"

    def __init__(self, minimum: int) -> None:
        super().__init__(message=f"A senha precisa de pelo menos {minimum} caracteres.")


class BadLogin(ServerError):
    """A wrong password and an unknown nickname answer the same."""

    status = 401
    code = "bad_login"
    text = "Apelido ou senha incorretos."


class LoginRequired(ServerError):
    status = 401
    code = "login_required"
    text = "Entre como convidado ou com sua conta."


class PlayerNotFound(ServerError):
    status = 404
    code = "no_player"
    text = "Jogador não encontrado."


class NoSuchLeaderboard(ServerError):
    status = 404
    code = "no_family"
    text = "Ranking inexistente: use 'duplas', 'mano' ou o nome de uma regra."


class BotsBusy(ServerError):
    """Every searching bot this server runs is in use (`botbudget.BotBudget`)."""

    status = 503
    code = "bots_busy"

    def __init__(self, levels: str) -> None:
        super().__init__(message=f"Os bots {levels} estão todos ocupados agora. Jogue com bots "
                         "Médio ou tente de novo daqui a pouco.")


class EventNotFound(ServerError):
    status = 404
    code = "not_found"
    text = "Torneio não encontrado."


class EventMoved(ServerError):
    """The event is run by another node now (or is changing nodes): try again."""

    status = 503
    code = "moving"
    text = "O torneio está mudando de servidor; tente de novo em instantes."


class NoDuplas(ServerError):
    status = 422
    code = "no_duplas"
    text = "Neste torneio cada inscrição é de um jogador."


class NoDupla(ServerError):
    status = 404
    code = "no_dupla"
    text = "Convite de dupla inválido ou já usado."


class BadEventName(ServerError):
    status = 422
    code = "bad_name"
    text = "O nome do torneio tem de 3 a 60 caracteres."


class NoEventBots(ServerError):
    status = 403
    code = "no_bots"
    text = "Este servidor não completa torneios com bots."


class BotsNeedCapacity(ServerError):
    status = 422
    code = "bad_capacity"
    text = "Para completar com bots, diga quantas vagas o torneio tem."


class CapacityTooLarge(ServerError):
    status = 422
    code = "bad_capacity"

    def __init__(self, most: int) -> None:
        super().__init__(message=f"O torneio tem no máximo {most} vagas.")


class BadStart(ServerError):
    status = 422
    code = "bad_start"
    text = "O torneio começa entre agora e daqui a 30 dias."


# Tables, the lobby and the cluster

GONE = "Partida não encontrada ou já encerrada."


class MatchGone(ServerError):
    """A live match asked for that is not live (none, over, or a private one's end)."""

    status = 404
    code = "not_found"
    text = GONE


class NotOwner(ServerError):
    """Another node asked this one about a match (or event) it does not run: ask again."""

    status = 503
    code = "not_owner"
    text = MOVING


class OwnerUnknown(ServerError):
    """The database could not say which node runs a match."""

    status = 503
    code = "not_stored"
    text = MOVING


class UnknownBot(ServerError):
    status = 422
    code = "unknown_bot"

    def __init__(self, level: str, levels: str) -> None:
        super().__init__(message=f"Nível de bot desconhecido: {level!r}. Os níveis são: {levels}.")


class BadTurnSeconds(ServerError):
    status = 422
    code = "bad_turn_seconds"

    def __init__(self, least: float, most: float) -> None:
        super().__init__(message=f"O tempo por jogada vai de {least:g} a {most:g} segundos.")


class BadSeats(ServerError):
    """The seats asked for a new table do not fit its ruleset (the message says how)."""

    status = 422
    code = "bad_seats"

    @classmethod
    def count(cls, ruleset: str, n: int, got: int) -> BadSeats:
        return cls(message=f"{ruleset} tem {n} lugares; vieram {got}.")

    @classmethod
    def bots_only(cls) -> BadSeats:
        return cls(message="Nesta rota todos os lugares são bots: use 'bot:nível'.")

    @classmethod
    def one_is_mine(cls, ruleset: str, n: int) -> BadSeats:
        return cls(message=f"{ruleset} tem {n} lugares, e um deles é o seu ('me').")

    @classmethod
    def invalid(cls, seat: object) -> BadSeats:
        return cls(message=f"Lugar inválido: {seat!r}.")


class TooManyMatches(ServerError):
    status = 503
    code = "too_many_matches"
    text = "Muitas partidas só de bots em andamento; tente daqui a pouco."


class ChosenTableFull(ServerError):
    status = 409
    code = "table_full"
    text = "Essa mesa já começou ou está cheia; escolha outra."


class TableFull(ServerError):
    status = 409
    code = "table_full"
    text = "A mesa já está completa; você pode assistir."


class RematchStarted(ServerError):
    status = 409
    code = "table_full"
    text = "A revanche já começou sem você; você pode assistir."


class NoTable(ServerError):
    status = 404
    code = "no_table"
    text = "Convite inválido ou mesa encerrada."


class AccountRequired(ServerError):
    status = 403
    code = "account_required"
    text = ("As partidas ranqueadas são para quem tem conta: crie a sua "
            "(você mantém o apelido e o histórico de convidado).")


class NotSeatedForRematch(ServerError):
    status = 403
    code = "not_seated"
    text = "Só quem jogou nesta mesa pode pedir a revanche."


class NoRematch(ServerError):
    status = 409
    code = "no_rematch"
    text = "Revanche só nas mesas casuais e de amigos; para uma ranqueada, entre na fila de novo."


class NotFinished(ServerError):
    status = 409
    code = "not_finished"
    text = "A partida ainda não terminou."


class RecordNotYet(ServerError):
    status = 409
    code = "not_finished"
    text = "A partida ainda não terminou: o registro sai no fim."


class AnalysisNotYet(ServerError):
    status = 409
    code = "not_finished"
    text = "A análise sai depois do fim da partida."


class AnalysisFailed(ServerError):
    status = 500
    code = "analysis_failed"
    text = "Não deu para analisar esta partida."


class AnalysisBusy(ServerError):
    status = 503
    code = "analysis_busy"
    text = "Muitas análises em andamento; tente de novo daqui a pouco."


class RematchClosed(ServerError):
    status = 409
    code = "rematch_closed"
    text = "Esta mesa já foi desfeita: comece outra partida no salão."


class TooManyTournaments(ServerError):
    status = 429
    code = "too_many_tournaments"

    def __init__(self, upcoming: int, most: int) -> None:
        super().__init__(
            message=f"Você já tem {upcoming} torneios por começar (o limite é {most}).")


class RegistrationClosed(ServerError):
    status = 409
    code = "registration_closed"
    text = "As inscrições estão encerradas: o torneio já começou."


class AlreadyRegistered(ServerError):
    status = 409
    code = "already_registered"
    text = "Você já está inscrito neste torneio."


class NotRegistered(ServerError):
    status = 404
    code = "not_registered"
    text = "Você não está inscrito neste torneio."


class NotCreator(ServerError):
    status = 403
    code = "not_creator"
    text = "Só quem criou o torneio pode começá-lo."


class EventStarted(ServerError):
    status = 409
    code = "started"
    text = "O torneio já começou."


class NoMethod(ServerError):
    """Another node asked for a call this version does not know."""

    status = 400
    code = "no_method"

    def __init__(self, method: str) -> None:
        super().__init__(message=f"método desconhecido: {method}")


class AlwaysPublic(ServerError):
    status = 409
    code = "always_public"
    text = "Só as partidas de mesa com amigos são privadas; esta é pública."


class NotHost(ServerError):
    status = 403
    code = "not_host"
    text = "Só quem criou a mesa decide quem vê a partida."
