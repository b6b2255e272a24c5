"""The ASGI application, wired: resources owned by the lifespan (store, hub, tables, sessions,
lobby, cluster, reviews, tournaments, each made once and handed to whoever uses it), the
middlewares, the error answers, and the routes of each area (`carroca.server.routes`: game,
accounts, matches, tournaments)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import secrets
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from socket import gethostname
from typing import TYPE_CHECKING

from fastapi import FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from prometheus_client.core import Metric
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket

from carroca.pages import page
from carroca.rules import RulesError
from carroca.server import metrics
from carroca.server.edge.crosssite import CrossSiteGuard
from carroca.server.edge.guard import BodyLimit
from carroca.server.edge.headers import install_security_headers
from carroca.server.edge.ratelimits import RateLimits
from carroca.server.errors import (
    AddressNotFound,
    BadRequest,
    HttpRefused,
    MethodNotAllowed,
    RulesRefusal,
    ServerError,
    ServerFault,
    StorageUnavailable,
)
from carroca.server.moderation.fairplay import FairPlay
from carroca.server.moderation.service import Moderation
from carroca.server.players.accounts import Accounts
from carroca.server.players.api_tokens import ApiTokens
from carroca.server.players.closing import ClosedAccounts
from carroca.server.players.friends import Friends
from carroca.server.realtime.announcements import Announcements
from carroca.server.realtime.fanout import Fanout, LocalFanout
from carroca.server.realtime.presence import Presence
from carroca.server.realtime.protocol import explain
from carroca.server.realtime.sessions import Sessions
from carroca.server.routes import accounts as routes_accounts
from carroca.server.routes import bot_api as routes_bot_api
from carroca.server.routes import friends as routes_friends
from carroca.server.routes import game as routes_game
from carroca.server.routes import matches as routes_matches
from carroca.server.routes import metrics as routes_metrics
from carroca.server.routes import moderation as routes_moderation
from carroca.server.routes import rights as routes_rights
from carroca.server.routes import tournaments as routes_tournaments
from carroca.server.routes.connection import Services
from carroca.server.routes.deps import (
    NOT_FOUND_PAGE,
    allowed_origins,
    error_response,
    hub_of,
    refusal_response,
    wants_page,
)
from carroca.server.settings import Settings
from carroca.server.storage.db import migrate
from carroca.server.storage.store import Store
from carroca.server.tables.botbudget import BotAdmission
from carroca.server.tables.challenges import CALL as CHALLENGE_CALL
from carroca.server.tables.challenges import WAITING_CALL as CHALLENGES_WAITING_CALL
from carroca.server.tables.challenges import Challenges
from carroca.server.tables.chat import Blocks, Mutes
from carroca.server.tables.ending import EndedTables
from carroca.server.tables.hub import Hub
from carroca.server.tables.lobby import Lobby
from carroca.server.tables.ranked import RankedQueue
from carroca.server.tables.registry import Tables
from carroca.server.tables.reviews import Reviews
from carroca.server.tables.upkeep import Upkeep
from carroca.server.tournaments.schedule import Scheduler
from carroca.server.tournaments.schedule import load as load_schedule
from carroca.server.tournaments.service import Tournaments

if TYPE_CHECKING:
    from carroca.botservice import BotService
    from carroca.server.cluster.bus import RedisFanout


# The garbage collector, tuned for thousands of connections: every full collection walks every
# live object (about 190 per connected player, 1.5 s at 10k players), so the young generation is
# made larger, the objects that survive it are frozen (out of the collector's sight) every few
# seconds, and the frozen heap is collected in full only now and then, to reclaim the reference
# cycles of closed connections.
GC_THRESHOLDS = (50_000, 50, 1000)
GC_FREEZE_SECONDS = 10.0
GC_FULL_SECONDS = 15 * 60.0
#: A clean stop waits this long at most for moderation's writes of the ends heard last.
SETTLE_SECONDS = 5.0


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


def cluster_node(settings: Settings) -> tuple[str, RedisFanout, BotService | None]:
    """This process as one node of a cluster (`--redis`): its id, the Redis fan-out, and the
    bot service when bots think in `carroca bots` workers on any machine (else local ones)."""
    from carroca.server.cluster.bus import RedisFanout

    name = (settings.node or f"{gethostname()}:{settings.port}").replace("|", "-")[:30]
    node = f"{name}/{secrets.token_hex(4)}"  # one per process start: its lease's id
    bus = RedisFanout(settings.redis, node, settings.call_timeout)
    bots = None
    if settings.bot_streams:
        from carroca.botservice import BotService
        from carroca.botservice.streams import RedisBots

        bots = BotService(RedisBots(settings.redis, node), settings.bot_floor_ms)
    return node, bus, bots


class App(FastAPI):
    """The FastAPI application, whose tables' WebSocket goes straight to its handler.

    A socket lives for hours: sent through the middleware and the router as a request is, the
    frame of every layer it passed stays alive as long as it does (about 10 KiB a socket), and
    every frame it sends goes through each layer's wrapper of `send` (its frames go to the
    server's protocol directly where they can: `Connection`). The socket's own checks
    (origin, session, sockets per session) are in its handler; the connection guard, the proxy
    headers and the frame limits are below the application, in the server's protocol."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and scope["path"] == routes_game.SOCKET_PATH:
            scope["app"] = self
            protocol = getattr(send, "__self__", None)  # uvicorn's: `send` is its method
            writer = protocol if hasattr(protocol, "write_frames") else None
            await routes_game.socket(WebSocket(scope, receive, send), writer)
            return
        await super().__call__(scope, receive, send)


def create_app(settings: Settings | None = None) -> App:
    settings = settings or Settings.from_env()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(migrate, settings.database)
        store = Store(settings.database, commit_gap=settings.commit_gap_ms / 1000)
        cluster = None
        fanout: Fanout = LocalFanout()
        if settings.redis:
            from carroca.server.cluster.node import Cluster

            node, bus, bots = cluster_node(settings)
            hub = Hub(settings, bots, node)
            cluster = Cluster(hub, store, bus)
            fanout = bus
        else:
            hub = Hub(settings)
        app.state.cluster = cluster
        limits = RateLimits(
            login_ip=settings.limit_login_ip, login_account=settings.limit_login_account,
            guest_ip=settings.limit_guest_ip, register_ip=settings.limit_register_ip,
            tables_player=settings.limit_tables_player, reviews_ip=settings.limit_reviews_ip,
            password_ip=settings.limit_password_ip,
            tournaments_player=settings.limit_tournaments_player,
            tournament_entries_player=settings.limit_tournament_entries_player,
            friend_requests_player=settings.limit_friend_requests_player,
            challenges_player=settings.limit_challenges_player,
            profiles_ip=settings.limit_profiles_ip,
            signups=settings.limit_signups,
            storage=settings.redis,
        )
        admission = BotAdmission(
            settings, lambda: hub.bots.workers,
            *((cluster.charges_elsewhere, cluster.charges_changed) if cluster else ()))
        mutes, sessions = Mutes(), Sessions()
        tables = Tables(hub, store, fanout, admission, mutes, cluster, limits)
        ranked = RankedQueue(store, shared=cluster is not None)
        lobby = Lobby(hub, tables, ranked)
        accounts = Accounts(store, settings, limits)
        app.state.friends = Friends(store, settings, limits)
        tournaments = Tournaments(hub, tables, store, fanout, limits)
        upkeep = Upkeep(settings, store, tables, sessions, ranked,
                        recently_seen=accounts.recent_players, held=tournaments.players_held)
        app.state.store, app.state.hub, app.state.limits = store, hub, limits
        app.state.tables, app.state.sessions, app.state.lobby = tables, sessions, lobby
        announcements = Announcements(store, sessions, settings.operator_poll_seconds)
        presence = Presence(fanout, hub.node or "local", store.friend_names,
                            settings.presence_seconds)
        app.state.friends.listeners.append(presence.links)
        app.state.challenges = Challenges(lobby, store, fanout, settings, limits)
        app.state.presence = presence
        reviews = Reviews(store, hub.bots)
        fairplay = FairPlay(store, settings, reviews)
        moderation = Moderation(store, settings, fanout, accounts, fairplay)
        tables.listen(moderation)  # the abandonment ladder hears every table's end
        app.state.moderation = moderation
        blocks = Blocks(store.blocked_by)
        app.state.friends.block_listeners.append(blocks.load)
        presence.links_heard.append(blocks.load)  # one taken on another node
        app.state.sockets = Services(hub, tables, fanout, mutes, sessions, announcements,
                                      tournaments, presence, moderation, blocks)
        app.state.accounts, app.state.tournaments = accounts, tournaments
        app.state.api_tokens = ApiTokens(store, settings)
        app.state.upkeep = upkeep
        app.state.reviews, app.state.fairplay = reviews, fairplay
        metrics.configure(settings.metrics)

        def figures() -> Iterator[Metric]:
            return routes_metrics.node_figures(app.state)

        metrics.watch(figures)
        ending = EndedTables(store, tables, settings.operator_poll_seconds)
        await ending.check()  # where the log stands, before any table is run here
        if cluster is not None:
            from carroca.server.tournaments.owners import EventOwners

            owners = EventOwners(tournaments, cluster)
            challenges: Challenges = app.state.challenges
            challenges.join_cluster(cluster.node, cluster.call_node, cluster.bus.nodes_heard)
            cluster.on_dead.append(presence.node_gone)
            cluster.on_back.append(presence.resync)
            cluster.bus.handlers[CHALLENGE_CALL] = challenges.on_call
            cluster.bus.handlers[CHALLENGES_WAITING_CALL] = challenges.on_waiting_call
            await hub.bots.start()
            await cluster.start(settings.node or f"{gethostname()}:{settings.port}", tables,
                                lobby)
            await owners.start()
            hub.log.info("node %s joined the cluster", hub.node)
        else:
            events = await tournaments.load()  # first: a match ending as it resumes is heard
            resumed = await tables.resume()
            await tournaments.resume()
            hub.log.info("resumed %d unfinished matches, %d tournaments", resumed, events)
        await presence.start()
        loop = asyncio.get_running_loop()
        closing = ClosedAccounts(store, accounts, sessions, settings.operator_poll_seconds)
        tasks = [loop.create_task(_collector_upkeep()), loop.create_task(upkeep.run()),
                 loop.create_task(closing.run()), loop.create_task(announcements.run()),
                 loop.create_task(ending.run())]
        await moderation.refresh()
        tasks.append(loop.create_task(moderation.run()))
        tasks.append(loop.create_task(fairplay.run()))
        app.state.scheduler = None
        if settings.tournament_schedule:  # the operator's recurring events
            scheduler = Scheduler(tournaments, load_schedule(settings.tournament_schedule,
                                                             settings),
                                  (lambda: cluster.leased) if cluster is not None
                                  else (lambda: True))
            app.state.scheduler = scheduler
            tasks.append(loop.create_task(scheduler.run(settings.tournament_schedule_seconds)))
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
            metrics.unwatch(figures)
            presence.stop()
            await app.state.reviews.close()  # before the workers its jobs are on
            tables.stop()
            with contextlib.suppress(TimeoutError):  # the ends heard, counted (an outage: not)
                await asyncio.wait_for(moderation.settle(), SETTLE_SECONDS)
            await hub.stop()
            if cluster is not None:
                await cluster.stop()
            await asyncio.to_thread(store.close)

    app = App(title="carroca", version="1", lifespan=lifespan, docs_url=None,
                  openapi_url="/api/openapi.json", redoc_url=None)
    app.state.settings = settings

    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes,
                       timeout=settings.body_timeout)
    app.add_middleware(CrossSiteGuard, allowed=allowed_origins(settings))
    # last middleware: the outermost, so that every answer above carries the headers
    install_security_headers(app, docs_url="/api/docs")  # CSP etc.; Swagger UI with no CDN

    @app.exception_handler(ServerError)
    async def _lobbyerror_response(request: Request, exc: ServerError) -> JSONResponse:
        return refusal_response(exc)

    @app.exception_handler(StarletteHTTPException)
    async def _httperror_response(request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code == 404 and wants_page(request):
            return HTMLResponse(page(NOT_FOUND_PAGE), status_code=404)
        refused = AddressNotFound() if exc.status_code == 404 else \
            MethodNotAllowed() if exc.status_code == 405 else HttpRefused(exc.status_code)
        resp = error_response(refused.status, refused.code, refused.message)
        for k, v in (exc.headers or {}).items():
            resp.headers[k] = v
        return resp

    @app.exception_handler(SQLAlchemyError)
    async def _storageerror_response(request: Request, exc: SQLAlchemyError) -> JSONResponse:
        # Logged once per outage by the store, not once per request.
        return refusal_response(StorageUnavailable())

    @app.exception_handler(Exception)
    async def _servererror_response(request: Request, exc: Exception) -> JSONResponse:
        hub_of(request).log.error("error answering %s %s", request.method, request.url.path,
                                  exc_info=exc)
        return refusal_response(ServerFault())

    @app.exception_handler(RulesError)
    async def _ruleserror_response(request: Request, exc: RulesError) -> JSONResponse:
        return refusal_response(RulesRefusal(exc.code, exc.message))

    @app.exception_handler(RequestValidationError)
    async def _bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {"loc": (), "type": ""}
        where = ".".join(str(p) for p in first["loc"][1:]) or "corpo"
        return refusal_response(BadRequest(where, explain(first)))

    app.state.metrics_access = metrics.Access(settings)
    for router in (routes_game.router, routes_accounts.router, routes_matches.router,
                   routes_tournaments.router, routes_metrics.router, routes_rights.router,
                   routes_friends.router, routes_moderation.router, routes_bot_api.router):
        app.include_router(router)
    routes_game.mount_client(app)
    return app
