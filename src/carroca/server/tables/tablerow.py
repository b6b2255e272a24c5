"""What a table's database row says: its settings, seats and seeds, and the answers the lobby
gives from them. `Table` runs the match on top of it."""

from __future__ import annotations

import secrets
import time

from carroca import fair
from carroca.bots import BOT_LEVELS, SEARCHING_LEVELS, level_names
from carroca.rules import get_ruleset
from carroca.server.errors import UnknownBot
from carroca.server.records import (
    BotSeat,
    Mode,
    PersonSeat,
    Player,
    Seat,
    SeatAnswer,
    TableStatus,
    is_bot,
    is_person,
)
from carroca.server.storage.rows import MatchRow


def bot_seat(level: str) -> BotSeat:
    """A bot's seat at a table (`UnknownBot` for a level that does not exist)."""
    if level not in BOT_LEVELS:
        raise UnknownBot(level, level_names(tuple(BOT_LEVELS)))
    return {"bot": level, "name": f"bot:{level}"}


def player_seat(player: Player) -> PersonSeat:
    """A player's seat at a table."""
    seat: PersonSeat = {"player": player["id"], "name": player["name"]}
    if player["kind"] == "bot":
        seat["bot_account"] = True
    return seat


class TableRow:
    """A match's row, read once: its settings, seats and seeds as attributes. `address`: where
    the table was made from (the bot budget counts it; not stored)."""

    def __init__(self, row: MatchRow, address: str | None = None) -> None:
        self.id: str = row["id"]
        self.mode: Mode = row["mode"]
        self.ruleset = get_ruleset(row["ruleset"])
        self.options = self.ruleset.make_options(row["options"])
        self.seats: list[Seat | None] = list(row["seats"])  # as stored: see `records`
        self.status: TableStatus = row["status"]
        self.turn_seconds: float = row["turn_seconds"]
        self.bot_level: str = row["bot_level"]
        self.invite: str | None = row.get("invite")
        self.host_id: int | None = row.get("host_id")
        self.private: bool = bool(row.get("private"))  # see `new_row`
        self.server_seed: str = row["server_seed"]
        self.commitment: str = row["commitment"]
        self.client_seeds: list[str | None] = list(row["client_seeds"])
        self.client_seed: str | None = row.get("client_seed")
        self.created_at: float = row["created_at"]
        self.epoch: int = row.get("epoch") or 0  # several nodes: the epoch this node holds
        self.closed = False
        self.rating_changes: dict[int, tuple[float | None, float | None]] = {}
        self.rematch_id: str | None = None  # the table of the next match with these settings
        self.rematch_by: str | None = None  # who asked for it first
        self.address = address
        # A tournament's table: when its players must have come, and the teams that did not
        # (`Tables.await_players`).
        self.show_up_by: float | None = row.get("show_up_by")
        self.absent: list[int] | None = row.get("absent")
        self.ended_reason: str | None = row.get("ended_reason")  # `end_by_operator`

    @staticmethod
    def new_row(
        *,
        mode: Mode,
        ruleset: str,
        options: dict[str, object],
        seats: list[Seat | None],
        turn_seconds: float,
        bot_level: str,
        host_id: int | None = None,
        invite: str | None = None,
        private: bool | None = None,
        show_up_by: float | None = None,
    ) -> MatchRow:
        server_seed = fair.new_server_seed()
        row: MatchRow = {
            "id": secrets.token_urlsafe(9)[:12],
            "mode": mode,
            "ruleset": ruleset,
            "options": options,
            "seats": seats,
            "status": "waiting",
            "turn_seconds": turn_seconds,
            "bot_level": bot_level,
            "invite": invite,
            "host_id": host_id,
            # its players' only (a friends' match until its host makes it public; a private
            # event's)
            "private": mode == "friends" if private is None else private,
            "server_seed": server_seed,
            "commitment": fair.commitment(server_seed),
            "client_seeds": [None] * len(seats),
            "client_seed": None,
            "created_at": time.time(),
        }
        if show_up_by is not None:  # a tournament's table (`Tables.await_players`)
            row["show_up_by"] = show_up_by
        return row

    def answer(self, seat: int | None) -> SeatAnswer:
        """What the lobby's routes answer a player given a seat here."""
        out: SeatAnswer = {"id": self.id, "seat": seat, "mode": self.mode,
                           "commitment": self.commitment}
        if self.invite and self.mode == "friends":
            out["invite"] = self.invite
        return out

    def hidden_from(self, seat: int | None) -> bool:
        """A finished private match is not shown to who did not play it (a spectator could
        watch it live, but not come back for its end once it is over)."""
        return self.private and self.status == "finished" and seat is None

    def seat_of(self, player_id: int) -> int | None:
        for i, s in enumerate(self.seats):
            if s is not None and is_person(s) and s["player"] == player_id:
                return i
        return None

    def open_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s is None]

    def names(self) -> list[str]:
        return [s["name"] if s else "" for s in self.seats]

    def is_bot(self, seat: int) -> bool:
        s = self.seats[seat]
        return s is not None and is_bot(s)

    def bot_work(self) -> bool:
        """Live, and a bot here searches (real CPU on every move), or will once this casual
        table's empty seats are filled with bots of its level."""
        if self.status not in ("waiting", "playing") or self.closed:
            return False
        if self.mode == "casual" and self.status == "waiting" and self.open_seats():
            return self.bot_level in SEARCHING_LEVELS
        return any(s is not None and is_bot(s) and s["bot"] in SEARCHING_LEVELS
                   for s in self.seats)

    def charged_player(self) -> int | None:
        """Whose bot budget this table counts against: its host, else its first player."""
        if self.host_id is not None:
            return self.host_id
        humans = self.humans()
        return humans[0][1] if humans else None

    def humans(self) -> list[tuple[int, int]]:
        return [(i, s["player"]) for i, s in enumerate(self.seats) if s and is_person(s)]
