"""Reproducible installs: constraints.txt pins every dependency pyproject.toml names, the
Makefile installs through it, and `make run` installs the runtime set only."""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def _pins() -> dict[str, Version]:
    pins: dict[str, Version] = {}
    for raw in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        match = re.fullmatch(r"([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;]+)", line)
        assert match, f"not an exact pin: {raw!r}"
        name = canonicalize_name(match[1])
        assert name not in pins, f"pinned twice: {name}"
        pins[name] = Version(match[2])
    return pins


def _declared() -> list[Requirement]:
    project = PYPROJECT["project"]
    texts = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        texts += extra
    texts += PYPROJECT["build-system"]["requires"]
    return [Requirement(t) for t in texts]


def test_every_declared_dependency_is_pinned_within_its_range() -> None:
    pins = _pins()
    declared = _declared()
    assert len(declared) > 20
    for req in declared:
        name = canonicalize_name(req.name)
        assert name in pins, f"{req.name} (pyproject.toml) is not pinned in constraints.txt"
        assert req.specifier.contains(pins[name], prereleases=True), (req, pins[name])
    assert "carroca" not in pins
    for tool in ("pip", "setuptools", "wheel"):  # the installer and the build, pinned too
        assert tool in pins


def test_every_pip_install_of_the_makefile_is_pinned() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    recipe = re.compile(r"^\t(.*\bpip install\b.*)$", re.MULTILINE)
    lines = recipe.findall(makefile)
    assert lines
    for line in lines:
        if "PIP_CONSTRAINT= " in line or "BENCH_VENV" in line:
            continue  # `make constraints` resolves afresh; the benchmark has its own list
        assert "$(PIP_PINNED)" in line, line
    assert "PIP_PINNED := PIP_CONSTRAINT=$(CONSTRAINTS)" in makefile


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
def test_make_run_installs_the_runtime_set_only(tmp_path: Path) -> None:
    """`make -n run` in a copy where nothing is installed yet: no dev extra, all pinned."""
    for name in ("Makefile", "pyproject.toml", "setup.py", "constraints.txt"):
        shutil.copy(ROOT / name, tmp_path / name)
    run = subprocess.run(["make", "-n", "run"], cwd=tmp_path, capture_output=True, text=True,
                         check=True).stdout
    installs = [line for line in run.splitlines() if "pip install" in line]
    assert installs and all("PIP_CONSTRAINT=" in line for line in installs), run
    assert "[dev]" not in run and "carroca serve" in run
    setup = subprocess.run(["make", "-n", "setup"], cwd=tmp_path, capture_output=True,
                           text=True, check=True).stdout
    assert "-e '.[dev]'" in setup
