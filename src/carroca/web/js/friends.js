// @ts-check
// Friends: the lobby's list with each friend's presence as the socket tells it ("friends",
// "presence"), the requests to answer, adding by nickname, blocking; and challenges
// ("Desafiar", challenge.js), which arrive on any page with a socket ("challenge",
// "challenge_end"): the page hands those frames to `onFriendsFrame`. Each friend's name leads
// to their profile (perfil.html).

import * as api from "./api.js";
import { botBadge } from "./badges.js";
import { openChallenge } from "./challenge.js";
import { sidesText } from "./challenge-text.js";
import { fill, h, toast } from "./dom.js";
import { profileHref } from "./perfil-text.js";
import * as W from "./words.js";

/** @typedef {import("./frames.js").Frames} Frames */
/** @typedef {Frames["friends"]["friends"][number]} FriendPresence */
/** @typedef {{id: number, name: string, kind: string, at: number}} Link */
/** @typedef {{friends: Link[], incoming: Link[], outgoing: Link[], blocked: Link[], max: number}} Listing */

/** @type {Map<number, FriendPresence>} */
const presence = new Map();
/** @type {Listing | null} */
let listing = null;
/** @type {HTMLElement | null} */
let box = null;

/** @param {unknown} e */
const messageOf = (e) => (e instanceof Error ? e.message : String(e));

/**
 * What a friend is doing, in words.
 * @param {FriendPresence | undefined} p
 */
export function presenceText(p) {
  if (!p || p.state === "offline") {
    if (!p || !p.seen) return "offline";
    const minutes = Math.max(1, Math.round((Date.now() / 1000 - p.seen) / 60));
    return minutes < 60 ? `visto há ${minutes} min` : `visto há ${Math.round(minutes / 60)} h`;
  }
  if (p.state === "playing") return "jogando";
  if (p.state === "watching") return "assistindo";
  if (p.state === "tournament") return "no torneio";
  return "online";
}

/** @param {string} match */
const tableHref = (match) => `mesa.html?id=${encodeURIComponent(match)}`;

/** The lobby's friends box (index.html `#friends-box`): loaded and drawn. @param {HTMLElement} el */
export async function showFriends(el) {
  box = el;
  await reload();
}

async function reload() {
  if (!box) return;
  try {
    listing = /** @type {Listing} */ (await api.get("/api/friends"));
  } catch (e) {
    fill(box, h("p", { class: "form-error" }, messageOf(e)));
    return;
  }
  render();
}

/**
 * A request to the server, then the list again; its refusal as a toast.
 * @param {() => Promise<any>} call
 * @param {string} [done] what to say when it worked
 */
async function act(call, done) {
  try {
    await call();
    if (done) toast(done, "ok");
  } catch (e) {
    toast(messageOf(e), "error");
  }
  await reload();
}

/** @param {number} id */
const isOnline = (id) => {
  const p = presence.get(id);
  return p !== undefined && p.state !== "offline";
};

/**
 * "Desafiar" a friend: the dialog, with the friends online now for the other seats of a duplas
 * table (the page's list, or the server's when this page has none).
 * @param {number} id @param {string} name
 */
export async function challengeFriend(id, name) {
  let friends = listing ? listing.friends : null;
  if (!friends) {
    try {
      friends = /** @type {Listing} */ (await api.get("/api/friends")).friends;
    } catch (e) {
      toast(messageOf(e), "error");
      return;
    }
  }
  await openChallenge({ id, name }, friends.filter((f) => isOnline(f.id)).map((f) => ({ id: f.id, name: f.name })));
}

function render() {
  if (!box || !listing) return;
  const l = listing;
  // The list is drawn again at every presence frame: what the player was doing in it (a
  // nickname half typed, a "⋯" menu open, the focus) stays as it was.
  const typed = /** @type {HTMLInputElement | null} */ (box.querySelector("#friend-name"))?.value ?? "";
  const opened = new Set([...box.querySelectorAll("details[open]")].map((d) => /** @type {HTMLElement} */ (d).dataset.key));
  const active = document.activeElement;
  const focused = active && box.contains(active) && active.id ? active.id : null;
  /** @param {string} key */
  const openIf = (key) => (opened.has(key) ? { "data-key": key, open: "" } : { "data-key": key });
  const input = /** @type {HTMLInputElement} */ (h("input", { id: "friend-name", type: "text", maxlength: "20", autocomplete: "off", required: "", value: typed }));
  const form = h(
    "form",
    { class: "friend-add", novalidate: "" },
    h("label", { for: "friend-name" }, "Adicionar pelo apelido"),
    input,
    h("button", { class: "btn btn-small", type: "submit" }, "Adicionar"),
  );
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    const name = input.value.trim();
    if (!name) return;
    act(() => api.post("/api/friends", { name }), `Pedido de amizade enviado para ${name}.`);
  });
  // One line a friend (a phone lists dozens): who and what they do, then Assistir and
  // Desafiar; removing and blocking, seldom wanted, behind "⋯".
  const friendRow = (/** @type {Link} */ f) => {
    const p = presence.get(f.id);
    const watch = p && p.match ? h("a", { href: tableHref(p.match), class: "btn btn-ghost btn-small", "aria-label": `Assistir à mesa de ${f.name}` }, "Assistir") : null;
    return h(
      "li",
      { class: `friend-row ${isOnline(f.id) ? "on" : "off"}`, "data-id": String(f.id) },
      h(
        "span",
        { class: "friend-who" },
        h("a", { class: "friend-name", href: profileHref(f.id) }, f.name),
        f.kind === "bot" ? botBadge() : null,
        h("span", { class: "friend-state" }, presenceText(p)),
      ),
      h(
        "span",
        { class: "friend-actions" },
        watch,
        h("button", { type: "button", class: "btn btn-secondary btn-small", onclick: () => challengeFriend(f.id, f.name) }, "Desafiar"),
        h(
          "details",
          { class: "friend-more", ...openIf(`more-${f.id}`) },
          h("summary", { class: "btn btn-ghost btn-small", id: `friend-more-${f.id}`, "aria-label": `Mais: ${f.name}` }, "⋯"),
          h(
            "span",
            { class: "friend-menu" },
            h("button", { type: "button", class: "btn btn-ghost btn-small", onclick: () => act(() => api.del(`/api/friends/${f.id}`), `${f.name} saiu dos seus amigos.`) }, "Remover"),
            h("button", { type: "button", class: "btn btn-ghost btn-small", onclick: () => act(() => api.post("/api/blocks", { player: f.id }), `${f.name} foi bloqueado.`) }, "Bloquear"),
          ),
        ),
      ),
    );
  };
  const requestRow = (/** @type {Link} */ r) =>
    h(
      "li",
      { class: "friend-row request" },
      h("a", { class: "friend-name", href: profileHref(r.id) }, r.name),
      h("button", { type: "button", class: "btn btn-small btn-primary", onclick: () => act(() => api.post(`/api/friends/${r.id}/accept`), `Você e ${r.name} agora são amigos.`) }, "Aceitar"),
      h("button", { type: "button", class: "btn btn-ghost btn-small", onclick: () => act(() => api.post(`/api/friends/${r.id}/decline`)) }, "Recusar"),
      h("button", { type: "button", class: "btn btn-ghost btn-small", onclick: () => act(() => api.post("/api/blocks", { player: r.id }), `${r.name} foi bloqueado.`) }, "Bloquear"),
    );
  const online = [...l.friends].sort((a, b) => Number(isOnline(b.id)) - Number(isOnline(a.id)));
  fill(
    box,
    h("h2", { id: "friends-list-title" }, `Seus amigos (${l.friends.length})`),
    form,
    l.incoming.length ? h("h3", { class: "sub" }, "Pedidos de amizade") : null,
    l.incoming.length ? h("ul", { class: "friend-list", id: "friend-requests" }, ...l.incoming.map(requestRow)) : null,
    l.friends.length
      ? h("ul", { class: "friend-list", id: "friend-list" }, ...online.map(friendRow))
      : h("p", { class: "muted" }, "Nenhum amigo ainda: adicione pelo apelido, ou no fim de uma partida."),
    l.outgoing.length ? h("p", { class: "muted" }, `Esperando resposta: ${l.outgoing.map((o) => o.name).join(", ")}`) : null,
    l.blocked.length
      ? h(
          "details",
          { class: "more", ...openIf("blocked") },
          h("summary", {}, `Bloqueados (${l.blocked.length})`),
          h(
            "ul",
            { class: "friend-list" },
            ...l.blocked.map((b) =>
              h("li", { class: "friend-row" }, h("span", { class: "friend-name" }, b.name), h("button", { type: "button", class: "btn btn-ghost btn-small", onclick: () => act(() => api.del(`/api/blocks/${b.id}`), `${b.name} foi desbloqueado.`) }, "Desbloquear")),
            ),
          ),
        )
      : null,
  );
  const again = focused ? document.getElementById(focused) : null;
  if (again) again.focus();
}

// ---------------------------------------------------------------------- challenges

/** @type {Map<string, {el: HTMLElement, timer: number}>} */
const shown = new Map();

/** @param {string} id */
function dropChallenge(id) {
  const c = shown.get(id);
  if (!c) return;
  clearInterval(c.timer);
  c.el.remove();
  shown.delete(id);
}

/** A friend's challenge: who, what, who sits where; accept, decline, a countdown. @param {Frames["challenge"]} data */
export function showChallenge(data) {
  dropChallenge(data.id);
  const left = h("span", { class: "challenge-left" }, "");
  const tick = () => {
    const secs = Math.max(0, Math.round(data.expires - Date.now() / 1000));
    left.textContent = `${secs} s`;
    if (secs <= 0) dropChallenge(data.id);
  };
  const options = W.rulesText(data.ruleset, data.options);
  const answer = async (/** @type {boolean} */ yes) => {
    try {
      const r = await api.post(`/api/challenges/${encodeURIComponent(data.id)}/${yes ? "accept" : "decline"}`);
      dropChallenge(data.id);
      if (r.match) goToTable(r.match);
    } catch (e) {
      dropChallenge(data.id);
      toast(messageOf(e), "error");
    }
  };
  const el = h(
    "div",
    { class: "challenge-box", role: "alertdialog", "aria-labelledby": `challenge-${data.id}` },
    h("strong", { id: `challenge-${data.id}` }, `${data.by} desafia você!`),
    h("p", {}, `${W.rulesetWithLength(data.ruleset, data.options)} · ${data.turn_seconds} s por jogada`),
    h("p", { class: "muted" }, sidesText(data.seats)),
    options ? h("p", { class: "muted small" }, options) : null,
    h(
      "div",
      { class: "challenge-actions" },
      h("button", { type: "button", class: "btn btn-primary btn-small", onclick: () => answer(true) }, "Aceitar"),
      h("button", { type: "button", class: "btn btn-ghost btn-small", onclick: () => answer(false) }, "Recusar"),
      left,
    ),
  );
  document.body.append(el);
  shown.set(data.id, { el, timer: window.setInterval(tick, 1000) });
  tick();
}

/** The table an accepted challenge made: one navigation, whichever comes first of the accept's
 * answer and the `challenge_end` frame (a second would abort the first). */
let goingTo = "";
/** @param {string} match */
function goToTable(match) {
  if (goingTo === match) return;
  goingTo = match;
  location.assign(tableHref(match));
}

/** @param {Frames["challenge_end"]} data */
function challengeEnded(data) {
  dropChallenge(data.id);
  if (data.status === "accepted" && data.match) {
    goToTable(data.match);
    return;
  }
  const said = { declined: `${data.by || "Seu amigo"} recusou o desafio.`, expired: "O desafio expirou.", cancelled: "O desafio foi cancelado." };
  if (data.status !== "accepted") toast(said[data.status], "info");
}

/**
 * The frames of this module, from any page's socket: true when it was one of them.
 * @param {string} type
 * @param {any} data
 */
export function onFriendsFrame(type, data) {
  if (type === "friends") {
    presence.clear();
    for (const p of /** @type {Frames["friends"]} */ (data).friends) presence.set(p.id, p);
    if (box) reload();
    return true;
  }
  if (type === "presence") {
    const p = /** @type {Frames["presence"]} */ (data).friend;
    presence.set(p.id, p);
    render();
    return true;
  }
  if (type === "challenge") {
    showChallenge(data);
    return true;
  }
  if (type === "challenge_end") {
    challengeEnded(data);
    return true;
  }
  return false;
}
