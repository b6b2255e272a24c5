"""The replay viewer (replay.html) and the browser's rules engine behind it (js/engine.js,
js/record.js): positions rebuilt from a record exactly as the server's engine plays them, every
hand face up, the points and their reasons, the end of each hand, keyboard and buttons, and the
expert's review — pending, then each `erro` marked with the better move."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from tests.support.a11y import SMALL_CONTROLS, check_contrast, check_names
from tests.support.browser import DESKTOP, PHONE, shot, watch
from tests.support.engine_cases import hand_outcome
from tests.support.webmatches import engine_record, finished_match, five_doubles_deal

from carroca.rules import Match

APP = "[data-testid=replay]"

REBUILD = """async (records) => {
  const { rebuild } = await import('/js/record.js');
  const { Game } = await import('/js/engine.js');
  const { actionText } = await import('/js/record.js');
  return records.map((rec) => {
    const r = rebuild(rec);
    // the legal actions before every action, for the first hand
    const g = new Game(rec.ruleset, rec.options);
    const h = rec.hands[0];
    g.deal([...h.dealt.flat(), ...h.boneyard]);
    const legal = [];
    for (const a of h.actions) {
      legal.push(g.legal());
      g.apply(actionText(a), a.seat);
    }
    return {
      problems: r.problems,
      result: r.engineResult,
      legal,
      hands: r.hands.map((hand) => ({
        end: hand.end, score: hand.score, events: hand.events,
        positions: hand.positions.length, left: hand.handsLeft,
      })),
    };
  });
}"""


def python_view(m: Match) -> list[dict[str, Any]]:
    return [{**hand_outcome(log), "positions": len(log.steps) + 1} for log in m.history]


def test_browser_engine_replays_records_like_the_server(page: Any) -> None:
    """Every ruleset, random legal play, with five carroças and abandonment: the same ends,
    scores, points and reasons, hands left and legal moves as the Python engine."""
    cases: list[tuple[dict[str, Any], Match]] = []
    for k, ruleset in enumerate(["duplas-pontos", "duplas-torneio", "mano-a-mano", "classico",
                                 "bloqueio", "pontos"]):
        for j in range(4):
            cases.append(engine_record(ruleset, 100 * k + j))
    cases.append(engine_record("duplas-pontos", 7, abandon=True))
    cases.append(engine_record("mano-a-mano", 8, abandon=True))
    for seed in (3, 4, 5, 6):
        cases.append(engine_record("duplas-pontos", seed, first_deal=five_doubles_deal()))
    choices = {a.get("choice") for rec, _ in cases for a in rec["hands"][0]["actions"]}
    assert {"points", "redeal"} <= choices
    assert sum(m.result is not None and m.result.reason == "abandon" for _, m in cases) == 2
    page.goto("/")
    got = page.evaluate(REBUILD, [rec for rec, _ in cases])
    for (rec, m), r in zip(cases, got, strict=True):
        assert r["problems"] == [], (rec["ruleset"], r["problems"])
        assert r["hands"] == python_view(m), rec["ruleset"]
        res = m.result
        assert res is not None
        assert r["result"] == {"winner": res.winner, "score": list(res.score),
                               "reason": res.reason, "pneu": res.pneu}
        replay = Match(m.ruleset, m.options)
        first = m.history[0]
        replay.deal([t for hand in first.dealt for t in hand] + list(first.boneyard))
        for step, legal in zip(first.steps, r["legal"], strict=True):
            assert legal == [str(a) for a in replay.legal_actions()]
            replay.apply(step.action, step.seat, auto=step.auto)


def fetch(server: str, path: str) -> tuple[int, Any]:
    with urllib.request.urlopen(server + path, timeout=30) as r:
        return r.status, json.load(r)


def position(page: Any) -> tuple[int, int]:
    return (int(page.get_attribute(APP, "data-hand") or -1),
            int(page.get_attribute(APP, "data-step") or -1))


def test_replay_of_a_finished_match(new_context: Any, server: str) -> None:
    """Bots-only duplas-pontos to 100: step through it with the keyboard and the buttons, every
    hand face up, the end of each hand with its points, and the expert's review once ready."""
    match_id = finished_match(server, "duplas-pontos", {"target": 100}, ("greedy",))
    _, rec = fetch(server, f"/api/matches/{match_id}/record")
    page = new_context(PHONE).new_page()
    errors = watch(page)
    page.goto(f"/replay.html?id={match_id}")
    page.wait_for_selector(f"{APP}[data-status=ready]")
    assert page.get_attribute(APP, "data-verified") == "true"
    assert page.locator("[data-testid=problems]").is_hidden()
    assert position(page) == (0, 0)
    rows = page.locator("#hands .hand-row")
    assert rows.count() == 4
    dealt = rec["hands"][0]["dealt"]
    for seat in range(4):
        tiles = rows.nth(seat).locator("[data-piece]").evaluate_all(
            "els => els.map(e => e.dataset.piece)")
        assert sorted(tiles) == sorted(dealt[seat])
    assert page.locator(".board-svg .tile").count() == 0

    # The deal is the server's: the first seat may have no double to open duplas-pontos with,
    # and then its first action is a pass (no tile on the table, seven left in hand).
    first = rec["hands"][0]["actions"][0]
    played = first["type"] == "play"
    page.keyboard.press("ArrowRight")
    assert position(page) == (0, 1)
    assert page.locator(".board-svg .tile").count() == (1 if played else 0)
    assert rows.nth(first["seat"]).get_attribute("data-count") == ("6" if played else "7")
    if played:  # said as at the live table: "Zé saiu com a carroça de sena"
        a, b = first["tile"].split("-")
        names = ["branca", "ás", "duque", "terno", "quadra", "quina", "sena"]
        said = f"carroça de {names[int(a)]}" if a == b else f"pedra {a} e {b}"
        assert said in page.inner_text("[data-testid=narration]")
    page.click("#btn-next")
    page.click("#btn-next")
    assert position(page) == (0, 3)
    page.click("#btn-prev")
    assert position(page) == (0, 2)
    plays = sum(a["type"] == "play" for a in rec["hands"][0]["actions"][:2])
    assert page.locator(".board-svg .tile").count() == plays
    shot(page, "phone-replay")

    # the end of every hand: its title, the points and the score of the record
    for h, hand in enumerate(rec["hands"]):
        page.select_option("#hand-select", str(h))
        assert position(page) == (h, 0)
        page.keyboard.press("End")
        assert position(page) == (h, len(hand["actions"]))
        box = page.locator("[data-testid=hand-end]")
        assert box.is_visible()
        score = hand["score"]
        assert f"{score[0]} × {score[1]}" in box.inner_text()
        assert page.inner_text("#score-0") == str(score[0])
        word = {"batida": "bateu", "fechado": "fechado", "redeal": "Embaralhando",
                "abandon": "abandonou"}[hand["end"]["kind"]]
        assert word in box.locator("h2").inner_text()
    result = rec["result"]
    assert f"{result['score'][0]} × {result['score'][1]}" in page.inner_text("[data-testid=result]")
    page.locator("[data-testid=hand-end]").scroll_into_view_if_needed()
    shot(page, "phone-replay-end")
    check_names(page, "replay")
    check_contrast(page, "replay")
    small = page.evaluate(SMALL_CONTROLS)
    assert not small, small
    page.keyboard.press("Home")
    assert position(page)[1] == 0
    page.click("#timeline [data-pos='3']")
    assert position(page)[1] == 3

    # the expert's review: the server computes it on request (202 until it is ready)
    page.wait_for_selector(f"{APP}[data-analysis=ready]", timeout=90_000)
    status, review = fetch(server, f"/api/matches/{match_id}/analysis")
    assert status == 200 and review["format"] == "carroca-analysis/1"
    mistakes = [(h, d) for h, hand in enumerate(review["hands"]) for d in hand["decisions"]
                if d["mistake"]]
    listed = page.locator("#analysis .mistake-jump")
    assert listed.count() == len(mistakes)
    if mistakes:
        h, d = mistakes[0]
        listed.first.click()
        assert position(page) == (h, d["index"] + 1)
        assert page.locator("[data-testid=mistake-note]").is_visible()
        assert page.locator(f"#timeline li.mistake[data-index='{d['index']}']").count() == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert not errors, errors


def fake_review(rec: dict[str, Any]) -> dict[str, Any]:
    """A review that flags the second action of the first hand as an `erro`."""
    n = len(rec["players"])
    hands = []
    for h, hand in enumerate(rec["hands"]):
        decisions = []
        if h == 0:
            a = hand["actions"][1]
            played = f"{a['tile']}:{a['end']}" if a["type"] == "play" else a["type"]
            decisions.append({
                "index": 1, "seat": a["seat"], "played": played, "best": "0-0:left",
                "loss": 12.5, "mistake": True, "worlds": 128,
                "options": [{"action": "0-0:left", "value": 10.0},
                            {"action": played, "value": -2.5}],
            })
        hands.append({"deal_index": hand["deal_index"], "forced": [0] * n, "auto": [0] * n,
                      "decisions": decisions})
    per = [{"decisions": 0, "mistakes": 0, "points_lost": 0.0, "forced": 0, "auto": 0}
           for _ in range(n)]
    per[rec["hands"][0]["actions"][1]["seat"]].update(decisions=1, mistakes=1, points_lost=12.5)
    return {"format": "carroca-analysis/1", "ruleset": rec["ruleset"], "players": rec["players"],
            "settings": {"threshold": 5.0, "worlds": 128, "think_ms": 0, "seed": 0},
            "hands": hands, "summary": {"per_seat": per}}


def test_review_pending_then_marked_and_a_record_that_disagrees(
    new_context: Any, server: str
) -> None:
    """The review answers 202 twice (the page says it is in progress and asks again), then the
    flagged decision is marked with the better move; a record whose score was altered is shown
    with the disagreement named."""
    match_id = finished_match(server, "mano-a-mano")
    _, rec = fetch(server, f"/api/matches/{match_id}/record")
    calls: list[int] = []

    def review(route: Any) -> None:
        calls.append(1)
        if len(calls) <= 2:
            route.fulfill(status=202, content_type="application/json",
                          body=json.dumps({"status": "pending"}))
        else:
            route.fulfill(status=200, content_type="application/json",
                          body=json.dumps(fake_review(rec)))

    page = new_context(DESKTOP).new_page()
    errors = watch(page)
    page.route(f"**/api/matches/{match_id}/analysis", review)
    page.goto(f"/replay.html?id={match_id}&mao=1&jogada=2")
    page.wait_for_selector(f"{APP}[data-status=ready]")
    assert position(page) == (0, 2)
    page.wait_for_selector(f"{APP}[data-analysis=pending]")
    assert "O bot Mestre está revendo" in page.inner_text("#analysis")  # the expert's name
    page.wait_for_selector(f"{APP}[data-analysis=ready]")
    assert len(calls) == 3
    assert "avaliada pelo bot Mestre" in page.inner_text("#analysis")
    flagged = page.locator("#timeline li.mistake")
    assert flagged.count() == 1 and flagged.get_attribute("data-index") == "1"
    assert "erro" in flagged.inner_text().lower()
    assert "0-0 na esquerda" in flagged.inner_text() and "12,5" in flagged.inner_text()
    note = page.locator("[data-testid=mistake-note]")
    assert note.is_visible() and "0-0 na esquerda" in note.inner_text()
    assert page.locator("#analysis .analysis-table tbody tr").count() == 2
    shot(page, "desktop-replay")
    assert page.evaluate("document.documentElement.scrollWidth") <= DESKTOP["width"]

    altered = json.loads(json.dumps(rec))
    altered["hands"][0]["score"] = [s + 5 for s in altered["hands"][0]["score"]]
    page.route(f"**/api/matches/{match_id}/record",
               lambda route: route.fulfill(status=200, content_type="application/json",
                                           body=json.dumps(altered)))
    page.goto(f"/replay.html?id={match_id}")
    page.wait_for_selector(f"{APP}[data-status=ready]")
    assert page.get_attribute(APP, "data-verified") == "false"
    problems = page.locator("[data-testid=problems]")
    assert problems.is_visible()
    assert "Mão 1" in problems.inner_text() and "Placar" in problems.inner_text()
    assert not errors, errors
