// @ts-check
// What the lobby (lobby.js) writes about tables, matches and events, and the event it asks the
// server to create: pure functions of the server's answers and the form's values, no DOM.

import { signed } from "./dom.js";
import * as W from "./words.js";

/** How each kind of table is called in the lists. @type {Record<string, string>} */
export const MODES = {
  casual: "casual",
  ranked: "ranqueada",
  friends: "amigos",
  bots: "só bots",
  tournament: "torneio",
};

/** @param {string} mode */
export const modeName = (mode) => MODES[mode] ?? mode;

/** How many seats a ruleset has (undefined for one this client does not know). @param {string} ruleset */
export const seatsOf = (ruleset) => /** @type {Record<string, {seats: number}>} */ (W.RULESETS)[ruleset]?.seats;

/** @param {{seats: number}} rs a ruleset as /api/rulesets describes it */
export const seatsText = (rs) => (rs.seats === 4 ? "2 contra 2" : "1 contra 1");

/**
 * A seat's name in a table's list: a player's nickname, a bot's table name, "vago" where nobody
 * sits.
 * @param {string | null} name the seat's name, "bot:LEVEL" for a bot
 * @param {number} seat
 */
export const seatLabel = (name, seat) => (W.botLevelOf(name ?? "") ? W.seatName({ bot: true }, seat) : name || "vago");

/**
 * A table's seats in a list, "(BOT)" after a bot account's name (read aloud; the page shows the
 * mark).
 * @param {(string | null)[]} names the seats' names, "bot:LEVEL" for a bot
 * @param {number[]} [botAccounts] the seats bot accounts hold
 */
export function playersText(names, botAccounts = []) {
  return names.map((n, i) => seatLabel(n, i) + (botAccounts.includes(i) ? " (BOT)" : "")).join(", ");
}

/**
 * @typedef {{ruleset: string, seat: number, mode: string, score: number[] | null,
 *   result: {winner: number} | null, rating_before: number | null, rating_after: number | null}}
 *   PlayedMatch one match of a player's history (/api/players/NAME)
 */

/**
 * One match of the profile's history: whether the player's side won, and the line under it
 * (the kind of table, the final score, how the rating moved).
 * @param {PlayedMatch} g
 * @returns {{won: boolean | null, detail: string}}
 */
export function historyLine(g) {
  const n = seatsOf(g.ruleset) ?? 2;
  const won = g.result ? g.result.winner === W.teamOf(g.seat, n) : null;
  const change = g.rating_after !== null && g.rating_before !== null ? g.rating_after - g.rating_before : null;
  const detail =
    `${modeName(g.mode)}${g.score ? ` · ${g.score.join(" × ")}` : ""}` +
    `${change !== null ? ` · ranking ${signed(change)}` : ""}`;
  return { won, detail };
}

/** A date as a datetime-local field shows it, in the browser's time zone: "2025-03-09T18:05". */
export function localInput(/** @type {Date} */ date) {
  const pad = (/** @type {number} */ n) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * @typedef {{name: string, format: string, ruleset: string, options: Record<string, number>,
 *   capacity: string, private: boolean, rounds: string, bestOf: string,
 *   duration: string, start: string, bots: string, botAccounts?: boolean}} TourneyForm
 *   the event form's values as its fields hold them ("" for an empty field or no bots)
 * @typedef {{name: string, format: string, ruleset: string, options: Record<string, number>,
 *   capacity: number | null, private: boolean, rounds?: number | null,
 *   best_of?: number, duration?: number, starts_at?: number, starts_in?: number, bots?: string,
 *   bot_accounts?: boolean}}
 *   TourneyRequest what POST /api/tournaments receives
 */

/**
 * The request that creates an event from the form: only the fields of its format; a start
 * already past (or `now`) starts it now, and no start at all starts it at once.
 * @param {TourneyForm} form @param {number} now milliseconds since the epoch
 * @returns {TourneyRequest}
 */
export function tourneyRequest(form, now) {
  /** @type {TourneyRequest} */
  const body = {
    name: form.name.trim(),
    format: form.format,
    ruleset: form.ruleset,
    options: form.options,
    capacity: Number(form.capacity) || null,
    private: form.private,
  };
  if (form.format === "swiss") body.rounds = Number(form.rounds) || null;
  if (form.format === "knockout") body.best_of = Number(form.bestOf);
  if (form.format === "arena") body.duration = (Number(form.duration) || 30) * 60;
  const start = form.start ? new Date(form.start).getTime() / 1000 : NaN;
  if (Number.isFinite(start)) body.starts_at = Math.max(start, now / 1000);
  else body.starts_in = 0;
  if (form.bots) body.bots = form.bots;
  if (form.botAccounts) body.bot_accounts = true;
  return body;
}
