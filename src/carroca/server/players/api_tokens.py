"""Personal API tokens and bot accounts (the Bot API, docs/bots.md).

A token is made from the profile page (a signed-in browser session), shown once, and from then on
names its player and its scopes to the API's routes; it is never a session: the people's routes
and the WebSocket do not take it. Lookups are cached for a few seconds so that a bot's calls do
not each reach the database; a revocation on this node is dropped from the cache at once (on
another node of a cluster it lasts up to `CACHE_SECONDS`). Each token spends calls from a budget
refilled at a rate, in this process, as a socket's frames do.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass

from carroca.server.errors import (
    AlreadyPlayed,
    BadScopes,
    BadToken,
    BotNeedsAccount,
    MissingScope,
    NotABot,
    NoToken,
    TokensNeedAccount,
    TooManyApiCalls,
    TooManyStreams,
    TooManyTokens,
    WaitingSomewhere,
)
from carroca.server.records import Player
from carroca.server.settings import Settings
from carroca.server.storage.plumbing import token_hash
from carroca.server.storage.store import Store
from carroca.server.storage.tokens import TokenOwner, TokenRow

PREFIX = "crc_"  # so that a person (or a secret scanner) knows a carroca token when seen
#: What a token may be given, and what each lets a program do (shown on the profile page).
SCOPES: dict[str, str] = {
    "bot:play": "jogar como bot: eventos, mesas, jogadas, chat, desistir",
    "challenge:write": "desafiar e responder desafios",
    "tournament:write": "inscrever-se em torneios",
}
CACHE_SECONDS = 5.0


@dataclass(slots=True)
class _Budget:
    left: float
    at: float


class ApiTokens:
    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self._cache: dict[str, tuple[TokenOwner, float]] = {}
        self._budgets: dict[int, _Budget] = {}
        self._streams: dict[int, int] = {}

    # ------------------------------------------------------------------ the owner's side

    async def make_bot(self, player: Player, queued: bool = False) -> Player:
        """The account becomes a bot account, for good; refused once it has played, and while
        it waits as a person (`queued`: in this node's ranked queue; the cluster's and the
        events' entries are read with the change)."""
        if queued:
            raise WaitingSomewhere
        answer = await self.store.make_bot(player["id"])
        if answer == "waiting":
            raise WaitingSomewhere
        if answer == "not_account":
            raise BotNeedsAccount
        if answer == "played":
            raise AlreadyPlayed
        self._cache.clear()  # cached owners carry the kind
        return Player(id=player["id"], name=player["name"], kind="bot")

    async def create(self, player: Player, label: str, scopes: list[str]
                     ) -> tuple[str, TokenRow]:
        """A new token: the token itself (shown once) and its row."""
        if player["kind"] not in ("account", "bot"):
            raise TokensNeedAccount
        wanted = sorted(set(scopes))
        if not wanted or any(s not in SCOPES for s in wanted):
            raise BadScopes(list(SCOPES))
        token = PREFIX + secrets.token_urlsafe(30)
        most = self.settings.max_api_tokens
        row = await self.store.add_token(player["id"], token, label.strip() or "token", wanted,
                                         most)
        if row is None:
            raise TooManyTokens(most)
        return token, row

    async def listed(self, player: Player) -> list[TokenRow]:
        return await self.store.tokens_of(player["id"])

    async def revoke(self, player: Player, token_id: int) -> None:
        digest = await self.store.revoke_token(player["id"], token_id)
        if digest is None:
            raise NoToken
        for token in [t for t in self._cache if token_hash(t) == digest]:
            del self._cache[token]

    # ------------------------------------------------------------------ a program's side

    async def owner(self, token: str | None, scope: str | None) -> TokenOwner:
        """Whom `token` speaks for, if it may do `scope` (None: anything); spends one call of
        its budget. `bot:play` is for bot accounts only."""
        if not token or not token.startswith(PREFIX) or len(token) > 100:
            raise BadToken
        now = time.monotonic()
        hit = self._cache.get(token)
        if hit is not None and hit[1] > now:
            found = hit[0]
        else:
            looked = await self.store.token_owner(token)
            if looked is None:
                self._cache.pop(token, None)
                raise BadToken
            found = looked
            if len(self._cache) >= 10_000:
                self._cache.clear()
            self._cache[token] = (found, now + CACHE_SECONDS)
        if scope is not None and scope not in found["scopes"]:
            raise MissingScope(scope)
        if scope == "bot:play" and found["player"]["kind"] != "bot":
            raise NotABot
        self._spend(found["token_id"], now)
        return found

    def _spend(self, token_id: int, now: float) -> None:
        rate, burst = self.settings.api_calls_per_second, float(self.settings.api_call_burst)
        if not rate:
            return
        budget = self._budgets.get(token_id)
        if budget is None:
            if len(self._budgets) >= 100_000:
                self._budgets.clear()
            budget = self._budgets[token_id] = _Budget(burst, now)
        budget.left = min(burst, budget.left + (now - budget.at) * rate)
        budget.at = now
        if budget.left < 1:
            raise TooManyApiCalls(max(1, int((1 - budget.left) / rate) + 1))
        budget.left -= 1

    async def still_live(self, token_id: int) -> bool:
        """An open stream's token, asked again at each of its keep-alives: a revocation or an
        operator's closing ends the streams open with it within that time, on every node."""
        try:
            return await self.store.token_live(token_id)
        except Exception:  # the database is away: the stream goes on, asked again later
            return True

    def stream_opened(self, token_id: int) -> None:
        """One more open stream for the token (refused beyond the setting)."""
        most = self.settings.api_streams_per_token
        if self._streams.get(token_id, 0) >= most:
            raise TooManyStreams(most)
        self._streams[token_id] = self._streams.get(token_id, 0) + 1

    def stream_closed(self, token_id: int) -> None:
        left = self._streams.get(token_id, 0) - 1
        if left > 0:
            self._streams[token_id] = left
        else:
            self._streams.pop(token_id, None)
