// @ts-check
// What the page says for a moment: banners over the table ("Galo!", "+10"), the list that
// screen readers read (its lines: speak.js), notices under the top bar (errors, "Sem conexão."), and the connection's
// bar.

import { h, need } from "../dom.js";
import { ctx, isUs } from "./state.js";

export const NOTICE_MS = 4000; // how long a notice (an error, a reconnection) stays

/** How many lines the list of announcements keeps: a whole match's, so that a screen reader can
 * walk back through them (it reads each as it comes). */
const ANNOUNCEMENTS_KEPT = 600;

/**
 * A line for the list that screen readers read ("Avisos da mesa"; speak.js decides what goes
 * there: the banners only show).
 * @param {string} text
 */
export function announce(text) {
  const log = need("#announcements");
  log.append(h("li", {}, text));
  while (log.children.length > ANNOUNCEMENTS_KEPT) log.firstElementChild?.remove();
}

/** @typedef {"big" | "pass" | "points" | "info"} BannerKind */

// A banner shows when its news comes, or not at all: a late one would tell of a table that has
// moved on. A weightier one ("Galo!") is not replaced by a lighter one ("+5") for a moment.
/** @type {Record<BannerKind, number>} */
const BANNER_RANK = { big: 3, pass: 2, points: 1, info: 1 };

/** @type {Record<BannerKind, number>} */
const BANNER_MS = { big: 2000, pass: 1600, points: 1200, info: 1600 };

const BANNER_HOLD_MS = 800;

/**
 * `team`: whose news it is (its colour; none for everyone's news or a spectator).
 * @param {string} title
 * @param {string} [sub]
 * @param {BannerKind} [kind]
 * @param {number | null} [team]
 */
export function banner(title, sub = "", kind = "info", team = null) {
  const st = ctx.state;
  // Nothing shows behind the hand's summary or at the end of the match: they tell it.
  if (need("#overlay").dataset.kind === "summary" || (st && st.status === "finished")) return;
  const rank = BANNER_RANK[kind] ?? 1;
  const now = performance.now();
  const current = ctx.banner;
  if (current && rank < current.rank && now - current.since < BANNER_HOLD_MS) return;
  clearBanner();
  const side = team === null || team === undefined || !st || st.seat === null
    ? ""
    : isUs(team) ? " team-us" : " team-them";
  const el = h(
    "div",
    { class: `banner banner-${kind}${side}`, "data-testid": "banner" },
    h("strong", {}, title),
    sub ? h("span", {}, sub) : null,
  );
  need("#banner-host").replaceChildren(el);
  /** @type {NonNullable<typeof ctx.banner>} */
  const shown = { el, rank, since: now, timer: undefined };
  shown.timer = setTimeout(() => {
    el.classList.add("banner-out");
    shown.timer = setTimeout(() => {
      el.remove();
      if (ctx.banner === shown) ctx.banner = null;
    }, 220);
  }, BANNER_MS[kind] ?? 1600);
  ctx.banner = shown;
}

export function clearBanner() {
  if (ctx.banner) clearTimeout(ctx.banner.timer);
  ctx.banner = null;
  need("#banner-host").replaceChildren();
}

/** Each notice's timer, until it goes. */
/** @type {WeakMap<Element, ReturnType<typeof setTimeout>>} */
const noticeTimers = new WeakMap();

/**
 * A short notice under the top bar, away from the board and the hand. The same text again only
 * renews it (and counts it); at most one shows on a phone and two on a larger screen, the newest.
 * @param {string} message
 * @param {"info" | "error"} [kind]
 */
export function notify(message, kind = "info") {
  const list = need("#notice-list");
  const text = String(message);
  let item = /** @type {HTMLElement[]} */ ([...list.children]).find((el) => el.dataset.text === text);
  if (item) {
    const times = Number(item.dataset.times) + 1;
    item.dataset.times = String(times);
    need(".notice-times", HTMLElement, item).textContent = `×${times}`;
    list.append(item); // the newest goes last
  } else {
    item = h(
      "div",
      { class: `notice notice-${kind}`, "data-testid": "notice", dataset: { text, times: "1" } },
      h("span", { class: "notice-text" }, text),
      h("span", { class: "notice-times", "aria-hidden": "true" }),
    );
    list.append(item);
  }
  clearTimeout(noticeTimers.get(item));
  const shown = item;
  noticeTimers.set(shown, setTimeout(() => shown.remove(), NOTICE_MS));
  const most = matchMedia("(max-width: 699px)").matches ? 1 : 2;
  for (let first = list.firstElementChild; first && list.children.length > most; first = list.firstElementChild) {
    clearTimeout(noticeTimers.get(first));
    first.remove();
  }
}

/** The notices go, but for the errors (they stay their time). */
export function clearNotices() {
  for (const el of [...need("#notice-list").children]) {
    if (!el.classList.contains("notice-error")) {
      clearTimeout(noticeTimers.get(el));
      el.remove();
    }
  }
}

/**
 * The bar that says the connection was lost, and that it is back.
 * @param {import("../socket.js").Status} status
 */
export function showConnection(status) {
  const bar = need("#connection");
  need("#app").dataset.connection = status;
  if (status === "online" || status === "connecting") {
    if (!bar.hidden && status === "online") {
      bar.textContent = "Conectado de novo.";
      bar.dataset.kind = "ok";
      setTimeout(() => {
        if (need("#app").dataset.connection === "online") bar.hidden = true;
      }, 1500);
    }
    return;
  }
  bar.hidden = false;
  bar.dataset.kind = "warn";
  bar.textContent =
    status === "reconnecting" ? "Conexão perdida. Reconectando…" : "Sem conexão com a mesa.";
}
