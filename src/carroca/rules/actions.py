"""Actions as small interned values.

Every possible action exists once (`ACTIONS`), so the legal-move lists the engine builds hold
shared objects and a membership test is mostly an identity check. An action's `code` is a small
int, stable across versions, usable as an array index by bots.
"""

from __future__ import annotations

from typing import Final

import carroca.rules.tiles as T
from carroca.rules.errors import InvalidAction

# Ends of the table. `OPENING` is the "no end" of the first tile of a hand.
LEFT: Final = 0
RIGHT: Final = 1
UP: Final = 2
DOWN: Final = 3
OPENING: Final = 4
END_NAMES: Final = ("left", "right", "up", "down")
_END_BY_NAME = {n: i for i, n in enumerate(END_NAMES)}

PLAY: Final = "play"
DRAW: Final = "draw"
PASS: Final = "pass"
FIVE_DOUBLES: Final = "five-doubles"
FIVE_CHOICES: Final = ("points", "redeal")


class Action:
    """One action: play a tile (on an end), draw, pass, or the cinco-carroças choice.

    Actions are interned: constructing one returns the shared instance, so equality is identity
    (the fast path of `in` on a list) and an action can be a dict key.
    """

    __slots__ = ("choice", "code", "end", "kind", "tile")

    kind: str
    tile: int
    end: int
    choice: str
    code: int

    def __new__(cls, kind: str, tile: int = -1, end: int = OPENING, choice: str = "") -> Action:
        code = _code(kind, tile, end, choice)
        existing = _INTERNED.get(code)
        if existing is not None:
            return existing
        self = super().__new__(cls)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "tile", tile if kind == PLAY else -1)
        object.__setattr__(self, "end", end if kind == PLAY else OPENING)
        object.__setattr__(self, "choice", choice if kind == FIVE_DOUBLES else "")
        object.__setattr__(self, "code", code)
        _INTERNED[code] = self
        return self

    def __setattr__(self, key: str, value: object) -> None:
        raise AttributeError("Action is immutable")

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (from_code, (self.code,))

    def __repr__(self) -> str:
        return f"Action({str(self)!r})"

    def __str__(self) -> str:
        if self.kind == PLAY:
            base = T.NAMES[self.tile]
            return base if self.end == OPENING else f"{base}:{END_NAMES[self.end]}"
        if self.kind == FIVE_DOUBLES:
            return f"{FIVE_DOUBLES}:{self.choice}"
        return self.kind

    @property
    def end_name(self) -> str | None:
        return None if self.end == OPENING else END_NAMES[self.end]

    @property
    def tile_name(self) -> str | None:
        return T.NAMES[self.tile] if self.tile >= 0 else None


_INTERNED: dict[int, Action] = {}


def _code(kind: str, tile: int, end: int, choice: str) -> int:
    if kind == PLAY:
        if not (0 <= tile < T.TILE_COUNT and 0 <= end <= OPENING):
            raise InvalidAction(f"Jogada inválida: pedra {tile}, ponta {end}.")
        return tile * 5 + end
    if kind == DRAW:
        return 140
    if kind == PASS:
        return 141
    if kind == FIVE_DOUBLES:
        if choice not in FIVE_CHOICES:
            raise InvalidAction(
                "Na cinco carroças, escolha 'points' (pontos) ou 'redeal' (embaralhar)."
            )
        return 142 + FIVE_CHOICES.index(choice)
    raise InvalidAction(f"Ação desconhecida: {kind!r}.")


#: PLAYS[tile][end]: the interned play actions (end OPENING for the first tile of a hand).
PLAYS: Final = tuple(tuple(Action(PLAY, t, e) for e in range(5)) for t in range(T.TILE_COUNT))
DRAW_ACTION: Final = Action(DRAW)
PASS_ACTION: Final = Action(PASS)
FIVE_POINTS: Final = Action(FIVE_DOUBLES, choice="points")
FIVE_REDEAL: Final = Action(FIVE_DOUBLES, choice="redeal")
#: Every action, indexed by its code.
ACTIONS: Final = tuple(
    [a for row in PLAYS for a in row] + [DRAW_ACTION, PASS_ACTION, FIVE_POINTS, FIVE_REDEAL]
)
ACTION_COUNT: Final = len(ACTIONS)


def from_code(code: int) -> Action:
    """The action with this code (see `Action.code`)."""
    if not isinstance(code, int) or not 0 <= code < ACTION_COUNT:
        raise InvalidAction(f"Código de ação inválido: {code!r}.")
    return ACTIONS[code]


def end_index(name: str | None) -> int:
    """The end index for `left|right|up|down`, or OPENING for None."""
    if name is None:
        return OPENING
    try:
        return _END_BY_NAME[name]
    except (KeyError, TypeError):
        raise InvalidAction(
            f"Ponta inválida: {name!r}. Use left, right, up ou down."
        ) from None


def play(tile: int | str, end: str | int | None = None) -> Action:
    """The interned play action; `tile` as an int or text, `end` as a name, index or None."""
    t = T.parse(tile) if isinstance(tile, str) else tile
    if not isinstance(t, int) or not 0 <= t < T.TILE_COUNT:
        raise InvalidAction(f"Pedra inválida: {tile!r}.")
    e = end if isinstance(end, int) else end_index(end)
    if not 0 <= e <= OPENING:
        raise InvalidAction(f"Ponta inválida: {end!r}.")
    return PLAYS[t][e]


def parse(text: str) -> Action:
    """An action from its text form: `3-5`, `3-5:left`, `draw`, `pass`, `five-doubles:points`."""
    s = text.strip().lower()
    if s in (DRAW, "compra", "comprar"):
        return DRAW_ACTION
    if s in (PASS, "passo", "passar"):
        return PASS_ACTION
    if s.startswith(FIVE_DOUBLES + ":"):
        choice = s.split(":", 1)[1]
        return FIVE_POINTS if choice == "points" else FIVE_REDEAL if choice == "redeal" else (
            Action(FIVE_DOUBLES, choice=choice)
        )
    if ":" in s:
        tile_text, end_text = s.rsplit(":", 1)
        if end_text in _END_BY_NAME:
            return play(tile_text, end_text)
    return play(s)
