"""The table's words in pt-BR, from the file the browser's client shares (web/words/table.json).

Where a tile went ("na esquerda"), why points were scored ("galo", "garagem") and how a hand
ended ("capicú!", "Jogo fechado") are written once, in that file: the terminal reads them here,
the browser from js/table-words.js, which `python -m carroca.words` writes from the same file
(tests/js/test_table_words.py fails when the two part ways).
"""

from __future__ import annotations

import json
from importlib.resources import files
from typing import Any, Final

_SOURCE: Final = files("carroca") / "web" / "words" / "table.json"
_WORDS: Final[dict[str, Any]] = json.loads(_SOURCE.read_text(encoding="utf-8"))

#: Where a tile was laid, by end: "na esquerda", "em cima", ...
ON_END: Final[dict[str, str]] = dict(_WORDS["on_end"])
#: Score reasons of the engine as the terminal says them (the site's words, a few shorter).
REASONS: Final[dict[str, str]] = {**_WORDS["reasons"], **_WORDS["reasons_terminal"]}
#: Batida details (`HandEnd.detail`), as players announce them.
DETAILS: Final[dict[str, str]] = dict(_WORDS["details"])


def blocked_word(ruleset: str) -> str:
    """A blocked hand's name: "Jogo fechado" in duplas-pontos, "Trancado" elsewhere."""
    blocked: dict[str, str] = _WORDS["blocked"]
    return blocked.get(ruleset, blocked["*"])


def js_module() -> str:
    """js/table-words.js: the same words as an ES module (no JSON import needed in browsers)."""
    data = {k: v for k, v in _WORDS.items() if k != "//"}
    body = json.dumps(data, ensure_ascii=False, indent=2)
    return (
        "// @ts-check\n"
        "// Written by `python -m carroca.words` from ../words/table.json: edit that file,"
        " not this one.\n"
        "\n"
        "/** The table's words in pt-BR (see carroca/words.py). */\n"
        f"export const TABLE_WORDS = {body};\n"
    )


if __name__ == "__main__":
    from pathlib import Path

    target = Path(__file__).resolve().parent / "web" / "js" / "table-words.js"
    target.write_text(js_module(), encoding="utf-8")
