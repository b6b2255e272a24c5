"""A nickname cannot pass for another one written in another alphabet: "раса59" (Cyrillic) beside
"paca59", "ΑΒΕ00" (Greek) beside "ABE00". A name's keys are its UTS #39 confusable skeleton, as
typed and in small letters (`carroca.server.storage.names`), and a key is one player's.
Before, only names
that mixed alphabets were refused, so a whole name in Cyrillic or Greek letters passed.
"""

from __future__ import annotations

import asyncio
import unicodedata
from collections.abc import Iterator

import homoglyph
import hypothesis
import pytest
import sqlalchemy as sa
from alembic import command
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from homoglyph._skeleton import skeleton
from hypothesis import HealthCheck, assume, given, reject
from hypothesis import strategies as st
from tests.support.examples import examples
from tests.support.server_app import settings_for

from carroca.server.app import create_app
from carroca.server.errors import NAME_LOOKALIKE, NAME_TAKEN, ServerError
from carroca.server.players.accounts import ASCII_DIGITS, NAME_MAX, NAME_SEPARATORS, check_name
from carroca.server.storage.db import alembic_config, make_engine, players
from carroca.server.storage.names import KEY_MAX, KEYS_UNICODE_VERSION, lookalike_keys
from carroca.server.storage.store import NameTaken, Store, token_hash

# Stored state is this module's subject: `make unit-postgres` runs it again on PostgreSQL.
pytestmark = pytest.mark.postgres

# (a name taken first, a name in another alphabet that draws the same)
LOOKALIKES = [
    ("paca59", "раса59"),  # Cyrillic р, а, с, а
    ("ABE00", "ΑΒΕ00"),  # Greek Α, Β, Ε
    ("João", "Јоа\u0303о"),  # Cyrillic Ј, о, а (with a tilde), о
    ("paca59", "РАСА59"),  # draws as "PACA59", which is "paca59" in capitals
    ("XEPOX", "херох"),  # draws as "xerox", the same name in small letters
    ("Maria", "rnaria"),  # "rn" draws as "m"
    ("Ivan", "lvan"),  # a capital I draws as a small l
]


def sign_in(client: TestClient, name: str) -> int:
    r = client.post("/api/guest", json={"name": name})
    assert r.status_code == 200, r.text
    return int(r.json()["player"]["id"])


@pytest.mark.parametrize(("first", "lookalike"), LOOKALIKES)
def test_a_lookalike_of_a_taken_name_is_refused(client: TestClient, first: str,
                                                lookalike: str) -> None:
    sign_in(client, first)
    client.cookies.clear()
    for route, body in (("/api/guest", {"name": lookalike}),
                        ("/api/register", {"name": lookalike, "password": "senha-secreta"})):
        r = client.post(route, json=body)
        assert r.status_code == 409, r.text
        assert r.json()["error"] == {"code": "name_taken", "message": NAME_LOOKALIKE}


@pytest.mark.parametrize(("first", "lookalike"), LOOKALIKES)
def test_whichever_comes_first_keeps_the_name(client: TestClient, first: str,
                                              lookalike: str) -> None:
    sign_in(client, lookalike)
    client.cookies.clear()
    r = client.post("/api/guest", json={"name": first})
    assert r.status_code == 409 and r.json()["error"]["message"] == NAME_LOOKALIKE


@pytest.mark.parametrize(("first", "mixed"), [("João", "Jоão"), ("Ana", "Anа")])
def test_one_letter_of_another_alphabet_stays_a_bad_name(client: TestClient,
                                                         first: str, mixed: str) -> None:
    sign_in(client, first)
    r = client.post("/api/guest", json={"name": mixed})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_name"


def test_the_same_name_in_other_capitals_says_it_is_taken(client: TestClient) -> None:
    sign_in(client, "paca59")
    r = client.post("/api/guest", json={"name": "PACA59"})
    assert r.status_code == 409 and r.json()["error"]["message"] == NAME_TAKEN


@pytest.mark.parametrize("names", [
    # Accents draw something: "João" and "Joao" are two names, as before.
    ["João", "Joao", "Joäo", "José", "Jose"],
    ["Ana", "Anna", "Ada", "Ана"],  # Cyrillic "Ана" draws with an н, not an n
    ["Maria", "Mária", "Мария"],
    ["Ivan", "Иван", "ivo", "lvo"],  # "ivo" and "lvo" differ by the dot
    ["Nguyễn", "Nguyên", "Tiếng"],
    ["Ελένη", "Eleni", "Helena"],
    # Greek capital iota draws as "I", not as "L": folding case after the skeleton would merge
    # them (I and small l look alike, and L folds to l).
    ["HELENA", "ΗΕΙΕΝΑ"],
])
def test_distinct_names_are_all_accepted(client: TestClient, names: list[str]) -> None:
    ids = set()
    for name in names:
        client.cookies.clear()
        ids.add(sign_in(client, name))
    assert len(ids) == len(names)


@pytest.mark.parametrize("name", ["ВОТ", "ВОТ 1", "Β0Τ", "B0T"])
def test_lookalikes_of_reserved_words_are_reserved(name: str) -> None:
    with pytest.raises(ServerError) as refused:
        check_name(name)
    assert refused.value.code == "bad_name" and "reservado" in refused.value.message


@pytest.mark.parametrize("name", ["Boto", "Botelho", "Вотан"])
def test_names_that_only_start_like_them_pass(name: str) -> None:
    assert check_name(name) == name


# ---------------------------------------------------------------------- the keys themselves


def test_the_table_is_the_one_the_stored_keys_were_computed_with() -> None:
    # A new confusables table changes keys: it needs a migration that recomputes them (as 0008
    # does) before KEYS_UNICODE_VERSION may follow it.
    assert homoglyph.UNICODE_VERSION == KEYS_UNICODE_VERSION


def _name_characters() -> Iterator[str]:
    """Every character a nickname may hold, in NFKC (as names are stored)."""
    for cp in range(0x110000):
        ch = chr(cp)
        kind = unicodedata.category(ch)
        if kind[0] == "L" or kind in ("Mn", "Mc") or ch in ASCII_DIGITS or ch in NAME_SEPARATORS:
            yield unicodedata.normalize("NFKC", ch)


def test_every_character_settles_and_fits_its_column() -> None:
    """Each character's keys are fixed points of the skeleton (reached before the rounds ran
    out), and a name of NAME_MAX characters fits the key columns (a name's key is the keys of its
    characters, put together)."""
    longest = 0
    for text in _name_characters():
        for key in lookalike_keys(text):
            assert skeleton(key) == key, (text, key)
            longest = max(longest, -(-len(key) // len(text)))
    assert longest * NAME_MAX <= KEY_MAX


# Latin letters and the Cyrillic and Greek letters that draw the same
CYRILLIC = dict(zip("aceopxyABCEHKMOPTX", "асеорхуАВСЕНКМОРТХ", strict=True))
GREEK = dict(zip("ABEHIKMNOPTXYZo", "ΑΒΕΗΙΚΜΝΟΡΤΧΥΖο", strict=True))
LATIN = st.text("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZáãçéêíóôõúü0123456789 _-.",
                min_size=3, max_size=NAME_MAX)
NAMES = (LATIN | st.text("абвгдежзийклмнопрстуфхцчшщъыьэюяАБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ09 _",
                         min_size=3, max_size=NAME_MAX)
         | st.text("αβγδεζηθικλμνξοπρστυφχψωάέήίόύώΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩ19 -",
                   min_size=3, max_size=NAME_MAX))


def valid(name: str) -> str:
    try:
        return check_name(name)
    except ServerError:
        reject()


@hypothesis.settings(max_examples=examples(300), deadline=None, database=None)
@given(NAMES)
def test_a_key_is_its_own_key(name: str) -> None:
    typed, folded = lookalike_keys(valid(name))
    assert skeleton(typed) == typed and lookalike_keys(typed)[0] == typed
    assert skeleton(folded) == folded


@pytest.fixture
def store(database: str) -> Iterator[Store]:
    s = Store(database)
    yield s
    s.close()


def _empty(store: Store) -> None:
    with store.engine.begin() as conn:
        conn.execute(players.delete())


async def _refused(store: Store, name: str) -> NameTaken:
    with pytest.raises(NameTaken) as taken:
        await store.create_player(name, "guest")
    return taken.value


PROPERTY = hypothesis.settings(max_examples=examples(60), deadline=None, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


@PROPERTY
@given(NAMES)
def test_a_name_in_other_capitals_is_refused_as_taken(store: Store, name: str) -> None:
    name = valid(name)
    variants = set()
    for variant in (name.upper(), name.lower(), name.swapcase(), name.title()):
        try:
            variants.add(check_name(variant))
        except ServerError:  # "ß" in capitals may grow past 20 characters
            continue

    async def run() -> None:
        await store.create_player(name, "guest")
        for variant in variants:
            assert not (await _refused(store, variant)).lookalike

    try:
        asyncio.run(run())
    finally:
        _empty(store)


SPELLINGS = st.sampled_from([CYRILLIC, GREEK]).flatmap(lambda letters: st.tuples(
    st.just(letters), st.text("".join(letters) + "0123456789", min_size=3, max_size=NAME_MAX)))


@PROPERTY
@given(SPELLINGS)
def test_a_name_spelled_with_lookalike_letters_is_refused(
    store: Store, spelling: tuple[dict[str, str], str]
) -> None:
    letters, latin = spelling
    latin = valid(latin)
    assume(any(ch in letters for ch in latin))
    other = valid("".join(letters.get(ch, ch) for ch in latin))

    async def run() -> None:
        await store.create_player(latin, "guest")
        assert (await _refused(store, other)).lookalike

    try:
        asyncio.run(run())
    finally:
        _empty(store)


def test_racing_lookalikes_leave_one_winner(store: Store) -> None:
    """Sign-ups of look-alike names at once (on PostgreSQL, on several database threads): the
    unique keys let one through, whichever checked first."""
    names = ["paca59", "раса59", "РАСА59", "Paca59", "PACA59", "Раса59", "ΡΑϹΑ59", "pacа59"]

    async def run() -> list[object]:
        return list(await asyncio.gather(*(store.create_player(n, "guest") for n in names),
                                         return_exceptions=True))

    for _ in range(5):
        results = asyncio.run(run())
        made = [r for r in results if isinstance(r, dict)]
        assert len(made) == 1 and all(isinstance(r, NameTaken) for r in results
                                      if not isinstance(r, dict)), results
        _empty(store)


# ---------------------------------------------------------------------- existing players


# The stored hashes carry their own cost, which the server's check then pays: the least argon2
# allows, since what is tested is who keeps which name, not the hashing.
_hasher = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
OLD = [  # (name, password or None for a guest), in the order they signed up before the rule
    ("paca59", "senha-da-paca"),
    ("раса59", "senha-da-pаса"),
    ("ABE00", None),
    ("ΑΒΕ00", None),
    ("Ivan", "senha-do-ivan"),
    ("lvan", "senha-do-lvan"),
    ("Helena", "senha-da-helena"),
]


def _old_players(url: str) -> dict[str, int]:
    """The players of a database from before the rule (revision 0007), some sharing a key."""
    old = sa.table("players", sa.column("name"), sa.column("name_key"), sa.column("kind"),
                   sa.column("password_hash"), sa.column("created_at"),
                   sa.column("guest_key_hash"))
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            for i, (name, password) in enumerate(OLD):
                conn.execute(old.insert().values(
                    name=name, name_key=name.casefold(), kind="account" if password else "guest",
                    password_hash=_hasher.hash(password) if password else None,
                    created_at=1.7e9 + i,
                    guest_key_hash=None if password else token_hash(f"chave-{name}")))
            rows = conn.execute(sa.text("SELECT id, name FROM players"))
            return {name: pid for pid, name in rows}
    finally:
        engine.dispose()


def test_players_that_already_look_alike_all_keep_their_names(database: str) -> None:
    cfg = alembic_config(database)
    command.downgrade(cfg, "0007")
    ids = _old_players(database)
    with TestClient(create_app(settings_for(database))) as app:  # its start migrates
        for name, password in OLD:
            app.cookies.clear()
            if password:
                r = app.post("/api/login", json={"name": name, "password": password})
            else:
                r = app.post("/api/guest", json={"name": name, "key": f"chave-{name}"})
            assert r.status_code == 200, (name, r.text)
            assert r.json()["player"] == {"id": ids[name], "name": name,
                                          "kind": "account" if password else "guest"}
        # The twin guest registers under their own name: the account keeps it.
        app.cookies.clear()
        assert app.post("/api/guest", json={"name": "ΑΒΕ00", "key": "chave-ΑΒΕ00"}) \
            .status_code == 200
        r = app.post("/api/register", json={"name": "ΑΒΕ00", "password": "senha-secreta"})
        assert r.status_code == 200 and r.json()["player"]["id"] == ids["ΑΒΕ00"]
        # No one else gets any of these names or their look-alikes.
        app.cookies.clear()
        for name in ("PACA59", "РАСА59", "abe00", "ΑΒΕΟΟ", "IVAN", "LVAN", "HELENA"):
            r = app.post("/api/guest", json={"name": name})
            assert r.status_code == 409, (name, r.text)
    engine = make_engine(database)
    try:
        with engine.connect() as conn:
            twins = dict(conn.execute(sa.select(players.c.name, players.c.skeleton_twin)).all())
    finally:
        engine.dispose()
    # The first to sign up holds the key; a later look-alike holds its own id.
    assert twins == {"paca59": 0, "раса59": ids["раса59"], "ABE00": 0, "ΑΒΕ00": ids["ΑΒΕ00"],
                     "Ivan": 0, "lvan": ids["lvan"], "Helena": 0}


def test_the_migration_goes_back_and_forth(database: str) -> None:
    cfg = alembic_config(database)
    command.downgrade(cfg, "0007")
    _old_players(database)
    command.upgrade(cfg, "head")
    command.downgrade(cfg, "0007")
    command.upgrade(cfg, "head")
    engine = make_engine(database)
    try:
        with engine.connect() as conn:
            keys = {name: (typed, folded) for name, typed, folded in conn.execute(
                sa.select(players.c.name, players.c.name_skeleton,
                          players.c.name_skeleton_folded))}
    finally:
        engine.dispose()
    assert keys == {name: lookalike_keys(name) for name, _ in OLD}
