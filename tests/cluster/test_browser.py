"""The web client in a cluster: a table page whose socket lands on a node that does not run the
match connects again to the owner, through the proxy (`/ws?node=`), and only once."""

from __future__ import annotations

from typing import Any

import httpx2
from tests.cluster.players import guest, post
from tests.clusterproc import NODE_HEADER, Cluster
from tests.web.conftest import browser, watch

from carroca.server.players.accounts import COOKIE

__all__ = ["browser"]  # the browser tests' Chromium fixture, used here too


def open_table(browser: Any, base: str, token: str, match: str) -> tuple[str, int]:
    """The node the table page's socket ends on, and how many sockets it opened."""
    ctx = browser.new_context(base_url=base, locale="pt-BR")
    try:
        ctx.add_cookies([{"name": COOKIE, "value": token, "url": base}])
        page = ctx.new_page()
        errors = watch(page)
        page.goto(f"/mesa.html?id={match}")
        page.wait_for_selector("#app[data-connection=online][data-node][data-version]")
        page.wait_for_timeout(1000)  # a second move would have begun by now
        page.wait_for_selector("#app[data-connection=online][data-version]")
        app = page.locator("#app")
        assert not errors, errors
        return app.get_attribute("data-node") or "", int(app.get_attribute("data-connects") or 0)
    finally:
        ctx.close()


def test_the_table_page_moves_its_socket_to_the_owner(cluster: Cluster, browser: Any) -> None:
    ana = guest(cluster.node_url(1), "ana")
    made = post(cluster.node_url(1), ana, "/api/casual",
                {"ruleset": "bloqueio", "bot_level": "greedy"})
    # Through the proxy (round robin): before each page, requests bring the rotation to n1 and
    # then `shift` more, so the pages start on each node in turn and their first sockets land
    # on different nodes. Every page ends on n1, the owner, after one move where it landed
    # elsewhere.
    connects = []
    for shift in range(6):
        for _ in range(10):
            r = httpx2.get(f"{cluster.url}/api/health", trust_env=False)
            if r.headers.get(NODE_HEADER) == "n3":  # the next request goes to n1
                break
        for _ in range(shift):
            httpx2.get(f"{cluster.url}/api/health", trust_env=False)
        node, count = open_table(browser, cluster.url, ana, made["id"])
        assert (node, count) in (("n1", 1), ("n1", 2)), (node, count)
        connects.append(count)
        if 2 in connects and shift >= 2:
            break
    assert 2 in connects, connects
    # Straight to n2, with no front that routes by node: it tries once, then stays and plays.
    assert open_table(browser, cluster.node_url(2), ana, made["id"]) == ("n2", 2)
