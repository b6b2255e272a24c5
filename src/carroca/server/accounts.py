"""Players: guests with a nickname, accounts with an argon2 password, sessions in the database.

A session is a random token in an HTTP-only cookie (or a bearer header for programs); only its
sha256 is stored, so a leaked database does not hand out sessions. Sessions live in the database
and so survive a restart; a guest's expires sooner than an account's.

Password checks cost 0.1–0.4 s of CPU each (argon2), so they are bounded: two run at a time, at
most `hash_queue` wait, and one at a time per address; beyond that the answer is 429 at once.
Failed logins are limited per address and per account, and a limited address gets 429 before any
hashing, so a flood of guesses can neither try many passwords nor delay honest logins.
"""

from __future__ import annotations

import asyncio
import re
import secrets
import time
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from carroca.server.errors import LobbyError, RateLimited
from carroca.server.ratelimits import RateLimits
from carroca.server.settings import Settings
from carroca.server.store import Store, token_hash

COOKIE = "carroca_session"
NAME = re.compile(r"^[0-9A-Za-zÀ-ÖØ-öø-ÿ_][0-9A-Za-zÀ-ÖØ-öø-ÿ _.-]{1,18}[0-9A-Za-zÀ-ÖØ-öø-ÿ_.]$")
# The words themselves (alone or followed by a separator or digit), not names like "Botelho".
RESERVED = re.compile(r"(bot|admin|carro[cç]a)([ _.\-0-9]|$)")
MIN_PASSWORD = 8
# A session looked up in the last minute is not looked up again (a logout here drops it at once;
# on another node of a multi-node deployment it takes effect within this time).
CACHE_SECONDS = 60.0
CACHE_SIZE = 100_000

_hasher = PasswordHasher()


def check_name(name: str) -> str:
    name = name.strip()
    if not NAME.fullmatch(name) or "  " in name:
        raise LobbyError(
            422, "bad_name",
            "Apelido inválido: de 3 a 20 letras, números, espaço, '_', '-' ou '.'.",
        )
    if RESERVED.match(name.casefold()):
        raise LobbyError(422, "bad_name", "Esse apelido é reservado; escolha outro.")
    return name


BUSY = "Muitas tentativas de entrar ao mesmo tempo; tente de novo em instantes."


class Accounts:
    def __init__(self, store: Store, settings: Settings, limits: RateLimits) -> None:
        self.store = store
        self.ttl = settings.session_days * 86400
        self.guest_ttl = settings.guest_session_days * 86400
        self.limits = limits
        self._cache: dict[str, tuple[dict[str, Any], float]] = {}
        # Hashing costs 0.1–0.4 s of CPU: two at a time, so sign-ups cannot starve the tables.
        self._hashing = asyncio.Semaphore(2)
        self._queue_max = settings.hash_queue
        self._waiting = 0
        self._per_ip: dict[str, int] = {}
        self.hashed = 0  # password hashes computed or checked (for tests and the benchmark)

    async def _session(self, player: dict[str, Any]) -> str:
        token = secrets.token_urlsafe(32)
        ttl = self.guest_ttl if player["kind"] == "guest" else self.ttl
        await self.store.create_session(token, player["id"], ttl)
        return token

    async def _hash(self, ip: str, fn: Any, *args: Any) -> Any:
        """Run an argon2 call within the bounds: a slot of two, a short queue, one per address."""
        if self._per_ip.get(ip, 0) >= 1 or self._waiting >= self._queue_max + 2:
            raise RateLimited(1, BUSY, code="busy")
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

    async def guest(self, name: str, ip: str) -> tuple[dict[str, Any], str]:
        name = check_name(name)
        self.limits.guest_ip.hit(ip)
        player = await self.store.create_player(name, "guest")
        if player is None:
            raise LobbyError(409, "name_taken", "Esse apelido já está em uso; escolha outro.")
        return player, await self._session(player)

    async def register(
        self, name: str, password: str, current: dict[str, Any] | None, ip: str
    ) -> tuple[dict[str, Any], str]:
        """A new account, or the current guest keeping their name, games and ratings."""
        if len(password) < MIN_PASSWORD:
            raise LobbyError(422, "weak_password",
                             f"A senha precisa de pelo menos {MIN_PASSWORD} caracteres.")
        name = check_name(name)
        self.limits.register_ip.hit(ip)
        digest: str = await self._hash(ip, _hasher.hash, password)
        if current is not None and current["kind"] == "guest" and \
                current["name"].casefold() == name.casefold():
            await self.store.set_password(current["id"], digest)
            player = {**current, "kind": "account"}
            for cached, _ in self._cache.values():  # their open sessions are an account now
                if cached["id"] == player["id"]:
                    cached["kind"] = "account"
        else:
            created = await self.store.create_player(name, "account", digest)
            if created is None:
                raise LobbyError(409, "name_taken", "Esse apelido já está em uso; escolha outro.")
            player = created
        return player, await self._session(player)

    async def login(self, name: str, password: str, ip: str) -> tuple[dict[str, Any], str]:
        account = name.strip().casefold()[:64]
        self.limits.login_ip.check(ip)
        self.limits.login_account.check(account)
        row = await self.store.player_by_name(name.strip())
        ok = False
        if row is not None and row["password_hash"]:
            try:
                ok = await self._hash(ip, _hasher.verify, row["password_hash"], password)
            except (VerificationError, InvalidHashError):
                ok = False
        if not ok or row is None:
            self.limits.login_ip.hit(ip)
            self.limits.login_account.hit(account)
            raise LobbyError(401, "bad_login", "Apelido ou senha incorretos.")
        player = {"id": row["id"], "name": row["name"], "kind": row["kind"]}
        return player, await self._session(player)

    async def player(self, token: str | None) -> dict[str, Any] | None:
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
        expires = found.pop("expires_at")
        if len(self._cache) >= CACHE_SIZE:
            self._cache.clear()
        self._cache[token] = (found, now + min(CACHE_SECONDS, expires - time.time()))
        return found

    async def logout(self, token: str) -> None:
        self._cache.pop(token, None)
        await self.store.delete_session(token)

    @staticmethod
    def session_key(token: str) -> str:
        """How open sockets are filed by sign-in (the token itself is never kept)."""
        return token_hash(token)
