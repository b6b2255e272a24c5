"""A player in the browser: signs in, and plays by clicking what the table lights up."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from tests.support.browser import PHONE, watch

TABLE = "[data-testid=table]"

# The page's state is read from the table root's data attributes (data-status, data-my-turn,
# data-version): a wait is a condition on them, never a pause.
TURN_OR_END = """() => {
  const t = document.querySelector('[data-testid=table]');
  return t && (t.dataset.status === 'finished' || t.dataset.myTurn === 'true');
}"""
NEXT_TURN = """() => {
  const t = document.querySelector('[data-testid=table]');
  return t.dataset.status === 'finished' || (t.dataset.turn !== '' && t.dataset.busy !== 'true');
}"""
MOVED = """(v) => {
  const t = document.querySelector('[data-testid=table]');
  return t.dataset.status === 'finished' || (t.dataset.version !== v && t.dataset.busy !== 'true');
}"""


def sign_in_guest(page: Any, name: str) -> None:
    """On the entry page: play as a guest under `name`."""
    page.fill("#guest-name", name)
    page.click("#form-guest button[type=submit]")


def open_lobby_as_guest(page: Any, name: str) -> None:
    page.goto("/")
    sign_in_guest(page, name)
    page.wait_for_selector("#home:not([hidden]) #rs-list input")


def phone_lobby_as_guest(new_context: Any, name: str) -> tuple[Any, list[str]]:
    """A new phone page at the lobby, signed in as the guest `name`: the page and what `watch`
    collects of it."""
    page = new_context(PHONE).new_page()
    errors = watch(page)
    open_lobby_as_guest(page, name)
    return page, errors


def sign_in(context: Any, name: str) -> str:
    """Sign a browser context in as a new guest through the API, loading no page (for tests
    that are not about the entry page or the lobby: a lobby's load costs the browser as much
    as a table's); returns the session token."""
    answer = context.request.post("/api/guest", data={"name": name})
    assert answer.ok, answer.text()
    return str(answer.json()["token"])


def open_new_table(page: Any, ruleset: str, seats: list[str],
                   options: dict[str, Any] | None = None) -> dict[str, Any]:
    """A friends' table made by the page's player through the API (`seats`: the other seats,
    as `create_friends_table` takes them), opened in the page; returns the API's answer (its
    `id`, `invite`). Creating a table from the lobby's form is test_match.py's."""
    made = page.request.post("/api/tables", data={"ruleset": ruleset, "options": options or {},
                                                  "seats": ["me", *seats]})
    assert made.ok, made.text()
    table: dict[str, Any] = made.json()
    page.goto(f"/mesa.html?id={table['id']}")
    return table


def join_by_invite(page: Any, invite: str) -> None:
    """The page's player takes a seat at a friends' table through the API, and opens it."""
    joined = page.request.post("/api/tables/join", data={"invite": invite})
    assert joined.ok, joined.text()
    page.goto(f"/mesa.html?id={joined.json()['id']}")


def create_friends_table(
    page: Any, ruleset: str, seats: list[str], options: dict[str, str] | None = None
) -> None:
    """From the lobby: a friends' table; `seats` holds the other seats ("open", "bot:greedy")."""
    page.select_option("#friends-ruleset", ruleset)
    if options and not page.locator("#friends-more[open]").count():
        page.click("#friends-more > summary")  # the points and the clock are folded away
    for key, value in (options or {}).items():
        field = page.locator(f"#opt-{key}")
        if field.evaluate("el => el.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    for i, value in enumerate(seats, start=1):
        page.select_option(f"#seat-{i}", value)
    page.click("#friends-form button[type=submit]")
    page.wait_for_url("**/mesa.html?id=*")


def wait_turn_or_end(page: Any, timeout_ms: int = 30_000) -> str:
    page.wait_for_function(TURN_OR_END, timeout=timeout_ms)
    return str(page.get_attribute(TABLE, "data-status"))


@dataclass
class Tally:
    """What a player did in a match, to check the paths the test went through."""

    tiles: int = 0
    ends_chosen: int = 0
    passes: int = 0
    draws: int = 0
    five: int = 0
    ends_seen: set[str] = field(default_factory=set)


def act(page: Any, tally: Tally) -> None:
    """It is this page's turn: play the first lit tile (choosing an end when several light up),
    or Passo, or Comprar, or keep the points of the cinco carroças. Waits until the move is in."""
    version = page.get_attribute(TABLE, "data-version")
    if page.locator("#five-dialog[open]").count():
        page.click("#five-points")
        tally.five += 1
    else:
        lit = page.locator("#hand [data-legal=true]")
        if lit.count():
            lit.first.click()
            tally.tiles += 1
            ends = page.locator("[data-end]")
            if ends.count():
                tally.ends_seen.update(
                    str(ends.nth(i).get_attribute("data-end")) for i in range(ends.count())
                )
                ends.first.click()
                tally.ends_chosen += 1
        elif page.get_attribute("#btn-pass", "data-legal") == "true":
            page.click("#btn-pass")
            tally.passes += 1
        elif page.get_attribute("#btn-draw", "data-legal") == "true":
            page.click("#btn-draw")
            tally.draws += 1
        else:
            raise AssertionError("my turn, but nothing to play is lit")
    page.wait_for_function(MOVED, arg=version)


def play_to_end(page: Any, tally: Tally | None = None, limit_s: float = 150) -> Tally:
    """Play every turn until the end-of-match screen shows."""
    tally = tally or Tally()
    deadline = time.monotonic() + limit_s
    while wait_turn_or_end(page) != "finished":
        if time.monotonic() > deadline:
            raise AssertionError("the match did not end in time")
        act(page, tally)
    page.wait_for_selector("#end-dialog[open]")
    return tally


def play_together(watcher: Any, seats: dict[int, Any], turns: int) -> dict[int, Tally]:
    """Players in several browsers at one table (`seats`: seat -> page) play it to its end, each
    on its turn, within `turns` turns, the turn read first on `watcher`'s page; what each seat
    did."""
    tallies = {seat: Tally() for seat in seats}
    for _ in range(turns):
        watcher.wait_for_function(NEXT_TURN)
        if watcher.get_attribute(TABLE, "data-status") == "finished":
            return tallies
        seat = int(str(watcher.get_attribute(TABLE, "data-turn")))
        actor = seats[seat]
        if wait_turn_or_end(actor) == "finished":
            return tallies
        act(actor, tallies[seat])
        watcher = actor  # its view is the freshest: it just saw its own move come back
    raise AssertionError("the match did not end")


def hand(page: Any) -> list[str]:
    return [str(t) for t in page.locator("#hand [data-tile]").evaluate_all(
        "els => els.map(e => e.dataset.tile)")]


def scores(page: Any) -> tuple[int, int]:
    return (int(page.text_content("[data-testid=score-0]") or 0),
            int(page.text_content("[data-testid=score-1]") or 0))
