"""Make `tests.helpers` importable from any test, whatever the rootdir's place on sys.path; keep
tests/cluster out of the whole suite."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

_ROOT = str(Path(__file__).resolve().parent.parent)
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)


# tests/cluster starts a PostgreSQL, a Redis, HAProxy and several servers per test: it runs on
# its own (`make unit-cluster`, or `pytest tests/cluster`), never within the whole suite that
# `make unit` runs with `-n auto` on SQLite. So the directory is collected only when an argument
# names it, or something inside it.
_CLUSTER_TESTS = Path(__file__).resolve().parent / "cluster"


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    if collection_path != _CLUSTER_TESTS:
        return None
    for arg in config.args:
        named = (config.invocation_params.dir / arg.split("::")[0]).resolve()
        if named == _CLUSTER_TESTS or _CLUSTER_TESTS in named.parents:
            return None
    return True
