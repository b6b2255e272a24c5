"""How the table feels, as in the Brazilian dominoes apps: a pause between hands with the hand's
summary, seat bubbles that last, sounds with a mute switch, announcements and notices away from
the board and the hand, the keyboard focus kept across updates, whole names on phone seat cards
with a face for every player, "Nós" first, reconnection as soon as the network is back, a rematch,
chat lines that wrap and tiles that slide into place.

Most tests answer the page's WebSocket themselves (the rules engine on a scripted deal, frames
pushed when the test wants them); the pause and the rematch run on real servers.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from tests.support.browser import DESKTOP, PHONE, LiveServer, shot, unique_name, watch
from tests.support.sockplay import play_match, token_of
from tests.support.table_script import RECT, Script, overlap, rect, wait_version
from tests.support.webplay import (
    TABLE,
    Tally,
    act,
    join_by_invite,
    open_new_table,
    sign_in,
    wait_turn_or_end,
)

from carroca.server.settings import Settings

# ---------------------------------------------------------------------- a scripted table


def score_line_of_top_bar(page: Any) -> str:
    """The top bar's score as written, in its order on screen: "Nós 60 × 40 Eles"."""
    boxes = page.locator("#scores .score")
    (a_label, a_value), (b_label, b_value) = (
        (boxes.nth(i).locator(".score-label").inner_text(),
         boxes.nth(i).locator(".score-value").inner_text()) for i in range(2))
    return f"{a_label} {a_value} × {b_value} {b_label}"


def scoreboard_line(board: Any) -> str:
    """A score drawn as a scoreboard (each side's name over its points), written as the top
    bar's line: "Nós 60 × 40 Eles"."""
    (a_name, a_points), (b_name, b_points) = (
        (side.locator(".sb-name").inner_text(), side.locator(".sb-points").inner_text())
        for side in board.locator(".sb-side").all())
    return f"{a_name} {a_points} × {b_points} {b_name}"


# ---------------------------------------------------------------------- 1. the pause


@pytest.fixture(scope="module")
def paused_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server with a real pause between hands (the shared one runs at full speed)."""
    db = tmp_path_factory.mktemp("feel-server") / "carroca.db"
    live = LiveServer(Settings(
        database=f"sqlite:///{db}", bot_delay_ms=150, turn_seconds=60.0,
        casual_wait_seconds=0.3, finished_keep_seconds=600.0, hand_pause_seconds=2.5,
        limit_guest_ip="100000/minute", limit_tables_player="100000/minute",
        max_connections_per_ip=0,
    ))
    live.start()
    try:
        yield live.url
    finally:
        live.stop()


# What the page shows the moment the summary is up, read in one go in the page: read call by call,
# a loaded machine can let the 2.5 s pause run out between two reads (the next hand then lights
# the tiles) and the test would blame the client for its own slowness.
SUMMARY_SNAPSHOT = """() => {
  const t = document.querySelector('[data-testid=table]');
  const s = document.querySelector('[data-testid=hand-summary]');
  if (!s) return t.dataset.myTurn === 'true' ? { summary: false } : null;
  const boxes = [...document.querySelectorAll('#scores .score')].map((b) => [
    b.querySelector('.score-label').innerText, b.querySelector('.score-value').innerText]);
  return {
    summary: true,
    next: s.querySelector('[data-testid=next-hand]').innerText,
    score: (([a, b]) => `${a[0]} ${a[1]} × ${b[1]} ${b[0]}`)(
      [...s.querySelectorAll('[data-testid=summary-score] .sb-side')].map((side) => [
        side.querySelector('.sb-name').innerText, side.querySelector('.sb-points').innerText])),
    top: `${boxes[0][0]} ${boxes[0][1]} × ${boxes[1][1]} ${boxes[1][0]}`,
    clock: document.getElementById('clock').dataset.state,
    lit: document.querySelectorAll('#hand [data-legal=true]').length,
    message: document.getElementById('turn-msg').innerText,
    version: t.dataset.version,
  };
}"""

WATCH_SUMMARY = """() => {
  // When the first summary opens and when it closes (the version and clock then), watched from
  // before the hand ends, so no moment is missed however slow the test's own calls are.
  const overlay = document.getElementById('overlay');
  const table = document.querySelector('[data-testid=table]');
  window.feel = { shownAt: null, closed: null };
  new MutationObserver(() => {
    const showing = overlay.dataset.kind === 'summary';
    if (showing && window.feel.shownAt === null) {
      window.feel.shownAt = performance.now();
    } else if (!showing && window.feel.shownAt !== null && !window.feel.closed) {
      window.feel.closed = { at: performance.now(), version: table.dataset.version,
                             clock: document.getElementById('clock').dataset.state };
    }
  }).observe(overlay, { attributes: true, childList: true });
}"""


def test_the_next_hand_waits_for_the_summary(browser: Any, paused_server: str) -> None:
    """A hand ends on a server with a 2.5 s pause: the summary shows the hands, the points, the
    score exactly as the top bar has it and a countdown; no clock runs, nothing is lit and no
    bot plays until the pause is over; then the summary goes away by itself."""
    context = browser.new_context(viewport=DESKTOP, base_url=paused_server, locale="pt-BR",
                                  reduced_motion="reduce")
    context.set_default_timeout(20_000)
    try:
        page = context.new_page()
        errors = watch(page)
        frames: list[str] = []
        page.on("websocket", lambda ws: ws.on("framereceived", lambda f: frames.append(str(f))))
        sign_in(context, unique_name("Lia"))
        # Clássico draws until a tile fits: its hand cannot end before the page moves (one of
        # bloqueio can, on the bot's opening tile, before the watch below is set).
        open_new_table(page, "classico", ["bot:random"])
        page.evaluate(WATCH_SUMMARY)
        tally = Tally()
        for _ in range(60):
            seen = page.wait_for_function(SUMMARY_SNAPSHOT, polling=50).json_value()
            if seen["summary"]:
                break
            act(page, tally)
        else:
            raise AssertionError("no hand ended")
        assert re.fullmatch(r"Próxima mão em [1-3] s", seen["next"]), seen
        assert seen["score"] == seen["top"], seen
        assert seen["clock"] == "pause", seen
        assert seen["lit"] == 0, seen
        assert "próxima começa" in seen["message"], seen
        if page.locator("[data-testid=hand-summary]").count():
            shot(page, "desktop-hand-pause")
        try:
            page.wait_for_function("() => window.feel.closed !== null", timeout=10_000)
        except Exception as exc:  # say what the page had: its errors and its last frames
            raise AssertionError(f"the summary stayed: {errors} {frames[-3:]}") from exc
        closed = page.evaluate("window.feel")
        assert closed["closed"]["version"] == seen["version"]  # nobody moved during the pause
        assert closed["closed"]["at"] - closed["shownAt"] > 1000
        assert closed["closed"]["clock"] != "pause"
        # the next hand goes on
        assert wait_turn_or_end(page) in ("playing", "finished")
        assert not errors, errors
    finally:
        context.close()


def hand_end_stream(script: Script) -> list[dict[str, Any]]:
    """Every state of the first hand, every seat playing its first legal action; the last one
    ends the hand, with the pause on."""
    stream = [script.state()]
    while script.match.deal_index == 0:
        script.apply(str(script.match.legal_actions()[0]))
        stream.append(script.state())
    script.pause = {"seconds": 5.0, "remaining_ms": 5000}
    stream[-1] = script.state()
    return stream


def test_pause_summary_at_seat_one(new_context: Any) -> None:
    """Seat 1 of a 2v2: the summary during the pause reads "Nós … × … Eles" like the top bar
    (Nós first there too); it closes itself when the next hand starts."""
    script = Script("duplas-pontos", "pausa", viewer=1)
    stream = hand_end_stream(script)
    page, errors = script.open_page(new_context(PHONE), stream)
    summary = page.locator("[data-testid=hand-summary]")
    summary.wait_for()
    assert page.locator("#scores .score-label").first.inner_text() == "Nós"
    line = scoreboard_line(summary.locator("[data-testid=summary-score]"))
    assert line.startswith("Nós ") and line == score_line_of_top_bar(page)
    assert "Próxima mão em" in summary.locator("[data-testid=next-hand]").inner_text()
    assert page.get_attribute("#clock", "data-state") == "pause"
    shot(page, "phone-hand-pause")
    script.pause = None
    script.push("state", script.state())
    summary.wait_for(state="detached")
    assert page.get_attribute("#clock", "data-state") in ("mine", "urgent", "idle", "other")
    assert not errors, errors


# ---------------------------------------------------------------------- 7. Nós first


def test_nos_first_at_seats_one_and_three(new_context: Any) -> None:
    for viewer in (1, 3):
        script = Script("duplas-torneio", f"nos{viewer}", viewer=viewer, autoplay=True)
        stream = [script.state(), *script.others(until=lambda m: len(m.steps) >= 6)]
        page, errors = script.open_page(new_context(PHONE), stream)
        wait_version(page, script.version)
        labels = page.locator("#scores .score-label").all_inner_texts()
        assert labels == ["Nós", "Eles"], labels
        # the hooks still name the teams: score-0 is team 0's, which is "Eles" at seats 1 and 3
        assert page.inner_text("#score-label-0") == "Eles"
        assert page.locator("#scores .score").first.get_attribute("id") == "score-box-1"
        assert not errors, errors
        page.close()


# ---------------------------------------------------------------------- 2. bubbles and sounds


def first_pass_by_another(script: Script) -> tuple[list[dict[str, Any]], int]:
    """States of an autoplayed match up to a pass by a seat other than the viewer's (the last
    state), and that seat."""
    script.autoplay = True
    stream = [script.state()]
    while True:
        m = script.match
        seat = m.current_player
        assert seat is not None and not m.is_over
        action = m.legal_actions()[0]
        script.apply(str(action))
        stream.append(script.state())
        if action.kind == "pass" and seat != script.viewer:
            script.autoplay = False
            return stream, seat


def bubble_shown(page: Any, seat: int, text: str) -> None:
    page.wait_for_function(
        """([seat, text]) => {
          const b = document.getElementById(`bubble-${seat}`);
          return b && b.classList.contains('on') && b.textContent === text
            && getComputedStyle(b).visibility === 'visible';
        }""", arg=[seat, text])


def test_seat_bubbles_last_across_updates(new_context: Any) -> None:
    """Another seat's "Passo" and chat line stay by the seat for seconds although new states
    arrive meanwhile, then go."""
    for size, name in ((PHONE, "phone"), (DESKTOP, "desktop")):
        script = Script("duplas-pontos", "bolha")
        stream, seat = first_pass_by_another(script)
        page, errors = script.open_page(new_context(size), [stream[-2]])
        wait_version(page, stream[-2]["version"])
        script.push("state", stream[-1])
        wait_version(page, stream[-1]["version"])
        bubble_shown(page, seat, "Passo")
        page.evaluate("window.feelStart = performance.now()")
        # more news: a seat drops and comes back, a chat line from another seat
        other = next(s for s in (1, 2, 3) if s != seat)
        for connected in (False, True):
            script.players[other]["connected"] = connected
            script.push("state", script.state())
        page.wait_for_selector(f".seat[data-seat='{other}']:not(.offline)")
        bubble_shown(page, seat, "Passo")
        script.push("chat", {"seat": other, "name": "bot:greedy", "text": "Segura essa!",
                             "at": 1_700_000_000})
        script.push("state", script.state())
        bubble_shown(page, other, "Segura essa!")
        bubble_shown(page, seat, "Passo")
        shot(page, f"{name}-seat-bubble")
        if name == "phone":  # once is enough to see it go
            page.wait_for_function(
                f"() => !document.getElementById('bubble-{seat}').classList.contains('on')")
            lasted = page.evaluate("performance.now() - window.feelStart")
            assert lasted > 1500, lasted  # shown ~2.6 s in all (some of it before feelStart)
        assert not errors, errors
        page.close()


def test_sounds_and_the_mute_switch(new_context: Any) -> None:
    """A tile played sounds, "your turn" sounds; the switch (in the side panel) silences the
    table and is remembered after a reload."""
    script = Script("duplas-torneio", "som")
    stream = [script.state(), *script.others()]
    page, errors = script.open_page(new_context(PHONE), stream)
    page.wait_for_selector(f"{TABLE}[data-my-turn=true]")
    assert page.evaluate("window.carroca.sound.on") is True
    page.locator("#hand [data-legal=true]").first.click()
    if page.locator("[data-end]").count():
        page.locator("[data-end]").first.click()
    page.wait_for_function("() => window.carroca.sound.played.includes('play')")
    page.wait_for_selector(f"{TABLE}[data-my-turn=true]")
    page.wait_for_function("() => window.carroca.sound.played.includes('turn')")
    assert page.evaluate("window.carroca.sound.ctx !== null")  # made on the first touch

    page.click("#btn-log")
    switch = page.get_by_role("button", name="Som da mesa")
    assert switch.get_attribute("aria-pressed") == "true"
    switch.click()
    assert switch.get_attribute("aria-pressed") == "false"
    assert page.evaluate("localStorage.getItem('carroca:som')") == "off"
    page.reload()
    page.wait_for_selector(f"{TABLE}[data-my-turn=true]")
    assert page.evaluate("window.carroca.sound.on") is False
    assert page.get_attribute("#btn-sound", "aria-pressed") == "false"
    version = page.get_attribute(TABLE, "data-version")
    page.locator("#hand [data-legal=true]").first.click()
    if page.locator("[data-end]").count():
        page.locator("[data-end]").first.click()
    page.wait_for_function(
        "(v) => document.querySelector('[data-testid=table]').dataset.version !== v", arg=version)
    assert page.evaluate("window.carroca.sound.played") == []
    assert not errors, errors


# ---------------------------------------------------------------------- 3. banners, 4. notices


def test_banners_stay_off_the_board_and_the_hand(new_context: Any) -> None:
    for size in (PHONE, DESKTOP):
        script = Script("duplas-pontos", "bolha")
        stream, _ = first_pass_by_another(script)
        page, errors = script.open_page(new_context(size), [stream[-2]])
        wait_version(page, stream[-2]["version"])
        script.push("state", stream[-1])
        banner = page.locator("[data-testid=banner]:has-text('Passe!')")
        banner.wait_for()
        box = rect(page, "[data-testid=banner]")
        for other in (".board-wrap", "#hand"):
            assert not overlap(box, rect(page, other)), (other, box, rect(page, other))
        assert box[0] >= 0 and box[2] <= size["width"]
        assert not errors, errors
        page.close()


ERRORS = [
    "A jogada não foi registrada por um erro no servidor; jogue de novo.",
    "Calma! Muitas mensagens seguidas; espere um pouco.",
    "A jogada não foi registrada por um erro no servidor; jogue de novo.",
    "Mensagem vazia.",
    "Calma! Muitas mensagens seguidas; espere um pouco.",
    "A jogada não foi registrada por um erro no servidor; jogue de novo.",
]


def test_notices_are_few_deduplicated_and_off_the_board(new_context: Any) -> None:
    for size, most in ((PHONE, 1), (DESKTOP, 2)):
        script = Script("duplas-pontos", "aviso")
        page, errors = script.open_page(new_context(size))
        for message in ERRORS:
            script.push("error", {"code": "x", "message": message})
        page.wait_for_selector(f":is(.toast, .notice):has-text('{ERRORS[-1][:20]}')")
        shown = page.locator(".toast, .notice")
        texts = [t.strip() for t in shown.all_inner_texts()]
        assert 1 <= len(texts) <= most, texts
        assert len(set(texts)) == len(texts)
        assert ERRORS[-1] in texts[-1]
        for i in range(shown.count()):
            box = shown.nth(i).evaluate(RECT)
            for other in (".board-wrap", "#hand"):
                assert not overlap(box, rect(page, other)), (other, box)
        # the same error again only counts up
        script.push("error", {"code": "x", "message": ERRORS[-1]})
        page.wait_for_selector(".notice-times:has-text('×')")
        assert page.locator(".notice").count() <= most
        shot(page, f"{'phone' if size == PHONE else 'desktop'}-notices")
        assert not errors, errors
        page.close()


# ---------------------------------------------------------------------- 5. keyboard focus


def test_keyboard_focus_stays_on_the_tile(new_context: Any) -> None:
    script = Script("duplas-torneio", "foco")
    stream = [script.state(), *script.others()]
    page, errors = script.open_page(new_context(DESKTOP), stream)
    page.wait_for_selector(f"{TABLE}[data-my-turn=true]")
    tiles = page.locator("#hand [data-tile]")
    assert tiles.count() >= 3
    held = tiles.nth(2).get_attribute("data-tile")
    tiles.nth(2).focus()
    focused = "document.activeElement?.dataset?.tile ?? null"
    for i in range(3):  # presence changes and chat: the page updates, the focus stays
        script.players[1]["connected"] = i % 2 == 1
        script.push("state", script.state())
        script.push("chat", {"seat": 1, "name": "bot:greedy", "text": f"oi {i}", "at": 0})
        page.wait_for_selector(f".seat[data-seat='1']{':not(.offline)' if i % 2 else '.offline'}")
        assert page.evaluate(focused) == held
    # Enter on a lit tile plays it; the focus goes to the tile that takes its place
    lit = page.locator("#hand [data-legal=true]").first
    played = lit.get_attribute("data-tile")
    lit.focus()
    page.keyboard.press("Enter")
    if page.evaluate("document.activeElement?.dataset?.end !== undefined"):
        page.keyboard.press("Enter")
    page.wait_for_function("(t) => !document.querySelector(`#hand [data-tile='${t}']`)",
                           arg=played)
    page.wait_for_function("() => document.activeElement?.closest?.('#hand') !== null")
    assert page.evaluate(focused) is not None
    assert not errors, errors


# ---------------------------------------------------------------------- 6. seat cards


FULLY_SHOWN = """(el) => {
  const r = el.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) return 'empty';
  if (el.scrollWidth > el.clientWidth + 1) return 'cut';
  if (r.left < -0.5 || r.right > innerWidth + 0.5) return 'off screen';
  for (let a = el.parentElement; a && !a.classList.contains('felt'); a = a.parentElement) {
    const s = getComputedStyle(a);
    if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
    const b = a.getBoundingClientRect();
    if (r.left < b.left - 0.5 || r.right > b.right + 0.5 || r.top < b.top - 0.5
        || r.bottom > b.bottom + 0.5) return 'clipped by ' + a.className;
  }
  return 'ok';
}"""


def test_phone_seat_cards_show_whole_names_badges_and_faces(new_context: Any) -> None:
    players = [
        {"name": "Ana", "bot": False, "connected": True},
        {"name": "Maria_Aparecida_1234", "bot": False, "connected": True},
        {"name": "bot:medium", "bot": True, "connected": True},  # "Dona Cida", the partner
        {"name": "Zezinho da Silva", "bot": False, "connected": False},
    ]
    script = Script("duplas-pontos", "cartao", players=players)
    page, errors = script.open_page(new_context(PHONE))
    page.wait_for_selector(".seat[data-place=top] .badge-partner")
    for place in ("left", "top", "right"):
        seat = page.locator(f".seat[data-place={place}]")
        for i in range(seat.locator(".seat-name, .badge").count()):
            part = seat.locator(".seat-name, .badge").nth(i)
            assert part.evaluate(FULLY_SHOWN) == "ok", (place, part.inner_text())
        assert seat.locator(".avatar svg.avatar-svg").count() == 1
    assert page.inner_text(".seat[data-place=left] .seat-name") == "Maria_Aparecida_1234"
    top = page.inner_text(".seat[data-place=top]")
    assert "Dona Cida" in top and "BOT" in top.upper() and "PARCEIRO" in top.upper()
    assert "FORA" in page.inner_text(".seat[data-place=right]").upper()
    cards = [rect(page, f".seat[data-place={place}] .seat-card")
             for place in ("left", "top", "right")]
    assert not any(overlap(a, b) for i, a in enumerate(cards) for b in cards[i + 1:]), cards
    faces = page.evaluate("""async () => {
      const { avatarSVG } = await import('/js/avatar.js');
      const html = (name) => avatarSVG(name).outerHTML;
      const names = ['Ana', 'Bia', 'Caio', 'Davi', 'Eva', 'Zé', 'Tião', 'Juca'];
      return { same: html('Ana') === html('Ana') && html('ana') === html('Ana'),
               distinct: new Set(names.map(html)).size };
    }""")
    assert faces["same"] and faces["distinct"] >= 6, faces
    shot(page, "phone-seat-cards")
    assert not errors, errors


# ---------------------------------------------------------------------- 8. reconnection


def test_reconnects_at_once_when_online_or_shown(new_context: Any) -> None:
    script = Script("mano-a-mano", "rede")
    page, errors = script.open_page(new_context(PHONE))
    page.wait_for_selector(f"{TABLE}[data-connects='1']")
    wake = ["window.dispatchEvent(new Event('online'))",
            "document.dispatchEvent(new Event('visibilitychange'))"]
    assert page.evaluate("document.visibilityState") == "visible"
    for connects, how in enumerate(wake, start=2):
        # the next try would wait its longest back-off (8 s); the network comes back first
        page.evaluate("window.carroca.socket.attempt = 4; window.carroca.socket.drop()")
        page.wait_for_selector(f"{TABLE}[data-connection=reconnecting]")
        page.evaluate(how)
        page.wait_for_selector(f"{TABLE}[data-connects='{connects}'][data-connection=online]",
                               timeout=4000)
    assert not errors, errors


# ---------------------------------------------------------------------- 9. rematch


def test_rematch_is_offered_and_accepted(new_context: Any, server: str) -> None:
    """Two friends finish a match; "Jogar de novo" makes a table with the same settings, the
    friend is offered it on the end screen and takes their seat there. The match is played on
    their own sockets while their pages show it."""
    host = new_context(PHONE).new_page()
    friend = new_context(DESKTOP).new_page()
    errors = watch(host) + watch(friend)
    host_name = unique_name("Rosa")
    sign_in(host.context, host_name)
    table = open_new_table(host, "bloqueio", ["open"], {"target": 1})
    sign_in(friend.context, unique_name("Téo"))
    join_by_invite(friend, table["invite"])
    for p in (host, friend):
        p.wait_for_selector(f"{TABLE}[data-status=playing]")
    old = host.url.split("id=")[1]
    play_match(server, [token_of(host.context), token_of(friend.context)], old)
    for p in (host, friend):
        p.wait_for_selector("#end-dialog[open] [data-testid=rematch]")

    host.click("[data-testid=rematch]")
    host.wait_for_url(re.compile(r"mesa\.html\?id=(?!" + re.escape(old) + ")"))
    new = host.url.split("id=")[1]
    host.wait_for_selector(f"{TABLE}[data-status=waiting][data-ruleset=bloqueio]")
    offer = friend.locator("#rematch-offer")
    offer.wait_for()
    assert host_name in offer.inner_text()
    assert friend.inner_text("[data-testid=rematch]") == "Aceitar a revanche"
    shot(friend, "desktop-rematch-offer")
    shot(host, "phone-rematch-waiting")
    friend.click("[data-testid=rematch]")
    friend.wait_for_url(f"**/mesa.html?id={new}")
    for p in (host, friend):
        p.wait_for_selector(f"{TABLE}[data-status=playing][data-ruleset=bloqueio]")
    assert {host.get_attribute(TABLE, "data-seat"), friend.get_attribute(TABLE, "data-seat")} \
        == {"0", "1"}
    shot(host, "phone-rematch-table")
    assert not errors, errors


# ---------------------------------------------------------------------- 10. chat


def test_a_chat_line_without_spaces_wraps(new_context: Any) -> None:
    script = Script("duplas-pontos", "papo")
    page, errors = script.open_page(new_context(PHONE))
    text = "k" * 120 + "!" * 80
    script.push("chat", {"seat": 1, "name": "bot:greedy", "text": text, "at": 1_700_000_000})
    page.click("#btn-chat")
    line = page.locator("#chat .chat-line").first
    line.wait_for()
    assert line.evaluate("(el) => el.scrollWidth <= el.clientWidth + 1")
    box, words, time = (line.evaluate(RECT), line.locator(".chat-text").evaluate(RECT),
                        line.locator(".chat-time").evaluate(RECT))
    chat = rect(page, "#chat")
    for inner in (words, time):
        assert box[0] - 0.5 <= inner[0] and inner[2] <= box[2] + 0.5, (inner, box)
    assert box[2] <= chat[2] + 0.5
    bubble = rect(page, "#bubble-1")
    assert bubble[0] >= 0 and bubble[2] <= PHONE["width"]
    assert not errors, errors


# ---------------------------------------------------------------------- tiles slide in


SLIDE = """() => {
  const g = document.querySelector('.board-svg .tile-new');
  if (!g) return null;
  return { name: getComputedStyle(g).animationName,
           x: parseFloat(g.style.getPropertyValue('--slide-x') || '0'),
           y: parseFloat(g.style.getPropertyValue('--slide-y') || '0') };
}"""


def test_played_tiles_slide_into_place(browser: Any, server: str) -> None:
    """My tile comes up from the bottom, the next player's from their side; with reduced
    motion nothing moves."""
    for motion in ("no-preference", "reduce"):
        context = browser.new_context(viewport=DESKTOP, base_url=server, locale="pt-BR",
                                      reduced_motion=motion)
        context.set_default_timeout(20_000)
        try:
            script = Script("duplas-torneio", "desliza")
            stream = [script.state(), *script.others()]
            page, errors = script.open_page(context, stream)
            page.wait_for_selector(f"{TABLE}[data-my-turn=true]")
            script.reply_others = False  # the next seat's move is pushed by the test
            version = script.version
            page.locator("#hand [data-legal=true]").first.click()
            if page.locator("[data-end]").count():
                page.locator("[data-end]").first.click()
            wait_version(page, version + 1)
            mine = page.evaluate(SLIDE)
            assert mine is not None
            # the next seat, on my left, plays
            m = script.match
            assert m.current_player == 1
            script.apply(str(next(a for a in m.legal_actions() if a.kind == "play")))
            script.push("state", script.state())
            wait_version(page, version + 2)
            theirs = page.evaluate(SLIDE)
            if motion == "reduce":
                assert mine["name"] == theirs["name"] == "none", (mine, theirs)
            else:
                assert mine["name"] == theirs["name"] == "slide-in", (mine, theirs)
                assert mine["x"] == 0 and mine["y"] > 0, mine  # from below: my side
                assert theirs["x"] < 0 and theirs["y"] == 0, theirs  # from the left
            assert not errors, errors
        finally:
            context.close()
