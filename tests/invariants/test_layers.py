"""The package's import graph: no circle among its files, and the server's layers one way only.

Every import statement counts: at the top, inside a function, or under `TYPE_CHECKING`. An
upward call (a table telling its hub a match ended) goes through a protocol the lower module
defines (`table.TableHost`, `hub.Directory`, `frames.Stateful`), never an import. The layers are
drawn in docs/server.md ("The server's layers").
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import carroca

ROOT = Path(carroca.__file__).parent

#: The server's modules, lowest layer first: a module may import its own layer or lower ones.
SERVER_LAYERS: tuple[frozenset[str], ...] = (
    # ports and adapters: storage, fan-out, settings, the wire protocol, limits, views
    frozenset({"errors", "protocol", "settings", "db", "store", "fanout", "bus", "accounts",
               "chat", "crosssite", "guard", "headers", "ratelimits", "preflight", "botbudget",
               "ratings", "frames", "tablerow", "turnclock", "names", "storage", "store_players",
               "store_cluster", "store_tournaments", "tournament_state", "tournament_entries",
               "tournament_pages"}),
    frozenset({"table"}),  # one match: seats, clock, bots, moves
    frozenset({"hub"}),  # the tables running here, their life cycle
    frozenset({"lobby", "reviews", "tournaments"}),  # services: seating, reviews, events
    frozenset({"connection", "cluster", "event_owners"}),  # the sockets, the other nodes
    frozenset({"deps", "routes_game", "routes_accounts", "routes_matches",
               "routes_tournaments"}),  # routes per area
    frozenset({"app", "__init__"}),  # wiring
)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in ROOT.rglob("*.py")}


def imports_of(name: str) -> Iterator[str]:
    """The package's modules that `name` imports, in any statement."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (a.name for a in node.names if a.name in MODULES)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, base] if base else up)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                if sub in MODULES:  # `from package import module`: that module
                    yield sub
                elif base in MODULES:
                    yield base


GRAPH = {name: set(imports_of(name)) - {name} for name in MODULES}


def circle() -> list[str] | None:
    """One import circle, as the modules along it, or None."""
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(name: str) -> list[str] | None:
        state[name] = 1
        path.append(name)
        for dep in sorted(GRAPH[name]):
            if state.get(dep) == 1:
                return [*path[path.index(dep):], dep]
            if dep not in state and (found := visit(dep)) is not None:
                return found
        path.pop()
        state[name] = 2
        return None

    for name in sorted(GRAPH):
        if name not in state and (found := visit(name)) is not None:
            return found
    return None


def test_no_import_circle() -> None:
    found = circle()
    assert found is None, "import circle: " + " -> ".join(found or [])


def test_a_circle_is_found_when_there_is_one() -> None:
    """The search itself: an upward import added to the graph is reported as a circle."""
    GRAPH["carroca.server.tables.table"].add("carroca.server.tables.hub")
    try:
        found = circle()
    finally:
        GRAPH["carroca.server.tables.table"].discard("carroca.server.tables.hub")
    assert found is not None
    assert "carroca.server.tables.hub" in found and "carroca.server.tables.table" in found


def layer_of(module: str) -> int:
    short = module.removeprefix("carroca.server").lstrip(".") or "__init__"
    if short.startswith("migrations"):  # Alembic's scripts: beside the tables they change
        short = "db"
    for i, layer in enumerate(SERVER_LAYERS):
        if short in layer:
            return i
    raise AssertionError(f"{module} is in no layer: add it to SERVER_LAYERS and docs/server.md")


def test_the_server_imports_downward_only() -> None:
    server = [m for m in MODULES if m == "carroca.server" or m.startswith("carroca.server.")]
    upward = []
    for module in server:
        for dep in GRAPH[module]:
            if dep.startswith("carroca.server") and layer_of(dep) > layer_of(module):
                upward.append(f"{module} imports {dep}")
    assert not upward, upward


def test_the_rules_import_nothing_of_the_rest() -> None:
    """`carroca.rules` is a pure library: records, bots, the server and the CLI use it."""
    outside = [(m, d) for m in MODULES if m.startswith("carroca.rules")
               for d in GRAPH[m] if not d.startswith("carroca.rules")]
    assert not outside, outside


def test_the_tournament_core_stands_apart() -> None:
    """`carroca.tournament` is a pure core a server-side director is built on: it may use the
    rules, the shuffle and match records, never the server or the command line; only the
    offline runner (`carroca tournament`) plays bots."""
    core = [m for m in MODULES if m.startswith("carroca.tournament")
            and m != "carroca.tournament.offline"]
    above = ("carroca.server", "carroca.cli", "carroca.bots", "carroca.botservice",
             "carroca.tournament.offline")
    wrong = [(m, d) for m in core for d in GRAPH[m] if d.startswith(above)]
    assert core and not wrong, wrong
