"""Browser security: the response headers every page gets, and an API docs page with no CDN.

The headers come from the `secure` library's pure ASGI middleware: it rewrites the
`http.response.start` message of HTTP responses only, so WebSocket and lifespan scopes pass
through untouched, and it adds no buffering (unlike Starlette's BaseHTTPMiddleware).

The policy allows no inline script, no inline style, no eval and no host but this one, so the
web client (src/carroca/web) keeps every script and style in files and sets styles from script
through CSSOM (`el.style.x = ...`), which CSP allows. A route that needs a different policy may
send its own Content-Security-Policy: browsers then enforce both, so it can only be stricter.

The API docs (Swagger UI) are served from the assets that the `fastapi-offline` package ships,
with a small page of our own whose start-up script is a file too, so the same policy covers
them. `'self'` in connect-src covers ws:// and wss:// to the same host and port in current
browsers (CSP Level 3), which is what the table's WebSocket uses.
"""

from __future__ import annotations

from html import escape

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.staticfiles import StaticFiles
from secure import (
    ContentSecurityPolicy,
    CrossOriginOpenerPolicy,
    CrossOriginResourcePolicy,
    PermissionsPolicy,
    ReferrerPolicy,
    Secure,
    XContentTypeOptions,
    XFrameOptions,
)
from secure.middleware import SecureASGIMiddleware

CONTENT_SECURITY_POLICY = (
    ContentSecurityPolicy()
    .default_src("'self'")
    .script_src("'self'")
    .style_src("'self'")
    .img_src("'self'", "data:")  # Swagger UI's stylesheet draws its icons as data: SVGs
    .connect_src("'self'")
    .font_src("'self'")
    .worker_src("'self'")  # the service worker (sw.js), for the pages that work offline
    .manifest_src("'self'")  # the web app manifest (installing on a phone's home screen)
    .object_src("'none'")
    .base_uri("'self'")
    .form_action("'self'")
    .frame_ancestors("'none'")
)

# Powerful features the game never uses: switched off for the page and anything it embeds.
PERMISSIONS_POLICY = (
    PermissionsPolicy()
    .accelerometer()
    .camera()
    .display_capture()
    .geolocation()
    .gyroscope()
    .magnetometer()
    .microphone()
    .midi()
    .payment()
    .usb()
)

SECURE = Secure(
    csp=CONTENT_SECURITY_POLICY,
    xcto=XContentTypeOptions().nosniff(),
    xfo=XFrameOptions().deny(),
    referrer=ReferrerPolicy().same_origin(),
    permissions=PERMISSIONS_POLICY,
    coop=CrossOriginOpenerPolicy().same_origin(),
    corp=CrossOriginResourcePolicy().same_origin(),
).validate_and_normalize_headers(strict=True)

# The assets folder inside the fastapi-offline package (Swagger UI's bundle, CSS and icon).
SWAGGER_ASSETS = ("fastapi_offline", "static")

DOCS_INIT = """\
// Starts Swagger UI on the API docs page (a file, not an inline script, for the CSP).
"use strict";
(function () {
  var host = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: host.dataset.openapi,
    dom_id: "#swagger-ui",
    layout: "BaseLayout",
    deepLinking: true,
    showExtensions: true,
    showCommonExtensions: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
  });
})();
"""

DOCS_PAGE = """\
<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>{title}</title>
  <link rel="icon" href="{assets}/favicon.png">
  <link rel="stylesheet" href="{assets}/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui" data-openapi="{openapi}"></div>
  <script src="{assets}/swagger-ui-bundle.js"></script>
  <script src="{init}"></script>
</body>
</html>
"""


def security_headers() -> dict[str, str]:
    """The headers added to every HTTP response, by name."""
    return dict(SECURE.headers)


def install_security_headers(app: FastAPI, docs_url: str | None = None) -> None:
    """Add the security headers to every HTTP response of `app`, and serve the API docs at
    `docs_url` from local assets (create the app with `docs_url=None` so that FastAPI's own
    CDN page is not there too).

    Call it after the app's other `add_middleware` calls (the last one added is the outermost,
    so the answers of the others get the headers too) and before mounting anything at "/"."""
    app.add_middleware(SecureASGIMiddleware, secure=SECURE)
    if docs_url is None:
        return
    assets_url, init_url = f"{docs_url}/assets", f"{docs_url}/init.js"
    app.mount(assets_url, StaticFiles(packages=[SWAGGER_ASSETS]), name="api-docs-assets")

    @app.get(docs_url, include_in_schema=False)
    async def api_docs(request: Request) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        return HTMLResponse(DOCS_PAGE.format(
            title=escape(f"{app.title} - API"),
            assets=escape(root + assets_url),
            init=escape(root + init_url),
            openapi=escape(root + (app.openapi_url or "")),
        ))

    @app.get(init_url, include_in_schema=False)
    async def api_docs_init() -> Response:
        return Response(DOCS_INIT, media_type="text/javascript")
