"""A client of carroca's Bot API (docs/bots.md): a program plays on a carroca server as a bot
account, with a personal token made on its profile page.

`BotClient` wraps the HTTP calls and the two NDJSON streams; `play_game` plays one game with a
function that chooses from the seat's observation; `run_bot` answers challenges and plays every
game the account is seated at, each in a thread of its own, until stopped. `carroca
bot-connect` runs a built-in level (or a function of yours) through them.

The client keeps the server's rules: it moves only when the state says it is the seat's turn,
with an id that grows, on the state's version (a move that comes after the table changed is
refused as `stale_state` and the next state is awaited), and it never sees another seat's tiles
because the server never sends them.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Iterator
from typing import Any

import httpx2

from carroca.rules import Action
from carroca.rules.observation import Observation

log = logging.getLogger("carroca.client")
Frame = dict[str, Any]
STREAM_SILENCE = 60.0  # seconds without a line (the server's keep-alive: 10 s) before a reopen
GAME_TRIES = 8  # a game's stream reopened this many times at most (a restart, a proxy's cut)
#: What a bot is to the client: the seat's observation in, its action out.
Chooser = Callable[[Observation], Action | str]


class ApiError(Exception):
    """A refusal of the server: its HTTP status, code and message (pt-BR); `retry_after`: the
    seconds to wait before trying again, for a limit (429)."""

    def __init__(self, status: int, code: str, message: str,
                 retry_after: float | None = None) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status, self.code, self.message = status, code, message
        self.retry_after = retry_after


class BotClient:
    """The Bot API of the server at `server` (e.g. "http://localhost:8000"), with `token`."""

    def __init__(self, server: str, token: str, *, timeout: float = 30.0,
                 transport: httpx2.BaseTransport | None = None) -> None:
        self.http = httpx2.Client(
            base_url=server.rstrip("/"), headers={"Authorization": f"Bearer {token}"},
            timeout=timeout, transport=transport, trust_env=False)
        self.timeout = timeout

    def close(self) -> None:
        self.http.close()

    def __enter__(self) -> BotClient:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # ------------------------------------------------------------------ calls

    def _call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        resp = self.http.request(method, path, json=body)
        return _answer(resp)

    def account(self) -> Frame:
        """Who the token speaks for (`player`) and its `scopes`."""
        found: Frame = self._call("GET", "/api/bot/account")
        return found

    def move(self, match: str, action: str, move_id: int, version: int | None = None) -> Frame:
        found: Frame = self._call("POST", f"/api/bot/game/{match}/move",
                                  {"id": move_id, "action": action, "version": version})
        return found

    def chat(self, match: str, text: str) -> None:
        self._call("POST", f"/api/bot/game/{match}/chat", {"text": text})

    def resign(self, match: str) -> None:
        self._call("POST", f"/api/bot/game/{match}/resign")

    def challenge(self, ruleset: str, seats: list[str], options: dict[str, Any] | None = None,
                  turn_seconds: float | None = None) -> Frame:
        """Challenge players (`"player:ID"`) or bot accounts to a table: `seats` as the people's
        challenge takes them ("me", "bot:nível", "player:ID")."""
        found: Frame = self._call("POST", "/api/bot/challenges", {
            "ruleset": ruleset, "seats": seats, "options": options,
            "turn_seconds": turn_seconds})
        return found

    def accept(self, challenge: str) -> Frame:
        found: Frame = self._call("POST", f"/api/bot/challenges/{challenge}/accept")
        return found

    def casual(self, ruleset: str, bot_level: str = "medium",
               turn_seconds: float | None = None) -> Frame:
        """A seat at a casual table (`{"match", "seat"}`), with people or, after the casual
        wait, built-in bots of `bot_level`."""
        found: Frame = self._call("POST", "/api/bot/casual", {
            "ruleset": ruleset, "bot_level": bot_level, "turn_seconds": turn_seconds})
        return found

    def ladder(self, ruleset: str) -> Frame:
        """Queue for the bots' ladder (`{"status": "queued"}`, or `"matched"` and `match`)."""
        found: Frame = self._call("POST", "/api/bot/ladder", {"ruleset": ruleset})
        return found

    def register(self, event: str, code: str | None = None) -> Frame:
        """Enter an event that takes bot accounts (a private one with its `code`)."""
        found: Frame = self._call("POST", f"/api/bot/tournaments/{event}/register",
                                  {"code": code})
        return found

    def withdraw(self, event: str) -> Frame:
        found: Frame = self._call("POST", f"/api/bot/tournaments/{event}/withdraw")
        return found

    def decline(self, challenge: str) -> Frame:
        found: Frame = self._call("POST", f"/api/bot/challenges/{challenge}/decline")
        return found

    # ------------------------------------------------------------------ streams

    def _stream(self, path: str, alive: bool = False) -> Iterator[Frame]:
        """The stream's frames; with `alive`, its keep-alive lines too, as `{"type": "alive"}`
        (a reader that wants to stop between events hears from the stream every few seconds)."""
        # The server says it is there every 10 s: a minute of silence is a dead connection.
        with self.http.stream("GET", path,
                              timeout=httpx2.Timeout(self.timeout, read=STREAM_SILENCE)) as resp:
            if resp.status_code != 200:
                resp.read()
                _answer(resp)
            for line in resp.iter_lines():
                if line.strip():
                    yield json.loads(line)
                elif alive:
                    yield {"type": "alive", "data": {}}

    def events(self, alive: bool = False) -> Iterator[Frame]:
        """The account's events (`matched`, `game_end`, `challenge`, ...), as they come."""
        return self._stream("/api/bot/stream/event", alive)

    def game(self, match: str) -> Iterator[Frame]:
        """One game as the bot's seat sees it: `state` frames (and `chat`, `notice`) until the
        last state."""
        return self._stream(f"/api/bot/game/stream/{match}")


def _answer(resp: httpx2.Response) -> Any:
    if resp.status_code >= 400:
        try:
            error = resp.json()["error"]
            code, message = str(error["code"]), str(error["message"])
        except (ValueError, KeyError, TypeError):
            code, message = "http_error", resp.text[:200]
        wait = resp.headers.get("retry-after")
        raise ApiError(resp.status_code, code, message,
                       float(wait) if wait and wait.isdigit() else None)
    return resp.json()


def play_game(client: BotClient, match: str, choose: Chooser,
              on_state: Callable[[Frame], None] | None = None) -> Frame | None:
    """Play one game to its end with `choose`; returns the last state's data (None if the
    stream ended before the game did: open it again to go on)."""
    next_id = 1
    last: Frame | None = None
    for frame in client.game(match):
        if frame["type"] != "state":
            continue
        state: Frame = frame["data"]
        last = state
        # Ids go on from the seat's last accepted move (a game picked up again after a restart).
        next_id = max(next_id, (state.get("last_move_id") or 0) + 1)
        if on_state is not None:
            on_state(state)
        if state["status"] in ("finished", "expired"):
            return state
        view = state.get("view")
        if state["status"] != "playing" or state.get("pause") or not view or \
                view.get("turn") != state.get("seat") or not view.get("legal"):
            continue
        action = choose(Observation.from_dict(view))
        _move(client, match, str(action), next_id, state["version"])
        next_id += 1
    return last if last is not None and last["status"] in ("finished", "expired") else None


def _move(client: BotClient, match: str, action: str, move_id: int, version: int) -> None:
    """One move; a limit's refusal (429) waits as told and tries the same move again (its id
    makes a second arrival a duplicate, never a second move). Any other refusal is logged: the
    table moved on meanwhile, and its next state says how."""
    for _ in range(5):
        try:
            client.move(match, action, move_id, version)
            return
        except ApiError as exc:
            if exc.status != 429:
                log.info("move refused at %s: %s", match, exc)
                return
            log.warning("move at %s waits %s s: %s", match, exc.retry_after, exc.message)
            threading.Event().wait(exc.retry_after or 1.0)
    log.warning("move at %s given up: still limited", match)


def run_bot(client: BotClient, make: Callable[[], Chooser],
            accept: Callable[[Frame], bool] = lambda challenge: True,
            stop: threading.Event | None = None,
            on_state: Callable[[str, Frame], None] | None = None) -> None:
    """Answer challenges (`accept` decides) and play every game the account is seated at, one
    thread a game, each with a chooser from `make`; until `stop` is set (checked at each line of
    the stream, a keep-alive's included). A lost stream is opened again, after 1 s, then twice
    as long each time up to 30 s; the games in play go on meanwhile (a refusal, such as a
    revoked token, ends it). `on_state(match, state)` hears every state of every game."""
    stop = stop or threading.Event()  # never set: until the process ends
    playing: dict[str, threading.Thread] = {}

    def game(match: str) -> None:
        chooser = make()
        hear = None if on_state is None else (lambda state: on_state(match, state))
        try:
            for tries in range(GAME_TRIES):
                try:
                    if play_game(client, match, chooser, hear) is not None:
                        return  # played to its end
                except ApiError as exc:
                    if exc.status < 500 and exc.status != 429:
                        log.info("game %s: %s", match, exc)  # no seat, over, refused
                        return
                except httpx2.TransportError as exc:
                    log.warning("game %s stream lost: %s", match, exc)
                if stop.wait(min(30.0, 2.0 ** tries)):  # then its stream is opened again
                    return
            log.warning("game %s given up after %d tries", match, GAME_TRIES)
        except Exception:
            log.exception("game %s stopped", match)
        finally:
            playing.pop(match, None)

    wait = 1.0
    while not stop.is_set():
        try:
            for frame in client.events(alive=True):
                wait = 1.0
                if stop.is_set():
                    return
                _event(client, frame, accept, playing, game)
        except httpx2.TransportError as exc:  # the server restarts, the network drops
            log.warning("event stream lost (%s); again in %.0f s", exc, wait)
        except ApiError as exc:  # a refused token ends it; a busy or restarting server not
            if exc.status < 500 and exc.status != 429:
                raise
            wait = max(wait, exc.retry_after or 0.0)
            log.warning("event stream refused (%s); again in %.0f s", exc, wait)
        else:
            log.info("event stream ended; again in %.0f s", wait)
        if stop.wait(wait):
            return
        wait = min(30.0, wait * 2)


def _event(client: BotClient, frame: Frame, accept: Callable[[Frame], bool],
           playing: dict[str, threading.Thread], game: Callable[[str], None]) -> None:
    kind, data = frame["type"], frame["data"]
    if kind == "challenge":
        try:
            (client.accept if accept(data) else client.decline)(data["id"])
        except ApiError as exc:
            log.info("challenge %s: %s", data["id"], exc)
    elif kind in ("matched", "tournament") and data.get("match") and \
            data["match"] not in playing:
        # `matched`: a game started; `tournament` with a match: an event's game waits for its
        # players (its stream, open, is the seat's presence).
        thread = threading.Thread(target=game, args=(data["match"],), daemon=True,
                                  name=f"game-{data['match']}")
        playing[data["match"]] = thread
        thread.start()


def level_chooser(level: str, seed: int | None = None) -> Chooser:
    """A built-in level (`carroca.bots`) as a chooser."""
    from carroca.bots import make_bot

    return make_bot(level, seed).choose
