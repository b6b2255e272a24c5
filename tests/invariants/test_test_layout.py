"""The tests' own layout: shared code lives in tests/support, and tests use the product's public
names only.

- No file imports a test module (test_*.py) or a conftest.py: what tests share is a module of
  tests/support, or a fixture asked for by name.
- No test imports a private name (`_x`) of carroca, nor reads one off a carroca module or class it
  imported, nor off an object (`table._deal`) when carroca defines that private name and the
  file does not: a test that needs something the product hides says so by making it public.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SOURCES = sorted([*(ROOT / "tests").rglob("*.py"), *(ROOT / "bench").rglob("*.py")])


def is_test_module(dotted: str) -> bool:
    last = dotted.rsplit(".", 1)[-1]
    return last.startswith("test_") or last == "conftest"


def imported_modules(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """Every module a file imports (for `from m import x`, also `m.x`: x may be a module)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.lineno, node.module
            for alias in node.names:
                yield node.lineno, f"{node.module}.{alias.name}"


def root_name(node: ast.expr) -> str | None:
    """`a` of `a.b.c`."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def imports_of_tests(source: str) -> list[str]:
    """Each import of a test module or a conftest, and each relative import."""
    tree = ast.parse(source)
    found = [f"{line}: imports {name}" for line, name in imported_modules(tree)
             if is_test_module(name)]
    found += [f"{node.lineno}: a relative import" for node in ast.walk(tree)
              if isinstance(node, ast.ImportFrom) and node.level]
    return found


def private_uses(source: str) -> list[str]:
    """`from carroca... import _x`, and `m._x` where m was imported from carroca."""
    tree = ast.parse(source)
    found: list[str] = []
    product_names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "carroca":
            for alias in node.names:
                if alias.name.startswith("_"):
                    found.append(f"{node.lineno}: imports {node.module}.{alias.name}")
                product_names.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "carroca":
                    if any(part.startswith("_") for part in alias.name.split(".")):
                        found.append(f"{node.lineno}: imports {alias.name}")
                    product_names.add(alias.asname or "carroca")
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                and not node.attr.startswith("__") and root_name(node) in product_names):
            found.append(f"{node.lineno}: reads {ast.unparse(node)}")
    return sorted(found, key=lambda f: int(f.split(":")[0]))


def private_names(tree: ast.AST) -> set[str]:
    """The private names a module defines: functions, methods, classes, `self._x` it sets,
    module-level `_x` it assigns."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return {n for n in names if n.startswith("_") and not n.startswith("__")}


def _defined_in(folder: Path) -> set[str]:
    return {name for path in folder.rglob("*.py")
            for name in private_names(ast.parse(path.read_text(encoding="utf-8")))}


#: Every private name carroca defines that the bench scripts do not (their tests may use those).
PRODUCT_PRIVATE = frozenset(_defined_in(ROOT / "src" / "carroca") - _defined_in(ROOT / "bench"))


def private_attributes(source: str, product: frozenset[str] = PRODUCT_PRIVATE) -> list[str]:
    """`obj._x` (anything but `self` and `cls`) where `_x` is a private name of the product that
    this file does not define itself."""
    tree = ast.parse(source)
    own = private_names(tree)
    return [f"{node.lineno}: reads {ast.unparse(node)}" for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and node.attr in product and node.attr not in own
            and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))]


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_file_imports_a_test_module_or_a_conftest(path: Path) -> None:
    found = imports_of_tests(path.read_text(encoding="utf-8"))
    assert found == []


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_private_name_of_the_product_is_used(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    assert private_uses(source) + private_attributes(source) == []


BAD = """\
from tests.server import test_leak
import tests.web.conftest as fixtures
from tests.support.server_app import guest
from carroca.replay import _replay_rows, replay
from carroca.bots.expert import planner
import carroca.cli
planner._deferred(1)
carroca.cli._database_shown("x")
planner.Config().__class__
from . import conftest
"""


def test_the_checks_catch_what_they_forbid() -> None:
    assert imports_of_tests(BAD) == [
        "1: imports tests.server.test_leak", "2: imports tests.web.conftest",
        "10: a relative import",
    ]
    assert private_uses(BAD) == [
        "4: imports carroca.replay._replay_rows", "7: reads planner._deferred",
        "8: reads carroca.cli._database_shown",
    ]
    assert private_attributes("table._deal(match)\nself._deal(match)\n", frozenset({"_deal"})) == [
        "1: reads table._deal"]
    assert {"_move_ids", "_lock"} <= PRODUCT_PRIVATE  # the product's private names are found
