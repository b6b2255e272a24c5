"""The web client in a cluster: a table page whose socket lands on a node that does not run the
match connects again to the owner, through the proxy (`/ws?node=`), and only once."""

from __future__ import annotations

from typing import Any

import httpx2
from tests.cluster.players import guest, post
from tests.clusterproc import Cluster
from tests.web.conftest import browser, watch

from carroca.server.accounts import COOKIE

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
    # Through the proxy: requests made before the page shift the round robin, so that the
    # first socket lands on each node in one of the rounds; it always ends on n1, the owner.
    connects = []
    for shift in range(3):
        for _ in range(shift):
            httpx2.get(f"{cluster.url}/api/health", trust_env=False)
        node, count = open_table(browser, cluster.url, ana, made["id"])
        assert node == "n1"
        connects.append(count)
    assert set(connects) == {1, 2}, connects  # moved once where it landed elsewhere
    # Straight to n2, with no front that routes by node: it tries once, then stays and plays.
    assert open_table(browser, cluster.node_url(2), ana, made["id"]) == ("n2", 2)
