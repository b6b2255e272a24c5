"""This node's part in a cluster: its lease, the matches it owns and takes over, and the calls
other nodes make to the owner of a match.

Ownership (docs/server.md, "Several nodes"): each live match has one owner node (`matches.owner`),
which runs its clock and bots and commits its moves. A node is alive while its lease in the
`nodes` table (the database's clock) is in the future; it renews the lease every
`lease_renew_seconds`. A node whose lease ran out is dead to the others: every
`takeover_seconds` each node claims the unfinished matches of dead owners (`SKIP LOCKED`: one
claimer each), raising their epoch, and rebuilds them from their move log. The epoch fences the
old owner: its moves and updates are refused by the database (`Fenced`), so two nodes never both
run a match, even when the old one wakes up from a pause. A node that could not renew its lease in
time stops running its matches by itself; once the database answers again it gives back what it
still owned and takes part again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from carroca.server.cluster.bus import CallFailed, Charges, RedisFanout, RemoteError
from carroca.server.errors import (
    MatchGone,
    NotOwner,
    OwnerUnknown,
    ServerError,
    TableMoving,
)
from carroca.server.records import LiveInfo, SeatAnswer
from carroca.server.storage.store import Store
from carroca.server.tables.botbudget import Elsewhere, tally
from carroca.server.tables.calls import (
    ChatCall,
    HoldCall,
    InfoCall,
    InviteAnswer,
    InviteCall,
    JoinAnswer,
    JoinCall,
    Method,
    MoreTimeCall,
    MoveCall,
    PrivacyCall,
    RematchCall,
    ResignCall,
    SitCall,
    TableCall,
)

if TYPE_CHECKING:
    from carroca.server.tables.hub import Hub
    from carroca.server.tables.lobby import Lobby
    from carroca.server.tables.registry import Tables
    from carroca.server.tables.table import Table

CLAIM_BATCH = 200  # matches taken over per database round trip
CLAIM_GRACE_SCANS = 3  # scans after which any node takes orphans another live node should have
OWNERS_KEPT = 50_000  # owners of matches remembered before the cache starts again
NODE_ROWS_KEPT = 86_400.0  # seconds a dead node's row stays in `nodes` (for an operator's look)
FORGET_EVERY = 600.0  # seconds between two clean-ups of those rows


CHARGES_SECONDS = 2.0  # how often a node tells the others its bot charges


class Cluster:
    """This node's part in the cluster (the tables' `Directory`): its lease, the owners of
    matches, the takeovers, and the calls between nodes. Made before the tables it serves,
    which it is given at `start`."""

    def __init__(self, hub: Hub, store: Store, bus: RedisFanout) -> None:
        self.hub = hub
        self.bus = bus
        self.node = bus.node
        self.settings = hub.settings
        self.store = store
        self._tables: Tables | None = None
        self._lobby: Lobby | None = None
        self.log = logging.getLogger("carroca.server")
        self.owners: dict[str, str] = {}  # match -> owner node, as last heard
        self.leased = False  # whether this node may run matches now
        self._renewed = 0.0  # monotonic time a renewal that succeeded was sent
        self.taken_over = 0  # matches this node took from dead nodes
        self.given_up = 0  # matches this node stopped running (lease lost or fenced)
        self._forgotten: set[str] = set()  # nodes taken for dead
        # Told of each node taken for dead (its id), and of one back from the dead.
        self.on_dead: list[Callable[[str], None]] = []
        self.on_back: list[Callable[[], None]] = []
        self._next_forget = 0.0  # when to delete the rows of long-dead nodes again
        # The other nodes' searching tables, per player and address, with when they said it.
        self._charges: dict[str, tuple[float, Elsewhere]] = {}
        self._tell = asyncio.Event()
        # Told when this node stops running what it owns (its lease about to run out): the
        # services above the hub that own something too (the tournaments' events).
        self.lease_lost: list[Callable[[], None]] = []

    # ------------------------------------------------------------------ life cycle

    @property
    def tables(self) -> Tables:
        """The tables this node runs (given at `start`)."""
        assert self._tables is not None, "the cluster is not started"
        return self._tables

    @property
    def lobby(self) -> Lobby:
        assert self._lobby is not None, "the cluster is not started"
        return self._lobby

    async def start(self, name: str, tables: Tables, lobby: Lobby) -> None:
        """Take part: the lease, the calls of other nodes (about `tables`, seating through
        `lobby`), and the matches of dead nodes."""
        self._tables, self._lobby = tables, lobby
        self._renewed = time.monotonic()
        await self.store.register_node(self.node, name, self.settings.lease_seconds)
        self.leased = True
        bus = self.bus
        bus.handlers.update({
            "join": self._on_join, "move": self._on_move, "chat": self._on_chat,
            "invite": self._on_invite, "sit": self._on_sit, "rematch": self._on_rematch,
            "info": self._on_info, "privacy": self._on_privacy, "hold": self._on_hold,
            "resign": self._on_resign,
            "more_time": self._on_more_time,
        })
        bus.on_charges = self._heard_charges
        bus.on_interest = self._interest
        bus.on_reconnect = self._reconnected
        bus.on_owner = self._owner
        bus.on_hello = self._hello
        bus.on_gone = self._dead
        await bus.start()
        self.hub.spawn(self._lease_loop())
        self.hub.spawn(self._charges_loop())
        self.hub.spawn(self._watchdog())
        self.hub.spawn(self._takeover_loop())
        await self.take_over()

    async def stop(self) -> None:
        """After the hub closed its tables: the others may take them at once."""
        with contextlib.suppress(Exception):
            await self.store.end_lease(self.node)
        self.bus.broadcast({"k": "gone", "node": self.node})
        await asyncio.sleep(0.05)  # let the writer send it
        await self.bus.stop()

    # ------------------------------------------------------------------ bot budget

    def charges_elsewhere(self) -> Elsewhere:
        """What the other live nodes said their searching tables charge (`BotBudget`): said
        every `CHARGES_SECONDS` and at once on a change, so a count older than three of those
        is a node that stopped."""
        now = time.monotonic()
        players: dict[int, int] = {}
        addresses: dict[str, int] = {}
        for node, (heard, said) in list(self._charges.items()):
            if now - heard > 3 * CHARGES_SECONDS:
                del self._charges[node]
                continue
            for player, n in said.players.items():
                players[player] = players.get(player, 0) + n
            for address, n in said.addresses.items():
                addresses[address] = addresses.get(address, 0) + n
        return Elsewhere(players, addresses)

    def charges_changed(self) -> None:
        self._tell.set()

    def _heard_charges(self, node: str, msg: Charges) -> None:
        try:
            said = Elsewhere({int(p): int(n) for p, n in msg.get("p", {}).items()},
                             {str(a): int(n) for a, n in msg.get("a", {}).items()})
        except (TypeError, ValueError, AttributeError):
            return
        self._charges[node] = (time.monotonic(), said)

    async def _charges_loop(self) -> None:
        """Tell the others what this node's searching tables charge: at once when a table is
        admitted, and every `CHARGES_SECONDS` (so that an ended table stops counting, and a
        node that stops saying it is known to be gone)."""
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._tell.wait(), CHARGES_SECONDS)
            self._tell.clear()
            mine = tally(self.tables.bot_charges())
            self.bus.broadcast({"k": "charges", "p": {str(p): n for p, n in mine.players.items()},
                                "a": mine.addresses})

    # ------------------------------------------------------------------ lease

    async def _lease_loop(self) -> None:
        lease, every = self.settings.lease_seconds, self.settings.lease_renew_seconds
        while True:
            await asyncio.sleep(every)
            sent = time.monotonic()
            ok: bool | None
            try:
                ok = await self.store.renew_lease(self.node, lease)
            except Exception:  # the store logs the outage once
                ok = None
            if ok and self.leased:
                self._renewed = sent
                continue
            self._check_lease()
            if ok is None:
                continue
            # Renewed after this node stopped running its matches (False: too late, others may
            # have taken some): give back those it still owns, and take part again.
            with contextlib.suppress(Exception):
                await self.store.release_matches(self.node)
                if not ok:
                    await self.store.revive_node(self.node, self.hub.node_name(self.node),
                                                 lease)
                self._renewed = sent
                self.leased = True
                self.bus.announce()  # the others may have forgotten what our sockets follow
                self.log.warning("node %s takes part again", self.node)

    async def _watchdog(self) -> None:
        """Stops running matches when the lease is about to run out, even while a renewal
        hangs (a database that does not answer)."""
        while True:
            await asyncio.sleep(self.settings.lease_renew_seconds / 2)
            self._check_lease()

    def _check_lease(self) -> None:
        lease, every = self.settings.lease_seconds, self.settings.lease_renew_seconds
        if self.leased and time.monotonic() - self._renewed > lease - 2 * every:
            # The others may take our matches any moment now: stop running them first.
            self.leased = False
            self._give_up_all("lease not renewed in time")

    def _give_up_all(self, why: str) -> None:
        tables = list(self.tables)
        for table in tables:
            self.give_up(table)
        for hook in self.lease_lost:
            hook()
        self.log.error("%s: stopped running %d matches", why, len(tables))

    def give_up(self, table: Table) -> None:
        """Stop running a match here (another node has it, or will)."""
        self.tables.remove(table)
        self.owners.pop(table.id, None)
        self.given_up += 1

    # ------------------------------------------------------------------ takeover

    async def _takeover_loop(self) -> None:
        while True:
            await asyncio.sleep(self.settings.takeover_seconds)
            if not self.leased:
                continue
            try:
                await self.take_over()
                live = await self.store.live_nodes()
                if time.monotonic() >= self._next_forget:
                    self._next_forget = time.monotonic() + FORGET_EVERY
                    await self.store.forget_nodes(NODE_ROWS_KEPT)
            except Exception:  # the store logs the outage once
                continue
            for node in self.bus.nodes_heard() - live:
                self.bus.forget(node)
                self._dead(node)
            back = (self._forgotten & live) - {self.node}
            if back:  # a node we took for dead renewed its lease: what do its sockets follow?
                self._forgotten -= back
                self.bus.announce()
                for resync in self.on_back:
                    resync()

    def _dead(self, node: str) -> None:
        """A node stopped (its goodbye) or was taken for dead (its lease ran out): tell the
        listeners once."""
        if node and node != self.node and node not in self._forgotten:
            self._forgotten.add(node)
            for told in self.on_dead:
                told(node)

    async def take_over(self) -> int:
        """Claim and run the matches of dead nodes; returns how many."""
        count = 0
        while self.leased:
            started = time.monotonic()
            claimed = await self.store.claim_orphans(
                self.node, CLAIM_BATCH, grace=CLAIM_GRACE_SCANS * self.settings.takeover_seconds)
            for row, moves in claimed:
                try:
                    table = self.tables.adopt(row, moves)  # a stale copy here is closed
                except Exception:  # a log this version cannot replay: not ours to run
                    self.log.exception("match %s cannot be rebuilt from its log", row["id"])
                    continue
                self.owners[table.id] = self.node
                self.bus.broadcast({"k": "owner", "m": table.id})
                if table.status != "waiting" or table.seats:
                    table.publish()  # sockets on every node get the whole view again
            count += len(claimed)
            if claimed:
                self.log.warning("took over %d matches in %.2f s", len(claimed),
                                 time.monotonic() - started)
            if len(claimed) < CLAIM_BATCH:  # our part: the others take theirs meanwhile
                break
        self.taken_over += count
        return count

    # ------------------------------------------------------------------ hooks from the bus

    def _interest(self, channel: str) -> None:
        """Another node's sockets started or stopped following a seat: its player is back or
        gone, which the others see."""
        seat = seat_of_channel(channel)
        if seat is None or not self.leased:
            return
        table = self.tables.get(seat[0])
        if table is not None:
            self.hub.spawn(table.refresh())

    def _reconnected(self) -> None:
        if not self.leased:
            return
        for table in self.tables:
            if not table.closed:
                self.hub.spawn(table.refresh())

    def _hello(self, channels: list[str]) -> None:
        """A node (re)connected to Redis: its sockets get our matches' whole view again."""
        if not self.leased:
            return
        ids = {c.split(":")[1] for c in channels if c.startswith("t:") and c.count(":") == 2}
        for match_id in ids:
            table = self.tables.get(match_id)
            if table is not None:
                self.hub.spawn(table.refresh())

    def _owner(self, match_id: str, node: str) -> None:
        self.owners[match_id] = node
        table = self.tables.get(match_id)
        if table is not None and node != self.node:  # we were paused and it moved on
            self.give_up(table)

    # ------------------------------------------------------------------ calling the owner

    async def owner_of(self, match_id: str) -> str:
        """The node running a live match; ServerError 404 when it is not live (none, or over),
        503 `moving` while nobody runs it (between a node giving it back and a claim)."""
        owner = self.owners.get(match_id)
        if owner is not None:
            return owner
        found = await self.store.owner_of(match_id)
        if found is None or found[1] not in ("waiting", "playing"):
            raise MatchGone()
        if found[0] is None:
            raise TableMoving()
        if len(self.owners) > OWNERS_KEPT:  # a cache: lookups are cheap to make again
            self.owners.clear()
        self.owners[match_id] = found[0]
        return found[0]

    def owner_heard(self, match_id: str) -> str | None:
        return self.owners.get(match_id)

    async def call_owner(self, match_id: str, method: Method, args: TableCall) -> Any:
        """Run `method` on the match's owner node. Raises ServerError: the owner's own, 404
        when the match is not live, 503 `moving` while it changes nodes. A call that got no
        answer is made once more only when making it twice is harmless (not `chat`)."""
        for attempt in range(2):
            try:
                owner = await self.owner_of(match_id)
            except ServerError:
                raise
            except Exception:
                raise OwnerUnknown() from None
            if owner == self.node:  # ours, but not running here (given up, or taken back)
                self.owners.pop(match_id, None)
                raise TableMoving()
            try:
                return await self.bus.call(owner, method, {**args, "match": match_id})
            except RemoteError as exc:
                if exc.data.get("code") != "not_owner":
                    raise ServerError.from_description(exc.data) from None
            except CallFailed:
                if method == "chat" or attempt:
                    self.owners.pop(match_id, None)
                    raise TableMoving() from None
            self.owners.pop(match_id, None)
        raise TableMoving()

    async def call(self, node: str, match_id: str, method: Method, args: TableCall) -> Any:
        """One call to a given node about a match (a finished one's owner, say)."""
        return await self.call_node(node, method, {**args, "match": match_id})

    async def call_node(self, node: str, method: str, args: Mapping[str, object]) -> Any:
        """One call to a given node: its answer, or its ServerError (503 `moving` when it did
        not answer)."""
        try:
            return await self.bus.call(node, method, args)
        except RemoteError as exc:
            raise ServerError.from_description(exc.data) from None
        except CallFailed:
            raise TableMoving() from None

    # ------------------------------------------------------------------ answering as owner

    def _table(self, args: TableCall) -> Table:
        table = self.tables.get(str(args.get("match")))
        if table is None:
            raise NotOwner
        return table

    async def _on_join(self, args: JoinCall) -> JoinAnswer:
        table = self._table(args)
        seed = args.get("client_seed")
        joined = await table.join(int(args["player"]), str(seed) if seed else None)
        return {"seat": joined.seat, "mode": joined.mode, "frame": joined.frame}

    async def _on_move(self, args: MoveCall) -> str:
        table = self._table(args)
        version = args.get("version")
        return await table.move(int(args["seat"]), int(args["id"]), str(args["action"]),
                                None if version is None else int(version))

    async def _on_privacy(self, args: PrivacyCall) -> None:
        """The host changed who may see a match another node was asked about: its live end
        here (who may join it) follows the row."""
        table = self.tables.get(str(args["match"]))
        if table is not None:
            table.set_private(bool(args["private"]))

    async def _on_chat(self, args: ChatCall) -> str | None:
        table = self._table(args)
        return table.chat(int(args["seat"]), int(args["player"]), str(args["text"]))

    async def _on_resign(self, args: ResignCall) -> str | None:
        return await self._table(args).resign(int(args["seat"]))

    async def _on_hold(self, args: HoldCall) -> None:
        table = self._table(args)
        on = args.get("on")
        if on is None:
            await table.ready(int(args["seat"]))
        else:
            await table.hold(int(args["seat"]), bool(on))

    async def _on_more_time(self, args: MoreTimeCall) -> None:
        await self._table(args).more_time(int(args["seat"]), bool(args["on"]))

    async def _on_invite(self, args: InviteCall) -> InviteAnswer:
        self._table(args)
        table, seat = await self.lobby.join_invite(args["player"], str(args["invite"]),
                                                 args.get("client_seed"), local=True)
        return {"id": table.id, "seat": seat, "commitment": table.commitment}

    async def _on_sit(self, args: SitCall) -> int | None:
        table = self._table(args)
        return await self.lobby.sit_casual(table, args["player"], args.get("client_seed"))

    async def _on_rematch(self, args: RematchCall) -> SeatAnswer:
        table = self._table(args)
        return await self.lobby.rematch(table, args["player"], args.get("client_seed"),
                                        args.get("address"))

    async def _on_info(self, args: InfoCall) -> LiveInfo:
        table = self._table(args)
        return table.info()


def seat_of_channel(channel: str) -> tuple[str, int] | None:
    """(match, seat) of a seat channel (`fanout.seat_channel`)."""
    parts = channel.split(":")
    if len(parts) == 3 and parts[0] == "t" and parts[2].isdigit():
        return parts[1], int(parts[2])
    return None

