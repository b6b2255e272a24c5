"""The table layout (web/js/layout.js) on many real hands: no two tiles overlap, at phone and
desktop sizes, for the line (snake) and for the spinner's cross."""

from __future__ import annotations

import random
from typing import Any

from carroca import fair
from carroca.rules import Match, get_ruleset

OVERLAPS = """async ({hands, sizes}) => {
  const { layoutTable, reachFor, viewFor } = await import('/js/layout.js');
  const bad = [];
  let tiles = 0;
  for (const { plays, spinner } of hands) {
    for (const [w, h] of sizes) {
      const { tiles: placed } = layoutTable(plays, { spinner, ...reachFor(w, h) });
      tiles += placed.length;
      const rect = (t) => t.horizontal
        ? [t.x - 1, t.y - 0.5, t.x + 1, t.y + 0.5] : [t.x - 0.5, t.y - 1, t.x + 0.5, t.y + 1];
      for (let i = 0; i < placed.length; i++) {
        for (let j = i + 1; j < placed.length; j++) {
          const a = rect(placed[i]);
          const b = rect(placed[j]);
          const ox = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
          const oy = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
          if (ox > 0.01 && oy > 0.01) bad.push([w, h, placed[i].tile, placed[j].tile]);
        }
      }
      const v = viewFor(placed, w, h);
      for (const t of placed) {
        const [x0, y0, x1, y1] = rect(t);
        if (x0 < v.x || y0 < v.y || x1 > v.x + v.width || y1 > v.y + v.height) {
          bad.push(['outside', w, h, t.tile]);
        }
      }
      if (placed.length !== plays.length) bad.push(['count', plays.length, placed.length]);
    }
  }
  return { bad, tiles };
}"""


def random_hands(ruleset: str, matches: int, seed: int) -> list[dict[str, Any]]:
    """The plays of every hand of `matches` matches where each seat plays a random legal move."""
    rng = random.Random(seed)
    hands = []
    for k in range(matches):
        m = Match(get_ruleset(ruleset))
        label = f"layout-{seed}-{k}"
        while not m.is_over:
            if m.needs_deal:
                if m.deal_index > 0:
                    hands.append(m.history[-1])
                m.deal(fair.shuffle("22" * 32, label, m.deal_index))
                continue
            m.apply(rng.choice(m.legal_actions()))
        hands.append(m.history[-1])
    out = []
    for log in hands:
        plays = []
        for step in log.steps:
            if step.action.kind == "play":
                play: dict[str, Any] = {"tile": step.action.tile_name, "seat": step.seat}
                if step.action.end_name:
                    play["end"] = step.action.end_name
                plays.append(play)
        out.append({"plays": plays, "spinner": ruleset == "duplas-pontos"})
    return out


def test_no_two_tiles_overlap(page: Any) -> None:
    hands = (random_hands("duplas-pontos", 12, 1) + random_hands("mano-a-mano", 8, 2)
             + random_hands("pontos", 8, 3) + random_hands("bloqueio", 6, 4))
    page.goto("/")
    sizes = [[370, 470], [366, 300], [760, 420], [1000, 560]]
    result = page.evaluate(OVERLAPS, {"hands": hands, "sizes": sizes})
    assert result["tiles"] > 1000
    assert not result["bad"], result["bad"][:10]
