"""Browser security headers (carroca.server.edge.headers): on every page, script, API answer and
error; a Content-Security-Policy with no inline script; WebSockets untouched; the API docs
served from this server alone."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI, WebSocket
from fastapi.testclient import TestClient
from tests.moderation.helpers import make_moderator
from tests.support.server_app import account, guest

from carroca.server.edge.headers import install_security_headers, security_headers
from carroca.server.settings import Settings

WEB = Path(__file__).resolve().parents[2] / "src" / "carroca" / "web"
PAGES = ["/", *(f"/{p.name}" for p in sorted(WEB.glob("*.html")))]

EXPECTED = {
    "x-content-type-options": "nosniff",
    "x-frame-options": "DENY",
    "referrer-policy": "same-origin",
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
}


def directives(csp: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for part in csp.split(";"):
        name, *values = part.split()
        assert name not in out, f"{name} twice"
        out[name] = values
    return out


def check_headers(headers: Any, where: str) -> dict[str, list[str]]:
    """`headers` of a test client's response (a multi-valued, case-insensitive mapping)."""
    for name, value in EXPECTED.items():
        assert headers.get_list(name) == [value], (where, name, headers.get_list(name))
    assert "camera=()" in headers["permissions-policy"], where
    csps = headers.get_list("content-security-policy")
    assert len(csps) == 1, (where, csps)
    return directives(csps[0])


def test_the_policy_allows_no_inline_script_and_no_other_host() -> None:
    csp = directives(security_headers()["Content-Security-Policy"])
    assert csp["script-src"] == ["'self'"]
    assert csp["default-src"] == ["'self'"]
    assert csp["style-src"] == ["'self'"]
    assert csp["connect-src"] == ["'self'"]
    assert csp["object-src"] == ["'none'"]
    assert csp["base-uri"] == ["'self'"]
    assert csp["form-action"] == ["'self'"]
    assert csp["frame-ancestors"] == ["'none'"]
    for name, values in csp.items():
        assert not {"'unsafe-inline'", "'unsafe-eval'", "*", "http:", "https:"} & set(values), name
        if name != "img-src":
            assert "data:" not in values, name


def test_every_page_and_file_of_the_web_client_has_the_headers(client: TestClient,
                                                              settings: Settings) -> None:
    assert len(PAGES) >= 7  # "/", index, mesa, replay, regras, justo, tutorial
    account(client, "Mara")  # a moderator: the moderation page is theirs only
    make_moderator(settings.database, "Mara")
    for path in PAGES:
        r = client.get(path)
        assert r.status_code == 200, path
        assert r.headers["content-type"].startswith("text/html"), path
        check_headers(r.headers, path)
        # nothing in the markup that the policy would refuse
        html = r.text
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), f"{path}: inline script"
        assert not re.search(r"\son[a-z]+\s*=", html), f"{path}: inline event handler"
        assert not re.search(r"\sstyle\s*=", html), f"{path}: style attribute"
        assert "<style" not in html and "javascript:" not in html, path
    for path in ["/js/lobby.js", "/css/base.css", "/favicon.svg"]:
        r = client.get(path)
        assert r.status_code == 200, path
        check_headers(r.headers, path)


def test_api_answers_and_errors_have_the_headers(client: TestClient) -> None:
    guest(client, "Cida")
    for r, where in [
        (client.get("/api/health"), "health"),
        (client.get("/api/me"), "me"),
        (client.get("/api/matches/nenhuma"), "404"),
        (client.post("/api/guest", json={"nome": "x"}), "422"),
        (client.get("/api/openapi.json"), "openapi"),
    ]:
        assert r.headers["content-type"].startswith("application/json"), where
        check_headers(r.headers, where)
    assert client.get("/api/matches/nenhuma").status_code == 404


def test_answers_of_the_other_middleware_have_the_headers(client: TestClient) -> None:
    """The security headers are the outermost middleware: a body refused before any route
    runs (413) carries them too."""
    r = client.post("/api/guest", content=b"x" * (10 * 1024 * 1024),
                    headers={"content-type": "application/json"})
    assert r.status_code == 413
    check_headers(r.headers, "413")


def test_a_websocket_still_connects(client: TestClient) -> None:
    token = guest(client, "Davi")
    with client.websocket_connect(f"/ws?token={token}") as ws:
        hello = ws.receive_json()
        assert hello["type"] == "hello"
        assert hello["data"]["player"]["name"] == "Davi"


def test_websocket_scopes_pass_through_untouched() -> None:
    """The middleware adds nothing to a WebSocket's accept (it is HTTP-only)."""
    app = FastAPI()
    install_security_headers(app)

    @app.websocket("/eco")
    async def eco(websocket: WebSocket) -> None:
        await websocket.accept(headers=[(b"x-eco", b"1")])
        await websocket.send_text(await websocket.receive_text())
        await websocket.close()

    with TestClient(app) as c, c.websocket_connect("/eco") as ws:
        ws.send_text("oi")
        assert ws.receive_text() == "oi"
        assert ws.extra_headers == [(b"x-eco", b"1")]


ASSET = re.compile(r'\s(?:src|href)="([^"]+)"')


def test_api_docs_are_served_from_this_server(client: TestClient) -> None:
    r = client.get("/api/docs")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    check_headers(r.headers, "/api/docs")
    html = r.text
    assert not re.findall(r"https?://", html), "the docs page names another host"
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), "inline script in the docs"
    assets = ASSET.findall(html)
    assert {a.rsplit("/", 1)[-1] for a in assets} >= {
        "swagger-ui-bundle.js", "swagger-ui.css", "init.js", "favicon.png"}
    types = {".js": "text/javascript", ".css": "text/css", ".png": "image/png"}
    for url in assets:
        assert url.startswith("/api/docs/"), url
        asset = client.get(url)
        assert asset.status_code == 200, url
        assert asset.headers["content-type"].startswith(types[Path(url).suffix]), url
        check_headers(asset.headers, url)
    assert 'data-openapi="/api/openapi.json"' in html
    assert client.get("/api/openapi.json").status_code == 200
    paths = client.get("/api/openapi.json").json()["paths"]
    assert not [p for p in paths if p.startswith("/api/docs")]


@pytest.mark.parametrize("path", ["/api/docs/assets/../../../etc/passwd",
                                  "/api/docs/assets/%2e%2e/core.py"])
def test_the_docs_assets_folder_serves_nothing_else(client: TestClient, path: str) -> None:
    assert client.get(path).status_code == 404
