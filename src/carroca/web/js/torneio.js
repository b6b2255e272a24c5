// @ts-check
// An event's page (torneio.html?id=…): registration, entrants, live standings, the knockout
// bracket, the round's tables to watch, and the podium at the end. A signed-in player's page
// watches the event on its socket (`watch`): the server pushes each change (torneio-live.js), so
// nothing is polled while the socket is up; while it is down the page asks now and then. A
// player whose match starts hears it on their socket (a `tournament` frame) and is taken there.
// ?dupla=CODE joins a dupla as the partner; ?codigo=CODE registers in a private event. Either
// shows a private event's page (and record) to who is neither its creator nor an entrant.

import * as api from "./api.js";
import { markedName } from "./badges.js";
import { fill, h, need, num, param, toast } from "./dom.js";
import { onFriendsFrame } from "./friends.js";
import { inviteBox } from "./invite.js";
import { Socket } from "./socket.js";
import { applyChange, changeFits, ownPart } from "./torneio-live.js";
import { decidedText, lengthText, roundName, signed, tablesInPlay, tiebreaks, tiesAhead, verdict } from "./torneio-text.js";
import { callToTable } from "./tourneys.js";
import { showWho } from "./who.js";
import * as W from "./words.js";

/**
 * @typedef {import("./torneio-text.js").Standing} Standing
 * @typedef {import("./torneio-text.js").Round} Round
 * @typedef {{id: string, name: string, waiting_partner?: boolean, bot_account?: boolean}} Entrant
 * @typedef {{id: string, name: string, status: string, format: string, format_name: string,
 *   ruleset: string, options: Record<string, unknown>, starts_at: number,
 *   total_rounds: number | null, rounds_planned: number | null,
 *   best_of: number, duration: number | null, capacity: number | null, private: boolean,
 *   commitment: string, event_seed: string | null, my_match: string | null,
 *   me: {name: string, entrant: string, partner_invite?: string | null} | null,
 *   creator: boolean, invite: string | null, rounds: Round[], standings: Standing[],
 *   podium: {entrant: string, name: string}[] | null, entrants: Entrant[],
 *   registrations: Entrant[], recurring: string | null, note: string | null}} Tournament what
 *   /api/tournaments/ID answers (`recurring`: "Todo dia às 20h"; `note`: why it was cancelled)
 * @typedef {{id: string | null, code: string | null, me: {name: string} | null,
 *   data: Tournament | null, version: number | null, timer: number | undefined,
 *   ticker: number | undefined, socket: Socket | null}} EventPage
 */

/** Without a socket (signed out): the page asks this often. */
/** @type {Record<string, number>} */
const POLL_MS = { upcoming: 5000, running: 2000 };
/** While the socket is down (it reconnects by itself): a slow look now and then. */
/** @type {Record<string, number>} */
const FALLBACK_MS = { upcoming: 30000, running: 15000 };

/**
 * api.tournament as it behaves (api.js is not type-checked yet: its default alone would say
 * that `code` is always null).
 * @type {(id: string, code?: string | null) => Promise<Tournament>}
 */
const fetchTournament = /** @type {any} */ (api.tournament);

/** @param {unknown} e */
const messageOf = (e) => (e instanceof Error ? e.message : String(e));

/** @type {EventPage} */
const page = {
  id: param("id"),
  code: param("codigo") || param("dupla"),
  me: null,
  data: null,
  version: null,
  timer: undefined,
  ticker: undefined,
  socket: null,
};

/** The event as last fetched: the page draws it only once there is one. */
function shown() {
  if (!page.data) throw new Error("torneio: nothing fetched yet");
  return page.data;
}

async function main() {
  const id = page.id;
  if (!id) {
    notice("Torneio não encontrado.", "error");
    return;
  }
  page.me = await showWho((message) => notice(message, "error"));
  await refresh();
  if (page.me) listen();
  page.ticker = setInterval(renderWhen, 1000);
}

/** @param {string} message @param {string} [kind] */
function notice(message, kind = "info") {
  fill(need("#notice"), message ? h("div", { class: `notice notice-${kind}`, role: "status" }, message) : null);
}

/** The player's socket: a `tournament` frame of this event naming a match is their match. */
function listen() {
  page.socket = new Socket({
    onHello: watch,
    onStatus: (status) => {
      if (status === "online") clearTimeout(page.timer);
      else {
        need("#main").dataset.live = "off";
        if (page.data) schedule(page.data.status);
      }
    },
    onFrame: (/** @type {string} */ type, /** @type {any} */ data) => {
      if (type === "event" || type === "event_change") {
        if (data.event === page.id) pushed(type, data);
        return;
      }
      if (onFriendsFrame(type, data)) return; // a friend's challenge, on this page too
      if (type === "error" && data.code === "moving") {
        setTimeout(watch, 2000); // the event is changing servers: ask again in a moment
        return;
      }
      if (type !== "tournament") return;
      if (data.match) callToTable(data); // this event's game, or another event's
      else if (data.event === page.id) refresh();
    },
  });
  page.socket.connect();
}

/** Follow the event's channel: the answer is the whole page, then each change. */
function watch() {
  if (page.id) page.socket?.send("watch", { event: page.id, ...(page.code ? { code: page.code } : {}) });
}

/**
 * A frame of the event's channel: the whole page (the answer to `watch`, or a change with no
 * base), or a change for the page shown; a change that does not follow asks for the page again.
 * @param {string} type @param {any} data
 */
function pushed(type, data) {
  const myName = page.me ? page.me.name : null;
  if (type === "event") {
    const mine = "creator" in data.view; // the answer to `watch`: with the watcher's own part
    if (!mine && page.version !== null && data.version !== null && data.version <= page.version) return;
    page.data = mine ? data.view : ownPart({ ...data.view, creator: page.data?.creator ?? false, invite: page.data?.invite ?? null }, page.data?.me ?? null, myName);
    page.version = data.version;
  } else {
    if (!page.data) return;
    const fits = changeFits(page.version, data.version);
    if (fits === "skip") return;
    if (fits === "resync") {
      watch();
      return;
    }
    page.data = applyChange(page.data, data, myName);
    page.version = data.version;
  }
  clearTimeout(page.timer);
  render();
  need("#main").dataset.live = "on"; // the page follows the event's channel
}

/** The next look at the server, unless the socket brings the changes. @param {string} status */
function schedule(status) {
  clearTimeout(page.timer);
  const online = page.socket !== null && page.socket.online;
  if (online) return;
  const wait = (page.socket ? FALLBACK_MS : POLL_MS)[status];
  if (wait) page.timer = setTimeout(refresh, document.hidden ? wait * 3 : wait);
}

async function refresh() {
  clearTimeout(page.timer);
  let data;
  try {
    data = await fetchTournament(page.id ?? "", page.code);
    page.data = data;
  } catch (e) {
    notice(messageOf(e), "error");
    need("#main").dataset.status = "error";
    return;
  }
  render();
  schedule(data.status);
}

function render() {
  const d = shown();
  need("#main").dataset.status = d.status;
  document.title = `${d.name} · Torneio · Carroça`;
  need("#t-title").textContent = d.name;
  const length = lengthText(d);
  need("#t-what").textContent = `${eventWhat(d)} · ${length}` +
    `${d.capacity ? ` · ${num(d.capacity)} vagas` : ""}${d.private ? " · privado" : ""}${d.recurring ? ` · ${d.recurring}` : ""}`;
  renderWhen();
  renderActions();
  renderPodium();
  renderBracket();
  renderRound();
  renderStandings();
  renderEntrants();
  need("#t-commitment").textContent = d.commitment;
  fill(
    need("#t-record"),
    h("a", { href: `/api/tournaments/${encodeURIComponent(d.id)}/record${page.code ? `?code=${encodeURIComponent(page.code)}` : ""}`, download: `torneio-${d.id}.json` }, "Baixar o registro do torneio"),
    d.event_seed ? " · a semente já foi revelada: confira com carroca verify." : " · a semente é revelada no fim.",
  );
  if (d.my_match) showMyMatch(d.my_match);
  else showMyVerdict(d);
}

/**
 * Where the player stands, from their latest game decided: a W.O. won or lost, eliminated,
 * champion, and what comes next.
 * @param {Tournament} d
 */
function showMyVerdict(d) {
  const box = need("#my-match");
  const v = d.status === "running" || d.status === "finished" ? verdict(/** @type {any} */ (d), null) : null;
  box.hidden = !v;
  if (!v) return;
  box.dataset.kind = v.kind;
  fill(
    box,
    h("strong", { id: "my-verdict" }, v.wo ? `${v.title} ${v.why}` : v.kind === "champion" ? v.next : v.title),
    v.kind === "champion" ? null : h("span", { id: "my-next" }, v.next),
  );
}

function renderWhen() {
  const d = page.data;
  if (!d) return;
  let text;
  if (d.status === "upcoming") text = `${W.startsText(d.starts_at)} (${new Date(d.starts_at * 1000).toLocaleString("pt-BR")})`;
  else if (d.status === "running") {
    const round = d.rounds.length;
    text = d.format === "arena" ? "Ao vivo" : `Ao vivo · rodada ${round}${d.total_rounds ? ` de ${d.total_rounds}` : ""}`;
  } else if (d.status === "cancelled") text = d.note || "Cancelado: não houve inscritos suficientes.";
  else text = "Terminado";
  need("#t-when").textContent = text;
}

/** @param {string} match */
function showMyMatch(match) {
  const box = need("#my-match");
  box.hidden = false;
  box.dataset.kind = "match";
  fill(
    box,
    h("strong", {}, "Sua partida do torneio começou"),
    h("a", { class: "btn btn-primary", id: "btn-my-match", href: `mesa.html?id=${encodeURIComponent(match)}` }, "Ir para a mesa"),
  );
}

/**
 * A button that runs `action` against the server, shows its error, then fetches the event again.
 * @param {string} label @param {() => Promise<unknown>} action @param {string} [kind]
 * @param {string | null} [id]
 */
function button(label, action, kind = "btn-primary", id = null) {
  const b = h("button", { class: `btn ${kind}`, type: "button", id }, label);
  b.addEventListener("click", async () => {
    b.disabled = true;
    need("#t-error").textContent = "";
    try {
      await action();
    } catch (e) {
      need("#t-error").textContent = messageOf(e);
    } finally {
      b.disabled = false;
    }
    await refresh();
  });
  return b;
}

/** "Suíço · Mano a Mano até 20 pontos": the event's format and ruleset, with what its matches
 * are played to (from the event's options). @param {Tournament} d */
const eventWhat = (d) => `${d.format_name} · ${W.rulesetWithLength(d.ruleset, d.options)}`;

/**
 * An invitation to send, as a friends' table sends its own (invite.js).
 * @param {string} say @param {string} id @param {string} link @param {string} message
 * @param {string} label the field's name, to a screen reader
 */
function invitation(say, id, link, message, label) {
  // The page is drawn again at every update: the invitation stays the same element (its
  // "Convite copiado!" and the field's selection with it).
  const drawn = document.getElementById(id);
  if (drawn && drawn.dataset.link === link) return drawn;
  return h("div", { class: "t-invite", id, dataset: { link } }, h("p", { class: "small" }, say), ...inviteBox({ link, message, title: "Torneio de dominó", label, id }));
}

function renderActions() {
  const d = shown();
  const host = need("#t-actions");
  if (!page.me) {
    fill(host, d.status === "upcoming" ? h("a", { class: "btn btn-primary", href: `/?proximo=${encodeURIComponent(location.pathname + location.search)}` }, "Entrar para se inscrever") : null);
    return;
  }
  /** @type {HTMLElement[]} */
  const items = [];
  const duplas = /** @type {Record<string, {seats: number}>} */ (W.RULESETS)[d.ruleset]?.seats === 4;
  if (d.status === "upcoming") {
    if (!d.me) {
      const dupla = param("dupla");
      const code = param("codigo");
      if (dupla) items.push(button("Entrar na dupla", () => api.registerTournament(d.id, { invite: dupla }), "btn-primary", "btn-register"));
      else {
        items.push(button("Inscrever-se", () => api.registerTournament(d.id, code ? { code } : {}), "btn-primary", "btn-register"));
        if (duplas) items.push(button("Inscrever uma dupla", () => api.registerTournament(d.id, { partner: true, ...(code ? { code } : {}) }), "btn-secondary", "btn-register-dupla"));
      }
    } else {
      items.push(h("span", { class: "badge" }, `Inscrito: ${d.me.name}`));
      items.push(button("Sair do torneio", () => api.withdrawTournament(d.id), "btn-ghost", "btn-withdraw"));
      if (d.me.partner_invite) {
        const link = `${location.origin}/torneio.html?id=${encodeURIComponent(d.id)}&dupla=${encodeURIComponent(d.me.partner_invite)}`;
        items.push(invitation("Mande ao seu parceiro:", "partner-invite", link, `Bora fazer dupla no torneio ${d.name} (${eventWhat(d)})? Entra pelo link:`, "Link do convite do parceiro"));
      }
    }
    if (d.creator) {
      items.push(button("Começar agora", () => api.startTournament(d.id), "btn-secondary", "btn-start"));
      if (d.invite) {
        const link = `${location.origin}/torneio.html?id=${encodeURIComponent(d.id)}&codigo=${encodeURIComponent(d.invite)}`;
        items.push(invitation("Convite do torneio:", "t-invite", link, `Bora jogar o torneio ${d.name} (${eventWhat(d)})? Inscreva-se pelo link:`, "Link do convite do torneio"));
      }
    }
  } else if (d.status === "running" && d.me && !d.standings.find((s) => s.entrant === d.me?.entrant)?.withdrawn) {
    items.push(h("span", { class: "badge" }, `Você joga como ${d.me.name}`));
    items.push(button("Abandonar o torneio", () => api.withdrawTournament(d.id), "btn-ghost", "btn-withdraw"));
  }
  fill(host, ...items);
}

function renderPodium() {
  const d = shown();
  const box = need("#podium");
  box.hidden = !d.podium;
  if (!d.podium) return;
  const medals = ["1º", "2º", "3º"];
  fill(
    need("#podium-list"),
    ...d.podium.map((p, i) =>
      h("li", { class: `podium-${i + 1}`, dataset: { entrant: p.entrant } }, h("span", { class: "medal", "aria-hidden": "true" }, medals[i]), h("strong", {}, p.name)),
    ),
  );
}

/** A knockout's bracket: a column per round, each tie a box with its two sides and the winner
 * marked; rounds not paired yet are drawn empty. */
function renderBracket() {
  const d = shown();
  const card = need("#bracket-card");
  card.hidden = d.format !== "knockout" || !d.rounds.length;
  if (card.hidden) return;
  const total = d.total_rounds || d.rounds.length;
  const columns = [];
  for (let r = 1; r <= total; r++) {
    const rnd = d.rounds[r - 1];
    const ties = rnd ? rnd.tables : [];
    const label = roundName(total, r);
    const boxes = ties.map((t) =>
      h(
        "div",
        { class: "tie", dataset: { round: r, table: t.table } },
        ...t.sides.map((side, i) =>
          h(
            "div",
            { class: `side ${t.winner === side ? "won" : t.winner ? "lost" : ""}` },
            t.names[i],
            t.winner === side && byForfeit(t) ? h("span", { class: "wo-tag", title: "Venceu por W.O.: o adversário não veio" }, "W.O.") : null,
          ),
        ),
      ),
    );
    const empty = rnd ? [] : Array.from({ length: tiesAhead(total, r) }, () => h("div", { class: "tie tie-empty" }, h("div", { class: "side" }, "—"), h("div", { class: "side" }, "—")));
    const byes = rnd ? rnd.byes.map((b) => h("div", { class: "tie tie-bye" }, h("div", { class: "side won" }, nameOf(b)), h("div", { class: "side muted" }, "passa direto"))) : [];
    columns.push(h("div", { class: "bracket-round" }, h("h3", { class: "sub" }, label), ...boxes, ...byes, ...empty));
  }
  fill(need("#bracket"), ...columns);
}

/** A tie decided by a no-show. @param {import("./torneio-text.js").Tie} t */
const byForfeit = (t) => t.games.some((g) => g.outcome && g.outcome.kind === "forfeit");

/** @param {string} entrant */
function nameOf(entrant) {
  const d = shown();
  return d.entrants.find((e) => e.id === entrant)?.name ?? entrant;
}

function renderRound() {
  const d = shown();
  const card = need("#round-card");
  const { round: rnd, ties } = tablesInPlay(d);
  card.hidden = d.status !== "running" || !ties.length;
  if (card.hidden) return;
  need("#round-title").textContent = rnd ? `Mesas da rodada ${rnd.round}` : "Mesas em jogo";
  fill(
    need("#round-tables"),
    ...ties.map((t) => {
      const game = t.games[t.games.length - 1];
      const live = game && game.match && !game.outcome;
      return h(
        "li",
        { class: "table-item" },
        h("div", { class: "table-text" }, h("strong", {}, `${t.names[0]} × ${t.names[1]}`), h("span", { class: "muted small" }, t.winner ? `Venceu ${nameOf(t.winner)}${byForfeit(t) ? " por W.O." : ""}` : live ? "Em jogo" : "Terminada")),
        game && game.match
          ? h("a", { class: "btn btn-ghost btn-small", href: live ? `mesa.html?id=${encodeURIComponent(game.match)}` : `replay.html?id=${encodeURIComponent(game.match)}` }, live ? "Assistir" : "Replay")
          : null,
      );
    }),
  );
}

/** The standings: points, wins and losses, then every number that orders equal points, with
 * the legend of the whole order; a line level with the one above on all of them says what put
 * it below. On a phone the wins and losses move under the name (css: .wide-col). */
function renderStandings() {
  const d = shown();
  const card = need("#standings-card");
  card.hidden = !d.standings.length;
  if (card.hidden) return;
  const order = tiebreaks(d.format);
  const botEntrants = new Set(d.registrations.filter((r) => r.bot_account).map((r) => r.id));
  /** @param {string} short @param {string} label @param {string} [cls] */
  const head = (short, label, cls = "") => h("th", { scope: "col", class: cls, title: label }, h("abbr", { title: label }, short));
  fill(
    need("#standings thead"),
    h(
      "tr",
      {},
      h("th", { scope: "col" }, "#"),
      h("th", { scope: "col" }, "Nome"),
      head("Pts", "Pontos"),
      head("V", "Vitórias", "wide-col"),
      head("D", "Derrotas", "wide-col"),
      ...order.columns.map((c) => head(c.short, c.label)),
    ),
  );
  fill(
    need("#standings tbody"),
    ...d.standings.map((s, i) => {
      const why = decidedText(s.decided, i ? d.standings[i - 1].name : "");
      return h(
        "tr",
        { class: d.me && d.me.entrant === s.entrant ? "me" : "", dataset: { entrant: s.entrant, decided: s.decided } },
        h("td", {}, `${s.rank}º`),
        h(
          "th",
          { scope: "row" },
          h("span", { class: "st-name" }, ...markedName(s.name, botEntrants.has(s.entrant))),
          s.withdrawn ? h("span", { class: "muted small" }, " (saiu)") : null,
          h("span", { class: "st-sub phone-col muted small" }, `${num(s.wins)} V · ${num(s.losses)} D`),
          why ? h("span", { class: "st-why small" }, why) : null,
        ),
        h("td", {}, num(s.points)),
        h("td", { class: "wide-col" }, num(s.wins)),
        h("td", { class: "wide-col" }, num(s.losses)),
        ...order.columns.map((c) => {
          const v = c.value(s);
          return h("td", {}, v === undefined ? "–" : c.signed ? signed(v) : num(v));
        }),
      );
    }),
  );
  need("#tiebreak-legend").textContent = order.legend;
}

function renderEntrants() {
  const d = shown();
  // Before the start, and in an event cancelled at its start (it never had entrants), the list
  // is who registered.
  const registered = d.status === "upcoming" || d.status === "cancelled";
  const list = registered ? d.registrations : d.entrants.map((e) => ({ ...e, waiting_partner: false }));
  const botEntrants = new Set(d.registrations.filter((r) => r.bot_account).map((r) => r.id));
  fill(
    need("#entrants"),
    ...(list.length
      ? list.map((e) => h("li", { dataset: { entrant: e.id } }, ...markedName(e.name, botEntrants.has(e.id)), e.waiting_partner ? h("span", { class: "muted small" }, " (esperando o parceiro)") : null))
      : [h("li", { class: "muted" }, "Ninguém inscrito ainda.")]),
  );
  need("#entrants-title").textContent = `Inscritos (${num(list.length)})`;
}

main().catch((e) => toast(e.message, "error"));
