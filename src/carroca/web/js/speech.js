// @ts-check
// What the table says aloud, in the words of Brazilian tables: one sentence per action (the
// replay page narrates with the same ones), the lines a live table announces to a screen reader
// from what happened between two states (../events.js), how much of it each player wants to
// hear, and the review of the table asked for with a key. Pure functions (no DOM).

import * as W from "./words.js";

/** @typedef {import("./frames.js").Step} Step */
/** An action as the replay's engine keeps it, or as a state's steps show it. */
/** @typedef {{seat: number, type: string, tile?: string, end?: End | string, choice?: string}} AnyStep */
/** @typedef {import("./frames.js").End} End */
/** @typedef {import("./frames.js").State} State */
/** @typedef {import("./frames.js").LastHand} LastHand */
/** @typedef {import("./events.js").Event} Event */
/** @typedef {{seat: number, tile: string, end?: End}} Spot */

/**
 * One line to say. `kind`: "play" an action of a seat (`seat` set), "points" points on the
 * table, "end" the end of a hand or of the match, "turn" the player's turn, "time" the clock,
 * "hint" an answer to what the player tried.
 * @typedef {{kind: "play" | "points" | "end" | "turn" | "time" | "hint", text: string, seat?: number}} Line
 */

/** How much a player hears: everything, only the others' actions, or only their own turn. */
/** @typedef {"tudo" | "outros" | "vez"} Verbosity */
/** @type {Record<Verbosity, string>} */
export const VERBOSITY = {
  tudo: "Tudo o que acontece",
  outros: "Só as jogadas dos outros",
  vez: "Só quando é a minha vez",
};

/** "a carroça de quina", "a pedra 4 e 6": a tile as said in a sentence. @param {string} tile */
export function tileSpoken(tile) {
  const [a, b] = tile.split("-").map(Number);
  return a === b ? `a carroça de ${W.NUMBER_NAMES[a]}` : `a pedra ${a} e ${b}`;
}

/** "1 pedra", "3 pedras". @param {number} n */
export const pieces = (n) => `${n} ${n === 1 ? "pedra" : "pedras"}`;

/**
 * What a seat did, in the past tense: "Juca jogou a carroça de quina na ponta de cima", "Zé
 * saiu com a carroça de sena", "Dona Cida passou", "Tião comprou 2 pedras do monte".
 * `opening`: a pass at the start of a hand (its opener has no double); `count`: draws in a row
 * (another seat's draws show no tile).
 * @param {AnyStep} step @param {string} who
 * @param {{opening?: boolean, count?: number}} [opts]
 */
export function stepSentence(step, who, opts = {}) {
  switch (step.type) {
    case "play":
      if (!step.tile) return `${who} jogou`;
      return step.end ? `${who} jogou ${tileSpoken(step.tile)} ${W.END_PLACE[/** @type {End} */ (step.end)]}` : `${who} saiu com ${tileSpoken(step.tile)}`;
    case "pass":
      return opts.opening ? `${who} passou a saída (não tem carroça)` : `${who} passou`;
    case "draw":
      if (step.tile && (opts.count ?? 1) === 1) return `${who} comprou ${tileSpoken(step.tile)} do monte`;
      return `${who} comprou ${pieces(opts.count ?? 1)} do monte`;
    case "five-doubles":
      return step.choice === "points" ? `${who} ficou com os pontos das cinco carroças` : `${who} pediu para embaralhar de novo`;
    default:
      return `${who} ${step.type}`;
  }
}

/** Rulesets where the table count scores (rules.md §1). */
export const COUNTING = new Set(["duplas-pontos", "pontos"]);

/**
 * The open ends as they count: where the count scores, only the ends that count (an arm of the
 * spinner without a tile yet does not) and a double at an end twice, so that they add up to
 * the table's count.
 * @param {{table: Spot[], ends: Partial<Record<End, number>>}} v the view
 * @param {boolean} counting
 * @returns {{end: End, value: number, double: boolean}[]}
 */
export function shownEnds(v, counting) {
  const plays = v.table;
  /** @type {{end: End, value: number, double: boolean}[]} */
  const out = [];
  for (const [key, value] of Object.entries(v.ends)) {
    const end = /** @type {End} */ (key);
    if (value === undefined) continue;
    if (!counting) {
      out.push({ end, value, double: false });
      continue;
    }
    let exposed = null;
    for (let i = plays.length - 1; i > 0 && exposed === null; i--) {
      if (plays[i].end === end) exposed = plays[i].tile;
    }
    if (exposed === null && (end === "left" || end === "right") && plays.length) exposed = plays[0].tile;
    if (exposed === null) continue; // the spinner's up or down, still empty
    const [a, b] = exposed.split("-");
    out.push({ end, value, double: plays.length > 1 && a === b });
  }
  return out;
}

/**
 * "Pontas: esquerda 4, direita carroça de 6 (conta 12). Soma 10." — the open ends with what
 * each counts, and the table's count where it scores.
 * @param {{table: Spot[], ends: Partial<Record<End, number>>, table_count: number}} v
 * @param {string} ruleset
 */
export function endsText(v, ruleset) {
  if (!v.table.length) return "Mesa vazia.";
  const counting = COUNTING.has(ruleset);
  const ends = shownEnds(v, counting).map((e) =>
    e.double ? `${W.END_NAMES[e.end]} carroça de ${e.value} (conta ${2 * e.value})` : `${W.END_NAMES[e.end]} ${e.value}`,
  );
  const count = counting ? ` Soma ${v.table_count}${v.table_count > 0 && v.table_count % 5 === 0 ? ", múltiplo de 5" : ""}.` : "";
  return `Pontas: ${ends.join(", ") || "nenhuma"}.${count}`;
}

/**
 * The tiles on the table in their order on it: the first in the middle, then each end's line
 * from the middle out.
 * @param {Spot[]} plays
 */
export function tableText(plays) {
  if (!plays.length) return "Nenhuma pedra na mesa.";
  const parts = [`No meio, ${tileSpoken(plays[0].tile)}`];
  for (const end of /** @type {End[]} */ (["left", "right", "up", "down"])) {
    const line = plays.slice(1).filter((p) => p.end === end).map((p) => p.tile.replace("-", " e "));
    if (line.length) parts.push(`${W.END_PLACE[end]}: ${line.join(", ")}`);
  }
  return `Na mesa, ${pieces(plays.length)}. ${parts.join("; ")}.`;
}

/**
 * The team labels in the viewer's order ("Nós" first) with their points.
 * @param {number[]} score @param {string[]} labels @param {number} first
 */
export function scoreText(score, labels, first) {
  const order = [first, 1 - first];
  return `Placar: ${order.map((t) => `${labels[t]} ${score[t]}`).join(", ")}.`;
}

/**
 * The table read back on demand: the open ends and what they count, the tiles on the table in
 * order, the last actions, each seat's tiles in hand, and the score.
 * @param {State} st @param {string[]} names each seat's name ("Você" for the viewer)
 * @param {string[]} lastLines the last actions, oldest first
 */
export function reviewText(st, names, lastLines) {
  const v = st.view;
  if (!v) return "A partida ainda não começou.";
  const n = st.players.length;
  const labels = W.teamLabels(st);
  const first = st.seat === null ? 0 : W.teamOf(st.seat, n);
  const parts = [endsText(v, st.ruleset), tableText(v.table)];
  if (lastLines.length) parts.push(`Últimas jogadas: ${lastLines.join("; ")}.`);
  const me = st.seat ?? 0;
  const seats = [...Array(n).keys()].map((k) => (me + k) % n);
  const hands = seats.map((s) => `${names[s]} ${v.hand_sizes[s] ?? 0}`);
  parts.push(`Pedras na mão: ${hands.join(", ")}.`);
  if (W.DRAWS.has(st.ruleset)) parts.push(`Monte: ${pieces(v.boneyard)}.`);
  if (v.turn !== null && st.status === "playing") parts.push(v.turn === st.seat ? "É a sua vez." : `Vez de ${names[v.turn]}.`);
  parts.push(scoreText(v.score, labels, first));
  return parts.join(" ");
}

/**
 * What the table says about the events between two states, in order.
 * `prevTable`: the tiles on the table in the state before (for the plays of a hand that ended
 * before its last plays were seen: the batida itself always is one).
 * @param {Event[]} events
 * @param {{st: State, names: string[], prevTable: Spot[], prevDeal: number | null}} at
 * @returns {Line[]}
 */
export function eventLines(events, at) {
  const { st, names } = at;
  const n = st.players.length;
  const labels = W.teamLabels(st);
  const mine = st.seat === null ? null : W.teamOf(st.seat, n);
  const first = mine ?? 0;
  /** @param {number} team */
  const to = (team) => (n === 2 && team === st.seat ? "você" : labels[team]);
  /** @type {Line[]} */
  const out = [];
  const scores = /** @type {Extract<Event, {type: "score"}>[]} */ (events.filter((e) => e.type === "score"));
  /** @param {string} reason */
  const scored = (reason) => scores.find((e) => e.reason === reason);
  /** @param {Extract<Event, {type: "score"}> | undefined} e */
  const gain = (e) => (e ? `: ${e.reason === "galo" ? "" : `${W.reasonName(e.reason)}, `}${e.points} pontos para ${to(e.team)}` : "");
  for (let i = 0; i < events.length; i++) {
    const ev = events[i];
    if (ev.type === "step") {
      const { step } = ev;
      if (step.type === "draw") {
        let count = 1;
        while (i + 1 < events.length) {
          const next = events[i + 1];
          if (next.type !== "step" || next.step.type !== "draw" || next.step.seat !== step.seat) break;
          count++;
          i++;
        }
        out.push({ kind: "play", seat: step.seat, text: `${stepSentence(step, names[step.seat], { count })}.` });
      } else if (step.type === "pass") {
        const opening = ev.index === 0 && st.ruleset === "duplas-pontos";
        const points = scored(opening ? "saida-passada" : "passe");
        out.push({ kind: "play", seat: step.seat, text: `${stepSentence(step, names[step.seat], { opening })}${gain(points)}.` });
      } else {
        out.push({ kind: "play", seat: step.seat, text: `${stepSentence(step, names[step.seat])}.` });
      }
    } else if (ev.type === "galo") {
      out.push({ kind: "play", seat: ev.seat, text: `Galo! ${names[ev.seat]} joga de novo${gain(scored("galo"))}.` });
    } else if (ev.type === "score") {
      if (ev.reason === "mesa") out.push({ kind: "points", text: `Mais ${ev.points} pontos na mesa para ${to(ev.team)}.` });
    } else if (ev.type === "hand-end") {
      const hand = ev.hand;
      if (at.prevDeal === hand.deal_index) {
        for (const spot of hand.table.slice(at.prevTable.length)) {
          const step = /** @type {Step} */ ({ seat: spot.seat, type: "play", tile: spot.tile, end: spot.end });
          out.push({ kind: "play", seat: spot.seat, text: `${stepSentence(step, names[spot.seat])}.` });
        }
      }
      out.push({ kind: "end", text: handEndText(hand, st, names, labels, first) });
    } else if (ev.type === "match-end") {
      out.push({ kind: "end", text: matchEndText(ev.result, st, labels, first) });
    }
  }
  return out;
}

/**
 * "Juca bateu! Com a carroça de quina. Pontos da mão: Nós mais 20 (batida 20); Eles nada.
 * Placar: Nós 80, Eles 40."
 * @param {LastHand} hand @param {State} st @param {string[]} names @param {string[]} labels
 * @param {number} first
 */
export function handEndText(hand, st, names, labels, first) {
  const title = W.handEndTitle(hand.end, names, st.ruleset);
  const last = hand.table[hand.table.length - 1];
  let detail = "";
  if (hand.end.kind === "batida" && last) detail = ` Com ${tileSpoken(last.tile)}.`;
  else if (hand.end.kind === "fechado") detail = " Ninguém mais tem jogo.";
  const teams = [first, 1 - first].map((team) => {
    /** @type {Map<string, number>} */
    const totals = new Map();
    let total = 0;
    for (const e of hand.events) {
      if (e.team !== team) continue;
      totals.set(e.reason, (totals.get(e.reason) ?? 0) + e.points);
      total += e.points;
    }
    if (!total) return `${labels[team]} nada`;
    const why = [...totals].map(([reason, points]) => `${W.reasonName(reason)} ${points}`).join(", ");
    return `${labels[team]} mais ${total} (${why})`;
  });
  const end = /[.!?]$/.test(title) ? title : `${title}.`;
  return `${end}${detail} Pontos da mão: ${teams.join("; ")}. ${scoreText(hand.score, labels, first)}`;
}

/**
 * "Fim da partida: vocês venceram! Placar final: Nós 120, Eles 80."
 * @param {import("./frames.js").Result} result @param {State} st @param {string[]} labels
 * @param {number} first
 */
export function matchEndText(result, st, labels, first) {
  const n = st.players.length;
  const mine = st.seat === null ? null : W.teamOf(st.seat, n);
  let who;
  if (mine === null) who = `vitória de ${labels[result.winner]}`;
  else if (mine === result.winner) who = n === 4 ? "vocês venceram" : "você venceu";
  else who = n === 4 ? "vitória deles" : `vitória de ${labels[result.winner]}`;
  const score = result.score.length ? result.score : [0, 0];
  const order = [first, 1 - first].map((t) => `${labels[t]} ${score[t]}`).join(", ");
  const pneu = result.pneu ? ` Pneu! ${W.zeroText(labels[1 - result.winner])}.` : "";
  return `Fim da partida: ${who}! Placar final: ${order}.${pneu}`;
}

/** How many times the table's turn a player with "mais tempo" has (the server's MORE_TIME). */
export const MORE_TIME = 2;

/**
 * What is said when other players ask for more time or give it up (the state's `more_time`
 * changed from `before` to `now`); the player hears their own setting when they change it.
 * @param {number[]} before @param {number[]} now @param {string[]} names @param {number | null} me
 * @returns {Line[]}
 */
export function moreTimeLines(before, now, names, me) {
  /** @type {Line[]} */
  const out = [];
  for (const seat of now) {
    if (seat !== me && !before.includes(seat)) {
      out.push({ kind: "time", seat, text: `${names[seat]} tem mais tempo: o dobro do tempo da mesa em cada vez.` });
    }
  }
  for (const seat of before) {
    if (seat !== me && !now.includes(seat)) out.push({ kind: "time", seat, text: `${names[seat]} voltou ao tempo da mesa.` });
  }
  return out;
}

/**
 * Whether a line is said at this verbosity (`me`: the viewer's seat). The end of a hand or of
 * the match, the turn, the clock and the answers to what the player tried are always said; the
 * player's own moves are confirmed but at "outros".
 * @param {Line} line @param {Verbosity} verbosity @param {number | null} me
 */
export function isSaid(line, verbosity, me) {
  if (line.kind === "end" || line.kind === "turn" || line.kind === "time" || line.kind === "hint") return true;
  if (verbosity === "tudo") return true;
  if (verbosity === "outros") return line.kind === "play" && line.seat !== me;
  return line.kind === "play" && line.seat === me; // "vez": the player's own moves, confirmed
}

/**
 * "Sua vez. 2 pedras encaixam." — what the player's turn starts with; `last`: the action
 * before, said first at the verbosity that hears nothing else.
 * @param {State} st @param {Verbosity} verbosity @param {string | null} last
 */
export function turnText(st, verbosity, last) {
  const v = st.view;
  if (!v) return "Sua vez.";
  const before = verbosity === "vez" && last ? `${last} ` : "";
  if (v.phase === "choice") return `${before}Sua vez: cinco carroças! Escolha entre ficar com os pontos ou embaralhar.`;
  if (!v.table.length) return `${before}Sua vez: faça a saída.`;
  const tiles = new Set(v.legal.filter((a) => a !== "pass" && a !== "draw").map((a) => a.split(":")[0]));
  const ends = verbosity === "tudo" ? "" : ` ${endsText(v, st.ruleset)}`;
  if (tiles.size) return `${before}Sua vez: ${tiles.size === 1 ? "1 pedra encaixa" : `${tiles.size} pedras encaixam`}.${ends}`;
  if (v.legal.includes("draw")) return `${before}Sua vez: nenhuma pedra encaixa; compre do monte com a tecla P.${ends}`;
  return `${before}Sua vez: nenhuma pedra encaixa; passe com a tecla P.${ends}`;
}
