"""The client's pages, assembled from their templates: the head and the site header written once.

Each page in web/ (index.html, regras.html, ...) starts with a `<!--#page ... -->` block that says
what is its own (title, description, style sheets, scripts, body class, skip link, the pages its
site header links to); the rest of the page is its body. The shared head and body frame are
web/partials/page.html, and a `<!--#site-header-->` ... `<!--#end-->` block puts its contents (the
player's box) into the site header of web/partials/site-header.html; a block may give values for
the other slots of its partial (`<!--#hidden-card id="podium" heading="podium-title"
title="Pódio"-->`), and a one-line `<!--#name slot="value" /-->` puts its partial there whole (a
value holding double quotes is written in single ones), so that a piece written many times over
(the table pages' top bar, an icon button) is written once. Blocks nest, each closed by the
`<!--#end-->` at its own indentation; a partial takes the indentation of the line that names it.
The links a header may show are written once, in web/partials/site-nav.html; a page's `nav:`
names the ones it shows. Pages are assembled once, when the server starts (`PageFiles`), and
served like any static file; no script is written inline (the CSP forbids it).
"""

from __future__ import annotations

import html
import re
from functools import cache
from os import PathLike, stat_result
from pathlib import Path
from typing import Final

from starlette.exceptions import HTTPException
from starlette.responses import HTMLResponse, Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

WEB: Final = Path(__file__).resolve().parent / "web"
PARTIALS: Final = "partials"

_HEAD = re.compile(r"\A<!--#page\n(?P<fields>.*?)\n-->\n", re.S)
_FIELD = re.compile(r"^\s+(?P<key>[a-z-]+): (?P<value>.+)$")
_ARGS = r"""(?P<args>(?:\s+[a-z-]+=(?:"[^"]*"|'[^']*'))*)"""
_BLOCK = re.compile(r"^(?P<indent> *)<!--#(?P<name>[a-z-]+)" + _ARGS
                    + r"-->\n(?P<content>.*?)^(?P=indent)<!--#end-->\n", re.S | re.M)
_CALL = re.compile(r"^(?P<indent> *)<!--#(?P<name>[a-z-]+)" + _ARGS + r" /-->\n", re.M)
_ARG = re.compile(r"""\s(?P<key>[a-z-]+)=(?:"(?P<double>[^"]*)"|'(?P<single>[^']*)')""")
_SLOT = re.compile(r"\{\{([a-z-]+)\}\}")
_LEADING_SLOTS = re.compile(r"\A(?:\{\{[a-z-]+\}\})*")

#: What a page may say of itself, and what it gets when it says nothing.
DEFAULTS: Final = {
    "title": None,
    "description": "",
    "robots": "",
    "theme": "#0a1f17",
    "css": "",
    "js": "",
    "body": None,
    "skip": "#main Ir para o conteúdo",
    "nav": "",
}

#: Partials that a page gets through its fields, not through a block of its own.
_NOT_BLOCKS: Final = frozenset({"page", "site-nav"})
_HREF = re.compile(r'\bhref="([^"]*)"')


class PageError(ValueError):
    """A page template that cannot be assembled (the server refuses to start with it)."""


def _fields(name: str, text: str) -> tuple[dict[str, str], str]:
    head = _HEAD.match(text)
    if head is None:
        raise PageError(f"{name}: no <!--#page ... --> block at the top")
    fields: dict[str, str] = {}
    for line in head["fields"].splitlines():
        field = _FIELD.match(line)
        if field is None or field["key"] not in DEFAULTS or field["key"] in fields:
            raise PageError(f"{name}: {line.strip()!r} is not one of {', '.join(DEFAULTS)}")
        fields[field["key"]] = field["value"]
    for key, default in DEFAULTS.items():
        if key not in fields:
            if default is None:
                raise PageError(f"{name}: no {key}")
            fields[key] = default
    return fields, text[head.end():]


def _fill(template: str, values: dict[str, str]) -> str:
    return _SLOT.sub(lambda m: values[m[1]], template)


def _indented(line: str, indent: str) -> str:
    """`line` of a partial at `indent`, after the slots it starts with; a blank line as it is."""
    rest = _LEADING_SLOTS.sub("", line, count=1)
    return line[:len(line) - len(rest)] + indent + rest if rest.strip() else line


def _partial(name: str, m: re.Match[str], partials: dict[str, str],
             values: dict[str, str]) -> str:
    """The partial a block or a call `m` names, at its indentation (what follows the slots a
    line starts with: the content keeps its own), its slots filled from `values` and the call's."""
    if m["name"] not in partials or m["name"] in _NOT_BLOCKS:
        raise PageError(f"{name}: no partial named {m['name']}")
    template = "".join(_indented(line, m["indent"])
                       for line in partials[m["name"]].splitlines(keepends=True))
    values = values | {a["key"]: a["double"] if a["double"] is not None else a["single"]
                       for a in _ARG.finditer(m["args"])}
    missing = set(_SLOT.findall(template)) - values.keys()
    if missing:
        raise PageError(f"{name}: {m['name']}: no value for {', '.join(sorted(missing))}")
    return _fill(template, values)


def _nav(name: str, hrefs: str, links: str) -> str:
    """The site nav with the links of site-nav.html whose href `hrefs` names, in that file's
    order (its lines without a link, the <nav> itself, are kept); "" when it names none."""
    wanted = hrefs.split()
    if not wanted:
        return ""
    known = {m[1] for m in _HREF.finditer(links)}
    for href in wanted:
        if href not in known:
            raise PageError(f"{name}: nav: no link to {href} in site-nav.html")
    return "".join(line for line in links.splitlines(keepends=True)
                   if (m := _HREF.search(line)) is None or m[1] in wanted)


def assemble(name: str, text: str, partials: dict[str, str]) -> str:
    """The page `name` from its template `text`, with the partials by name (page, site-header)."""
    fields, body = _fields(name, text)
    nav = _nav(name, fields["nav"], partials.get("site-nav", ""))

    def block(m: re.Match[str]) -> str:
        # blocks nest: the content, or the partial (a page's frame), may hold blocks of its own
        return _BLOCK.sub(block, _partial(name, m, partials, {"content": m["content"], "nav": nav}))

    body = _BLOCK.sub(block, _CALL.sub(lambda m: _partial(name, m, partials, {}), body))
    if nav and '<header class="site-header">' not in body:
        raise PageError(f"{name}: nav: but no <!--#site-header--> block to show it in")

    esc = html.escape
    meta = "".join(f'  <meta name="{key}" content="{esc(fields[key])}">\n'
                   for key in ("robots", "description") if fields[key])
    links = "".join(f'  <link rel="stylesheet" href="/css/{c}.css">\n'
                    for c in fields["css"].split())
    links += "".join(f'  <script type="module" src="/js/{j}.js"></script>\n'
                     for j in fields["js"].split())
    href, _, text_ = fields["skip"].partition(" ")
    return _fill(partials["page"], {
        "theme": esc(fields["theme"]), "meta": meta, "title": esc(fields["title"], quote=False),
        "links": links, "body": esc(fields["body"]), "skip-href": esc(href),
        "skip-text": esc(text_, quote=False), "content": body,
    })


def page_names(web: Path = WEB) -> list[str]:
    return sorted(p.name for p in web.glob("*.html"))


@cache
def page(name: str, web: Path = WEB) -> str:
    """The assembled page `name` (e.g. "index.html") of the client in `web`."""
    partials = {p.stem: p.read_text(encoding="utf-8") for p in (web / PARTIALS).glob("*.html")}
    return assemble(name, (web / name).read_text(encoding="utf-8"), partials)


class PageFiles(StaticFiles):
    """The client's files, its pages assembled (all of them at start-up, so a broken template
    stops the server there); the partials are not served."""

    def __init__(self, directory: Path = WEB) -> None:
        super().__init__(directory=directory, html=True)
        self.web = directory
        self.pages = {name: page(name, directory) for name in page_names(directory)}

    async def get_response(self, path: str, scope: Scope) -> Response:
        if Path(path).parts[:1] == (PARTIALS,):
            raise HTTPException(status_code=404)
        return await super().get_response(path, scope)

    def file_response(self, full_path: PathLike[str] | str, stat: stat_result, scope: Scope,
                      status_code: int = 200) -> Response:
        found = Path(full_path).resolve()
        if found.parent == self.web.resolve() and found.name in self.pages:
            return HTMLResponse(self.pages[found.name], status_code=status_code)
        return super().file_response(full_path, stat, scope, status_code)
