"""One player's WebSocket: the reader loop, a bounded outgoing queue and the table it follows.

A socket sends the table it follows commands (`Table.join`, `move`, `chat`, `refresh`) when
this node runs it, and the same to the node that runs it otherwise (`Tables.call_owner`)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from starlette.websockets import WebSocket, WebSocketDisconnect

from carroca.server import metrics, records
from carroca.server.errors import (
    EventNotFound,
    MatchGone,
    NotJoined,
    NotSeatedToChat,
    NotSeatedToHold,
    NotSeatedToMove,
    ServerError,
    ServerFault,
)
from carroca.server.moderation.service import Moderation
from carroca.server.realtime import protocol, wire
from carroca.server.realtime.announcements import Announcements
from carroca.server.realtime.fanout import (
    Fanout,
    chat_channel,
    event_channel,
    player_channel,
    seat_channel,
)
from carroca.server.realtime.presence import Presence
from carroca.server.realtime.sessions import Sessions
from carroca.server.records import seated_player
from carroca.server.tables.calls import (
    ChatCall,
    HoldCall,
    JoinAnswer,
    JoinCall,
    MoreTimeCall,
    MoveCall,
)
from carroca.server.tables.chat import Blocks, Mutes, said_by
from carroca.server.tables.hub import Hub
from carroca.server.tables.registry import Tables
from carroca.server.tables.table import Table
from carroca.server.tournaments.service import Tournaments

MAX_QUEUE = 256  # frames waiting for a slow client; beyond that it is dropped (it may reconnect)
MAX_HELD = 64  # an event's changes held while its whole view is on its way (`watch`)
MAX_INBOX = 128  # a client's messages waiting to be handled; beyond that it is closed (1008)
# Frames a client may send: a burst, refilled at a rate (settings `socket_frame_burst` and
# `socket_frames_per_second`: a person plays a few a second at most); beyond that the socket is
# closed with 1008 (policy violation).
CLOSE_FLOODING = 1008
CLOSE_UNAUTHENTICATED = 4401
CLOSE_TOO_SLOW = 4408


class FrameWriter(Protocol):
    """The server's WebSocket protocol, written to directly (`guard.py`'s `write_frames`), and
    read from directly: once `reader` is set, each text message is handed to it as it arrives
    (not through ASGI's queue, and without pausing the socket's reads for each)."""

    reader: Callable[[str], None] | None

    def write_frames(self, texts: list[str]) -> bool: ...


@dataclass(frozen=True, slots=True)
class Services:
    """What the sockets of this node use, wired once (the app's lifespan)."""

    hub: Hub
    tables: Tables
    fanout: Fanout
    mutes: Mutes
    sessions: Sessions
    announcements: Announcements | None = None
    events: Tournaments | None = None
    presence: Presence | None = None
    moderation: Moderation | None = None  # mutes and the word filter on chat
    blocks: Blocks | None = None  # whom each player blocked: their lines are dropped


class Connection:
    # Slots: one of these lives as long as each open socket (a dict would add ~0.3 KiB).
    __slots__ = ("_budget", "_direct", "_flush_queued", "_inbox", "_out", "_reader", "_reading",
                 "_refilled", "_writer", "blocks_read", "chat_on", "chat_sink", "closed",
                 "event_held", "event_id", "event_sink", "hub", "match_id", "mode", "on", "player",
                 "seat", "sink", "ws")

    def __init__(self, ws: WebSocket, player: records.Player, on: Services,
                 writer: FrameWriter | None = None) -> None:
        self.ws = ws
        self.player = player
        self.on = on
        self.hub = on.hub if on is not None else None
        # Frames waiting to be written. They go out together at the end of the loop's turn
        # (a move's ack and its state in one write), straight to the socket's protocol when
        # there is one (`writer`) and it can take them now; otherwise through ASGI's `send`, by
        # a task that runs only while some wait: most sockets are idle most of the time, and
        # an idle socket's memory is most of the server's (a parked task costs ~2 KiB).
        self._out: list[str] = []
        self._direct = writer
        self._flush_queued = False
        self._writer: asyncio.Task[None] | None = None
        # The match followed, by id: the table may be run here or by another node, and may
        # move between nodes while the socket stays open.
        self.match_id: str | None = None
        self.seat: int | None = None
        self.mode: str | None = None  # the followed table's (friends see a public one)
        self.chat_on = False
        self.blocks_read = False  # whom the player blocked, read at the first join
        self.closed = False
        # A client's messages, handled in order by a task that runs only while some wait
        # (`received`), with the frame budget of `socket_frames_per_second`.
        self._inbox: list[str] = []  # a list: an empty deque costs ~0.6 KiB a socket
        self._reader: asyncio.Task[None] | None = None
        self._reading = False
        self._budget = float(on.hub.settings.socket_frame_burst) if on is not None else 0.0
        self._refilled = time.monotonic()
        # The event watched (`watch`), and its changes held until its whole view is sent.
        self.event_id: str | None = None
        self.event_held: list[str] | None = None
        # Bound once: the fan-out matches sinks by identity when unsubscribing.
        self.sink = self.send
        self.chat_sink = self._chat
        self.event_sink = self._event

    @property
    def table(self) -> Table | None:
        """The followed table when this node runs it."""
        return None if self.match_id is None else self.on.tables.get(self.match_id)

    def send(self, payload: str) -> None:
        if self.closed:
            return
        if len(self._out) >= MAX_QUEUE:
            self.closed = True
            self.hub.spawn(self._close(CLOSE_TOO_SLOW))
            return
        self._out.append(payload)
        if self._writer is None and not self._flush_queued:
            self._flush_queued = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._flush_queued = False
        out = self._out
        if not out or self._writer is not None:  # a writing task sends them in turn
            return
        if self._direct is not None and self._direct.write_frames(out):
            out.clear()
            return
        self._writer = asyncio.get_running_loop().create_task(self._write())

    def _chat(self, payload: str) -> None:
        sender, frame = said_by(payload)
        blocked = self.on.blocks.of(self.player["id"]) if self.on.blocks is not None else None
        if blocked and sender in blocked:
            return
        muted = self.on.mutes.of(self.match_id or "", self.player["id"])
        if muted and json.loads(frame)["data"]["seat"] in muted:
            return
        self.send(frame)

    def _event(self, payload: str) -> None:
        held = self.event_held
        if held is None:
            self.send(payload)
        elif len(held) < MAX_HELD:  # beyond: the page sees a version gap and asks again
            held.append(payload)

    def _presence_changed(self) -> None:
        presence = self.on.presence if self.on is not None else None
        if presence is not None:
            presence.changed(self.player["id"])

    async def _close(self, code: int) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close(code)

    def end_session(self) -> None:
        """The player logged out: this socket no longer speaks for them."""
        if not self.closed:
            self.closed = True
            self.hub.spawn(self._close(CLOSE_UNAUTHENTICATED))

    async def _write(self) -> None:
        """Write the waiting frames in order, then end (`send` starts it again). A sent frame
        is not kept: a frame is a few KiB, and sockets wait for the next one for seconds."""
        out = self._out
        try:
            while out:
                await self.ws.send_text(out.pop(0))
        except Exception:
            self.closed = True
            out.clear()
        finally:
            self._writer = None

    async def drain(self, timeout: float) -> None:
        """Let the frames already waiting go out, for at most `timeout` seconds."""
        if self._flush_queued:
            self._flush()
        if self._writer is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._writer, timeout)

    # ------------------------------------------------------------------ following a table

    def attach(self, match_id: str, seat: int | None, mode: str) -> None:
        self.detach()
        self.match_id, self.seat, self.mode = match_id, seat, mode
        self._presence_changed()
        fanout = self.on.fanout
        fanout.subscribe(seat_channel(match_id, seat), self.sink)
        self.chat_on = mode in ("casual", "friends")
        if self.chat_on:
            fanout.subscribe(chat_channel(match_id), self.chat_sink)

    def detach(self) -> None:
        match_id = self.match_id
        if match_id is None:
            return
        fanout = self.on.fanout
        channel = seat_channel(match_id, self.seat)
        fanout.unsubscribe(channel, self.sink)
        if self.chat_on:
            fanout.unsubscribe(chat_channel(match_id), self.chat_sink)
        table = self.table
        if table is not None and self.seat is not None and not fanout.listening(channel):
            self.hub.spawn(table.refresh())  # the others see the seat go quiet
        self.match_id, self.seat, self.chat_on, self.mode = None, None, False, None
        self._presence_changed()

    # ------------------------------------------------------------------ watching an event

    async def watch(self, event_id: str, code: str | None) -> None:
        """Follow an event's channel: its whole view first (as this player may see it: a
        private event's refusal is the API's 404), then each change. The channel is followed
        (in Redis too) before the view is asked for, and what it brings meanwhile is held and
        sent after the view, so no change falls between the two; nothing of a refused event
        reaches the socket."""
        events = self.on.events
        if events is None:  # no tournaments on this server
            self.send(protocol.refusal(EventNotFound()))
            return
        self.unwatch()
        channel = event_channel(event_id)
        self.event_id, self.event_held = event_id, []
        self._presence_changed()
        fanout = self.on.fanout
        fanout.subscribe(channel, self.event_sink)
        settled = getattr(fanout, "settled", None)
        try:
            if settled is not None:
                await settled(channel)
            view, version = await events.watched(self.player, event_id, code)
        except ServerError as exc:
            if self.event_id == event_id:
                self.unwatch()
            self.send(protocol.refusal(exc))
            return
        if self.event_id != event_id:  # another watch (or unwatch) came meanwhile
            return
        held, self.event_held = self.event_held or [], None
        self.send(wire.frame(wire.EventView(event=event_id, version=version, view=view)))
        for payload in held:
            self.send(payload)

    def unwatch(self) -> None:
        if self.event_id is not None:
            self.on.fanout.unsubscribe(event_channel(self.event_id), self.event_sink)
            self.event_id = None
            self._presence_changed()
        self.event_held = None

    # ------------------------------------------------------------------ messages

    def received(self, text: str) -> None:
        """A text message from the client, as the protocol reads it: handled in turn."""
        if self.closed:
            return
        if len(self._inbox) >= MAX_INBOX:
            self._stop(CLOSE_FLOODING)
            return
        self._inbox.append(text)
        if self._reading and self._reader is None:
            self._reader = asyncio.get_running_loop().create_task(self._read())

    def start_reading(self) -> None:
        """Handle messages from now on (the socket is set up: its hello went first)."""
        self._reading = True
        if self._inbox and self._reader is None:
            self._reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        try:
            while self._inbox and not self.closed:
                code = await self.take(self._inbox.pop(0))
                if code is not None:
                    self._stop(code)
        finally:
            self._reader = None

    async def stop_reading(self) -> None:
        """The socket is gone: the message being handled finishes, the others are dropped."""
        self._inbox.clear()
        if self._reader is not None:
            with contextlib.suppress(Exception):
                await self._reader

    def _stop(self, code: int) -> None:
        self.closed = True
        self._inbox.clear()
        self.hub.spawn(self._close(code))

    async def take(self, text: str) -> int | None:
        """One text message: within the frame budget and size, parsed, then handled. Returns
        the code to close the socket with when it must be (flooding, too large)."""
        settings = self.hub.settings
        rate = settings.socket_frames_per_second
        if rate:
            now = time.monotonic()
            self._budget = min(float(settings.socket_frame_burst),
                               self._budget + (now - self._refilled) * rate) - 1
            self._refilled = now
            if self._budget < 0:
                metrics.refused("socket_frames")
                return CLOSE_FLOODING
        if len(text) > protocol.MAX_FRAME or len(text.encode()) > protocol.MAX_FRAME:
            return 1009
        try:
            parsed = protocol.parse(text)
        except protocol.ProtocolError as exc:
            self.send(protocol.refusal(exc))
            return None
        try:
            await self.handle(parsed)
        except Exception:  # a server fault: say so, keep the socket, keep the logs
            self.hub.log.exception("error handling %s from %s", parsed.type, self.player["name"],
                                   extra={"player": self.player["id"], "match": self.match_id})
            self.send(protocol.refusal(ServerFault()))
        return None

    async def handle(self, msg: protocol.Message) -> None:
        if isinstance(msg, protocol.Ping):
            self.send(wire.frame(wire.Pong()))
        elif isinstance(msg, protocol.Join):
            await self._join(msg.data)
        elif isinstance(msg, protocol.Leave):
            self.detach()
            self.send(wire.frame(wire.Left()))
        elif isinstance(msg, protocol.Move):
            match_id, seat = self.match_id, self.seat
            if match_id is None or seat is None:
                self.send(protocol.refusal(NotSeatedToMove(), msg.data.id))
                return
            self.send(await play(self.on, match_id, seat, msg.data.id, msg.data.action,
                                 msg.data.version))
        elif isinstance(msg, protocol.Chat):
            match_id, seat = self.match_id, self.seat
            if match_id is None or seat is None:
                self.send(protocol.refusal(NotSeatedToChat()))
                return
            refused = await say(self.on, self.player, match_id, seat, msg.data.text)
            if refused:
                self.send(refused)
        elif isinstance(msg, protocol.Hold | protocol.Ready):
            await self._hold(msg)
        elif isinstance(msg, protocol.MoreTime):
            await self._more_time(msg)
        elif isinstance(msg, protocol.Watch):
            await self.watch(msg.data.event, msg.data.code)
        elif isinstance(msg, protocol.Unwatch):
            self.unwatch()
        elif isinstance(msg, protocol.Mute):
            if self.match_id is None:
                self.send(protocol.refusal(NotJoined()))
                return
            # Kept per player and match, so a reload or a second tab keeps it.
            seats = self.on.mutes.set(self.match_id, self.player["id"], msg.data.seat,
                                      msg.data.muted)
            self.send(wire.frame(wire.Muted(seats=seats)))

    async def _hold(self, msg: protocol.Hold | protocol.Ready) -> None:
        """Waiting at each hand's end for this seat (`hold`), or no longer this time (`ready`):
        on this node or on the table's owner."""
        match_id, seat = self.match_id, self.seat
        if match_id is None or seat is None or match_id != msg.data.match:
            self.send(protocol.refusal(NotSeatedToHold()))
            return
        on = msg.data.on if isinstance(msg, protocol.Hold) else None
        table = self.table
        try:
            if table is None:
                await self.on.tables.call_owner(match_id, "hold", HoldCall(seat=seat, on=on))
            elif on is None:
                await table.ready(seat)
            else:
                await table.hold(seat, on)
        except ServerError as exc:
            self.send(protocol.refusal(exc))

    async def follow(self, match_id: str) -> None:
        """Follow a table as a `join` message would (the Bot API's game stream)."""
        await self._join(protocol.JoinData(match=match_id))

    async def _more_time(self, msg: protocol.MoreTime) -> None:
        """Twice the table's time on this seat's turns, or no longer ("mais tempo"): on this
        node or on the table's owner; refused (`no_more_time`) where the table does not allow
        it."""
        match_id, seat = self.match_id, self.seat
        if match_id is None or seat is None or match_id != msg.data.match:
            self.send(protocol.refusal(NotSeatedToHold()))
            return
        table = self.table
        try:
            if table is None:
                await self.on.tables.call_owner(match_id, "more_time",
                                                MoreTimeCall(seat=seat, on=msg.data.on))
            else:
                await table.more_time(seat, msg.data.on)
        except ServerError as exc:
            self.send(protocol.refusal(exc))

    async def _join(self, data: protocol.JoinData) -> None:
        if self.on.blocks is not None and not self.blocks_read:
            self.blocks_read = True  # then kept current by the blocks' own listeners
            await self.on.blocks.load(self.player["id"])
        table = self.on.tables.get(data.match)
        if table is None:
            await self._join_elsewhere(data)
            return

        def follow(seat: int | None) -> None:
            if self.match_id != table.id or self.seat != seat:
                self.attach(table.id, seat, table.mode)

        try:
            joined = await table.join(self.player["id"], data.client_seed, follow,
                                      watching=self.match_id == table.id)
        except ServerError as exc:  # gone for a stranger, or another node runs it now
            self.send(protocol.refusal(exc))
            return
        if joined.frame is not None:
            self.send(joined.frame)

    async def _join_elsewhere(self, data: protocol.JoinData) -> None:
        """Follow a match another node runs: its frames reach this socket through Redis. The
        socket follows the channel (subscribed in Redis, the owner told) before it asks the
        owner for the view, so no frame falls between the two."""
        tables = self.on.tables
        seating = await tables.seating(data.match)
        if seating is None or seating["status"] not in ("waiting", "playing"):
            self.send(protocol.refusal(MatchGone()))
            return
        seat = next((i for i, s in enumerate(seating["seats"])
                     if seated_player(s) == self.player["id"]), None)
        if self.match_id != data.match or self.seat != seat:
            self.attach(data.match, seat, seating["mode"])
        settled = getattr(self.on.fanout, "settled", None)
        if settled is not None:
            await settled(seat_channel(data.match, seat))
        try:
            joined: JoinAnswer = await tables.call_owner(data.match, "join", JoinCall(
                player=self.player["id"], client_seed=data.client_seed))
        except ServerError as exc:  # `moving`: frames come when a node runs it again
            self.send(protocol.refusal(exc))
            return
        if joined["frame"] is not None:  # always, for a join without a socket there
            self.send(joined["frame"])
        owner = tables.owner_heard(data.match)
        if owner is not None:  # a front that routes `/ws?node=` can put the socket there
            self.send(wire.frame(wire.Owner(match=data.match, node=Hub.node_name(owner))))


async def play(on: Services, match_id: str, seat: int, move_id: int, action: str,
               version: int | None) -> str:
    """A seated player's move, on this node or on the table's owner: the ack or error frame
    (a socket's `move`, the Bot API's move call)."""
    began = time.perf_counter()
    table = on.tables.get(match_id)
    try:
        if table is not None:
            return await table.move(seat, move_id, action, version)
        answer: str = await on.tables.call_owner(match_id, "move", MoveCall(
            seat=seat, id=move_id, action=action, version=version))
        return answer
    except ServerError as exc:
        return protocol.refusal(exc, move_id)
    finally:
        metrics.move_answered(time.perf_counter() - began)


async def say(on: Services, player: records.Player, match_id: str, seat: int, written: str
              ) -> str | None:
    """A seated player's chat line, on this node or on the table's owner: the refusal's frame,
    or None once said (a socket's `chat`, the Bot API's chat call). A muted player is refused
    and offensive words are masked (moderation); the line is kept for reports."""
    text, moderation = written, on.moderation
    if moderation is not None:
        refused, text = moderation.chat_gate(player["id"], text)
        if refused:
            return refused
    table = on.tables.get(match_id)
    try:
        refused = table.chat(seat, player["id"], text) if table is not None \
            else await on.tables.call_owner(match_id, "chat",
                                            ChatCall(seat=seat, player=player["id"], text=text))
    except ServerError as exc:
        refused = protocol.refusal(exc)
    if not refused and moderation is not None:  # kept for reports, off the moves' path
        moderation.keep_line(match_id, seat, player, written, text)
    return refused


#: What Starlette's WebSocket parses from its scope when asked, and keeps (made again if asked).
HANDSHAKE_CACHES = ("_headers", "_url", "_query_params", "_cookies")


def forget_handshake(ws: WebSocket) -> None:
    """Let the handshake's headers go once it is answered: what the socket needs of them (its
    origin, its session's token or cookie) was read before, and the scope, with what Starlette
    parsed from it (the URL, the query, the cookies), lives as long as the socket: ~3 KiB each."""
    headers = ws.scope.get("headers")
    if isinstance(headers, list):
        headers.clear()
    kept = vars(ws)
    for name in HANDSHAKE_CACHES:
        kept.pop(name, None)


async def serve_socket(
    ws: WebSocket, player: records.Player | None, on: Services, session: str | None = None,
    writer: FrameWriter | None = None,
) -> None:
    if player is None:
        await ws.accept()
        await ws.close(CLOSE_UNAUTHENTICATED, "login required")
        return
    conn = Connection(ws, player, on, writer)
    hub, sessions, fanout = on.hub, on.sessions, on.fanout
    if writer is not None:  # before the handshake's end: no message can come before it
        writer.reader = conn.received  # text messages straight from the protocol
    await ws.accept()
    forget_handshake(ws)
    if session is not None:
        sessions.opened(session, conn)
    pchannel = player_channel(player["id"])
    fanout.subscribe(pchannel, conn.sink)
    conn.send(wire.frame(wire.Hello(
        player=wire.Player(id=player["id"], name=player["name"], kind=player["kind"]),
        node=Hub.node_name(hub.node) if hub.node else None)))
    announcement = on.announcements.frame if on.announcements is not None else None
    if announcement is not None:
        conn.send(announcement)
    if on.presence is not None:  # their friends' presence, and theirs to their friends
        on.presence.opened(conn)
    if on.events is not None:  # the player's event games waiting for them, told again
        for greeting in on.events.games_waiting(player["id"]):
            conn.send(greeting)
    conn.start_reading()
    try:
        while not conn.closed:
            msg = await ws.receive()  # with a reader: only the end, or a binary frame
            if msg["type"] == "websocket.disconnect":
                break
            text = msg.get("text")
            if text is None:
                await conn._close(1003)  # binary frames are not part of the protocol
                break
            code = await conn.take(text)
            if code is not None:
                await conn._close(code)
                break
    except WebSocketDisconnect:
        pass
    finally:
        conn.closed = True
        if writer is not None:
            writer.reader = None
        await conn.stop_reading()
        if session is not None:
            sessions.closed(session, conn)
        fanout.unsubscribe(pchannel, conn.sink)
        conn.detach()
        conn.unwatch()
        if on.presence is not None:
            on.presence.closed(conn)
            if on.blocks is not None and conn.player["id"] not in on.presence.local:
                on.blocks.drop(conn.player["id"])  # their last socket here
        await conn.drain(1.0)
