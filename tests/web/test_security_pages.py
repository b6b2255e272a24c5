"""Browser security: every page runs under the server's Content-Security-Policy without a single
violation (no inline script, no style="" attribute, no eval, no other host), the API docs come
from this server alone, and the lobby's ?proximo= return address never leaves this origin."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from tests.support.browser import DESKTOP, PHONE, unique_name, watch
from tests.support.webmatches import finished_match
from tests.support.webplay import (
    TABLE,
    Tally,
    act,
    create_friends_table,
    open_lobby_as_guest,
    sign_in_guest,
    wait_turn_or_end,
)

# Reports every CSP violation of every document the page loads to the test (a binding survives
# navigations; Playwright's init scripts are not subject to the page's CSP).
REPORT_VIOLATIONS = """
document.addEventListener('securitypolicyviolation', (e) => {
  window.__cspViolation(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'}`
    + ` at ${e.sourceFile || document.URL}:${e.lineNumber}`);
});
"""


class Watched:
    """A page whose CSP violations, header complaints and script errors are all collected."""

    def __init__(self, context: Any) -> None:
        self.violations: list[str] = []
        context.expose_function("__cspViolation", self._violation)
        context.add_init_script(REPORT_VIOLATIONS)
        self.page = context.new_page()
        self.errors = watch(self.page)
        self.console: list[str] = []
        self.page.on("console", self._console)

    def _violation(self, text: str) -> None:
        self.violations.append(text)

    def _console(self, msg: Any) -> None:
        text = str(msg.text)
        if "Content Security Policy" in text or "Permissions-Policy" in text:
            self.console.append(text)

    def check(self, where: str) -> None:
        assert not self.violations, f"{where}: CSP violations {self.violations}"
        assert not self.console, f"{where}: console {self.console}"
        assert not self.errors, f"{where}: script errors {self.errors}"


def watched(new_context: Any, viewport: dict[str, int] | None = None) -> Watched:
    return Watched(new_context(viewport or PHONE))


def test_every_page_runs_under_the_csp(new_context: Any, server: str) -> None:
    """Each page with what it shows once it has loaded: the lobby (signed in, with its tiles
    and WebSocket), the rules, the tutorial, the fairness check and the replay of a finished
    match, and a table in play over the WebSocket."""
    match_id = finished_match(server, "bloqueio")
    w = watched(new_context)
    page = w.page

    page.goto("/")
    page.wait_for_selector("#entry:not([hidden]) #guest-name")
    page.wait_for_selector("#hero-tiles svg")  # tiles: the shared gradients' hidden <svg>
    assert page.evaluate("getComputedStyle(document.body.firstElementChild).position") \
        == "absolute"
    w.check("entry")
    open_lobby_as_guest(page, unique_name("csp"))
    w.check("lobby")

    for path, ready in [
        ("/regras.html", "#inicio h2"),
        ("/regras.html#glossario", "#glossario"),
        ("/tutorial.html?ritmo=0", "[data-waiting=continue]"),
        (f"/justo.html?id={match_id}", "[data-state=ok]"),
        (f"/replay.html?id={match_id}", "[data-testid=replay][data-status=ready]"),
    ]:
        page.goto(path)
        page.wait_for_selector(ready)
        page.wait_for_load_state("networkidle")
        w.check(path)

    # the copy fallback of dom.js (a hidden textarea) when the clipboard API refuses
    copied = page.evaluate("""async () => {
      Object.defineProperty(navigator, 'clipboard', {
        value: { writeText: () => Promise.reject(new Error('refused')) }, configurable: true });
      const { copyText } = await import('/js/dom.js');
      await copyText('carroça');
      return document.querySelectorAll('textarea').length;
    }""")
    assert copied == 0
    w.check("copy fallback")

    # a table in play: the WebSocket under connect-src 'self', moves made by clicking
    page.goto("/")
    page.wait_for_selector("#home:not([hidden]) #rs-list input")
    create_friends_table(page, "bloqueio", ["bot:greedy"])
    page.wait_for_selector(f"{TABLE}[data-status=playing]")
    tally = Tally()
    for _ in range(3):
        if wait_turn_or_end(page) == "finished":
            break
        act(page, tally)
    assert page.evaluate("document.querySelector('[data-testid=table]').dataset.connects") == "1"
    w.check("mesa")


def test_api_docs_come_from_this_server(new_context: Any, server: str) -> None:
    """Swagger UI at /api/docs: its bundle, stylesheet and start-up script are this server's,
    it renders the API's operations, and the CSP has nothing to refuse."""
    w = watched(new_context, DESKTOP)
    requested: list[str] = []
    w.page.on("request", lambda req: requested.append(req.url))
    w.page.goto("/api/docs")
    w.page.wait_for_selector(".swagger-ui .opblock-summary-path[data-path='/api/health']")
    w.page.wait_for_load_state("networkidle")
    origin = urlsplit(server)
    foreign = [u for u in requested
               if not u.startswith("data:") and urlsplit(u)[:2] != origin[:2]]
    assert not foreign, foreign
    assert any(u.endswith("/api/docs/assets/swagger-ui-bundle.js") for u in requested)
    w.check("/api/docs")


# A return address that leaves the site, in each of the forms browsers read as another host.
FOREIGN = [
    "/%5Cother-host/x",  # "/\\other-host/x": a backslash is a slash in http(s) URLs
    "/%09/other-host",  # "/\t/other-host": tabs are dropped, leaving "//other-host"
    "//other-host/x",
    "https://other-host/",
    "javascript:alert(1)",
    "/.//other-host/x",  # resolves to the path "//other-host/x": protocol-relative if used alone
    "/%2e//other-host/x",
]


LOBBY = "#home:not([hidden]) #rs-list input"


def stays_in_lobby(page: Any, server: str) -> None:
    try:
        page.wait_for_selector(LOBBY, timeout=10_000)
        page.wait_for_load_state("networkidle")
    except PlaywrightTimeout:
        pass  # the address below says where the page went instead
    assert urlsplit(page.url)[:2] == urlsplit(server)[:2], f"left for {page.url}"
    assert page.locator(LOBBY).first.is_visible(), page.url


@pytest.mark.parametrize("proximo", FOREIGN)
def test_a_foreign_return_address_keeps_the_player_here(
    new_context: Any, server: str, proximo: str
) -> None:
    """Signing in, and arriving already signed in, with ?proximo= pointing elsewhere: the
    player stays in the lobby, on this server."""
    w = watched(new_context)
    page = w.page
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.goto(f"/?proximo={proximo}")
    sign_in_guest(page, unique_name("prox"))
    stays_in_lobby(page, server)
    page.goto(f"/?proximo={proximo}")  # signed in now: the other way in
    stays_in_lobby(page, server)
    assert not dialogs
    w.check(proximo)


def test_a_return_address_on_this_site_is_followed(new_context: Any, server: str) -> None:
    """The way mesa.js sends a signed-out player: back to the same path, query and fragment."""
    w = watched(new_context)
    page = w.page
    page.goto("/?proximo=%2Fregras.html%3Fde%3Dmesa%23glossario")
    sign_in_guest(page, unique_name("prox"))
    page.wait_for_url("**/regras.html?de=mesa#glossario")
    assert page.url == f"{server}/regras.html?de=mesa#glossario"
    page.goto("/?proximo=/regras.html%23bloqueio")
    page.wait_for_url("**/regras.html#bloqueio")
    w.check("proximo same origin")
