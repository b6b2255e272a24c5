"""Requests that change something must come from the server's own pages (or from a program).

A form on another site, or on another port of the same host (a "same-site" origin that cookies
do not tell apart), could otherwise post to `/api/logout`, `/api/matches/{id}/rematch` and the
other state-changing routes with the player's cookie. Browsers say where a request comes from:
`Sec-Fetch-Site` (same-origin, same-site, cross-site, none) and `Origin`. A state-changing request
whose `Sec-Fetch-Site` is neither `same-origin` nor `none`, or whose `Origin` is not the server's
own (its `Host`) nor one of `ALLOWED_ORIGINS`, is refused with 403 `cross_site` before it reaches
any route. A request with neither header (curl, the test clients, other programs) passes: it
cannot carry a victim's cookie by a victim's browser.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

from carroca.server.edge.guard import error_body
from carroca.server.errors import CrossSite

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
OWN_SITE = frozenset({b"same-origin", b"none"})  # `none`: typed in the address bar, a bookmark


#: A socket's scheme as the page that opened it was served.
PAGE_SCHEMES = {"ws": "http", "wss": "https", "http": "http", "https": "https"}


def origin_allowed(origin: str, host: str | None, allowed: frozenset[str],
                   scheme: str = "http") -> bool:
    """The page's origin is the server's own (the scheme and Host it was reached by: `https`
    behind a trusted proxy that says so) or a listed one."""
    origin = origin.strip().lower().rstrip("/")
    if origin in allowed:
        return True
    own, _, rest = origin.partition("://")
    return own == PAGE_SCHEMES.get(scheme, scheme) and host is not None and \
        rest == host.strip().lower()


class CrossSiteGuard:
    def __init__(self, app: ASGIApp, allowed: frozenset[str]) -> None:
        self.app = app
        self.allowed = allowed

    def _refused(self, scope: Scope) -> bool:
        if scope["method"] in SAFE_METHODS:
            return False
        headers = dict(scope["headers"])
        site = headers.get(b"sec-fetch-site")
        origin = headers.get(b"origin")
        if origin is not None:
            host = headers.get(b"host")
            text = origin.decode("latin-1")
            if not origin_allowed(text, host.decode("latin-1") if host else None, self.allowed,
                                  scope.get("scheme", "http")):
                return True
            if text.strip().lower().rstrip("/") in self.allowed:
                return False  # a listed origin is another site by design
        return site is not None and site not in OWN_SITE

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not self._refused(scope):
            await self.app(scope, receive, send)
            return
        refused = CrossSite()
        body = error_body(refused.code, refused.message)
        await send({"type": "http.response.start", "status": refused.status,
                    "headers": [(b"content-type", b"application/json; charset=utf-8"),
                                (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
