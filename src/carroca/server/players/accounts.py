"""Players: guests with a nickname, accounts with an argon2 password, sessions in the database.

A session is a random token in an HTTP-only cookie (or a bearer header for programs); only its
sha256 is stored, so a leaked database does not hand out sessions. Sessions live in the database
and so survive a restart; a guest's expires sooner than an account's.

Password checks cost 0.1–0.4 s of CPU each (argon2), so they are bounded: two run at a time, at
most `hash_queue` wait, and one at a time per address; beyond that the answer is 429 at once.
Failed logins are limited per address and per account, and a limited address gets 429 before any
hashing, so a flood of guesses can neither try many passwords nor delay honest logins. A browser
that signed in to an account keeps a device cookie: from a known device the account's limit does
not apply (the device has its own), and its check waits for a slot instead of being refused, so
guesses from many addresses cannot lock the owner out.
"""

from __future__ import annotations

import asyncio
import hmac
import re
import secrets
import time
import unicodedata
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from carroca.server.edge.ratelimits import RateLimits
from carroca.server.errors import (
    AccountClosed,
    BadGuestKey,
    BadLogin,
    BadName,
    MixedName,
    NicknameLookalike,
    NicknameTaken,
    OffensiveName,
    PasswordChecksBusy,
    ReservedName,
    WeakPassword,
    WrongPassword,
)
from carroca.server.players.words import word_list
from carroca.server.records import Player, PlayerKind
from carroca.server.settings import Settings
from carroca.server.storage.names import settled_skeleton
from carroca.server.storage.store import NameTaken, Store, token_hash

COOKIE = "carroca_session"
DEVICE_COOKIE = "carroca_device"
DEVICE_DAYS = 365.0
# A nickname: 3–20 characters, letters of any alphabet (accents included), digits 0–9, space,
# "_", "-" and "."; see check_name.
NAME_MIN, NAME_MAX = 3, 20
NAME_SEPARATORS = frozenset(" _-.")
ASCII_DIGITS = frozenset("0123456789")
# Alphabets whose letters look alike ("a" and Cyrillic "а"): a nickname uses one of them only,
# so that "Mаria" with a Cyrillic "а" cannot pass for "Maria".
LOOKALIKE_SCRIPTS = frozenset({"LATIN", "GREEK", "CYRILLIC"})
MAX_MARKS = 2  # combining accents in a row after one letter (Vietnamese needs two)
# The words themselves (alone or followed by a separator or digit), not names like "Botelho".
RESERVED = re.compile(r"(bot|admin|carro[cç]a)([ _.\-0-9]|$)")
MIN_PASSWORD = 8
# A session looked up in the last minute is not looked up again (a logout here drops it at once;
# on another node of a multi-node deployment it takes effect within this time).
CACHE_SECONDS = 60.0
#: How much longer than the usual queue a login to an account without recent failures may wait.
CLEAN_QUEUE = 8
CACHE_SIZE = 100_000


# Letters that draw nothing (Hangul fillers, the halfwidth one): a name of them is invisible.
INVISIBLE_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")
# Marks that draw nothing (Unicode's default-ignorable ones: variation selectors, the grapheme
# joiner, Mongolian and Khmer invisible signs): "Ana" with one is another name that looks the same.
INVISIBLE_MARKS = frozenset("\u034f\u17b4\u17b5\u180b\u180c\u180d\u180f")


def invisible_mark(ch: str) -> bool:
    cp = ord(ch)
    return ch in INVISIBLE_MARKS or 0xFE00 <= cp <= 0xFE0F or 0xE0100 <= cp <= 0xE01EF


def _name_error(name: str) -> type[BadName] | None:
    """Why `name` (NFKC, stripped) is not a nickname, or None. Letters are Unicode letters (L*)
    with their combining accents (M*, after a letter); no control, format, symbol or other
    character, no digits but 0–9; a separator neither first (nor "-" or space last) nor
    doubled as two spaces."""
    if not NAME_MIN <= len(name) <= NAME_MAX or "  " in name:
        return BadName
    if name[0] in " -." or name[-1] in " -":
        return BadName
    scripts: set[str] = set()
    marks = 0
    previous = ""
    for ch in name:
        kind = unicodedata.category(ch)
        if ch in INVISIBLE_LETTERS:
            return BadName
        if kind[0] == "L":
            marks = 0
            script = unicodedata.name(ch, "").split(" ")[0]
            if script in LOOKALIKE_SCRIPTS:
                scripts.add(script)
        elif kind in ("Mn", "Mc"):
            marks += 1
            if not previous or unicodedata.category(previous)[0] not in "LM" or \
                    marks > MAX_MARKS or invisible_mark(ch):
                return BadName
        elif ch in ASCII_DIGITS or ch in NAME_SEPARATORS:
            marks = 0
        else:
            return BadName
        previous = ch
    return MixedName if len(scripts) > 1 else None


def check_name(name: str) -> str:
    # NFKC: "José" typed with a combining accent is "José", and full-width "Ａｎａ" is "Ana"
    name = unicodedata.normalize("NFKC", name).strip()
    error = _name_error(name)
    if error is not None:
        raise error
    # Reserved words, and their look-alikes in another alphabet (Cyrillic "ВОТ" draws as "BOT")
    if RESERVED.match(name.casefold()) or RESERVED.match(settled_skeleton(name).casefold()):
        raise ReservedName
    return name


async def _create(store: Store, name: str, kind: PlayerKind, password_hash: str | None = None,
                  guest_key_hash: str | None = None) -> Player:
    """A new player, or 409 `name_taken` (in pt-BR, saying when the name only looks alike)."""
    try:
        return await store.create_player(name, kind, password_hash, guest_key_hash)
    except NameTaken as taken:
        raise NicknameLookalike if taken.lookalike else NicknameTaken from None


class Accounts:
    def __init__(self, store: Store, settings: Settings, limits: RateLimits) -> None:
        self.store = store
        self.ttl = settings.session_days * 86400
        self.guest_ttl = settings.guest_session_days * 86400
        self.limits = limits
        self._words = word_list(settings.chat_filter_file)
        self._cache: dict[str, tuple[Player, float]] = {}
        # Hashing costs 0.1–0.4 s of CPU: two at a time, so sign-ups cannot starve the tables.
        self._hashing = asyncio.Semaphore(2)
        self._queue_max = settings.hash_queue
        self._waiting = 0
        self._per_ip: dict[str, int] = {}
        self.hashed = 0  # password hashes computed or checked (for tests and the benchmark)
        self._hasher = PasswordHasher(time_cost=settings.password_time_cost,
                                      memory_cost=settings.password_memory_kib,
                                      parallelism=settings.password_parallelism)

    def _decent(self, name: str) -> None:
        """A new nickname holding a word of the chat filter's list is refused."""
        if self._words.offensive_name(name):
            raise OffensiveName

    async def _session(self, player: Player) -> str:
        token = secrets.token_urlsafe(32)
        ttl = self.guest_ttl if player["kind"] == "guest" else self.ttl
        await self.store.create_session(token, player["id"], ttl)
        return token

    async def _hash(self, ip: str, fn: Any, *args: Any, known: bool = False,
                    clean: bool = False) -> Any:
        """Run an argon2 call within the bounds: a slot of two, a short queue, one per address.
        A known device's login waits its turn instead of being refused, and so does a login to
        an account nobody has guessed at lately (`clean`), within a longer queue: a flood of
        guesses from rotating addresses makes its targets' logins wait, not everyone's."""
        if self._per_ip.get(ip, 0) >= 1:
            raise PasswordChecksBusy()
        if self._waiting >= self._queue_max + 2 and not known and \
                not (clean and self._waiting < CLEAN_QUEUE * (self._queue_max + 2)):
            raise PasswordChecksBusy()
        self._per_ip[ip] = self._per_ip.get(ip, 0) + 1
        self._waiting += 1
        try:
            async with self._hashing:
                self.hashed += 1
                return await asyncio.to_thread(fn, *args)
        finally:
            self._waiting -= 1
            left = self._per_ip[ip] - 1
            if left:
                self._per_ip[ip] = left
            else:
                del self._per_ip[ip]

    async def guest(
        self, name: str, ip: str, key: str | None = None
    ) -> tuple[Player, str, str | None]:
        """(player, session token, guest key). A new guest gets a secret key (only its sha256
        is stored) that signs the same guest in again under that nickname, e.g. after "Sair";
        a returning guest (`key` right) gets no new key: theirs stays valid. A key that is not
        the guest's (a forgotten device's, say) is refused with 401."""
        name = check_name(name)
        self.limits.guest_ip.hit(ip)
        if key:
            row = await self.store.player_by_name(name)
            if row is not None and row["kind"] == "guest":
                stored = row["guest_key_hash"]
                if not stored or not hmac.compare_digest(stored, token_hash(key)):
                    raise BadGuestKey
                if row["closed_at"] is not None:
                    raise AccountClosed
                back = Player(id=row["id"], name=row["name"], kind="guest")
                return back, await self._session(back), None
        self._decent(name)
        self.limits.signups.hit("all")  # a new player: the server's budget for newcomers
        new_key = secrets.token_urlsafe(32)
        player = await _create(self.store, name, "guest", guest_key_hash=token_hash(new_key))
        return player, await self._session(player), new_key

    async def register(
        self, name: str, password: str, current: Player | None, ip: str
    ) -> tuple[Player, str]:
        """A new account, or the current guest keeping their name, games and ratings."""
        if len(password) < MIN_PASSWORD:
            raise WeakPassword(MIN_PASSWORD)
        name = check_name(name)
        self.limits.register_ip.hit(ip)
        self.limits.password_ip.hit(ip)
        digest: str = await self._hash(ip, self._hasher.hash, password)
        if current is not None and current["kind"] == "guest" and \
                current["name"].casefold() == name.casefold():
            await self.store.set_password(current["id"], digest)
            player = Player(id=current["id"], name=current["name"], kind="account")
            for cached, _ in self._cache.values():  # their open sessions are an account now
                if cached["id"] == player["id"]:
                    cached["kind"] = "account"
        else:
            self._decent(name)
            self.limits.signups.hit("all")
            player = await _create(self.store, name, "account", digest)
        return player, await self._session(player)

    async def login(
        self, name: str, password: str, ip: str, device: str | None = None
    ) -> tuple[Player, str, str | None]:
        """(player, session token, new device token or None when the device is known)."""
        self.limits.login_ip.check(ip)
        self.limits.password_ip.hit(ip)  # every check costs argon2, right or wrong
        row = await self.store.player_by_name(unicodedata.normalize("NFKC", name.strip()))
        # The account's limit by its id: every spelling that finds it ("Ｍａｒｉａ", "MARIA")
        # shares one allowance; unknown names by their normal form.
        account = f"id:{row['id']}" if row is not None else \
            unicodedata.normalize("NFKC", name.strip()).casefold()[:64]
        known = False
        if row is not None and device and len(device) <= 100:
            known = await self.store.device_player(device) == row["id"]
        # A known device has its own failure limit; everyone else shares the account's.
        limit, key = ((self.limits.login_device, token_hash(device or "")) if known
                      else (self.limits.login_account, account))
        limit.check(key)
        ok = False
        if row is not None and row["password_hash"]:
            try:
                ok = await self._hash(ip, self._hasher.verify, row["password_hash"], password,
                                      known=known,
                                      clean=self.limits.login_account.untouched(account))
            except (VerificationError, InvalidHashError):
                ok = False
        if not ok or row is None:
            self.limits.login_ip.hit(ip)
            limit.hit(key)
            raise BadLogin
        kind = row["kind"]
        if row["closed_at"] is not None or kind == "deleted":  # a deletion closes it too
            raise AccountClosed
        player = Player(id=row["id"], name=row["name"], kind=kind)
        return player, await self._session(player), None if known else await self.new_device(
            player["id"])

    async def new_device(self, player_id: int) -> str:
        token = secrets.token_urlsafe(32)
        await self.store.add_device(token, player_id, DEVICE_DAYS * 86400)
        return token

    async def player(self, token: str | None) -> Player | None:
        """The session's player; recent answers are cached so that reconnect storms do not queue
        on the database."""
        if not token or len(token) > 100:
            return None
        now = time.monotonic()
        hit = self._cache.get(token)
        if hit is not None and hit[1] > now:
            return hit[0]
        found = await self.store.session_player(token)
        if found is None:
            return None
        player = Player(id=found["id"], name=found["name"], kind=found["kind"])
        if len(self._cache) >= CACHE_SIZE:
            self._cache.clear()
        self._cache[token] = (player, now + min(CACHE_SECONDS, found["expires_at"] - time.time()))
        return player

    def recent_players(self) -> set[int]:
        """Players whose session was looked up in the last minute (still in the cache)."""
        now = time.monotonic()
        return {player["id"] for player, until in self._cache.values() if until > now}

    async def forget(self, player_id: int) -> list[str]:
        """A guest forgets this device ("Esquecer este aparelho"): their key stops signing in
        and every session of theirs ends, so nobody can come back as them. Returns the ended
        sessions (as `session_key` files them) for their sockets to be closed."""
        ended = await self.store.forget_guest(player_id)
        for token in [t for t, (cached, _) in self._cache.items() if cached["id"] == player_id]:
            del self._cache[token]
        return ended

    async def check_password(self, player_id: int, password: str, ip: str) -> None:
        """The account's current password, or 403 `wrong_password` (a guest has none: any
        answer passes). Limited as logins are: per address, and per account."""
        row = await self.store.player_by_id(player_id)
        if row is None or not row["password_hash"]:
            return
        account = f"id:{player_id}"
        self.limits.login_ip.check(ip)
        self.limits.login_account.check(account)
        self.limits.password_ip.hit(ip)
        try:
            ok = await self._hash(ip, self._hasher.verify, row["password_hash"], password[:200],
                                  known=True)
        except (VerificationError, InvalidHashError):
            ok = False
        if not ok:
            self.limits.login_ip.hit(ip)
            self.limits.login_account.hit(account)
            raise WrongPassword

    async def change_password(self, player: Player, current: str, new: str, ip: str,
                              keep: str | None) -> list[str]:
        """A new password once the current one is proven; every other session of the player
        ends. Returns the ended sessions' digests."""
        if len(new) < MIN_PASSWORD:
            raise WeakPassword(MIN_PASSWORD)
        await self.check_password(player["id"], current, ip)
        digest: str = await self._hash(ip, self._hasher.hash, new, known=True)
        await self.store.set_password(player["id"], digest)
        ended = await self.store.end_sessions(player["id"], None, keep=keep)
        self.drop_sessions(ended)
        return ended

    def drop_sessions(self, digests: list[str]) -> None:
        """Ended sessions (by their digests) are no longer answered from the cache."""
        gone = set(digests)
        for token in [t for t in self._cache if token_hash(t) in gone]:
            del self._cache[token]

    def drop_cached(self, player_ids: set[int]) -> None:
        """Their sessions are looked up again (closed by an operator: the lookup fails)."""
        for token in [t for t, (cached, _) in self._cache.items() if cached["id"] in player_ids]:
            del self._cache[token]

    async def logout(self, token: str) -> None:
        self._cache.pop(token, None)
        await self.store.delete_session(token)

    @staticmethod
    def session_key(token: str) -> str:
        """How open sockets are filed by sign-in (the token itself is never kept)."""
        return token_hash(token)
