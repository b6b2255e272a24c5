"""The pages are assembled from their templates (carroca.pages): the shared head and site header
written once in web/partials, each page's own title, styles and scripts, no inline script, and
a template that says something unknown refused before the server starts."""

from __future__ import annotations

import re

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from carroca.pages import WEB, PageError, PageFiles, assemble, page, page_names

PARTIALS = {p.stem: p.read_text(encoding="utf-8") for p in (WEB / "partials").glob("*.html")}


def test_every_page_has_the_shared_head_and_its_own_title_and_scripts() -> None:
    assert len(page_names()) >= 8
    for name in page_names():
        html = page(name)
        assert html.startswith('<!doctype html>\n<html lang="pt-BR">\n<head>\n'), name
        assert html.endswith("</body>\n</html>\n"), name
        assert html.count("<title>") == 1 and html.count('rel="manifest"') == 1, name
        assert '<link rel="stylesheet" href="/css/base.css">' in html, name
        assert "<!--#" not in html and "{{" not in html, name
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html), name
    assert "<title>Regras do dominó · Carroça</title>" in page("regras.html")
    assert '<script type="module" src="/js/rules.js"></script>' in page("regras.html")
    assert '<meta name="robots" content="noindex">' in page("nao-encontrada.html")
    assert '<meta name="theme-color" content="#0b2119">' in page("mesa.html")
    assert '<a class="skip-link" href="#hand">Ir para a sua mão</a>' in page("mesa.html")
    lobby = page("index.html")
    assert lobby.count('<header class="site-header">') == 1
    assert '<div class="who" id="who"></div>\n  </header>' in lobby


def test_a_template_with_an_unknown_field_or_partial_is_refused() -> None:
    body = "<main></main>\n"
    ok = "<!--#page\n  title: T\n  body: page-doc\n-->\n" + body
    assert "<title>T</title>" in assemble("x.html", ok, PARTIALS)
    with pytest.raises(PageError, match="no <!--#page"):
        assemble("x.html", body, PARTIALS)
    with pytest.raises(PageError, match="'colour: red' is not one of"):
        assemble("x.html", "<!--#page\n  title: T\n  colour: red\n-->\n" + body, PARTIALS)
    with pytest.raises(PageError, match="no body"):
        assemble("x.html", "<!--#page\n  title: T\n-->\n" + body, PARTIALS)
    with pytest.raises(PageError, match="no partial named footer"):
        assemble("x.html", ok + "<!--#footer-->\n<!--#end-->\n", PARTIALS)


def test_a_page_names_the_links_of_its_nav_and_gets_them_in_the_site_header() -> None:
    def nav(name: str) -> list[str]:
        html = page(name)
        start = html.index('<nav class="site-nav" aria-label="Páginas">')
        assert start > html.index('<header class="site-header">')
        assert html.index("</nav>", start) < html.index("</header>")
        return re.findall(r'<a class="btn (btn-[a-z]+) btn-small" href="([^"]*)">([^<]+)</a>',
                          html[start:html.index("</nav>", start)])

    assert nav("justo.html") == [("btn-ghost", "regras.html", "Regras"),
                                 ("btn-ghost", "tutorial.html", "Tutorial")]
    assert nav("regras.html") == [("btn-ghost", "tutorial.html", "Tutorial"),
                                  ("btn-primary", "/", "Jogar")]
    for name in ("index.html", "torneio.html", "nao-encontrada.html"):
        assert "site-nav" not in page(name), name


def test_a_nav_to_an_unknown_link_or_without_a_site_header_is_refused() -> None:
    head = "<!--#page\n  title: T\n  body: page-doc\n  nav: {}\n-->\n"
    header = "<!--#site-header-->\n<!--#end-->\n<main></main>\n"
    one = assemble("x.html", head.format("/") + header, PARTIALS)
    assert one.count("<a class=\"btn") == 1 and 'href="/">Jogar</a>' in one
    with pytest.raises(PageError, match=r"no link to mesa\.html"):
        assemble("x.html", head.format("/ mesa.html") + header, PARTIALS)
    with pytest.raises(PageError, match="no <!--#site-header--> block"):
        assemble("x.html", head.format("/") + "<main></main>\n", PARTIALS)
    with pytest.raises(PageError, match="no partial named site-nav"):
        assemble("x.html", head.replace("  nav: {}\n", "") + "<!--#site-nav-->\n<!--#end-->\n",
                 PARTIALS)


def test_pages_are_served_assembled_and_the_partials_are_not() -> None:
    app = FastAPI()
    app.mount("/", PageFiles(WEB))
    client = TestClient(app)
    for path, name in (("/", "index.html"), ("/regras.html", "regras.html")):
        r = client.get(path)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
        assert r.text == page(name)
    assert client.get("/partials/page.html").status_code == 404
    assert client.get("/css/base.css").status_code == 200


def test_a_block_or_a_one_line_call_fills_its_partial_with_its_values() -> None:
    head = "<!--#page\n  title: T\n  body: page-doc\n-->\n"
    partials = PARTIALS | {"pair": "<b>{{a}}</b>\n<i>{{b}}</i>\n",
                           "box": '<div class="{{kind}}">\n{{content}}</div>\n'}
    html = assemble("x.html", head + '  <p>\n    <!--#pair a="1" b="2" /-->\n  </p>\n'
                    '<!--#box kind="k"-->\n  <p>in</p>\n<!--#end-->\n', partials)
    assert "  <p>\n    <b>1</b>\n    <i>2</i>\n  </p>\n" in html  # at the call's indentation
    assert '<div class="k">\n  <p>in</p>\n</div>\n' in html
    nested = assemble("x.html", head + '<!--#box kind="out"-->\n  <!--#box kind="in"-->\n'
                      "    <p>in</p>\n  <!--#end-->\n<!--#end-->\n", partials)
    assert '<div class="out">\n  <div class="in">\n    <p>in</p>\n  </div>\n</div>\n' in nested
    with pytest.raises(PageError, match="pair: no value for b"):
        assemble("x.html", head + '<!--#pair a="1" /-->\n', partials)
    with pytest.raises(PageError, match="no partial named nothing"):
        assemble("x.html", head + '<!--#nothing a="1" /-->\n', partials)
