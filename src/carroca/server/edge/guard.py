"""Connection and request limits that hold without a proxy in front.

uvicorn closes idle keep-alive connections, but it gives a client all the time it wants to send a
request's headers and has no cap per address, so a few hundred half-open connections (slowloris)
exhaust the process's file descriptors. The guard wraps uvicorn's HTTP and WebSocket protocols:

- at most `max_connections_per_ip` open connections per client address (HTTP and WebSocket
  alike; an upgraded connection stays counted until it closes); one more gets 429 and is closed;
- a request's headers must arrive within `header_timeout` seconds (408) and fit in
  `MAX_HEADER_BYTES` (431), counted from the request's first byte, or from the connection's
  start for its first request, so a connection that never says anything is closed too.

`BodyLimit` is an ASGI middleware: a body over `max_body_bytes` (by `Content-Length` or counted as
it streams) gets 413, a body that stalls for `body_timeout` seconds gets 408, both in the JSON
error shape of every other error.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import math
from collections.abc import Awaitable, Callable, MutableMapping
from http import HTTPStatus
from typing import Any

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
from websockets.protocol import Protocol, State
from websockets.server import ServerProtocol
from websockets.streams import StreamReader

try:  # websockets' C extension, as its frames use where it is built
    from websockets.speedups import apply_mask
except ImportError:  # an install without it (no compiler, an unusual platform)
    from websockets.utils import apply_mask

from carroca.server import metrics
from carroca.server.edge.lean import LeanEvent, LeanQueue, Shared
from carroca.server.errors import (
    BodyTimeout,
    BodyTooLarge,
    HeadersTimeout,
    HeadersTooLarge,
    RateLimited,
    ServerError,
    TooManyConnections,
)
from carroca.server.settings import Settings

MAX_HEADER_BYTES = 32 * 1024  # request line and headers; browsers send well under 8 KiB
WS_MAX_BYTES = 64 * 1024

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def error_body(code: str, message: str) -> bytes:
    return json.dumps({"error": {"code": code, "message": message}},
                      ensure_ascii=False).encode()


def raw_response(refused: ServerError) -> bytes:
    """A whole HTTP/1.1 answer written straight to the socket, before any request exists."""
    body = error_body(refused.code, refused.message)
    head = [f"HTTP/1.1 {refused.status} {HTTPStatus(refused.status).phrase}",
            "content-type: application/json; charset=utf-8",
            f"content-length: {len(body)}", "connection: close"]
    if isinstance(refused, RateLimited):
        head.append(f"retry-after: {refused.retry_after}")
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


TOO_MANY = raw_response(TooManyConnections())
HEADERS_TIMEOUT = raw_response(HeadersTimeout())
#: After refusing a request whose bytes are still coming: how long, and how much, to read and
#: drop before closing the connection.
LINGER_SECONDS = 2.0
LINGER_BYTES = 1 << 20
HEADERS_TOO_LARGE = raw_response(HeadersTooLarge())


def address_key(host: str) -> str:
    """What limits count per address: an IPv4 address (IPv4-mapped IPv6 ones as IPv4), or an
    IPv6 address's /64 network, which one home or phone usually holds whole."""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class ConnectionGuard:
    """Open connections per client address, shared by the HTTP and WebSocket protocols.

    Connections from trusted proxies are not counted: behind a proxy every connection comes from
    it, so the proxy must cap connections per address itself (docs/server.md)."""

    def __init__(self, per_ip: int, header_timeout: float, trusted: frozenset[str] = frozenset()
                 ) -> None:
        self.per_ip = per_ip
        self.header_timeout = header_timeout
        self.trusted = trusted
        self.open: dict[str, int] = {}
        self._members: dict[int, str] = {}  # id(transport) -> address
        self.refused = 0
        self.timed_out = 0

    def admit(self, transport: asyncio.BaseTransport) -> bool:
        peer = transport.get_extra_info("peername")
        host = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        if host in self.trusted:
            return True
        ip = address_key(host)
        count = self.open.get(ip, 0)
        if self.per_ip and count >= self.per_ip:
            self.refused += 1
            return False
        self.open[ip] = count + 1
        self._members[id(transport)] = ip
        return True

    def release(self, transport: asyncio.BaseTransport | None) -> None:
        ip = self._members.pop(id(transport), None) if transport is not None else None
        if ip is None:
            return
        left = self.open.get(ip, 1) - 1
        if left > 0:
            self.open[ip] = left
        else:
            self.open.pop(ip, None)


#: permessage-deflate (`ws_compression`): `message` compresses each message on its own, so an
#: open socket keeps no zlib state (~48 KiB each with `context`, which carries the compressor's
#: window from one message to the next and compresses repeated states several times better).
WS_COMPRESSION = ("message", "context", "off")


#: What uvicorn's WebSocket protocol sets in `__init__` to the same object for every socket of
#: a server.
UVICORN_SHARED = ("config", "app", "loop", "logger", "root_path", "asgi_version", "app_state",
                  "connections", "tasks", "default_headers", "close_timeout", "ping_interval",
                  "ping_timeout")


def guarded_protocols(guard: ConnectionGuard, compression: str = "message"
                      ) -> tuple[type[asyncio.Protocol], type[asyncio.Protocol]]:
    """uvicorn's httptools and sans-I/O WebSocket protocols, with the guard's limits."""
    if compression not in WS_COMPRESSION:
        raise ValueError(f"ws_compression: one of {', '.join(WS_COMPRESSION)}, "
                         f"not {compression!r}")

    class GuardedHttp(HttpToolsProtocol):
        _header_timer: asyncio.TimerHandle | None = None
        _header_bytes = 0
        _admitted = False
        _lingering = 0  # 1 + bytes dropped since a refused request's answer (0: none refused)

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if not guard.admit(transport):
                transport.write(TOO_MANY)
                transport.close()
                return
            self._admitted = True
            self._arm()

        def _arm(self) -> None:
            if self._header_timer is None:
                self._header_bytes = 0
                self._header_timer = self.loop.call_later(guard.header_timeout, self._too_slow)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _too_slow(self) -> None:
            self._header_timer = None
            if not self.transport.is_closing():
                guard.timed_out += 1
                self.transport.write(HEADERS_TIMEOUT)
                self.transport.close()

        def _refuse_and_linger(self, answer: bytes) -> None:
            """Answer, then read and drop what the client still sends for a moment before
            closing (a "lingering close", as nginx does): closing with its bytes unread would
            reset the connection, and a reset can throw away the answer before the client
            reads it."""
            self._disarm()
            self.transport.write(answer)
            self._lingering = 1  # no half-close (`write_eof`): a response still being sent
            self.loop.call_later(LINGER_SECONDS, self.transport.close)

        def data_received(self, data: bytes) -> None:
            if not self._admitted:
                return
            if self._lingering:
                self._lingering += len(data)
                if self._lingering > LINGER_BYTES:
                    self.transport.close()
                return
            if self._header_timer is not None:  # in a request's headers: counted before the
                end = data.find(b"\r\n\r\n")  # parser reads them (all may come in one write)
                self._header_bytes += len(data) if end < 0 else end + 4
                if self._header_bytes > MAX_HEADER_BYTES:
                    if not self.transport.is_closing():
                        self._refuse_and_linger(HEADERS_TOO_LARGE)
                    return
            super().data_received(data)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._arm()

        def on_headers_complete(self) -> None:
            self._disarm()
            super().on_headers_complete()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            # The next request's headers are due from now: bytes that start no request (a bare
            # CRLF cancels uvicorn's keep-alive timer) must not keep the connection forever.
            if not self.transport.is_closing():
                self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            guard.release(self.transport)
            super().connection_lost(exc)

        def handle_websocket_upgrade(self) -> None:
            super().handle_websocket_upgrade()
            # The connection is the WebSocket protocol's now. This HTTP protocol and its parser
            # refer to each other: without the parser it is freed at once, instead of waiting for
            # a collection, which the server's tuned collector (`app.py`) may put off for as
            # long as the socket lives (~4 KiB each, half the sockets or more).
            self.parser = None  # type: ignore[assignment]

    class GuardedWebSocket(WebSocketsSansIOProtocol):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            # Set by the tables' socket handler (`carroca.server.routes.connection.FrameWriter`):
            # text messages go to it as they arrive, not through ASGI's queue (which pauses
            # the socket's reads until the app asks for the next message: two system calls a
            # message). The handler bounds what waits, by count and by rate.
            self.reader: Callable[[str], None] | None = None
            # Kept as long as the socket, and holding a handful of items at most: without the
            # empty deques of asyncio's own (`lean.py`).
            self.queue = LeanQueue()
            self.writable = LeanEvent()
            self.writable.set()
            if compression == "message" and self.config.ws_per_message_deflate:
                # uvicorn's own offer (12-bit windows, memLevel 5), without context takeover
                # either way: the compressor and decompressor live for one message only. Set
                # on uvicorn's protocol object rather than a new one: the protocol refers to
                # itself through its parser, so one put aside lived on, as a cycle, until the
                # next full collection (every few minutes, `app.py`), ~2 KiB for each socket.
                self.conn.available_extensions = [ServerPerMessageDeflateFactory(
                    server_no_context_takeover=True, client_no_context_takeover=True,
                    server_max_window_bits=12, client_max_window_bits=12,
                    compress_settings={"memLevel": 5})]

        def connection_lost(self, exc: Exception | None) -> None:
            guard.release(self.transport)  # admitted as HTTP before the upgrade
            super().connection_lost(exc)

        #: When bytes last came from the client (a pong among them), on the loop's clock.
        heard_at = 0.0

        def send_keepalive_ping(self) -> None:
            """A ping only to a client that said nothing for a whole interval: one that spoke
            is there (its route's mappings fresh), and a ping (a write, two timers, the pong's
            read) cost a socket as much as a third of a move. The interval counts from the
            client's last bytes: a client that spoke since is pinged an interval after it
            spoke, unless it speaks again. So an idle client that answers each ping is pinged
            an interval after its pong, and a peer gone silent is pinged an interval after its
            last bytes and dropped after the ping's timeout: at most an interval and a timeout
            (90 s) after it was last heard, as uvicorn's own pings."""
            if not (self.close_sent or self.transport.is_closing()):
                assert self.ping_interval is not None  # no timer without it
                wait = self.heard_at + self.ping_interval - self.loop.time()
                if wait > 0:
                    self.ping_timer = self.loop.call_later(wait, self.send_keepalive_ping)
                    return
            super().send_keepalive_ping()

        def data_received(self, data: bytes) -> None:
            self.heard_at = self.loop.time()
            reader = self.reader
            if reader is not None and not self.close_sent:
                taken, texts = small_texts(self.conn, data)
                if taken:
                    rest = taken < len(data)
                    if rest:  # the parser's, before the texts go: as uvicorn's own reading,
                        conn = self.conn  # no message of a read whose frames fail is handed on
                        conn.receive_data(data[taken:])
                        if conn.parser_exc is not None:
                            self.handle_parser_exception()
                            return
                    for text in texts:
                        reader(text)
                    if rest:
                        self.handle_events()
                    return
            super().data_received(data)

        def send_receive_event_to_app(self) -> None:
            reader = self.reader
            if self.close_sent or self.curr_msg_data_type != "text":
                super().send_receive_event_to_app()
                return
            frames = self.frames
            data = frames[0] if len(frames) == 1 else b"".join(frames)
            try:
                text = data.decode()
            except UnicodeDecodeError:
                # Closed with 1007 as uvicorn does, but without its ERROR and two tracebacks:
                # a client's broken frame is the client's fault, and anyone could flood the
                # log with them. A close read with it, in the same bytes, has made the
                # connection closing already (and queued its answer, which the close's own
                # event writes): the message is dropped and nothing more sent.
                self.frames = []
                metrics.error("invalid_utf8")
                if self.conn.state is State.OPEN:
                    self.conn.send_close(1007)
                    self.handle_parser_exception()
                return
            if reader is None:  # before the handler reads: through ASGI's queue
                super().send_receive_event_to_app()
                return
            self.frames = []
            reader(text)

        def write_frames(self, texts: list[str]) -> bool:
            """Write text frames now, in one write, as ASGI's `send` would one at a time
            (`carroca.server.routes.connection.FrameWriter`); False, and nothing written, where
            `send` would wait or refuse: the transport's buffer full, not open, closing."""
            if not self.writable.is_set() or self.disconnected or self.close_sent or \
                    not self.handshake_complete or self.initial_response is not None:
                return False
            conn = self.conn
            if not conn.extensions and conn.state is State.OPEN and \
                    not conn.expect_continuation_frame and not conn.debug:
                # No extension negotiated (no compression): a server's text frame is a header
                # and the text, as `send_text` would serialize it, without its Frame object.
                parts = conn.data_to_send()  # what the protocol holds first (a pong)
                for text in texts:
                    data = text.encode()
                    parts.append(text_frame_header(len(data)))
                    parts.append(data)
                self.transport.write(b"".join(parts))
                return True
            try:
                for text in texts:
                    conn.send_text(text.encode())
            except InvalidState:
                return False
            self.transport.write(b"".join(conn.data_to_send()))
            return True

        async def send(self, message: Any) -> None:
            await super().send(message)
            if message["type"] == "websocket.accept":
                # The handshake is over: its request and answer (headers and all) are not read
                # again, and every open socket would keep them.
                self.request = self.response = None  # type: ignore[assignment]
                forget_request(self.conn)
            if message["type"] == "websocket.http.response.body" and \
                    not message.get("more_body", False):
                # A refusal (403 origin, 429 sockets) is a whole answer, not an unfinished
                # handshake: uvicorn would log an error for each, which anyone could flood.
                self.handshake_complete = True

    for name in UVICORN_SHARED:  # kept once (`lean.Shared`): the instances share their keys
        setattr(GuardedWebSocket, name, Shared())
    return GuardedHttp, GuardedWebSocket


def forget_request(conn: ServerProtocol) -> None:
    """Let the handshake's request go once it is answered.

    The server protocol's parser reads the request, then the frames, in one generator, whose
    frame keeps the request (its headers: ~2 KiB) as long as the socket. Right after the
    handshake the parser waits at the start of a frame, with nothing buffered: a new frame
    parser started there is in the same state, without the request. Anything else (bytes of a
    frame already in), and the parser is left as it is."""
    parser = conn.parser
    frames = getattr(parser, "gi_yieldfrom", None)
    waiting = getattr(frames, "gi_yieldfrom", None)
    if getattr(frames, "gi_code", None) is not Protocol.parse.__code__ or \
            getattr(waiting, "gi_code", None) is not StreamReader.at_eof.__code__ or \
            conn.reader.buffer:
        return
    fresh = Protocol.parse(conn)
    next(fresh)  # to its first wait for bytes, where the old one stands
    conn.parser = fresh


_FRAMES = Protocol.parse.__code__
_WAITING = StreamReader.at_eof.__code__


def small_texts(conn: ServerProtocol, data: bytes) -> tuple[int, list[str]]:
    """The whole client text frames at the start of `data`, read as the protocol's parser would
    read them: how many bytes they took (0: none; the rest is the parser's), and their texts.

    A client's message is one small text frame, and the protocol's generators (a header, a
    length, a mask and a payload read one after another, a frame object, then a dispatch on its
    kind in uvicorn) cost more than the message's own handling. Read here only where the parser
    would do nothing more: an open connection without extensions, its parser waiting at the
    start of a frame with nothing buffered, no message in pieces; and only final, masked text
    frames without reserved bits, whole, within the size limit, of valid UTF-8. Any other
    frame (a ping, a close, a fragment, a compressed one) and what follows it go to the parser.

    `GuardedWebSocket.data_received` hands the texts on only once the parser has read the rest
    of the bytes without an error: uvicorn hands on no message of a read whose frames fail
    (unmasked, a reserved opcode or bit, a stray continuation, too large), so a valid text
    followed, in the same read, by a frame that closes the socket is dropped either way.

    With no extension negotiated only: under the default `ws_compression="message"` browsers
    ask for and get permessage-deflate, so their sockets always go through the parser; the
    frames read here are those of clients that do not ask for compression, or of every client
    with `ws_compression="off"`."""
    if conn.state is not State.OPEN or conn.extensions or conn.current_size is not None or \
            conn.reader.buffer:
        return 0, []
    parser: Any = conn.parser
    frames = parser if parser.gi_code is _FRAMES else parser.gi_yieldfrom
    if frames is None or frames.gi_code is not _FRAMES or \
            getattr(frames.gi_yieldfrom, "gi_code", None) is not _WAITING:
        return 0, []
    limit = conn.max_message_size if conn.max_fragment_size is None else \
        conn.max_fragment_size if conn.max_message_size is None else \
        min(conn.max_message_size, conn.max_fragment_size)
    size, at = len(data), 0
    texts: list[str] = []
    while size - at >= 6 and data[at] == 0x81 and data[at + 1] & 0x80:
        length, start = data[at + 1] & 0x7F, at + 6
        if length == 126:
            if size - at < 8:
                break
            length, start = int.from_bytes(data[at + 2:at + 4], "big"), at + 8
        elif length == 127:
            break
        end = start + length
        if end > size or (limit is not None and length > limit):
            break
        try:
            texts.append(apply_mask(data[start:end], data[start - 4:start]).decode())
        except UnicodeDecodeError:
            break
        at = end
    return at, texts


def text_frame_header(n: int) -> bytes:
    """A final, unmasked text frame's header for `n` bytes of payload (RFC 6455, 5.2)."""
    if n < 126:
        return bytes((0x81, n))
    if n < 1 << 16:
        return b"\x81\x7e" + n.to_bytes(2, "big")
    return b"\x81\x7f" + n.to_bytes(8, "big")


class _Refused(Exception):
    pass


class BodyLimit:
    """413 for bodies over `max_bytes`, 408 for bodies that stall; WebSockets pass untouched."""

    def __init__(self, app: ASGIApp, max_bytes: int, timeout: float) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.timeout = timeout

    async def _answer(self, send: Send, refused: ServerError) -> None:
        body = error_body(refused.code, refused.message)
        await send({"type": "http.response.start", "status": refused.status,
                    "headers": [(b"content-type", b"application/json; charset=utf-8"),
                                (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_large = BodyTooLarge(self.max_bytes)
        for name, value in scope["headers"]:
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = -1
                if declared < 0 or declared > self.max_bytes:
                    await self._answer(send, too_large)
                    return
        refused: list[ServerError] = []
        received = 0
        body_done = False
        started = False

        async def limited_receive() -> Message:
            nonlocal received, body_done
            if body_done or refused:
                return await receive()
            try:
                message = await asyncio.wait_for(receive(), self.timeout)
            except TimeoutError:
                refused.append(BodyTimeout())
                raise _Refused from None
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    refused.append(too_large)
                    raise _Refused
                body_done = not message.get("more_body", False)
            return message

        async def checked_send(message: Message) -> None:
            nonlocal started
            if refused:  # whatever the app made of the refused body, the answer is ours
                if message["type"] == "http.response.start" and not started:
                    started = True
                    await self._answer(send, refused[0])
                return
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        with contextlib.suppress(_Refused):
            await self.app(scope, limited_receive, checked_send)
        if refused and not started:
            await self._answer(send, refused[0])


def uvicorn_config(app: Any, settings: Settings, **extra: Any) -> uvicorn.Config:
    """The uvicorn configuration `carroca serve` runs (and the browser tests' server too)."""
    trusted = settings.forwarded_allow_ips.strip()
    guard = ConnectionGuard(settings.max_connections_per_ip, settings.header_timeout,
                            frozenset(t.strip() for t in trusted.split(",") if t.strip()))
    http, ws = guarded_protocols(guard, settings.ws_compression)
    options: dict[str, Any] = {
        "host": settings.host, "port": settings.port, "http": http, "ws": ws,
        "ws_per_message_deflate": settings.ws_compression != "off",
        "ws_max_size": WS_MAX_BYTES, "log_level": "warning",
        "log_config": None,  # the server's own handler (carroca.server.logs), not uvicorn's
        "ws_ping_interval": 60.0, "ws_ping_timeout": 30.0,  # 20 s pings cost 500/s at 10k
        "timeout_graceful_shutdown": 5,
        "timeout_keep_alive": max(1, math.ceil(settings.keep_alive_seconds)),
        "proxy_headers": bool(trusted), "forwarded_allow_ips": trusted or None,
    }
    options.update(extra)
    config = uvicorn.Config(app, **options)
    config.connection_guard = guard  # type: ignore[attr-defined]
    return config
