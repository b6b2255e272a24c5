"""The WebSocket protocol published: the JSON Schema of both directions (docs/protocol.md is
checked against it) and the browser client's TypeScript declarations (`web/js/wire.d.ts`), made
from the client messages' models (`protocol`) and the server frames' (`wire`).

    python -m carroca.server.realtime.schema --schema
    python -m carroca.server.realtime.schema --typescript > src/carroca/web/js/wire.d.ts
"""

from __future__ import annotations

import sys
from typing import Any, Literal, get_args, get_origin

import msgspec
import msgspec.inspect as mi

from carroca.server.realtime import protocol, wire


def _frame_name(cls: type[wire.Data]) -> str:
    return f"{cls.kind.capitalize()}Frame"


def _names() -> dict[str, tuple[str, ...]]:
    """The closed sets of names `wire` declares (`End = Literal[...]`), by their alias."""
    names = {name: get_args(value) for name, value in vars(wire).items()
             if get_origin(value) is Literal}
    assert len(set(map(frozenset, names.values()))) == len(names), "two sets of the same names"
    return names


def _key_names(kind: mi.Type) -> tuple[Any, ...] | None:
    """The names a dict's keys are limited to (`dict[End, int]`), which JSON Schema drops."""
    if isinstance(kind, mi.DictType) and isinstance(kind.key_type, mi.LiteralType):
        return tuple(kind.key_type.values)
    if isinstance(kind, mi.UnionType):
        found = [k for k in map(_key_names, kind.types) if k is not None]
        return found[0] if found else None
    return None


def _name_sets(node: Any, refs: dict[frozenset[Any], str]) -> Any:
    """`node` with each set of names that `wire` declares replaced by a reference to it."""
    if isinstance(node, list):
        return [_name_sets(n, refs) for n in node]
    if not isinstance(node, dict):
        return node
    if set(node) == {"enum"} and frozenset(node["enum"]) in refs:
        return {"$ref": f"#/$defs/{refs[frozenset(node['enum'])]}"}
    return {k: _name_sets(v, refs) for k, v in node.items()}


def server_schema() -> dict[str, Any]:
    """JSON Schema of the server's frames: `ServerFrame`, one of `<Kind>Frame`; the sets of
    names the frames use (`End`, `Phase`, …) are definitions of their own."""
    models: tuple[type[wire.Closed], ...] = (*wire.FRAMES, wire.View)
    _, defs = msgspec.json.schema_components(models, ref_template="#/$defs/{name}")
    for name, node in defs.items():
        cls = getattr(wire, name)
        # a member with a default other than UNSET is always sent
        node["required"] = [f.encode_name for f in msgspec.structs.fields(cls)
                            if f.default is not msgspec.UNSET]
        info = mi.type_info(cls)
        assert isinstance(info, mi.StructType)
        for f in info.fields:
            keys = _key_names(f.type)
            if keys is not None:
                node["properties"][f.encode_name]["propertyNames"] = {"enum": sorted(keys)}
    defs["State"]["properties"]["view"] = {"anyOf": [{"$ref": "#/$defs/View"}, {"type": "null"}]}
    names = _names()
    defs = _name_sets(defs, {frozenset(v): k for k, v in names.items()})
    defs = {**{name: {"enum": list(values)} for name, values in names.items()}, **defs}
    defs["State"]["required"] += ["view", "seat"]
    frames: dict[str, Any] = {}
    for cls in wire.FRAMES:
        ref = {"$ref": f"#/$defs/{cls.__name__}"}
        frames[_frame_name(cls)] = {
            "type": "object",
            "properties": {"type": {"const": cls.kind}, "data": ref},
            "required": ["type", "data"],
        }
    return {"oneOf": [{"$ref": f"#/$defs/{n}"} for n in frames], "$defs": {**defs, **frames}}


def client_schema() -> dict[str, Any]:
    """JSON Schema of the client's messages (pydantic's, its names prefixed `Client`: `chat`
    is a frame both ways)."""
    raw = protocol.CLIENT_MESSAGES.json_schema(ref_template="#/$defs/Client{model}")
    defs = {f"Client{k}": v for k, v in raw.pop("$defs", {}).items()}
    return {**raw, "$defs": defs}


def schema() -> dict[str, Any]:
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "carroca WebSocket protocol",
            "client": client_schema(), "server": server_schema()}


def _ts(node: dict[str, Any]) -> str:
    """A JSON Schema node as a TypeScript type."""
    if "$ref" in node:
        return str(node["$ref"]).rsplit("/", 1)[1]
    if "const" in node:
        return _literal(node["const"])
    if "enum" in node:
        return " | ".join(_literal(v) for v in node["enum"])
    for key in ("anyOf", "oneOf"):
        if key in node:
            return " | ".join(_ts(n) for n in node[key])
    kind = node.get("type")
    if isinstance(kind, list):
        return " | ".join(_ts({**node, "type": k}) for k in kind)
    if kind == "array":
        item = _ts(node.get("items", {}))
        return f"({item})[]" if "|" in item else f"{item}[]"
    if kind == "object":
        if node.get("properties"):
            return "{ " + " ".join(_members(node)) + " }"
        if "properties" in node:  # no member: `{}` would take any object
            return "Record<string, never>"
        extra = node.get("additionalProperties")
        value = _ts(extra) if isinstance(extra, dict) else "unknown"
        if "propertyNames" in node:  # some of those keys (an open end, not all four)
            return f"Partial<Record<{_ts(node['propertyNames'])}, {value}>>"
        return f"Record<string, {value}>"
    return {"string": "string", "integer": "number", "number": "number", "boolean": "boolean",
            "null": "null"}.get(str(kind), "unknown")


def _literal(value: Any) -> str:
    return wire.encode(value)


def _members(node: dict[str, Any]) -> list[str]:
    required = set(node.get("required", ()))
    return [f"{name}{'' if name in required else '?'}: {_ts(sub)};"
            for name, sub in node.get("properties", {}).items()]


def typescript() -> str:
    """The declarations of both directions, for the browser client's JSDoc types."""
    out = [
        "// The WebSocket protocol's messages (docs/protocol.md), both ways. Generated from",
        "// carroca.server.realtime.wire and carroca.server.realtime.protocol by",
        "// carroca.server.realtime.schema; do not edit.",
        "// Regenerate with:",
        "//   python -m carroca.server.realtime.schema --typescript > src/carroca/web/js/wire.d.ts",
        "",
    ]
    for part in (client_schema(), server_schema()):
        for name, node in part["$defs"].items():
            doc = node.get("description")
            if doc:
                out.append("/** " + " ".join(str(doc).split()) + " */")
            if node.get("type") == "object" and node.get("properties"):
                out.append(f"export interface {name} {{")
                out.extend(f"  {m}" for m in _members(node))
                out.append("}")
            else:
                out.append(f"export type {name} = {_ts(node)};")
            out.append("")
    client = " | ".join(_ts(n) for n in client_schema()["oneOf"])
    server = " | ".join(_ts(n) for n in server_schema()["oneOf"])
    out.append("/** Any message a client sends. */")
    out.append(f"export type ClientMessage = {client};")
    out.append("")
    out.append("/** Any frame the server sends. */")
    out.append(f"export type ServerFrame = {server};")
    return "\n".join(out) + "\n"


def main(argv: list[str]) -> int:
    if argv == ["--typescript"]:
        sys.stdout.write(typescript())
        return 0
    if argv == ["--schema"]:
        sys.stdout.write(msgspec.json.format(wire.encode(schema()), indent=2) + "\n")
        return 0
    sys.stderr.write("usage: python -m carroca.server.realtime.schema --typescript | --schema\n")
    return 2


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
