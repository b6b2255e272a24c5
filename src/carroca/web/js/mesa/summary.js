// @ts-check
// The end of a hand: what decided it (the batida and its tile, a closed game), every hand left
// face up, each team's points by reason, the score, and the next hand's countdown — over the
// table during the pause between hands. The end of the match shows the same parts (end.js).

import { tileSVG } from "../tiles.js";
import { $, fill, h, need } from "../dom.js";
import * as W from "../words.js";
import { clearBanner } from "./notices.js";
import { scoreBoard } from "./scores.js";
import { holdsSummary, sendReady } from "./speak.js";
import { ctx, current, isUs, myTeam, nameOf, sideOf, teamLabel } from "./state.js";

/** @typedef {import("../frames.js").LastHand} LastHand */

/**
 * Seats in the order a hand's summary lists them: the viewer, the partner, then the
 * opponents (a spectator: the first team, then the second).
 * @param {number} n
 */
function summaryOrder(n) {
  const st = current();
  const me = st.seat ?? 0;
  if (n === 2) return [me, 1 - me];
  return st.seat === null ? [0, 2, 1, 3] : [me, (me + 2) % 4, (me + 1) % 4, (me + 3) % 4];
}

/**
 * Every seat's tiles left, face up, with their sum.
 * @param {LastHand} hand
 */
export function revealedHands(hand) {
  const n = current().players.length;
  const rows = summaryOrder(n).map((seat) => {
    const tiles = hand.hands_left[seat] ?? [];
    return h(
      "li",
      { class: `revealed-seat ${sideOf(W.teamOf(seat, n))}`, dataset: { seat } },
      h("span", { class: "revealed-name" }, nameOf(seat)),
      h(
        "span",
        { class: "revealed-tiles", role: "img", "aria-label": tiles.length ? tiles.map(W.tileName).join(", ") : "sem pedras" },
        ...(tiles.length ? tiles.map((t) => tileSVG(t)) : [h("em", {}, "bateu")]),
      ),
      h("span", { class: "revealed-sum", title: "Pontos na mão" }, String(W.pipsOf(tiles))),
    );
  });
  return h("ol", { class: "revealed" }, ...rows);
}

/**
 * The points of a hand, one block per team ("Nós" first) with its total, and in it the points
 * added up per reason: "Nós +60 — passe (3×) +60".
 * @param {LastHand} hand
 */
export function handPoints(hand) {
  const first = myTeam();
  const blocks = [first, 1 - first].map((team) => {
    /** @type {Map<string, {reason: string, points: number, times: number}>} */
    const totals = new Map();
    let total = 0;
    for (const e of hand.events) {
      if (e.team !== team) continue;
      const sum = totals.get(e.reason) ?? { reason: e.reason, points: 0, times: 0 };
      sum.points += e.points;
      sum.times += 1;
      totals.set(e.reason, sum);
      total += e.points;
    }
    return h(
      "section",
      { class: `team-points ${sideOf(team)}`, dataset: { team }, "data-testid": "team-points" },
      h(
        "h3",
        { class: "team-points-head" },
        h("span", { class: "team-points-name" }, teamLabel(team)),
        h("strong", { class: "team-points-total" }, `+${total}`),
      ),
      totals.size
        ? h(
            "ul",
            { class: "hand-events" },
            ...[...totals.values()].map((e) =>
              h(
                "li",
                {},
                h("span", {}, `${W.reasonName(e.reason)}${e.times > 1 ? ` (${e.times}×)` : ""}`),
                h("strong", {}, `+${e.points}`),
              ),
            ),
          )
        : h("p", { class: "team-points-none" }, "Nenhum ponto nesta mão."),
    );
  });
  return h("div", { class: "hand-points" }, ...blocks);
}

/**
 * What decided a hand, as its summary and the end dialog open with it: "Juca bateu!" and the
 * tile of the batida, or "Jogo fechado!" and why, in the colour of the team it went to.
 * @param {LastHand} hand
 * @param {"h2" | "p"} [tag]
 */
export function decisive(hand, tag = "h2") {
  const st = current();
  const names = st.players.map((_, i) => nameOf(i));
  const end = hand.end;
  const last = hand.table[hand.table.length - 1];
  let detail = null;
  if (end.kind === "batida" && last) {
    detail = h(
      "p",
      { class: "decisive-play" },
      tileSVG(last.tile, { horizontal: true }),
      h("span", {}, `com a ${W.tileName(last.tile).toLowerCase()}`),
    );
  } else if (end.kind === "fechado") {
    detail = h("p", { class: "decisive-play" }, "Ninguém mais tem jogo");
  }
  const winner = end.winner ?? null;
  const side = winner === null || st.seat === null ? "" : isUs(winner) ? " team-us" : " team-them";
  return h(
    "div",
    { class: `decisive${side}`, "data-testid": "hand-decisive" },
    h(tag, { class: "decisive-title", tabindex: -1 }, W.handEndTitle(end, names, st.ruleset)),
    detail,
  );
}

/**
 * The hand's summary over the table.
 * @param {LastHand} hand
 */
export function showSummary(hand) {
  const overlay = need("#overlay");
  clearBanner();
  overlay.hidden = false;
  overlay.dataset.kind = "summary";
  fill(
    overlay,
    h(
      "div",
      { class: "overlay-card summary-card", "data-testid": "hand-summary" },
      decisive(hand),
      h("div", { class: "summary-hands" }, revealedHands(hand)),
      h("div", { class: "summary-points" }, handPoints(hand)),
      h(
        "div",
        { class: "summary-foot" },
        scoreBoard(hand.score, { class: "summary-score", "data-testid": "summary-score" }),
        ctx.pause
          ? h("p", { class: "summary-next", id: "summary-next", "data-testid": "next-hand" }, nextHandText())
          : null,
        h("p", { class: "summary-reading", id: "summary-reading", hidden: true }),
        h("button", { class: "btn btn-primary", type: "button", id: "summary-continue", onclick: continueFromSummary }, "Continuar"),
      ),
    ),
  );
  renderReading();
  clearTimeout(ctx.summaryTimer);
  // During the server's pause the summary stays until the next hand starts; without one, a while
  // (unless the player asked for time to read it: then until they continue).
  if (!ctx.pause && !holdsSummary()) ctx.summaryTimer = setTimeout(closeSummary, 12000);
  // The keyboard's focus goes to the summary (not from a field the player is typing in), so that
  // a screen reader reads it and Tab reaches "Continuar".
  const active = document.activeElement;
  const typing = active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement || active instanceof HTMLSelectElement;
  if (!typing) $("#overlay .decisive-title")?.focus({ preventScroll: true });
}

/** "Continuar": the summary goes, and the table no longer waits for this player. */
function continueFromSummary() {
  sendReady();
  closeSummary();
}

/** Who the table waits for, under the summary: "Esperando Zé ler o resumo (até 40 s)". */
export function renderReading() {
  const line = document.getElementById("summary-reading");
  const st = ctx.state;
  if (!line || !st) return;
  const reading = (st.pause?.reading ?? []).filter((seat) => seat !== st.seat);
  line.hidden = !reading.length;
  const who = reading.map((seat) => nameOf(seat)).join(" e ");
  const text = reading.length ? `Esperando ${who} ler o resumo.` : "";
  if (line.textContent !== text) line.textContent = text;
}

/** "Próxima mão em 3 s" */
export function nextHandText() {
  const left = ctx.pause ? Math.max(0, ctx.pause.deadline - performance.now()) : 0;
  const secs = Math.ceil(left / 1000);
  return secs > 0 ? `Próxima mão em ${secs} s` : "Próxima mão começando…";
}

/** The summary goes (if it shows). */
export function closeSummary() {
  const overlay = need("#overlay");
  clearTimeout(ctx.summaryTimer);
  if (overlay.dataset.kind === "summary") {
    const hadFocus = overlay.contains(document.activeElement);
    if (hadFocus) need("#hand").focus({ preventScroll: true });
    overlay.hidden = true;
    overlay.dataset.kind = "";
    overlay.replaceChildren();
  }
}
