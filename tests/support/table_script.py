"""A table scripted from the engine: the page's WebSocket answered by the test itself (`Script`),
and what the table tests measure on the page (element rectangles, the table's version)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from tests.support.browser import watch
from tests.support.webplay import TABLE

from carroca import fair
from carroca.rules import Match, actions, get_ruleset, observation
from carroca.rules.rulesets import options_dict

SEED = "33" * 32


def frame(kind: str, data: Any) -> str:
    return json.dumps({"type": kind, "data": data})


def cross_choice(m: Match) -> bool:
    """Seat 0 to play, holding a tile that fits three ends of the spinner's cross."""
    if m.current_player != 0:
        return False
    ends: dict[str, set[str]] = {}
    for a in m.legal_actions():
        if a.kind == "play" and a.end_name:
            ends.setdefault(str(a.tile_name), set()).add(a.end_name)
    return any(len(e) >= 3 and {"up", "down"} <= e for e in ends.values())


class Script:
    """A match of the engine seen from seat `viewer` (None: a spectator); the other seats play
    their first legal action (every seat does with `autoplay`). Its deals are shuffled from
    `seed` and `label`, but for the first one when `first_deal` gives its order. `push` sends a
    frame on the page's socket."""

    def __init__(self, ruleset: str, label: str, viewer: int | None = 0,
                 players: list[dict[str, Any]] | None = None,
                 options: dict[str, Any] | None = None, *, seed: str = SEED,
                 first_deal: list[int] | None = None, autoplay: bool = False) -> None:
        rs = get_ruleset(ruleset)
        self.match = Match(rs, rs.make_options(options or {}))
        self.label = label
        self.seed = seed
        self.first_deal = first_deal
        self.viewer = viewer
        self.version = 1
        self.moves: list[str] = []
        self.autoplay = autoplay
        self.reply_others = True  # the others answer a move of the viewer at once
        self.pause: dict[str, Any] | None = None
        self.sockets: list[Any] = []
        self.players = players or [
            {"name": "Ana", "bot": False, "connected": True} if i == viewer else
            {"name": "bot:greedy", "bot": True, "connected": True} for i in range(rs.seats)
        ]
        name = "Visita" if viewer is None else self.players[viewer]["name"]
        self.me = {"id": 1, "name": name, "kind": "guest"}
        self._deal()

    def _deal(self) -> None:
        m = self.match
        while m.needs_deal:
            if self.first_deal is not None and m.deal_index == 0:
                m.deal(self.first_deal)
            else:
                m.deal(fair.shuffle(self.seed, self.label, m.deal_index))

    def apply(self, text: str, seat: int | None = None) -> None:
        self.match.apply(actions.parse(text), seat)
        self._deal()
        self.version += 1

    def others(self, until: Callable[[Match], bool] | None = None) -> list[dict[str, Any]]:
        frames = []
        m = self.match
        while not m.is_over and m.current_player is not None:
            if until is not None and until(m):
                break
            if m.current_player == self.viewer and not self.autoplay:
                break
            self.apply(str(m.legal_actions()[0]))
            frames.append(self.state())
        return frames

    def state(self, **extra: Any) -> dict[str, Any]:
        m = self.match
        over = m.is_over
        turn = m.current_player
        clock = None
        if turn == self.viewer and not over and self.pause is None:
            seconds = 15.0 if m.phase.name == "CHOICE" else 20.0  # the cinco-carroças choice
            clock = {"seat": turn, "seconds": seconds, "remaining_ms": int(seconds * 1000)}
        view = observation(m, self.viewer).to_dict()
        if self.pause is not None:
            view["legal"] = []
        data: dict[str, Any] = {
            "id": "roteiro", "mode": "casual", "ruleset": m.ruleset.name,
            "options": options_dict(m.options), "status": "finished" if over else "playing",
            "seat": self.viewer, "players": [dict(p) for p in self.players],
            "commitment": "0" * 64, "client_seeds": ["a"] * m.n, "client_seed": "a",
            "version": self.version, "turn_seconds": 20, "clock": clock, "pause": self.pause,
            "more_time": [], "chat": True, "view": view, **extra,
        }
        if over:
            data["server_seed"] = self.seed
        return data

    def push(self, kind: str, data: Any) -> None:
        self.sockets[-1].send(frame(kind, data))

    def serve(self, page: Any, stream: list[dict[str, Any]] | None = None) -> None:
        """Answer the page's /api/me and /ws: the first `join` gets the stream (later ones, the
        state), a move is applied and answered as the server does (state, the others' moves,
        then the ack)."""
        for path in ("**/api/me", "**/api/session"):
            page.route(path, lambda route: route.fulfill(
                json={"player": self.me, "tables": ["roteiro"], "queued": None}))
        pending = [stream]

        def on_socket(ws: Any) -> None:
            self.sockets.append(ws)

            def on_message(message: str | bytes) -> None:
                msg = json.loads(message)
                kind, data = msg["type"], msg["data"]
                if kind == "join":
                    for state in pending.pop() if pending and pending[-1] else [self.state()]:
                        ws.send(frame("state", state))
                    pending.clear()
                elif kind == "move":
                    self.moves.append(data["action"])
                    self.apply(data["action"], self.viewer)
                    ws.send(frame("state", self.state()))
                    for state in self.others() if self.reply_others else []:
                        ws.send(frame("state", state))
                    ws.send(frame("ack", {"id": data["id"], "version": self.version}))
                elif kind == "ping":
                    ws.send(frame("pong", {}))

            ws.on_message(on_message)
            ws.send(frame("hello", {"player": self.me, "protocol": 1}))

        page.route_web_socket("**/ws", on_socket)

    def open_page(self, context: Any, stream: list[dict[str, Any]] | None = None,
                  ) -> tuple[Any, list[str]]:
        """A new page of the browser `context` on this table (served `stream` on joining, see
        `serve`), with its console errors watched: the page and the list they go to."""
        page = context.new_page()
        errors = watch(page)
        self.serve(page, stream)
        open_table(page)
        return page, errors


def from_last_deal(stream: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The states of `stream` from the first that shows its last deal: a page that joins there
    sees the last hand of the match played."""
    last = stream[-1]["view"]["deal_index"]
    return next(stream[i:] for i, state in enumerate(stream)
                if state["view"]["deal_index"] == last)


def open_table(page: Any) -> None:
    page.goto("/mesa.html?id=roteiro")
    page.wait_for_selector(f"{TABLE}[data-status]:not([data-status=loading])")


def wait_version(page: Any, version: int) -> None:
    page.wait_for_selector(f"{TABLE}[data-version='{version}']")


RECT = """(el) => {
  const r = el.getBoundingClientRect();
  return [r.left, r.top, r.right, r.bottom];
}"""


def rect(page: Any, selector: str) -> list[float]:
    return list(page.locator(selector).first.evaluate(RECT))


def overlap(a: list[float], b: list[float]) -> bool:
    return min(a[2], b[2]) - max(a[0], b[0]) > 0.5 and min(a[3], b[3]) - max(a[1], b[1]) > 0.5
