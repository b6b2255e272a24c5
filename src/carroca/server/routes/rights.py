"""Routes of a player's data rights (LGPD): their data as JSON, a new password, their sessions
seen and ended, and their account deleted. Like every state-changing route, the POST and DELETE
ones refuse other sites' pages (`edge`'s cross-site check)."""

from __future__ import annotations

from typing import Literal, TypedDict

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import Field

from carroca.server.errors import (
    AccountRequired,
    DeleteNotConfirmed,
    NoSuchSession,
    PlayerNotFound,
    SeatedElsewhere,
)
from carroca.server.players.accounts import COOKIE, DEVICE_COOKIE, Accounts
from carroca.server.records import seated_player
from carroca.server.routes.deps import (
    Player,
    _Body,
    client_ip,
    lobby_of,
    sessions_of,
    store_of,
    tables_of,
    token_of,
)
from carroca.server.storage.rights import SessionLine

router = APIRouter()
CONFIRM = "EXCLUIR"

# The answers, typed for mypy; FastAPI sends each as it is (`response_model=None`).


class PasswordChanged(TypedDict):
    status: Literal["ok"]
    sessions_ended: int  # the player's other sessions, ended


class Sessions(TypedDict):
    sessions: list[SessionLine]


class Done(TypedDict):
    status: Literal["ok"]


class PasswordBody(_Body):
    current: str = Field(max_length=200)
    new: str = Field(max_length=200)


class DeleteBody(_Body):
    confirm: str = Field(max_length=20)  # the word CONFIRM, typed by the player
    password: str | None = Field(default=None, max_length=200)  # an account's current one


def accounts_of(request: Request) -> Accounts:
    accounts: Accounts = request.app.state.accounts
    return accounts


@router.get("/api/me/data")
async def my_data(player: Player, request: Request) -> JSONResponse:
    """Everything the server keeps about the player, as a JSON download."""
    data = await request.app.state.store.export_player(player["id"], token_of(request))
    if data is None:
        raise PlayerNotFound
    return JSONResponse(data, headers={
        "Content-Disposition": 'attachment; filename="carroca-meus-dados.json"',
        "Cache-Control": "no-store"})


@router.post("/api/me/password", response_model=None)
async def new_password(body: PasswordBody, player: Player, request: Request) -> PasswordChanged:
    """A new password (the current one proven); the player's other sessions end."""
    if player["kind"] not in ("account", "bot"):
        raise AccountRequired
    ended = await accounts_of(request).change_password(
        player, body.current, body.new, client_ip(request), token_of(request))
    for digest in ended:
        sessions_of(request).end(digest)
    return {"status": "ok", "sessions_ended": len(ended)}


@router.get("/api/me/sessions", response_model=None)
async def my_sessions(player: Player, request: Request) -> Sessions:
    """The player's open sign-ins (`current`: this one), newest first."""
    found = await store_of(request).player_sessions(player["id"], token_of(request))
    return {"sessions": found}


@router.delete("/api/me/sessions/{session_id}", response_model=None)
async def end_session(session_id: str, player: Player, request: Request) -> Done:
    """End one of the player's sessions (another device's, or this one: a sign-out)."""
    ended = await request.app.state.store.end_sessions(player["id"], session_id[:40])
    if not ended:
        raise NoSuchSession
    accounts_of(request).drop_sessions(ended)
    for digest in ended:
        sessions_of(request).end(digest)
    return {"status": "ok"}


@router.post("/api/me/delete")
async def delete_me(body: DeleteBody, player: Player, request: Request) -> JSONResponse:
    """Delete the account (storage.rights): personal data removed, the matches others played
    kept under a pseudonym. Not while the player has a seat at a live table."""
    if body.confirm.strip().upper() != CONFIRM:
        raise DeleteNotConfirmed
    accounts = accounts_of(request)
    await accounts.check_password(player["id"], body.password or "", client_ip(request))
    lobby = lobby_of(request)
    if await lobby.tables_of(player["id"]):
        raise SeatedElsewhere
    await lobby.leave_ranked(player["id"])
    done = await request.app.state.store.delete_player(player["id"])
    if done is None:
        raise PlayerNotFound
    pseudonym, ended = done
    for table in tables_of(request):  # finished tables kept live a while show it too
        for seat in table.seats:
            if seated_player(seat) == player["id"] and seat is not None:
                seat["name"] = pseudonym
    accounts.drop_sessions(ended)
    accounts.drop_cached({player["id"]})
    for digest in ended:
        sessions_of(request).end(digest)
    resp = JSONResponse({"status": "deleted"})
    resp.delete_cookie(COOKIE)
    resp.delete_cookie(DEVICE_COOKIE, path="/api/login")
    return resp
