"""Routes of tournaments: creating events, registering and withdrawing, their pages and
records. Live standings are pushed to the pages watching an event (`watch` on the socket,
`tournaments.watch`); a player hears that their
match started by a `tournament` frame on their own socket."""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired, TypedDict, cast

from fastapi import APIRouter, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from carroca.server.routes.deps import MAX_OPTIONS, MaybePlayer, Player, client_ip, store_of
from carroca.server.storage.rows import EventState
from carroca.server.tournaments import pages
from carroca.server.tournaments.entries import EntryAnswer, Withdrawn
from carroca.server.tournaments.service import Tournaments
from carroca.server.tournaments.state import Event, NewEvent
from carroca.server.tournaments.views import PersonalPage

router = APIRouter()
#: A private event's invitation (or a dupla's), which shows the event to whoever brings it.
Code = Annotated[str | None, Query(max_length=20)]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TournamentBody(_Body):
    name: str = Field(max_length=80)
    format: Literal["swiss", "knockout", "arena"]
    ruleset: str = Field(max_length=30)
    options: dict[str, object] | None = Field(default=None, max_length=MAX_OPTIONS)
    rounds: int | None = Field(default=None, ge=1, le=20)  # Swiss
    best_of: int | None = Field(default=None, ge=1, le=9)  # knockout
    duration: float | None = Field(default=None, ge=10, le=6 * 3600)  # arena, seconds
    capacity: int | None = Field(default=None, ge=2, le=100_000)  # and the server's setting
    starts_at: float | None = None  # epoch seconds
    starts_in: float | None = Field(default=None, ge=0, le=30 * 24 * 3600)  # or from now
    turn_seconds: float | None = None  # only the server's own: every event plays at it
    private: bool = False
    bots: str | None = Field(default=None, max_length=20)  # a level filling the free places
    bot_accounts: bool = False  # bot accounts (the Bot API) may enter

    def event_fields(self) -> NewEvent:
        """The event's fields, as the service takes them."""
        return NewEvent(name=self.name, format=self.format, ruleset=self.ruleset,
                        options=self.options, rounds=self.rounds, best_of=self.best_of,
                        duration=self.duration, capacity=self.capacity,
                        starts_at=self.starts_at, starts_in=self.starts_in,
                        turn_seconds=self.turn_seconds, private=self.private, bots=self.bots,
                        bot_accounts=self.bot_accounts)


class RegisterBody(_Body):
    partner: bool = False  # open a dupla: the answer has the invitation for the partner
    invite: str | None = Field(default=None, max_length=20)  # join a dupla as the partner
    code: str | None = Field(default=None, max_length=20)  # a private event's invitation


# The answers, typed for mypy; FastAPI sends each as it is (`response_model=None`).


class Created(TypedDict):
    id: str
    commitment: str
    starts_at: float
    invite: NotRequired[str]  # a private event's code


class Lists(pages.Listing):
    bots_allowed: bool  # the operator's option
    mine: list[str]  # the upcoming and running events the asker plays in


class Started(TypedDict):
    id: str
    status: EventState


def tournaments_of(request: Request) -> Tournaments:
    return cast(Tournaments, request.app.state.tournaments)


def live_of(request: Request, event_id: str) -> Event | None:
    """The event as this node runs it, if it does: its page has the results of the round in
    play, which the stored record holds only once the round is over (`tournament_pages`)."""
    return tournaments_of(request).events.get(event_id)


def spend_entry(request: Request, player: Player) -> None:
    """A registration or withdrawal, counted per player whatever its answer (on the node that
    receives it, before it goes to the event's owner): each one that passes stores the event
    (`LIMIT_TOURNAMENT_ENTRIES_PLAYER`)."""
    request.app.state.limits.tournament_entries_player.hit(str(player["id"]))


@router.post("/api/tournaments", status_code=201, response_model=None)
async def create(body: TournamentBody, player: Player, request: Request) -> Created:
    ev = await tournaments_of(request).create(player, body.event_fields(), client_ip(request))
    out: Created = {"id": ev.id, "commitment": ev.row["commitment"],
                    "starts_at": ev.row["starts_at"]}
    invite = ev.row["invite"]
    if invite:
        out["invite"] = invite
    return out

@router.get("/api/tournaments", response_model=None)
async def listing(request: Request, viewer: MaybePlayer,
                  list_: Annotated[Literal["upcoming", "live", "finished"] | None,
                                   Query(alias="list")] = None,
                  limit: Annotated[int, Query(ge=1, le=pages.MAX_PAGE)] = pages.PAGE,
                  after: Annotated[str | None, Query(max_length=80)] = None) -> Lists:
    """Public events, a page of each list (`limit`), or of one list (`list`) from a cursor
    (`after`, from the previous page's `more`); `bots_allowed` (the operator's option), and
    `mine`: the upcoming and running events the asker plays in (the lobby listens for their
    matches)."""
    store = store_of(request)
    kinds = pages.KINDS if list_ is None else (list_,)
    return {**await pages.listing(store, kinds, limit, after if list_ else None),
            "bots_allowed": tournaments_of(request).settings.tournament_bots,
            "mine": await pages.events_of(store, viewer["id"]) if viewer is not None else []}

@router.get("/api/tournaments/{event_id}", response_model=None)
async def event(event_id: str, request: Request, viewer: MaybePlayer,
                code: Code = None) -> PersonalPage:
    """The event's page; a private event's to its creator, its entrants and whoever brings
    its invitation (`?code=`), 404 to anyone else."""
    view, _ = await tournaments_of(request).watched(viewer, event_id, code)
    return view

@router.post("/api/tournaments/{event_id}/register", response_model=None)
async def register(event_id: str, player: Player, request: Request,
                   body: RegisterBody | None = None) -> EntryAnswer:
    body = body or RegisterBody()
    spend_entry(request, player)
    return await tournaments_of(request).register(
        player, event_id, partner=body.partner, invite=body.invite, code=body.code)

@router.post("/api/tournaments/{event_id}/withdraw", response_model=None)
async def withdraw(event_id: str, player: Player, request: Request) -> Withdrawn:
    spend_entry(request, player)
    return await tournaments_of(request).withdraw(player, event_id)

@router.post("/api/tournaments/{event_id}/start", response_model=None)
async def start(event_id: str, player: Player, request: Request) -> Started:
    """Its creator starts the event before its time."""
    await tournaments_of(request).start(event_id, by=player)
    return {"id": event_id,
            "status": (await pages.page(store_of(request), event_id, player))["status"]}

@router.get("/api/tournaments/{event_id}/record")
async def record(event_id: str, request: Request, viewer: MaybePlayer,
                 code: Code = None) -> Response:
    """The event record (docs/tournaments.md): one JSON line; the seed in it once it is over.
    A private event's as its page (above)."""
    text = await pages.record(store_of(request), event_id, viewer, code,
                              live_of(request, event_id))
    return Response(text.rstrip("\n") + "\n", media_type="application/json")
