"""The lobby's Amigos tab on a phone (390 × 844) with a long list: one line a friend (name and
presence, then the buttons beside them), nothing wider than the screen nor cut, the page
scrolls to the last friend and to the friends' table form under the list, and the rarer actions
(Remover, Bloquear) open in full from "⋯", even on the last line."""

from __future__ import annotations

from typing import Any

from tests.support.browser import PHONE, shot, unique_name, watch
from websockets.sync.client import connect

FRIENDS = 30

# Each friend's line: its box, its name's and its buttons' boxes, and whether any text in it
# overflows its element (a cut word).
ROWS = """() => [...document.querySelectorAll('#friend-list > li')].map((li) => {
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  const texts = [...li.querySelectorAll('.friend-name, .friend-state, .btn')];
  return {
    row: box(li),
    name: box(li.querySelector('.friend-name')),
    buttons: [...li.querySelectorAll('.btn')].filter((el) => el.checkVisibility()).map(box),
    cut: texts.some((el) => el.scrollWidth > el.clientWidth + 1),
  };
})"""

# An element that is what the screen shows at its middle: neither covered nor clipped away.
ON_TOP = """(el) => {
  const r = el.getBoundingClientRect();
  return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === el;
}"""


def test_thirty_friends_on_a_phone(new_context: Any, server: str) -> None:
    ctx = new_context(PHONE)
    page = ctx.new_page()
    errors = watch(page)
    me = unique_name("Dona")
    mine = ctx.request.post("/api/guest", data={"name": me}).json()["token"]
    tag = unique_name("")[:3]
    first = ""  # the first friend's session: it comes online below
    for i in range(FRIENDS):  # 20 characters: the longest a nickname may be
        friend = ctx.request.post("/api/guest",
                                  data={"name": f"Amigo Comprido {i:02d}{tag}"}).json()
        ctx.request.post("/api/friends", data={"name": me},
                         headers={"Authorization": f"Bearer {friend['token']}"})
        answer = ctx.request.post("/api/friends", data={"name": friend["player"]["name"]},
                                  headers={"Authorization": f"Bearer {mine}"}).json()
        assert answer["status"] == "friends", answer
        first = first or friend["token"]
    ctx.add_cookies([{"name": "carroca_session", "value": mine, "url": server}])

    page.goto("/")
    page.wait_for_selector("#home[data-tab=amigos]:not([hidden])")
    page.wait_for_function("(n) => document.querySelectorAll('#friend-list > li').length === n",
                           arg=FRIENDS)
    width = PHONE["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    rows = page.evaluate(ROWS)
    for row in rows:
        left, top, right, bottom = row["row"]
        assert left >= 0 and right <= width, row
        assert not row["cut"], row
        # the buttons beside the name, within the line: not pushed under it
        assert row["buttons"] and all(b[0] >= row["name"][2] and top <= b[1] and b[3] <= bottom
                   for b in row["buttons"]), row
    page.locator("#friend-list > li").first.scroll_into_view_if_needed()
    shot(page, "phone-friends-long-list")

    # The page scrolls to the last friend, whose "⋯" opens Remover and Bloquear in full.
    last = page.locator("#friend-list > li").last
    last.scroll_into_view_if_needed()
    last.locator(".friend-more > summary").click()
    for label in ("Remover", "Bloquear"):
        button = last.get_by_role("button", name=label)
        box = button.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
        assert button.evaluate(ON_TOP), f"{label} is covered or cut"
    shot(page, "phone-friends-last-menu")
    # A friend comes online meanwhile: the list is drawn again, and the open menu, a nickname
    # half typed and the focus in it stay as they were.
    page.fill("#friend-name", "Fulan")
    socket = server.replace("http", "ws", 1) + "/ws?token=" + first
    with connect(socket, open_timeout=10):
        page.wait_for_selector("#friend-list li .friend-state:text-is('online')")
        assert last.locator(".friend-more").evaluate("(d) => d.open")
        assert page.input_value("#friend-name") == "Fulan"
        assert page.evaluate("document.activeElement.id") == "friend-name"
    create = page.locator("#friends-form button[type=submit]")
    create.scroll_into_view_if_needed()
    assert create.is_visible()
    assert not errors, errors
