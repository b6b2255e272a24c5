"""The tutorial (tutorial.html): a guided first hand of duplas-pontos played in the browser.

It is completed by clicking what it asks for; a tile that does not fit, a tile that fits but is
not the one asked, a wrong end and a pass while holding a playable tile are refused with the
reason. Its hand is checked against the Python rules engine: every action legal, and the points
the page shows are the engine's."""

from __future__ import annotations

from typing import Any

from tests.support.a11y import SMALL_CONTROLS, check_contrast, check_names
from tests.support.browser import DESKTOP, PHONE, shot, watch

from carroca.rules import Match, actions, get_ruleset
from carroca.rules import tiles as T

APP = "[data-testid=tutorial]"
HINT = "[data-testid=tutorial-hint]"

TUTORIAL_HAND = """async () => {
  const m = await import('/js/tutorial-hand.js');
  return { ruleset: m.RULESET, deal: m.DEAL, actions: m.ACTIONS };
}"""


def state(page: Any) -> dict[str, str]:
    return dict(page.evaluate(
        "() => ({...document.querySelector('[data-testid=tutorial]').dataset})"))


def wait_change(page: Any, beat: str, step: str, waiting: str = "") -> None:
    page.wait_for_function(
        """([beat, step, waiting]) => {
          const d = document.querySelector('[data-testid=tutorial]').dataset;
          return d.waiting !== 'bots'
            && (d.beat !== beat || d.step !== step || (waiting && d.waiting !== waiting));
        }""",
        arg=[beat, step, waiting],
    )


def happy_step(page: Any) -> str:
    """Do what the tutorial asks now (continue, the tile, its end, Passo); returns the state."""
    s = state(page)
    waiting = s["waiting"]
    if waiting == "continue":
        page.click("#coach-next")
    elif waiting == "tile":
        page.click(f"#hand [data-tile='{s['asked'].split(':')[0]}']")
    elif waiting == "end":
        page.click(f".board-svg .ghost[data-end={s['askedEnd']}]")
    elif waiting == "pass":
        page.click("#btn-pass")
    if waiting != "done":
        wait_change(page, s["beat"], s["step"], waiting)
    return waiting


def open_tutorial(new_context: Any, viewport: dict[str, int], url: str, device: str
                  ) -> tuple[Any, list[str]]:
    """The tutorial at `url` in a new page of `viewport`, at its first "continue" (its screenshot
    named after `device`): the page and its console errors."""
    page = new_context(viewport).new_page()
    errors = watch(page)
    page.goto(url)
    page.wait_for_selector(f"{APP}[data-waiting=continue]")
    shot(page, f"{device}-tutorial-start")
    return page, errors


def test_tutorial_is_completed_by_clicking_what_it_asks(new_context: Any) -> None:
    page, errors = open_tutorial(new_context, PHONE, "/tutorial.html?ritmo=0", "phone")
    check_names(page, "tutorial")
    check_contrast(page, "tutorial")
    small = page.evaluate(SMALL_CONTROLS)
    assert not small, small
    refused: set[str] = set()
    shots: set[str] = set()
    for _ in range(80):
        s = state(page)
        waiting = s["waiting"]
        if waiting == "done":
            break
        beat, step = s["beat"], s["step"]
        if waiting == "continue":
            if "pass-early" not in refused and page.locator("#hand [data-tile]").count():
                page.click("#btn-pass", force=True)  # Passo while the coach is talking
                assert "Continuar" in page.inner_text(HINT)
                refused.add("pass-early")
            page.click("#coach-next")
        elif waiting == "tile":
            asked = s["asked"]
            tile = asked.split(":")[0]
            assert page.get_attribute(f"#hand [data-tile='{tile}']", "data-legal") == "true"
            if asked == "3-5:left":
                # a tile that does not fit: refused with the open ends named
                page.click("#hand [data-tile='0-5']", force=True)
                hint = page.inner_text(HINT)
                assert "não encaixa" in hint and "0 nem 5" in hint, hint
                # a tile that fits, but is not the one the lesson asks for
                page.click("#hand [data-tile='1-3']")
                hint = page.inner_text(HINT)
                assert "também encaixa" in hint and "3-5" in hint, hint
                # passing with a playable tile in hand
                page.click("#btn-pass", force=True)
                assert "obrigado a jogar" in page.inner_text(HINT)
                assert state(page)["step"] == step and state(page)["beat"] == beat
                refused.update({"no-fit", "not-asked", "must-play"})
            if asked == "6-6":
                page.click("#hand [data-tile='2-2']", force=True)
                assert "6-6" in page.inner_text(HINT)
                refused.add("opening")
            page.click(f"#hand [data-tile='{tile}']")
            if ":" in asked and page.locator(f"{APP}[data-waiting=end]").count():
                end = asked.split(":")[1]
                ends = page.locator(".board-svg .ghost[data-end]")
                seen = {ends.nth(i).get_attribute("data-end") for i in range(ends.count())}
                assert seen == {"left", "right", "up"}, seen
                shot(page, "phone-tutorial-choose-end")
                shots.add("end")
                page.click(".board-svg .ghost[data-end=left]")
                hint = page.inner_text(HINT)
                assert "soma ficaria 5" in hint and "20" in hint, hint
                refused.add("wrong-end")
                page.click(f".board-svg .ghost[data-end={end}]")
        elif waiting == "pass":
            page.click("#hand [data-tile='2-2']", force=True)
            hint = page.inner_text(HINT)
            assert "não encaixa" in hint and "6, 6, 4 e 4" in hint, hint
            refused.add("pass-no-fit")
            if "pass" not in shots:
                shot(page, "phone-tutorial-pass")
                shots.add("pass")
            page.click("#btn-pass")
        else:
            raise AssertionError(f"unexpected state {s}")
        wait_change(page, beat, step)
    assert state(page)["waiting"] == "done"
    assert page.get_attribute(APP, "data-status") == "finished"
    assert page.inner_text("[data-testid=tutorial-score]") == "Placar da mão: Nós 150 × 110 Eles"
    assert page.inner_text("#score-0") == "150" and page.inner_text("#score-1") == "110"
    assert "garagem" in page.inner_text("#coach-text")
    assert page.locator("#coach-actions a[href='/']").count() == 1
    assert refused == {"pass-early", "no-fit", "not-asked", "must-play", "opening", "wrong-end",
                       "pass-no-fit"}
    shot(page, "phone-tutorial-end")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert not errors, errors


def test_tutorial_hand_follows_the_rules_engine(new_context: Any) -> None:
    """The scripted hand replayed by the Python engine: legal throughout, the same points."""
    page, errors = open_tutorial(new_context, DESKTOP, "/tutorial.html", "desktop")
    hand = page.evaluate(TUTORIAL_HAND)
    m = Match(get_ruleset(hand["ruleset"]))
    m.deal([T.parse(t, strict=True) for t in hand["deal"]])
    assert m.current_player == 0  # the player holds the 6-6 and opens
    mine = 0
    for seat, text in hand["actions"]:
        action = actions.parse(text)
        assert action in m.legal_actions(), (seat, text)
        m.apply(action, seat)
        mine += seat == 0
    log = m.history[0]
    assert (log.end.kind, log.end.seat) == ("batida", 0)
    assert tuple(m.score) == (150, 110)
    reasons = {e.reason for e in log.events}
    assert {"mesa", "passe", "galo", "garagem"} <= reasons
    assert mine == 8

    # at desktop size: the lesson up to choosing an end, then to the end of the hand
    page.goto("/tutorial.html?ritmo=0")
    page.wait_for_selector(f"{APP}[data-waiting=continue]")
    while state(page)["waiting"] != "end":
        happy_step(page)
    shot(page, "desktop-tutorial-choose-end")
    while happy_step(page) != "done":
        pass
    assert page.inner_text("#score-0") == "150" and page.inner_text("#score-1") == "110"
    shot(page, "desktop-tutorial-end")
    assert page.evaluate("document.documentElement.scrollWidth") <= DESKTOP["width"]
    assert not errors, errors
