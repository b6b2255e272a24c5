// The entry and lobby page (index.html): sign in, play in one tap, friends' tables, live tables,
// profile and ranking (behind tabs on a phone). Query parameters: ?convite=CODE joins a friends'
// table after signing in; ?proximo=/mesa.html?id=... returns there after signing in (an address
// on this site only).

import * as api from "./api.js";
import { $, dec, fill, h, num, param, randomSeed, sameOriginPath, signed, toast } from "./dom.js";
import { Socket } from "./socket.js";
import { tileSVG } from "./tiles.js";
import * as W from "./words.js";

const state = {
  me: null,
  rulesets: [],
  bots: [],
  socket: null,
  queuedAt: null,
  queueTimer: null,
  rankFamily: "duplas",
  tourneyTimer: null,
};

const PREFS = "carroca:prefs";

function prefs() {
  try {
    return JSON.parse(localStorage.getItem(PREFS) || "{}");
  } catch {
    return {};
  }
}

function forgetPrefs(...keys) {
  const kept = prefs();
  for (const key of keys) delete kept[key];
  try {
    localStorage.setItem(PREFS, JSON.stringify(kept));
  } catch {
    /* private mode */
  }
}

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
  let who = null;
  try {
    who = await api.session();
  } catch (e) {
    notice(e.message, "error");
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
  const host = $("#hero-tiles");
  // A little line of play: 6-6, then 6-3, 3-5, 5-5 and 5-1, each touching the last.
  const line = [["6-6"], ["3-6", true], ["3-5"], ["5-5"], ["1-5", true]];
  for (const [t, flip] of line) host.append(tileSVG(t, { horizontal: t[0] !== t[2], flip }));
}

function notice(message, kind = "info") {
  fill($("#notice"), message ? h("div", { class: `notice notice-${kind}`, role: "status" }, message) : null);
}

function showEntry() {
  const invited = Boolean(param("convite"));
  $("#entry").hidden = false;
  $("#entry").classList.toggle("invited", invited);
  $("#home").hidden = true;
  fill($("#who"));
  if (invited) {
    notice("Você foi convidado para uma mesa de amigos. Escolha um apelido para sentar.", "invite");
  }
  const name = prefs().name || "";
  $("#guest-name").value = name;
  if (name && api.guestKeyFor(name)) {
    $("#guest-help").textContent = `Neste aparelho, o apelido ${name} continua seu: é só entrar de novo.`;
  }
  // The page opens at its top — the headline, or the invitation — never scrolled to the field.
  // A mouse user gets the cursor in the field; a phone would open its keyboard over the page.
  if (matchMedia("(hover: hover) and (pointer: fine)").matches) {
    $("#guest-name").focus({ preventScroll: true });
  }
}

async function afterSignIn() {
  const who = await api.session();
  if (!who) return;
  const next = sameOriginPath(param("proximo"));
  if (param("convite")) {
    await joinInvite(param("convite"));
    return;
  }
  if (next) {
    location.assign(next);
    return;
  }
  await signedIn(who);
}

async function joinInvite(code) {
  const seed = randomSeed();
  try {
    const r = await api.joinInvite(code, seed);
    api.rememberSeed(r.id, seed);
    location.assign(`mesa.html?id=${encodeURIComponent(r.id)}`);
  } catch (e) {
    history.replaceState(null, "", "/");
    notice(e.message, "error");
    const who = await api.session();
    if (who) await signedIn(who);
  }
}

async function signedIn(who) {
  state.me = who.player;
  if (param("convite")) {
    await joinInvite(param("convite"));
    return;
  }
  $("#entry").hidden = true;
  $("#home").hidden = false;
  renderWho();
  try {
    let bots;
    [state.rulesets, bots] = await Promise.all([api.rulesets(), api.bots()]);
    state.bots = W.sortBotLevels(bots);
  } catch (e) {
    notice(e.message, "error");
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
}

function renderWho() {
  const me = state.me;
  fill(
    $("#who"),
    h("span", { class: "avatar small", "aria-hidden": "true" }, me.name.slice(0, 1).toUpperCase()),
    h(
      "span",
      { class: "who-name" },
      me.name,
      me.kind === "guest" ? h("span", { class: "badge" }, "convidado") : null,
    ),
    h(
      "button",
      {
        class: "btn btn-ghost btn-small",
        type: "button",
        onclick: async () => {
          if (me.kind === "guest") {
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
  const dialog = $("#signout-dialog");
  $("#signout-error").textContent = "";
  dialog.showModal();
}

async function signOut(forgetDevice) {
  const buttons = [...document.querySelectorAll("#signout-dialog button")];
  for (const b of buttons) b.disabled = true;
  try {
    await api.logout({ forgetDevice, name: state.me.name });
  } catch (e) {
    for (const b of buttons) b.disabled = false;
    $("#signout-error").textContent = e.message;
    return;
  }
  if (forgetDevice) forgetPrefs("name");
  location.assign("/");
}

function bindSignOut() {
  $("#signout-keep").addEventListener("click", () => signOut(false));
  $("#signout-forget").addEventListener("click", () => signOut(true));
  $("#signout-cancel").addEventListener("click", () => $("#signout-dialog").close());
}

function renderResume(tables) {
  const box = $("#resume");
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
    $(`#tab-${name}`).addEventListener("click", () => {
      for (const other of tabs) {
        $(`#tab-${other}`).setAttribute("aria-selected", String(other === name));
        $(`#form-${other}`).hidden = other !== name;
      }
      $(`#form-${name} input`).focus();
    });
  }
  onSubmit("#form-guest", "#guest-error", async () => {
    const name = $("#guest-name").value.trim();
    if (name.length < 3) throw new Error("Escolha um apelido de 3 a 20 letras.");
    await api.guest(name);
    savePrefs({ name });
  });
  onSubmit("#form-login", "#login-error", async () => {
    await api.login($("#login-name").value.trim(), $("#login-password").value);
  });
  onSubmit("#form-register", "#register-error", async () => {
    await api.register($("#register-name").value.trim(), $("#register-password").value);
  });
}

function onSubmit(formSel, errorSel, action) {
  const form = $(formSel);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const button = form.querySelector("button[type=submit]");
    $(errorSel).textContent = "";
    button.disabled = true;
    try {
      await action();
      await afterSignIn();
    } catch (e) {
      $(errorSel).textContent = e.message;
    } finally {
      button.disabled = false;
    }
  });
}

// ---------------------------------------------------------------------- play now and ranked

const seatsText = (rs) => (rs.seats === 4 ? "2 contra 2" : "1 contra 1");

/** "Jogar agora": one big button for the last ruleset played (or chosen), and each ruleset
 * with a Jogar of its own — one tap to a table either way. The chosen ruleset also goes to the
 * ranked queue. */
function renderPlay() {
  let chosen = prefs().ruleset;
  if (!state.rulesets.some((rs) => rs.name === chosen)) chosen = "duplas-pontos";
  fill(
    $("#rs-list"),
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
            h("span", { class: "rs-desc", id: `rs-desc-${rs.name}` }, rs.description),
          ),
        ),
        h(
          "button",
          {
            class: "btn btn-secondary btn-small rs-play",
            type: "button",
            "aria-label": `Jogar ${W.rulesetName(rs.name)} agora`,
            onclick: (ev) => {
              const input = document.querySelector(`input[name=ruleset][value="${rs.name}"]`);
              if (input) input.checked = true;
              choose(rs.name);
              playCasual(rs.name, ev.currentTarget);
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
    $("#bot-level"),
    ...state.bots.map((b) => h("option", { value: b, selected: b === level }, W.botLevelName(b))),
  );
}

function chosenRuleset() {
  const input = document.querySelector("input[name=ruleset]:checked");
  return input ? input.value : "duplas-pontos";
}

/** The big button plays the chosen ruleset, and says which. */
function choose(name) {
  savePrefs({ ruleset: name });
  $("#rs-about").textContent = state.rulesets.find((rs) => rs.name === name)?.description ?? "";
  $("#casual-what").textContent = `${W.rulesetName(name)} · ${W.RULESETS[name]?.seats === 4 ? "2 contra 2" : "1 contra 1"}`;
}

async function playCasual(ruleset, button) {
  button.disabled = true;
  const seed = randomSeed();
  try {
    const r = await api.casual(ruleset, $("#bot-level").value, seed);
    api.rememberSeed(r.id, seed);
    location.assign(`mesa.html?id=${encodeURIComponent(r.id)}`);
  } catch (e) {
    toast(e.message, "error");
    button.disabled = false;
  }
}

// ---------------------------------------------------------------------- tabs (phone)

const TABS = ["amigos", "mesas", "torneios", "ranking", "perfil"];

/** On a phone one panel shows at a time (CSS reads #home[data-tab]); on a wide screen every
 * panel shows and the tab bar is hidden. */
function showTab(name, focus = false) {
  $("#home").dataset.tab = name;
  for (const tab of TABS) {
    const button = $(`#tab-${tab}`);
    button.setAttribute("aria-selected", String(tab === name));
    button.tabIndex = tab === name ? 0 : -1;
  }
  if (focus) $(`#tab-${name}`).focus();
}

function bindTabs() {
  for (const tab of TABS) {
    const button = $(`#tab-${tab}`);
    button.addEventListener("click", () => showTab(tab));
    button.addEventListener("keydown", (ev) => {
      const step = { ArrowRight: 1, ArrowLeft: -1 }[ev.key];
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
  $("#bot-level").addEventListener("change", (ev) => savePrefs({ bot: ev.target.value }));
  $("#btn-casual").addEventListener("click", (ev) => playCasual(chosenRuleset(), ev.currentTarget));
  $("#btn-ranked").addEventListener("click", enterQueue);
  $("#btn-unqueue").addEventListener("click", async () => {
    await api.leaveRanked().catch(() => {});
    hideQueue();
  });
  $("#btn-refresh").addEventListener("click", refreshTables);
  $("#btn-tourney-refresh").addEventListener("click", refreshTourneys);
  $("#t-format").addEventListener("change", showFormatFields);
  $("#t-ruleset").addEventListener("change", renderTourneyOptions);
  $("#tourney-form").addEventListener("submit", createTourney);
  $("#friends-ruleset").addEventListener("change", renderFriendsDetails);
  $("#friends-form").addEventListener("submit", createFriends);
  $("#rank-duplas").addEventListener("click", () => {
    state.rankFamily = "duplas";
    renderRanking();
  });
  $("#rank-mano").addEventListener("click", () => {
    state.rankFamily = "mano";
    renderRanking();
  });
  $("#upgrade-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    $("#upgrade-error").textContent = "";
    try {
      const r = await api.register(state.me.name, $("#upgrade-password").value);
      $("#upgrade-password").value = "";
      state.me = r.player;
      renderWho();
      renderProfile();
      toast("Conta criada! O seu apelido agora é seu.", "ok");
    } catch (e) {
      $("#upgrade-error").textContent = e.message;
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
    toast(e.message, "error");
    if (e.code === "account_required" && !$("#upgrade").hidden) {
      // Ranked is for accounts: the guest's own "create an account" form, one password away.
      showTab("perfil");
      $("#upgrade").scrollIntoView({ block: "center" });
      $("#upgrade-password").focus();
    }
  }
}

function showQueue(ruleset) {
  openLobbySocket();
  $("#queue").hidden = false;
  $("#ranked-box").hidden = true;
  $("#queue-title").textContent = `Procurando adversários · ${W.rulesetName(ruleset)}`;
  state.queuedAt = Date.now();
  clearInterval(state.queueTimer);
  const update = () => {
    const secs = Math.floor((Date.now() - state.queuedAt) / 1000);
    $("#queue-time").textContent = `Na fila há ${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, "0")}`;
  };
  update();
  state.queueTimer = setInterval(update, 1000);
}

function hideQueue() {
  $("#queue").hidden = true;
  $("#ranked-box").hidden = false;
  clearInterval(state.queueTimer);
}

/** The lobby listens on the socket for "matched" (a ranked table found for this player). */
function openLobbySocket() {
  if (state.socket) return;
  state.socket = new Socket({
    onFrame: (type, data) => {
      if (type === "matched") location.assign(`mesa.html?id=${encodeURIComponent(data.match)}`);
      // "Sua partida do torneio começou": an event this player is in paired them.
      if (type === "tournament" && data.match) location.assign(`mesa.html?id=${encodeURIComponent(data.match)}`);
    },
  });
  state.socket.connect();
}

// ---------------------------------------------------------------------- friends' table

function renderFriends() {
  const chosen = prefs().friendsRuleset || "duplas-pontos";
  fill(
    $("#friends-ruleset"),
    ...state.rulesets.map((rs) =>
      h("option", { value: rs.name, selected: rs.name === chosen }, `${W.rulesetName(rs.name)} (${rs.seats === 4 ? "2 contra 2" : "1 contra 1"})`),
    ),
  );
  renderFriendsDetails();
}

function renderFriendsDetails() {
  const name = $("#friends-ruleset").value;
  savePrefs({ friendsRuleset: name });
  const rs = state.rulesets.find((r) => r.name === name);
  if (!rs) return;
  const fields = Object.entries(rs.options).map(([key, value]) => optionField(name, key, value));
  fill($("#friends-options"), ...fields);
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
  fill($("#friends-seats"), ...seats);
}

function optionField(ruleset, key, value, prefix = "opt") {
  const meta = W.OPTIONS[key] || { label: key };
  const id = `${prefix}-${key}`;
  if (typeof value === "boolean") {
    return h(
      "label",
      { class: "field-check", for: id },
      h("input", { type: "checkbox", id, checked: value, dataset: { option: key, kind: "bool" } }),
      meta.label,
    );
  }
  const choices = key === "target" ? W.TARGETS[ruleset] : meta.choices;
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

async function createFriends(ev) {
  ev.preventDefault();
  const button = ev.target.querySelector("button[type=submit]");
  $("#friends-error").textContent = "";
  const ruleset = $("#friends-ruleset").value;
  const options = {};
  for (const el of document.querySelectorAll("#friends-options [data-option]")) {
    options[el.dataset.option] = el.dataset.kind === "bool" ? el.checked : Number(el.value);
  }
  const seats = ["me", ...[...document.querySelectorAll("#friends-seats select")].map((s) => s.value)];
  const seed = randomSeed();
  button.disabled = true;
  try {
    const r = await api.friendsTable(ruleset, options, seats, Number($("#friends-time").value), seed);
    api.rememberSeed(r.id, seed);
    location.assign(`mesa.html?id=${encodeURIComponent(r.id)}`);
  } catch (e) {
    $("#friends-error").textContent = e.message;
    button.disabled = false;
  }
}

// ---------------------------------------------------------------------- tables

const MODES = { casual: "casual", ranked: "ranqueada", friends: "amigos", bots: "só bots", tournament: "torneio" };

function playersText(names) {
  return names.map((n, i) => (W.botLevelOf(n) ? W.seatName({ bot: true }, i) : n || "vago")).join(", ");
}

async function refreshTables() {
  let data;
  try {
    data = await api.matches();
  } catch (e) {
    toast(e.message, "error");
    return;
  }
  const live = data.live.map((t) =>
    h(
      "li",
      { class: "table-item" },
      h(
        "div",
        { class: "table-text" },
        h("strong", {}, W.rulesetName(t.ruleset)),
        h("span", { class: "muted small" }, `${MODES[t.mode] ?? t.mode} · ${playersText(t.players)}`),
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
              "aria-label": `Assistir à mesa de ${W.rulesetName(t.ruleset)}: ${playersText(t.players)}`,
            },
            "Assistir",
          ),
    ),
  );
  fill($("#live-list"), ...(live.length ? live : [h("li", { class: "muted" }, "Nenhuma mesa no ar agora. Que tal abrir uma?")]));
  const done = data.finished.slice(0, 8).map((m) =>
    h(
      "li",
      { class: "table-item" },
      h(
        "div",
        { class: "table-text" },
        h("strong", {}, W.rulesetName(m.ruleset)),
        h("span", { class: "muted small" }, `${MODES[m.mode] ?? m.mode} · ${playersText((m.seats || []).map((s) => (s ? s.name : "")))}`),
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
  fill($("#done-list"), ...(done.length ? done : [h("li", { class: "muted" }, "Nenhuma partida terminada ainda.")]));
}

async function sitCasual(ruleset, botLevel, match) {
  const seed = randomSeed();
  try {
    const r = await api.casual(ruleset, botLevel || $("#bot-level").value, seed, match);
    api.rememberSeed(r.id, seed);
    location.assign(`mesa.html?id=${encodeURIComponent(r.id)}`);
  } catch (e) {
    toast(e.message, "error");
  }
}

// ---------------------------------------------------------------------- tournaments

function tourneyItem(t, kind) {
  const what = `${t.format_name} · ${W.rulesetName(t.ruleset)}`;
  let detail;
  if (kind === "upcoming") {
    detail = h("span", { class: "small countdown", dataset: { startsAt: t.starts_at } }, `Começa ${W.countdown(t.starts_at)}`);
  } else if (kind === "live") {
    detail = h("span", { class: "small" }, "Ao vivo");
  } else {
    detail = h("span", { class: "muted small" }, t.status === "cancelled" ? "Cancelado" : "Terminado");
  }
  return h(
    "li",
    { class: "table-item", dataset: { tourney: t.id } },
    h(
      "div",
      { class: "table-text" },
      h("strong", {}, t.name),
      h("span", { class: "muted small" }, `${what}${t.entrants !== undefined ? ` · ${num(t.entrants)} inscritos` : ""}`),
      detail,
    ),
    h(
      "a",
      { class: "btn btn-ghost btn-small", href: `torneio.html?id=${encodeURIComponent(t.id)}`, "aria-label": `Abrir o torneio ${t.name}` },
      kind === "upcoming" ? "Ver e inscrever-se" : "Ver",
    ),
  );
}

async function refreshTourneys() {
  let data;
  try {
    data = await api.tournaments();
  } catch (e) {
    toast(e.message, "error");
    return;
  }
  const list = (items, kind, empty) => (items.length ? items.map((t) => tourneyItem(t, kind)) : [h("li", { class: "muted" }, empty)]);
  fill($("#tourney-upcoming"), ...list(data.upcoming, "upcoming", "Nenhum torneio marcado. Crie o seu!"));
  fill($("#tourney-live"), ...list(data.live, "live", "Nenhum torneio em andamento."));
  fill($("#tourney-done"), ...list(data.finished.slice(0, 8), "done", "Nenhum torneio terminado ainda."));
  $("#t-bots-field").hidden = !data.bots_allowed;
  for (const id of data.mine || []) {
    const item = document.querySelector(`[data-tourney="${CSS.escape(id)}"] .table-text`);
    if (item) item.append(h("span", { class: "badge" }, "Inscrito"));
  }
  if ((data.mine || []).length) openLobbySocket(); // taken to the table when a match starts
  clearInterval(state.tourneyTimer);
  state.tourneyTimer = setInterval(() => {
    for (const el of document.querySelectorAll(".countdown[data-starts-at]")) {
      el.textContent = `Começa ${W.countdown(Number(el.dataset.startsAt))}`;
    }
  }, 1000);
}

function localInput(date) {
  const pad = (n) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function renderTourneyForm() {
  fill(
    $("#t-ruleset"),
    ...state.rulesets.map((rs) => h("option", { value: rs.name, selected: rs.name === "duplas-pontos" }, `${W.rulesetName(rs.name)} (${seatsText(rs)})`)),
  );
  fill(
    $("#t-bots"),
    h("option", { value: "", selected: true }, "Ficam vagas"),
    ...state.bots.map((b) => h("option", { value: b }, `Bots ${W.botLevelName(b)}`)),
  );
  $("#t-start").value = localInput(new Date(Date.now() + 15 * 60 * 1000));
  renderTourneyOptions();
  showFormatFields();
}

function renderTourneyOptions() {
  const name = $("#t-ruleset").value;
  const rs = state.rulesets.find((r) => r.name === name);
  if (!rs) return;
  const keys = Object.keys(rs.options).filter((k) => k === "target" || k === "hands_to_win");
  fill($("#t-options"), ...keys.map((k) => optionField(name, k, rs.options[k], "t-opt")));
}

function showFormatFields() {
  const format = $("#t-format").value;
  for (const el of document.querySelectorAll("#tourney-form [data-format]")) el.hidden = el.dataset.format !== format;
}

async function createTourney(ev) {
  ev.preventDefault();
  const button = ev.target.querySelector("button[type=submit]");
  $("#tourney-error").textContent = "";
  const format = $("#t-format").value;
  const options = {};
  for (const el of document.querySelectorAll("#t-options [data-option]")) options[el.dataset.option] = Number(el.value);
  const body = {
    name: $("#t-name").value.trim(),
    format,
    ruleset: $("#t-ruleset").value,
    options,
    capacity: Number($("#t-capacity").value) || null,
    turn_seconds: Number($("#t-time").value),
    private: $("#t-private").checked,
  };
  if (format === "swiss") body.rounds = Number($("#t-rounds").value) || null;
  if (format === "knockout") body.best_of = Number($("#t-best-of").value);
  if (format === "arena") body.duration = (Number($("#t-duration").value) || 30) * 60;
  const start = $("#t-start").value ? new Date($("#t-start").value).getTime() / 1000 : NaN;
  if (Number.isFinite(start)) body.starts_at = Math.max(start, Date.now() / 1000);
  else body.starts_in = 0;
  if (!$("#t-bots-field").hidden && $("#t-bots").value) body.bots = $("#t-bots").value;
  if (body.name.length < 3) {
    $("#tourney-error").textContent = "Dê um nome ao torneio (3 letras ou mais).";
    return;
  }
  button.disabled = true;
  try {
    const r = await api.createTournament(body);
    location.assign(`torneio.html?id=${encodeURIComponent(r.id)}`);
  } catch (e) {
    $("#tourney-error").textContent = e.message;
    button.disabled = false;
  }
}

// ---------------------------------------------------------------------- profile and ranking

async function renderProfile() {
  const host = $("#profile");
  $("#upgrade").hidden = state.me.kind !== "guest";
  let p;
  try {
    p = await api.player(state.me.name);
  } catch (e) {
    fill(host, h("p", { class: "muted" }, e.message));
    return;
  }
  const families = [
    ["duplas", "Duplas"],
    ["mano", "1 contra 1"],
  ];
  const ratings = h(
    "div",
    { class: "ratings" },
    ...families.map(([key, label]) => {
      const r = p.ratings[key];
      return h(
        "div",
        { class: "rating-box" },
        h("span", { class: "rating-label" }, label),
        h("strong", { class: "rating-value" }, r ? dec(r.rating) : "–"),
        h("span", { class: "muted small" }, r ? `${num(r.games)} ranqueadas · ${num(r.wins)} vitórias` : "sem ranqueadas ainda"),
      );
    }),
  );
  const games = p.history.map((g) => {
    const n = W.RULESETS[g.ruleset]?.seats ?? 2;
    const won = g.result ? g.result.winner === W.teamOf(g.seat, n) : null;
    const change = g.rating_after !== null && g.rating_before !== null ? g.rating_after - g.rating_before : null;
    return h(
      "li",
      { class: "table-item" },
      h("span", { class: `result-dot ${won ? "won" : "lost"}`, "aria-hidden": "true" }),
      h(
        "div",
        { class: "table-text" },
        h("strong", {}, `${won ? "Vitória" : "Derrota"} · ${W.rulesetName(g.ruleset)}`),
        h(
          "span",
          { class: "muted small" },
          `${MODES[g.mode] ?? g.mode}${g.score ? ` · ${g.score.join(" × ")}` : ""}${change !== null ? ` · ranking ${signed(change)}` : ""}`,
        ),
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
    h("h3", { class: "sub" }, "Últimas partidas"),
    h("ul", { class: "table-list" }, ...(games.length ? games : [h("li", { class: "muted" }, "Nenhuma partida terminada ainda.")])),
  );
}

/** A friends' match is its players' only: its host may show it (record, replay) to everyone. */
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
          toast(e.message, "error");
        }
      },
    },
    "Tornar partida pública",
  );
  return button;
}

async function renderRanking() {
  $("#rank-duplas").setAttribute("aria-selected", String(state.rankFamily === "duplas"));
  $("#rank-mano").setAttribute("aria-selected", String(state.rankFamily === "mano"));
  let data;
  try {
    data = await api.leaderboard(state.rankFamily);
  } catch (e) {
    fill($("#ranking"), h("li", { class: "muted" }, e.message));
    return;
  }
  const rows = data.players.slice(0, 10).map((p, i) =>
    h(
      "li",
      { class: `rank-row ${state.me && p.name === state.me.name ? "me" : ""}` },
      h("span", { class: "rank-pos" }, `${i + 1}º`),
      h("span", { class: "rank-name" }, p.name),
      h("span", { class: "rank-value" }, dec(p.rating)),
      h("span", { class: "muted small" }, `${num(p.wins)}/${num(p.games)}`),
    ),
  );
  fill($("#ranking"), ...(rows.length ? rows : [h("li", { class: "muted" }, "Ninguém jogou ranqueada ainda. Seja o primeiro!")]));
}

main();
