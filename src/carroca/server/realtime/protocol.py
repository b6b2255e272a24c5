"""The WebSocket protocol's client messages, parsed once at the edge (docs/protocol.md).

Every frame is one JSON object `{"type": ..., "data": {...}}`. The set of types is closed; a frame
that is not valid JSON, names an unknown type or carries fields of the wrong shape is refused
with a typed error and changes nothing.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

import msgspec
import orjson
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from pydantic_core import to_jsonable_python

from carroca.rules.errors import PlayerError
from carroca.server import metrics
from carroca.server.errors import (
    BadMessage,
    NotAnObject,
    NotJson,
    ServerError,
    UnknownType,
)
from carroca.server.errors import (
    ProtocolError as ProtocolError,  # what `parse` raises
)
from carroca.server.realtime import wire

MAX_FRAME = 4096  # bytes: larger frames close the connection (1009, message too big)
MAX_CHAT = 200  # characters of one chat line
SEED_CHARS = r"^[0-9A-Za-z_-]{1,64}$"


class _Data(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class JoinData(_Data):
    match: str = Field(min_length=1, max_length=16)
    client_seed: str | None = Field(default=None, pattern=SEED_CHARS)


class MoveData(_Data):
    id: int = Field(ge=0, le=2**31)
    action: str = Field(min_length=1, max_length=24)
    version: int | None = Field(default=None, ge=0)  # the state the move was chosen on


class ChatData(_Data):
    text: str = Field(min_length=1, max_length=MAX_CHAT)


class MuteData(_Data):
    seat: int = Field(ge=0, le=3)
    muted: bool


class HoldData(_Data):
    match: str = Field(min_length=1, max_length=16)
    on: bool


class ReadyData(_Data):
    match: str = Field(min_length=1, max_length=16)


class MoreTimeData(_Data):
    match: str = Field(min_length=1, max_length=16)
    on: bool


class WatchData(_Data):
    event: str = Field(min_length=1, max_length=32)
    code: str | None = Field(default=None, max_length=20)  # a private event's invitation


class EmptyData(_Data):
    pass


class Join(_Data):
    type: Literal["join"]
    data: JoinData


class Leave(_Data):
    type: Literal["leave"]
    data: EmptyData = EmptyData()


class Move(_Data):
    type: Literal["move"]
    data: MoveData


class Chat(_Data):
    type: Literal["chat"]
    data: ChatData


class Mute(_Data):
    type: Literal["mute"]
    data: MuteData


class Hold(_Data):
    """Wait (or not) for this seat at the end of each hand, while it reads the summary."""

    type: Literal["hold"]
    data: HoldData


class Ready(_Data):
    """This seat has read the hand's summary: the table need not wait for it any more."""

    type: Literal["ready"]
    data: ReadyData


class MoreTime(_Data):
    """Give (or no longer) this seat's turns twice the table's time, where the table allows it
    (casual and friends' tables)."""

    type: Literal["more_time"]
    data: MoreTimeData


class Watch(_Data):
    type: Literal["watch"]
    data: WatchData


class Unwatch(_Data):
    type: Literal["unwatch"]
    data: EmptyData = EmptyData()


class Ping(_Data):
    type: Literal["ping"]
    data: EmptyData = EmptyData()


Message = Join | Leave | Move | Chat | Mute | Hold | Ready | MoreTime | Watch | Unwatch | Ping
ClientMessage = Annotated[Message, Field(discriminator="type")]
CLIENT_MESSAGES: TypeAdapter[Message] = TypeAdapter(ClientMessage)
TYPES = ("join", "leave", "move", "chat", "mute", "hold", "ready", "more_time", "watch", "unwatch",
         "ping")


def parse(text: str) -> Message:
    try:  # a good message in one pass; a bad one is read again below to say what is wrong
        return CLIENT_MESSAGES.validate_json(text)
    except ValidationError:
        pass
    try:
        raw = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: absurdly nested arrays
        raise NotJson() from None
    if not isinstance(raw, dict):
        raise NotAnObject()
    kind = raw.get("type")
    if kind not in TYPES:
        raise UnknownType(kind)
    try:
        return CLIENT_MESSAGES.validate_python(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"][1:]) or "mensagem"
        raise BadMessage(where, explain(first)) from None


_EXPLAINED = {
    "missing": "campo obrigatório",
    "extra_forbidden": "campo desconhecido",
    "int_type": "esperava um número inteiro",
    "int_parsing": "esperava um número inteiro",
    "string_type": "esperava um texto",
    "bool_type": "esperava verdadeiro ou falso",
    "dict_type": "esperava um objeto",
    "model_type": "esperava um objeto",
    "model_attributes_type": "esperava um objeto",
    "list_type": "esperava uma lista",
    "float_type": "esperava um número",
    "string_pattern_mismatch": "formato inválido",
    "literal_error": "valor não permitido",
    "union_tag_invalid": "tipo desconhecido",
}


def explain(err: Any) -> str:
    """A validation error in the player's words (pydantic's own messages are English)."""
    kind = err.get("type", "")
    ctx = err.get("ctx") or {}
    if kind == "string_too_short":
        return f"texto curto demais (mínimo {ctx.get('min_length')})"
    if kind == "string_too_long":
        return f"texto longo demais (máximo {ctx.get('max_length')})"
    if kind == "too_long":
        return f"itens demais (máximo {ctx.get('max_length')})"
    if kind in ("greater_than_equal", "greater_than"):
        return f"valor pequeno demais (mínimo {ctx.get('ge', ctx.get('gt'))})"
    if kind in ("less_than_equal", "less_than"):
        return f"valor grande demais (máximo {ctx.get('le', ctx.get('lt'))})"
    return _EXPLAINED.get(kind, "valor inválido")


def dumps(value: Any) -> str:
    """Compact JSON text, as `json.dumps(value, separators=(",", ":"), ensure_ascii=False)`
    would write it (keys that are not strings written as strings, anything else pydantic can
    encode through pydantic).

    orjson: frames are most of the server's work under load, and it encodes a table's state
    about four times faster than pydantic-core (`bench/frames.py`)."""
    return orjson.dumps(value, default=_default, option=orjson.OPT_NON_STR_KEYS).decode()


def _default(value: Any) -> Any:
    if isinstance(value, msgspec.Struct):  # a frame's model (`carroca.server.realtime.wire`)
        return msgspec.to_builtins(value)
    return to_jsonable_python(value)


def envelope(kind: str, data: Any) -> str:
    return dumps({"type": kind, "data": data})


def error(code: str, message: str, move_id: int | None = None) -> str:
    """An `error` frame (`wire.Error`)."""
    metrics.error(code)
    return wire.error(code, message, move_id)


def refusal(exc: ServerError | PlayerError, move_id: int | None = None) -> str:
    """The `error` frame of a named refusal (the server's, or the rules' own)."""
    return error(exc.code, exc.message, move_id)
