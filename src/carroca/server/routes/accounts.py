"""Routes of players: guests, accounts, sessions, profiles and leaderboards."""

from __future__ import annotations

from typing import NotRequired, TypedDict

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse

from carroca.rules import RULESETS
from carroca.server import records
from carroca.server.errors import NoSuchLeaderboard, PlayerNotFound
from carroca.server.moderation.service import SanctionNotice
from carroca.server.players.accounts import COOKIE, DEVICE_COOKIE, DEVICE_DAYS, Accounts
from carroca.server.players.profiles import PlayerPage, profile_page
from carroca.server.players.ratings import FAMILIES, family_of
from carroca.server.realtime.announcements import Shown
from carroca.server.routes.deps import (
    GuestBody,
    LoginBody,
    LogoutBody,
    MaybePlayer,
    Player,
    client_ip,
    lobby_of,
    mark,
    sessions_of,
    settings_of,
    store_of,
    token_of,
)
from carroca.server.storage.rows import LeaderLine, Profile

router = APIRouter()

# The answers, typed for mypy; FastAPI sends each as it is (`response_model=None`).


class SignedIn(TypedDict):
    player: records.Player
    token: str
    guest_key: NotRequired[str]  # a new guest's: signs the same guest in again


class LoggedOut(TypedDict):
    status: str
    forgotten: NotRequired[bool]


class Me(TypedDict):
    player: records.Player
    tables: list[str]  # the live tables where the player has a seat
    queued: str | None  # the ruleset of the ranked queue they wait in
    sanctions: list[SanctionNotice]  # moderation's in force on the player, as they are told


class SessionState(TypedDict):
    player: records.Player | None
    tables: NotRequired[list[str]]
    queued: NotRequired[str | None]
    sanctions: NotRequired[list[SanctionNotice]]
    announcement: Shown | None


class Leaderboard(TypedDict):
    family: str
    players: list[LeaderLine]



def signed_in(request: Request, player: records.Player, token: str,
              device: str | None = None, guest_key: str | None = None) -> JSONResponse:
    """The answer of a sign-in: the player, the session's token (also as a cookie)."""
    settings = settings_of(request)
    answer: SignedIn = {"player": player, "token": token}
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


@router.post("/api/guest")
async def guest(body: GuestBody, request: Request) -> JSONResponse:
    player, token, key = await request.app.state.accounts.guest(
        body.name, client_ip(request), body.key
    )
    await mark(request, player["id"])
    return signed_in(request, player, token, guest_key=key)

@router.post("/api/register")
async def register(body: LoginBody, request: Request, me: MaybePlayer) -> JSONResponse:
    accounts: Accounts = request.app.state.accounts
    player, token = await accounts.register(body.name, body.password, me, client_ip(request))
    device = await accounts.new_device(player["id"])
    await mark(request, player["id"], device, request.cookies.get(DEVICE_COOKIE))
    return signed_in(request, player, token, device)

@router.post("/api/login")
async def login(body: LoginBody, request: Request) -> JSONResponse:
    player, token, device = await request.app.state.accounts.login(
        body.name, body.password, client_ip(request), request.cookies.get(DEVICE_COOKIE)
    )
    # The device cookie this browser held (another account's, maybe) ties the two together.
    await mark(request, player["id"], device, request.cookies.get(DEVICE_COOKIE))
    return signed_in(request, player, token, device)

@router.post("/api/logout")
async def logout(request: Request, body: LogoutBody | None = None) -> JSONResponse:
    """Sign out; `forget_device` for a guest also ends their key and their other sessions,
    so that nobody at this device can come back as them (docs/server.md, "Accounts")."""
    token = token_of(request)
    accounts: Accounts = request.app.state.accounts
    answer: LoggedOut = {"status": "ok"}
    if body is not None and body.forget_device:
        player = await accounts.player(token)
        answer["forgotten"] = player is not None and player["kind"] == "guest"
        if player is not None and player["kind"] == "guest":
            for session in await accounts.forget(player["id"]):
                sessions_of(request).end(session)
    if token:
        await accounts.logout(token)
        sessions_of(request).end(Accounts.session_key(token))
    resp = JSONResponse(answer)
    resp.delete_cookie(COOKIE)
    return resp

@router.get("/api/me", response_model=None)
async def me(player: Player, request: Request) -> Me:
    lobby = lobby_of(request)
    return {"player": player, "tables": await lobby.tables_of(player["id"]),
            "queued": await lobby.queued(player["id"]),
            # moderation's sanctions in force on the player, as they are told them
            "sanctions": await request.app.state.moderation.notices(player["id"])}

@router.get("/api/session", response_model=None)
async def session(player: MaybePlayer, request: Request) -> SessionState:
    """As /api/me, but 200 {"player": null} when signed out (pages ask it on every load), with
    the operator's announcement shown now (null: none)."""
    announcement: Shown | None = request.app.state.sockets.announcements.current
    if player is None:
        return {"player": None, "announcement": announcement}
    mine = await me(player, request)
    return {"player": mine["player"], "tables": mine["tables"], "queued": mine["queued"],
            "sanctions": mine["sanctions"], "announcement": announcement}

@router.get("/api/players/{name}", response_model=None)
async def profile(name: str, request: Request, viewer: MaybePlayer) -> Profile:
    found = await store_of(request).player_profile(
        name, viewer=viewer["id"] if viewer is not None else None)
    if found is None:
        raise PlayerNotFound
    return found

@router.get("/api/players/{player_id}/profile", response_model=None)
async def player_page(player_id: int, request: Request, viewer: MaybePlayer) -> PlayerPage:
    """A player's profile (`perfil.html`): public matches only; 404 for a closed account."""
    request.app.state.limits.profiles_ip.hit(client_ip(request))
    return await profile_page(store_of(request), viewer, player_id=player_id)

@router.get("/api/profile", response_model=None)
async def player_page_by_name(request: Request, viewer: MaybePlayer,
                              name: str = Query(min_length=1, max_length=40)) -> PlayerPage:
    """The same by nickname (the names a table or a replay shows)."""
    request.app.state.limits.profiles_ip.hit(client_ip(request))
    return await profile_page(store_of(request), viewer, name=name)

@router.get("/api/leaderboard/{name}", response_model=None)
async def leaderboard(name: str, request: Request) -> Leaderboard:
    """By family ("duplas", "mano"; the bots' ladder's "bot-duplas", "bot-mano") or by
    ruleset, which reads its (people's) family's ratings."""
    family = family_of(name) if name in RULESETS else name
    if family not in FAMILIES:
        raise NoSuchLeaderboard
    rows = await store_of(request).leaderboard(family)
    return {"family": family, "players": rows}
