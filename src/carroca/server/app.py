"""The ASGI application: HTTP API, WebSocket endpoint and the web client's files."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import secrets
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from socket import gethostname
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import Depends, FastAPI, Request, Response, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException

from carroca.bots import BOT_LEVELS
from carroca.rules import RULESETS, RulesError
from carroca.rules.rulesets import options_dict
from carroca.server.accounts import COOKIE, DEVICE_COOKIE, DEVICE_DAYS, Accounts
from carroca.server.connection import serve_socket
from carroca.server.crosssite import CrossSiteGuard, origin_allowed
from carroca.server.db import migrate
from carroca.server.errors import NO_MATCH, NOT_STORED, LobbyError, RateLimited
from carroca.server.guard import BodyLimit, address_key
from carroca.server.headers import install_security_headers
from carroca.server.hub import Hub
from carroca.server.lobby import Lobby
from carroca.server.protocol import SEED_CHARS, explain
from carroca.server.ratelimits import RateLimits
from carroca.server.ratings import family_of
from carroca.server.reviews import Reviews, ReviewsBusy
from carroca.server.settings import Settings
from carroca.server.store import Store

if TYPE_CHECKING:
    from carroca.server.cluster import Cluster

WEB = Path(__file__).resolve().parent.parent / "web"
NOT_FOUND_PAGE = "nao-encontrada.html"  # not "404.html": StaticFiles would send it to anyone

DESCRIPTIONS = {
    "duplas-pontos": "2 contra 2 em cruz: pontos nas pontas (múltiplos de 5), passe, galo, "
                     "garagem; até 200.",
    "duplas-torneio": "2 contra 2 de torneio: quem bate leva os pontos das mãos; trancado e "
                      "capicú; até 100.",
    "mano-a-mano": "1 contra 1 com compra: quem bate leva os pontos da mão do outro; até 50.",
    "classico": "1 contra 1 com compra, em mãos vencidas: melhor de 3.",
    "bloqueio": "1 contra 1 sem compra: a batida vale de 1 a 4 conforme a pedra; até 6.",
    "pontos": "1 contra 1 com compra: pontos nas pontas, múltiplos de 5; até 100.",
}


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class GuestBody(_Body):
    name: str = Field(max_length=40)
    key: str | None = Field(default=None, max_length=100)  # the guest key of an earlier sign-up


class LoginBody(_Body):
    name: str = Field(max_length=40)
    password: str = Field(max_length=200)


MAX_OPTIONS = 16  # no ruleset has more than a few options


class BotsMatchBody(_Body):
    ruleset: str = Field(max_length=30)
    options: dict[str, Any] | None = Field(default=None, max_length=MAX_OPTIONS)
    seats: list[str] = Field(max_length=4)
    turn_seconds: float | None = None


class CasualBody(_Body):
    ruleset: str = Field(max_length=30)
    bot_level: str = Field(default="medium", max_length=20)
    client_seed: str | None = Field(default=None, pattern=SEED_CHARS)
    match: str | None = Field(default=None, max_length=16)  # a table from the lobby's list


class FriendsBody(_Body):
    ruleset: str = Field(max_length=30)
    options: dict[str, Any] | None = Field(default=None, max_length=MAX_OPTIONS)
    seats: list[str] = Field(max_length=4)
    turn_seconds: float | None = None
    client_seed: str | None = Field(default=None, pattern=SEED_CHARS)


class InviteBody(_Body):
    invite: str = Field(max_length=20)
    client_seed: str | None = Field(default=None, pattern=SEED_CHARS)


class RankedBody(_Body):
    ruleset: str = Field(max_length=30)
    client_seed: str | None = Field(default=None, pattern=SEED_CHARS)


class RematchBody(_Body):
    client_seed: str | None = Field(default=None, pattern=SEED_CHARS)


class PublicBody(_Body):
    public: bool  # false: back to its players only


class LogoutBody(_Body):
    forget_device: bool = False  # a guest: their key stops signing in (see Accounts.forget)


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def client_ip(request: Request | WebSocket) -> str:
    """The client's address as limits count it (behind trusted proxies, as they report it;
    an IPv6 address by its /64)."""
    return address_key(request.client.host) if request.client is not None else "?"


def allowed_origins(settings: Settings) -> frozenset[str]:
    """`ALLOWED_ORIGINS`: other origins whose pages may use this server (comma-separated)."""
    return frozenset(o.strip().lower().rstrip("/")
                     for o in settings.allowed_origins.split(",") if o.strip())


def wants_page(request: Request) -> bool:
    """A browser asking for a page (Accept: text/html) outside the API: it gets the pt-BR
    "page not found" page instead of JSON."""
    return request.method in ("GET", "HEAD") and \
        not request.url.path.startswith("/api/") and \
        "text/html" in request.headers.get("accept", "") and (WEB / NOT_FOUND_PAGE).exists()


def lobby_of(request: Request) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


def hub_of(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub

def token_of(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip()
    return request.cookies.get(COOKIE)

async def current(request: Request) -> dict[str, Any] | None:
    accounts: Accounts = request.app.state.accounts
    return await accounts.player(token_of(request))

async def required(
    player: Annotated[dict[str, Any] | None, Depends(current)]
) -> dict[str, Any]:
    if player is None:
        raise LobbyError(401, "login_required", "Entre como convidado ou com sua conta.")
    return player

Player = Annotated[dict[str, Any], Depends(required)]
MaybePlayer = Annotated[dict[str, Any] | None, Depends(current)]


LIVE = ("waiting", "playing")


def seated(row: dict[str, Any], player: dict[str, Any] | None) -> bool:
    return player is not None and \
        any(s is not None and s.get("player") == player["id"] for s in row["seats"])


async def readable_match(request: Request, match_id: str,
                         player: dict[str, Any] | None) -> dict[str, Any]:
    """A match's row, for whoever may see it. A private match (a friends' one its host did not
    make public) is, once over, for the players seated in it only: its record, replay, review
    and page. Anyone else gets the same 404 as for a match that does not exist, so its existence
    is not confirmed either. While it is played it is as visible as its table, which anyone
    given its id may watch."""
    row: dict[str, Any] | None = await request.app.state.store.get_match(match_id)
    if row is None or (row["private"] and row["status"] not in LIVE
                       and not seated(row, player)):
        raise LobbyError(404, "not_found", NO_MATCH)
    return row



# The garbage collector, tuned for thousands of connections: every full collection walks every
# live object (about 190 per connected player, 1.5 s at 10k players), so the young generation is
# made larger, the objects that survive it are frozen (out of the collector's sight) every few
# seconds, and the frozen heap is collected in full only now and then, to reclaim the reference
# cycles of closed connections.
GC_THRESHOLDS = (50_000, 50, 1000)
GC_FREEZE_SECONDS = 10.0
GC_FULL_SECONDS = 15 * 60.0


async def _collector_upkeep() -> None:
    gc.set_threshold(*GC_THRESHOLDS)
    gc.freeze()
    since_full = 0.0
    while True:
        await asyncio.sleep(GC_FREEZE_SECONDS)
        since_full += GC_FREEZE_SECONDS
        if since_full >= GC_FULL_SECONDS:
            since_full = 0.0
            gc.unfreeze()
            gc.collect()
        gc.freeze()


def join_cluster(hub: Hub, lobby: Lobby, settings: Settings) -> Cluster:
    """Make this hub one node of a cluster (`--redis`): the Redis fan-out and its lease."""
    from carroca.server.bus import RedisFanout
    from carroca.server.cluster import Cluster

    name = (settings.node or f"{gethostname()}:{settings.port}").replace("|", "-")[:30]
    hub.node = f"{name}/{secrets.token_hex(4)}"  # one per process start: its lease's id
    bus = RedisFanout(settings.redis, hub.node, settings.call_timeout)
    hub.fanout = bus
    cluster = Cluster(hub, lobby, bus)
    hub.cluster = cluster
    if settings.bot_streams:  # bots think in `carroca bots` workers, on any machine
        from carroca.botservice import BotService
        from carroca.botservice.streams import RedisBots

        hub.bots = BotService(RedisBots(settings.redis, hub.node), settings.bot_floor_ms)
    return cluster


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(migrate, settings.database)
        store = Store(settings.database)
        hub = Hub(settings, store)
        lobby = Lobby(hub)
        cluster = join_cluster(hub, lobby, settings) if settings.redis else None
        app.state.cluster = cluster
        limits = RateLimits(
            login_ip=settings.limit_login_ip, login_account=settings.limit_login_account,
            guest_ip=settings.limit_guest_ip, register_ip=settings.limit_register_ip,
            tables_player=settings.limit_tables_player, reviews_ip=settings.limit_reviews_ip,
            password_ip=settings.limit_password_ip, storage=settings.redis,
        )
        hub.limits = limits
        app.state.store, app.state.hub, app.state.limits = store, hub, limits
        app.state.lobby = lobby
        app.state.accounts = Accounts(store, settings, limits)
        hub.recently_seen = app.state.accounts.recent_players
        app.state.reviews = Reviews(store, hub.bots)
        if cluster is not None:
            await hub.bots.start()
            await cluster.start(settings.node or f"{gethostname()}:{settings.port}")
            hub.log.info("node %s joined the cluster", hub.node)
        else:
            resumed = await hub.resume()
            hub.log.info("resumed %d unfinished matches", resumed)
        loop = asyncio.get_running_loop()
        upkeep = [loop.create_task(_collector_upkeep()), loop.create_task(hub.upkeep())]
        try:
            yield
        finally:
            for task in upkeep:
                task.cancel()
            await app.state.reviews.close()  # before the workers its jobs are on
            await hub.stop()
            if cluster is not None:
                await cluster.stop()
            await asyncio.to_thread(store.close)

    app = FastAPI(title="carroca", version="1", lifespan=lifespan, docs_url=None,
                  openapi_url="/api/openapi.json", redoc_url=None)

    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes,
                       timeout=settings.body_timeout)
    app.add_middleware(CrossSiteGuard, allowed=allowed_origins(settings))
    # last middleware: the outermost, so that every answer above carries the headers
    install_security_headers(app, docs_url="/api/docs")  # CSP etc.; Swagger UI with no CDN

    @app.exception_handler(LobbyError)
    async def _lobby_error(request: Request, exc: LobbyError) -> JSONResponse:
        resp = _error(exc.status, exc.code, exc.message)
        if isinstance(exc, RateLimited):
            resp.headers["Retry-After"] = str(exc.retry_after)
        elif exc.status == 503:
            resp.headers["Retry-After"] = "5"
        return resp

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code == 404 and wants_page(request):
            return FileResponse(WEB / NOT_FOUND_PAGE, status_code=404)
        codes = {404: ("not_found", "Endereço não encontrado."),
                 405: ("method_not_allowed", "Método não permitido neste endereço.")}
        code, message = codes.get(exc.status_code, ("http_error", "Pedido recusado."))
        resp = _error(exc.status_code, code, message)
        for k, v in (exc.headers or {}).items():
            resp.headers[k] = v
        return resp

    @app.exception_handler(SQLAlchemyError)
    async def _storage_error(request: Request, exc: SQLAlchemyError) -> JSONResponse:
        # Logged once per outage by the store, not once per request.
        resp = _error(503, "storage_unavailable", NOT_STORED)
        resp.headers["Retry-After"] = "5"
        return resp

    @app.exception_handler(Exception)
    async def _server_error(request: Request, exc: Exception) -> JSONResponse:
        hub_of(request).log.error("error answering %s %s", request.method, request.url.path,
                                  exc_info=exc)
        return _error(500, "server_error", "Erro no servidor; tente de novo.")

    @app.exception_handler(RulesError)
    async def _rules_error(request: Request, exc: RulesError) -> JSONResponse:
        return _error(422, exc.code, str(exc))

    @app.exception_handler(RequestValidationError)
    async def _bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {"loc": (), "type": ""}
        where = ".".join(str(p) for p in first["loc"][1:]) or "corpo"
        return _error(422, "bad_request", f"Pedido inválido em {where}: {explain(first)}.")

    def signed_in(player: dict[str, Any], token: str, device: str | None = None,
                  guest_key: str | None = None) -> JSONResponse:
        answer = {"player": player, "token": token}
        if guest_key is not None:  # a new guest's key: signs the same guest in again
            answer["guest_key"] = guest_key
        resp = JSONResponse(answer)
        resp.set_cookie(COOKIE, token, max_age=int(settings.session_days * 86400),
                        httponly=True, samesite="lax", secure=settings.secure_cookies)
        if device is not None:  # this browser may sign in to the account under attack
            resp.set_cookie(DEVICE_COOKIE, device, max_age=int(DEVICE_DAYS * 86400),
                            path="/api/login", httponly=True, samesite="strict",
                            secure=settings.secure_cookies)
        return resp

    # ------------------------------------------------------------------ basics

    @app.get("/api/health")
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/api/rulesets")
    async def rulesets() -> list[dict[str, Any]]:
        return [
            {"name": name, "seats": rs.seats, "description": DESCRIPTIONS.get(name, ""),
             "options": options_dict(rs.make_options())}
            for name, rs in RULESETS.items()
        ]

    @app.get("/api/bots")
    async def bots() -> list[str]:
        return list(BOT_LEVELS)

    # ------------------------------------------------------------------ players

    @app.post("/api/guest")
    async def guest(body: GuestBody, request: Request) -> JSONResponse:
        player, token, key = await request.app.state.accounts.guest(
            body.name, client_ip(request), body.key
        )
        return signed_in(player, token, guest_key=key)

    @app.post("/api/register")
    async def register(body: LoginBody, request: Request, me: MaybePlayer) -> JSONResponse:
        accounts: Accounts = request.app.state.accounts
        player, token = await accounts.register(body.name, body.password, me, client_ip(request))
        return signed_in(player, token, await accounts.new_device(player["id"]))

    @app.post("/api/login")
    async def login(body: LoginBody, request: Request) -> JSONResponse:
        player, token, device = await request.app.state.accounts.login(
            body.name, body.password, client_ip(request), request.cookies.get(DEVICE_COOKIE)
        )
        return signed_in(player, token, device)

    @app.post("/api/logout")
    async def logout(request: Request, body: LogoutBody | None = None) -> JSONResponse:
        """Sign out; `forget_device` for a guest also ends their key and their other sessions,
        so that nobody at this device can come back as them (docs/server.md, "Accounts")."""
        token = token_of(request)
        accounts: Accounts = request.app.state.accounts
        answer: dict[str, Any] = {"status": "ok"}
        if body is not None and body.forget_device:
            player = await accounts.player(token)
            answer["forgotten"] = player is not None and player["kind"] == "guest"
            if player is not None and player["kind"] == "guest":
                for session in await accounts.forget(player["id"]):
                    hub_of(request).end_session(session)
        if token:
            await accounts.logout(token)
            hub_of(request).end_session(Accounts.session_key(token))
        resp = JSONResponse(answer)
        resp.delete_cookie(COOKIE)
        return resp

    @app.get("/api/me")
    async def me(player: Player, request: Request) -> dict[str, Any]:
        lobby = lobby_of(request)
        return {"player": player, "tables": await lobby.tables_of(player["id"]),
                "queued": await lobby.queued(player["id"])}

    @app.get("/api/session")
    async def session(player: MaybePlayer, request: Request) -> dict[str, Any]:
        """As /api/me, but 200 {"player": null} when signed out (pages ask it on every load)."""
        if player is None:
            return {"player": None}
        return await me(player, request)

    @app.get("/api/players/{name}")
    async def profile(name: str, request: Request, viewer: MaybePlayer) -> dict[str, Any]:
        found = await request.app.state.store.player_profile(
            name, viewer=viewer["id"] if viewer is not None else None)
        if found is None:
            raise LobbyError(404, "no_player", "Jogador não encontrado.")
        result: dict[str, Any] = found
        return result

    @app.get("/api/leaderboard/{name}")
    async def leaderboard(name: str, request: Request) -> dict[str, Any]:
        """By family ("duplas", "mano") or by ruleset, which reads its family's ratings."""
        family = family_of(name) if name in RULESETS else name
        if family not in ("duplas", "mano"):
            raise LobbyError(404, "no_family",
                             "Ranking inexistente: use 'duplas', 'mano' ou o nome de uma regra.")
        rows = await request.app.state.store.leaderboard(family)
        return {"family": family, "players": rows}

    # ------------------------------------------------------------------ matches and tables

    @app.post("/api/matches", status_code=201)
    async def create_match(body: BotsMatchBody, player: Player, request: Request
                           ) -> dict[str, Any]:
        table = await lobby_of(request).create_bots_match(
            player, body.ruleset, body.options, body.seats, body.turn_seconds, client_ip(request)
        )
        return {"id": table.id, "commitment": table.commitment}

    @app.get("/api/matches")
    async def live(request: Request) -> dict[str, Any]:
        recent = await request.app.state.store.recent_matches(20)
        return {"live": await lobby_of(request).lobby(), "finished": recent}

    @app.get("/api/matches/{match_id}")
    async def match_info(match_id: str, request: Request, viewer: MaybePlayer
                         ) -> dict[str, Any]:
        hub = hub_of(request)
        table = hub.tables.get(match_id)
        # The live view before the stored row: a table is `finished` only once its result is
        # stored, so a row read after it never lacks the result the view says is there.
        here = table.info() if table is not None else None
        row = await readable_match(request, match_id, viewer)
        live: dict[str, Any] = {
            "status": row["status"], "players": [s["name"] if s else None for s in row["seats"]],
            "score": row["score"], "client_seed": row["client_seed"],
        }
        if here is not None:
            live = here
        elif hub.cluster is not None and row["status"] in ("waiting", "playing"):
            with contextlib.suppress(LobbyError):  # the owner node has the live score
                live = await hub.cluster.call_owner(match_id, "info", {})
        status = live["status"]
        info: dict[str, Any] = {
            "id": row["id"], "mode": row["mode"], "status": status, "ruleset": row["ruleset"],
            "options": row["options"], "players": live["players"], "score": live["score"],
            "commitment": row["commitment"], "client_seed": live["client_seed"],
            "result": row["result"], "public": not row["private"],
            "host": viewer is not None and row["host_id"] == viewer["id"],  # the asker's
        }
        if status == "finished":
            info["server_seed"] = row["server_seed"]
        return info

    @app.get("/api/matches/{match_id}/record")
    async def match_record(match_id: str, request: Request, viewer: MaybePlayer) -> Response:
        row = await readable_match(request, match_id, viewer)
        if row["status"] != "finished" or not row["record"]:
            raise LobbyError(409, "not_finished",
                             "A partida ainda não terminou: o registro sai no fim.")
        # one JSONL line, newline-terminated: downloads can be joined with `cat a b > both`
        return Response(row["record"].rstrip("\n") + "\n", media_type="application/json")

    @app.get("/api/matches/{match_id}/analysis")
    async def match_analysis(match_id: str, request: Request, viewer: MaybePlayer) -> Response:
        """The expert's review of a finished match: 202 while it is being produced."""
        row = await readable_match(request, match_id, viewer)
        if row["status"] != "finished" or not row["record"]:
            raise LobbyError(409, "not_finished", "A análise sai depois do fim da partida.")
        if row["analysis"]:
            return Response(row["analysis"], media_type="application/json")
        reviews: Reviews = request.app.state.reviews
        if match_id in reviews.failed:
            raise LobbyError(500, "analysis_failed", "Não deu para analisar esta partida.")
        if match_id in reviews.stored:  # stored since the row above was read
            return Response(reviews.stored[match_id], media_type="application/json")
        try:
            if not reviews.running(match_id):
                request.app.state.limits.reviews_ip.hit(client_ip(request))
            reviews.request(match_id, row["record"])
        except ReviewsBusy:
            raise LobbyError(503, "analysis_busy",
                             "Muitas análises em andamento; tente de novo daqui a pouco.") from None
        return JSONResponse({"status": "pending"}, status_code=202)

    @app.post("/api/matches/{match_id}/rematch")
    async def rematch(match_id: str, player: Player, request: Request,
                      body: RematchBody | None = None) -> dict[str, Any]:
        """Another match with a finished table's settings; the second player to ask (and
        anyone asking again) gets the same new table."""
        hub = hub_of(request)
        table = hub.tables.get(match_id)
        seed = body.client_seed if body else None
        if table is None and hub.cluster is not None:  # finished on another node?
            found = await request.app.state.store.owner_of(match_id)
            if found is not None and found[0] not in (None, hub.node):
                try:
                    answer: dict[str, Any] = await hub.cluster.call(
                        found[0], match_id, "rematch",
                        {"player": player, "client_seed": seed, "address": client_ip(request)})
                    return answer
                except LobbyError as exc:
                    if exc.code not in ("not_owner", "moving"):
                        raise
        if table is None:
            await readable_match(request, match_id, player)  # 404 for a stranger to it
            raise LobbyError(409, "rematch_closed",
                             "Esta mesa já foi desfeita: comece outra partida no salão.")
        return await lobby_of(request).rematch(table, player, seed, client_ip(request))

    @app.post("/api/matches/{match_id}/public")
    async def make_public(match_id: str, body: PublicBody, player: Player, request: Request
                          ) -> dict[str, Any]:
        """The host of a friends' match shows it to everyone (its record, replay and review,
        the list of finished matches), or keeps it to its players again."""
        row = await readable_match(request, match_id, player)
        if row["mode"] != "friends":
            raise LobbyError(409, "always_public",
                             "Só as partidas de mesa com amigos são privadas; esta é pública.")
        if row["host_id"] != player["id"]:
            raise LobbyError(403, "not_host", "Só quem criou a mesa decide quem vê a partida.")
        await request.app.state.store.set_private(match_id, not body.public)
        table = hub_of(request).tables.get(match_id)
        if table is not None:  # kept live here: who may join its end changes too
            table.private = not body.public
        return {"id": match_id, "public": body.public}

    @app.post("/api/casual")
    async def casual(body: CasualBody, player: Player, request: Request) -> dict[str, Any]:
        answer = await lobby_of(request).casual(
            player, body.ruleset, body.bot_level, body.client_seed, body.match, client_ip(request)
        )
        return {k: answer[k] for k in ("id", "seat", "commitment")}

    @app.post("/api/tables", status_code=201)
    async def friends(body: FriendsBody, player: Player, request: Request) -> dict[str, Any]:
        answer = await lobby_of(request).friends(
            player, body.ruleset, body.options, body.seats, body.turn_seconds, body.client_seed,
            client_ip(request),
        )
        return {k: answer.get(k) for k in ("id", "seat", "invite", "commitment")}

    @app.post("/api/tables/join")
    async def join(body: InviteBody, player: Player, request: Request) -> dict[str, Any]:
        answer = await lobby_of(request).join_invite_anywhere(player, body.invite,
                                                            body.client_seed)
        return {k: answer[k] for k in ("id", "seat", "commitment")}

    @app.post("/api/ranked")
    async def ranked(body: RankedBody, player: Player, request: Request) -> dict[str, Any]:
        answer = await lobby_of(request).queue_ranked(player, body.ruleset, body.client_seed)
        if answer is None:
            return {"status": "queued", "ruleset": body.ruleset}
        return {"status": "matched", "id": answer["id"], "commitment": answer["commitment"]}

    @app.delete("/api/ranked")
    async def leave_ranked(player: Player, request: Request) -> dict[str, Any]:
        return {"left": await lobby_of(request).leave_ranked(player["id"])}

    @app.get("/api/stats")
    async def stats(request: Request) -> dict[str, Any]:
        hub = hub_of(request)
        store: Store = request.app.state.store
        out: dict[str, Any] = {
            "tables": len(hub.tables), "commits": store.commits, "moves": store.moves_written,
            "time": time.time(), "password_checks": request.app.state.accounts.hashed,
            "storage_outages": store.outage.outages,
            "sockets": sum(len(conns) for conns in hub.sockets.values()),
            "bots": {"workers": hub.bots.workers, "queued": len(hub.bots.queue),
                     "decisions": dict(hub.bots.outcomes)}}
        cluster = request.app.state.cluster
        if cluster is not None:  # what crosses Redis (bench/load.py --nodes)
            bus = cluster.bus
            out.update(node=bus.node, redis_published=bus.published, calls=dict(bus.calls))
        return out

    # ------------------------------------------------------------------ WebSocket and client

    allowed = allowed_origins(settings)

    @app.websocket("/ws")
    async def socket(websocket: WebSocket) -> None:
        # A page of another site (or another port of this host) must not play with the
        # visitor's cookie: browsers always send Origin, programs without one use a token.
        origin = websocket.headers.get("origin")
        if origin is not None and not origin_allowed(origin, websocket.headers.get("host"),
                                                     allowed):
            await websocket.send_denial_response(_error(
                403, "bad_origin", "Conexão recusada: esta página não é do carroca."))
            return
        hub: Hub = websocket.app.state.hub
        token = websocket.query_params.get("token") or websocket.cookies.get(COOKIE)
        player = await websocket.app.state.accounts.player(token)
        session = Accounts.session_key(token) if player is not None and token else None
        if session is not None and \
                len(hub.sockets.get(session, ())) >= settings.max_sockets_per_session:
            refused = _error(429, "too_many_sockets",
                             "Conexões demais desta sessão; feche outras abas do carroca.")
            refused.headers["Retry-After"] = "10"
            await websocket.send_denial_response(refused)
            return
        await serve_socket(websocket, player, hub, session)

    if (WEB / "index.html").exists():
        app.mount("/", StaticFiles(directory=WEB, html=True), name="web")
    else:
        @app.get("/")
        async def root() -> PlainTextResponse:
            return PlainTextResponse("carroca: servidor no ar. API em /api/docs.")

    return app
