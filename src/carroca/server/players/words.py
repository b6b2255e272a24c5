"""The offensive-word filter: pt-BR words kept in a data file (`ofensas.txt`, or the operator's
own: `CARROCA_CHAT_FILTER_FILE`), found as whole words only, after folding case and accents,
reading common leetspeak and squeezing repeated letters. Whole words, because Portuguese is
full of innocent words that hold an offensive one ("computador", "capicua"): a filter that
looks inside words masks the table's talk. The same list refuses offensive nicknames."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from pathlib import Path

BUILT_IN = Path(__file__).with_name("ofensas.txt")

_LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t",
                       "@": "a", "$": "s", "!": "i"})
# A word as typed: letters, digits and the leetspeak symbols, with the marks on its letters.
_WORD = re.compile(r"[\w@$!]+")
_CAMEL = re.compile(r"(?<=[a-zà-ÿ])(?=[A-ZÀ-Þ])")
_NAME_PARTS = re.compile(r"[\s_.\-]+")


def fold(word: str) -> str:
    """The key a word is compared by: no accents, case folded, leetspeak read, repeated
    letters squeezed ("P0RRAAA" and "porra" both give "pora")."""
    bare = "".join(ch for ch in unicodedata.normalize("NFKD", word)
                   if not unicodedata.combining(ch))
    text = bare.casefold().translate(_LEET)
    return re.sub(r"(.)\1+", r"\1", text)


@dataclass(frozen=True)
class WordList:
    """The folded words of a list."""

    keys: frozenset[str]

    @staticmethod
    def load(path: Path | str = BUILT_IN) -> WordList:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
        return WordList(frozenset(fold(w.strip()) for w in lines
                                  if w.strip() and not w.lstrip().startswith("#")))

    def hits(self, text: str) -> list[tuple[int, int]]:
        """Where the list's words are in `text`: (start, end) of each whole word."""
        found = []
        for m in _WORD.finditer(text):
            token = m.group().strip("!")  # "merda!": the mark ends the word
            if token and fold(token) in self.keys:
                start = m.start() + m.group().index(token)
                found.append((start, start + len(token)))
        return found

    def mask(self, text: str) -> tuple[str, int]:
        """`text` with each listed word's letters after the first shown as "*"; the hits."""
        spans = self.hits(text)
        out = list(text)
        for start, end in spans:
            for i in range(start + 1, end):
                out[i] = "*"
        return "".join(out), len(spans)

    def offensive_name(self, name: str) -> bool:
        """A nickname holding a listed word as one of its parts: parts are cut at separators
        and where a lower-case letter meets a capital ("PutaQuePariu")."""
        for part in _NAME_PARTS.split(name):
            for piece in (part, *_CAMEL.split(part)):
                bare = piece.strip("0123456789")  # "Caralho123": the number is no leetspeak
                if bare and (fold(piece) in self.keys or fold(bare) in self.keys):
                    return True
        return False


@cache
def word_list(path: str = "") -> WordList:
    """The list at `path` (empty: the built-in one), read once."""
    return WordList.load(path or BUILT_IN)
