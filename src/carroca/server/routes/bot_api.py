"""The Bot API (docs/bots.md): personal tokens made from the profile page, bot accounts, and
what a program does with a token, in the lichess style: a stream of the account's events and
one per game (NDJSON over HTTP), a call per move, chat, resign and challenges.

A stream is a `Connection` as a WebSocket's is, writing its frames to the HTTP answer instead of
a socket: it follows the same channels (the bot's own, its seat's), so a game stream carries
exactly what that seat's socket would, its seat's observation and never another seat's tiles,
and an open game stream is the seat's presence at the table as a socket is (the clock,
auto-play and abandonment are the table's, whoever plays the seat).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Annotated, Any, Literal, NotRequired, TypedDict, cast

from fastapi import APIRouter, Depends, Request
from fastapi.responses import StreamingResponse
from pydantic import Field

from carroca.server import records
from carroca.server.errors import (
    BadToken,
    NotSeatedHere,
    ServerError,
    TokenRequired,
    status_of,
)
from carroca.server.players.api_tokens import SCOPES, ApiTokens
from carroca.server.realtime import wire
from carroca.server.realtime.fanout import player_channel
from carroca.server.realtime.protocol import MAX_CHAT, SEED_CHARS
from carroca.server.records import seated_player
from carroca.server.routes.connection import Connection, Services, play, say
from carroca.server.routes.deps import (
    MAX_OPTIONS,
    Player,
    _Body,
    client_ip,
    lobby_of,
    mark,
    tables_of,
)
from carroca.server.routes.tournaments import spend_entry, tournaments_of
from carroca.server.storage.tokens import TokenOwner, TokenRow
from carroca.server.tables.calls import ResignCall
from carroca.server.tables.challenges import Answered, Challenges, Made
from carroca.server.tournaments.entries import EntryAnswer, Withdrawn

router = APIRouter()

NDJSON = "application/x-ndjson"
MAX_WAITING = 256  # frames waiting for a slow reader; beyond that its stream ends
#: Frames of the player's own channel a program hears on its event stream.
EVENT_KINDS = frozenset({"matched", "game_end", "challenge", "challenge_end", "tournament",
                         "rematch", "notice"})
TokenLabel = Annotated[str, Field(default="", max_length=40)]


class TokenBody(_Body):
    label: TokenLabel = ""
    scopes: list[str] = Field(min_length=1, max_length=len(SCOPES))


class BotMoveBody(_Body):
    """A move: `id` a number the program picks, greater than its previous move's in this match
    (the same id again is acknowledged as a `duplicate`, never played twice); `action` as the
    state's `legal` lists it; `version` the state it was chosen on (optional: then a move that
    came too late is refused as `stale_state` instead of played on a changed table)."""

    id: int = Field(ge=0, le=2**31)
    action: str = Field(min_length=1, max_length=24)
    version: int | None = Field(default=None, ge=0)


class BotChatBody(_Body):
    text: str = Field(min_length=1, max_length=MAX_CHAT)


class BotChallengeBody(_Body):
    ruleset: str = Field(max_length=30)
    options: dict[str, object] | None = Field(default=None, max_length=MAX_OPTIONS)
    seats: list[str] = Field(max_length=4)  # "me", "bot:nível", "player:ID"
    turn_seconds: float | None = None


class BotEntryBody(_Body):
    code: str | None = Field(default=None, max_length=20)  # a private event's invitation


class Tokens(TypedDict):
    tokens: list[TokenRow]
    scopes: dict[str, str]


class MadeToken(TokenRow):
    token: str  # shown this once: only its digest is kept


class Moved(TypedDict):
    id: int
    version: int
    duplicate: bool


class Done(TypedDict):
    status: Literal["ok"]


def api_tokens_of(request: Request) -> ApiTokens:
    return cast(ApiTokens, request.app.state.api_tokens)


def sockets_of(request: Request) -> Services:
    return cast(Services, request.app.state.sockets)


def with_scope(scope: str | None) -> Callable[[Request], Awaitable[TokenOwner]]:
    """A route's dependency: the player whose token (`Authorization: Bearer crc_...`, never a
    cookie: a page of another site cannot spend it) has `scope` (None: any live token)."""

    async def owner(request: Request) -> TokenOwner:
        auth = request.headers.get("authorization", "")
        if not auth.lower().startswith("bearer "):
            raise TokenRequired
        token = auth[7:].strip()
        if not token:
            raise BadToken
        return await api_tokens_of(request).owner(token, scope)

    return owner


BotPlayer = Annotated[TokenOwner, Depends(with_scope("bot:play"))]
ChallengeWriter = Annotated[TokenOwner, Depends(with_scope("challenge:write"))]
EventWriter = Annotated[TokenOwner, Depends(with_scope("tournament:write"))]
AnyToken = Annotated[TokenOwner, Depends(with_scope(None))]


# ---------------------------------------------------------------------- the owner, in a browser


@router.get("/api/me/tokens", response_model=None)
async def tokens(me: Player, request: Request) -> Tokens:
    """The player's tokens (never the tokens themselves), and the scopes one may have."""
    return {"tokens": await api_tokens_of(request).listed(me), "scopes": SCOPES}


@router.post("/api/me/tokens", status_code=201, response_model=None)
async def make_token(body: TokenBody, me: Player, request: Request) -> MadeToken:
    token, row = await api_tokens_of(request).create(me, body.label, body.scopes)
    return cast(MadeToken, {**row, "token": token})


@router.delete("/api/me/tokens/{token_id}", response_model=None)
async def revoke_token(token_id: int, me: Player, request: Request) -> Done:
    await api_tokens_of(request).revoke(me, token_id)
    return {"status": "ok"}


@router.post("/api/me/bot", response_model=None)
async def become_bot(me: Player, request: Request) -> dict[str, records.Player]:
    """The account becomes a bot account, for good (only before it has played)."""
    queued = await lobby_of(request).queued(me["id"]) is not None
    player = await api_tokens_of(request).make_bot(me, queued)
    request.app.state.accounts.drop_cached({me["id"]})  # sessions now name a bot
    return {"player": player}


# ---------------------------------------------------------------------- a program, with a token


class StreamSocket:
    """What a `Connection` writes to when it answers an HTTP stream: a queue the answer reads.
    A reader that falls `MAX_WAITING` frames behind has its stream ended (it may open another:
    the game's state comes whole first)."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.ended = False

    async def send_text(self, text: str) -> None:
        self.put(text)

    def put(self, text: str) -> None:
        if self.ended:
            return
        if self.queue.qsize() >= MAX_WAITING:
            self.end()
            return
        self.queue.put_nowait(text)

    def end(self) -> None:
        if not self.ended:
            self.ended = True
            self.queue.put_nowait(None)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        self.end()


async def _lines(request: Request, owner: TokenOwner, out: StreamSocket,
                 done: Callable[[str], bool], cleanup: Callable[[], None]) -> AsyncIterator[str]:
    """The stream's lines: each frame, an empty line when nothing came for a while (so that
    both ends know the other is there), until `done` says a frame was the last."""
    keepalive = request.app.state.settings.api_keepalive_seconds
    tokens = api_tokens_of(request)
    try:
        while True:
            try:
                item = await asyncio.wait_for(out.queue.get(), keepalive)
            except TimeoutError:
                if not await tokens.still_live(owner["token_id"]):
                    return  # revoked, or its player closed: the stream ends with it
                yield "\n"
                continue
            if item is None:
                return
            yield item + "\n"
            if done(item):
                return
    finally:
        cleanup()
        tokens.stream_closed(owner["token_id"])


@router.get("/api/bot/stream/event", response_model=None)
async def event_stream(owner: BotPlayer, request: Request) -> StreamingResponse:
    """The account's events, as frames of the WebSocket protocol (docs/protocol.md), one a
    line: `matched` (a game started: open its stream), `game_end`, `challenge` (to answer),
    `challenge_end`, `tournament`, `rematch`, `notice`. First a `matched` for every game the
    bot has a seat at now and a `challenge` for every challenge waiting for its answer (held
    by this node), so a program that (re)starts misses neither."""
    tokens = api_tokens_of(request)
    tokens.stream_opened(owner["token_id"])
    player, fanout = owner["player"], sockets_of(request).fanout
    out = StreamSocket()

    def heard(payload: str) -> None:
        kind = payload[9:payload.find('"', 9)] if payload.startswith('{"type":"') else ""
        if kind in EVENT_KINDS:
            out.put(payload)

    channel = player_channel(player["id"])
    fanout.subscribe(channel, heard)
    try:
        tables = tables_of(request)
        for match_id in await lobby_of(request).tables_of(player["id"]):
            table = tables.get(match_id)
            mode = table.mode if table is not None else "friends"
            if table is None:
                seating = await tables.seating(match_id)
                mode = seating["mode"] if seating is not None else mode
            out.put(wire.frame(wire.Matched(match=match_id, mode=mode)))
        for frame in await challenges_of(request).waiting_everywhere(player["id"]):
            out.put(frame)
    except BaseException:  # nothing is streamed: the slot and the subscription go back
        fanout.unsubscribe(channel, heard)
        tokens.stream_closed(owner["token_id"])
        raise
    return StreamingResponse(
        _lines(request, owner, out, lambda _: False,
               lambda: fanout.unsubscribe(channel, heard)), media_type=NDJSON)


async def _seat(request: Request, match_id: str, player_id: int) -> int:
    """The bot's seat at a live table, here or on another node (404 `not_seated` otherwise)."""
    tables = tables_of(request)
    table = tables.get(match_id)
    if table is not None:
        seat = table.seat_of(player_id)
    else:
        seating = await tables.seating(match_id)
        seat = None if seating is None or seating["status"] not in ("waiting", "playing") \
            else next((i for i, s in enumerate(seating["seats"])
                       if seated_player(s) == player_id), None)
    if seat is None:
        raise NotSeatedHere
    return seat


def _last_state(frame: str) -> bool:
    """A state frame of a table that will not change any more ends a game's stream, as does a
    refusal of the join (the table gone meanwhile, or moving: the program opens it again)."""
    if frame.startswith('{"type":"error"'):
        return True
    if not frame.startswith('{"type":"state"'):
        return False
    status = json.loads(frame)["data"]["status"]
    return status in ("finished", "expired")


@router.get("/api/bot/game/stream/{match_id}", response_model=None)
async def game_stream(match_id: str, owner: BotPlayer, request: Request) -> StreamingResponse:
    """One game as the bot's seat sees it: its `state` first, then each change (`state`,
    `chat`, `notice`), until a `state` whose status is `finished` or `expired`."""
    player = owner["player"]
    await _seat(request, match_id, player["id"])
    api_tokens_of(request).stream_opened(owner["token_id"])
    out = StreamSocket()
    conn = Connection(cast(Any, out), player, sockets_of(request))
    try:
        await conn.follow(match_id)
    except BaseException:
        conn.closed = True
        conn.detach()
        api_tokens_of(request).stream_closed(owner["token_id"])
        raise

    def cleanup() -> None:
        conn.closed = True
        conn.detach()

    return StreamingResponse(_lines(request, owner, out, _last_state, cleanup),
                             media_type=NDJSON)


def _answer(frame: str) -> dict[str, Any]:
    """A frame's data, or the refusal it carries raised as the route's answer."""
    parsed = json.loads(frame)
    data: dict[str, Any] = parsed["data"]
    if parsed["type"] == "error":
        raise ServerError(status_of(data["code"]), data["code"], data["message"])
    return data


@router.post("/api/bot/game/{match_id}/move", response_model=None)
async def bot_move(match_id: str, body: BotMoveBody, owner: BotPlayer, request: Request
                   ) -> Moved:
    seat = await _seat(request, match_id, owner["player"]["id"])
    ack = _answer(await play(sockets_of(request), match_id, seat, body.id, body.action,
                             body.version))
    return {"id": ack["id"], "version": ack["version"],
            "duplicate": bool(ack.get("duplicate", False))}


@router.post("/api/bot/game/{match_id}/chat", response_model=None)
async def bot_chat(match_id: str, body: BotChatBody, owner: BotPlayer, request: Request
                   ) -> Done:
    seat = await _seat(request, match_id, owner["player"]["id"])
    refused = await say(sockets_of(request), owner["player"], match_id, seat, body.text)
    if refused:
        _answer(refused)
    return {"status": "ok"}


@router.post("/api/bot/game/{match_id}/resign", response_model=None)
async def bot_resign(match_id: str, owner: BotPlayer, request: Request) -> Done:
    """The bot gives the match up: its turns run out at once from now on, and the third is
    its abandonment (`Table.resign`): the other side wins."""
    seat = await _seat(request, match_id, owner["player"]["id"])
    tables = tables_of(request)
    table = tables.get(match_id)
    refused = await table.resign(seat) if table is not None else \
        await tables.call_owner(match_id, "resign", ResignCall(seat=seat))
    if refused:
        _answer(refused)
    return {"status": "ok"}


def challenges_of(request: Request) -> Challenges:
    return cast(Challenges, request.app.state.challenges)


@router.post("/api/bot/challenges", status_code=201, response_model=None)
async def bot_challenge(body: BotChallengeBody, owner: ChallengeWriter, request: Request
                        ) -> Made:
    """A challenge from the token's player, as the people's `POST /api/challenges`."""
    return await challenges_of(request).create(owner["player"], body.ruleset, body.options,
                                               body.seats, body.turn_seconds,
                                               client_ip(request))


@router.post("/api/bot/challenges/{challenge_id}/accept", response_model=None)
async def bot_accept(challenge_id: str, owner: ChallengeWriter, request: Request) -> Answered:
    return await challenges_of(request).answer(owner["player"], challenge_id, "accept")


@router.post("/api/bot/challenges/{challenge_id}/decline", response_model=None)
async def bot_decline(challenge_id: str, owner: ChallengeWriter, request: Request
                      ) -> Answered:
    return await challenges_of(request).answer(owner["player"], challenge_id, "decline")


@router.post("/api/bot/tournaments/{event_id}/register", response_model=None)
async def bot_register(event_id: str, owner: EventWriter, request: Request,
                       body: BotEntryBody | None = None) -> EntryAnswer:
    """An entry in an event that takes bot accounts (403 `bots_not_invited` otherwise), alone;
    its games start as `matched` on the event stream, as any other."""
    player = owner["player"]
    spend_entry(request, player)
    return await tournaments_of(request).register(player, event_id,
                                                  code=body.code if body else None)


@router.post("/api/bot/tournaments/{event_id}/withdraw", response_model=None)
async def bot_withdraw(event_id: str, owner: EventWriter, request: Request) -> Withdrawn:
    spend_entry(request, owner["player"])
    return await tournaments_of(request).withdraw(owner["player"], event_id)


class BotLadderBody(_Body):
    ruleset: str = Field(max_length=30)
    client_seed: str | None = Field(default=None, pattern=SEED_CHARS)


class Laddered(TypedDict):
    status: Literal["queued", "matched"]
    ruleset: str
    match: NotRequired[str]


@router.post("/api/bot/ladder", response_model=None)
async def bot_ladder(body: BotLadderBody, owner: BotPlayer, request: Request) -> Laddered:
    """Queue for the bots' ladder: a ranked match against other bot accounts, rated apart from
    the people's ("bot-duplas", "bot-mano"); `matched` on the event stream when it starts."""
    player = owner["player"]
    request.app.state.moderation.check_queue(player["id"], "ranked")  # a ban from ranked
    await mark(request, player["id"])  # one operator's bots are never each other's opponents
    answer = await lobby_of(request).queue_bot_ladder(player, body.ruleset, body.client_seed)
    if answer is None:
        return {"status": "queued", "ruleset": body.ruleset}
    return {"status": "matched", "ruleset": body.ruleset, "match": answer["id"]}


@router.delete("/api/bot/ladder", response_model=None)
async def bot_ladder_leave(owner: BotPlayer, request: Request) -> dict[str, bool]:
    return {"left": await lobby_of(request).leave_ranked(owner["player"]["id"])}


class BotCasualBody(_Body):
    ruleset: str = Field(max_length=30)
    bot_level: str = Field(default="medium", max_length=20)  # the level filling empty seats
    turn_seconds: float | None = None  # one of the casual lengths; none: the server's


@router.post("/api/bot/casual", response_model=None)
async def bot_casual(body: BotCasualBody, owner: BotPlayer, request: Request
                     ) -> dict[str, Any]:
    """A seat at a casual table, as a person takes one ("Jogar agora"): with the people
    waiting there, or with built-in bots after the casual wait; `matched` when it starts.
    Within the same abandonment ban and the same bot budget as a person's."""
    player = owner["player"]
    request.app.state.moderation.check_queue(player["id"], "casual")
    answer = await lobby_of(request).casual(player, body.ruleset, body.bot_level, None, None,
                                            client_ip(request),
                                            turn_seconds=body.turn_seconds)
    return {"match": answer["id"], "seat": answer["seat"]}


@router.get("/api/bot/account", response_model=None)
async def bot_account(owner: AnyToken) -> dict[str, Any]:
    """Who the token speaks for and what it may do."""
    return {"player": owner["player"], "scopes": owner["scopes"]}
