// @ts-check
// A player's profile (perfil.html?id=ID, or ?nome=NICKNAME from a name at a table or in a
// replay): since when they play, their ratings and a graph of each (drawn here, in SVG, from
// GET /api/players/{id}/profile), their figures per ruleset and latest matches (public ones
// only: the server leaves the others out), and, signed in, the friends in common and what one
// may do: add, accept, challenge (friends only), block or unblock. A signed-in page keeps a
// socket, so a friend's challenge reaches it as it does any other page.

import * as api from "./api.js";
import { botBadge } from "./badges.js";
import { dec, fill, h, need, num, param, s, toast } from "./dom.js";
import { challengeFriend, onFriendsFrame } from "./friends.js";
import { STATS_HEADINGS, familiesOf, ratingBoxes, dayText, graphGeometry, graphText, profileHref, recentLine, sinceText, statsRow } from "./perfil-text.js";
import { Socket } from "./socket.js";
import { callToTable } from "./tourneys.js";
import { showWho } from "./who.js";

/**
 * @typedef {import("./perfil-text.js").RatingPoint} RatingPoint
 * @typedef {{mu: number, sigma: number, rating: number, games: number, wins: number}} Rating
 * @typedef {{id: number, name: string, kind: string, since: number,
 *   ratings: Record<string, Rating>, rating_history: Record<string, RatingPoint[]>,
 *   stats: import("./perfil-text.js").RulesetStats[], uncounted: number,
 *   recent: import("./perfil-text.js").RecentMatch[], common_friends: {id: number, name: string}[],
 *   relation: "self" | "friends" | "requested" | "incoming" | "blocked" | "none" | null,
 *   can_challenge: boolean}} Profile what the profile route answers
 */

/** @type {{me: {name: string} | null, data: Profile | null}} */
const page = { me: null, data: null };

const GRAPH = { width: 320, height: 132, left: 40, right: 10, top: 12, bottom: 24 };

/** @param {unknown} e */
const messageOf = (e) => (e instanceof Error ? e.message : String(e));

/** @param {string} message @param {string} [kind] */
function notice(message, kind = "info") {
  fill(need("#notice"), message ? h("div", { class: `notice notice-${kind}`, role: "status" }, message) : null);
}

async function main() {
  page.me = await showWho((message) => notice(message, "error"));
  await load();
  if (page.me) listen();
}

/** The profile this address names, drawn; "not found" for nobody (or a closed account). */
async function load() {
  const id = param("id");
  const name = param("nome");
  const path = id ? `/api/players/${encodeURIComponent(id)}/profile` : name ? `/api/profile?name=${encodeURIComponent(name)}` : null;
  const main = need("#main");
  try {
    if (!path) throw new api.ApiError(404, "no_player", "Jogador não encontrado.");
    page.data = /** @type {Profile} */ (await api.get(path));
  } catch (e) {
    notice(e instanceof api.ApiError && e.status === 404 ? "Jogador não encontrado." : messageOf(e), "error");
    main.dataset.status = "error";
    return;
  }
  render(page.data);
  main.dataset.status = "ready";
}

/** @param {Profile} d */
function render(d) {
  document.title = `${d.name} · Carroça`;
  fill(need("#p-name"), d.name, d.kind === "guest" ? h("span", { class: "badge" }, "convidado") : null, d.kind === "bot" ? botBadge() : null);
  need("#p-since").textContent = sinceText(d.since);
  renderActions(d);
  renderRatings(d);
  renderStats(d);
  renderRecent(d);
  renderCommon(d);
}

// ---------------------------------------------------------------------- what one may do

/**
 * A request to the server, then the profile again; its refusal as a toast.
 * @param {() => Promise<any>} call @param {(answer: any) => string} said
 */
async function act(call, said) {
  try {
    toast(said(await call()), "ok");
  } catch (e) {
    toast(messageOf(e), "error");
  }
  await load();
}

/** @param {string} label @param {() => void} onclick @param {string} [kind] */
const button = (label, onclick, kind = "btn-secondary") => h("button", { type: "button", class: `btn ${kind} btn-small`, onclick }, label);

/** @param {Profile} d */
function renderActions(d) {
  const host = need("#p-actions");
  if (!page.me) {
    fill(host);
    return;
  }
  if (d.relation === "self") {
    fill(host, h("a", { class: "btn btn-ghost btn-small", href: "/" }, "Seu perfil no salão"));
    return;
  }
  const { id, name } = d;
  /** @type {(HTMLElement | null)[]} */
  const shown = [];
  if (d.relation === "friends") shown.push(h("span", { class: "badge" }, "Amigos"));
  if (d.can_challenge) shown.push(button("Desafiar", () => challengeFriend(id, name), "btn-primary"));
  if (d.relation === "none") {
    shown.push(button("Adicionar", () => act(() => api.post("/api/friends", { player: id }), (r) => (r.status === "friends" ? `Você e ${name} agora são amigos.` : `Pedido de amizade enviado para ${name}.`))));
  }
  if (d.relation === "requested") shown.push(h("button", { type: "button", class: "btn btn-ghost btn-small", disabled: true }, `Pedido enviado a ${name}`));
  if (d.relation === "incoming") {
    shown.push(button("Aceitar pedido", () => act(() => api.post(`/api/friends/${id}/accept`), () => `Você e ${name} agora são amigos.`), "btn-primary"));
  }
  if (d.relation === "blocked") {
    shown.push(button("Desbloquear", () => act(() => api.del(`/api/blocks/${id}`), () => `${name} foi desbloqueado.`), "btn-ghost"));
  } else {
    shown.push(
      button(
        "Bloquear",
        () => {
          if (!window.confirm(`Bloquear ${name}? As mensagens dessa pessoa não chegam mais a você, em nenhuma mesa, e vocês não são postos juntos nas filas. Ela não fica sabendo.`)) return;
          act(() => api.post("/api/blocks", { player: id }), () => `Você bloqueou ${name}.`);
        },
        "btn-ghost",
      ),
    );
  }
  fill(host, ...shown);
}

// ---------------------------------------------------------------------- ratings and graphs

/**
 * A family's ratings over time: a line through one point per ranked match, the highest and the
 * lowest rating written at the side.
 * @param {string} label @param {RatingPoint[]} points
 */
function graph(label, points) {
  const { dots, path, low, high } = graphGeometry(points, GRAPH);
  const said = graphText(label, points);
  const { width, height, left, right, top, bottom } = GRAPH;
  const lowY = height - bottom;
  const last = points[points.length - 1];
  return h(
    "figure",
    { class: "p-graph", "data-family": label },
    h("figcaption", {}, label),
    s(
      "svg",
      { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": said },
      s("title", {}, said),
      s("line", { class: "grid-line", x1: left, x2: width - right, y1: top, y2: top }),
      s("line", { class: "grid-line", x1: left, x2: width - right, y1: lowY, y2: lowY }),
      s("text", { x: left - 6, y: top + 4, "text-anchor": "end" }, dec(high)),
      s("text", { x: left - 6, y: lowY + 4, "text-anchor": "end" }, dec(low)),
      s("text", { x: left, y: height - 6 }, dayText(points[0].at)),
      points.length > 1 ? s("text", { x: width - right, y: height - 6, "text-anchor": "end" }, dayText(last.at)) : null,
      s("path", { class: "rating-line", d: path }),
      ...dots.map((d) => s("circle", { class: "rating-dot", cx: d.x.toFixed(1), cy: d.y.toFixed(1), r: 3 })),
    ),
  );
}

/** @param {Profile} d */
function renderRatings(d) {
  fill(
    need("#p-ratings"),
    ...ratingBoxes(d.kind, d.ratings),
  );
  const graphs = familiesOf(d.kind).filter(([key]) => (d.rating_history[key] || []).length).map(([key, label]) => graph(label, d.rating_history[key]));
  fill(need("#p-graphs"), ...graphs);
}

// ---------------------------------------------------------------------- figures and matches

/** @param {Profile} d */
function renderStats(d) {
  const table = need("#p-stats");
  fill(need("thead", undefined, table), h("tr", {}, ...STATS_HEADINGS.map((t, i) => h("th", { scope: "col", class: i ? "" : "first" }, t))));
  const rows = d.stats.map((line) => {
    const [name, ...cells] = statsRow(line);
    return h("tr", { "data-ruleset": line.ruleset }, h("th", { scope: "row" }, name), ...cells.map((c, i) => h("td", { "data-label": STATS_HEADINGS[i + 1] }, c)));
  });
  fill(need("tbody", undefined, table), ...(rows.length ? rows : [h("tr", {}, h("td", { colspan: STATS_HEADINGS.length }, "Nenhuma partida pública ainda."))]));
  need("#p-stats-note").textContent = d.uncounted
    ? `Contando ${num(d.uncounted)} ${d.uncounted === 1 ? "partida antiga" : "partidas antigas"}: os números ficam completos em alguns minutos.`
    : "";
}

/** @param {Profile} d */
function renderRecent(d) {
  const items = d.recent.map((m) => {
    const { title, detail } = recentLine(m);
    return h(
      "li",
      { class: "table-item" },
      h("span", { class: `result-dot ${m.won ? "won" : "lost"}`, "aria-hidden": "true" }),
      h("div", { class: "table-text" }, h("strong", {}, title), h("span", { class: "muted small" }, detail)),
      h("a", { class: "btn btn-ghost btn-small", href: `replay.html?id=${encodeURIComponent(m.id)}`, "aria-label": `Ver o replay: ${title}` }, "Replay"),
    );
  });
  fill(need("#p-recent"), ...(items.length ? items : [h("li", { class: "muted" }, "Nenhuma partida pública ainda.")]));
}

/** @param {Profile} d */
function renderCommon(d) {
  const card = need("#p-common-card");
  card.hidden = !d.common_friends.length;
  fill(
    need("#p-common"),
    ...d.common_friends.map((f) => h("li", { class: "friend-row" }, h("a", { class: "friend-name", href: profileHref(f.id) }, f.name))),
  );
}

// ---------------------------------------------------------------------- the socket

/** Friends' challenges and their answers, and an event's call to its table, on this page too. */
function listen() {
  const socket = new Socket({
    onFrame: (type, data) => {
      if (type === "tournament") callToTable(data);
      onFriendsFrame(type, data);
    },
    onUnauthorized: () => socket.close(),
  });
  socket.connect();
}

main();
