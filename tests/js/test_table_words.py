"""The table's pt-BR words are written once (web/words/table.json): the browser's copy
(js/table-words.js) is the file `python -m carroca.words` writes from it, and the terminal reads
the same file."""

from __future__ import annotations

import json
from pathlib import Path

from carroca import words

WEB = Path(__file__).resolve().parents[2] / "src" / "carroca" / "web"


def test_the_browsers_copy_is_written_from_the_words_file() -> None:
    kept = (WEB / "js" / "table-words.js").read_text(encoding="utf-8")
    assert kept == words.js_module(), "python -m carroca.words"


def test_the_terminal_and_the_site_read_the_same_words() -> None:
    source = json.loads((WEB / "words" / "table.json").read_text(encoding="utf-8"))
    assert source["on_end"] == words.ON_END
    assert source["details"] == words.DETAILS
    assert set(words.REASONS) == set(source["reasons"])
    assert words.REASONS["galo"] == source["reasons"]["galo"] == "galo"
    assert words.REASONS["mesa"] == "mesa" and source["reasons"]["mesa"] == "pontos na mesa"
    assert words.blocked_word("duplas-pontos") == "Jogo fechado"
    assert words.blocked_word("bloqueio") == "Trancado"
