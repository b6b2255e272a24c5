"""The rows the store reads and writes, typed: each query's answer by name.

TypedDicts, not classes: a row is read as the mapping of its columns (`dict(row)`) and is often
answered as JSON as it is (the lists of matches, a profile, a leaderboard), so a typed row is the
very dict the database driver gives: no copy, the stored and the answered JSON unchanged. A JSON
column holds what `records` types (a match's seats and result) or what the pure libraries write
(an event's spec; its record and log stay their documents, `carroca.tournament`'s).
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict, TypeGuard

from carroca.server.records import MatchResult, Mode, PlayerKind, Seat, TableStatus

# ------------------------------------------------------------------ matches


class MatchRow(TypedDict):
    """A row of `matches`: what a new table stores (`TableRow.new_row`) and what a read of the
    whole row gives (every column: the ones a new table leaves to the database too)."""

    id: str
    mode: Mode
    ruleset: str
    options: dict[str, object]  # the ruleset's, every one (`rules.rulesets.options_dict`)
    seats: list[Seat | None]
    status: TableStatus
    turn_seconds: float
    bot_level: str
    invite: str | None
    host_id: int | None
    private: bool
    server_seed: str
    commitment: str
    client_seeds: list[str | None]
    client_seed: str | None
    created_at: float
    owner: NotRequired[str | None]
    epoch: NotRequired[int]
    show_up_by: NotRequired[float | None]
    started_at: NotRequired[float | None]
    finished_at: NotRequired[float | None]
    score: NotRequired[list[int] | None]
    result: NotRequired[MatchResult | None]
    record: NotRequired[str | None]
    analysis: NotRequired[str | None]
    absent: NotRequired[list[int] | None]
    ended_reason: NotRequired[str | None]  # ended unfinished by an operator: why


class MatchEnd(TypedDict):
    """What `finish_match` writes on a match's row at its end."""

    status: Literal["finished"]
    finished_at: float
    score: list[int]
    result: MatchResult
    record: str


class LiveMatch(TypedDict):
    """A match waiting or in play, as the lobby of a cluster reads it (`live_matches`)."""

    id: str
    mode: Mode
    ruleset: str
    status: TableStatus
    bot_level: str
    seats: list[Seat | None]
    owner: str | None
    host_id: int | None
    created_at: float
    commitment: str
    invite: str | None
    score: list[int] | None
    private: bool
    turn_seconds: float


class Seating(TypedDict):
    """Who sits where at a match, its mode and status (`seating`)."""

    mode: Mode
    status: TableStatus
    seats: list[Seat | None]


class FinishedMatch(TypedDict):
    """A finished public match of the lobby's list (`recent_matches`), answered as it is."""

    id: str
    mode: Mode
    ruleset: str
    seats: list[Seat | None]
    status: TableStatus
    score: list[int] | None
    result: MatchResult | None
    created_at: float
    finished_at: float | None


class EndedMatch(TypedDict):
    """A match over, as an event's owner learns of it (`ended_matches`)."""

    id: str
    status: TableStatus
    record: str | None
    absent: list[int] | None


class ParticipantRow(TypedDict):
    """A row of `participants`: who sat where, their rating before and after, and what they
    did in the match (`players.stats`: null until counted)."""

    match_id: str
    seat: int
    player_id: int
    rating_before: float | None
    rating_after: float | None
    won: NotRequired[bool | None]
    batidas: NotRequired[int | None]
    galos: NotRequired[int | None]
    capicus: NotRequired[int | None]


# ------------------------------------------------------------------ players


#: A player's kind as stored: a deleted account's pseudonym row is `deleted` (`storage.rights`).
StoredKind = PlayerKind | Literal["deleted"]


class PlayerRow(TypedDict):
    """A row of `players`, every column (`player_by_name`, `player_by_id`)."""

    id: int
    name: str
    name_key: str
    kind: StoredKind
    password_hash: str | None
    created_at: float
    guest_key_hash: str | None
    name_skeleton: str
    name_skeleton_folded: str
    skeleton_twin: int
    closed_at: float | None
    closed_reason: str | None


class SessionRow(TypedDict):
    """The player a live session belongs to (`session_player`)."""

    id: int
    name: str
    kind: PlayerKind
    expires_at: float


class RatingRow(TypedDict):
    """A row of `ratings`: a player's OpenSkill rating in one family."""

    player_id: int
    family: str
    mu: float
    sigma: float
    games: int
    wins: int
    ordinal: float


class ProfileRating(TypedDict):
    mu: float
    sigma: float
    rating: float
    games: int
    wins: int


class HistoryRow(TypedDict):
    """A match of a profile's history: `hosted` when the profile's player was its host."""

    id: str
    mode: Mode
    ruleset: str
    result: MatchResult | None
    score: list[int] | None
    finished_at: float | None
    seat: int
    rating_before: float | None
    rating_after: float | None
    private: bool
    hosted: bool


class Profile(TypedDict):
    """A player's page (`player_profile`): ratings by family, last matches."""

    name: str
    kind: StoredKind
    ratings: dict[str, ProfileRating]
    history: list[HistoryRow]


#: What the viewer of a profile is to its player: themselves, friends, a request either way
#: (`requested`: the viewer's; `incoming`: theirs, not from someone the viewer blocked), the
#: viewer blocked them, or nothing. A block by the player is not told: it reads as nothing (or
#: as the viewer's request, which stays pending on their side).
Relation = Literal["self", "friends", "requested", "incoming", "blocked", "none"]


class RatingPoint(TypedDict):
    """A ranked match's rating change, for the profile's graph: when, after what, where."""

    at: float
    rating: float
    ruleset: str
    match: str


class RulesetStats(TypedDict):
    """A player's figures in one ruleset, over their public matches counted so far."""

    ruleset: str
    matches: int
    wins: int
    batidas: int
    galos: int
    capicus: int


class RecentMatch(TypedDict):
    """A public match of a profile: its players' names by seat (bots': `bot:level`)."""

    id: str
    mode: Mode
    ruleset: str
    finished_at: float | None
    seat: int
    won: bool | None
    score: list[int] | None
    players: list[str]


class ProfileFriend(TypedDict):
    id: int
    name: str


class StoredPage(TypedDict):
    """What a player's public page reads (`player_page`): what anyone may see, and, for a
    signed-in viewer, the friends they have in common and what the viewer is to the player."""

    id: int
    name: str
    kind: PlayerKind
    since: float
    ratings: dict[str, ProfileRating]
    rating_points: list[RatingPoint]  # the latest ranked matches', oldest first
    stats: list[RulesetStats]
    uncounted: int  # public matches of theirs whose figures are still being counted
    recent: list[RecentMatch]
    common_friends: list[ProfileFriend]
    relation: Relation | None  # None: nobody signed in


class SeatCounts(TypedDict):
    """What one player did in a match (`players.stats`), as their `participants` row keeps it."""

    won: bool
    batidas: int
    galos: int
    capicus: int


class Uncounted(TypedDict):
    """A finished match whose players' figures were not counted yet, with its record."""

    id: str
    record: str
    result: MatchResult | None


class LeaderLine(TypedDict):
    """A line of a family's leaderboard."""

    name: str
    rating: float
    mu: float
    sigma: float
    games: int
    wins: int


class QueueRow(TypedDict):
    """A row of `ranked_queue`: a player waiting for a ranked match, on any node."""

    player_id: int
    ruleset: str
    name: str
    seed: str | None
    queued_at: float


# ------------------------------------------------------------------ friends

LinkState = Literal["friend", "requested", "blocked"]


class LinkedPlayer(TypedDict):
    """Another player in one's friends page: who, and since when (`at`)."""

    id: int
    name: str
    kind: PlayerKind
    at: float


class FriendsPage(TypedDict):
    """What a player sees of their links (`friends_page`)."""

    friends: list[LinkedPlayer]
    incoming: list[LinkedPlayer]  # requests to them (none from players they blocked)
    outgoing: list[LinkedPlayer]  # their own pending requests
    blocked: list[LinkedPlayer]


class OwnLink(TypedDict):
    """One of a player's own links, as their data export lists it."""

    name: str
    state: LinkState
    at: float


# ------------------------------------------------------------------ tournaments

EventState = Literal["upcoming", "running", "finished", "cancelled"]


class EventSpecRow(TypedDict):
    """An event's spec as stored (`carroca.tournament.EventSpec.to_dict`): the rounds, best-of
    or duration of its format only."""

    name: str
    format: str  # one of `carroca.tournament.FORMATS`, checked by `EventSpec`
    ruleset: str
    options: dict[str, object]
    rounds: NotRequired[int | None]
    best_of: NotRequired[int]
    duration: NotRequired[float | None]
    capacity: int | None


class EventFacts(TypedDict):
    """The columns of an event every list shows (all but its record, seed and invitation)."""

    id: str
    name: str
    format: str
    ruleset: str
    options: dict[str, object]
    spec: EventSpecRow
    status: EventState
    creator: int | None
    created_at: float
    starts_at: float
    started_at: float | None
    finished_at: float | None
    turn_seconds: float
    bots: str | None
    private: bool
    owner: NotRequired[str | None]
    epoch: NotRequired[int]
    schedule_key: NotRequired[str | None]
    slot: NotRequired[str | None]
    note: NotRequired[str | None]
    by_newcomer: NotRequired[bool]
    bot_accounts: NotRequired[bool]  # bot accounts may enter (the Bot API)


class EventRow(EventFacts):
    """A row of `tournaments`: its facts, its record as it stands (JSON text), its seed kept
    apart, a private event's invitation."""

    invite: str | None
    seed: str
    commitment: str
    record: str


class ListedEvent(EventFacts):
    """An event of a list (`listed_tournaments`): its facts, and the players of each entry."""

    commitment: str
    sizes: list[int]


class EntryPerson(TypedDict):
    """A player of an entry: who they are, and whether they came as a newcomer (a guest
    without finished matches, a share of a public event's places)."""

    id: int
    name: str
    kind: NotRequired[PlayerKind]  # entries older than the kind's first use lack it: a guest
    newcomer: NotRequired[bool]


class EntryBot(TypedDict):
    """A bot of an entry: its level and name ("Bot 3")."""

    bot: str
    name: str


EntryPlayer = EntryPerson | EntryBot


def is_entry_bot(player: EntryPlayer) -> TypeGuard[EntryBot]:
    return "bot" in player


def is_entry_person(player: EntryPlayer) -> TypeGuard[EntryPerson]:
    return "id" in player


class EntryRow(TypedDict):
    """A row of `tournament_entries`: one entrant (a player, or a dupla: `partner_invite` while
    its second player has not come)."""

    tournament_id: str
    entrant: str
    name: str
    players: list[EntryPlayer]
    created_at: float
    partner_invite: str | None
