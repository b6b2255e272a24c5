"""The Python examples of a page of docs/, as written, for the tests that run them."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

DOCS = Path(__file__).resolve().parents[2] / "docs"


def python_blocks(page: str) -> list[str]:
    """Every ```python block of docs/`page`, in order."""
    text = (DOCS / page).read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```", text, re.S)


def run_block(page: str, index: int, name: str = "docs_example") -> dict[str, Any]:
    """Run one block as a module named `name` (so that `if __name__ == "__main__"` stays out);
    its names."""
    namespace: dict[str, Any] = {"__name__": name}
    exec(compile(python_blocks(page)[index], f"docs/{page} example {index + 1}", "exec"),
         namespace)
    return namespace
