"""The verifiable shuffle in the browser (js/fair.js) and the fairness page (justo.html).

The page recomputes with Web Crypto the commitment and every deal of a finished match and says,
deal by deal, "Confere" or "Não confere"; a record altered on its way to the browser (Playwright
route interception) is reported as not matching."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

from tests.support.a11y import SMALL_CONTROLS, check_contrast, check_names
from tests.support.browser import DESKTOP, PHONE, shot, watch
from tests.support.webmatches import finished_match

from carroca import fair

# record.md's test vector: server_seed = 32 zero bytes, client_seed = "test".
VECTOR_SEED = "00" * 32
VECTOR_COMMITMENT = "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
VECTOR_DEALS = [
    "2-3 0-4 0-2 2-6 0-1 1-5 0-0 2-5 1-3 4-6 2-4 1-6 2-2 3-3 5-5 5-6 0-3 3-4 6-6 1-1 0-6 "
    "3-6 3-5 0-5 1-4 4-5 1-2 4-4",
    "3-6 2-2 4-5 6-6 1-1 1-2 2-6 1-5 3-3 0-4 3-5 1-6 0-6 1-3 4-6 0-3 2-3 2-4 0-5 0-0 5-5 "
    "4-4 2-5 3-4 1-4 0-1 5-6 0-2",
]
VERDICT = "#verdict"

SHUFFLES = """async (cases) => {
  const f = await import('/js/fair.js');
  const out = [];
  for (const [seed, client, d] of cases) {
    out.push({
      web: (await f.shuffle(seed, client, d)).join(' '),
      js: (await f.shuffle(seed, client, d, { js: true })).join(' '),
      commitment: await f.commitmentOf(seed),
      sha: f.bytesToHex(f.sha256js(f.hexToBytes(seed))),
    });
  }
  return { out, check: await f.selfCheck(), hashing: f.hashing() };
}"""


def record_of(server: str, match_id: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{server}/api/matches/{match_id}/record", timeout=30) as r:
        data: dict[str, Any] = json.load(r)
    return data


def test_browser_shuffle_is_the_spec(page: Any) -> None:
    """The test vector pinned, and random seeds against carroca.fair, with Web Crypto and
    with the page's own SHA-256."""
    assert fair.commitment(VECTOR_SEED) == VECTOR_COMMITMENT
    assert [" ".join(fair.deal_names(VECTOR_SEED, "test", d)) for d in (0, 1)] == VECTOR_DEALS
    cases: list[tuple[str, str, int]] = [(VECTOR_SEED, "test", 0), (VECTOR_SEED, "test", 1)]
    cases += [(f"{k:02x}" * 32, f"a{k}:b{k}:ção", k % 5) for k in range(1, 13)]
    page.goto("/justo.html")
    result = page.evaluate(SHUFFLES, cases)
    assert result["hashing"] == "webcrypto"
    assert result["check"]["ok"], result["check"]
    for (seed, client, d), got in zip(cases, result["out"], strict=True):
        want = " ".join(fair.deal_names(seed, client, d))
        assert got["web"] == want and got["js"] == want, (seed, client, d)
        assert got["commitment"] == got["sha"] == fair.commitment(seed)
    assert result["out"][0]["web"] == VECTOR_DEALS[0]
    assert result["out"][1]["web"] == VECTOR_DEALS[1]
    assert result["out"][0]["commitment"] == VECTOR_COMMITMENT


def test_fairness_page_confirms_every_deal(new_context: Any, server: str) -> None:
    """A finished 1v1 match with a boneyard: the commitment, every dealt hand and the boneyard
    order all match; phone and desktop."""
    match_id = finished_match(server, "mano-a-mano")
    hands = len(record_of(server, match_id)["hands"])
    for size, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        page = new_context(size).new_page()
        errors = watch(page)
        page.goto(f"/justo.html?id={match_id}")
        page.wait_for_selector(f"{VERDICT}[data-state=ok]")
        assert "Tudo confere" in page.inner_text(VERDICT)
        assert page.get_attribute("[data-testid=selfcheck]", "data-ok") == "true"
        deals = page.locator("[data-testid=deal]")
        assert deals.count() == hands
        assert deals.locator(".pill-bad").count() == 0
        for i in range(hands):
            assert page.get_attribute(f"[data-testid=deal][data-hand='{i}']", "data-ok") == "true"
        # every deal: two hands and the boneyard, in draw order
        assert page.locator("[data-testid=deal] .deal-seat[data-boneyard=true]").count() == hands
        assert "Confere com o compromisso" in page.inner_text("[data-testid=commitment-check]")
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        check_names(page, f"fairness {name}")
        check_contrast(page, f"fairness {name}")
        small = page.evaluate(SMALL_CONTROLS)
        assert not small, small
        shot(page, f"{name}-fairness", full_page=name == "desktop")
        assert not errors, errors


def open_refused(page: Any, match_id: str, record: dict[str, Any]) -> None:
    """The fairness page of `match_id` with the server's record swapped for `record`, once it
    has said the record does not check out."""
    url = f"**/api/matches/{match_id}/record"
    page.unroute(url)  # the record another call served
    page.route(url, lambda route: route.fulfill(status=200, content_type="application/json",
                                                body=json.dumps(record)))
    page.goto(f"/justo.html?id={match_id}")
    page.wait_for_selector(f"{VERDICT}[data-state=bad]")


def test_tampered_record_does_not_match(new_context: Any, server: str) -> None:
    """Two tiles swapped between hands in the first deal, and a seed that is not the committed
    one: each is reported as "Não confere", with the details."""
    match_id = finished_match(server, "duplas-pontos", {"target": 100}, ("greedy",))
    original = record_of(server, match_id)
    swapped = json.loads(json.dumps(original))
    hand0 = swapped["hands"][0]["dealt"]
    hand0[0][0], hand0[1][0] = hand0[1][0], hand0[0][0]
    moved = hand0[1][0]  # seat 0's tile, now claimed for seat 1

    page = new_context(PHONE).new_page()
    errors = watch(page)
    open_refused(page, match_id, swapped)
    assert "Não confere" in page.inner_text(VERDICT)
    first = page.locator("[data-testid=deal][data-hand='0']")
    assert first.get_attribute("data-ok") == "false"
    assert first.locator("details[open]").count() == 1
    wrong = first.locator(".deal-seat.wrong")
    assert wrong.count() == 2
    assert moved in wrong.nth(1).inner_text()  # "Sobram …" names the tile that is not seat 1's
    for i in range(1, len(original["hands"])):
        assert page.get_attribute(f"[data-testid=deal][data-hand='{i}']", "data-ok") == "true"
    assert "Confere com o compromisso" in page.inner_text("[data-testid=commitment-check]")
    first.scroll_into_view_if_needed()
    shot(page, "phone-fairness-tampered")

    reseeded = json.loads(json.dumps(original))
    reseeded["fairness"]["server_seed"] = "ab" * 32
    open_refused(page, match_id, reseeded)
    assert "não corresponde ao compromisso" in page.inner_text(VERDICT)
    assert "Não confere com o compromisso" in page.inner_text("[data-testid=commitment-check]")
    assert page.locator("[data-testid=deal][data-ok=true]").count() == 0
    assert not errors, errors
