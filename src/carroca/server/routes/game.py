"""Routes of the game itself: the rules and bots on offer, the WebSocket of the tables, and the
web client's files."""

from __future__ import annotations

from typing import TypedDict

from fastapi import APIRouter, FastAPI, WebSocket
from fastapi.responses import PlainTextResponse

from carroca.bots import BOT_LEVELS
from carroca.pages import PageFiles
from carroca.rules import RULESETS
from carroca.rules.rulesets import options_dict
from carroca.server.edge.crosssite import origin_allowed
from carroca.server.errors import BadOrigin, TooManySockets
from carroca.server.players.accounts import COOKIE, Accounts
from carroca.server.routes.connection import FrameWriter, Services, serve_socket
from carroca.server.routes.deps import WEB, allowed_origins, refusal_response, settings_of

router = APIRouter()


class RulesetInfo(TypedDict):
    """A ruleset on offer: its seats, its pt-BR description, its options' defaults."""

    name: str
    seats: int
    description: str
    options: dict[str, object]


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


@router.get("/api/health")
async def health() -> dict[str, str]:
    return {"status": "ok"}

@router.get("/api/rulesets", response_model=None)
async def rulesets() -> list[RulesetInfo]:
    return [
        {"name": name, "seats": rs.seats, "description": DESCRIPTIONS.get(name, ""),
         "options": options_dict(rs.make_options())}
        for name, rs in RULESETS.items()
    ]

@router.get("/api/bots")
async def bots() -> list[str]:
    return list(BOT_LEVELS)


SOCKET_PATH = "/ws"


async def socket(websocket: WebSocket, writer: FrameWriter | None = None) -> None:
    """The tables' WebSocket (`SOCKET_PATH`). Not a route of the router: `App` calls it before
    any middleware (see there), with the server's protocol to write frames to when it can."""
    # A page of another site (or another port of this host) must not play with the
    # visitor's cookie: browsers always send Origin, programs without one use a token.
    settings = settings_of(websocket)
    origin = websocket.headers.get("origin")
    if origin is not None and not origin_allowed(origin, websocket.headers.get("host"),
                                                 allowed_origins(settings),
                                                 websocket.url.scheme):
        await websocket.send_denial_response(refusal_response(BadOrigin()))
        return
    services: Services = websocket.app.state.sockets
    token = websocket.query_params.get("token") or websocket.cookies.get(COOKIE)
    player = await websocket.app.state.accounts.player(token)
    session = Accounts.session_key(token) if player is not None and token else None
    if session is not None and \
            services.sessions.count(session) >= settings.max_sockets_per_session:
        await websocket.send_denial_response(refusal_response(TooManySockets()))
        return
    await serve_socket(websocket, player, services, session, writer)


def mount_client(app: FastAPI) -> None:
    """The web client's files at `/` (last: every other route comes first)."""
    if (WEB / "index.html").exists():
        app.mount("/", PageFiles(WEB), name="web")  # the pages assembled (carroca.pages)
    else:
        @app.get("/")
        async def root() -> PlainTextResponse:
            return PlainTextResponse("carroca: servidor no ar. API em /api/docs.")
