"""Routes of reports (any signed-in player) and of moderation (moderators only: everyone else
gets 404, as if the routes did not exist). State-changing routes pass the cross-site guard as
every other (`edge.crosssite`)."""

from __future__ import annotations

from typing import Annotated, Literal, TypedDict, cast

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field

from carroca.pages import page
from carroca.server import records
from carroca.server.moderation import rows
from carroca.server.moderation.errors import NotModeration
from carroca.server.moderation.service import (
    ActAnswer,
    Lifted,
    Moderation,
    Reported,
    ReportView,
    SanctionNotice,
)
from carroca.server.routes.deps import NOT_FOUND_PAGE, MaybePlayer, Player

router = APIRouter()


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ReportBody(_Body):
    player: str = Field(max_length=40)  # the reported player's nickname
    reason: str = Field(max_length=20)  # chat | nome | abandono | trapaca | outro
    comment: str | None = Field(default=None, max_length=500)
    match: str | None = Field(default=None, max_length=16)
    line_at: float | None = None  # the reported chat line's time, when made from one


class ActionBody(_Body):
    action: Literal["dismiss", "warn", "mute", "ranked_ban", "rename", "close"]
    reason: str = Field(max_length=300)
    days: float | None = None  # mute and ranked_ban


class LiftBody(_Body):
    reason: str = Field(max_length=300)


# The answers, typed for mypy; FastAPI sends each as it is (`response_model=None`).


class OwnReports(TypedDict):
    reports: list[rows.OwnReport]


class Notices(TypedDict):
    sanctions: list[SanctionNotice]


class Queue(TypedDict):
    queue: list[rows.QueueGroup]


class Log(TypedDict):
    log: list[rows.LogLine]


def moderation_of(request: Request) -> Moderation:
    return cast(Moderation, request.app.state.moderation)


async def moderator(request: Request, player: MaybePlayer) -> records.Player:
    if player is None or not await moderation_of(request).is_moderator(player["id"]):
        raise NotModeration
    return player


Moderator = Annotated[records.Player, Depends(moderator)]


@router.post("/api/reports", status_code=201, response_model=None)
async def make_report(body: ReportBody, player: Player, request: Request) -> Reported:
    """One route for every place a report is made from: a seat, a chat line, a profile, the
    end of a match."""
    return await moderation_of(request).report(player, body.player, body.reason, body.comment,
                                               body.match, body.line_at)

@router.get("/api/reports", response_model=None)
async def my_reports(player: Player, request: Request) -> OwnReports:
    return {"reports": await moderation_of(request).reports_by(player["id"])}

@router.get("/api/sanctions", response_model=None)
async def my_sanctions(player: Player, request: Request) -> Notices:
    return {"sanctions": await moderation_of(request).notices(player["id"])}

@router.get("/api/moderation/queue", response_model=None)
async def queue(mod: Moderator, request: Request) -> Queue:
    return {"queue": await moderation_of(request).queue()}

@router.get("/api/moderation/reports/{report_id}", response_model=None)
async def report(report_id: int, mod: Moderator, request: Request) -> ReportView:
    return await moderation_of(request).report_view(report_id)

@router.post("/api/moderation/reports/{report_id}/action", response_model=None)
async def act(report_id: int, body: ActionBody, mod: Moderator, request: Request
              ) -> ActAnswer:
    return await moderation_of(request).act(mod, report_id, body.action, body.reason,
                                            body.days)

@router.post("/api/moderation/sanctions/{sanction_id}/lift", response_model=None)
async def lift(sanction_id: int, body: LiftBody, mod: Moderator, request: Request
               ) -> Lifted:
    return await moderation_of(request).lift(mod, sanction_id, body.reason)

@router.get("/api/moderation/log", response_model=None)
async def audit(mod: Moderator, request: Request, before: int | None = None
                ) -> Log:
    return {"log": await moderation_of(request).audit(before)}


PAGE = "moderacao.html"

@router.get(f"/{PAGE}", include_in_schema=False)
async def moderation_page(request: Request, player: MaybePlayer) -> HTMLResponse:
    """The moderation page, for moderators only: anyone else gets the "page not found" page,
    as for an address that does not exist."""
    if player is None or not await moderation_of(request).is_moderator(player["id"]):
        return HTMLResponse(page(NOT_FOUND_PAGE), status_code=404)
    return HTMLResponse(page(PAGE))
