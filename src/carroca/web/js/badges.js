// @ts-check
// The "BOT" mark by a bot account's name (an account played by a program through the Bot API),
// the same wherever a name shows: the table, friends, the lobby's lists, replays, events and
// profiles.

import { h } from "./dom.js";

/** What the mark says to whoever points at it or reads it aloud. */
export const BOT_ACCOUNT_TITLE = "Conta de bot: jogada por um programa";

/** The mark itself. */
export const botBadge = () => h("span", { class: "badge badge-bot", title: BOT_ACCOUNT_TITLE }, "BOT");

/**
 * A name followed by the mark when a bot account holds it.
 * @param {string} name @param {boolean} bot
 * @returns {(string | HTMLElement)[]}
 */
export const markedName = (name, bot) => (bot ? [name, " ", botBadge()] : [name]);
