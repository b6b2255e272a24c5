"""Routes of matches and tables: creating and joining them, their records, reviews and
rematches, the ranked queue, and the server's counters."""

from __future__ import annotations

import contextlib
import time
from typing import Literal, NotRequired, TypedDict

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from carroca.server.errors import (
    AlwaysPublic,
    AnalysisBusy,
    AnalysisFailed,
    AnalysisNotYet,
    NotHost,
    RecordNotYet,
    RematchClosed,
    ServerError,
)
from carroca.server.records import (
    LiveInfo,
    MatchResult,
    Mode,
    SeatAnswer,
    TableStatus,
    bot_account_seats,
)
from carroca.server.routes.deps import (
    BotsMatchBody,
    CasualBody,
    FriendsBody,
    InviteBody,
    MaybePlayer,
    Player,
    PublicBody,
    RankedBody,
    RematchBody,
    client_ip,
    hub_of,
    lobby_of,
    mark,
    readable_match,
    sessions_of,
    tables_of,
)
from carroca.server.storage.rows import FinishedMatch
from carroca.server.storage.store import Store
from carroca.server.tables.calls import InfoCall, PrivacyCall, RematchCall
from carroca.server.tables.lobby import LobbyTable
from carroca.server.tables.reviews import Reviews, ReviewsBusy

router = APIRouter()

# The answers, typed for mypy; FastAPI sends each as it is (`response_model=None`: no second
# validation, the JSON unchanged).


class Created(TypedDict):
    id: str
    commitment: str


class Lists(TypedDict):
    live: list[LobbyTable]
    finished: list[FinishedMatch]


class MatchInfo(TypedDict):
    """A match's public page: its row, and its live part from the node that runs it."""

    id: str
    mode: Mode
    status: TableStatus
    ruleset: str
    options: dict[str, object]
    players: list[str | None]
    bot_accounts: list[int]  # seats held by bot accounts (marked "BOT")
    score: list[int] | None
    commitment: str
    client_seed: str | None
    result: MatchResult | None
    public: bool
    host: bool  # the asker's
    server_seed: NotRequired[str]  # once finished


class Visibility(TypedDict):
    id: str
    public: bool


class Seated(TypedDict):
    id: str
    seat: int | None
    commitment: str


class FriendsTable(TypedDict):
    id: str
    seat: int | None
    invite: str | None
    commitment: str


class Queued(TypedDict):
    status: Literal["queued"]
    ruleset: str


class Matched(TypedDict):
    status: Literal["matched"]
    id: str
    commitment: str


class Left(TypedDict):
    left: bool


class BotStats(TypedDict):
    workers: int
    alive: int
    queued: int
    decisions: dict[str, int]
    tables_elsewhere: NotRequired[int]


class ScheduleStats(TypedDict):
    ticks: int
    made: int


class Stats(TypedDict):
    """The node's counters for the load benchmark and the operator (not the `/metrics` ones)."""

    tables: int
    commits: int
    moves: int
    time: float
    password_checks: int
    storage_outages: int
    sockets: int
    bots: BotStats
    schedule: NotRequired[ScheduleStats]
    node: NotRequired[str]
    redis_published: NotRequired[int]
    calls: NotRequired[dict[str, int]]


@router.post("/api/matches", status_code=201, response_model=None)
async def create_match(body: BotsMatchBody, player: Player, request: Request) -> Created:
    table = await lobby_of(request).create_bots_match(
        player, body.ruleset, body.options, body.seats, body.turn_seconds, client_ip(request)
    )
    return {"id": table.id, "commitment": table.commitment}

@router.get("/api/matches", response_model=None)
async def live(request: Request) -> Lists:
    recent = await request.app.state.store.recent_matches(20)
    return {"live": await lobby_of(request).lobby(), "finished": recent}

@router.get("/api/matches/{match_id}", response_model=None)
async def match_info(match_id: str, request: Request, viewer: MaybePlayer) -> MatchInfo:
    tables = tables_of(request)
    table = tables.get(match_id)
    # The live view before the stored row: a table is `finished` only once its result is
    # stored, so a row read after it never lacks the result the view says is there.
    here = table.info() if table is not None else None
    row = await readable_match(request, match_id, viewer)
    live: LiveInfo = {
        "status": row["status"], "players": [s["name"] if s else None for s in row["seats"]],
        "score": row["score"], "client_seed": row["client_seed"],
    }
    if here is not None:
        live = here
    elif tables.clustered and row["status"] in ("waiting", "playing"):
        with contextlib.suppress(ServerError):  # the owner node has the live score
            live = await tables.call_owner(match_id, "info", InfoCall())
    status = live["status"]
    info: MatchInfo = {
        "id": row["id"], "mode": row["mode"], "status": status, "ruleset": row["ruleset"],
        "options": row["options"], "players": live["players"],
        "bot_accounts": bot_account_seats(row["seats"]), "score": live["score"],
        "commitment": row["commitment"], "client_seed": live["client_seed"],
        "result": row["result"], "public": not row["private"],
        "host": viewer is not None and row["host_id"] == viewer["id"],  # the asker's
    }
    if status == "finished":
        info["server_seed"] = row["server_seed"]
    return info

@router.get("/api/matches/{match_id}/record")
async def match_record(match_id: str, request: Request, viewer: MaybePlayer) -> Response:
    row = await readable_match(request, match_id, viewer)
    if row["status"] != "finished" or not row["record"]:
        raise RecordNotYet()
    # one JSONL line, newline-terminated: downloads can be joined with `cat a b > both`
    return Response(row["record"].rstrip("\n") + "\n", media_type="application/json")

@router.get("/api/matches/{match_id}/analysis")
async def match_analysis(match_id: str, request: Request, viewer: MaybePlayer) -> Response:
    """The expert's review of a finished match: 202 while it is being produced."""
    row = await readable_match(request, match_id, viewer)
    if row["status"] != "finished" or not row["record"]:
        raise AnalysisNotYet()
    if row["analysis"]:
        return Response(row["analysis"], media_type="application/json")
    reviews: Reviews = request.app.state.reviews
    if match_id in reviews.failed:
        raise AnalysisFailed()
    if match_id in reviews.stored:  # stored since the row above was read
        return Response(reviews.stored[match_id], media_type="application/json")
    try:
        if not reviews.running(match_id):
            request.app.state.limits.reviews_ip.hit(client_ip(request))
        reviews.request(match_id, row["record"])
    except ReviewsBusy:
        raise AnalysisBusy() from None
    return JSONResponse({"status": "pending"}, status_code=202)

@router.post("/api/matches/{match_id}/rematch", response_model=None)
async def rematch(match_id: str, player: Player, request: Request,
                  body: RematchBody | None = None) -> SeatAnswer:
    """Another match with a finished table's settings; the second player to ask (and
    anyone asking again) gets the same new table."""
    tables = tables_of(request)
    table = tables.get(match_id)
    seed = body.client_seed if body else None
    if table is None:  # finished on another node?
        answer: SeatAnswer | None = await tables.call_stored_owner(
            match_id, "rematch",
            RematchCall(player=player, client_seed=seed, address=client_ip(request)))
        if answer is not None:
            return answer
    if table is None:
        await readable_match(request, match_id, player)  # 404 for a stranger to it
        raise RematchClosed()
    return await lobby_of(request).rematch(table, player, seed, client_ip(request))

@router.post("/api/matches/{match_id}/public", response_model=None)
async def make_public(match_id: str, body: PublicBody, player: Player, request: Request
                      ) -> Visibility:
    """The host of a friends' match shows it to everyone (its record, replay and review,
    the list of finished matches), or keeps it to its players again."""
    row = await readable_match(request, match_id, player)
    if row["mode"] != "friends":
        raise AlwaysPublic()
    if row["host_id"] != player["id"]:
        raise NotHost()
    await request.app.state.store.set_private(match_id, not body.public)
    tables = tables_of(request)
    table = tables.get(match_id)
    if table is not None:  # kept live here: who may join its end changes too
        table.set_private(not body.public)
    else:  # or on the node that ran it
        await tables.tell_owner(row.get("owner"), match_id, "privacy",
                                PrivacyCall(private=not body.public))
    return {"id": match_id, "public": body.public}

@router.post("/api/casual", response_model=None)
async def casual(body: CasualBody, player: Player, request: Request) -> Seated:
    request.app.state.moderation.check_queue(player["id"], "casual")  # an abandonment ban
    answer = await lobby_of(request).casual(
        player, body.ruleset, body.bot_level, body.client_seed, body.match, client_ip(request),
        turn_seconds=body.turn_seconds,
    )
    return {"id": answer["id"], "seat": answer["seat"], "commitment": answer["commitment"]}

@router.post("/api/tables", status_code=201, response_model=None)
async def friends(body: FriendsBody, player: Player, request: Request) -> FriendsTable:
    answer = await lobby_of(request).friends(
        player, body.ruleset, body.options, body.seats, body.turn_seconds, body.client_seed,
        client_ip(request),
    )
    return {"id": answer["id"], "seat": answer["seat"], "invite": answer.get("invite"),
            "commitment": answer["commitment"]}

@router.post("/api/tables/join", response_model=None)
async def join(body: InviteBody, player: Player, request: Request) -> Seated:
    answer = await lobby_of(request).join_invite_anywhere(player, body.invite,
                                                        body.client_seed)
    return {"id": answer["id"], "seat": answer["seat"], "commitment": answer["commitment"]}

@router.post("/api/ranked", response_model=None)
async def ranked(body: RankedBody, player: Player, request: Request) -> Queued | Matched:
    request.app.state.moderation.check_queue(player["id"], "ranked")  # a ban from ranked
    await mark(request, player["id"])  # where they queue from counts too
    answer = await lobby_of(request).queue_ranked(player, body.ruleset, body.client_seed)
    if answer is None:
        return {"status": "queued", "ruleset": body.ruleset}
    return {"status": "matched", "id": answer["id"], "commitment": answer["commitment"]}

@router.delete("/api/ranked", response_model=None)
async def leave_ranked(player: Player, request: Request) -> Left:
    return {"left": await lobby_of(request).leave_ranked(player["id"])}

@router.get("/api/stats", response_model=None)
async def stats(request: Request) -> Stats:
    hub = hub_of(request)
    store: Store = request.app.state.store
    out: Stats = {
        "tables": len(tables_of(request)), "commits": store.commits, "moves": store.moves_written,
        "time": time.time(), "password_checks": request.app.state.accounts.hashed,
        "storage_outages": store.outage.outages,
        "sockets": sessions_of(request).total(),
        "bots": {"workers": hub.bots.workers, "alive": hub.bots.backend.alive(),
                 "queued": len(hub.bots.queue),
                 "decisions": dict(hub.bots.outcomes)}}
    scheduler = request.app.state.scheduler
    if scheduler is not None:  # the operator's recurring events: looks at it, events made here
        out["schedule"] = {"ticks": scheduler.ticks, "made": scheduler.made}
    cluster = request.app.state.cluster
    if cluster is not None:  # what crosses Redis (bench/load.py --nodes)
        bus = cluster.bus
        out["node"] = bus.node
        out["redis_published"] = bus.published
        out["calls"] = dict(bus.calls)
        elsewhere = cluster.charges_elsewhere()  # searching tables other nodes run
        out["bots"]["tables_elsewhere"] = sum(elsewhere.players.values())
    return out
