"""Challenges: a player invites friends to a table ("Desafiar"); the invitation reaches their
sockets wherever they are on the site (a `challenge` frame on their player channel, on any node),
and once every invited friend accepted, a friends' table is made with everyone in their seat and
started (`challenge_end` with its id goes to all of them). One decline ends it for everyone;
unanswered, it expires after `CHALLENGE_SECONDS`.

Only friends can be challenged, and a block ends a friendship, so a blocked player's challenge
to their blocker is refused as after an ordinary removal: nothing tells them of the block.
A challenge lives in the memory of the node that received it, and its id names that node: an
answer another node receives (behind the cluster's proxy, any node may) is passed to it (`answer`,
over the cluster's calls).
"""

from __future__ import annotations

import asyncio
import base64
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, NotRequired, TypedDict

from carroca.rules import get_ruleset
from carroca.server.edge.ratelimits import RateLimits
from carroca.server.errors import (
    BadSeats,
    ChallengeUnreachable,
    NoChallenge,
    NotAFriend,
    ServerError,
    TableMoving,
    TooManyChallengesWaiting,
)
from carroca.server.realtime import wire
from carroca.server.realtime.fanout import Fanout, player_channel
from carroca.server.records import Player, Seat
from carroca.server.settings import Settings
from carroca.server.storage.store import Store
from carroca.server.tables.lobby import Lobby
from carroca.server.tables.tablerow import bot_seat, player_seat


@dataclass(eq=False)
class Pending:
    id: str
    host: Player
    ruleset: str
    options: dict[str, object]  # the ruleset's, every one (`rules.rulesets.options_dict`)
    turn_seconds: float
    seats: list[Seat]
    invited: set[int]
    expires: float
    address: str | None
    accepted: set[int] = field(default_factory=set)
    timer: asyncio.TimerHandle | None = None

    def players(self) -> list[int]:
        return [self.host["id"], *sorted(self.invited)]


class Made(TypedDict):
    """A challenge sent: its id, and when it expires unanswered."""

    id: str
    expires: float


class Answered(TypedDict):
    """An answer to a challenge: still waiting for the others, or the table made (`match`)."""

    status: Literal["waiting", "accepted", "declined", "cancelled"]
    match: NotRequired[str]


Answer = Literal["accept", "decline", "cancel"]
CallNode = Callable[[str, str, Mapping[str, object]], Awaitable[Any]]
#: Challenges held here that may wait at once for one bot account's answer.
MAX_WAITING_BOT = 20
#: The cluster call that passes an answer to the node holding the challenge.
CALL = "challenge"
#: The cluster call that asks a node for the challenges it holds for one player.
WAITING_CALL = "challenges_waiting"
#: How long a stream that opens waits for the other nodes' answers (a node that died and is
#: not yet known as dead must not hold it for the bus's whole call timeout).
WAITING_CALL_SECONDS = 1.0


class WaitingCall(TypedDict):
    player: int


class AnswerCall(TypedDict):
    id: str
    player: Player
    answer: Answer


class Challenges:
    def __init__(self, lobby: Lobby, store: Store, fanout: Fanout, settings: Settings,
                 limits: RateLimits) -> None:
        self.lobby, self.store, self.fanout = lobby, store, fanout
        self.settings, self.limits = settings, limits
        self.pending: dict[str, Pending] = {}
        self.node: str | None = None
        self._call_node: CallNode | None = None
        self._nodes: Callable[[], set[str]] = set

    def join_cluster(self, node: str, call_node: CallNode, nodes: Callable[[], set[str]]
                     ) -> None:
        """In a cluster: challenge ids name this node, and answers to another node's challenges
        are passed to it (`call_node`) when it is one of the live `nodes` (an id made up to
        name another is unknown at once, not a call that waits for nobody); that node's
        `on_call` answers them."""
        self.node, self._call_node, self._nodes = node, call_node, nodes

    async def on_call(self, args: AnswerCall) -> Answered:
        """Another node passed on an answer to a challenge held here."""
        return await self.answer(args["player"], args["id"], args["answer"])

    async def create(self, host: Player, ruleset: str, options: Mapping[str, object] | None,
                     seats: list[str], turn_seconds: float | None,
                     address: str | None = None) -> Made:
        """`seats`: "me", "bot:nível" or "player:ID" (a friend) for each seat of the ruleset."""
        self.limits.challenges_player.hit(str(host["id"]))
        opts, seconds = self.lobby.check(ruleset, options, turn_seconds)
        n = get_ruleset(ruleset).seats
        if len(seats) != n or seats.count("me") != 1:
            raise BadSeats.one_is_mine(ruleset, n)
        friends = await self.store.friend_names(host["id"])
        specs: list[Seat] = []
        invited: set[int] = set()
        for s in seats:
            if s == "me":
                specs.append(player_seat(host))
            elif s.startswith("bot:"):
                specs.append(bot_seat(s[4:]))
            elif s.startswith("player:") and s[7:].isdigit():
                pid = int(s[7:])
                if pid in invited or pid == host["id"]:
                    raise BadSeats.invalid(s)
                invited.add(pid)
                specs.append(await self._invited(host, pid, friends))
            else:
                raise BadSeats.invalid(s)
        if not invited:
            raise BadSeats.invalid(seats)
        made = secrets.token_urlsafe(8) + (f".{_encoded(self.node)}" if self.node else "")
        c = Pending(made, host, ruleset, opts, seconds, specs, invited,
                    time.time() + self.settings.challenge_seconds, address)
        self.pending[c.id] = c
        c.timer = asyncio.get_running_loop().call_later(
            self.settings.challenge_seconds, self._end, c, "expired", None, None)
        frame = _frame(c)
        for pid in invited:
            self.fanout.publish(player_channel(pid), frame)
        return {"id": c.id, "expires": c.expires}

    def waiting_for(self, player_id: int) -> list[str]:
        """The `challenge` frames of the challenges held here that wait for this player's
        answer: told again to a program whose event stream opens after they were sent."""
        return [_frame(c) for c in self.pending.values()
                if player_id in c.invited and player_id not in c.accepted]

    async def on_waiting_call(self, args: WaitingCall) -> list[str]:
        """Another node asks for the challenges held here that wait for a player."""
        return self.waiting_for(int(args["player"]))

    async def waiting_everywhere(self, player_id: int) -> list[str]:
        """`waiting_for` on every live node of the cluster (a challenge stays on the node it
        was made on). A node that does not answer is left out: its challenges still reach the
        player's stream live, through the fan-out, if they are answered or end."""
        frames = self.waiting_for(player_id)
        call_node = self._call_node
        if call_node is None:
            return frames
        others = sorted(self._nodes() - {self.node})
        call: WaitingCall = {"player": player_id}
        answers = await asyncio.gather(
            *(asyncio.wait_for(call_node(n, WAITING_CALL, call), WAITING_CALL_SECONDS)
              for n in others), return_exceptions=True)
        for answer in answers:
            if isinstance(answer, list):
                frames += [f for f in answer if isinstance(f, str)]
        return frames

    async def _invited(self, host: Player, pid: int, friends: Mapping[int, str]) -> Seat:
        """An invited player's seat: a friend's, or a bot account's (the Bot API), which anyone
        may challenge, friend or not, unless one of the two blocked the other; any other
        stranger is refused as not a friend. A bot account's seat says so (BOT)."""
        other = await self.store.open_player(player_id=pid)
        if other is None or (pid not in friends and (
                other["kind"] != "bot" or await self.store.blocked_pairs([host["id"], pid]))):
            raise NotAFriend
        if other["kind"] == "bot" and \
                sum(1 for c in self.pending.values() if pid in c.invited) >= MAX_WAITING_BOT:
            raise TooManyChallengesWaiting(MAX_WAITING_BOT)  # many senders, one bot: a flood
        return player_seat(other)

    def _mine(self, challenge_id: str, player: Player, invited: bool) -> Pending:
        c = self.pending.get(challenge_id)
        if c is None or (player["id"] not in c.invited if invited
                         else player["id"] != c.host["id"]):
            raise NoChallenge
        return c

    async def answer(self, player: Player, challenge_id: str, answer: Answer) -> Answered:
        """Accept, decline or cancel (the host) a challenge, here or on the node that holds it."""
        holder = _decoded(challenge_id.partition(".")[2])
        if (challenge_id not in self.pending and holder and holder != self.node
                and self._call_node is not None):
            if holder not in self._nodes():
                raise NoChallenge
            call: AnswerCall = {"id": challenge_id, "player": player, "answer": answer}
            try:
                answered: Answered = await self._call_node(holder, CALL, call)
            except TableMoving:  # the call went unanswered (the node's own errors pass)
                raise ChallengeUnreachable from None
            return answered
        if answer == "accept":
            return await self._accept(player, challenge_id)
        if answer == "decline":
            return self._decline(player, challenge_id)
        return self._cancel(player, challenge_id)

    async def _accept(self, player: Player, challenge_id: str) -> Answered:
        c = self._mine(challenge_id, player, invited=True)
        c.accepted.add(player["id"])
        if c.accepted != c.invited:
            return {"status": "waiting"}
        del self.pending[c.id]  # no second table from a second answer
        try:  # within the sender's caps and bot budget, as their own friends' table would be
            table = await self.lobby.tables.create_table(
                c.host, c.address, spend=True, mode="friends", ruleset=c.ruleset,
                options=c.options, seats=list(c.seats), turn_seconds=c.turn_seconds,
                bot_level=self.settings.autoplay_bot, host_id=c.host["id"],
                invite=secrets.token_urlsafe(6), client_seeds=[None] * len(c.seats))
        except ServerError:
            self._end(c, "cancelled", None, None)
            raise
        self.lobby.hub.spawn(self.lobby.tables.start_table(table))
        self._end(c, "accepted", table.id, None)
        return {"status": "accepted", "match": table.id}

    def _decline(self, player: Player, challenge_id: str) -> Answered:
        c = self._mine(challenge_id, player, invited=True)
        self._end(c, "declined", None, player["name"])
        return {"status": "declined"}

    def _cancel(self, player: Player, challenge_id: str) -> Answered:
        c = self._mine(challenge_id, player, invited=False)
        self._end(c, "cancelled", None, player["name"])
        return {"status": "cancelled"}

    def _end(self, c: Pending, status: str, match: str | None, by: str | None) -> None:
        self.pending.pop(c.id, None)
        if c.timer is not None:
            c.timer.cancel()
        frame = wire.frame(wire.ChallengeEnd(id=c.id, status=status,  # type: ignore[arg-type]
                                             match=match, by=by))
        for pid in c.players():
            self.fanout.publish(player_channel(pid), frame)


def _frame(c: Pending) -> str:
    return wire.frame(wire.Challenge(
        id=c.id, by=c.host["name"], ruleset=c.ruleset, options=c.options,
        turn_seconds=c.turn_seconds, seats=[s["name"] for s in c.seats], expires=c.expires))


def _encoded(node: str) -> str:
    """A node's id as a part of a challenge's id, fit for an address (ids hold `/` and `:`)."""
    return base64.urlsafe_b64encode(node.encode()).rstrip(b"=").decode()


def _decoded(part: str) -> str | None:
    try:
        return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)).decode()
    except (ValueError, UnicodeDecodeError):
        return None  # not a node's: the challenge is unknown here, as any other
