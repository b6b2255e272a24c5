// @ts-check
// The tutorial (tutorial.html): a first hand of duplas de pontos, guided step by step, played in
// the browser without a server. The deal and every action come from tutorial-hand.js; the rules
// engine (engine.js) plays them, so what lights up, what scores and why are the real rules. The
// player is asked for each of their moves and a wrong tile, end or pass is refused with the
// reason. Query parameter `ritmo`: milliseconds between the other players' moves (default 900).

import { Board } from "./board.js";
import { $, bumpText, fill, h, need, param } from "./dom.js";
import { Game, halves } from "./engine.js";
import { seatPlaces } from "./layout.js";
import { backSVG, tileSVG } from "./tiles.js";
import { ACTIONS, DEAL, RULESET } from "./tutorial-hand.js";
import * as W from "./words.js";

const app = need("#app");
const NAMES = ["Você", "Tião", "Dona Cida", "Juca"];
const LABELS = ["Nós", "Eles"];
const PLACES = seatPlaces(4, 0);
/** @type {Record<string, string>} */
const ON_END = W.ON_END;
/** @type {Record<string, string>} */
const END_WORD = { left: "da esquerda", right: "da direita", up: "de cima", down: "de baixo" };
/** @type {Record<string, string>} */
const END_NAMES = W.END_NAMES;

/**
 * @typedef {import("./engine.js").ScoreEvent} ScoreEvent
 * @typedef {{tile: string, ends: string[], onChoose: (end: string) => void}} EndChoice
 * @typedef {{svg: SVGSVGElement, render: (args: {plays: import("./engine.js").Placed[],
 *   spinner?: boolean, choice?: EndChoice | null, animate?: boolean}) => void}} TableBoard
 *   what the lesson uses of board.js's Board
 * @typedef {{game: Game | null, board: TableBoard | null, beat: number, step: number, waiting: string,
 *   selected: string | null, counts: number[], events: ScoreEvent[][],
 *   timer: number | undefined, ritmo: number, lastSeat: number | null}} Lesson
 * @typedef {{kind: "say", text: () => string, button?: string}
 *   | {kind: "turn", step: number, text: () => string, why?: string | (() => string)}
 *   | {kind: "bots", until: number}
 *   | {kind: "end"}} Beat
 */

/** @type {Lesson} */
const t = {
  game: null,
  board: null,
  beat: 0,
  step: 0, // the next action of ACTIONS to happen
  waiting: "none",
  selected: null,
  counts: [], // the table count after each action
  events: [], // the points of each action
  timer: undefined,
  ritmo: 900,
  lastSeat: null,
};

/** The game of the lesson, dealt by start() before anything is shown. */
function started() {
  if (!t.game) throw new Error("tutorial: no game dealt");
  return t.game;
}

/** The board, drawn by main() before the lesson starts. */
function board() {
  if (!t.board) throw new Error("tutorial: no board");
  return t.board;
}

// ---------------------------------------------------------------------- text helpers

/** "texto com **negrito**" -> nodes with <strong>. @param {string} text */
function rich(text) {
  return text.split(/(\*\*[^*]+\*\*)/).map((part) =>
    part.startsWith("**") ? h("strong", {}, part.slice(2, -2)) : part,
  );
}

/** The points of action `step` (for `reason` only, when given). @param {number} step @param {string} [reason] */
const pts = (step, reason) => {
  const e = t.events[step].find((ev) => !reason || ev.reason === reason);
  return e ? e.points : 0;
};

/** @param {string[]} items */
function list(items) {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} e ${items[items.length - 1]}`;
}

function openEndsText() {
  return list(Object.values(started().openEnds()).map(String));
}

// ---------------------------------------------------------------------- the lesson

/**
 * The beats of the lesson, in order:
 *   say: an explanation and a button;
 *   turn: the player's move, ACTIONS[step] (why: the reason for this tile, for a player who
 *     taps another one that also fits);
 *   bots: the other players play until ACTIONS[until];
 *   end: the summary of the hand.
 */
/** @type {Beat[]} */
const BEATS = [
  {
    kind: "say",
    button: "Começar",
    text: () =>
      "Bem-vindo à mesa! Vamos jogar uma mão de **dominó em duplas de pontos**, a modalidade das " +
      "rodas de bar. Você joga com a **Dona Cida**, sentada à sua frente: vocês são **Nós**. O " +
      "**Tião** e o **Juca** são **Eles**. A vez passa para o lado: você, Tião, Dona Cida, Juca.",
  },
  {
    kind: "say",
    text: () =>
      "Embaixo está a **sua mão**: 7 pedras que só você vê. Cada pedra tem dois lados, com números " +
      "de 0 (a branca) a 6 (a sena), e vale a soma dos dois. A pedra de lados iguais é a " +
      "**carroça**: você tem duas, o 2-2 e o 6-6. São 28 pedras, e nas duplas todas são " +
      "distribuídas: ninguém compra.",
  },
  {
    kind: "turn",
    step: 0,
    text: () =>
      "**A saída.** Na primeira mão sai quem tem a carroça de sena, o 6-6 — é você! Toque no " +
      "**6-6** para fazer a saída.",
  },
  {
    kind: "say",
    text: () =>
      "A carroça da saída é o centro da mesa. Por enquanto ela tem duas **pontas**, esquerda e " +
      "direita, as duas mostrando 6. Depois de **cada jogada** somam-se as pontas: se a soma der " +
      "múltiplo de 5, a dupla de quem jogou marca esses pontos na hora. Com uma pedra só, vale a " +
      `pedra inteira: ${t.counts[0]} — não é múltiplo de 5, ninguém marca.`,
  },
  { kind: "bots", until: 2 },
  {
    kind: "say",
    text: () =>
      "**Passe!** O Tião não tem nenhuma pedra com 6, então passou a vez. Quando alguém passa, a " +
      `dupla de quem jogou antes dele marca ${pts(1)} — foi você: **Nós +${pts(1)}**. Fazer o ` +
      "próximo adversário passar rende pontos.",
  },
  { kind: "bots", until: 4 },
  {
    kind: "say",
    text: () =>
      "A Dona Cida jogou o 3-6 na esquerda. Soma: 3 na esquerda mais a carroça ainda descoberta " +
      `na direita, que conta dobrado (6 + 6): 3 + 12 = ${t.counts[2]} — **Nós +${pts(2)}**. O ` +
      `Juca respondeu com o 2-6 na direita: 3 + 2 = ${t.counts[3]}, **Eles +${pts(3)}**. Agora ` +
      "que a carroça tem pedra dos dois lados, abriram-se as pontas **de cima e de baixo**: a " +
      "mesa cresce em cruz. Elas só entram na soma depois de receberem uma pedra.",
  },
  {
    kind: "turn",
    step: 4,
    text: () =>
      `**Sua vez.** As pontas mostram ${openEndsText()}. As pedras **acesas** são as que ` +
      "encaixam: o 1-3 e o 3-5 servem no 3 da esquerda, o 2-2 no 2 da direita e o 1-6 no 6 de " +
      "cima ou de baixo. O 0-1 e o 0-5 ficam apagados: não têm 3, 2 nem 6. Toque no **3-5**: ele " +
      "deixa um 5 na esquerda, bom para fazer pontos.",
    why: "o 3-5 deixa um 5 na ponta, e com 5 a sua dupla faz pontos mais fácil.",
  },
  { kind: "bots", until: 8 },
  {
    kind: "say",
    text: () =>
      "O Tião pôs a carroça de quina (5-5) na esquerda. **Carroça na ponta conta dobrado**: ela " +
      `vale 10. A Dona Cida fez 10 + 5 = ${t.counts[6]} (**Nós +${pts(6)}**) e o Juca, cobrindo ` +
      `o lado de cima com o 0-6, fez 10 + 5 + 0 = ${t.counts[7]} (**Eles +${pts(7)}**).`,
  },
  {
    kind: "turn",
    step: 8,
    text: () =>
      "O **0-5** serve em três pontas: no 5 da esquerda, no 5 da direita e no 0 de cima. Quando " +
      "uma pedra serve em mais de uma ponta, **você escolhe**: toque no 0-5 e os lugares " +
      "possíveis acendem na mesa. Escolha a ponta **de cima** — com um 5 lá, a soma fica " +
      `10 + 5 + 5 = ${started().countAfter("0-5:up")}.`,
    why: () => `o 0-5 em cima faz ${started().countAfter("0-5:up")} pontos.`,
  },
  {
    kind: "say",
    text: () =>
      `**Nós +${pts(8)}!** A soma ficou em ${t.counts[8]}: a carroça 5-5 na esquerda (10), 5 na ` +
      "direita e 5 em cima. O lado de baixo ainda não recebeu pedra, então não conta.",
  },
  { kind: "bots", until: 12 },
  {
    kind: "turn",
    step: 12,
    text: () =>
      "O Tião deixou um 1 na esquerda, a Dona Cida pôs o 4-6 embaixo " +
      `(**Nós +${pts(10)}**) e o Juca cobriu com a carroça 4-4. Agora só a **ponta da esquerda** ` +
      "serve para você: o 0-1, o 1-3 e o 1-6 acendem. Jogue a mais pesada, o **1-6**: pedra " +
      "pesada que sobra na mão vira pontos para os adversários no fim.",
    why: "o 1-6 vale 7 pontos — melhor não ficar com ele na mão.",
  },
  { kind: "bots", until: 16 },
  {
    kind: "say",
    text: () =>
      `A Dona Cida fez ${t.counts[14]} com o 5-6 na direita (**Nós +${pts(14)}**) e o Juca ` +
      "**passou**: a dupla de quem jogou antes dele — a Dona Cida, da sua dupla — marca mais " +
      `${pts(15)}.`,
  },
  {
    kind: "turn",
    step: 16,
    text: () => "Só uma pedra sua encaixa agora: o **1-3**, no 3 de baixo. Toque nele.",
  },
  { kind: "bots", until: 20 },
  {
    kind: "turn",
    step: 20,
    text: () =>
      `Sua vez de novo — mas as pontas mostram ${openEndsText()}, e você só tem o 0-1 e o 2-2. ` +
      "**Nenhuma pedra encaixa**: quando nada serve, você passa (nas duplas não se compra). " +
      "Toque em **Passo**.",
  },
  { kind: "bots", until: 24 },
  {
    kind: "say",
    text: () =>
      `Você passou, e o Juca, que jogou antes, marcou ${pts(20)} para Eles. O Tião também ` +
      "passou — mas um passe logo depois de outro é **passe nas costas** e não vale nada. E a " +
      "Dona Cida passou também: ninguém conseguiu jogar depois do Juca, e a vez voltou para ele. " +
      `É **galo**: **Eles +${pts(22)}**, e o Juca jogou de novo.`,
  },
  {
    kind: "turn",
    step: 24,
    text: () =>
      "O Juca deixou um 2 em cima — e você tem a carroça 2-2! Lembre: **carroça na ponta conta " +
      "dobrado**. Com ela em cima, a soma fica 6 + 6 + 4 + 4 = " +
      `${started().countAfter("2-2:up")}. Toque no **2-2**.`,
  },
  { kind: "bots", until: 28 },
  {
    kind: "turn",
    step: 28,
    text: () =>
      "Sobrou uma pedra só, o **0-1** — e o Juca deixou um 0 embaixo. Quem coloca a última pedra " +
      "**bate**, e a mão acaba na hora. Toque no **0-1** para bater!",
  },
  { kind: "end" },
];

// ---------------------------------------------------------------------- flow

function start() {
  clearTimeout(t.timer);
  t.game = new Game(RULESET);
  started().deal(DEAL);
  t.beat = 0;
  t.step = 0;
  t.selected = null;
  t.counts = [];
  t.events = [];
  t.lastSeat = null;
  need("#coach-hint").textContent = "";
  fill(need("#announcements"));
  app.dataset.status = "playing";
  render();
  runBeat();
}

function runBeat() {
  const beat = BEATS[t.beat];
  app.dataset.beat = String(t.beat);
  need("#coach-step").textContent = `Etapa ${t.beat + 1} de ${BEATS.length}`;
  need("#coach-hint").textContent = "";
  const next = need("#coach-next");
  next.hidden = true;
  switch (beat.kind) {
    case "say":
      setWaiting("continue");
      fill(need("#coach-text"), h("p", {}, ...rich(beat.text())));
      next.textContent = beat.button ?? "Continuar";
      next.hidden = false;
      next.focus({ preventScroll: true });
      break;
    case "turn": {
      const [, action] = ACTIONS[beat.step];
      clearBanner();
      setWaiting(action === "pass" ? "pass" : "tile");
      app.dataset.asked = action;
      fill(need("#coach-text"), h("p", {}, ...rich(beat.text())));
      break;
    }
    case "bots":
      setWaiting("bots");
      botsUntil(beat.until);
      break;
    default:
      finish();
  }
  render();
}

function nextBeat() {
  t.beat += 1;
  runBeat();
}

/** @param {string} what */
function setWaiting(what) {
  t.waiting = what;
  app.dataset.waiting = what;
  if (what !== "tile" && what !== "end" && what !== "pass") delete app.dataset.asked;
}

/** @param {number} until */
function botsUntil(until) {
  if (t.step >= until) {
    nextBeat();
    return;
  }
  t.timer = setTimeout(() => {
    apply();
    botsUntil(until);
  }, t.ritmo);
}

/** Play ACTIONS[t.step] on the engine (which refuses anything illegal) and show it. */
function apply() {
  const [seat, action] = ACTIONS[t.step];
  const game = started();
  const seen = game.events.length;
  game.apply(action, seat);
  const log = game.history[0];
  const events = (log ? log.events : game.events).slice(seen);
  t.events[t.step] = events;
  t.counts[t.step] = game.tableCount();
  t.step += 1;
  t.lastSeat = seat;
  announce(seat, action, events);
  render(action !== "pass");
}

/** @param {number} seat @param {string} action @param {ScoreEvent[]} events */
function announce(seat, action, events) {
  const who = NAMES[seat];
  let text;
  if (action === "pass") {
    bubble(seat, "Passo");
    text = `${who} passou`;
  } else {
    const [tile, end] = action.split(":");
    text = end ? `${who} jogou ${tile} ${ON_END[end]}` : `${who} saiu com ${tile}`;
  }
  const during = events.filter((e) => e.index >= 0);
  const gains = during.map((e) => `+${e.points} ${LABELS[e.team]} · ${W.reasonName(e.reason)}`);
  log([text, ...gains].join(". "));
  const galo = during.find((e) => e.reason === "galo");
  if (galo) banner("Galo!", `+${galo.points} ${LABELS[galo.team]} · ${NAMES[(seat + 1) % 4]} joga de novo`, "big");
  else if (action === "pass" && during.length) banner("Passe!", `+${during[0].points} ${LABELS[during[0].team]}`, "pass");
  else if (during.length) banner(`+${during[0].points}`, `pontos na mesa para ${LABELS[during[0].team]}`, "points");
}

// ---------------------------------------------------------------------- the player

function currentTurn() {
  const beat = BEATS[t.beat];
  return beat && beat.kind === "turn" ? beat : null;
}

/** @param {string} tile */
function onTile(tile) {
  const hint = need("#coach-hint");
  const beat = currentTurn();
  shakeOff();
  if (t.waiting === "continue") {
    hint.textContent = "Primeiro leia a explicação e toque em Continuar.";
    return;
  }
  if (!beat || t.waiting === "bots") {
    hint.textContent = "Espere a sua vez: os outros estão jogando.";
    return;
  }
  const [, asked] = ACTIONS[beat.step];
  const [askedTile, askedEnd] = asked.split(":");
  if (t.waiting === "end") {
    if (tile !== t.selected) hint.textContent = `Pedra tocada é pedra jogada: agora escolha a ponta do ${t.selected} na mesa.`;
    return;
  }
  const legal = started().legal();
  const ends = legal.filter((a) => a.split(":")[0] === tile);
  if (!ends.length) {
    shake(tile);
    hint.textContent = whyNot(tile);
    return;
  }
  if (asked === "pass") return; // cannot happen: nothing fits when the lesson asks for a pass
  if (tile !== askedTile) {
    shake(tile);
    const why = typeof beat.why === "function" ? beat.why() : beat.why;
    hint.textContent = `O ${tile} também encaixa, mas agora o tutorial pede o ${askedTile}: ${why ?? "toque nele."}`;
    return;
  }
  hint.textContent = "";
  if (ends.length === 1) {
    playerMove(asked);
    return;
  }
  t.selected = tile;
  clearBanner();
  setWaiting("end");
  app.dataset.asked = asked;
  app.dataset.askedEnd = askedEnd;
  hint.textContent = "";
  need("#turn-msg").textContent = `Escolha a ponta: toque no lugar aceso ${END_WORD[askedEnd]}.`;
  render();
  const ghost = /** @type {SVGElement | null} */ (board().svg.querySelector(`.ghost[data-end="${askedEnd}"]`));
  if (ghost) ghost.focus({ preventScroll: true });
}

/** @param {string} end */
function onEnd(end) {
  const beat = currentTurn();
  if (!beat || t.waiting !== "end") return;
  const [, asked] = ACTIONS[beat.step];
  const action = `${t.selected}:${end}`;
  if (action !== asked) {
    const count = started().countAfter(action);
    const [, askedEnd] = asked.split(":");
    const good = started().countAfter(asked);
    need("#coach-hint").textContent =
      `Na ponta ${END_WORD[end]} a soma ficaria ${count}` +
      (count % 5 === 0 && count > 0 ? `, que marca só ${count}.` : ", que não marca nada.") +
      ` Escolha a ponta ${END_WORD[askedEnd]}: ela deixa a soma em ${good}.`;
    return;
  }
  playerMove(asked);
}

function onPass() {
  const beat = currentTurn();
  const hint = need("#coach-hint");
  if (!beat || t.waiting === "bots" || t.waiting === "continue") {
    hint.textContent = t.waiting === "continue" ? "Primeiro toque em Continuar." : "Espere a sua vez.";
    return;
  }
  const [, asked] = ACTIONS[beat.step];
  if (asked !== "pass") {
    hint.textContent =
      "Você tem pedra que encaixa — as acesas. Quem tem jogo é obrigado a jogar: só dá para " +
      "passar quando nenhuma pedra serve.";
    return;
  }
  playerMove("pass");
}

/** @param {string} action */
function playerMove(action) {
  t.selected = null;
  delete app.dataset.askedEnd;
  need("#coach-hint").textContent = "";
  if (action !== ACTIONS[t.step][1]) return;
  apply();
  nextBeat();
}

/** Why a tile cannot be played now, in a player's words. @param {string} tile */
function whyNot(tile) {
  if (!started().table.length) return "Na primeira mão a saída é obrigatoriamente com o 6-6: toque nele.";
  const [a, b] = halves(tile);
  const numbers = a === b ? `${a}` : `${a} nem ${b}`;
  return `O ${tile} não encaixa: nenhuma ponta mostra ${numbers}. As pontas abertas são ${openEndsText()}.`;
}

/** @param {string} tile */
function shake(tile) {
  const btn = $(`#hand [data-tile="${tile}"]`);
  if (!btn) return;
  btn.classList.remove("shake");
  void btn.offsetWidth;
  btn.classList.add("shake");
}

function shakeOff() {
  for (const b of document.querySelectorAll("#hand .shake")) b.classList.remove("shake");
}

// ---------------------------------------------------------------------- the end

function finish() {
  setWaiting("done");
  app.dataset.status = "finished";
  const log = started().history[0];
  const [, tiao, cida, juca] = log.handsLeft;
  const garagem = log.events.find((e) => e.reason === "garagem");
  const left = [tiao, juca].flat();
  const sum = left.reduce((s, x) => s + halves(x)[0] + halves(x)[1], 0);
  const score = log.score;
  fill(
    need("#coach-text"),
    h(
      "p",
      {},
      ...rich(
        "**Você bateu!** A sua dupla marca a **garagem**: a soma das pedras que sobraram com os " +
          `dois adversários — o Tião ficou com ${list(tiao)}, o Juca com ${list(juca)}: ${sum} — ` +
          `arredondada para baixo até o múltiplo de 5: **${garagem ? garagem.points : 0} ` +
          `${garagem && garagem.points === 1 ? "ponto" : "pontos"}**. As pedras da Dona Cida ` +
          `(${list(cida)}) não contam.`,
      ),
    ),
    h("p", { class: "coach-score", "data-testid": "tutorial-score" }, `Placar da mão: Nós ${score[0]} × ${score[1]} Eles`),
    h(
      "p",
      {},
      "Numa partida de verdade as mãos vão somando até 200 pontos. Na próxima mão sai quem bateu — você —, com a carroça que quiser.",
    ),
  );
  fill(
    need("#coach-actions"),
    h("a", { class: "btn btn-primary", href: "/" }, "Jogar agora"),
    h("a", { class: "btn btn-secondary", href: "regras.html#duplas-pontos" }, "Ler as regras"),
    h("button", { class: "btn btn-ghost", type: "button", onclick: () => location.reload() }, "Recomeçar"),
  );
  banner("Você bateu!", `+${garagem ? garagem.points : 0} Nós · garagem`, "big");
  need("#coach").focus({ preventScroll: true });
  render();
}

// ---------------------------------------------------------------------- drawing

/** @param {boolean} [animate] */
function render(animate = false) {
  const game = started();
  const log = game.history[0];
  const table = log ? log.table : game.table;
  const hands = log ? log.handsLeft : game.hands;
  const turn = game.currentPlayer;
  app.dataset.step = String(t.step);
  app.dataset.turn = turn === null ? "" : String(turn);
  // scores
  game.score.forEach((points, team) => {
    bumpText(need(`#score-${team}`), String(points));
    need(`#score-box-${team}`).setAttribute("aria-label", `${LABELS[team]}: ${points} pontos`);
  });
  // seats
  for (let seat = 1; seat < 4; seat++) {
    const el = need(`#seat-${PLACES[seat]}`);
    const count = hands[seat].length;
    const isTurn = turn === seat && t.waiting === "bots";
    el.dataset.seat = String(seat);
    el.dataset.turn = String(isTurn);
    el.classList.toggle("team-us", seat % 2 === 0);
    el.classList.toggle("team-them", seat % 2 === 1);
    const backs = h("div", { class: "backs", "aria-hidden": "true" });
    const horizontal = PLACES[seat] !== "top";
    // the hand over, everyone shows what is left
    for (const tile of hands[seat]) backs.append(log ? tileSVG(tile, { horizontal }) : backSVG({ horizontal }));
    fill(
      el,
      h(
        "div",
        {
          class: "seat-card",
          role: "group",
          "aria-label": `${NAMES[seat]}${seat === 2 ? ", sua parceira" : ""}, ${count} ${count === 1 ? "pedra" : "pedras"}${isTurn ? ", na vez" : ""}`,
        },
        h("div", { class: "avatar", "aria-hidden": "true" }, NAMES[seat].slice(0, 1)),
        h(
          "div",
          { class: "seat-text" },
          h("span", { class: "seat-name" }, NAMES[seat], seat === 2 ? h("span", { class: "badge badge-partner" }, "parceira") : null),
          h("span", { class: "seat-count" }, `${count} ${count === 1 ? "pedra" : "pedras"}`),
        ),
        h("span", { class: "bubble", id: `bubble-${seat}`, "aria-hidden": "true" }),
      ),
      backs,
    );
  }
  // board
  let choice = null;
  if (t.waiting === "end" && t.selected) {
    const ends = game.legal().filter((a) => a.startsWith(`${t.selected}:`)).map((a) => a.split(":")[1]);
    choice = { tile: t.selected, ends, onChoose: onEnd };
  }
  board().render({ plays: table, spinner: true, choice, animate });
  const endsNow = game.openEnds();
  const endText = Object.entries(endsNow).map(([e, v]) => `${END_NAMES[e]} ${v}`).join(", ");
  board().svg.setAttribute(
    "aria-label",
    table.length ? `Mesa com ${table.length} ${table.length === 1 ? "pedra" : "pedras"}; pontas abertas: ${endText}` : "Mesa vazia",
  );
  const empty = need("#board-empty");
  empty.hidden = table.length > 0;
  if (!table.length) empty.textContent = "A saída é sua!";
  // table info
  const parts = [];
  if (table.length) {
    const count = log ? null : game.tableCount();
    if (count !== null) {
      const hot = count > 0 && count % 5 === 0;
      parts.push(h("span", { class: `chip ${hot ? "chip-hot" : ""}`, title: "Soma das pontas" }, "Mesa ", h("strong", {}, String(count))));
      parts.push(h("span", { class: "chip" }, "Pontas ", h("strong", {}, Object.values(endsNow).join(" · "))));
    }
  }
  fill(need("#table-info"), ...parts);
  renderHand(hands[0]);
}

/** @param {string[]} tiles */
function renderHand(tiles) {
  const beat = currentTurn();
  const mine = Boolean(beat) && (t.waiting === "tile" || t.waiting === "end" || t.waiting === "pass");
  const legal = mine ? started().legal() : [];
  const [askedTile] = beat && mine ? ACTIONS[beat.step][1].split(":") : [null];
  const buttons = tiles.map((tile) => {
    const fits = legal.some((a) => a.split(":")[0] === tile);
    const classes = ["hand-tile"];
    if (mine && fits && t.waiting !== "end") classes.push("lit");
    if (mine && !fits) classes.push("dim");
    if (t.selected === tile) classes.push("selected");
    if (mine && tile === askedTile && t.waiting === "tile") classes.push("asked");
    return h(
      "button",
      {
        type: "button",
        class: classes.join(" "),
        dataset: { tile, legal: String(mine && fits) },
        "aria-label": `${W.tileName(tile)}${mine && fits ? ", encaixa" : mine ? ", não encaixa" : ""}${tile === askedTile && t.waiting === "tile" ? ", a pedra pedida" : ""}`,
        "aria-disabled": String(!(mine && fits)),
        onclick: () => onTile(tile),
      },
      tileSVG(tile),
    );
  });
  fill(need("#hand"), ...buttons);
  need("#hand").classList.toggle("my-turn", mine);
  const pass = need("#btn-pass");
  const canPass = mine && legal.length === 1 && legal[0] === "pass";
  pass.setAttribute("aria-disabled", String(!canPass));
  pass.dataset.legal = String(canPass);
  pass.classList.toggle("lit", canPass);
  const msg = need("#turn-msg");
  if (t.waiting === "end") return; // the message asks for the end
  msg.textContent =
    t.waiting === "tile" ? `Sua vez: toque no ${askedTile}.` :
    t.waiting === "pass" ? "Nenhuma pedra encaixa: toque em Passo." :
    t.waiting === "bots" ? `${turnName()} está jogando…` :
    t.waiting === "continue" ? "Leia e toque em Continuar." :
    t.waiting === "done" ? "Mão encerrada." : "";
}

/** The name of the seat whose turn it is. */
function turnName() {
  const seat = started().currentPlayer;
  return (seat === null ? undefined : NAMES[seat]) ?? "";
}

/** @param {number} seat @param {string} text */
function bubble(seat, text) {
  const el = document.getElementById(`bubble-${seat}`);
  if (!el) return;
  el.textContent = text;
  el.classList.remove("show");
  void el.offsetWidth;
  el.classList.add("show");
}

/** @param {string} text */
function log(text) {
  const list = need("#announcements");
  list.append(h("li", {}, text));
  while (list.children.length > 30) list.firstElementChild?.remove();
}

/** @type {number | undefined} */
let bannerTimer;
function clearBanner() {
  clearTimeout(bannerTimer);
  need("#banner-host").replaceChildren();
}

/** @param {string} title @param {string} sub @param {string} kind */
function banner(title, sub, kind) {
  const host = need("#banner-host");
  clearTimeout(bannerTimer);
  fill(host, h("div", { class: `banner banner-${kind}`, "data-testid": "banner" }, h("strong", {}, title), sub ? h("span", {}, sub) : null));
  bannerTimer = setTimeout(() => host.replaceChildren(), kind === "big" ? 2200 : 1500);
}

// ---------------------------------------------------------------------- wiring

function main() {
  const ritmo = Number(param("ritmo"));
  if (Number.isFinite(ritmo) && param("ritmo") !== null) t.ritmo = Math.max(0, Math.min(5000, ritmo));
  t.board = /** @type {TableBoard} */ (new Board(need("#board"), { label: "Pedras na mesa" }));
  need("#coach-next").addEventListener("click", () => {
    if (t.waiting === "continue") nextBeat();
  });
  need("#btn-pass").addEventListener("click", onPass);
  need("#btn-restart").addEventListener("click", () => location.reload());
  /** @type {any} */ (window).carroca = { t, BEATS };
  start();
}

main();
