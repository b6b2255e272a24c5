"""docs/bots.md's examples run as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "bots.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def test_the_doc_has_its_examples() -> None:
    assert len(BLOCKS) == 4


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_example_runs(index: int, capsys: pytest.CaptureFixture[str]) -> None:
    namespace: dict[str, object] = {"__name__": "bots_md"}
    exec(compile(BLOCKS[index], f"docs/bots.md example {index + 1}", "exec"), namespace)
    if "env" in namespace and hasattr(namespace["env"], "agents"):
        assert not namespace["env"].agents  # type: ignore[attr-defined]  # played to the end
    if "state" in namespace:
        assert namespace["state"].is_terminal()  # type: ignore[attr-defined]
        assert capsys.readouterr().out.strip() in ("[1.0, -1.0]", "[-1.0, 1.0]", "[0.0, 0.0]")
