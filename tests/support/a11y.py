"""Accessibility checks of a page: every control named in Portuguese, main texts at 4.5:1
contrast at least, and the script that lists controls smaller than a fingertip."""

from __future__ import annotations

import re
from typing import Any

# The accessible name of every control on the page (a simplified accname: aria-labelledby,
# aria-label, the <label>s of a field, the text, the title).
NAMES = """() => {
  const visible = (el) => {
    if (el.closest('[hidden], [aria-hidden=true], dialog:not([open])')) return false;
    const s = getComputedStyle(el);
    return s.display !== 'none' && s.visibility !== 'hidden';
  };
  const nameOf = (el) => {
    const by = el.getAttribute('aria-labelledby');
    if (by) return by.split(/\\s+/).map((id) => document.getElementById(id)?.textContent || '')
      .join(' ').trim();
    const label = el.getAttribute('aria-label');
    if (label) return label.trim();
    if (el.labels && el.labels.length) {
      return [...el.labels].map((l) => l.textContent).join(' ').trim();
    }
    const text = (el.textContent || '').replace(/\\s+/g, ' ').trim();
    return text || (el.getAttribute('title') || '').trim();
  };
  const sel = 'button, a[href], input, select, textarea, [role=button], [role=tab], [data-tile]';
  return [...document.querySelectorAll(sel)].filter(visible).map((el) => ({
    tag: el.tagName.toLowerCase(), id: el.id, name: nameOf(el),
  }));
}"""


# Contrast ratio (WCAG 2) of each visible text against the colours behind it, translucent
# layers composed over the first opaque one.
CONTRAST = """(selectors) => {
  const parse = (c) => {
    const m = c.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return [0, 0, 0, 0];
    const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, under) => {
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat([1]);
  };
  const lum = (c) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const background = (el) => {
    const layers = [];
    for (let n = el; n; n = n.parentElement) {
      const c = parse(getComputedStyle(n).backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] >= 1) break;
    }
    let bg = [255, 255, 255, 1];
    for (const layer of layers.reverse()) bg = over(layer, bg);
    return bg;
  };
  const out = [];
  for (const sel of selectors) {
    for (const el of document.querySelectorAll(sel)) {
      if (el.closest('[hidden], [aria-disabled=true], dialog:not([open])')) continue;
      const s = getComputedStyle(el);
      if (s.display === 'none' || s.visibility === 'hidden' || !el.textContent.trim()) continue;
      if (el.getClientRects().length === 0) continue;
      const bg = background(el);
      const fg = over(parse(s.color), bg);
      const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
      out.push({ sel, text: el.textContent.trim().slice(0, 40), ratio: (a + 0.05) / (b + 0.05) });
    }
  }
  return out;
}"""


MAIN_TEXTS = [
    "h1", "h2", "h3", "p", "label", "legend", ".btn", ".seg", ".tab", ".rs-name", ".rs-desc",
    ".score-label", ".score-value", ".clock-text", ".turn-msg", ".seat-name", ".seat-count",
    ".chip", ".log-entry", ".log-title", ".match-facts", ".table-text strong", ".who-name",
    ".help", ".badge", ".revealed-name", ".end-score", "#end-title", ".muted",
]


# Visible controls smaller than a 44 px touch target.
SMALL_CONTROLS = """() => [...document.querySelectorAll(
    'button, a.btn, select, input:not([type=checkbox]):not([type=radio]), [data-tile]')]
  .filter((el) => el.getClientRects().length
    && !el.closest('[hidden], dialog:not([open]), .side:not(.open)'))
  .map((el) => {
    const r = el.getBoundingClientRect();
    return { id: el.id || el.dataset.tile || el.textContent.trim().slice(0, 20),
             w: r.width, h: r.height };
  })
  .filter((r) => r.w < 43.5 || r.h < 43.5)"""


ENGLISH = re.compile(
    r"^(button|submit|ok|close|menu|play|pass|draw|send|cancel|back|next|log ?in|sign ?in)$",
    re.IGNORECASE,
)


def check_names(page: Any, where: str) -> None:
    controls = page.evaluate(NAMES)
    assert controls, where
    for c in controls:
        name = c["name"]
        assert name and re.search(r"[A-Za-zÀ-ÿ]", name), f"{where}: no name for {c}"
        assert not ENGLISH.match(name), f"{where}: English name {c}"


# CSS transitions still running (a button fading in as it turns usable): settled first, so that
# the contrast measured is the one a player reads, not a frame halfway through the fade.
SETTLED = """() => Promise.all(document.getAnimations()
  .filter((a) => a instanceof CSSTransition).map((a) => a.finished.catch(() => null)))"""


def check_contrast(page: Any, where: str) -> None:
    page.evaluate(SETTLED)
    low = [r for r in page.evaluate(CONTRAST, MAIN_TEXTS) if r["ratio"] < 4.5]
    assert not low, f"{where}: text below 4.5:1: {low[:8]}"
