"""The client installs on a phone's home screen: a web app manifest linked from every page, with
its icons, and a service worker that keeps the rules, the tutorial and the lobby's shell for
offline use — never the API nor the tables' WebSocket."""

from __future__ import annotations

import importlib.util
import json
import re
import struct
import zlib
from pathlib import Path
from typing import Any

from tests.support.browser import PHONE, ROOT, watch

WEB = ROOT / "src" / "carroca" / "web"
PAGES = sorted(p.name for p in WEB.glob("*.html"))

KEPT_PATHS = """async () => {
  const out = [];
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) out.push(new URL(request.url).pathname);
  }
  return out;
}"""


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def make_icons() -> Any:
    spec = importlib.util.spec_from_file_location("make_icons", ROOT / "scripts" / "make_icons.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_manifest_is_valid_and_every_page_links_it(new_context: Any) -> None:
    page = new_context(PHONE).new_page()
    errors = watch(page)
    assert len(PAGES) >= 7
    for name in PAGES:
        html = page.request.get(f"/{name}").text()
        assert '<link rel="manifest" href="' in html and "manifest.webmanifest" in html, name
        assert '<meta name="theme-color"' in html, name

    r = page.request.get("/manifest.webmanifest")
    assert r.ok and r.headers["content-type"].startswith("application/manifest+json")
    manifest = json.loads(r.text())
    assert manifest["lang"] == "pt-BR" and manifest["name"].startswith("Carroça")
    assert manifest["short_name"] == "Carroça"
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"].startswith("#") and manifest["background_color"].startswith("#")
    icons = {(i["type"], i["sizes"], i.get("purpose", "any")): i["src"] for i in manifest["icons"]}
    assert ("image/svg+xml", "any", "any") in icons
    for size in (192, 512):
        src = icons[("image/png", f"{size}x{size}", "any")]
        icon = page.request.get(src)
        assert icon.ok and icon.headers["content-type"] == "image/png", src
        assert png_size(icon.body()) == (size, size), src
    maskable = page.request.get(icons[("image/png", "512x512", "maskable")])
    assert png_size(maskable.body()) == (512, 512)
    assert page.request.get(icons[("image/svg+xml", "any", "any")]).ok

    # Chromium itself reads the manifest without a complaint
    page.goto("/")
    page.wait_for_selector("#entry:not([hidden])")
    cdp = page.context.new_cdp_session(page)
    read = cdp.send("Page.getAppManifest")
    assert read["url"].endswith("/manifest.webmanifest") and read["errors"] == [], read["errors"]
    # (installable but for the test browser's own incognito profile)
    blocking = [e["errorId"] for e in cdp.send("Page.getInstallabilityErrors")[
        "installabilityErrors"] if e["errorId"] != "in-incognito"]
    assert not blocking, blocking
    assert not errors, errors


def pixels(data: bytes) -> bytes:
    """The raw rows of a PNG made of one IDAT chunk (as scripts/make_icons.py writes them)."""
    start = data.index(b"IDAT")
    length = struct.unpack(">I", data[start - 4:start])[0]
    return zlib.decompress(data[start + 4:start + 4 + length])


def test_the_png_icons_are_the_ones_the_script_draws() -> None:
    """scripts/make_icons.py draws the committed PNGs (the 192 px one is redrawn here; the
    others take seconds): the same bytes on this machine; elsewhere a last-bit difference of the
    maths library may move a channel by one."""
    module = make_icons()
    drawn = module.render("icon-192.png")
    kept = (WEB / "icons" / "icon-192.png").read_bytes()
    if drawn != kept:
        a, b = pixels(drawn), pixels(kept)
        assert len(a) == len(b) and max(abs(x - y) for x, y in zip(a, b, strict=True)) <= 1


def test_rules_and_tutorial_work_offline(new_context: Any) -> None:
    context = new_context(PHONE, service_workers=True)
    page = context.new_page()
    errors = watch(page)
    page.goto("/regras.html")
    page.wait_for_selector("#inicio h2")
    scope = page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)")
    assert scope == page.url.rsplit("/", 1)[0] + "/"
    kept = page.evaluate(KEPT_PATHS)
    for path in ("/regras.html", "/js/rules.js", "/tutorial.html", "/js/tutorial.js", "/"):
        assert path in kept, path
    assert not [p for p in kept if p.startswith("/api/") or p == "/ws"], kept

    # Offline: the browser's network is cut, and so is the service worker's own (Playwright's
    # offline mode does not reach a service worker's fetches; its routes do).
    context.set_offline(True)
    context.route("**/*", lambda route: route.abort("internetdisconnected"))
    response = page.goto("/tutorial.html?ritmo=0")
    assert response is not None and response.from_service_worker and response.ok
    page.wait_for_selector("[data-waiting=continue]")  # the guided hand starts
    response = page.goto("/regras.html#glossario")
    assert response is not None and response.from_service_worker and response.ok
    page.wait_for_selector("#glossario")
    page.wait_for_selector("[data-tiles] svg", state="attached")  # rules.js and its modules ran
    page.goto("/")  # the shell: the entry page, saying the server cannot be reached
    page.wait_for_selector("#entry:not([hidden]) #guest-name")
    page.wait_for_selector("#notice .notice-error:has-text('Sem conexão')")
    # the API is never answered from a copy
    assert page.evaluate(
        "fetch('/api/rulesets').then(() => 'answered', () => 'failed')") == "failed"
    assert not errors, errors
    context.unroute("**/*")
    context.set_offline(False)


def test_the_service_worker_leaves_the_api_alone() -> None:
    """Read in the worker's source: /api/ and /ws pass straight through, before any caching."""
    source = (WEB / "sw.js").read_text()
    check = source.index('url.pathname.startsWith("/api/") || url.pathname === "/ws"')
    assert check < source.index("event.respondWith(")
    assert Path(WEB / "js" / "pwa.js").read_text().count('register("/sw.js"') == 1


def test_the_shell_keeps_every_module_its_pages_import() -> None:
    """Offline, a module of the lobby (or of the rules page, or of the tutorial) missing from
    the worker's lists fails the page's whole script: every module they import, at any depth,
    is kept."""
    source = (WEB / "sw.js").read_text()
    kept = set(re.findall(r'"(/[^"]+)"', source[source.index("const SHELL"):
                                                   source.index("const KEPT")]))
    for page in ("lobby.js", "rules.js", "tutorial.js"):
        todo, seen = [page], set()
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            text = (WEB / "js" / name).read_text()
            todo += [m.removeprefix("./") for m in re.findall(r'from "(\./[\w./-]+\.js)"', text)]
        missing = sorted(f"/js/{n}" for n in seen if f"/js/{n}" not in kept)
        assert missing == [], f"{page} imports modules the service worker does not keep: {missing}"
