"""The table, second pass: a spectator's board on a desktop, announcements on time and off the
count, friends' tables that wait for friends, a readable end of a hand, names that stay whole,
notices that do not linger, a moment of victory at the end of a match, and a table link opened
signed out without an error in the console.

Most tests answer the page's WebSocket themselves (tests/web/test_table_feel.Script: the rules
engine on a scripted deal, frames pushed when the test wants them).
"""

from __future__ import annotations

import re
from typing import Any

from tests.support.browser import DESKTOP, PHONE, shot, unique_name, watch
from tests.support.table_script import RECT, Script, from_last_deal, overlap, rect, wait_version
from tests.support.webplay import TABLE, create_friends_table, phone_lobby_as_guest

PEOPLE = [{"name": name, "bot": False, "connected": True}
          for name in ("Ana", "Bia", "Caio", "Davi")]


# ---------------------------------------------------------------------- 1. a spectator's board


TILES_LAID = """() => [...document.querySelectorAll('.board-svg .tile')].every((el) => {
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0;
})"""


def test_a_spectator_sees_the_board_on_a_desktop_and_a_phone(new_context: Any) -> None:
    """A spectator (no seat) of a 2v2 and of a 1v1: the board takes most of the table, the
    bottom seat's tile backs are as small as the others', every tile on the table is drawn at a
    readable size."""
    for ruleset, n in (("duplas-pontos", 4), ("mano-a-mano", 2)):
        for size, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
            script = Script(ruleset, "plateia", viewer=None, players=PEOPLE[:n])
            stream = [script.state(), *script.others(until=lambda m: len(m.steps) >= 5)]
            page, errors = script.open_page(new_context(size), stream)
            wait_version(page, script.version)
            assert page.get_attribute("[data-testid=table]", "data-seat") == ""
            board = rect(page, ".board-wrap")
            assert board[3] - board[1] > 0.4 * size["height"], (ruleset, name, board)
            backs = page.locator(".seat .backs .tile-svg")
            assert backs.count() > 0
            for box in backs.evaluate_all(f"els => els.map({RECT})"):
                assert max(box[2] - box[0], box[3] - box[1]) <= 40, (ruleset, name, box)
            plays = len(script.state()["view"]["table"])
            tiles = page.locator(".board-svg .tile")
            assert tiles.count() == plays
            # The board may be drawn again just after a state (fitted to its box): every tile is
            # measured once all are laid out (a tile between two drawings measures 0 × 0).
            page.wait_for_function(TILES_LAID)
            for box in tiles.evaluate_all(f"els => els.map({RECT})"):
                assert min(box[2] - box[0], box[3] - box[1]) >= 18, (ruleset, name, box)
            me = rect(page, "#me-area")
            assert me[3] - me[1] < 0.25 * size["height"], (ruleset, name, me)
            shot(page, f"{name}-spectator-{ruleset}")
            assert not errors, errors
            page.close()


# ---------------------------------------------------------------------- 2. banners on time

# Every banner shown, with what else changed in the same batch of DOM changes: a banner put up
# for a state comes in the same task as the state itself (data-version), never later from a
# queue; and whether the hand's summary or the end dialog was open then.
WATCH_BANNERS = """() => {
  const table = document.querySelector('[data-testid=table]');
  const host = document.getElementById('banner-host');
  window.seen = { banners: [], summaryAt: null, summaryVersion: null };
  new MutationObserver((records) => {
    const moved = records.some((r) => r.type === 'attributes' && r.target === table
      && r.attributeName === 'data-version');
    const summary = document.querySelector('[data-testid=hand-summary]');
    if (summary && window.seen.summaryAt === null) {
      window.seen.summaryAt = window.seen.banners.length;
      window.seen.summaryVersion = table.dataset.version;
      const head = summary.querySelector('[data-testid=hand-decisive]');
      window.seen.decisive = head ? head.innerText : null;
    }
    for (const r of records) {
      if (r.type !== 'childList' || r.target !== host) continue;
      for (const el of r.addedNodes) {
        window.seen.banners.push({
          text: el.innerText, onTime: moved, version: table.dataset.version,
          summary: Boolean(document.querySelector('[data-testid=hand-summary]')),
          end: document.getElementById('end-dialog').open,
        });
      }
    }
  }).observe(document.getElementById('app'), {
    attributes: true, attributeFilter: ['data-version'], childList: true, subtree: true });
}"""


def hand_to_its_end(script: Script, pause_ms: int = 5000) -> list[dict[str, Any]]:
    """Every state of the current hand, each seat playing its first legal action; the last one
    ends the hand, with the pause between hands on."""
    deal = script.match.deal_index
    stream = []
    while script.match.deal_index == deal and not script.match.is_over:
        script.apply(str(script.match.legal_actions()[0]))
        stream.append(script.state())
    if not script.match.is_over:
        script.pause = {"seconds": pause_ms / 1000, "remaining_ms": pause_ms}
        stream[-1] = script.state()
    return stream


def test_banners_come_when_it_happens_and_the_summary_says_who_won(new_context: Any) -> None:
    """A whole hand of duplas-pontos streamed at full speed: each banner shows in the same
    moment as the state that brought it (no queue running late), none shows behind the hand's
    summary, and the summary opens with what decided the hand."""
    for size, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        script = Script("duplas-pontos", "na-hora", viewer=0, autoplay=True)
        start = script.state()
        stream = hand_to_its_end(script)
        last = script.match.history[-1]
        page, errors = script.open_page(new_context(size), [start])
        wait_version(page, start["version"])
        page.evaluate(WATCH_BANNERS)
        for state in stream:
            script.push("state", state)
        page.locator("[data-testid=hand-summary]").wait_for()
        # long enough for a queue of late banners to show: the countdown went from 5 s to 3 s
        page.wait_for_function("""() => /em [0-3] s|começando/.test(
            document.querySelector('[data-testid=next-hand]').innerText)""", timeout=10_000)
        seen = page.evaluate("window.seen")
        banners = seen["banners"]
        assert banners, "no banner in a whole hand"
        assert all(b["onTime"] for b in banners), banners
        assert not any(b["summary"] for b in banners), banners
        assert seen["summaryVersion"] == str(stream[-1]["version"]), seen
        decisive = seen["decisive"] or ""
        assert ("bateu" in decisive) if last.end.kind == "batida" else ("fechado" in decisive), (
            decisive)
        assert page.locator("#banner-host [data-testid=banner]").count() == 0
        shot(page, f"{name}-hand-decisive")
        assert not errors, errors
        page.close()


# ---------------------------------------------------------------------- 3. the count in view

# At every state and every banner: the banner's box against the table's chips, and the ends
# the "Pontas" chip lists against the "Mesa" count beside it.
WATCH_CHIPS = """() => {
  const table = document.querySelector('[data-testid=table]');
  const host = document.getElementById('banner-host');
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  };
  const overlap = (a, b) => Math.min(a[2], b[2]) - Math.max(a[0], b[0]) > 0.5
    && Math.min(a[3], b[3]) - Math.max(a[1], b[1]) > 0.5;
  window.chips = { banners: 0, covered: [], counts: [] };
  new MutationObserver(() => {
    const chips = [...document.querySelectorAll('#table-info .chip')];
    const text = (word) => chips.map((c) => c.innerText).find((t) => t.startsWith(word));
    const mesa = text('Mesa');
    const pontas = text('Pontas');
    if (mesa && pontas) {
      const sum = (pontas.match(/\\d+/g) || []).reduce((a, n) => a + Number(n), 0);
      window.chips.counts.push({ version: table.dataset.version, mesa, pontas,
                                 ok: Number(mesa.match(/\\d+/)[0]) === sum });
    }
    const shown = host.querySelector('[data-testid=banner]');
    if (!shown) return;
    window.chips.banners += 1;
    for (const chip of chips) {
      if (overlap(box(shown), box(chip))) {
        window.chips.covered.push([shown.innerText, chip.innerText]);
      }
    }
  }).observe(document.getElementById('app'), {
    attributes: true, attributeFilter: ['data-version'], childList: true, subtree: true });
}"""


def test_banners_leave_the_count_in_view_and_pontas_add_up_to_the_mesa(
        new_context: Any) -> None:
    """A whole hand streamed in duplas-pontos (the spinner's cross) and in pontos (a line whose
    doubles count twice): no banner ever covers the "Mesa" and "Pontas" chips, and the ends
    that "Pontas" lists add up to the "Mesa" count (the spinner's arms that have no tile yet do
    not count; a double at an end counts twice)."""
    for ruleset, size, label in (("duplas-pontos", PHONE, "conta"), ("duplas-pontos", DESKTOP,
                                 "conta"), ("pontos", PHONE, "conta-1")):
        script = Script(ruleset, label, viewer=0, autoplay=True)
        start = script.state()
        stream = hand_to_its_end(script)
        page, errors = script.open_page(new_context(size), [start])
        wait_version(page, start["version"])
        page.evaluate(WATCH_CHIPS)
        for state in stream[:-1]:  # the hand's last state ends it: its summary covers all
            script.push("state", state)
        wait_version(page, stream[-2]["version"])
        seen = page.evaluate("window.chips")
        assert seen["banners"] > 0, (ruleset, seen)
        assert not seen["covered"], (ruleset, seen["covered"])
        assert len(seen["counts"]) > 3, (ruleset, seen)
        assert all(c["ok"] for c in seen["counts"]), (ruleset, [c for c in seen["counts"]
                                                               if not c["ok"]])
        shot(page, f"{'phone' if size == PHONE else 'desktop'}-count-{ruleset}")
        assert not errors, errors
        page.close()


# ---------------------------------------------------------------------- 4. a friends' table


def test_a_friends_table_waits_for_friends_unless_a_bot_is_chosen(new_context: Any) -> None:
    """"Mesa com amigos" as it comes: every other seat is for a friend (1v1 and 2v2), so
    "Criar mesa" opens a table that waits with its invite link; a bot sits only where the host
    chose one."""
    page, errors = phone_lobby_as_guest(new_context, unique_name("Host"))
    for ruleset, seats in (("mano-a-mano", 1), ("duplas-pontos", 3)):
        page.select_option("#friends-ruleset", ruleset)
        for seat in range(1, seats + 1):
            assert page.input_value(f"#seat-{seat}") == "open", (ruleset, seat)
    page.select_option("#friends-ruleset", "mano-a-mano")
    page.click("#friends-form button[type=submit]")
    page.wait_for_url("**/mesa.html?id=*")
    page.wait_for_selector(f"{TABLE}[data-status=waiting]")
    assert "/?convite=" in page.locator("[data-testid=invite-link]").input_value()
    page.goto("/")
    create_friends_table(page, "mano-a-mano", ["bot:greedy"])
    page.wait_for_selector(f"{TABLE}[data-status=playing]")
    assert not errors, errors


# ---------------------------------------------------------------------- 5. the hand's summary

SUMMARY_READ = """() => {
  const card = document.querySelector('[data-testid=hand-summary]');
  const go = [...card.querySelectorAll('button')].find((b) => b.innerText.trim() === 'Continuar');
  const r = go.getBoundingClientRect();
  const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
  return {
    rows: [...card.querySelectorAll('.revealed-seat')].map((row) => ({
      seat: Number(row.dataset.seat), us: row.classList.contains('team-us'),
      name: row.querySelector('.revealed-name').innerText,
      sum: Number(row.querySelector('.revealed-sum').innerText) })),
    teams: [...card.querySelectorAll('[data-testid=team-points]')].map((b) => ({
      team: Number(b.dataset.team), label: b.querySelector('.team-points-name').innerText,
      total: Number(b.querySelector('.team-points-total').innerText.replace('+', '')),
      lines: [...b.querySelectorAll('li')].map((li) => li.innerText) })),
    continueShown: go.contains(hit) && r.top >= 0 && r.bottom <= innerHeight,
    fits: card.scrollHeight <= card.clientHeight + 1,
    handTiles: document.querySelectorAll('#hand [data-tile]').length,
    counts: Object.fromEntries([...document.querySelectorAll('.seat[data-seat]')].map((el) =>
      [el.dataset.seat, el.querySelector('.seat-count')?.innerText ?? ''])),
  };
}"""


def test_the_hand_summary_reads_by_team_fits_and_hides_the_next_deal(new_context: Any) -> None:
    """The summary of a 2v2 hand, seen from seat 1, during the pause: the viewer's hand, then
    the partner's, then the opponents'; the points in one block per team, "Nós" first, each
    with its total; the whole card and its "Continuar" in view on a 1366×768 desktop and on a
    phone; the next deal's tiles are nowhere to be seen until the pause is over."""
    for size, name in ((DESKTOP, "desktop"), (PHONE, "phone")):
        script = Script("duplas-pontos", "resumo", viewer=1, autoplay=True)
        start = script.state()
        stream = hand_to_its_end(script)
        last = script.match.history[-1]
        page, errors = script.open_page(new_context(size), [start])
        wait_version(page, start["version"])
        for state in stream:
            script.push("state", state)
        page.locator("[data-testid=hand-summary]").wait_for()
        seen = page.evaluate(SUMMARY_READ)
        assert [r["seat"] for r in seen["rows"]] == [1, 3, 2, 0], seen["rows"]
        assert [r["us"] for r in seen["rows"]] == [True, True, False, False], seen["rows"]
        assert seen["rows"][0]["name"] == "Você"
        left = stream[-1]["view"]["last_hand"]["hands_left"]
        for row in seen["rows"]:
            pips = sum(int(a) + int(b) for a, b in (t.split("-") for t in left[row["seat"]]))
            assert row["sum"] == pips, row
        assert [(t["team"], t["label"]) for t in seen["teams"]] == [(1, "Nós"), (0, "Eles")]
        for block in seen["teams"]:
            points = [e.points for e in last.events if e.team == block["team"]]
            assert block["total"] == sum(points), block
            assert bool(block["lines"]) == bool(points), block
        assert seen["continueShown"], (name, seen)
        assert seen["fits"], (name, seen)
        assert seen["handTiles"] == 0, seen  # the next deal waits for the next hand
        for seat in (0, 2, 3):
            n = len(left[seat])
            assert seen["counts"][str(seat)] == f"{n} {'pedra' if n == 1 else 'pedras'}", seen
        shot(page, f"{name}-hand-summary-2v2")
        # the pause is over: the summary goes, the next deal comes
        script.pause = None
        script.push("state", script.state())
        page.locator("[data-testid=hand-summary]").wait_for(state="detached")
        page.wait_for_function("() => document.querySelectorAll('#hand [data-tile]').length === 7")
        assert not errors, errors
        page.close()


# ---------------------------------------------------------------------- 6. names and colours

CUT = """(el) => {
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) return 'empty';
  if (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1) return 'cut';
  if (r.left < -0.5 || r.right > innerWidth + 0.5) return 'off screen';
  return 'ok';
}"""


def test_names_stay_whole_and_apart_from_the_score(new_context: Any) -> None:
    """A 1v1 between "João Pedro 44" and "Ana Beatriz Souza": the top bar's pills show both
    names whole on a phone and a desktop; the hand's summary and the end dialog never run a
    name's digits into the score ("João Pedro 44 0 × 51" reads as 440)."""
    players = [{"name": "João Pedro 44", "bot": False, "connected": True},
               {"name": "Ana Beatriz Souza", "bot": False, "connected": True}]
    for size, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        script = Script("mano-a-mano", "nomes", viewer=0, players=players, autoplay=True)
        start = script.state()
        first_hand = hand_to_its_end(script)
        page, errors = script.open_page(new_context(size), [start])
        wait_version(page, start["version"])
        for label in page.locator("#scores .score-label").all():
            assert label.evaluate(CUT) == "ok", (name, label.inner_text())
        assert page.locator("#scores").inner_text().count("João Pedro 44") == 1
        shot(page, f"{name}-names-score-pills")
        for state in first_hand:
            script.push("state", state)
        line = page.locator("[data-testid=hand-summary] [data-testid=summary-score]")
        text = line.inner_text()
        assert "João Pedro 44" in text and "Ana Beatriz Souza" in text, text
        assert not re.search(r"44[ \t]*\d", text), text
        script.pause = None
        rest = []
        while not script.match.is_over:
            script.apply(str(script.match.legal_actions()[0]))
            rest.append(script.state())
        for state in from_last_deal(rest):  # the match's last hand: its end is the point
            script.push("state", state)
        page.wait_for_selector("#end-dialog[open]")
        final = page.inner_text("#end-dialog [data-testid=final-score]")
        assert "João Pedro 44" in final and not re.search(r"44[ \t]*\d", final), final
        shot(page, f"{name}-names-end")
        assert not errors, errors
        page.close()


def scoring_pair(script: Script, team: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """Two states in a row of an autoplayed hand where a play scores table points for `team`."""
    script.autoplay = True
    prev = script.state()
    while True:
        script.apply(str(script.match.legal_actions()[0]))
        now = script.state()
        v0, v1 = prev["view"], now["view"]
        if (v0["deal_index"] == v1["deal_index"] and v1["steps"]
                and v1["steps"][-1]["type"] == "play" and v1["score"][team] > v0["score"][team]):
            return prev, now
        prev = now


def team_colours(page: Any) -> dict[str, str]:
    """The page's --us and --them colours as computed styles write them: "rgb(r, g, b)"."""
    out = {}
    for side in ("us", "them"):
        value = page.evaluate(
            f"getComputedStyle(document.documentElement).getPropertyValue('--{side}')").strip()
        r, g, b = (int(value[i:i + 2], 16) for i in (1, 3, 5))
        out[side] = f"rgb({r}, {g}, {b})"
    return out


def test_points_banners_wear_the_colour_of_the_team_that_scored(new_context: Any) -> None:
    """"+15 pontos na mesa para Eles" in the opponents' colour, "para Nós" in ours."""
    for team, word, side in ((1, "Eles", "them"), (0, "Nós", "us")):
        script = Script("duplas-pontos", "cores", viewer=0)
        before, after = scoring_pair(script, team)
        page, errors = script.open_page(new_context(PHONE), [before])
        wait_version(page, before["version"])
        script.push("state", after)
        banner = page.locator(f"[data-testid=banner]:has-text('para {word}')")
        banner.wait_for()
        colour = banner.evaluate("(el) => getComputedStyle(el).borderTopColor")
        expected = team_colours(page)
        assert expected["us"] != expected["them"]
        assert colour == expected[side], (word, colour, expected)
        assert not errors, errors
        page.close()


# ---------------------------------------------------------------------- 7. notices and panels


def test_no_stale_invite_notice_over_the_seats_when_the_game_starts(new_context: Any) -> None:
    """The host taps "Copiar" three times while waiting, then the friends sit down: on a phone,
    nothing from the waiting room is left over the partner's seat card."""
    script = Script("duplas-pontos", "convite", viewer=0, players=PEOPLE)
    waiting = script.state(status="waiting", view=None, invite="CONVITE1", mode="friends",
                           players=[PEOPLE[0], None, None, None], clock=None)
    page, errors = script.open_page(new_context(PHONE), [waiting])
    page.locator("[data-testid=invite-link]").wait_for()
    copy = page.get_by_role("button", name="Copiar")
    for _ in range(3):
        copy.click()
    page.wait_for_selector(".notice, [data-testid=copied]:not(:empty)")
    script.version += 1
    script.push("state", script.state(mode="friends"))
    page.wait_for_selector(f"{TABLE}[data-status=playing]")
    partner = rect(page, ".seat[data-place=top] .seat-card")
    notices = page.locator(".notice")
    for i in range(notices.count()):
        box = notices.nth(i).evaluate(RECT)
        assert not overlap(box, partner), (notices.nth(i).inner_text(), box, partner)
    assert not page.locator(".notice:has-text('onvite'), .notice:has-text('link')").count()
    assert not errors, errors


def test_the_side_panel_leaves_the_hand_free_on_ones_turn(new_context: Any) -> None:
    """On a phone the score panel is open while another seat plays; when the turn comes to the
    player, the panel gets out of the way of the hand."""
    script = Script("duplas-torneio", "painel", viewer=0, autoplay=True)
    while script.match.current_player == 0:
        script.apply(str(script.match.legal_actions()[0]))
    before = script.state()
    script.autoplay = False
    mine = script.others()
    assert script.match.current_player == 0
    page, errors = script.open_page(new_context(PHONE), [before])
    wait_version(page, before["version"])
    page.click("#btn-log")
    page.wait_for_selector("#side.open")
    # the sheet slides up for a quarter of a second: measure it once it rests on the bottom
    page.wait_for_function("() => Math.abs(document.getElementById('side')"
                           ".getBoundingClientRect().bottom - innerHeight) < 1")
    assert overlap(rect(page, "#side"), rect(page, "#hand"))  # the sheet covers the hand
    for state in mine:
        script.push("state", state)
    page.wait_for_selector(f"{TABLE}[data-my-turn=true]")
    page.wait_for_function("() => getComputedStyle(document.getElementById('side')).visibility"
                           " === 'hidden'")
    tile = page.locator("#hand [data-legal=true]").first
    assert tile.evaluate("""(el) => {
      const r = el.getBoundingClientRect();
      return el.contains(document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2));
    }""")
    assert not errors, errors


# ---------------------------------------------------------------------- 8. the end of a match

# What of the celebration is shown, and how many of its parts move (an animation that lasts:
# reduced motion leaves none, or only ones cut to nothing).
CELEBRATION = """() => {
  const c = document.querySelector('#end-dialog [data-testid=celebration]');
  if (!c) return { shown: false, moving: 0 };
  const moves = (el) => {
    const s = getComputedStyle(el);
    return s.display !== 'none' && s.animationName !== 'none'
      && parseFloat(s.animationDuration) > 0.1;
  };
  return { shown: getComputedStyle(c).display !== 'none',
           moving: [c, ...c.querySelectorAll('*')].filter(moves).length };
}"""


def winning_seat(ruleset: str, label: str, options: dict[str, Any]) -> tuple[int, Any]:
    """The team that wins the scripted match (every seat playing its first legal action) and
    how its last hand ended."""
    dry = Script(ruleset, label, viewer=0, options=options, autoplay=True)
    dry.others()
    result = dry.match.result
    assert result is not None
    return result.winner, dry.match.history[-1]


def test_the_end_of_a_match_is_a_moment_of_victory(browser: Any, server: str) -> None:
    """The last hand of a 2v2 to 100 streamed at full speed (the page joins as it is dealt),
    seen by a winner: no banner plays behind the end dialog, the board keeps the final table,
    and the dialog shows the winners, the final score and the play that decided the match, with
    a celebration that moves only for those who did not ask for reduced motion; the loser's
    dialog shows the winners without it."""
    options = {"target": 100}
    winner, last = winning_seat("duplas-pontos", "vitoria", options)
    for motion, viewer in (("no-preference", winner), ("reduce", winner),
                           ("no-preference", 1 - winner)):
        context = browser.new_context(viewport=DESKTOP if motion == "reduce" else PHONE,
                                      base_url=server, locale="pt-BR", reduced_motion=motion)
        context.set_default_timeout(20_000)
        try:
            script = Script("duplas-pontos", "vitoria", viewer=viewer, options=options,
                            autoplay=True)
            stream = from_last_deal(script.others())
            assert script.match.is_over
            page, errors = script.open_page(context, stream[:1])
            wait_version(page, stream[0]["version"])
            page.evaluate(WATCH_BANNERS)
            for state in stream[1:]:
                script.push("state", state)
            page.wait_for_selector("#end-dialog[open]")
            seen = page.evaluate("window.seen")
            assert not any(b["end"] for b in seen["banners"]), seen["banners"]
            assert page.locator("#banner-host [data-testid=banner]").count() == 0
            assert page.locator(".board-svg .tile").count() == len(
                stream[-1]["view"]["last_hand"]["table"])
            dialog = page.locator("#end-dialog")
            names = dialog.locator("[data-testid=end-winners] .winner-name").all_inner_texts()
            expected = [("Você" if seat == viewer else ["Ana", "Tião", "Dona Cida", "Juca"][seat])
                        for seat in (winner, winner + 2)]
            assert sorted(names) == sorted(expected), (names, expected)
            assert dialog.locator("[data-testid=final-score] .sb-points").all_inner_texts() == [
                str(p) for p in (stream[-1]["view"]["score"][viewer % 2],
                                 stream[-1]["view"]["score"][1 - viewer % 2])]
            decisive = dialog.locator("[data-testid=hand-decisive]").inner_text()
            assert ("bateu" in decisive) if last.end.kind == "batida" else (
                "fechado" in decisive), decisive
            celebration = page.evaluate(CELEBRATION)
            if viewer % 2 != winner:
                assert not celebration["shown"], celebration
            elif motion == "reduce":
                assert celebration["moving"] == 0, celebration
            else:
                assert celebration["shown"] and celebration["moving"] > 0, celebration
                assert "vitoria" in page.evaluate("window.carroca.sound.played")
            shot(page, f"{'desktop' if motion == 'reduce' else 'phone'}-victory-"
                       f"{'won' if viewer % 2 == winner else 'lost'}")
            assert not errors, errors
        finally:
            context.close()


# ---------------------------------------------------------------------- 9. signed out


def test_a_table_link_opened_signed_out_logs_no_error(new_context: Any) -> None:
    """Signed out, a table link goes to the entry page (to come back after signing in) and
    nothing on the way is answered 401 or logged as an error in the console."""
    page = new_context(PHONE).new_page()
    errors = watch(page)
    logged: list[str] = []
    refused: list[str] = []
    page.on("console", lambda msg: logged.append(msg.text) if msg.type == "error" else None)
    page.on("response", lambda r: refused.append(r.url) if r.status == 401 else None)
    page.goto("/mesa.html?id=alguma-mesa")
    page.wait_for_url(re.compile(r"/\?proximo="))
    page.wait_for_selector("#form-guest button[type=submit]")
    assert not refused, refused
    assert not logged, logged
    assert not errors, errors
