"""The rules (regras.html): a page per ruleset with the same sections and pt-BR headings, the
online rules, a glossary of the table's words and strategy tips; phone and desktop."""

from __future__ import annotations

from typing import Any

from tests.support.a11y import SMALL_CONTROLS, check_contrast, check_names
from tests.support.browser import DESKTOP, PHONE, shot, watch

RULESETS = {
    "duplas-pontos": "Duplas de pontos",
    "duplas-torneio": "Duplas de torneio",
    "mano-a-mano": "Mano a Mano",
    "classico": "Clássico",
    "bloqueio": "Bloqueio",
    "pontos": "Pontos (1 contra 1)",
}
SECTIONS = ["Como se joga", "A saída", "Os pontos", "Fim da mão", "Fim da partida",
            "Jogando online"]
# What each ruleset's page must say (rules.md), in the players' words.
FACTS = {
    "duplas-pontos": ["6-6", "múltiplo de 5", "conta dobrada", "20", "passe nas costas",
                      "galo", "50", "garagem", "arredondada para baixo", "200",
                      "20 segundos", "Três tempos estourados", "15 segundos"],
    "duplas-torneio": ["capicú", "inclusive as pedras do parceiro", "quem trancou", "100",
                       "Curta", "Pneu"],
    "mano-a-mano": ["maior carroça", "alterna", "perde quem trancou", "50", "compra"],
    "classico": ["1 ponto", "Melhor de 3", "venceu a mão anterior"],
    "bloqueio": ["fora do jogo", "Simples", "Lá-e-lô", "Cruzada", "6 pontos"],
    "pontos": ["múltiplo de 5", "100 pontos", "conta dobrada"],
}
GLOSSARY = ["Batida", "Capicú", "Carroça", "Dorme", "Galo", "Garagem", "Jogo fechado",
            "trancado", "Lá-e-lô", "Cruzada", "Mão", "Passe", "Passe nas costas", "Pneu",
            "Saída", "Nós e Eles"]
TIPS = ["Conte os números", "Leia os passes", "Quando trancar", "Jogue com o parceiro"]

VISIBLE_PAGES = """() => [...document.querySelectorAll('.rules-page')]
  .filter((p) => !p.hidden && p.getClientRects().length).map((p) => p.id)"""


def test_each_ruleset_has_its_page_with_sections(new_context: Any) -> None:
    page = new_context(PHONE).new_page()
    errors = watch(page)
    page.goto("/regras.html")
    page.wait_for_selector("#inicio h2")
    assert page.evaluate(VISIBLE_PAGES) == ["inicio"]
    assert page.locator("html").get_attribute("lang") == "pt-BR"
    assert page.locator("#inicio .mode-card").count() == 6
    shot(page, "phone-rules-index")
    for rid, title in RULESETS.items():
        page.click(f".rules-nav a[href='#{rid}']")
        page.wait_for_function("(id) => document.body.dataset.page === id", arg=rid)
        assert page.evaluate(VISIBLE_PAGES) == [rid]
        article = page.locator(f"article#{rid}")
        assert article.locator("h2").inner_text() == title
        headings = article.locator("section > h3").all_inner_texts()
        assert headings == SECTIONS, (rid, headings)
        text = article.inner_text().lower()
        for fact in FACTS[rid]:
            assert fact.lower() in text, (rid, fact)
        assert page.title().startswith(title)
        assert page.get_attribute(f".rules-nav a[href='#{rid}']", "aria-current") == "page"
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], rid
    shot(page, "phone-rules-bloqueio")
    small = page.evaluate(SMALL_CONTROLS)
    assert not small, small
    assert not errors, errors


def test_glossary_strategy_and_online_rules(new_context: Any) -> None:
    page = new_context(DESKTOP).new_page()
    errors = watch(page)
    page.goto("/regras.html#glossario")
    page.wait_for_function("document.body.dataset.page === 'glossario'")
    terms = " | ".join(page.locator("#glossario dt").all_inner_texts())
    for word in GLOSSARY:
        assert word in terms, word
    shot(page, "desktop-rules-glossary")
    page.goto("/regras.html#g-galo")  # a term: its page opens
    page.wait_for_function("document.body.dataset.page === 'glossario'")
    assert page.locator("#g-galo").is_visible()
    page.goto("/regras.html#estrategia")
    page.wait_for_function("document.body.dataset.page === 'estrategia'")
    tips = " | ".join(page.locator("#estrategia h3").all_inner_texts())
    for tip in TIPS:
        assert tip in tips, tip
    page.goto("/regras.html#online")
    page.wait_for_function("document.body.dataset.page === 'online'")
    online = page.locator("#online").inner_text()
    for fact in ["20 segundos", "abandono", "15 segundos", "semente",
                 "Pedra tocada é pedra jogada"]:
        assert fact in online, fact
    page.goto("/regras.html#duplas-pontos")
    page.wait_for_function("document.body.dataset.page === 'duplas-pontos'")
    examples = page.locator("#duplas-pontos .example .tiles[role=img]")
    assert examples.count() >= 3
    assert "Carroça de sena" in str(examples.first.get_attribute("aria-label"))
    check_names(page, "rules")
    check_contrast(page, "rules")
    assert page.evaluate("document.documentElement.scrollWidth") <= DESKTOP["width"]
    shot(page, "desktop-rules-duplas-pontos")
    assert not errors, errors
