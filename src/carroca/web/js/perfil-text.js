// @ts-check
// What a player's profile (perfil.html) writes and draws: since when they play, the figures of
// each ruleset, a match of theirs in a line, and the ratings graph's geometry, without the DOM;
// the ratings' boxes (the profile page's and the lobby's) with it.

import { dec, h, num } from "./dom.js";
import * as W from "./words.js";

/** @typedef {{at: number, rating: number, ruleset: string, match: string}} RatingPoint */
/** @typedef {{ruleset: string, matches: number, wins: number, batidas: number, galos: number, capicus: number}} RulesetStats */
/** @typedef {{id: string, mode: string, ruleset: string, finished_at: number | null, seat: number,
 *   won: boolean | null, score: number[] | null, players: string[]}} RecentMatch */

/** A player's profile, by id (friends, who have one) or by nickname (a table's or a replay's
 * names). */
export const profileHref = (/** @type {number} */ id) => `perfil.html?id=${encodeURIComponent(id)}`;
export const profileNamed = (/** @type {string} */ name) => `perfil.html?nome=${encodeURIComponent(name)}`;

/** The rating families, as the profile names them: a person's, and a bot account's (rated on
 * the bots' ladder only). */
const FAMILIES = [
  ["duplas", "Duplas"],
  ["mano", "1 contra 1"],
];
const BOT_FAMILIES = [
  ["bot-duplas", "Duplas · liga dos bots"],
  ["bot-mano", "1 contra 1 · liga dos bots"],
];

/** The families a profile shows. @param {string} kind the player's ("guest", "account", "bot") */
export const familiesOf = (kind) => (kind === "bot" ? BOT_FAMILIES : FAMILIES);

/**
 * A box per family: its rating, games and wins (the profile page and the lobby's own profile).
 * @param {string} kind @param {Record<string, {rating: number, games: number, wins: number}>} ratings
 */
export const ratingBoxes = (kind, ratings) =>
  familiesOf(kind).map(([key, label]) => {
    const r = ratings[key];
    return h(
      "div",
      { class: "rating-box" },
      h("span", { class: "rating-label" }, label),
      h("strong", { class: "rating-value" }, r ? dec(r.rating) : "–"),
      h("span", { class: "muted small" }, r ? `${num(r.games)} ranqueadas · ${num(r.wins)} vitórias` : "sem ranqueadas ainda"),
    );
  });

const MONTH_YEAR = new Intl.DateTimeFormat("pt-BR", { month: "long", year: "numeric" });
const DAY = new Intl.DateTimeFormat("pt-BR", { day: "numeric", month: "short", year: "numeric" });

/** "Joga desde março de 2026" @param {number} since epoch seconds */
export const sinceText = (since) => `Joga desde ${MONTH_YEAR.format(new Date(since * 1000))}`;

/** "5 de mar. de 2026" @param {number} at epoch seconds */
export const dayText = (at) => DAY.format(new Date(at * 1000));

/** The figures a ruleset has: a galo only in duplas de pontos, a capicú only in duplas de torneio. */
const ONLY = { galos: "duplas-pontos", capicus: "duplas-torneio" };

/**
 * A line of the figures table: the ruleset's name, then its numbers ("–" where the ruleset has
 * no such thing).
 * @param {RulesetStats} s
 */
export function statsRow(s) {
  /** @param {"galos" | "capicus"} key */
  const only = (key) => (ONLY[key] === s.ruleset ? num(s[key]) : "–");
  return [W.rulesetName(s.ruleset), num(s.matches), num(s.wins), num(s.batidas), only("galos"), only("capicus")];
}

/** The figures table's headings. */
export const STATS_HEADINGS = ["Modalidade", "Partidas", "Vitórias", "Batidas", "Galos", "Capicús"];

/**
 * A match of the profile in a line: won or lost, the ruleset, and with and against whom (seen
 * from the profile's player).
 * @param {RecentMatch} m
 */
export function recentLine(m) {
  const names = m.players.map((p, seat) => W.seatName({ name: p, bot: W.botLevelOf(p) !== null }, seat));
  const n = names.length;
  const against = names.filter((_, seat) => W.teamOf(seat, n) !== W.teamOf(m.seat, n));
  const partner = n === 4 ? names[(m.seat + 2) % 4] : null;
  const who = `${partner ? `com ${partner} ` : ""}contra ${against.join(" e ")}`;
  const score = m.score ? ` · ${m.score.join(" × ")}` : "";
  const when = m.finished_at ? ` · ${dayText(m.finished_at)}` : "";
  const verdict = m.won === null ? "Partida" : m.won ? "Vitória" : "Derrota";
  return { title: `${verdict} · ${W.rulesetName(m.ruleset)}`, detail: `${who}${score}${when}` };
}

/**
 * The graph of a family's ratings: each ranked match a point, left to right in time order,
 * the rating up; inside a box of `width` × `height` less its margins (`left`, `right`, `top`,
 * `bottom`, where the labels go). `path` is the SVG line; `low` and `high` the ratings at the
 * bottom and top lines.
 * @param {RatingPoint[]} points
 * @param {{width: number, height: number, left: number, right: number, top: number, bottom: number}} box
 */
export function graphGeometry(points, box) {
  const ratings = points.map((p) => p.rating);
  let low = Math.min(...ratings);
  let high = Math.max(...ratings);
  if (high - low < 1) {
    low -= 0.5;
    high += 0.5;
  }
  const first = points[0].at;
  const span = points[points.length - 1].at - first;
  const w = box.width - box.left - box.right;
  const h = box.height - box.top - box.bottom;
  const dots = points.map((p, i) => ({
    // by time; points of one instant (or a single one) spread by their order
    x: box.left + (span > 0 ? ((p.at - first) / span) * w : points.length > 1 ? (i / (points.length - 1)) * w : w / 2),
    y: box.top + (1 - (p.rating - low) / (high - low)) * h,
    point: p,
  }));
  const path = dots.map((d, i) => `${i ? "L" : "M"}${d.x.toFixed(1)} ${d.y.toFixed(1)}`).join(" ");
  return { dots, path, low, high };
}

/**
 * What the graph says, for a screen reader and as its title.
 * @param {string} label the family's name @param {RatingPoint[]} points
 */
export function graphText(label, points) {
  const first = points[0];
  const last = points[points.length - 1];
  const games = points.length === 1 ? "1 partida ranqueada" : `${num(points.length)} partidas ranqueadas`;
  return `${label}: de ${dec(first.rating)} a ${dec(last.rating)} em ${games}, de ${dayText(first.at)} a ${dayText(last.at)}`;
}
