"""A whole duplas-pontos match played without sight: by keyboard only, followed through the
accessibility tree and the table's live regions alone ("Avisos da mesa", "Revisão da mesa").

Every action of every seat, checked against the match's record, is said once and in order; the
review key reads the open ends and the tiles in each hand as the server sent them; the turn's
spoken warnings come; the hand's summary is said, takes the focus and holds the table until the
player continues. The same at 200% zoom on a 1366x768 desktop (a 683x384 viewport at twice the
pixel density)."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from tests.support.browser import DESKTOP, shot, unique_name, watch
from tests.support.webplay import MOVED, TABLE, sign_in

BOTS = ["Zé", "Tião", "Dona Cida", "Juca"]  # words.js: the names of the bots by seat
NUMBERS = ["branca", "ás", "duque", "terno", "quadra", "quina", "sena"]
PLACES = {"left": "na ponta da esquerda", "right": "na ponta da direita",
          "up": "na ponta de cima", "down": "na ponta de baixo"}
END_NAMES = {"left": "esquerda", "right": "direita", "up": "em cima", "down": "embaixo"}
ACTION = re.compile(r"^(Você|Zé|Tião|Dona Cida|Juca) (jogou|saiu com|passou|comprou)")
ZOOMED = {"viewport": {"width": 683, "height": 384}, "device_scale_factor": 2}
TURN_OR_SUMMARY = """() => {
  const t = document.querySelector('[data-testid=table]');
  return t && (t.dataset.status === 'finished' || t.dataset.myTurn === 'true'
    || !!document.querySelector('#summary-continue'));
}"""
TURN = 11  # seconds: both warnings (10 and 5 s left) come within a few seconds


def tile_said(tile: str) -> str:
    a, b = (int(x) for x in tile.split("-"))
    return f"a carroça de {NUMBERS[a]}" if a == b else f"a pedra {a} e {b}"


def expected_actions(record: dict[str, Any]) -> list[str]:
    """What the table says of each action of the record, from seat 0's chair, in order."""
    names = ["Você"] + [BOTS[s] for s in range(1, 4)]
    out = []
    for hand in record["hands"]:
        for k, a in enumerate(hand["actions"]):
            who = names[a["seat"]]
            if a["type"] == "play":
                out.append(f"{who} jogou {tile_said(a['tile'])} {PLACES[a['end']]}" if a.get("end")
                           else f"{who} saiu com {tile_said(a['tile'])}")
            elif a["type"] == "pass":
                out.append(f"{who} passou a saída (não tem carroça)" if k == 0
                           else f"{who} passou")
    return out


def said(page: Any) -> list[str]:
    """The lines of the live list "Avisos da mesa", read from the accessibility tree."""
    tree = page.get_by_role("list", name="Avisos da mesa").aria_snapshot()
    lines = []
    for row in tree.splitlines():
        m = re.match(r"\s*- listitem: (.*)$", row)
        if m:
            text = m.group(1)
            lines.append(json.loads(text) if text.startswith('"') else text)
    return lines


def wait_said(page: Any, pattern: str, timeout_s: float = 15, nth: int = 0) -> str:
    """The `nth` line (from 0) that matches: the list keeps a whole match's lines, so the third
    hand's summary is the third summary line, not the first."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        matching = [line for line in said(page) if re.search(pattern, line)]
        if len(matching) > nth:
            return matching[nth]
        page.wait_for_timeout(100)
    raise AssertionError(f"never said ({nth + 1} times): {pattern!r}; said: {said(page)[-8:]}")


def focused_name(page: Any) -> str:
    return str(page.evaluate(r"""() => {
      const el = document.activeElement;
      if (!el) return '';
      const label = el.labels && el.labels.length ? el.labels[0].textContent : '';
      const name = el.getAttribute('aria-label') || label || el.textContent || '';
      return name.replace(/\s+/g, ' ').trim();
    }"""))


def tab_to(page: Any, name: str, limit: int = 40) -> None:
    for _ in range(limit):
        page.keyboard.press("Tab")
        if focused_name(page).startswith(name):
            return
    raise AssertionError(f"Tab never reached {name!r}")


def check_review(page: Any) -> None:
    """R reads the open ends and each seat's tiles as the server's last state has them."""
    page.keyboard.press("r")
    status = page.get_by_role("status", name="Revisão da mesa")
    deadline = time.monotonic() + 5
    text = ""
    while time.monotonic() < deadline and "Placar:" not in text:
        text = status.aria_snapshot()
        page.wait_for_timeout(50)
    view = page.evaluate("window.carroca.ctx.state.view")
    for end, value in view["ends"].items():
        if any(p.get("end") == end for p in view["table"][1:]) or end in ("left", "right"):
            assert f"{END_NAMES[end]} " in text and str(value) in text, (end, value, text)
    assert (f"Soma {view['table_count']}" if view["table"] else "Mesa vazia") in text, text
    names = ["Você"] + [BOTS[s] for s in range(1, 4)]
    for seat, size in enumerate(view["hand_sizes"]):
        assert f"{names[seat]} {size}" in text, (seat, size, text)


def play_my_turn(page: Any) -> None:
    """Only keys: M to the hand (its first playable tile), Enter; a tile that fits two ends
    lights them, → goes to the second, Enter plays there; P passes when nothing fits."""
    version = page.get_attribute(TABLE, "data-version")
    if page.get_by_role("dialog", name="Cinco carroças!").count():
        page.keyboard.press("Enter")  # the dialog's first button: keep the points
    else:
        page.keyboard.press("m")
        if page.evaluate("document.activeElement?.dataset?.legal === 'true'"):
            page.keyboard.press("Enter")
            if page.evaluate("document.activeElement?.getAttribute('role') === 'button' && "
                             "document.activeElement.closest('svg') !== null"):
                page.keyboard.press("ArrowRight")
                page.keyboard.press("Enter")
        else:
            page.keyboard.press("p")
    page.wait_for_function(MOVED, arg=version)


def play_a_match(page: Any, zoomed: bool) -> None:
    sign_in(page.context, unique_name("Cega"))
    made = page.request.post("/api/tables", data={
        "ruleset": "duplas-pontos", "options": {"target": 100},
        "seats": ["me", "bot:greedy", "bot:greedy", "bot:greedy"], "turn_seconds": TURN})
    assert made.ok, made.text()
    match_id = made.json()["id"]
    page.goto(f"/mesa.html?id={match_id}")
    page.wait_for_selector(f"{TABLE}[data-status=playing]")

    # The setting that holds the hand's summary, by keys: J opens the list of the hand's
    # actions, Tab reaches the box, Space ticks it, Esc closes the panel.
    page.keyboard.press("j")
    tab_to(page, "Esperar eu ler o resumo")
    page.keyboard.press("Space")
    assert page.get_by_role("checkbox", name=re.compile("Esperar eu ler")).is_checked()
    page.keyboard.press("Escape")

    warned = reviewed = summaries = 0
    deadline = time.monotonic() + 120
    while True:
        assert time.monotonic() < deadline, "the match did not end in time"
        page.wait_for_function(TURN_OR_SUMMARY)
        if page.get_attribute(TABLE, "data-status") == "finished":
            break
        if page.locator("#summary-continue").count():
            # The summary: said in the live list, focused, and the table waits for the player.
            line = wait_said(page, r"Pontos da mão: .*Placar: ", nth=summaries)
            assert re.search(r"(bateu|Jogo fechado|Trancado|Fim da mão)", line), line
            heading = page.get_by_role("heading", level=2).filter(has_text=line.split("!")[0][:12])
            assert heading.count() and focused_name(page) == heading.first.inner_text().strip()
            pause = page.evaluate("window.carroca.ctx.state.pause")
            assert pause is not None and pause["reading"] == [0], pause
            tab_to(page, "Continuar")
            page.keyboard.press("Enter")
            summaries += 1
            page.wait_for_function("() => !window.carroca.ctx.state.pause")
            continue
        if not warned:
            wait_said(page, r"^Faltam 10 segundos para jogar!$")
            if not zoomed:
                wait_said(page, r"^Faltam 5 segundos para jogar!$")
            warned += 1
        if not reviewed:
            check_review(page)
            reviewed += 1
        play_my_turn(page)
    if zoomed:
        shot(page, "zoom-200-end")
    page.wait_for_selector("#end-dialog[open]")
    assert page.get_by_role("dialog", name=re.compile("venceram|Vitória")).count()
    page.keyboard.press("Escape")  # the end dialog closes: the table's regions are back
    lines = said(page)
    record = page.request.get(f"/api/matches/{match_id}/record").json()
    heard = [re.sub(r"[.:].*$", "", line) if not line.startswith("Você comprou") else line
             for line in lines if ACTION.match(line)]
    assert heard == expected_actions(record), (heard, expected_actions(record))
    assert any(line.startswith("Fim da partida:") for line in lines), lines[-5:]
    assert warned and reviewed
    assert summaries == len(record["hands"]) - 1


@pytest.mark.parametrize("zoomed", [False, True], ids=["desktop", "zoom-200"])
def test_a_whole_match_by_keyboard_and_screen_reader(
    browser: Any, server: str, zoomed: bool
) -> None:
    options = ZOOMED if zoomed else {"viewport": DESKTOP}
    context = browser.new_context(base_url=server, locale="pt-BR", reduced_motion="reduce",
                                  **options)
    context.set_default_timeout(20_000)
    try:
        page = context.new_page()
        errors = watch(page)
        play_a_match(page, zoomed)
        assert not errors, errors
    finally:
        context.close()
