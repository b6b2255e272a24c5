"""The table on a phone (390x844) at the largest text size a phone gives, a whole hand played:
every tile of the hand reachable, the lit places of a tile that fits three ends on screen, and
nothing a player needs cut off (the page never wider than the screen, no text or control clipped
by its box), the hand's summary included.

How the text size is emulated: Android's largest font size is twice the normal one (200%), and
it reaches a page either as page zoom (the zoom tests cover that: tests/web/test_accessible_play.py)
or as the browser's text size. The second is emulated here the way a browser applies its own
text size setting: its default font size is set to 32 px (twice 16) through the DevTools
protocol (`Page.setFontSizes`), so `rem`, `em` and the font-size keywords double while lengths in
pixels stay, and media queries written in `rem` see the larger text, as they do on such a phone.
Setting the root's `font-size` from the page's own style instead would leave the media queries
at the normal size, which no phone does.

The table is scripted (tests/support/table_script.py): the deal is a fixed one, so the hand, the
tile that fits three ends and every turn are the same on every run."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout
from tests.support.browser import PHONE, shot, watch
from tests.support.table_script import Script, cross_choice, open_table
from tests.support.webplay import MOVED, TABLE

SEED = "11" * 32
LARGEST = 32  # px: the default text size, twice the usual 16

# What a player needs and cannot see: the page wider than the screen, a text or control off
# the screen's sides, a text cut by its own box, or an element cut by a box around it that
# clips without scrolling (one inside a scrolling box is reached by scrolling it).
CUT_OFF = """() => {
  const width = document.documentElement.clientWidth;
  const bad = [];
  if (document.documentElement.scrollWidth > width + 1) {
    bad.push(`the page is ${document.documentElement.scrollWidth} px wide`);
  }
  const name = (el) => `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}` +
    `${typeof el.className === 'string' && el.className ? '.' + el.className.split(' ')[0] : ''}` +
    ` "${(el.textContent || el.getAttribute('aria-label') || '').trim().slice(0, 24)}"`;
  const shown = (el) => {
    if (el.closest('[hidden], .sr-only, [aria-hidden=true], dialog:not([open])')) return false;
    const s = getComputedStyle(el);
    return s.display !== 'none' && s.visibility !== 'hidden' && s.opacity !== '0';
  };
  const clips = (s) => /hidden|clip/.test(s.overflowX + ' ' + s.overflowY);
  const scrolls = (s) => /auto|scroll/.test(s.overflowX + ' ' + s.overflowY);
  const controls = 'button, a[href], input, select, [data-tile], [data-end]';
  for (const el of document.querySelectorAll('#app *, dialog[open] *')) {
    const text = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if ((!text && !el.matches(controls)) || !shown(el)) continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    if (r.left < -1 || r.right > width + 1) {
      bad.push(`${name(el)} off the screen (${Math.round(r.left)}-${Math.round(r.right)})`);
      continue;
    }
    const own = getComputedStyle(el);
    if (text && own.display !== 'inline' && el.scrollWidth > el.clientWidth + 1) {
      bad.push(`${name(el)} wider than its box`);  // cut, or spilling over what is beside it
    } else if (text && clips(own) && el.scrollHeight > el.clientHeight + 1) {
      bad.push(`${name(el)} cut by its own box`);
    }
    let parent = el.parentElement;  // the box around it (`display: contents` makes none)
    while (parent && /^(inline|contents)$/.test(getComputedStyle(parent).display)) {
      parent = parent.parentElement;
    }
    if (parent && !scrolls(getComputedStyle(parent))) {
      const p = parent.getBoundingClientRect();
      if (r.left < p.left - 1 || r.right > p.right + 1) {
        bad.push(`${name(el)} sticks out of ${name(parent)}`);
      }
    }
    for (let box = el.parentElement; box && box !== document.body; box = box.parentElement) {
      const s = getComputedStyle(box);
      if (scrolls(s)) break;
      if (!clips(s)) continue;
      const b = box.getBoundingClientRect();
      if (r.left < b.left - 1 || r.right > b.right + 1 || r.top < b.top - 1 ||
          r.bottom > b.bottom + 1) {
        bad.push(`${name(el)} cut by ${name(box)}`);
        break;
      }
    }
  }
  return bad;
}"""

# Whether an element, once scrolled to, is wholly on the screen and the one a finger there
# would touch.
ON_SCREEN = """(el) => {
  el.scrollIntoView({block: 'nearest', inline: 'nearest'});
  const r = el.getBoundingClientRect();
  const inside = r.left >= -1 && r.top >= -1 && r.right <= innerWidth + 1 &&
    r.bottom <= innerHeight + 1;
  const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
  return inside && !!hit && (hit === el || el.contains(hit));
}"""

TURN_OR_SUMMARY = """() => document.querySelector('[data-testid=hand-summary]') ||
  document.querySelector('[data-testid=table]').dataset.myTurn === 'true'"""


def large_text_page(context: Any, table: Script, stream: list[dict[str, Any]] | None = None
                    ) -> tuple[Any, list[str]]:
    """The scripted table (served `stream` on joining) in a new page whose browser's text size
    is the largest; the page's script errors are watched."""
    page = context.new_page()
    errors = watch(page)
    devtools = context.new_cdp_session(page)
    devtools.send("Page.setFontSizes", {"fontSizes": {"standard": LARGEST, "fixed": LARGEST}})
    table.serve(page, stream)
    open_table(page)
    sizes = page.evaluate("[document.documentElement, document.body, "
                          "document.getElementById('turn-msg')]"
                          ".map((el) => parseFloat(getComputedStyle(el).fontSize))")
    # the text size is the browser's, and the page's text follows it (none set in pixels)
    assert sizes[0] == LARGEST and sizes[1] == LARGEST and sizes[2] > 1.5 * 16, sizes
    return page, errors


def check_on_screen(page: Any, selector: str) -> None:
    """Each element matching `selector` is, once scrolled to, wholly on the screen and the one
    a finger would touch: within 5 s, since the page may still be laying out (a panel's rows
    settling at the largest text size)."""
    found = page.locator(selector)
    assert found.count(), selector
    for i in range(found.count()):
        try:
            page.wait_for_function(ON_SCREEN, arg=found.nth(i).element_handle(), timeout=5000)
        except PlaywrightTimeout:
            raise AssertionError(f"{selector} #{i} not on the screen") from None


def check_nothing_cut(page: Any, where: str) -> None:
    bad = page.evaluate(CUT_OFF)
    assert not bad, f"{where}: {bad}"


def play_a_turn(page: Any, table: Script) -> None:
    """Every tile of the hand reached; a lit tile played (its first lit place when it fits
    several, each of them on the screen), or Passo."""
    version = page.get_attribute(TABLE, "data-version")
    check_on_screen(page, "#hand [data-tile]")
    lit = page.locator("#hand [data-tile][data-legal=true]")
    if lit.count():
        lit.first.click()
        if page.locator("[data-end]").count():
            check_on_screen(page, "[data-end]")
            page.locator("[data-end]").first.click()
    else:
        page.click("#btn-pass")
    page.wait_for_function(MOVED, arg=version)


def test_a_hand_at_the_largest_text_size(new_context: Any) -> None:
    table = Script("duplas-pontos", "c0", seed=SEED)
    table.autoplay = True  # seat 0 too, until it holds a tile that fits three ends
    table.others(until=cross_choice)
    table.autoplay = False
    legal = [str(a) for a in table.match.legal_actions()]
    tile = next(t for t in {a.split(":")[0] for a in legal if ":" in a}
                if sum(a.startswith(t + ":") for a in legal) >= 3)
    page, errors = large_text_page(new_context(PHONE), table)
    page.wait_for_selector(f"{TABLE}[data-my-turn=true]")
    check_nothing_cut(page, "the turn")
    check_on_screen(page, "#hand [data-tile]")
    check_on_screen(page, "#btn-pass")

    page.click(f"#hand [data-tile='{tile}']")
    assert page.locator("[data-end]").count() >= 3
    check_on_screen(page, "[data-end]")  # the lit places of the cross
    check_nothing_cut(page, "the lit places")
    shot(page, "phone-large-text-lit")
    version = page.get_attribute(TABLE, "data-version")
    page.click("[data-end=up]")
    page.wait_for_function(MOVED, arg=version)
    deal = table.match.deal_index

    while True:  # the rest of the hand
        page.wait_for_function(TURN_OR_SUMMARY)
        if page.locator("[data-testid=hand-summary]").count():
            break
        play_a_turn(page, table)
    assert table.match.deal_index == deal + 1 and len(table.moves) > 1, table.moves
    summary = page.locator("[data-testid=hand-summary]")
    check_nothing_cut(page, "the hand's summary")
    shot(page, "phone-large-text-summary")
    check_on_screen(page, "[data-testid=hand-summary] button:has-text('Continuar')")
    summary.get_by_role("button", name="Continuar").click()
    summary.wait_for(state="detached")
    page.click("#btn-log")  # the side panel: the score, the moves, the settings
    page.wait_for_selector("#side.open")
    # It slides up for a quarter of a second: looked at before it is up, its lower controls
    # are still below the screen.
    page.wait_for_function(
        "() => getComputedStyle(document.querySelector('#side')).transform === 'none'")
    check_nothing_cut(page, "the side panel")
    for control in ("#side-close", "#fala", "#esperar", "#mais-tempo", "#btn-review"):
        check_on_screen(page, control)
    shot(page, "phone-large-text-side")
    page.click("#side-close")
    page.keyboard.press("?")  # the keys' help
    page.wait_for_selector("#keys-dialog[open]")
    check_nothing_cut(page, "the keys' help")
    check_on_screen(page, "#keys-close")
    page.click("#keys-close")
    assert not errors, errors


def test_the_end_of_a_match_at_the_largest_text_size(new_context: Any) -> None:
    """The end of the match (a whole one streamed as the server would send it): the result, the
    hands and the buttons after it."""
    table = Script("duplas-pontos", "g1", options={"target": 100}, seed=SEED, autoplay=True)
    stream = [table.state(), *table.others()]
    assert table.match.is_over
    page, errors = large_text_page(new_context(PHONE), table, stream)
    page.wait_for_selector("#end-dialog[open]")
    check_nothing_cut(page, "the end of the match")
    check_on_screen(page, "#end-dialog button, #end-dialog a[href]")
    shot(page, "phone-large-text-end")
    assert not errors, errors
