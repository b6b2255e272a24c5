// @ts-check
// "Desafiar": the dialog that challenges a friend, on any page that offers it (the lobby's
// friends, a profile). One against one, the friend is the opponent; in duplas the friend sits as
// your partner by default, and you choose who sits in each of the other seats: friends online
// now, or bots. Everyone invited must accept within the challenge's time (server: 60 s).

import * as api from "./api.js";
import { challengeSeats, namesText, SEAT_LABELS } from "./challenge-text.js";
import { fill, h, toast } from "./dom.js";
import * as W from "./words.js";

/** @typedef {{id: number, name: string}} Friend */
/** @typedef {{name: string, seats: number}} RulesetInfo */

const PREFS = "carroca:prefs";
const TIMES = [
  ["20", "20 segundos"],
  ["40", "40 segundos"],
  ["60", "1 minuto"],
];

/** @type {{rulesets: RulesetInfo[], bots: string[]} | null} */
let known = null;

/** @param {unknown} e */
const messageOf = (e) => (e instanceof Error ? e.message : String(e));

function savedRuleset() {
  try {
    return String(JSON.parse(localStorage.getItem(PREFS) || "{}").challengeRuleset || "mano-a-mano");
  } catch {
    return "mano-a-mano";
  }
}

/** @param {string} name */
function saveRuleset(name) {
  try {
    const prefs = JSON.parse(localStorage.getItem(PREFS) || "{}");
    localStorage.setItem(PREFS, JSON.stringify({ ...prefs, challengeRuleset: name }));
  } catch {
    /* private mode */
  }
}

/**
 * One seat's choice: the friends offered (the challenged one first), then the bots.
 * @param {string} id @param {string} label @param {Friend[]} friends @param {string[]} bots
 * @param {string} chosen
 */
function seatSelect(id, label, friends, bots, chosen) {
  return h(
    "div",
    { class: "field" },
    h("label", { for: id }, label),
    h(
      "select",
      { id },
      ...friends.map((f) => h("option", { value: `player:${f.id}`, selected: chosen === `player:${f.id}` }, f.name)),
      ...bots.map((b) => h("option", { value: `bot:${b}`, selected: chosen === `bot:${b}` }, `Bot ${W.botLevelName(b)}`)),
    ),
  );
}

/**
 * Open the dialog to challenge `target`. `online`: the friends who may be seated too (online
 * now); the target is always offered.
 * @param {Friend} target @param {Friend[]} online
 */
export async function openChallenge(target, online) {
  if (!known) {
    try {
      const [rulesets, bots] = await Promise.all([api.rulesets(), api.bots()]);
      known = { rulesets, bots: W.sortBotLevels(bots) };
    } catch (e) {
      toast(messageOf(e), "error");
      return;
    }
  }
  const { rulesets, bots } = known;
  const others = online.filter((f) => f.id !== target.id);
  const friends = [target, ...others];
  document.getElementById("challenge-dialog")?.remove();
  const ruleset = /** @type {HTMLSelectElement} */ (
    h(
      "select",
      { id: "challenge-ruleset" },
      ...rulesets.map((rs) =>
        h("option", { value: rs.name, selected: rs.name === savedRuleset() }, `${W.rulesetName(rs.name)} (${rs.seats === 4 ? "2 contra 2" : "1 contra 1"})`),
      ),
    )
  );
  const time = /** @type {HTMLSelectElement} */ (h("select", { id: "challenge-time" }, ...TIMES.map(([v, t]) => h("option", { value: v }, t))));
  const seats = h("div", { class: "seats-grid", id: "challenge-seats" });
  const error = h("p", { class: "form-error", role: "alert", id: "challenge-error" });
  const drawSeats = () => {
    const n = rulesets.find((rs) => rs.name === ruleset.value)?.seats ?? 2;
    if (n === 2) {
      fill(seats, h("p", {}, `${SEAT_LABELS[2][1]}: `, h("strong", {}, target.name)));
      return;
    }
    // The target as partner; the opponents: other friends online, else bots.
    const fallback = `bot:${bots.includes("medium") ? "medium" : bots[0]}`;
    const pick = (/** @type {number} */ k) => (others[k] ? `player:${others[k].id}` : fallback);
    fill(
      seats,
      seatSelect("challenge-seat-2", SEAT_LABELS[4][2], friends, bots, `player:${target.id}`),
      seatSelect("challenge-seat-1", SEAT_LABELS[4][1], friends, bots, pick(0)),
      seatSelect("challenge-seat-3", SEAT_LABELS[4][3], friends, bots, pick(1)),
      others.length < 2 ? h("p", { class: "help" }, "Só amigos online aparecem; nos outros lugares, bots.") : null,
    );
  };
  ruleset.addEventListener("change", () => {
    saveRuleset(ruleset.value);
    error.textContent = "";
    drawSeats();
  });
  const send = /** @type {HTMLButtonElement} */ (h("button", { class: "btn btn-primary", type: "submit" }, "Enviar desafio"));
  const form = h(
    "form",
    { novalidate: "" },
    h("div", { class: "field" }, h("label", { for: "challenge-ruleset" }, "Modalidade"), ruleset),
    h("fieldset", { class: "seats-box" }, h("legend", {}, "Lugares"), seats),
    h("div", { class: "field" }, h("label", { for: "challenge-time" }, "Tempo por jogada"), time),
    error,
    h(
      "div",
      { class: "dialog-actions" },
      send,
      h("button", { class: "btn btn-ghost", type: "button", onclick: () => dialog.close() }, "Cancelar"),
    ),
  );
  const dialog = /** @type {HTMLDialogElement} */ (
    h("dialog", { class: "dialog", id: "challenge-dialog", "aria-labelledby": "challenge-title" }, h("h2", { id: "challenge-title" }, `Desafiar ${target.name}`), form)
  );
  dialog.addEventListener("close", () => dialog.remove());
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    const n = rulesets.find((rs) => rs.name === ruleset.value)?.seats ?? 2;
    const picks =
      n === 2
        ? [`player:${target.id}`]
        : ["#challenge-seat-1", "#challenge-seat-2", "#challenge-seat-3"].map((sel) => /** @type {HTMLSelectElement} */ (form.querySelector(sel)).value);
    const chosen = challengeSeats(picks);
    if (chosen.seats === null) {
      error.textContent = chosen.error;
      return;
    }
    send.disabled = true;
    try {
      await api.post("/api/challenges", { ruleset: ruleset.value, seats: chosen.seats, turn_seconds: Number(time.value) });
      const names = picks.filter((p) => p.startsWith("player:")).map((p) => friends.find((f) => `player:${f.id}` === p)?.name ?? "");
      dialog.close();
      toast(`Desafio enviado para ${namesText(names)}. Esperando a resposta…`, "ok");
    } catch (e) {
      send.disabled = false;
      error.textContent = messageOf(e);
    }
  });
  drawSeats();
  document.body.append(dialog);
  dialog.showModal();
}
