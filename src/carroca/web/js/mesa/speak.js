// @ts-check
// What the table says to a screen reader (../speech.js writes the sentences): each action,
// points, the end of a hand and of the match, the turn and the clock's warnings, through the
// live list "Avisos da mesa", as much as the player's setting asks; the review of the table
// asked for with a key; the list of the hand's actions that a screen reader can walk; and the
// settings, remembered in this browser.

import { fill, h, need } from "../dom.js";
import * as S from "../speech.js";
import { announce } from "./notices.js";
import { ctx, current, nameOf } from "./state.js";

const VERBOSITY_KEY = "carroca.fala";
const HOLD_KEY = "carroca.esperar";
const MORE_TIME_KEY = "carroca.mais-tempo";

/**
 * A setting of this player's kept in the browser for the next visits; storage refused (a private
 * window) keeps it for this visit only.
 * @param {string} key @param {string} value
 */
function keep(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // not kept: the setting still holds until the page closes
  }
}

/** @returns {S.Verbosity} */
export function verbosity() {
  let saved = null;
  try {
    saved = localStorage.getItem(VERBOSITY_KEY);
  } catch {
    // storage refused (a private window): everything is said
  }
  return saved === "outros" || saved === "vez" ? saved : "tudo";
}

/** Whether the table waits for this player at the end of each hand (the summary's "Continuar"). */
export function holdsSummary() {
  try {
    return localStorage.getItem(HOLD_KEY) === "1";
  } catch {
    return false;
  }
}

/** Whether the player asked for more time on their turns ("mais tempo"), where a table gives it. */
export function wantsMoreTime() {
  try {
    return localStorage.getItem(MORE_TIME_KEY) === "1";
  } catch {
    return false;
  }
}

/**
 * Whether this table gives a player more time: casual and friends' tables (ranked and
 * tournament ones keep the same clock for everyone, and refuse it).
 * @param {import("../frames.js").State} st
 */
export const givesMoreTime = (st) => st.mode === "casual" || st.mode === "friends";

/**
 * Say these lines, those that the player's setting keeps, each once.
 * @param {S.Line[]} lines
 */
export function say(lines) {
  const mode = verbosity();
  const me = ctx.state ? ctx.state.seat : null;
  for (const line of lines) {
    if (line.kind === "play") remember(line.text);
    if (S.isSaid(line, mode, me)) announce(line.text);
  }
}

/** The last actions heard (for the review and the turn's line at the "vez" setting). */
const recent = /** @type {string[]} */ ([]);

/** @param {string} text */
function remember(text) {
  recent.push(text.replace(/\.$/, ""));
  while (recent.length > 4) recent.shift();
}

/** The last action said, or null. */
export const lastAction = () => (recent.length ? `${recent[recent.length - 1]}.` : null);

/** The review of the table, said at once and shown in the side panel. */
export function review() {
  const st = ctx.state;
  if (!st) return;
  const names = st.players.map((_, i) => nameOf(i));
  const text = S.reviewText(st, names, recent.slice(-3));
  const live = need("#review-live");
  // Emptied first: the same review asked twice is said twice.
  live.textContent = "";
  setTimeout(() => {
    live.textContent = text;
  }, 60);
  need("#review-text").textContent = text;
}

/** The time left of the player's turn, said on demand. */
export function sayTime() {
  const c = ctx.clock;
  const st = ctx.state;
  if (!st || !c || st.status !== "playing") {
    announce("Sem relógio agora.");
    return;
  }
  const secs = Math.ceil(Math.max(0, c.deadline - performance.now()) / 1000);
  const who = c.seat === st.seat ? "Você tem" : `${nameOf(c.seat)} tem`;
  announce(`${who} ${secs} segundos.`);
}

/** Seconds left at which the player's own turn is announced. */
const WARNINGS = [10, 5];

/**
 * The clock's spoken warnings: "Faltam 10 segundos", then 5, once each per turn of the player
 * (a turn shorter than a warning does not get it).
 * @param {number} secs seconds left
 */
export function warnTime(secs) {
  const st = ctx.state;
  const c = ctx.clock;
  if (!st || !c || c.seat !== st.seat || st.seat === null) return;
  const turn = `${st.version}:${c.seat}`;
  if (warned.turn !== turn) {
    warned.turn = turn;
    warned.said = new Set(WARNINGS.filter((w) => w >= c.seconds));
  }
  for (const w of WARNINGS) {
    if (secs <= w && secs > 0 && !warned.said.has(w)) {
      warned.said = new Set([...warned.said, ...WARNINGS.filter((x) => x >= w)]);
      say([{ kind: "time", text: `Faltam ${w} segundos para jogar!` }]);
    }
  }
}
const warned = { turn: "", said: /** @type {Set<number>} */ (new Set()) };

/** The list of the current hand's actions, from the state (the side panel's "Jogadas da mão"). */
export function renderMoves() {
  const st = current();
  const v = st.view;
  if (ctx.pause || !v) return; // the hand that ended stays listed during the pause
  const names = st.players.map((_, i) => nameOf(i));
  const key = `${v.deal_index}:${v.steps.length}`;
  const list = need("#moves");
  if (list.dataset.key === key) return;
  list.dataset.key = key;
  const items = v.steps.map((step, i) =>
    h("li", {}, `${S.stepSentence(step, names[step.seat], { opening: i === 0 && step.type === "pass" && st.ruleset === "duplas-pontos" })}.`),
  );
  fill(list, ...(items.length ? items : [h("li", {}, `Mão ${v.hand_number + 1}: nenhuma jogada ainda.`)]));
}

/**
 * The hand that ended closes its list with how it ended.
 * @param {string} text
 */
export function endMoves(text) {
  const list = need("#moves");
  list.dataset.key = "";
  list.append(h("li", {}, text));
}

/** The settings in the side panel: how much is said, and waiting at the end of a hand. */
export function bindSettings() {
  const select = need("#fala", HTMLSelectElement);
  for (const [value, label] of Object.entries(S.VERBOSITY)) select.append(h("option", { value }, label));
  select.value = verbosity();
  select.addEventListener("change", () => {
    keep(VERBOSITY_KEY, select.value);
    announce(`Avisos: ${S.VERBOSITY[/** @type {S.Verbosity} */ (select.value)] ?? select.value}.`);
  });
  const hold = need("#esperar", HTMLInputElement);
  hold.checked = holdsSummary();
  hold.addEventListener("change", () => {
    keep(HOLD_KEY, hold.checked ? "1" : "0");
    sendHold();
  });
  const more = need("#mais-tempo", HTMLInputElement);
  more.checked = wantsMoreTime();
  more.addEventListener("change", () => {
    keep(MORE_TIME_KEY, more.checked ? "1" : "0");
    const st = ctx.state;
    if (st && !givesMoreTime(st)) {
      announce(`${more.checked ? "Mais tempo guardado" : "Mais tempo desligado"}: ${NO_MORE_TIME}`);
    } else {
      announce(more.checked
        ? "Mais tempo ligado: o dobro do tempo da mesa em cada vez sua. Os outros veem."
        : "Mais tempo desligado: a próxima vez sua tem o tempo da mesa.");
    }
    sendMoreTime();
  });
  need("#btn-review").addEventListener("click", review);
}

const NO_MORE_TIME = "nas ranqueadas e nos torneios o tempo é igual para todos; vale nas mesas casuais e de amigos.";

/** The setting's note: what it gives at this table. */
export function renderMoreTime() {
  const st = ctx.state;
  if (!st) return;
  const note = need("#mais-tempo-nota");
  const seconds = st.turn_seconds * S.MORE_TIME;
  const text = !givesMoreTime(st)
    ? `Nesta mesa não: ${NO_MORE_TIME}`
    : st.seat === null
      ? "Vale quando você joga numa mesa casual ou de amigos."
      : `Nesta mesa, ${seconds} segundos em vez de ${st.turn_seconds}. Os outros veem.`;
  if (note.textContent !== text) note.textContent = text;
}

/** Tell the table whether this player's turns get more time (where the table gives it). */
export function sendMoreTime() {
  const st = ctx.state;
  if (!st || st.seat === null || !ctx.socket || st.status === "finished" || !givesMoreTime(st)) return;
  ctx.socket.send("more_time", { match: ctx.matchId, on: wantsMoreTime() });
}

let moreTimeSentOn = -1;

/** Once seated, whenever the table has another setting than the player's (the server keeps it
 * in memory: a new table, a restarted server or the one a table moved to does not know it): it is
 * told, once a connection until the table has it. */
export function moreTimeOnce() {
  const st = ctx.state;
  const connects = ctx.connects ?? 0;
  if (!st || st.seat === null) return;
  if (wantsMoreTime() === st.more_time.includes(st.seat)) {
    moreTimeSentOn = -1;
    return;
  }
  if (moreTimeSentOn === connects) return;
  moreTimeSentOn = connects;
  sendMoreTime();
}

/** Tell the table whether to wait for this player at the end of each hand. */
export function sendHold() {
  const st = ctx.state;
  if (!st || st.seat === null || !ctx.socket || st.status === "finished") return;
  ctx.socket.send("hold", { match: ctx.matchId, on: holdsSummary() });
}

let holdSentOn = -1;

/** Once per connection, once seated: the table learns whether to wait for this player. */
export function holdOnce() {
  const st = ctx.state;
  const connects = ctx.connects ?? 0;
  if (!st || st.seat === null || holdSentOn === connects || !holdsSummary()) return;
  holdSentOn = connects;
  sendHold();
}

/** The player read the hand's summary: the table need not wait for them any more. */
export function sendReady() {
  const st = ctx.state;
  if (!st || st.seat === null || !ctx.socket || !st.pause) return;
  ctx.socket.send("ready", { match: ctx.matchId });
}
