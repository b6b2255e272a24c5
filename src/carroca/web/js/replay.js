// @ts-check
// The replay viewer (replay.html?id=MATCH[&mao=N&jogada=K]): a finished match, action by
// action, rebuilt from its record by the browser's rules engine — the table, every hand face up,
// who played what, the points of each action and why, the end of each hand — with the expert's
// review of the match when it is ready (GET /api/matches/{id}/analysis; 202 while it runs).

import * as api from "./api.js";
import { botBadge } from "./badges.js";
import { Board } from "./board.js";
import { $$, fill, h, need, param } from "./dom.js";
import { pipsOf } from "./engine.js";
import { profileNamed } from "./perfil-text.js";
import { rebuild } from "./record.js";
import { atMatchEnd as isLastPlace, clampPlace, placeFromAddress, stepFrom } from "./replay-moves.js";
import { stepSentence } from "./speech.js";
import { tileSVG } from "./tiles.js";
import * as W from "./words.js";

/**
 * @typedef {import("./record.js").Rebuilt} Rebuilt
 * @typedef {import("./record.js").Hand} Hand
 * @typedef {import("./record.js").Position} Position
 * @typedef {import("./engine.js").ScoreEvent} ScoreEvent
 * @typedef {{index: number, seat: number, best: string, loss: number, mistake: boolean}} Decision
 *   one decision of the analysis (carroca-analysis/1)
 * @typedef {{id: string | null, data: Rebuilt | null, players: {name: string, bot: boolean, account: boolean}[],
 *   names: string[], labels: string[], viewer: number | null, hand: number, pos: number,
 *   rendered: boolean, board: import("./board.js").Board | null, playing: number | null,
 *   analysis: any, mistakes: Map<string, Decision>, decisions: Map<string, Decision>,
 *   pollTimer: number | undefined, pollStarted: number, polls: number}} Replay
 */

const app = need("#app");
/** @type {Replay} */
const ctx = {
  id: null,
  data: null, // rebuild(record)
  players: [],
  names: [],
  labels: ["", ""],
  viewer: null, // the signed-in player's seat in this match, if any
  hand: 0,
  pos: 0,
  rendered: false,
  board: null,
  playing: null, // the autoplay timer
  analysis: null, // carroca-analysis/1, once ready
  mistakes: new Map(), // "hand:index" -> decision
  decisions: new Map(), // "hand:index" -> decision
  pollTimer: undefined,
  pollStarted: 0,
  polls: 0,
};

const AUTOPLAY_MS = 1100;
const POLL_MS = [1000, 1500, 2000, 3000, 5000];
const POLL_LIMIT_MS = 4 * 60 * 1000;

const ON_END = W.ON_END;

/** The rebuilt record: every view below is drawn only once it is there. */
function loaded() {
  if (!ctx.data) throw new Error("replay: no record loaded");
  return ctx.data;
}

/** How many positions each hand has. */
const lengths = () => loaded().hands.map((hand) => hand.positions.length);

/** @param {unknown} e */
const messageOf = (e) => (e instanceof Error ? e.message : String(e));

/** @param {unknown} e */
const statusOf = (e) => (e instanceof api.ApiError ? e.status : null);

// ---------------------------------------------------------------------- start

async function main() {
  const id = param("id");
  ctx.id = id;
  bindUi();
  if (!id) {
    fatal("Nenhuma partida indicada no endereço.", "Abra o replay pelo histórico de partidas no início.");
    return;
  }
  need("#link-fair", HTMLAnchorElement).href = `justo.html?id=${encodeURIComponent(id)}`;
  let record;
  let who = null;
  /** @type {number[]} the seats bot accounts held (the match's page; none if unreadable) */
  let botAccounts = [];
  try {
    const info = api.get(`/api/matches/${encodeURIComponent(id)}`).then((i) => i.bot_accounts || []).catch(() => []);
    [record, who, botAccounts] = await Promise.all([api.record(id), api.session().catch(() => null), info]);
  } catch (e) {
    if (statusOf(e) === 409) {
      fatal(
        "A partida ainda não terminou",
        "O replay fica pronto no fim da partida. Enquanto isso, dá para assistir ao vivo.",
        h("a", { class: "btn btn-primary", href: `mesa.html?id=${encodeURIComponent(id)}` }, "Assistir à mesa"),
      );
    } else if (statusOf(e) === 404) {
      fatal(
        "Partida não encontrada",
        "Confira o endereço: esta partida não existe neste servidor, ou é uma partida entre amigos que só quem jogou pode ver (entre com o seu apelido).",
      );
    } else {
      fatal("Não deu para abrir o replay", messageOf(e));
    }
    return;
  }
  setup(record, who, botAccounts);
  loadAnalysis();
}

/** @param {string} title @param {string} message @param {...HTMLElement} extra */
function fatal(title, message, ...extra) {
  app.dataset.status = "error";
  const overlay = need("#overlay");
  overlay.hidden = false;
  fill(
    overlay,
    h(
      "div",
      { class: "overlay-card", role: "alert" },
      h("h2", {}, title),
      h("p", {}, message),
      h("div", { class: "end-links" }, ...extra, h("a", { class: "btn btn-secondary", href: "/" }, "Voltar ao início")),
    ),
  );
}

/** @param {any} record @param {any} who the session, or null @param {number[]} botAccounts */
function setup(record, who, botAccounts) {
  const data = rebuild(record);
  ctx.data = data;
  const n = data.n;
  const me = who && who.player ? who.player.name : null;
  const seat = me ? data.players.indexOf(me) : -1;
  ctx.viewer = seat >= 0 ? seat : null;
  const players = data.players.map((/** @type {string} */ name, /** @type {number} */ i) => ({
    name,
    bot: Boolean(W.botLevelOf(name)),
    account: botAccounts.includes(i),
  }));
  ctx.players = players;
  ctx.names = players.map((p, i) => (i === ctx.viewer ? "Você" : W.seatName(p, i)));
  ctx.labels = W.teamLabels({ players, seat: ctx.viewer });
  if (n === 2) ctx.labels = [0, 1].map((s) => ctx.names[s]);
  app.dataset.ruleset = data.ruleset;
  app.dataset.seats = String(n);
  app.dataset.hands = String(data.hands.length);
  app.dataset.verified = String(data.problems.length === 0);
  document.title = `Replay · ${W.rulesetName(data.ruleset)} · Carroça`;
  need("#ruleset-name").textContent = `Replay · ${W.rulesetName(data.ruleset)}`;
  const o = data.options;
  need("#target").textContent = o.target ? `até ${o.target}` : o.hands_to_win ? `${o.hands_to_win} mãos` : "";
  ctx.labels.forEach((label, team) => {
    need(`#score-label-${team}`).textContent = label;
    const us = teamClass(team) === "team-us";
    need(`#score-box-${team}`).classList.toggle("score-us", us);
    need(`#score-box-${team}`).classList.toggle("score-them", !us);
  });
  ctx.board = new Board(need("#board"), { label: "Pedras na mesa" });
  fill(
    need("#hand-select"),
    ...data.hands.map((hand, i) => h("option", { value: String(i) }, handOption(hand))),
  );
  renderProblems();
  if (!data.hands.length) {
    fatal("Partida sem mãos", "O registro desta partida não tem nenhuma mão para mostrar.");
    return;
  }
  const { hand, pos } = placeFromAddress(lengths(), param("mao"), param("jogada"));
  app.dataset.status = "ready";
  go(hand, pos, false);
}

/** @param {Hand} hand */
function handOption(hand) {
  if (!hand.end) return `Mão ${hand.number} · incompleta`;
  return `Mão ${hand.number} · ${endTitle(hand)}`;
}

/**
 * "team-us" for the viewer's team (team 0 when the viewer did not play), else "team-them".
 * @param {number} team
 */
function teamClass(team) {
  const us = ctx.viewer !== null ? W.teamOf(ctx.viewer, loaded().n) : 0;
  return team === us ? "team-us" : "team-them";
}

/** @param {Hand} hand */
function endTitle(hand) {
  return W.handEndTitle(hand.end, ctx.names, loaded().ruleset);
}

// ---------------------------------------------------------------------- moving

function current() {
  const hand = loaded().hands[ctx.hand];
  return { hand, pos: hand.positions[ctx.pos] };
}

/** @param {number} handIndex @param {number} pos @param {boolean} [animate] */
function go(handIndex, pos, animate = false) {
  const changedHand = handIndex !== ctx.hand || !ctx.rendered;
  const place = clampPlace(lengths(), handIndex, pos);
  ctx.hand = place.hand;
  ctx.pos = place.pos;
  if (changedHand) renderTimeline();
  render(animate);
  ctx.rendered = true;
  const url = new URL(location.href);
  url.searchParams.set("mao", String(ctx.hand + 1));
  url.searchParams.set("jogada", String(ctx.pos));
  history.replaceState(null, "", url);
}

/** One action forward (delta > 0) or back; false at either end of the match. @param {number} delta */
function step(delta) {
  const next = stepFrom(lengths(), { hand: ctx.hand, pos: ctx.pos }, delta);
  if (!next) return false;
  go(next.hand, next.pos, next.animate);
  return true;
}

/** @param {boolean} [force] */
function togglePlay(force) {
  const on = force ?? !ctx.playing;
  clearInterval(ctx.playing ?? undefined);
  ctx.playing = null;
  if (on) {
    if (atMatchEnd()) go(0, 0);
    ctx.playing = setInterval(() => {
      if (!step(1) || atMatchEnd()) togglePlay(false);
    }, AUTOPLAY_MS);
  }
  const btn = need("#btn-play");
  btn.setAttribute("aria-pressed", String(on));
  btn.setAttribute("aria-label", on ? "Pausar" : "Reproduzir");
  app.dataset.playing = String(on);
}

function atMatchEnd() {
  return isLastPlace(lengths(), { hand: ctx.hand, pos: ctx.pos });
}

// ---------------------------------------------------------------------- rendering

/** @param {boolean} animate */
function render(animate) {
  const { hand, pos } = current();
  const last = hand.positions.length - 1;
  app.dataset.hand = String(ctx.hand);
  app.dataset.step = String(ctx.pos);
  app.dataset.atEnd = String(ctx.pos === last);
  need("#hand-select", HTMLSelectElement).value = String(ctx.hand);
  const scrub = need("#scrub", HTMLInputElement);
  scrub.max = String(last);
  scrub.value = String(ctx.pos);
  scrub.setAttribute("aria-valuetext", positionText(hand, ctx.pos));
  need("#position").textContent = positionText(hand, ctx.pos);
  need("#btn-prev", HTMLButtonElement).disabled = ctx.hand === 0 && ctx.pos === 0;
  need("#btn-first", HTMLButtonElement).disabled = ctx.pos === 0;
  need("#btn-last", HTMLButtonElement).disabled = ctx.pos === last;
  need("#btn-next", HTMLButtonElement).disabled = atMatchEnd();
  renderScores(pos.score);
  renderBoard(pos, animate && pos.step && pos.step.type === "play");
  renderInfo(hand, pos);
  renderHands(hand, pos);
  renderNarration(hand, pos);
  renderEnd(hand);
  markTimeline();
}

/** @param {Hand} hand @param {number} k */
function positionText(hand, k) {
  const total = hand.positions.length - 1;
  const hands = loaded().hands.length;
  return k === 0
    ? `Mão ${hand.number} de ${hands} · as pedras distribuídas`
    : `Mão ${hand.number} de ${hands} · jogada ${k} de ${total}`;
}

/** @param {number[]} score */
function renderScores(score) {
  score.forEach((points, team) => {
    const el = need(`#score-${team}`);
    el.textContent = String(points);
    need(`#score-box-${team}`).setAttribute("aria-label", `${ctx.labels[team]}: ${points} pontos`);
  });
}

/** @param {Position} pos @param {boolean} animate */
function renderBoard(pos, animate) {
  const plays = pos.table;
  const board = ctx.board;
  if (!board) return;
  board.render({ plays: /** @type {import("./board.js").Play[]} */ (plays), spinner: W.SPINNER.has(loaded().ruleset), animate });
  const ends = Object.entries(pos.ends)
    .map(([end, v]) => `${/** @type {Record<string, string>} */ (W.END_NAMES)[end]} ${v}`)
    .join(", ");
  board.svg.setAttribute(
    "aria-label",
    plays.length
      ? `Mesa com ${plays.length} ${plays.length === 1 ? "pedra" : "pedras"}; pontas: ${ends}`
      : "Mesa vazia",
  );
  const empty = need("#board-empty");
  empty.hidden = plays.length > 0;
  if (!plays.length) {
    const { hand } = current();
    empty.textContent = hand.opener >= 0 ? `Saída de ${ctx.names[hand.opener]}` : "Mesa vazia";
  }
}

/** @param {Hand} hand @param {Position} pos */
function renderInfo(hand, pos) {
  const parts = [];
  const rs = loaded().ruleset;
  if (pos.table.length && (rs === "duplas-pontos" || rs === "pontos")) {
    const hot = pos.count > 0 && pos.count % 5 === 0;
    parts.push(h("span", { class: `chip ${hot ? "chip-hot" : ""}`, title: "Soma das pontas" }, "Mesa ", h("strong", {}, String(pos.count))));
  }
  const ends = Object.values(pos.ends);
  if (pos.table.length && ends.length) parts.push(h("span", { class: "chip" }, "Pontas ", h("strong", {}, ends.join(" · "))));
  if (W.DRAWS.has(rs)) {
    parts.push(h("span", { class: "chip", title: "Pedras no monte (dorme)" }, "Monte ", h("strong", {}, String(pos.boneyard))));
  }
  fill(need("#table-info"), ...parts);
}

/** @param {Hand} hand @param {Position} pos */
function renderHands(hand, pos) {
  const n = loaded().n;
  const acted = pos.step ? pos.step.seat : null;
  const rows = pos.hands.map((tiles, seat) => {
    const team = W.teamOf(seat, n);
    const turn = pos.turn === seat;
    const classes = ["hand-row", teamClass(team)];
    if (turn) classes.push("turn");
    if (acted === seat) classes.push("acted");
    const count = tiles.length;
    const label = `${ctx.names[seat]}${n === 4 ? ` (${ctx.labels[team]})` : ""}: ` +
      (count ? `${count} ${count === 1 ? "pedra" : "pedras"}, ${pipsOf(tiles)} pontos na mão` : "sem pedras") +
      (turn ? ", na vez" : "");
    return h(
      "li",
      { class: classes.join(" "), dataset: { seat, count } },
      h(
        "div",
        { class: "hand-who" },
        h("span", { class: "avatar small", "aria-hidden": "true" }, ctx.names[seat].slice(0, 1).toUpperCase()),
        h(
          "span",
          { class: "hand-name" },
          ctx.players[seat].bot
            ? h("span", { class: "hand-player" }, ctx.names[seat])
            : h("a", { class: "hand-player", href: profileNamed(ctx.players[seat].name), title: `Perfil de ${ctx.players[seat].name}` }, ctx.names[seat]),
          ctx.players[seat].account ? botBadge() : null,
          h("span", { class: "hand-team" }, seatNote(seat, turn)),
        ),
      ),
      h(
        "div",
        { class: "hand-tiles", role: "img", "aria-label": `${label}${count ? `: ${tiles.map(W.tileName).join(", ")}` : ""}` },
        ...(count ? tiles.map((t) => h("span", { class: "mini", dataset: { piece: t } }, tileSVG(t))) : [h("em", {}, "sem pedras")]),
      ),
      h("span", { class: "hand-pips", title: "Pontos na mão", "aria-hidden": "true" }, String(pipsOf(tiles))),
    );
  });
  fill(need("#hands"), ...rows);
}

/**
 * Under the name: "Nós"/"Eles" for a player of the match, "parceiro de …" otherwise (2v2).
 * @param {number} seat @param {boolean} turn
 */
function seatNote(seat, turn) {
  const n = loaded().n;
  if (turn) return "na vez";
  if (n === 4 && ctx.viewer !== null) return ctx.labels[W.teamOf(seat, n)];
  if (n === 4) return `com ${ctx.names[(seat + 2) % 4]}`;
  return ctx.players[seat].bot ? `bot ${W.botLevelName(W.botLevelOf(ctx.players[seat].name))}` : "";
}

/**
 * What a seat did, in the past tense, for the narration and the list of actions.
 * @param {import("./engine.js").Step} step @param {number} k
 */
function stepText(step, k) {
  const { hand } = current();
  const opening = step.type === "pass" && hand.positions[k].events.some((e) => e.reason === "saida-passada");
  return stepSentence(step, ctx.names[step.seat], { opening });
}

/** @param {ScoreEvent[]} events */
function eventItems(events) {
  return events.map((e) =>
    h(
      "li",
      { class: `pts ${teamClass(e.team)}` },
      h("strong", {}, `+${e.points}`),
      ` ${ctx.labels[e.team]} · ${W.reasonName(e.reason)}`,
    ),
  );
}

/** @param {Hand} hand @param {Position} pos */
function renderNarration(hand, pos) {
  const box = need("#narration");
  const parts = [];
  if (!pos.step) {
    parts.push(h("p", { class: "narration-title" }, `Mão ${hand.number}: as pedras foram distribuídas.`));
    parts.push(h("p", {}, openingText(hand)));
  } else {
    const step = pos.step;
    parts.push(
      h(
        "p",
        { class: "narration-title" },
        step.type === "play" ? h("span", { class: "narration-tile", "aria-hidden": "true" }, tileSVG(step.tile, { horizontal: true })) : null,
        h("span", {}, `${stepText(step, ctx.pos)}.`),
      ),
    );
    if (step.auto) parts.push(h("p", { class: "muted small" }, "Jogada automática: o tempo do jogador acabou e o servidor jogou por ele."));
    const during = pos.events.filter((e) => !isEndReason(e, hand, pos));
    if (during.length) parts.push(h("ul", { class: "pts-list" }, ...eventItems(during)));
    else if (step.type === "play" && W.SPINNER.has(loaded().ruleset) && pos.count % 5 !== 0) {
      parts.push(h("p", { class: "muted small" }, `Soma das pontas: ${pos.count} — não é múltiplo de 5, ninguém marca.`));
    }
    const decision = ctx.decisions.get(`${ctx.hand}:${ctx.pos - 1}`);
    if (decision && decision.mistake) parts.push(mistakeNote(decision, true));
    else if (decision && ctx.analysis) {
      parts.push(h("p", { class: "good small" }, decision.loss === 0 ? "O especialista faria o mesmo." : `Quase a melhor: ${lossText(decision.loss)} pontos esperados a menos que ${optionText(decision.best)}.`));
    }
  }
  fill(box, ...parts);
}

/** @param {ScoreEvent} e @param {Hand} hand @param {Position} pos */
function isEndReason(e, hand, pos) {
  return pos.index === hand.positions.length - 1 && hand.end && hand.events.includes(e) && e.index === -1;
}

/** @param {Hand} hand */
function openingText(hand) {
  const data = loaded();
  const who = ctx.names[hand.opener] ?? "";
  const rs = data.ruleset;
  const first = hand.number === 1;
  const opening = hand.positions[1]?.step;
  if (opening && opening.type === "five-doubles") {
    return `${ctx.names[opening.seat]} recebeu cinco carroças ou mais e escolhe antes da saída: pontos ou embaralhar de novo.`;
  }
  if (rs === "duplas-pontos" || rs === "duplas-torneio") {
    if (first) return `Primeira mão: sai quem tem a carroça de sena (6-6), com ela — ${who}.`;
    if (rs === "duplas-torneio") return `Sai ${who}, que bateu ou trancou a mão anterior, com a pedra que quiser.`;
    const prev = data.hands[hand.number - 2];
    if (prev && prev.end && prev.end.kind === "fechado") return `Depois de jogo fechado volta a regra da primeira mão: sai o 6-6 — ${who}.`;
    if (data.options.always_six_six) return `Nesta mesa toda mão sai com o 6-6 — ${who}.`;
    return `Sai quem bateu na mão anterior, com a carroça que quiser — ${who}. Sem carroça, passa a saída e os adversários marcam 20.`;
  }
  if (first) return `Primeira mão: sai quem tem a maior carroça (ou, sem carroça, a pedra mais pesada) — ${who}.`;
  if (rs === "mano-a-mano") return `No Mano a Mano a saída alterna: agora sai ${who}, com a pedra que quiser.`;
  return `Sai ${who}, com a pedra que quiser.`;
}

/** @param {Hand} hand */
function renderEnd(hand) {
  const box = need("#end-box");
  const last = hand.positions.length - 1;
  if (ctx.pos !== last || !hand.end) {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  box.hidden = false;
  const end = hand.end;
  /** @type {HTMLElement[]} */
  const body = [h("h2", { class: "end-title" }, endTitle(hand))];
  body.push(h("p", { class: "muted" }, endExplain(hand)));
  const endEvents = hand.events.filter((e) => e.index === -1);
  if (endEvents.length) body.push(h("ul", { class: "pts-list" }, ...eventItems(endEvents)));
  else if (end.kind !== "redeal" && end.kind !== "abandon") body.push(h("p", {}, "Ninguém marcou no fim da mão."));
  const totals = totalsByReason(hand.events);
  if (totals.length && hand.events.some((e) => e.index >= 0)) {
    body.push(
      h(
        "details",
        { class: "hand-total" },
        h("summary", {}, "Todos os pontos da mão"),
        h("ul", { class: "pts-list" }, ...totals.map((t) =>
          h("li", { class: `pts ${teamClass(t.team)}` }, h("strong", {}, `+${t.points}`),
            ` ${ctx.labels[t.team]} · ${W.reasonName(t.reason)}${t.times > 1 ? ` (${t.times}×)` : ""}`))),
      ),
    );
  }
  const score = hand.score ?? hand.positions[last].score; // the same once the hand has ended
  body.push(h("p", { class: "end-score" }, `${ctx.labels[0]} ${score[0]} × ${score[1]} ${ctx.labels[1]}`));
  if (ctx.hand === loaded().hands.length - 1) body.push(...resultBlock());
  fill(box, ...body);
}

/** @param {Hand} hand */
function endExplain(hand) {
  const end = hand.end;
  if (!end) return "";
  const rs = loaded().ruleset;
  const who = end.seat !== null && end.seat !== undefined ? ctx.names[end.seat] : "";
  switch (end.kind) {
    case "batida":
      if (rs === "duplas-pontos") return `${who} bateu: a dupla marca a garagem, os pontos que sobraram na mão dos adversários, arredondados para baixo no múltiplo de 5${end.detail === "batida-carroca" ? ", mais 20 pela batida de carroça" : ""}.`;
      if (rs === "duplas-torneio") return `${who} bateu: a dupla marca os pontos de todas as pedras que sobraram${end.detail === "capicu" ? " — e foi capicú: a última pedra servia nas duas pontas" : ""}.`;
      if (rs === "mano-a-mano") return `${who} bateu e marca os pontos que sobraram na mão do outro.`;
      if (rs === "classico") return `${who} bateu e vence a mão: 1 ponto.`;
      if (rs === "bloqueio") return `${who} bateu: a batida vale pelo tipo — simples 1, de carroça 2, lá-e-lô 3, cruzada 4.`;
      return `${who} bateu.`;
    case "fechado": {
      const base = `Ninguém mais tinha pedra que servisse: o jogo ${rs === "duplas-pontos" ? "fechou" : "trancou"} (quem trancou: ${who}). Cada lado soma as pedras que sobraram; `;
      if (rs === "duplas-pontos") return `${base}a dupla com menos pontos marca a soma da outra, arredondada no múltiplo de 5.`;
      if (rs === "duplas-torneio") return `${base}a dupla com menos pontos marca todos os pontos que sobraram.`;
      if (rs === "mano-a-mano") return `${base}vence quem tem menos e marca os pontos do outro. No empate, perde quem trancou.`;
      return `${base}vence a mão quem tem menos. Empate: ninguém vence.`;
    }
    case "redeal":
      return "Cinco carroças numa mão: o jogador pediu para embaralhar e distribuir de novo.";
    case "abandon":
      return `${who} estourou o tempo três vezes seguidas: é abandono, e a vitória vai para o outro lado.`;
    default:
      return "";
  }
}

/** @param {ScoreEvent[]} events */
function totalsByReason(events) {
  /** @type {Map<string, {team: number, reason: string, points: number, times: number}>} */
  const map = new Map();
  for (const e of events) {
    const key = `${e.team}:${e.reason}`;
    const t = map.get(key) ?? { team: e.team, reason: e.reason, points: 0, times: 0 };
    t.points += e.points;
    t.times += 1;
    map.set(key, t);
  }
  return [...map.values()];
}

function resultBlock() {
  const data = loaded();
  const res = data.engineResult || data.result;
  if (!res) return [h("p", { class: "muted" }, "A partida não terminou neste registro.")];
  const out = [
    h(
      "p",
      { class: "result", "data-testid": "result" },
      `Fim da partida: vitória de ${ctx.labels[res.winner]}, ${res.score[0]} × ${res.score[1]}.`,
    ),
  ];
  if (res.pneu) out.push(h("p", { class: "end-pneu" }, `Pneu! ${W.zeroText(ctx.labels[1 - res.winner])}.`));
  if (res.reason === "abandon") out.push(h("p", { class: "muted" }, "A partida terminou por abandono."));
  return out;
}

function renderProblems() {
  const box = need("#problems");
  const problems = loaded().problems;
  if (!problems.length) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  fill(
    box,
    h("h2", {}, "Este registro não confere com as regras"),
    h("p", {}, "O replay refez a partida com as regras da modalidade e encontrou:"),
    h(
      "ul",
      {},
      ...problems.map((p) => {
        const where = p.hand === null ? "" : `Mão ${p.hand + 1}${p.action === null ? "" : `, jogada ${p.action + 1}`}: `;
        return h("li", {}, where + p.message);
      }),
    ),
  );
}

// ---------------------------------------------------------------------- timeline

function renderTimeline() {
  const data = loaded();
  const hand = data.hands[ctx.hand];
  const items = [
    h("li", {}, h("button", { type: "button", class: "tl-item", dataset: { pos: 0 }, onclick: () => go(ctx.hand, 0) },
      h("span", { class: "tl-n" }, "0"), h("span", { class: "tl-text" }, "Pedras distribuídas"))),
  ];
  hand.positions.slice(1).forEach((pos, i) => {
    const k = i + 1;
    const decision = ctx.decisions.get(`${ctx.hand}:${i}`);
    const mistake = decision && decision.mistake;
    const points = pos.events.map((e) => `+${e.points} ${ctx.labels[e.team]}`).join(", ");
    items.push(
      h(
        "li",
        { class: mistake ? "mistake" : "", dataset: { index: i } },
        h(
          "button",
          {
            type: "button",
            class: `tl-item ${teamClass(W.teamOf(pos.step.seat, data.n))}`,
            dataset: { pos: k },
            onclick: () => go(ctx.hand, k),
          },
          h("span", { class: "tl-n" }, String(k)),
          h(
            "span",
            { class: "tl-text" },
            stepText(pos.step, k),
            points ? h("span", { class: "tl-pts" }, ` · ${points}`) : null,
            pos.step.auto ? h("span", { class: "badge" }, "auto") : null,
            mistake ? h("span", { class: "badge badge-error" }, "erro") : null,
          ),
        ),
        mistake ? h("p", { class: "tl-better" }, `Melhor: ${optionText(decision.best)} (−${lossText(decision.loss)} pontos esperados)`) : null,
      ),
    );
  });
  fill(need("#timeline"), ...items);
}

function markTimeline() {
  const list = need("#timeline");
  let currentItem = null;
  for (const btn of $$(".tl-item", list)) {
    const on = Number(btn.dataset.pos) === ctx.pos;
    if (on) {
      btn.setAttribute("aria-current", "step");
      currentItem = btn;
    } else {
      btn.removeAttribute("aria-current");
    }
  }
  // Keep the current action in view inside the list (never scroll the page itself).
  if (currentItem && list.scrollHeight > list.clientHeight + 1) {
    const top = currentItem.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - currentItem.offsetHeight) {
      list.scrollTop = Math.max(0, top - list.clientHeight / 2);
    }
  }
}

// ---------------------------------------------------------------------- analysis

/** @param {string} action */
function optionText(action) {
  if (action === "draw") return "comprar";
  if (action === "pass") return "passar";
  if (action === "five-doubles:points") return "ficar com os pontos das cinco carroças";
  if (action === "five-doubles:redeal") return "embaralhar de novo";
  const [tile, end] = action.split(":");
  return end ? `${tile} ${ON_END[end]}` : `sair com ${tile}`;
}

/** @param {number} loss */
function lossText(loss) {
  const small = ctx.data && (ctx.data.ruleset === "classico" || ctx.data.ruleset === "bloqueio");
  return new Intl.NumberFormat("pt-BR", { minimumFractionDigits: small ? 2 : 1, maximumFractionDigits: small ? 2 : 1 }).format(loss);
}

/** @param {Decision} d @param {boolean} [big] */
function mistakeNote(d, big = false) {
  return h(
    "div",
    { class: `mistake-note ${big ? "big" : ""}`, "data-testid": "mistake-note" },
    h("strong", {}, "Erro, segundo o especialista"),
    h("span", {}, `Melhor seria ${optionText(d.best)}: esta jogada perde ${lossText(d.loss)} pontos esperados.`),
  );
}

async function loadAnalysis() {
  const box = need("#analysis");
  clearTimeout(ctx.pollTimer);
  if (!ctx.pollStarted) ctx.pollStarted = Date.now();
  setAnalysisState("loading", [h("p", { class: "muted" }, "Buscando a análise…")]);
  let data;
  try {
    data = await api.get(`/api/matches/${encodeURIComponent(ctx.id ?? "")}/analysis`);
  } catch (e) {
    setAnalysisState("error", [
      h("p", {}, statusOf(e) === 409 ? "A análise sai depois do fim da partida." : `A análise não está disponível: ${messageOf(e)}`),
      retryButton(),
    ]);
    return;
  }
  if (!data || data.format !== "carroca-analysis/1") {
    const waited = Date.now() - ctx.pollStarted;
    if (waited > POLL_LIMIT_MS) {
      setAnalysisState("slow", [h("p", {}, "A análise está demorando mais que o normal."), retryButton()]);
      return;
    }
    setAnalysisState("pending", [
      h(
        "p",
        { class: "pending" },
        h("span", { class: "spinner", "aria-hidden": "true" }),
        h("span", {}, `Análise do especialista em andamento… O bot ${W.botLevelName(W.ANALYSIS_LEVEL)} está revendo cada decisão da partida; isto leva alguns segundos.`),
      ),
    ]);
    ctx.polls = (ctx.polls ?? 0) + 1;
    ctx.pollTimer = setTimeout(loadAnalysis, POLL_MS[Math.min(ctx.polls - 1, POLL_MS.length - 1)]);
    return;
  }
  showAnalysis(data);
  box.dataset.state = "ready";
}

function retryButton() {
  return h("button", { class: "btn btn-secondary btn-small", type: "button", onclick: () => {
    ctx.pollStarted = Date.now();
    ctx.polls = 0;
    loadAnalysis();
  } }, "Tentar de novo");
}

/** @param {string} state @param {HTMLElement[]} children */
function setAnalysisState(state, children) {
  need("#analysis").dataset.state = state;
  app.dataset.analysis = state;
  fill(need("#analysis-body"), ...children);
}

/** @param {any} analysis carroca-analysis/1 */
function showAnalysis(analysis) {
  ctx.analysis = analysis;
  ctx.mistakes.clear();
  ctx.decisions.clear();
  (analysis.hands || []).forEach((/** @type {any} */ hand, /** @type {number} */ hi) => {
    for (const d of hand.decisions || []) {
      ctx.decisions.set(`${hi}:${d.index}`, d);
      if (d.mistake) ctx.mistakes.set(`${hi}:${d.index}`, d);
    }
  });
  const settings = analysis.settings || {};
  const per = (analysis.summary && analysis.summary.per_seat) || [];
  const rows = per.map((/** @type {any} */ s, /** @type {number} */ seat) =>
    h(
      "tr",
      {},
      h("th", { scope: "row" }, ctx.names[seat] ?? `Lugar ${seat + 1}`),
      h("td", {}, String(s.decisions)),
      h("td", {}, String(s.mistakes)),
      h("td", {}, lossText(s.points_lost)),
    ),
  );
  const list = [...ctx.mistakes.entries()].map(([key, d]) => {
    const [hi, index] = key.split(":").map(Number);
    return h(
      "li",
      {},
      h(
        "button",
        { type: "button", class: "btn btn-ghost btn-small mistake-jump", onclick: () => go(hi, index + 1) },
        `Mão ${hi + 1}, jogada ${index + 1}: ${ctx.names[d.seat]} — melhor ${optionText(d.best)} (−${lossText(d.loss)})`,
      ),
    );
  });
  setAnalysisState("ready", [
    h(
      "p",
      { class: "muted small" },
      `Cada decisão foi avaliada pelo bot ${W.botLevelName(settings.level ?? W.ANALYSIS_LEVEL)} só com o que o jogador sabia naquela hora (${settings.worlds ?? "vários"} mundos sorteados por decisão). ` +
        `Erro: perder ${lossText(settings.threshold ?? 5)} pontos esperados ou mais.`,
    ),
    h(
      "table",
      { class: "analysis-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Jogador"), h("th", { scope: "col" }, "Decisões"), h("th", { scope: "col" }, "Erros"), h("th", { scope: "col" }, "Pontos perdidos"))),
      h("tbody", {}, ...rows),
    ),
    list.length ? h("ul", { class: "mistake-list" }, ...list) : h("p", {}, "Nenhum erro: ninguém perdeu pontos esperados que valessem a marca."),
  ]);
  renderTimeline();
  render(false);
}

// ---------------------------------------------------------------------- wiring

function bindUi() {
  need("#btn-next").addEventListener("click", () => step(1));
  need("#btn-prev").addEventListener("click", () => step(-1));
  need("#btn-first").addEventListener("click", () => go(ctx.hand, 0));
  need("#btn-last").addEventListener("click", () => go(ctx.hand, lengths()[ctx.hand] - 1));
  need("#btn-play").addEventListener("click", () => togglePlay());
  need("#hand-select").addEventListener("change", (/** @type {Event} */ ev) => go(Number(/** @type {HTMLSelectElement} */ (ev.target).value), 0));
  need("#scrub").addEventListener("input", (/** @type {Event} */ ev) => go(ctx.hand, Number(/** @type {HTMLInputElement} */ (ev.target).value)));
  document.addEventListener("keydown", (ev) => {
    if (!ctx.data || app.dataset.status !== "ready") return;
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const tag = ev.target instanceof Element ? ev.target.tagName : null;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    const hands = ctx.data.hands;
    let handled = true;
    switch (ev.key) {
      case "ArrowRight":
        step(1);
        break;
      case "ArrowLeft":
        step(-1);
        break;
      case "Home":
        go(ctx.hand, 0);
        break;
      case "End":
        go(ctx.hand, hands[ctx.hand].positions.length - 1);
        break;
      case "PageDown":
        if (ctx.hand < hands.length - 1) go(ctx.hand + 1, 0);
        break;
      case "PageUp":
        if (ctx.hand > 0) go(ctx.hand - 1, 0);
        break;
      default:
        handled = false;
    }
    if (handled) ev.preventDefault();
  });
  /** @type {any} */ (window).carroca = { ctx };
}

main();
