"""Rare moments of a match, made to happen: the page's WebSocket is answered by the test itself,
which runs the rules engine on chosen deals (the cinco-carroças choice, a tile that fits three
ends of the spinner's cross, a galo, a pneu)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from tests.support.browser import DESKTOP, PHONE, shot, watch

from carroca import fair
from carroca.rules import Match, actions, get_ruleset, observation
from carroca.rules import tiles as T
from carroca.rules.rulesets import options_dict

SEED = "11" * 32
ME = {"id": 1, "name": "Ana", "kind": "guest"}


class ScriptedTable:
    """One match of the engine, seen from seat 0; the other seats play their first legal action.
    With `autoplay`, seat 0 plays by itself too (a match streamed to the page)."""

    def __init__(self, ruleset: str, options: dict[str, Any] | None, label: str,
                 first_deal: list[int] | None = None, autoplay: bool = False) -> None:
        rs = get_ruleset(ruleset)
        self.match = Match(rs, rs.make_options(options or {}))
        self.label = label
        self.first_deal = first_deal
        self.autoplay = autoplay
        self.version = 0
        self.moves: list[str] = []
        n = rs.seats
        self.players = [{"name": "Ana", "bot": False, "connected": True}] + [
            {"name": "bot:greedy", "bot": True, "connected": True} for _ in range(n - 1)
        ]
        self._deal()

    def _deal(self) -> None:
        m = self.match
        while m.needs_deal:
            if self.first_deal is not None and m.deal_index == 0:
                m.deal(self.first_deal)
            else:
                m.deal(fair.shuffle(SEED, self.label, m.deal_index))

    def apply(self, text: str, seat: int | None = None) -> None:
        self.match.apply(actions.parse(text), seat)
        self._deal()
        self.version += 1

    def others(self, until: Callable[[Match], bool] | None = None) -> list[dict[str, Any]]:
        """Let the other seats play (every seat with autoplay); a state after each action."""
        frames = []
        m = self.match
        while not m.is_over and m.current_player is not None:
            if until is not None and until(m):
                break
            if m.current_player == 0 and not self.autoplay:
                break
            self.apply(str(m.legal_actions()[0]))
            frames.append(self.state())
        return frames

    def state(self) -> dict[str, Any]:
        m = self.match
        over = m.is_over
        turn = m.current_player
        clock = None
        if turn == 0 and not over:
            seconds = 15.0 if m.phase.name == "CHOICE" else 20.0
            clock = {"seat": 0, "seconds": seconds, "remaining_ms": int(seconds * 1000)}
        data: dict[str, Any] = {
            "id": "roteiro", "mode": "casual", "ruleset": m.ruleset.name,
            "options": options_dict(m.options), "status": "finished" if over else "playing",
            "seat": 0, "players": self.players, "commitment": "0" * 64,
            "client_seeds": ["a"] * m.n, "client_seed": "a", "version": self.version,
            "clock": clock, "chat": True, "view": observation(m, 0).to_dict(),
        }
        if over:
            data["server_seed"] = SEED
            data["rating"] = {"before": None, "after": None}
        return data


def frame(kind: str, data: Any) -> str:
    return json.dumps({"type": kind, "data": data})


def serve(page: Any, table: ScriptedTable, stream: list[dict[str, Any]] | None = None) -> None:
    """Route the page's /api/session (and /api/me) and /ws to `table`: join sends its state (or
    the stream of states), a move is applied and answered like the server does (state, then
    ack)."""
    for path in ("**/api/me", "**/api/session"):
        page.route(path, lambda route: route.fulfill(
            json={"player": ME, "tables": ["roteiro"], "queued": None}))

    def on_socket(ws: Any) -> None:
        def on_message(message: str | bytes) -> None:
            msg = json.loads(message)
            kind, data = msg["type"], msg["data"]
            if kind == "join":
                for state in stream or [table.state()]:
                    ws.send(frame("state", state))
            elif kind == "move":
                table.moves.append(data["action"])
                table.apply(data["action"], 0)
                ws.send(frame("state", table.state()))
                for state in table.others():
                    ws.send(frame("state", state))
                ws.send(frame("ack", {"id": data["id"], "version": table.version}))
            elif kind == "ping":
                ws.send(frame("pong", {}))

        ws.on_message(on_message)
        ws.send(frame("hello", {"player": ME, "protocol": 1}))

    page.route_web_socket("**/ws", on_socket)


def open_table(page: Any) -> None:
    page.goto("/mesa.html?id=roteiro")
    page.wait_for_selector("[data-testid=table][data-status]:not([data-status=loading])")


def test_cinco_carrocas_dialog_counts_down_and_keeps_the_points(new_context: Any) -> None:
    doubles = [T.parse(t) for t in ("0-0", "1-1", "2-2", "3-3", "4-4", "0-1", "0-2")]
    order = doubles + [t for t in range(T.TILE_COUNT) if t not in doubles]
    table = ScriptedTable("duplas-pontos", None, "cinco", first_deal=order)
    assert table.match.phase.name == "CHOICE" and table.match.current_player == 0
    page = new_context(PHONE).new_page()
    errors = watch(page)
    serve(page, table)
    open_table(page)
    dialog = page.locator("#five-dialog[open]")
    dialog.wait_for()
    assert "5 carroças" in dialog.inner_text()
    assert page.get_by_role("button", name="Ficar com os pontos (+50)").count() == 1
    assert page.get_by_role("button", name="Embaralhar de novo").count() == 1
    count = int(page.inner_text("#five-count"))
    assert 10 <= count <= 15
    shot(page, "phone-cinco-carrocas")
    page.click("#five-points")
    page.wait_for_selector("#five-dialog:not([open])", state="attached")
    assert table.moves == ["five-doubles:points"]
    page.wait_for_function("document.querySelector('[data-testid=score-0]').textContent === '50'")
    assert "cinco carroças" in (page.text_content("#log") or "")
    assert not errors, errors


def test_a_tile_that_fits_three_ends_of_the_cross(new_context: Any) -> None:
    table = ScriptedTable("duplas-pontos", None, "c0")

    def cross_choice(m: Match) -> bool:
        if m.current_player != 0:
            return False
        ends: dict[str, set[str]] = {}
        for a in m.legal_actions():
            if a.kind == "play" and a.end_name:
                ends.setdefault(str(a.tile_name), set()).add(a.end_name)
        return any(len(e) >= 3 and {"up", "down"} <= e for e in ends.values())

    # seat 0 plays its first legal action too, until it holds a tile with three places
    table.autoplay = True
    table.others(until=cross_choice)
    table.autoplay = False
    legal = [str(a) for a in table.match.legal_actions()]
    tile = next(t for t in {a.split(":")[0] for a in legal if ":" in a}
                if sum(a.startswith(t + ":") for a in legal) >= 3)
    ends = sorted(a.split(":")[1] for a in legal if a.startswith(tile + ":"))
    for size, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page = new_context(size).new_page()
        errors = watch(page)
        serve(page, table)
        open_table(page)
        page.wait_for_selector("[data-testid=table][data-my-turn=true]")
        page.click(f"#hand [data-tile='{tile}']")
        ghosts = page.locator("[data-end]")
        assert sorted(str(ghosts.nth(i).get_attribute("data-end"))
                      for i in range(ghosts.count())) == ends
        # touched is played: another tile cannot be chosen now
        other = page.locator(f"#hand [data-tile]:not([data-tile='{tile}'])").first
        other.click(force=True)
        assert "Pedra tocada é pedra jogada" in page.inner_text("#turn-msg")
        shot(page, f"{name}-cross-choice")
        if name == "phone":
            page.close()
            continue
        page.click("[data-end=up]")
        page.wait_for_function(
            "(t) => !document.querySelector(`#hand [data-tile='${t}']`)", arg=tile)
        assert table.moves == [f"{tile}:up"]
        assert not errors, errors


def test_announcements_galo_batida_and_pneu(new_context: Any) -> None:
    """A whole match streamed as the server would send it: passe and galo are announced as they
    happen, each hand's end shows the hands, and the match ends on a pneu."""
    table = ScriptedTable("duplas-pontos", {"target": 100}, "g1", autoplay=True)
    stream = [table.state(), *table.others()]
    assert table.match.is_over
    page = new_context(PHONE).new_page()
    errors = watch(page)
    serve(page, table, stream)
    open_table(page)
    page.wait_for_selector("#end-dialog[open]")
    said = page.text_content("#announcements") or ""
    assert "Passe!" in said and "Galo!" in said, said
    log = page.text_content("#log") or ""
    assert "galo" in log and "passe" in log, log

    pneu = ScriptedTable("duplas-torneio", {"target": 50}, "p0", autoplay=True)
    stream = [pneu.state(), *pneu.others()]
    assert pneu.match.result is not None and pneu.match.result.pneu
    page = new_context(DESKTOP).new_page()
    errors += watch(page)
    serve(page, pneu, stream)
    open_table(page)
    page.wait_for_selector("#end-dialog[open]")
    said = page.text_content("#announcements") or ""
    assert "Pneu!" in said and ("bateu" in said or "Trancado" in said), said
    assert "Pneu!" in page.inner_text("#end-dialog")
    assert page.locator("#end-dialog .revealed-seat").count() == 4
    shot(page, "desktop-match-end-pneu")
    assert not errors, errors


def test_end_of_hand_shows_every_hand_and_the_count(new_context: Any) -> None:
    table = ScriptedTable("duplas-pontos", None, "g1", autoplay=True)
    stream = [table.state(), *table.others(until=lambda m: m.deal_index > 0)]
    last = table.match.history[-1]
    page = new_context(PHONE).new_page()
    errors = watch(page)
    serve(page, table, stream)
    open_table(page)
    summary = page.locator("[data-testid=hand-summary]")
    summary.wait_for()
    rows = summary.locator(".revealed-seat")
    assert rows.count() == 4
    for seat in range(4):
        left = [T.NAMES[t] for t in range(T.TILE_COUNT) if t in _held(last, seat)]
        pips = sum(int(a) + int(b) for a, b in (t.split("-") for t in left))
        row = summary.locator(f".revealed-seat[data-seat='{seat}']")
        assert row.locator(".revealed-sum").inner_text() == str(pips)
    totals: dict[tuple[int, str], int] = {}
    for event in last.events:
        totals[event.team, event.reason] = totals.get((event.team, event.reason), 0) + event.points
    for points in totals.values():
        assert f"+{points}" in summary.inner_text()
    shot(page, "phone-hand-summary")
    summary.get_by_role("button", name="Continuar").click()
    summary.wait_for(state="detached")
    assert not errors, errors


def _held(log: Any, seat: int) -> set[int]:
    """The tiles a seat still held when the hand ended."""
    held = set(log.dealt[seat])
    for step in log.steps:
        if step.seat == seat and step.action.kind == "play":
            held.discard(step.action.tile)
    return held
