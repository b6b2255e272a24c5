"""Build hook: the rules engine's hot modules are compiled with mypyc in a normal install.

The engine is plain typed Python; compiling `tiles`, `actions`, `rulesets` and `game` to C with
mypyc (mypy's compiler) makes random play about 1.5x faster with the same code and behaviour.
- `pip install .` (a wheel) compiles them; without a working C compiler it falls back to the
  pure-Python modules, which are always shipped too.
- An editable install (`pip install -e .`, what development uses) never compiles, so an edited
  source file is never shadowed by a stale compiled one. `CARROCA_PURE=1` also turns it off.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

COMPILED = [
    "src/carroca/rules/tiles.py",
    "src/carroca/rules/actions.py",
    "src/carroca/rules/rulesets.py",
    "src/carroca/rules/game.py",
]


class OptionalBuildExt(build_ext):  # type: ignore[misc]
    """Compiled modules are an optimisation: skip them for editable installs or on failure."""

    def run(self) -> None:
        if getattr(self, "editable_mode", False) or getattr(self, "inplace", False):
            print("carroca: editable install, the engine stays pure Python", file=sys.stderr)
            return
        try:
            super().run()
        except Exception as exc:  # no compiler, no headers: the .py modules still work
            print(f"carroca: compiled engine not built ({exc}); using pure Python", file=sys.stderr)


def ext_modules() -> list[Any]:
    if os.environ.get("CARROCA_PURE") == "1":
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        return []
    return list(mypycify(COMPILED, opt_level="3"))


setup(ext_modules=ext_modules(), cmdclass={"build_ext": OptionalBuildExt})
