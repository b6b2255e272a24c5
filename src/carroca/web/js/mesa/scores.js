// @ts-check
// "Nós e Eles": the score in the top bar, the scoreboard of the hand's summary and of the end,
// and the side panel's log of every point scored, hand by hand, with the match's facts.

import { bumpText, fill, h, need } from "../dom.js";
import * as W from "../words.js";
import { ctx, current, isUs, myTeam, sideOf, teamLabel } from "./state.js";

/** The top bar's two scores; a score that changed bumps. */
export function renderScores() {
  const v = current().view;
  const score = v ? v.score : [0, 0];
  score.forEach((points, team) => {
    bumpText(need(`#score-${team}`), String(points));
    need(`#score-box-${team}`).setAttribute("aria-label", `${teamLabel(team)}: ${points} pontos`);
  });
}

/**
 * "Nós 60 × 40 Eles" as a small scoreboard: each side's name over its points, the viewer's side
 * first as in the top bar, so that a name ending in digits never runs into the score.
 * `labels`, `first`: for a match seen without a table (its page after the end).
 * @param {number[]} score
 * @param {Record<string, any>} [attrs]
 * @param {string[] | null} [labels]
 * @param {number | null} [first]
 */
export function scoreBoard(score, attrs = {}, labels = null, first = null) {
  const st = ctx.state;
  /** @type {string[]} */
  const names = labels ?? W.teamLabels(/** @type {NonNullable<typeof st>} */ (st));
  const a = first ?? myTeam();
  /** @param {number} team */
  const side = (team) =>
    h(
      "span",
      { class: `sb-side ${st ? sideOf(team) : ""}`, dataset: { team } },
      h("span", { class: "sb-name" }, names[team]),
      h("strong", { class: "sb-points" }, String(score[team])),
    );
  return h(
    "p",
    { ...attrs, class: `scoreboard ${attrs.class ?? ""}`.trim() },
    side(a),
    h("span", { class: "sb-x", "aria-hidden": "true" }, "×"),
    side(1 - a),
  );
}

/** The match's facts in the side panel: ruleset, what it is played to, kind of match, and how
 * it is played, all read from the match's own options (a tournament or a friends' table may
 * change the ruleset's defaults). */
export function renderFacts() {
  const st = current();
  const opts = st.options || {};
  /** @type {(HTMLElement | string)[]} */
  const facts = [h("strong", {}, W.rulesetName(st.ruleset))];
  const length = W.matchLength(opts);
  if (length) facts.push(length);
  /** Every kind of table has its words (tsc checks the list against the server's modes). @type {Record<import("../wire").Mode, string>} */
  const modes = { casual: "casual", ranked: "ranqueada", friends: "com amigos", bots: "só bots", tournament: "de torneio" };
  const mode = modes[st.mode] ?? st.mode;
  facts.push(`partida ${mode}`, `${st.turn_seconds} s por jogada`);
  fill(need("#match-facts"), ...facts.flatMap((f, i) => (i ? [" · ", f] : [f])));
  need("#match-facts").append(" ", h("a", { class: "btn btn-ghost btn-small", href: `regras.html#${st.ruleset}` }, "Regras desta modalidade"));
  const rules = W.rulesText(st.ruleset, opts);
  if (rules) need("#match-facts").append(h("span", { class: "facts-desc" }, `${rules}.`));
}

/** The log: the current hand's points as they come, then every hand's, the newest first. */
export function renderLog() {
  const items = [];
  const deals = [...ctx.hands.keys()].sort((a, b) => b - a);
  const st = current();
  const v = st.view;
  if (ctx.live.length && v) {
    items.push(logGroup("Mão atual", ctx.live));
  }
  deals.forEach((deal, i) => {
    items.push(logGroup(i === 0 && !ctx.live.length && st.status === "finished" ? "Última mão" : `Mão ${deal + 1}`, ctx.hands.get(deal) ?? []));
  });
  if (!items.length) items.push(h("li", { class: "muted" }, "Ainda ninguém marcou pontos."));
  fill(need("#log"), ...items);
}

/**
 * @param {string} title
 * @param {import("./state.js").Points[]} entries
 */
function logGroup(title, entries) {
  return h(
    "li",
    { class: "log-group" },
    h("span", { class: "log-title" }, title),
    h(
      "ul",
      {},
      ...(entries.length
        ? entries.map((e) =>
            h(
              "li",
              { class: `log-entry ${isUs(e.team) ? "team-us" : "team-them"}` },
              h("strong", {}, `+${e.points}`),
              ` ${teamLabel(e.team)} · ${W.reasonName(e.reason)}`,
            ),
          )
        : [h("li", { class: "muted" }, "sem pontos")]),
    ),
  );
}
