"""Routes of matches and tables: creating and joining them, their records, reviews and
rematches, the ranked queue, and the server's counters."""

from __future__ import annotations

import contextlib
import time
from typing import Any

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
from carroca.server.storage.store import Store
from carroca.server.tables.reviews import Reviews, ReviewsBusy

router = APIRouter()


@router.post("/api/matches", status_code=201)
async def create_match(body: BotsMatchBody, player: Player, request: Request
                       ) -> dict[str, Any]:
    table = await lobby_of(request).create_bots_match(
        player, body.ruleset, body.options, body.seats, body.turn_seconds, client_ip(request)
    )
    return {"id": table.id, "commitment": table.commitment}

@router.get("/api/matches")
async def live(request: Request) -> dict[str, Any]:
    recent = await request.app.state.store.recent_matches(20)
    return {"live": await lobby_of(request).lobby(), "finished": recent}

@router.get("/api/matches/{match_id}")
async def match_info(match_id: str, request: Request, viewer: MaybePlayer
                     ) -> dict[str, Any]:
    tables = tables_of(request)
    table = tables.get(match_id)
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
    elif tables.clustered and row["status"] in ("waiting", "playing"):
        with contextlib.suppress(ServerError):  # the owner node has the live score
            live = await tables.call_owner(match_id, "info", {})
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

@router.post("/api/matches/{match_id}/rematch")
async def rematch(match_id: str, player: Player, request: Request,
                  body: RematchBody | None = None) -> dict[str, Any]:
    """Another match with a finished table's settings; the second player to ask (and
    anyone asking again) gets the same new table."""
    tables = tables_of(request)
    table = tables.get(match_id)
    seed = body.client_seed if body else None
    if table is None:  # finished on another node?
        answer: dict[str, Any] | None = await tables.call_stored_owner(
            match_id, "rematch",
            {"player": player, "client_seed": seed, "address": client_ip(request)})
        if answer is not None:
            return answer
    if table is None:
        await readable_match(request, match_id, player)  # 404 for a stranger to it
        raise RematchClosed()
    return await lobby_of(request).rematch(table, player, seed, client_ip(request))

@router.post("/api/matches/{match_id}/public")
async def make_public(match_id: str, body: PublicBody, player: Player, request: Request
                      ) -> dict[str, Any]:
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
                                {"private": not body.public})
    return {"id": match_id, "public": body.public}

@router.post("/api/casual")
async def casual(body: CasualBody, player: Player, request: Request) -> dict[str, Any]:
    request.app.state.moderation.check_queue(player["id"], "casual")  # an abandonment ban
    answer = await lobby_of(request).casual(
        player, body.ruleset, body.bot_level, body.client_seed, body.match, client_ip(request),
        turn_seconds=body.turn_seconds,
    )
    return {k: answer[k] for k in ("id", "seat", "commitment")}

@router.post("/api/tables", status_code=201)
async def friends(body: FriendsBody, player: Player, request: Request) -> dict[str, Any]:
    answer = await lobby_of(request).friends(
        player, body.ruleset, body.options, body.seats, body.turn_seconds, body.client_seed,
        client_ip(request),
    )
    return {k: answer.get(k) for k in ("id", "seat", "invite", "commitment")}

@router.post("/api/tables/join")
async def join(body: InviteBody, player: Player, request: Request) -> dict[str, Any]:
    answer = await lobby_of(request).join_invite_anywhere(player, body.invite,
                                                        body.client_seed)
    return {k: answer[k] for k in ("id", "seat", "commitment")}

@router.post("/api/ranked")
async def ranked(body: RankedBody, player: Player, request: Request) -> dict[str, Any]:
    request.app.state.moderation.check_queue(player["id"], "ranked")  # a ban from ranked
    await mark(request, player["id"])  # where they queue from counts too
    answer = await lobby_of(request).queue_ranked(player, body.ruleset, body.client_seed)
    if answer is None:
        return {"status": "queued", "ruleset": body.ruleset}
    return {"status": "matched", "id": answer["id"], "commitment": answer["commitment"]}

@router.delete("/api/ranked")
async def leave_ranked(player: Player, request: Request) -> dict[str, Any]:
    return {"left": await lobby_of(request).leave_ranked(player["id"])}

@router.get("/api/stats")
async def stats(request: Request) -> dict[str, Any]:
    hub = hub_of(request)
    store: Store = request.app.state.store
    out: dict[str, Any] = {
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
        out.update(node=bus.node, redis_published=bus.published, calls=dict(bus.calls))
        elsewhere = cluster.charges_elsewhere()  # searching tables other nodes run
        out["bots"]["tables_elsewhere"] = sum(elsewhere.players.values())
    return out
