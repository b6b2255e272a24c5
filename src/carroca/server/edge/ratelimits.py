"""Rate limits answered with 429 and `Retry-After`, counted by the `limits` library.

A moving window per key (an address, an account, a player) in memory: exact for one process,
cheap for short windows (a timestamp a hit, bounded by the limit's amount). Friend requests are
counted in a fixed window that starts at a player's first request instead: the moving window
kept an object a request for the whole hour (3.2 KiB a player after twenty requests), the fixed
window keeps one count (0.3 KiB). It is exact within a window; across the end of one and the
start of the next a player may send up to twice the limit, which for friend requests is
harmless. The nodes of a cluster share the same windows in Redis (the library's Redis storage: a
sorted set per key updated by a Lua script, or a count that expires); those calls are
synchronous, which is acceptable for what they count: sign-ins, guests, new tables, reviews,
tournaments and their entries, friend requests, never moves. The limits themselves are settings
(`limit_*`).
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable

from limits import RateLimitItem, parse
from limits.storage import MemoryStorage, Storage, storage_from_string
from limits.strategies import FixedWindowRateLimiter, MovingWindowRateLimiter, RateLimiter

from carroca.server import metrics
from carroca.server.errors import RateLimited

STORAGE_DOWN = [False]  # whether the last question to the storage failed (logged once)


class Limit:
    """One named limit ("10/10 minutes") over keys such as an address or an account."""

    def __init__(self, limiter: RateLimiter, name: str, spec: str,
                 message: str) -> None:
        self.limiter = limiter
        self.name = name
        self.item: RateLimitItem = parse(spec)
        self.message = message

    def retry_after(self, key: str) -> int:
        stats = self.limiter.get_window_stats(self.item, self.name, key)
        return max(1, math.ceil(stats.reset_time - time.time()))

    def check(self, key: str) -> None:
        """Refuse (429) when `key` has used its allowance, without spending any."""
        if not self._ask(self.limiter.test, key):
            metrics.refused(self.name)
            raise RateLimited(self.retry_after(key), self.message)

    def hit(self, key: str) -> None:
        """Spend one; refuse (429) when nothing was left."""
        if not self._ask(self.limiter.hit, key):
            metrics.refused(self.name)
            raise RateLimited(self.retry_after(key), self.message)

    def _ask(self, question: Callable[[RateLimitItem, str, str], bool], key: str) -> bool:
        """The limiter's answer; while its storage (Redis, for several nodes) is unreachable,
        requests are let through, logged once per outage: an outage of the limits must not
        stop people from signing in."""
        try:
            answer = question(self.item, self.name, key)
        except Exception as exc:
            if not STORAGE_DOWN[0]:
                STORAGE_DOWN[0] = True
                logging.getLogger("carroca.server").error(
                    "rate-limit storage unavailable, limits not applied: %s", exc)
            return True
        if STORAGE_DOWN[0]:
            STORAGE_DOWN[0] = False
            logging.getLogger("carroca.server").warning("rate-limit storage back")
        return bool(answer)

    def untouched(self, key: str) -> bool:
        """Nothing spent by `key` in the window (False when the storage cannot say)."""
        try:
            stats = self.limiter.get_window_stats(self.item, self.name, key)
        except Exception:
            return False
        return stats.remaining >= self.item.amount

    def clear(self, key: str) -> None:
        self.limiter.clear(self.item, self.name, key)


class RateLimits:
    """Every limit of the server, from its settings; the messages are what players read."""

    def __init__(self, *, login_ip: str, login_account: str, guest_ip: str, register_ip: str,
                 tables_player: str, reviews_ip: str, password_ip: str = "30/10 minutes",
                 tournaments_player: str = "10/hour",
                 tournament_entries_player: str = "30/10 minutes",
                 friend_requests_player: str = "30/hour",
                 challenges_player: str = "6/minute",
                 profiles_ip: str = "120/minute",
                 signups: str = "60/10 seconds", storage: str = "") -> None:
        # Redis: short timeouts, as these calls block the event loop while they wait.
        store = storage_from_string(storage, socket_timeout=0.5, socket_connect_timeout=0.5) \
            if storage else MemoryStorage()
        if not isinstance(store, Storage):
            raise ValueError(f"not a synchronous rate-limit storage: {storage}")
        moving = MovingWindowRateLimiter(store)
        fixed = FixedWindowRateLimiter(store)  # a window from the first hit: one count a key
        wait = "Espere um pouco e tente de novo."

        def limit(name: str, spec: str, what: str, limiter: RateLimiter = moving) -> Limit:
            text = f"{what} {wait[0].lower()}{wait[1:]}" if what.endswith(" ou") \
                else f"{what} {wait}"
            return Limit(limiter, name, spec, text)

        self.login_ip = limit("login-ip", login_ip,
                              "Muitas tentativas de entrar erradas deste endereço.")
        self.login_account = limit(
            "login-account", login_account, "Muitas tentativas erradas para esta conta. Entre "
            "de um aparelho onde você já entrou antes, ou")
        self.login_device = limit("login-device", login_ip,
                                  "Muitas tentativas de entrar erradas deste aparelho.")
        self.password_ip = limit("password-ip", password_ip,
                                 "Muitas tentativas de entrar deste endereço.")
        self.guest_ip = limit("guest-ip", guest_ip, "Muitos convidados criados deste endereço.")
        self.register_ip = limit("register-ip", register_ip,
                                 "Muitas contas criadas deste endereço.")
        self.signups = limit("signups", signups,
                             "Muita gente chegando ao mesmo tempo para novos apelidos (quem já "
                             "jogou aqui entra normalmente).")
        self.tables_player = limit("tables-player", tables_player,
                                   "Você criou muitas mesas seguidas.")
        self.reviews_ip = limit("reviews-ip", reviews_ip, "Muitas análises pedidas seguidas.")
        self.tournaments_player = limit("tournaments-player", tournaments_player,
                                        "Você criou muitos torneios seguidos.")
        self.tournament_entries_player = limit(
            "tournament-entries-player", tournament_entries_player,
            "Muitas inscrições e desistências seguidas em torneios.")
        self.friend_requests_player = limit("friend-requests-player", friend_requests_player,
                                            "Você mandou muitos pedidos de amizade seguidos.",
                                            fixed)
        self.challenges_player = limit("challenges-player", challenges_player,
                                       "Você mandou muitos desafios seguidos.")
        self.profiles_ip = limit("profiles-ip", profiles_ip, "Muitos perfis abertos seguidos.")
