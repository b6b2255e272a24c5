"""Errors the server answers with: an HTTP status, a stable code and a message in pt-BR.

Each refusal is named once here, as `rules/errors.py` names the engine's: a subclass of
`ServerError` with its `status`, its `code` and its message, so a route, a socket and another
node all answer it the same way and a test can name what it expects. A message that depends on
the request takes its facts as arguments; the wording stays here.
"""

from __future__ import annotations

from typing import ClassVar, NotRequired, TypedDict


class ErrorDescription(TypedDict):
    """A refusal as one node sends it to another (`ServerError.describe`), or as a bus handler
    that is not a `ServerError` describes it."""

    status: NotRequired[int]
    code: str
    message: str
    retry_after: NotRequired[int]


class ServerError(ValueError):
    """A request that cannot be met: `status` is the HTTP status, `message` is in pt-BR.

    Named errors declare `status`, `code` and `text` in their class line
    (`class NoTable(ServerError, status=404, code="no_table", text="...")`) and are raised
    without arguments (or with the facts their message needs); the three-argument form is kept
    for errors that come whole from elsewhere: another node's answer (`from_description`), the
    tournament director's refusals.
    """

    status: int = 400
    code: str = "bad_request"
    text: ClassVar[str] = ""

    def __init_subclass__(cls, *, status: int | None = None, code: str | None = None,
                          text: str | None = None) -> None:
        """What a named error's class line declares; what it leaves out it inherits."""
        super().__init_subclass__()
        if status is not None:
            cls.status = status
        if code is not None:
            cls.code = code
        if text is not None:
            cls.text = text

    def __init__(self, status: int | None = None, code: str | None = None,
                 message: str | None = None) -> None:
        message = self.text if message is None else message
        super().__init__(message)
        if status is not None:
            self.status = status
        if code is not None:
            self.code = code
        self.message = message

    def describe(self) -> ErrorDescription:
        """As sent from one node to another (`from_description` makes it again)."""
        out: ErrorDescription = {"status": self.status, "code": self.code,
                                 "message": self.message}
        if isinstance(self, RateLimited):
            out["retry_after"] = self.retry_after
        return out

    @staticmethod
    def from_description(data: ErrorDescription) -> ServerError:
        message = str(data.get("message", ""))
        code = str(data.get("code", "server_error"))
        if "retry_after" in data:
            return RateLimited(int(str(data["retry_after"])), message, code=code)
        return ServerError(int(str(data.get("status", 500))), code, message)


class RateLimited(ServerError, status=429, code="rate_limited"):
    """429 with the seconds until the next attempt may succeed (the `Retry-After` header)."""

    def __init__(self, retry_after: int, message: str, code: str = "rate_limited") -> None:
        super().__init__(429, code, message)
        self.retry_after = retry_after


NOT_STORED = "Não deu para registrar agora (erro no servidor); tente de novo em instantes."
# A match that does not exist, or a private one asked for by who did not play it: the same answer,
# so that nobody learns a private match exists.
NO_MATCH = "Partida não encontrada."
MOVING = "A mesa está mudando de servidor; tente de novo em instantes."


class NotStored(ServerError, status=503, code="not_stored", text=NOT_STORED):
    """The database refused or failed a write: nothing changed, the player may try again."""


class MatchNotFound(ServerError, status=404, code="not_found", text=NO_MATCH):
    pass


class TableMoving(ServerError, status=503, code="moving", text=MOVING):
    """The table's match is changing nodes (a takeover is under way)."""


# Players, routes and tournaments

BAD_NAME = "Apelido inválido: de 3 a 20 letras, números, espaço, '_', '-' ou '.'."
MIXED_NAME = ("Apelido inválido: use um alfabeto só (sem misturar letras latinas, gregas e "
              "cirílicas).")
NAME_TAKEN = "Esse apelido já está em uso; escolha outro."
# A name in another alphabet that draws like a taken one ("раса59" beside "paca59"): see names.py
NAME_LOOKALIKE = "Esse apelido se parece demais com o de outro jogador; escolha outro."
BAD_GUEST_KEY = "A chave deste convidado não vale mais neste aparelho; escolha outro apelido."


class BadName(ServerError, status=422, code="bad_name", text=BAD_NAME):
    """A nickname outside the rules of `accounts.check_name`."""


class MixedName(BadName, text=MIXED_NAME):
    """Letters of two alphabets that look alike (Latin, Greek, Cyrillic) in one nickname."""


class ReservedName(BadName, text="Esse apelido é reservado; escolha outro."):
    pass


class OffensiveName(BadName, code="offensive_name",
                    text="Esse apelido tem uma palavra ofensiva; escolha outro."):
    """A new nickname holding a word of the chat filter's list (`players.words`)."""


class NicknameTaken(ServerError, status=409, code="name_taken", text=NAME_TAKEN):
    pass


class NicknameLookalike(NicknameTaken, text=NAME_LOOKALIKE):
    """Taken in the sense of `names.py`: it draws like another player's nickname."""


class BadGuestKey(ServerError, status=401, code="bad_guest_key", text=BAD_GUEST_KEY):
    pass


class WeakPassword(ServerError, status=422, code="weak_password"):
    def __init__(self, minimum: int) -> None:
        super().__init__(message=f"A senha precisa de pelo menos {minimum} caracteres.")


class BadLogin(ServerError, status=401, code="bad_login", text="Apelido ou senha incorretos."):
    """A wrong password and an unknown nickname answer the same."""


class AccountClosed(ServerError, status=403, code="account_closed",
                    text="Esta conta foi encerrada pela administração do carroca."):
    """Told only to whoever proved to be its owner (the right password, the guest's key)."""


class LoginRequired(ServerError, status=401, code="login_required",
                    text="Entre como convidado ou com sua conta."):
    pass


class PlayerNotFound(ServerError, status=404, code="no_player", text="Jogador não encontrado."):
    pass


class NoSuchLeaderboard(ServerError, status=404, code="no_family",
                        text="Ranking inexistente: use 'duplas', 'mano', o nome de uma regra ou, "
                             "para os bots, 'bot-duplas' e 'bot-mano'."):
    pass


class BotsBusy(ServerError, status=503, code="bots_busy"):
    """Every searching bot this server runs is in use (`botbudget.BotBudget`)."""

    def __init__(self, levels: str) -> None:
        super().__init__(message=f"Os bots {levels} estão todos ocupados agora. Jogue com bots "
                         "Médio ou tente de novo daqui a pouco.")


class EventNotFound(ServerError, status=404, code="not_found", text="Torneio não encontrado."):
    pass


class EventMoved(ServerError, status=503, code="moving",
                 text="O torneio está mudando de servidor; tente de novo em instantes."):
    """The event is run by another node now (or is changing nodes): try again."""


class NoDuplas(ServerError, status=422, code="no_duplas",
               text="Neste torneio cada inscrição é de um jogador."):
    pass


class NoDupla(ServerError, status=404, code="no_dupla",
              text="Convite de dupla inválido ou já usado."):
    pass


class BadEventName(ServerError, status=422, code="bad_name",
                   text="O nome do torneio tem de 3 a 60 caracteres."):
    pass


class NoEventBots(ServerError, status=403, code="no_bots",
                  text="Este servidor não completa torneios com bots."):
    pass


class BotsNeedCapacity(ServerError, status=422, code="bad_capacity",
                       text="Para completar com bots, diga quantas vagas o torneio tem."):
    pass


class CapacityTooLarge(ServerError, status=422, code="bad_capacity"):
    def __init__(self, most: int) -> None:
        super().__init__(message=f"O torneio tem no máximo {most} vagas.")


class BadStart(ServerError, status=422, code="bad_start",
               text="O torneio começa entre agora e daqui a 30 dias."):
    pass


# Tables, the lobby and the cluster

GONE = "Partida não encontrada ou já encerrada."


class MatchGone(ServerError, status=404, code="not_found", text=GONE):
    """A live match asked for that is not live (none, over, or a private one's end)."""


class NotOwner(ServerError, status=503, code="not_owner", text=MOVING):
    """Another node asked this one about a match (or event) it does not run: ask again."""


class OwnerUnknown(ServerError, status=503, code="not_stored", text=MOVING):
    """The database could not say which node runs a match."""


class UnknownBot(ServerError, status=422, code="unknown_bot"):
    def __init__(self, level: str, levels: str) -> None:
        super().__init__(message=f"Nível de bot desconhecido: {level!r}. Os níveis são: {levels}.")


class BadTurnSeconds(ServerError, status=422, code="bad_turn_seconds"):
    def __init__(self, least: float, most: float) -> None:
        super().__init__(message=f"O tempo por jogada vai de {least:g} a {most:g} segundos.")


class BadCasualTurn(ServerError, status=422, code="bad_turn_seconds"):
    def __init__(self, choices: tuple[float, ...]) -> None:
        said = ", ".join(f"{c:g}" for c in choices[:-1]) + f" ou {choices[-1]:g}"
        super().__init__(message=f"O tempo por jogada da mesa casual é de {said} segundos.")


class FixedEventTurn(ServerError, status=422, code="bad_turn_seconds"):
    """A tournament's turn is the one every ranked table has (the server's `turn_seconds`)."""

    def __init__(self, seconds: float) -> None:
        super().__init__(message=f"Nos torneios o tempo por jogada é sempre de {seconds:g} "
                                 "segundos, igual para todos.")


class BadSeats(ServerError, status=422, code="bad_seats"):
    """The seats asked for a new table do not fit its ruleset (the message says how)."""

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


class TooManyMatches(ServerError, status=503, code="too_many_matches",
                     text="Muitas partidas só de bots em andamento; tente daqui a pouco."):
    pass


class ChosenTableFull(ServerError, status=409, code="table_full",
                      text="Essa mesa já começou ou está cheia; escolha outra."):
    pass


class TableFull(ServerError, status=409, code="table_full",
                text="A mesa já está completa; você pode assistir."):
    pass


class RematchStarted(ServerError, status=409, code="table_full",
                     text="A revanche já começou sem você; você pode assistir."):
    pass


class NoTable(ServerError, status=404, code="no_table", text="Convite inválido ou mesa encerrada."):
    pass


class AccountRequired(ServerError, status=403, code="account_required",
                      text=("As partidas ranqueadas são para quem tem conta: crie a sua "
            "(você mantém o apelido e o histórico de convidado).")):
    pass


class NotSeatedForRematch(ServerError, status=403, code="not_seated",
                          text="Só quem jogou nesta mesa pode pedir a revanche."):
    pass


class NoRematch(ServerError, status=409, code="no_rematch",
                text=("Revanche só nas mesas casuais e de amigos; para uma ranqueada, entre "
                      "na fila de novo.")):
    pass


class NotFinished(ServerError, status=409, code="not_finished",
                  text="A partida ainda não terminou."):
    pass


class RecordNotYet(ServerError, status=409, code="not_finished",
                   text="A partida ainda não terminou: o registro sai no fim."):
    pass


class AnalysisNotYet(ServerError, status=409, code="not_finished",
                     text="A análise sai depois do fim da partida."):
    pass


class AnalysisFailed(ServerError, status=500, code="analysis_failed",
                     text="Não deu para analisar esta partida."):
    pass


class AnalysisBusy(ServerError, status=503, code="analysis_busy",
                   text="Muitas análises em andamento; tente de novo daqui a pouco."):
    pass


class RematchClosed(ServerError, status=409, code="rematch_closed",
                    text="Esta mesa já foi desfeita: comece outra partida no salão."):
    pass


class TooManyTournaments(ServerError, status=429, code="too_many_tournaments"):
    def __init__(self, upcoming: int, most: int) -> None:
        super().__init__(
            message=f"Você já tem {upcoming} torneios por começar (o limite é {most}).")


class RegistrationClosed(ServerError, status=409, code="registration_closed",
                         text="As inscrições estão encerradas: o torneio já começou."):
    pass


class AlreadyRegistered(ServerError, status=409, code="already_registered",
                        text="Você já está inscrito neste torneio."):
    pass


class NotRegistered(ServerError, status=404, code="not_registered",
                    text="Você não está inscrito neste torneio."):
    pass


class NotCreator(ServerError, status=403, code="not_creator",
                 text="Só quem criou o torneio pode começá-lo."):
    pass


class EventStarted(ServerError, status=409, code="started", text="O torneio já começou."):
    pass


class NoMethod(ServerError, status=400, code="no_method"):
    """Another node asked for a call this version does not know."""

    def __init__(self, method: str) -> None:
        super().__init__(message=f"método desconhecido: {method}")


class AlwaysPublic(ServerError, status=409, code="always_public",
                   text="Só as partidas de mesa com amigos são privadas; esta é pública."):
    pass


class NotHost(ServerError, status=403, code="not_host",
              text="Só quem criou a mesa decide quem vê a partida."):
    pass


class EventBotsOverBudget(ServerError, status=409, code="bots_over_budget"):
    """An event's searching bots would need more tables at once than the bot budget has for
    its creator, their address or the server (`botbudget.BotAdmission.reserve`)."""

    def __init__(self, levels: str, tables: int, free: int, starting: bool = False) -> None:
        room = "não cabe nenhuma" if free == 0 else "só cabe 1" if free == 1 else \
            f"só cabem {free}"
        when = "para começar agora" if starting else "ao mesmo tempo"
        fix = ("Tente de novo daqui a pouco, ou quando suas outras mesas com bots acabarem."
               if starting else
               f"Diminua as vagas para {2 * free + 1} ou menos, ou escolha bots Médio."
               if free else "Escolha bots Médio, ou termine suas mesas com bots antes.")
        super().__init__(message=f"Os bots {levels} deste torneio ocupariam até {tables} "
                         f"mesas {when}, e agora {room} "
                         f"(o limite vale para você, para a sua rede e para o servidor). {fix}")


class BadCursor(ServerError, status=422, code="bad_cursor",
                text="Esta página da lista não existe mais; volte ao começo da lista."):
    pass


class NewcomersFull(ServerError, status=409, code="newcomers_full"):
    """A public event's places for newcomers (guests without finished matches) are taken."""

    def __init__(self, most: int) -> None:
        super().__init__(message=f"As {most} vagas deste torneio para convidados sem partidas "
                         "terminadas já foram ocupadas. Jogue uma partida até o fim ou crie "
                         "uma conta para se inscrever.")


class NewcomerEventsFull(ServerError, status=429, code="newcomers_full"):
    """Too many upcoming public events made by newcomers, server-wide."""

    def __init__(self, most: int) -> None:
        super().__init__(message=f"Já há {most} torneios públicos marcados por convidados sem "
                         "partidas terminadas. Jogue uma partida até o fim ou crie uma conta "
                         "para criar o seu, ou crie um torneio privado.")


class WrongPassword(ServerError, status=403, code="wrong_password",
                    text="A senha atual não confere."):
    """Changing the password or deleting the account asks for the current one."""


class NoSuchSession(ServerError, status=404, code="no_session",
                    text="Essa sessão não existe ou já foi encerrada."):
    pass


class SeatedElsewhere(ServerError, status=409, code="seated",
                      text="Termine ou saia das suas partidas em andamento antes de excluir a "
                           "conta."):
    pass


class DeleteNotConfirmed(ServerError, status=422, code="not_confirmed",
                         text="Para excluir a conta, confirme digitando EXCLUIR."):
    pass


# ---------------------------------------------------------------------- friends


class FriendTarget(ServerError, status=422, code="bad_request",
                   text="Diga o apelido do jogador ou o número dele, um dos dois."):
    pass


class FriendSelf(ServerError, status=422, code="friend_self",
                 text="Você não pode adicionar a si mesmo aos amigos."):
    pass


class BlockSelf(ServerError, status=422, code="block_self",
                text="Você não pode bloquear a si mesmo."):
    pass


class FriendBlocking(ServerError, status=409, code="blocking",
                     text="Você bloqueou este jogador: desbloqueie antes de adicioná-lo."):
    pass


class TooManyFriends(ServerError, status=409, code="too_many_friends"):
    def __init__(self, limit: int) -> None:
        super().__init__(message=f"Você já tem {limit} amigos, o máximo: remova algum antes "
                         "de adicionar outro.")


class TheirFriendsFull(ServerError, status=409, code="their_friends_full",
                       text="Este jogador já tem o máximo de amigos."):
    pass


class NoFriendRequest(ServerError, status=404, code="no_request",
                      text="Pedido de amizade não encontrado."):
    pass


class NotAFriend(ServerError, status=422, code="not_a_friend",
                 text="Só dá para desafiar seus amigos."):
    pass


class NoChallenge(ServerError, status=404, code="no_challenge",
                  text="Desafio não encontrado: já terminou ou expirou."):
    pass


class ChallengeUnreachable(ServerError, status=503, code="challenge_unreachable",
                           text="O servidor que guarda este desafio não respondeu; tente de "
                                "novo em instantes."):
    """The node holding the challenge did not answer the call that passed the answer on."""


# Limits on tables with bots, waiting tables and password checks (429, with `Retry-After`)


class TooManyBotMatches(RateLimited):
    """A player's bots-only matches in play are at their cap (`max_bot_matches_per_player`)."""

    def __init__(self, mine: int, most: int) -> None:
        super().__init__(30, f"Você já tem {mine} partidas só de bots em andamento (o limite é "
                         f"{most}); espere uma terminar.", code="too_many_bot_matches")


class TooManyBotTables(RateLimited):
    """A player's tables with searching bots are at the bot budget's cap for one player."""

    def __init__(self, mine: int, most: int, levels: str) -> None:
        super().__init__(30, f"Você já tem {mine} mesas com bots {levels} em andamento (o "
                         f"limite é {most}); termine uma antes.", code="too_many_bot_matches")


class TooManyBotTablesHere(RateLimited):
    """An address's tables with searching bots are at the bot budget's cap for one address."""

    def __init__(self, here: int, most: int, levels: str) -> None:
        super().__init__(60, f"Já há {here} mesas com bots {levels} abertas a partir da sua "
                         f"rede (o limite é {most}); termine uma antes.",
                         code="too_many_bot_matches")


class TooManyWaitingTables(RateLimited):
    """A host's friends' tables waiting for players are at their cap."""

    def __init__(self, waiting: int, most: int) -> None:
        super().__init__(60, f"Você já tem {waiting} mesas esperando jogadores (o limite é "
                         f"{most}); comece ou espere uma delas.", code="too_many_tables")


BUSY = "Muitas tentativas de entrar ao mesmo tempo; tente de novo em instantes."


class PasswordChecksBusy(RateLimited):
    """Every password check (argon2) is taken, and the queue is full (`hash_queue`)."""

    def __init__(self) -> None:
        super().__init__(1, BUSY, code="busy")


# A move or a chat line refused by its table (an `error` frame; the status if a route answers it)


class StaleMove(ServerError, status=409, code="stale_move",
                text="Jogada repetida: este número de jogada já foi usado."):
    """A move id below the seat's last stored one (a resent move of the same id is an ack)."""


class NotStarted(ServerError, status=409, code="not_started",
                 text="A partida ainda não começou."):
    pass


class MatchOver(ServerError, status=409, code="game_over", text="A partida já terminou."):
    pass


class HandPause(ServerError, status=409, code="hand_pause",
                text="A próxima mão ainda não começou: espere um instante."):
    """Between two hands (the hand's summary shows): nobody moves."""


class StaleState(ServerError, status=409, code="stale_state",
                 text="A mesa mudou antes da sua jogada chegar; veja a mesa atual."):
    """The move named a version of the table that is not the current one."""


class MoveNotStored(NotStored,
                    text="A jogada não foi registrada por um erro no servidor; jogue de novo."):
    pass


class NoChat(ServerError, status=403, code="no_chat",
             text="Não há chat nas partidas ranqueadas."):
    pass


class ChatTooFast(ServerError, status=429, code="chat_rate",
                  text="Calma! Muitas mensagens seguidas; espere um pouco."):
    """More chat lines than `chat_per_10s`."""


class EmptyChat(ServerError, status=422, code="bad_message", text="Mensagem vazia."):
    pass


# A player's socket


class NotSeatedToMove(ServerError, status=403, code="not_seated",
                      text="Você não tem lugar nesta mesa: só pode assistir."):
    pass


class NotSeatedToChat(ServerError, status=403, code="not_seated",
                      text="Só quem joga na mesa pode conversar."):
    pass


class NotSeatedToHold(ServerError, status=403, code="not_seated",
                      text="Você não tem lugar nesta mesa."):
    """A `hold`, `ready` or `more_time` from a socket not seated at that table."""


class NoMoreTime(ServerError, status=409, code="no_more_time",
                 text="Esta mesa não dá mais tempo: nas ranqueadas e nos torneios o tempo por "
                      "jogada é igual para todos."):
    """`more_time` at a table whose turn is the same for everyone (ranked, tournaments)."""


class NotJoined(ServerError, status=409, code="not_joined",
                text="Entre numa mesa antes de silenciar."):
    pass


class BadOrigin(ServerError, status=403, code="bad_origin",
                text="Conexão recusada: esta página não é do carroca."):
    """A socket opened by a page of another site (its `Origin`), refused before the upgrade."""


class TooManySockets(RateLimited):
    """A sign-in's open sockets are at `max_sockets_per_session`, refused before the upgrade."""

    def __init__(self) -> None:
        super().__init__(10, "Conexões demais desta sessão; feche outras abas do carroca.",
                         code="too_many_sockets")


class ProtocolError(ServerError, status=400, code="bad_message"):
    """A client's message the server cannot read (`realtime.protocol.parse`)."""


class NotJson(ProtocolError, code="bad_json", text="Mensagem inválida: não é JSON."):
    pass


class NotAnObject(ProtocolError, text="Mensagem inválida: esperava um objeto JSON."):
    pass


class UnknownType(ProtocolError, code="unknown_type"):
    def __init__(self, kind: object) -> None:
        super().__init__(message=f"Tipo de mensagem desconhecido: {str(kind)[:40]!r}.")


class BadMessage(ProtocolError):
    """A message of a known type whose fields are wrong: where, and what was expected."""

    def __init__(self, where: str, why: str) -> None:
        super().__init__(message=f"Mensagem inválida em {where}: {why}.")


# Requests refused before any route (the edge) or by the app's own handlers


class TooManyConnections(RateLimited):
    """An address's open connections are at `max_connections_per_ip`."""

    def __init__(self) -> None:
        super().__init__(10, "Conexões demais deste endereço; feche outras abas e tente de novo.",
                         code="too_many_connections")


class HeadersTimeout(ServerError, status=408, code="request_timeout",
                     text="O pedido demorou demais para chegar."):
    pass


class HeadersTooLarge(ServerError, status=431, code="headers_too_large",
                      text="Cabeçalhos do pedido grandes demais."):
    pass


class BodyTooLarge(ServerError, status=413, code="too_large"):
    def __init__(self, max_bytes: int) -> None:
        super().__init__(message=f"Pedido grande demais: o limite é de {max_bytes // 1024} KiB.")


class BodyTimeout(ServerError, status=408, code="request_timeout",
                  text="O corpo do pedido parou de chegar."):
    pass


class CrossSite(ServerError, status=403, code="cross_site",
                text="Pedido recusado: ele veio de outra página, não do carroça."):
    """A state-changing request from another page (`edge.crosssite`)."""


class AddressNotFound(ServerError, status=404, code="not_found",
                      text="Endereço não encontrado."):
    pass


class MethodNotAllowed(ServerError, status=405, code="method_not_allowed",
                       text="Método não permitido neste endereço."):
    pass


class HttpRefused(ServerError, code="http_error", text="Pedido recusado."):
    """Any other refusal of the HTTP layer, with its own status."""

    def __init__(self, status: int) -> None:
        super().__init__(status)


class BadRequest(ServerError, status=422, code="bad_request"):
    """A request's body or query that does not fit its route: where, and what was expected."""

    def __init__(self, where: str, why: str) -> None:
        super().__init__(message=f"Pedido inválido em {where}: {why}.")


class StorageUnavailable(ServerError, status=503, code="storage_unavailable", text=NOT_STORED):
    """The database failed under a route (logged once per outage by the store)."""


class ServerFault(ServerError, status=500, code="server_error",
                  text="Erro no servidor; tente de novo."):
    """A fault of the server's own (logged with its traceback)."""


class NodeFault(ServerError, status=500, code="server_error", text="Erro no servidor."):
    """A call another node could not answer for a fault of its own (logged there)."""


# The Bot API: tokens, bot accounts and the calls of a program


class TokenRequired(ServerError, status=401, code="token_required",
                    text="Esta rota da API de bots pede um token (Authorization: Bearer ...)."):
    pass


class BadToken(ServerError, status=401, code="bad_token",
               text="Token inválido ou revogado."):
    pass


class MissingScope(ServerError, status=403, code="missing_scope"):
    """A live token without the scope the call needs."""

    def __init__(self, scope: str) -> None:
        super().__init__(message=f"Este token não tem a permissão '{scope}'.")


class BadScopes(ServerError, status=422, code="bad_scopes"):
    def __init__(self, known: list[str]) -> None:
        super().__init__(message="Permissões desconhecidas; as que existem: "
                                 + ", ".join(known) + ".")


class TooManyTokens(ServerError, status=409, code="too_many_tokens"):
    def __init__(self, most: int) -> None:
        super().__init__(message=f"Você já tem {most} tokens ativos; revogue um antes.")


class NoToken(ServerError, status=404, code="no_token", text="Token não encontrado."):
    pass


class NotABot(ServerError, status=403, code="not_a_bot",
              text="Só uma conta de bot joga pela API de bots; transforme a conta em bot "
                   "antes (no seu perfil)."):
    pass


class TokensNeedAccount(ServerError, status=403, code="tokens_need_account",
                        text="Só uma conta com senha tem tokens de API: crie a sua no perfil."):
    pass


class BotNeedsAccount(ServerError, status=403, code="bot_needs_account",
                      text="Só uma conta com senha pode virar conta de bot."):
    pass


class AlreadyPlayed(ServerError, status=409, code="already_played",
                    text="Esta conta já jogou: só uma conta que nunca jogou pode virar bot."):
    pass


class BotsNotRanked(ServerError, status=403, code="bot_not_ranked",
                    text="Contas de bot não entram na fila ranqueada das pessoas."):
    pass


class BotsNotInvited(ServerError, status=403, code="bots_not_invited",
                     text="Este torneio não aceita contas de bot."):
    pass


class Resigned(ServerError, status=409, code="resigned",
               text="Você desistiu desta partida: suas vezes passam sozinhas até o fim."):
    pass


class WaitingSomewhere(ServerError, status=409, code="waiting_somewhere",
                       text="Saia da fila ranqueada e dos torneios em que se inscreveu antes de "
                            "virar conta de bot."):
    pass


class TooManyChallengesWaiting(ServerError, status=429, code="challenges_waiting"):
    def __init__(self, most: int) -> None:
        super().__init__(message=f"Esta conta de bot já tem {most} desafios esperando "
                                 "resposta; tente daqui a pouco.")


class NotSeatedHere(ServerError, status=404, code="not_seated",
                    text="Você não tem lugar nesta mesa."):
    pass


class TooManyApiCalls(RateLimited):
    """A token's calls beyond its budget (`api_calls_per_second`, `api_call_burst`)."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(retry_after, "Chamadas demais com este token; espere um pouco.",
                         code="api_calls")


class TooManyStreams(ServerError, status=429, code="too_many_streams"):
    """Open streams of one token beyond its limit."""

    def __init__(self, most: int) -> None:
        super().__init__(message=f"No máximo {most} fluxos abertos por token; feche um antes.")


# Refusals that come whole from the pure libraries, with the status the server gives them


class RulesRefusal(ServerError, status=422):
    """A refusal of the rules (`carroca.rules.RulesError`: its code and pt-BR message, named
    in `rules/errors.py`) as a route answers it."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(code=code, message=message)


#: The status of each refusal of the tournament director (`carroca.tournament.errors`: its code
#: and pt-BR message); any other is 409.
DIRECTOR_STATUS = {"invalid_event": 422, "unknown_entrant": 404, "unknown_game": 404}


class DirectorRefusal(ServerError, status=409):
    """A refusal of the tournament director as the server answers it."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(DIRECTOR_STATUS.get(code, 409), code, message)


def status_of(code: str) -> int:
    """The HTTP status of a refusal known only by its code (an error frame carries its code and
    message: the Bot API answers a move's refusal as a route would). A code named nowhere here
    is a rules refusal's (`RulesRefusal`: 422)."""
    if not _STATUS:
        todo: list[type[ServerError]] = [ServerError]
        while todo:
            cls = todo.pop()
            todo += cls.__subclasses__()
            if "code" in cls.__dict__:
                _STATUS.setdefault(cls.code, cls.status)
    return _STATUS.get(code, RulesRefusal.status)


_STATUS: dict[str, int] = {}
