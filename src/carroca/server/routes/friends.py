"""Routes of friends: the list, requests (by nickname, or by a player's id from a seat or a
profile), their answers, removal and blocks (`players.friends`), and challenges
(`tables.challenges`)."""

from __future__ import annotations

from typing import cast

from fastapi import APIRouter, Request
from pydantic import Field

from carroca.server.players.friends import Done, Friends, Page, RequestAnswer
from carroca.server.routes.deps import MAX_OPTIONS, Player, _Body, client_ip
from carroca.server.tables.challenges import Answered, Challenges, Made

router = APIRouter()


class PlayerBody(_Body):
    """The other player: `name` (a nickname) or `player` (an id), one of the two."""

    name: str | None = Field(default=None, max_length=40)
    player: int | None = Field(default=None, ge=1)


class ChallengeBody(_Body):
    ruleset: str = Field(max_length=30)
    options: dict[str, object] | None = Field(default=None, max_length=MAX_OPTIONS)
    seats: list[str] = Field(max_length=4)  # "me", "bot:nível", "player:ID" (a friend)
    turn_seconds: float | None = None


def challenges_of(request: Request) -> Challenges:
    return cast(Challenges, request.app.state.challenges)


def friends_of(request: Request) -> Friends:
    return cast(Friends, request.app.state.friends)


@router.get("/api/friends", response_model=None)
async def listing(me: Player, request: Request) -> Page:
    """Friends, requests to the player, their own pending ones, whom they blocked."""
    return await friends_of(request).page(me)

@router.post("/api/friends", response_model=None)
async def ask(body: PlayerBody, me: Player, request: Request) -> RequestAnswer:
    """A friend request: {"status": "requested"} (pending) or "friends" (the other had asked)."""
    return await friends_of(request).ask(me, body.name, body.player)

@router.post("/api/friends/{other}/accept", response_model=None)
async def accept(other: int, me: Player, request: Request) -> Done:
    return await friends_of(request).accept(me, other)

@router.post("/api/friends/{other}/decline", response_model=None)
async def decline(other: int, me: Player, request: Request) -> Done:
    return await friends_of(request).decline(me, other)

@router.delete("/api/friends/{other}", response_model=None)
async def remove(other: int, me: Player, request: Request) -> Done:
    """Friends no more, or one's own pending request withdrawn."""
    return await friends_of(request).remove(me, other)

@router.post("/api/blocks", response_model=None)
async def block(body: PlayerBody, me: Player, request: Request) -> Done:
    return await friends_of(request).block(me, body.name, body.player)

@router.delete("/api/blocks/{other}", response_model=None)
async def unblock(other: int, me: Player, request: Request) -> Done:
    return await friends_of(request).unblock(me, other)

@router.post("/api/challenges", status_code=201, response_model=None)
async def challenge(body: ChallengeBody, me: Player, request: Request) -> Made:
    """Challenge friends to a table: {"id", "expires"}; they are told on their sockets."""
    return await challenges_of(request).create(me, body.ruleset, body.options, body.seats,
                                               body.turn_seconds, client_ip(request))

@router.post("/api/challenges/{challenge_id}/accept", response_model=None)
async def accept_challenge(challenge_id: str, me: Player, request: Request) -> Answered:
    return await challenges_of(request).answer(me, challenge_id, "accept")

@router.post("/api/challenges/{challenge_id}/decline", response_model=None)
async def decline_challenge(challenge_id: str, me: Player, request: Request) -> Answered:
    return await challenges_of(request).answer(me, challenge_id, "decline")

@router.delete("/api/challenges/{challenge_id}", response_model=None)
async def cancel_challenge(challenge_id: str, me: Player, request: Request) -> Answered:
    return await challenges_of(request).answer(me, challenge_id, "cancel")
