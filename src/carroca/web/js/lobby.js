// @ts-check
// The entry and lobby page (index.html): sign in, play in one tap, friends' tables, live tables,
// profile and ranking (behind tabs on a phone). Query parameters: ?convite=CODE joins a friends'
// table after signing in; ?proximo=/mesa.html?id=... returns there after signing in (an address
// on this site only).

import { bindAccount, showAccount } from "./account.js";
import { bindBotApi, showBotApi } from "./bot-tokens.js";
import * as api from "./api.js";
import { markedName } from "./badges.js";
import { showMyReports, showSanctions } from "./lobby-moderation.js";
import { showAnnouncement } from "./announce.js";
import { dec, fill, h, need, num, param, randomSeed, sameOriginPath, toast } from "./dom.js";
import { historyLine, localInput, modeName, playersText, seatLabel, seatsOf, seatsText, tourneyRequest } from "./lobby-text.js";
import { profileNamed, ratingBoxes } from "./perfil-text.js";
import { onFriendsFrame, showFriends } from "./friends.js";
import { Socket } from "./socket.js";
import { tileSVG } from "./tiles.js";
import { callToTable } from "./tourneys.js";
import * as W from "./words.js";

/**
 * @typedef {{name: string, kind: string}} Player the signed-in player (/api/session)
 * @typedef {{name: string, seats: number, description: string,
 *   options: Record<string, boolean | number>}} RulesetInfo one ruleset of /api/rulesets
 * @typedef {{me: Player | null, rulesets: RulesetInfo[], bots: string[],
 *   socket: {connect: () => void} | null, queuedAt: number, queueTimer: number | undefined,
 *   rankFamily: string, tourneyTimer: number | undefined, tourneysMine: Set<string>}} Lobby
 */

/** @type {Lobby} */
const state = {
  me: null,
  rulesets: [],
  bots: [],
  socket: null,
  queuedAt: 0,
  queueTimer: undefined,
  rankFamily: "duplas",
  tourneyTimer: undefined,
  tourneysMine: new Set(),
};

/** The signed-in player: everything past the entry forms is drawn for them. */
function me() {
  if (!state.me) throw new Error("lobby: nobody signed in");
  return state.me;
}

/**
 * api.logout as it behaves (api.js is not type-checked yet: its defaults alone would say that
 * `name` is always null).
 * @type {(how: {forgetDevice?: boolean, name?: string | null}) => Promise<unknown>}
 */
const logout = /** @type {any} */ (api.logout);

/** @param {unknown} e */
const messageOf = (e) => (e instanceof Error ? e.message : String(e));

/** The buttons, fields and lists the lobby reads back (the selectors name what they hold). */
const buttonsIn = (/** @type {string} */ sel) => /** @type {HTMLButtonElement[]} */ ([...document.querySelectorAll(sel)]);
const fieldsIn = (/** @type {string} */ sel) => /** @type {HTMLInputElement[]} */ ([...document.querySelectorAll(sel)]);
const elementsIn = (/** @type {string} */ sel) => /** @type {HTMLElement[]} */ ([...document.querySelectorAll(sel)]);
/** A form control the page always has (an input, a select or a textarea). */
const control = (/** @type {string} */ sel) =>
  /** @type {HTMLElement & {value: string, checked: boolean, disabled: boolean}} */ (need(sel));
const field = (/** @type {string} */ sel) => /** @type {HTMLInputElement | null} */ (document.querySelector(sel));
/** The form's submit button. @param {Event} ev */
const submitOf = (ev) => /** @type {HTMLButtonElement} */ (/** @type {HTMLFormElement} */ (ev.target).querySelector("button[type=submit]"));

const PREFS = "carroca:prefs";

function prefs() {
  try {
    return JSON.parse(localStorage.getItem(PREFS) || "{}");
  } catch {
    return {};
  }
}

/** @param {...string} keys */
function forgetPrefs(...keys) {
  const kept = prefs();
  for (const key of keys) delete kept[key];
  try {
    localStorage.setItem(PREFS, JSON.stringify(kept));
  } catch {
    /* private mode */
  }
}

/** @param {Record<string, string>} update */
function savePrefs(update) {
  try {
    localStorage.setItem(PREFS, JSON.stringify({ ...prefs(), ...update }));
  } catch {
    /* private mode */
  }
}

// ---------------------------------------------------------------------- start

async function main() {
  heroTiles();
  bindEntry();
  bindSignOut();
  bindAccount();
  bindBotApi();
  let who = null;
  try {
    who = await api.session();
  } catch (e) {
    notice(messageOf(e), "error");
  }
  if (!who) {
    showEntry();
    return;
  }
  const next = sameOriginPath(param("proximo"));
  if (next && !param("convite")) {
    location.replace(next);
    return;
  }
  await signedIn(who);
}

function heroTiles() {
  const host = need("#hero-tiles");
  // A little line of play: 6-6, then 6-3, 3-5, 5-5 and 5-1, each touching the last.
  /** @type {[string, boolean?][]} */
  const line = [["6-6"], ["3-6", true], ["3-5"], ["5-5"], ["1-5", true]];
  for (const [t, flip] of line) host.append(tileSVG(t, { horizontal: t[0] !== t[2], flip }));
}

/** @param {string} message @param {string} [kind] */
function notice(message, kind = "info") {
  fill(need("#notice"), message ? h("div", { class: `notice notice-${kind}`, role: "status" }, message) : null);
}

function showEntry() {
  const invited = Boolean(param("convite"));
  need("#entry").hidden = false;
  need("#entry").classList.toggle("invited", invited);
  need("#home").hidden = true;
  fill(need("#who"));
  if (invited) {
    notice("Você foi convidado para uma mesa de amigos. Escolha um apelido para sentar.", "invite");
  }
  const name = prefs().name || "";
  control("#guest-name").value = name;
  if (name && api.guestKeyFor(name)) {
    need("#guest-help").textContent = `Neste aparelho, o apelido ${name} continua seu: é só entrar de novo.`;
  }
  // The page opens at its top — the headline, or the invitation — never scrolled to the field.
  // A mouse user gets the cursor in the field; a phone would open its keyboard over the page.
  if (matchMedia("(hover: hover) and (pointer: fine)").matches) {
    need("#guest-name").focus({ preventScroll: true });
  }
}

async function afterSignIn() {
  const who = await api.session();
  if (!who) return;
  const next = sameOriginPath(param("proximo"));
  const invite = param("convite");
  if (invite) {
    await joinInvite(invite);
    return;
  }
  if (next) {
    location.assign(next);
    return;
  }
  await signedIn(who);
}

/** @param {string} code */
async function joinInvite(code) {
  const seed = randomSeed();
  try {
    const r = await api.joinInvite(code, seed);
    api.rememberSeed(r.id, seed);
    location.assign(`mesa.html?id=${encodeURIComponent(r.id)}`);
  } catch (e) {
    history.replaceState(null, "", "/");
    notice(messageOf(e), "error");
    const who = await api.session();
    if (who) await signedIn(who);
  }
}

/** @param {any} who the session */
async function signedIn(who) {
  state.me = who.player;
  const invite = param("convite");
  if (invite) {
    await joinInvite(invite);
    return;
  }
  need("#entry").hidden = true;
  need("#home").hidden = false;
  renderWho();
  showSanctions(who.sanctions);
  void showMyReports();
  try {
    let bots;
    [state.rulesets, bots] = await Promise.all([api.rulesets(), api.bots()]);
    state.bots = W.sortBotLevels(bots);
  } catch (e) {
    notice(messageOf(e), "error");
    return;
  }
  renderResume(who.tables);
  renderPlay();
  renderFriends();
  bindHome();
  if (who.queued) showQueue(who.queued);
  refreshTables();
  renderTourneyForm();
  refreshTourneys();
  renderProfile();
  renderRanking();
  showFriends(need("#friends-box"));
  openLobbySocket(); // friends' presence and challenges come on it
}

function renderWho() {
  const player = me();
  fill(
    need("#who"),
    h("span", { class: "avatar small", "aria-hidden": "true" }, player.name.slice(0, 1).toUpperCase()),
    h(
      "span",
      { class: "who-name" },
      player.name,
      player.kind === "guest" ? h("span", { class: "badge" }, "convidado") : null,
    ),
    h(
      "button",
      {
        class: "btn btn-ghost btn-small",
        type: "button",
        onclick: async () => {
          if (player.kind === "guest") {
            askSignOut();
            return;
          }
          await api.logout().catch(() => {});
          location.assign("/");
        },
      },
      "Sair",
    ),
  );
}

/** A guest signing out chooses: keep this device (tapping "Sair" again brings them back) or
 * forget it (a shared computer: the server ends the key, and the next person starts fresh). */
function askSignOut() {
  const dialog = need("#signout-dialog", HTMLDialogElement);
  need("#signout-error").textContent = "";
  dialog.showModal();
}

/** @param {boolean} forgetDevice */
async function signOut(forgetDevice) {
  const buttons = buttonsIn("#signout-dialog button");
  for (const b of buttons) b.disabled = true;
  try {
    await logout({ forgetDevice, name: me().name });
  } catch (e) {
    for (const b of buttons) b.disabled = false;
    need("#signout-error").textContent = messageOf(e);
    return;
  }
  if (forgetDevice) forgetPrefs("name");
  location.assign("/");
}

function bindSignOut() {
  need("#signout-keep").addEventListener("click", () => signOut(false));
  need("#signout-forget").addEventListener("click", () => signOut(true));
  need("#signout-cancel").addEventListener("click", () => need("#signout-dialog", HTMLDialogElement).close());
}

/** @param {string[] | null | undefined} tables the player's matches in progress */
function renderResume(tables) {
  const box = need("#resume");
  if (!tables || !tables.length) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  fill(
    box,
    h("span", {}, "Você tem uma partida em andamento."),
    h("a", { class: "btn btn-primary", href: `mesa.html?id=${encodeURIComponent(tables[0])}` }, "Voltar para a mesa"),
  );
}

// ---------------------------------------------------------------------- entry forms

function bindEntry() {
  const tabs = ["guest", "login", "register"];
  for (const name of tabs) {
    need(`#tab-${name}`).addEventListener("click", () => {
      for (const other of tabs) {
        need(`#tab-${other}`).setAttribute("aria-selected", String(other === name));
        need(`#form-${other}`).hidden = other !== name;
      }
      need(`#form-${name} input`).focus();
    });
  }
  onSubmit("#form-guest", "#guest-error", async () => {
    const name = control("#guest-name").value.trim();
    if (name.length < 3) throw new Error("Escolha um apelido de 3 a 20 letras.");
    await api.guest(name);
    savePrefs({ name });
  });
  onSubmit("#form-login", "#login-error", async () => {
    await api.login(control("#login-name").value.trim(), control("#login-password").value);
  });
  onSubmit("#form-register", "#register-error", async () => {
    await api.register(control("#register-name").value.trim(), control("#register-password").value);
  });
}

/** @param {string} formSel @param {string} errorSel @param {() => Promise<void>} action */
function onSubmit(formSel, errorSel, action) {
  const form = need(formSel);
  form.addEventListener("submit", async (/** @type {Event} */ ev) => {
    ev.preventDefault();
    const button = /** @type {HTMLButtonElement} */ (form.querySelector("button[type=submit]"));
    need(errorSel).textContent = "";
    button.disabled = true;
    try {
      await action();
      await afterSignIn();
    } catch (e) {
      need(errorSel).textContent = messageOf(e);
    } finally {
      button.disabled = false;
    }
  });
}

// ---------------------------------------------------------------------- play now and ranked

/** "Jogar agora": one big button for the last ruleset played (or chosen), and each ruleset
 * with a Jogar of its own — one tap to a table either way. The chosen ruleset also goes to the
 * ranked queue. */
function renderPlay() {
  let chosen = prefs().ruleset;
  if (!state.rulesets.some((rs) => rs.name === chosen)) chosen = "duplas-pontos";
  fill(
    need("#rs-list"),
    ...state.rulesets.map((rs) =>
      h(
        "div",
        { class: "rs-option", dataset: { ruleset: rs.name } },
        h(
          "label",
          { class: "rs-pick" },
          h("input", {
            type: "radio",
            name: "ruleset",
            value: rs.name,
            checked: rs.name === chosen,
            "aria-label": `${W.rulesetName(rs.name)}, ${seatsText(rs)}`,
            "aria-describedby": `rs-desc-${rs.name}`,
            onchange: () => choose(rs.name),
          }),
          h(
            "span",
            { class: "rs-text", "aria-hidden": "true" },
            h("span", { class: "rs-name" }, W.rulesetName(rs.name), h("span", { class: "rs-seats" }, seatsText(rs))),
            h("span", { class: "rs-desc", id: `rs-desc-${rs.name}` }, W.rulesSummary(rs.name, rs.options)),
          ),
        ),
        h(
          "button",
          {
            class: "btn btn-secondary btn-small rs-play",
            type: "button",
            "aria-label": `Jogar ${W.rulesetName(rs.name)} agora`,
            onclick: (/** @type {MouseEvent} */ ev) => {
              const input = field(`input[name=ruleset][value="${rs.name}"]`);
              if (input) input.checked = true;
              choose(rs.name);
              playCasual(rs.name, /** @type {HTMLButtonElement} */ (ev.currentTarget));
            },
          },
          "Jogar",
        ),
      ),
    ),
  );
  choose(chosen);
  // a saved level the server no longer offers falls back to Médio, not to the first option
  const level = state.bots.includes(prefs().bot) ? prefs().bot : "medium";
  fill(
    need("#bot-level"),
    ...state.bots.map((b) => h("option", { value: b, selected: b === level }, W.botLevelName(b))),
  );
}

function chosenRuleset() {
  const input = field("input[name=ruleset]:checked");
  return input ? input.value : "duplas-pontos";
}

/** The big button plays the chosen ruleset, and says which. @param {string} name */
function choose(name) {
  savePrefs({ ruleset: name });
  const rs = state.rulesets.find((r) => r.name === name);
  need("#rs-about").textContent = rs ? W.rulesSummary(rs.name, rs.options) : "";
  need("#casual-what").textContent = `${W.rulesetName(name)} · ${seatsOf(name) === 4 ? "2 contra 2" : "1 contra 1"}`;
}

/** @param {string} ruleset @param {HTMLButtonElement} button */
async function playCasual(ruleset, button) {
  button.disabled = true;
  const seed = randomSeed();
  try {
    const r = await api.casual(ruleset, control("#bot-level").value, seed, undefined, Number(control("#casual-time").value));
    api.rememberSeed(r.id, seed);
    location.assign(`mesa.html?id=${encodeURIComponent(r.id)}`);
  } catch (e) {
    toast(messageOf(e), "error");
    button.disabled = false;
  }
}

// ---------------------------------------------------------------------- tabs (phone)

const TABS = ["amigos", "mesas", "torneios", "ranking", "perfil"];

/** On a phone one panel shows at a time (CSS reads #home[data-tab]); on a wide screen every
 * panel shows and the tab bar is hidden.
 * @param {string} name @param {boolean} [focus]
 */
function showTab(name, focus = false) {
  need("#home").dataset.tab = name;
  for (const tab of TABS) {
    const button = need(`#tab-${tab}`);
    button.setAttribute("aria-selected", String(tab === name));
    button.tabIndex = tab === name ? 0 : -1;
  }
  if (focus) need(`#tab-${name}`).focus();
}

function bindTabs() {
  for (const tab of TABS) {
    const button = need(`#tab-${tab}`);
    button.addEventListener("click", () => showTab(tab));
    button.addEventListener("keydown", (/** @type {KeyboardEvent} */ ev) => {
      /** @type {Record<string, number>} */
      const steps = { ArrowRight: 1, ArrowLeft: -1 };
      const step = steps[ev.key];
      if (ev.key === "Home" || ev.key === "End") {
        ev.preventDefault();
        showTab(ev.key === "Home" ? TABS[0] : TABS[TABS.length - 1], true);
      } else if (step) {
        ev.preventDefault();
        showTab(TABS[(TABS.indexOf(tab) + step + TABS.length) % TABS.length], true);
      }
    });
  }
}

function bindHome() {
  bindTabs();
  need("#bot-level").addEventListener("change", (/** @type {Event} */ ev) =>
    savePrefs({ bot: /** @type {HTMLSelectElement} */ (ev.target).value }));
  const time = control("#casual-time");
  if (["20", "40", "60"].includes(prefs().turn)) time.value = prefs().turn;
  time.addEventListener("change", () => savePrefs({ turn: time.value }));
  need("#btn-casual").addEventListener("click", (/** @type {MouseEvent} */ ev) =>
    playCasual(chosenRuleset(), /** @type {HTMLButtonElement} */ (ev.currentTarget)));
  need("#btn-ranked").addEventListener("click", enterQueue);
  need("#btn-unqueue").addEventListener("click", async () => {
    await api.leaveRanked().catch(() => {});
    hideQueue();
  });
  need("#btn-refresh").addEventListener("click", refreshTables);
  need("#btn-tourney-refresh").addEventListener("click", refreshTourneys);
  need("#t-format").addEventListener("change", showFormatFields);
  need("#t-ruleset").addEventListener("change", renderTourneyOptions);
  need("#tourney-form").addEventListener("submit", createTourney);
  need("#friends-ruleset").addEventListener("change", renderFriendsDetails);
  need("#friends-form").addEventListener("submit", createFriends);
  need("#rank-duplas").addEventListener("click", () => {
    state.rankFamily = "duplas";
    renderRanking();
  });
  need("#rank-mano").addEventListener("click", () => {
    state.rankFamily = "mano";
    renderRanking();
  });
  need("#upgrade-form").addEventListener("submit", async (/** @type {Event} */ ev) => {
    ev.preventDefault();
    need("#upgrade-error").textContent = "";
    try {
      const r = await api.register(me().name, control("#upgrade-password").value);
      control("#upgrade-password").value = "";
      state.me = r.player;
      renderWho();
      renderProfile();
      toast("Conta criada! O seu apelido agora é seu.", "ok");
    } catch (e) {
      need("#upgrade-error").textContent = messageOf(e);
    }
  });
}

async function enterQueue() {
  const ruleset = chosenRuleset();
  const seed = randomSeed();
  openLobbySocket();
  try {
    const r = await api.ranked(ruleset, seed);
    if (r.status === "matched") {
      api.rememberSeed(r.id, seed);
      location.assign(`mesa.html?id=${encodeURIComponent(r.id)}`);
      return;
    }
    showQueue(ruleset);
  } catch (e) {
    toast(messageOf(e), "error");
    if (e instanceof api.ApiError && e.code === "account_required" && !need("#upgrade").hidden) {
      // Ranked is for accounts: the guest's own "create an account" form, one password away.
      showTab("perfil");
      need("#upgrade").scrollIntoView({ block: "center" });
      need("#upgrade-password").focus();
    }
  }
}

/** @param {string} ruleset */
function showQueue(ruleset) {
  openLobbySocket();
  need("#queue").hidden = false;
  need("#ranked-box").hidden = true;
  need("#queue-title").textContent = `Procurando adversários · ${W.rulesetName(ruleset)}`;
  state.queuedAt = Date.now();
  clearInterval(state.queueTimer);
  const update = () => {
    const secs = Math.floor((Date.now() - state.queuedAt) / 1000);
    need("#queue-time").textContent = `Na fila há ${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}`;
  };
  update();
  state.queueTimer = setInterval(update, 1000);
}

function hideQueue() {
  need("#queue").hidden = true;
  need("#ranked-box").hidden = false;
  clearInterval(state.queueTimer);
}

/**
 * The lobby's socket: friends' presence and challenges, the announcement, the calls of events,
 * and "matched" (a match of this player started). The socket is open whenever the lobby is, so
 * "matched" takes the player to the table only while the lobby waits for one (the ranked queue,
 * an event of theirs): a table they opened elsewhere must not move this page.
 */
function openLobbySocket() {
  if (state.socket) return;
  state.socket = new Socket({
    onFrame: (/** @type {string} */ type, /** @type {any} */ data) => {
      const waiting = !need("#queue").hidden || state.tourneysMine.size > 0;
      if (type === "matched" && waiting) location.assign(`mesa.html?id=${encodeURIComponent(data.match)}`);
      if (type === "announcement") showAnnouncement(data);
      // "Sua partida do torneio começou": an event this player is in paired them.
      if (type === "tournament") callToTable(data);
      onFriendsFrame(type, data); // presence, requests' answers, challenges
    },
  });
  state.socket.connect();
}

// ---------------------------------------------------------------------- friends' table

function renderFriends() {
  const chosen = prefs().friendsRuleset || "duplas-pontos";
  fill(
    need("#friends-ruleset"),
    ...state.rulesets.map((rs) =>
      h("option", { value: rs.name, selected: rs.name === chosen }, `${W.rulesetName(rs.name)} (${rs.seats === 4 ? "2 contra 2" : "1 contra 1"})`),
    ),
  );
  renderFriendsDetails();
}

function renderFriendsDetails() {
  const name = control("#friends-ruleset").value;
  savePrefs({ friendsRuleset: name });
  const rs = state.rulesets.find((r) => r.name === name);
  if (!rs) return;
  const fields = Object.entries(rs.options).map(([key, value]) => optionField(name, key, value));
  fill(need("#friends-options"), ...fields);
  /** @type {HTMLElement[]} */
  const seats = [];
  const labels =
    rs.seats === 4
      ? ["Você", "Adversário à sua esquerda", "Parceiro, na sua frente", "Adversário à sua direita"]
      : ["Você", "Adversário"];
  for (let seat = 1; seat < rs.seats; seat++) {
    const id = `seat-${seat}`;
    seats.push(
      h(
        "div",
        { class: "field" },
        h("label", { for: id }, labels[seat]),
        h(
          "select",
          { id, dataset: { seat } },
          // A friends' table waits for friends: a bot sits only where the host chooses one.
          h("option", { value: "open", selected: true }, "Amigo (pelo convite)"),
          ...state.bots.map((b) => h("option", { value: `bot:${b}` }, `Bot ${W.botLevelName(b)}`)),
        ),
      ),
    );
  }
  fill(need("#friends-seats"), ...seats);
}

/**
 * One option of a ruleset as a form field: a checkbox, a list of choices or a number.
 * @param {string} ruleset @param {string} key @param {boolean | number} value @param {string} [prefix]
 */
function optionField(ruleset, key, value, prefix = "opt") {
  /** @type {{label: string, choices?: number[]}} */
  const meta = /** @type {Record<string, {label: string, choices?: number[]}>} */ (W.OPTIONS)[key] || { label: key };
  const id = `${prefix}-${key}`;
  if (typeof value === "boolean") {
    return h(
      "label",
      { class: "field-check", for: id },
      h("input", { type: "checkbox", id, checked: value, dataset: { option: key, kind: "bool" } }),
      meta.label,
    );
  }
  const choices = key === "target" ? /** @type {Record<string, number[]>} */ (W.TARGETS)[ruleset] : meta.choices;
  if (choices) {
    return h(
      "div",
      { class: "field" },
      h("label", { for: id }, meta.label),
      h(
        "select",
        { id, dataset: { option: key, kind: "int" } },
        ...choices.map((c) => h("option", { value: c, selected: c === value }, String(c))),
      ),
    );
  }
  return h(
    "div",
    { class: "field" },
    h("label", { for: id }, meta.label),
    h("input", { id, type: "number", min: 1, max: 1000, step: 1, value, inputmode: "numeric", dataset: { option: key, kind: "int" } }),
  );
}

/** @param {Event} ev */
async function createFriends(ev) {
  ev.preventDefault();
  const button = submitOf(ev);
  need("#friends-error").textContent = "";
  const ruleset = control("#friends-ruleset").value;
  /** @type {Record<string, boolean | number>} */
  const options = {};
  for (const el of fieldsIn("#friends-options [data-option]")) {
    options[el.dataset.option ?? ""] = el.dataset.kind === "bool" ? el.checked : Number(el.value);
  }
  const seats = ["me", ...fieldsIn("#friends-seats select").map((s) => s.value)];
  const seed = randomSeed();
  button.disabled = true;
  try {
    const r = await api.friendsTable(ruleset, options, seats, Number(control("#friends-time").value), seed);
    api.rememberSeed(r.id, seed);
    location.assign(`mesa.html?id=${encodeURIComponent(r.id)}`);
  } catch (e) {
    need("#friends-error").textContent = messageOf(e);
    button.disabled = false;
  }
}

// ---------------------------------------------------------------------- tables

/**
 * A table's seats as the lobby lists them, the "BOT" mark after a bot account's name.
 * @param {(string | null)[]} names @param {number[]} botAccounts
 */
function playersLine(names, botAccounts) {
  return names.flatMap((n, i) => [...(i ? [", "] : []), ...markedName(seatLabel(n, i), botAccounts.includes(i))]);
}

async function refreshTables() {
  let data;
  try {
    data = await api.matches();
  } catch (e) {
    toast(messageOf(e), "error");
    return;
  }
  const live = data.live.map((/** @type {any} */ t) =>
    h(
      "li",
      { class: "table-item" },
      h(
        "div",
        { class: "table-text" },
        h("strong", {}, W.rulesetName(t.ruleset)),
        h("span", { class: "muted small" }, `${modeName(t.mode)} · `, ...playersLine(t.players, t.bot_accounts || [])),
        t.score ? h("span", { class: "small" }, `Placar ${t.score.join(" × ")}`) : null,
      ),
      t.mode === "casual" && t.status === "waiting" && t.open_seats > 0
        ? h(
            "button",
            {
              class: "btn btn-primary btn-small",
              type: "button",
              onclick: () => sitCasual(t.ruleset, t.bot_level, t.id),
              "aria-label": `Sentar na mesa de ${W.rulesetName(t.ruleset)}`,
            },
            "Sentar",
          )
        : h(
            "a",
            {
              class: "btn btn-ghost btn-small",
              href: `mesa.html?id=${encodeURIComponent(t.id)}`,
              "aria-label": `Assistir à mesa de ${W.rulesetName(t.ruleset)}: ${playersText(t.players, t.bot_accounts || [])}`,
            },
            "Assistir",
          ),
    ),
  );
  fill(need("#live-list"), ...(live.length ? live : [h("li", { class: "muted" }, "Nenhuma mesa no ar agora. Que tal abrir uma?")]));
  const done = data.finished.slice(0, 8).map((/** @type {any} */ m) =>
    h(
      "li",
      { class: "table-item" },
      h(
        "div",
        { class: "table-text" },
        h("strong", {}, W.rulesetName(m.ruleset)),
        h(
          "span",
          { class: "muted small" },
          `${modeName(m.mode)} · `,
          ...playersLine(
            (m.seats || []).map((/** @type {{name: string} | null} */ s) => (s ? s.name : "")),
            (m.seats || []).flatMap((/** @type {{bot_account?: boolean} | null} */ s, /** @type {number} */ i) => (s && s.bot_account ? [i] : [])),
          ),
        ),
        m.score ? h("span", { class: "small" }, `Placar final ${m.score.join(" × ")}`) : null,
      ),
      h(
        "a",
        {
          class: "btn btn-ghost btn-small",
          href: `replay.html?id=${encodeURIComponent(m.id)}`,
          "aria-label": `Ver o replay da partida de ${W.rulesetName(m.ruleset)}`,
        },
        "Replay",
      ),
    ),
  );
  fill(need("#done-list"), ...(done.length ? done : [h("li", { class: "muted" }, "Nenhuma partida terminada ainda.")]));
}

/** @param {string} ruleset @param {string | null} botLevel @param {string} match */
async function sitCasual(ruleset, botLevel, match) {
  const seed = randomSeed();
  try {
    const r = await api.casual(ruleset, botLevel || control("#bot-level").value, seed, match);
    api.rememberSeed(r.id, seed);
    location.assign(`mesa.html?id=${encodeURIComponent(r.id)}`);
  } catch (e) {
    toast(messageOf(e), "error");
  }
}

// ---------------------------------------------------------------------- tournaments

/** @param {any} t an event of /api/tournaments @param {string} kind */
function tourneyItem(t, kind) {
  const what = `${t.format_name} · ${W.rulesetWithLength(t.ruleset, t.options)}`;
  let detail;
  if (kind === "upcoming") {
    detail = h("span", { class: "small countdown", dataset: { startsAt: t.starts_at } }, W.startsText(t.starts_at));
  } else if (kind === "live") {
    detail = h("span", { class: "small" }, "Ao vivo");
  } else {
    detail = h("span", { class: "muted small" }, t.status === "cancelled" ? "Cancelado" : "Terminado");
  }
  return h(
    "li",
    { class: "table-item tourney-item", dataset: { tourney: t.id } },
    h(
      "div",
      { class: "table-text" },
      h("strong", {}, t.name),
      t.recurring ? h("span", { class: "badge recurring" }, t.recurring) : null,
      h("span", { class: "muted small" }, `${what}${t.entrants !== undefined ? ` · ${W.entrantsText(t.entrants, num)}` : ""}`),
      detail,
    ),
    h(
      "a",
      // The name starts with the words shown (a voice command says what it sees).
      { class: "btn btn-ghost btn-small", href: `torneio.html?id=${encodeURIComponent(t.id)}`, "aria-label": kind === "upcoming" ? `Ver e inscrever-se no torneio ${t.name}` : `Ver o torneio ${t.name}` },
      kind === "upcoming" ? "Ver e inscrever-se" : "Ver",
    ),
  );
}

const TOURNEY_PAGE = 10; // events a page of each list; "Ver mais" brings the next
/** Each list of the Torneios tab: the API's name, its element, the item's kind, what an empty list says. */
const TOURNEY_LISTS = [
  ["upcoming", "#tourney-upcoming", "upcoming", "Nenhum torneio marcado. Crie o seu!"],
  ["live", "#tourney-live", "live", "Nenhum torneio em andamento."],
  ["finished", "#tourney-done", "done", "Nenhum torneio terminado ainda."],
];

/** @param {Element} item an event's line: marked when the player is in it @param {string} id */
function markMine(item, id) {
  if (!state.tourneysMine.has(id)) return;
  const text = item.querySelector(".table-text");
  if (text) text.append(h("span", { class: "badge" }, "Inscrito"));
}

/**
 * An event list's items, and its "Ver mais" while the server has more (`cursor`).
 * @param {Element} host @param {string} list @param {string} kind @param {any[]} items @param {string | null} cursor
 */
function appendTourneys(host, list, kind, items, cursor) {
  for (const t of items) {
    const item = tourneyItem(t, kind);
    markMine(item, t.id);
    host.append(item);
  }
  if (!cursor) return;
  const button = h("button", { class: "btn btn-ghost btn-small", type: "button" }, "Ver mais");
  const more = h("li", { class: "more-item" }, button);
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const page = await api.tournaments({ list, after: cursor, limit: TOURNEY_PAGE });
      more.remove();
      appendTourneys(host, list, kind, page[list], page.more[list]);
    } catch (e) {
      button.disabled = false;
      toast(messageOf(e), "error");
    }
  });
  host.append(more);
}

async function refreshTourneys() {
  let data;
  try {
    data = await api.tournaments({ limit: TOURNEY_PAGE });
  } catch (e) {
    toast(messageOf(e), "error");
    return;
  }
  state.tourneysMine = new Set(data.mine || []);
  for (const [list, selector, kind, empty] of TOURNEY_LISTS) {
    const host = need(selector);
    fill(host);
    if (data[list].length) appendTourneys(host, list, kind, data[list], data.more[list]);
    else host.append(h("li", { class: "muted" }, empty));
  }
  need("#t-bots-field").hidden = !data.bots_allowed;
  if ((data.mine || []).length) openLobbySocket(); // taken to the table when a match starts
  clearInterval(state.tourneyTimer);
  state.tourneyTimer = setInterval(() => {
    for (const el of elementsIn(".countdown[data-starts-at]")) {
      el.textContent = W.startsText(Number(el.dataset.startsAt));
    }
  }, 1000);
}

function renderTourneyForm() {
  fill(
    need("#t-ruleset"),
    ...state.rulesets.map((rs) => h("option", { value: rs.name, selected: rs.name === "duplas-pontos" }, `${W.rulesetName(rs.name)} (${seatsText(rs)})`)),
  );
  fill(
    need("#t-bots"),
    h("option", { value: "", selected: true }, "Ficam vagas"),
    ...state.bots.map((b) => h("option", { value: b }, `Bots ${W.botLevelName(b)}`)),
  );
  control("#t-start").value = localInput(new Date(Date.now() + 15 * 60 * 1000));
  renderTourneyOptions();
  showFormatFields();
}

function renderTourneyOptions() {
  const name = control("#t-ruleset").value;
  const rs = state.rulesets.find((r) => r.name === name);
  if (!rs) return;
  const keys = Object.keys(rs.options).filter((k) => k === "target" || k === "hands_to_win");
  fill(need("#t-options"), ...keys.map((k) => optionField(name, k, rs.options[k], "t-opt")));
}

function showFormatFields() {
  const format = control("#t-format").value;
  for (const el of elementsIn("#tourney-form [data-format]")) el.hidden = el.dataset.format !== format;
}

/** @param {Event} ev */
async function createTourney(ev) {
  ev.preventDefault();
  const button = submitOf(ev);
  need("#tourney-error").textContent = "";
  /** @type {Record<string, number>} */
  const options = {};
  for (const el of fieldsIn("#t-options [data-option]")) options[el.dataset.option ?? ""] = Number(el.value);
  const body = tourneyRequest(
    {
      name: control("#t-name").value,
      format: control("#t-format").value,
      ruleset: control("#t-ruleset").value,
      options,
      capacity: control("#t-capacity").value,
      private: control("#t-private").checked,
      rounds: control("#t-rounds").value,
      bestOf: control("#t-best-of").value,
      duration: control("#t-duration").value,
      start: control("#t-start").value,
      bots: need("#t-bots-field").hidden ? "" : control("#t-bots").value,
      botAccounts: control("#t-bot-accounts").checked,
    },
    Date.now(),
  );
  if (body.name.length < 3) {
    need("#tourney-error").textContent = "Dê um nome ao torneio (3 letras ou mais).";
    return;
  }
  button.disabled = true;
  try {
    const r = await api.createTournament(body);
    location.assign(`torneio.html?id=${encodeURIComponent(r.id)}`);
  } catch (e) {
    need("#tourney-error").textContent = messageOf(e);
    button.disabled = false;
  }
}

// ---------------------------------------------------------------------- profile and ranking

async function renderProfile() {
  const host = need("#profile");
  const player = me();
  need("#upgrade").hidden = player.kind !== "guest";
  showAccount(player.kind);
  showBotApi(player.kind);
  let p;
  try {
    p = await api.player(player.name);
  } catch (e) {
    fill(host, h("p", { class: "muted" }, messageOf(e)));
    return;
  }
  const ratings = h("div", { class: "ratings" }, ...ratingBoxes(player.kind, p.ratings));
  const games = p.history.map((/** @type {any} */ g) => {
    const { won, detail } = historyLine(g);
    return h(
      "li",
      { class: "table-item" },
      h("span", { class: `result-dot ${won ? "won" : "lost"}`, "aria-hidden": "true" }),
      h(
        "div",
        { class: "table-text" },
        h("strong", {}, `${won ? "Vitória" : "Derrota"} · ${W.rulesetName(g.ruleset)}`),
        h("span", { class: "muted small" }, detail),
      ),
      h(
        "div",
        { class: "history-actions" },
        g.private && g.hosted ? publishButton(g) : null,
        h(
          "a",
          { class: "btn btn-ghost btn-small", href: `replay.html?id=${encodeURIComponent(g.id)}`, "aria-label": `Ver o replay: ${W.rulesetName(g.ruleset)}` },
          "Replay",
        ),
      ),
    );
  });
  fill(
    host,
    ratings,
    h("p", { class: "small" }, h("a", { href: profileNamed(player.name) }, "Ver seu perfil como os outros veem")),
    h("h3", { class: "sub" }, "Últimas partidas"),
    h("ul", { class: "table-list" }, ...(games.length ? games : [h("li", { class: "muted" }, "Nenhuma partida terminada ainda.")])),
  );
}

/**
 * A friends' match is its players' only: its host may show it (record, replay) to everyone.
 * @param {{id: string}} game
 */
function publishButton(game) {
  const button = h(
    "button",
    {
      class: "btn btn-ghost btn-small",
      type: "button",
      title: "Só quem jogou vê esta partida; pública, qualquer pessoa vê o replay.",
      onclick: async () => {
        button.disabled = true;
        try {
          await api.setPublic(game.id, true);
          button.replaceWith(h("span", { class: "muted small" }, "Pública"));
          toast("Partida pública: qualquer pessoa pode ver o replay.");
        } catch (e) {
          button.disabled = false;
          toast(messageOf(e), "error");
        }
      },
    },
    "Tornar partida pública",
  );
  return button;
}

async function renderRanking() {
  need("#rank-duplas").setAttribute("aria-selected", String(state.rankFamily === "duplas"));
  need("#rank-mano").setAttribute("aria-selected", String(state.rankFamily === "mano"));
  let data;
  try {
    data = await api.leaderboard(state.rankFamily);
  } catch (e) {
    fill(need("#ranking"), h("li", { class: "muted" }, messageOf(e)));
    return;
  }
  const rows = data.players.slice(0, 10).map((/** @type {any} */ p, /** @type {number} */ i) =>
    h(
      "li",
      { class: `rank-row ${state.me && p.name === state.me.name ? "me" : ""}` },
      h("span", { class: "rank-pos" }, `${i + 1}º`),
      h("a", { class: "rank-name", href: profileNamed(p.name) }, p.name),
      h("span", { class: "rank-value" }, dec(p.rating)),
      h("span", { class: "muted small" }, `${num(p.wins)}/${num(p.games)}`),
    ),
  );
  fill(need("#ranking"), ...(rows.length ? rows : [h("li", { class: "muted" }, "Ninguém jogou ranqueada ainda. Seja o primeiro!")]));
}

main();
