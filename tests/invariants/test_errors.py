"""Every refusal the server answers is named once, with its status, code and pt-BR message, in
`carroca.server.errors` (or in a room's own `errors` module, as moderation's): no other module of
the server writes a code or a message into an error answer (an `error` frame, a JSON error body,
a raw HTTP answer) or into a `ServerError` of its own."""

from __future__ import annotations

import ast
from pathlib import Path

import carroca

SERVER = Path(carroca.__file__).parent / "server"
#: What makes an error answer or a refusal from a code and a message.
MAKERS = frozenset({"error_response", "raw_response", "error_body", "ServerError", "RateLimited",
                    "ProtocolError"})
#: `protocol.error(code, message)` and `wire.error(...)`, not `metrics.error(code)`: a counter.
FRAME_MAKERS = frozenset({"protocol", "wire"})


def written_inline(call: ast.Call) -> bool:
    """A call that makes an error answer or a refusal with a literal code or message."""
    func = call.func
    if isinstance(func, ast.Name):
        name, owner = func.id, None
    elif isinstance(func, ast.Attribute):
        name = func.attr
        owner = func.value.id if isinstance(func.value, ast.Name) else None
    else:
        return False
    if name not in MAKERS and not (name == "error" and owner in FRAME_MAKERS):
        return False
    args = [*call.args, *(k.value for k in call.keywords)]
    return any(isinstance(a, ast.JoinedStr) or (isinstance(a, ast.Constant)
                                                and isinstance(a.value, str)) for a in args)


def inline_refusals(source: str) -> list[int]:
    return [node.lineno for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Call) and written_inline(node)]


def test_no_refusal_is_written_outside_the_errors_module() -> None:
    found = {}
    for path in sorted(SERVER.rglob("*.py")):
        if path.name == "errors.py":
            continue
        lines = inline_refusals(path.read_text(encoding="utf-8"))
        if lines:
            found[str(path.relative_to(SERVER))] = lines
    assert found == {}, f"name these refusals in carroca.server.errors: {found}"


def test_the_check_sees_a_refusal_written_inline() -> None:
    written = '''
def move():
    return protocol.error("not_started", "A partida ainda não começou.", 3)
def route():
    raise ServerError(409, "taken", f"O lugar {1} já foi tomado.")
def named():
    metrics.error("invalid_utf8")
    return protocol.refusal(NotStarted(), 3)
'''
    assert inline_refusals(written) == [3, 5]
