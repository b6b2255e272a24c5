"""What the routes share: request bodies, who is asking, and the request's services."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, cast

from fastapi import Depends, Request, WebSocket
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from carroca.server import metrics, records
from carroca.server.edge.guard import address_key
from carroca.server.errors import LoginRequired, MatchNotFound, RateLimited, ServerError
from carroca.server.players.accounts import COOKIE, Accounts
from carroca.server.realtime.protocol import SEED_CHARS
from carroca.server.realtime.sessions import Sessions
from carroca.server.settings import Settings
from carroca.server.storage.links import address_mark, device_mark
from carroca.server.storage.rows import MatchRow
from carroca.server.storage.store import Store
from carroca.server.tables.hub import Hub
from carroca.server.tables.lobby import Lobby
from carroca.server.tables.registry import Tables

WEB = Path(__file__).resolve().parents[2] / "web"  # carroca/web
NOT_FOUND_PAGE = "nao-encontrada.html"  # not "404.html": StaticFiles would send it to anyone


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
    options: dict[str, object] | None = Field(default=None, max_length=MAX_OPTIONS)
    seats: list[str] = Field(max_length=4)
    turn_seconds: float | None = None


class CasualBody(_Body):
    ruleset: str = Field(max_length=30)
    bot_level: str = Field(default="medium", max_length=20)
    client_seed: str | None = Field(default=None, pattern=SEED_CHARS)
    match: str | None = Field(default=None, max_length=16)  # a table from the lobby's list
    turn_seconds: float | None = None  # one of lobby.CASUAL_TURNS; none: the server's


class FriendsBody(_Body):
    ruleset: str = Field(max_length=30)
    options: dict[str, object] | None = Field(default=None, max_length=MAX_OPTIONS)
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


def error_response(status: int, code: str, message: str) -> JSONResponse:
    metrics.error(code)
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


def refusal_response(exc: ServerError) -> JSONResponse:
    """The answer of a named refusal: its status, code and message, and when to try again (a
    rate limit's own wait; 5 s for any other 503)."""
    resp = error_response(exc.status, exc.code, exc.message)
    if isinstance(exc, RateLimited):
        resp.headers["Retry-After"] = str(exc.retry_after)
    elif exc.status == 503:
        resp.headers["Retry-After"] = "5"
    return resp


def client_ip(request: Request | WebSocket) -> str:
    """The client's address as limits count it (behind trusted proxies, as they report it;
    an IPv6 address by its /64)."""
    return address_key(request.client.host) if request.client is not None else "?"


async def mark(request: Request, player_id: int, *devices: str | None) -> None:
    """Note the address and devices the player came from (`storage.links`: the ranked queue
    keeps accounts of one person apart)."""
    settings = settings_of(request)
    address = address_mark(client_ip(request)) if settings.ranked_address_marks else None
    await request.app.state.store.add_marks(
        player_id, [address, *(device_mark(d) for d in devices if d and len(d) <= 100)])


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
    return cast(Lobby, request.app.state.lobby)


def hub_of(request: Request) -> Hub:
    return cast(Hub, request.app.state.hub)


def tables_of(request: Request) -> Tables:
    return cast(Tables, request.app.state.tables)


def sessions_of(request: Request) -> Sessions:
    return cast(Sessions, request.app.state.sessions)


def store_of(request: Request) -> Store:
    return cast(Store, request.app.state.store)



def token_of(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip()
    return request.cookies.get(COOKIE)


async def current(request: Request) -> records.Player | None:
    accounts: Accounts = request.app.state.accounts
    return await accounts.player(token_of(request))


async def required(
    player: Annotated[records.Player | None, Depends(current)]
) -> records.Player:
    if player is None:
        raise LoginRequired
    return player


Player = Annotated[records.Player, Depends(required)]
MaybePlayer = Annotated[records.Player | None, Depends(current)]


LIVE = ("waiting", "playing")


def seated(row: MatchRow, player: records.Player | None) -> bool:
    return player is not None and \
        any(records.seated_player(s) == player["id"] for s in row["seats"])


async def readable_match(request: Request, match_id: str,
                         player: records.Player | None) -> MatchRow:
    """A match's row, for whoever may see it. A private match (a friends' one its host did not
    make public) is, once over, for the players seated in it only: its record, replay, review
    and page. Anyone else gets the same 404 as for a match that does not exist, so its existence
    is not confirmed either. While it is played it is as visible as its table, which anyone
    given its id may watch."""
    row: MatchRow | None = await store_of(request).get_match(match_id)
    if row is None or (row["private"] and row["status"] not in LIVE
                       and not seated(row, player)):
        raise MatchNotFound()
    return row


def settings_of(request: Request | WebSocket) -> Settings:
    return cast(Settings, request.app.state.settings)
