"""The table's words in pt-BR, from the file the browser's client shares (web/words/table.json).

Where a tile went ("na esquerda"), why points were scored ("galo", "garagem") and how a hand
ended ("capicú!", "Jogo fechado") are written once, in that file: the terminal reads them here,
the browser from js/table-words.js, which `python -m carroca.words` writes from the same file
(tests/js/test_table_words.py fails when the two part ways).
"""

from __future__ import annotations

import json
from importlib.resources import files
from typing import Any, Final, NamedTuple

from carroca.rules import Action, HandLog
from carroca.rules import actions as A
from carroca.rules import tiles as T

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


class Voice(NamedTuple):
    """How the terminal says an action in one voice: done, offered or suggested. `{}` stands for
    the tile; where a tile went follows `play`."""

    opening: str
    play: str
    draw: str
    pass_: str
    points: str  # the cinco-carroças choice: keep the points
    redeal: str  # ... or deal again


#: `jogou 3-5 na esquerda`, `saiu com 6-6` (a review of what was played).
PAST = Voice("saiu com {}", "jogou {}", "comprou", "passou",
             "ficou com os pontos das cinco carroças", "pediu nova distribuição")
#: `5-5 na direita`, `sair com 6-6` (what could have been played instead).
CHOICE = Voice("sair com {}", "{}", "comprar", "passar",
               "ficar com os pontos das cinco carroças", "pedir nova distribuição")
#: `sair com a 6-6`, `comprar do monte` (a hint at the table).
HINT = Voice("sair com a {}", "{}", "comprar do monte", "passar", "ficar com os pontos",
             "embaralhar de novo")


def action_text(action: Action, voice: Voice, tile_name: str = "") -> str:
    """`action` said in `voice`; `tile_name` stands for the tile's own name when given."""
    if action.kind == A.PLAY:
        tile = tile_name or T.NAMES[action.tile]
        if action.end == A.OPENING:
            return voice.opening.format(tile)
        return f"{voice.play.format(tile)} {ON_END[A.END_NAMES[action.end]]}"
    if action.kind == A.DRAW:
        return voice.draw
    if action.kind == A.PASS:
        return voice.pass_
    return voice.points if action.choice == "points" else voice.redeal


def batida_text(log: HandLog, lead: str) -> str:
    """A batida as the table announces it: `lead` and the last tile, then its kind when it has
    one (`Batida de ana com 6-6 — batida de carroça.`)."""
    last = next(s for s in reversed(log.steps) if s.action.kind == A.PLAY)
    text = f"{lead} {T.NAMES[last.action.tile]}"
    if log.end.detail in DETAILS:
        text += f" — {DETAILS[log.end.detail]}"
    return text + "."


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
