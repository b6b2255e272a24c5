// @ts-check
// The rules of the six rulesets in the browser: a small engine that follows the server's exactly
// (docs/rules.md), so the replay viewer can rebuild every position of a record with its points
// and their reasons, and the tutorial can deal a real hand without a server.
//
// Tiles are written as in records: "a-b" with a <= b. Actions use the engine's notation, the
// strings of the table's `view.legal`: "6-6" (an opening), "3-5:left" (left, right, up, down),
// "draw", "pass", "five-doubles:points", "five-doubles:redeal". Legal actions come in the
// server's order: the opening tiles ascending; otherwise plays grouped by end (left, right, up,
// down), ascending within an end; then draw or pass.

/**
 * @typedef {string} Tile "a-b" with a <= b
 * @typedef {[string, number]} OpeningRule who opens the next hand: ["first", -1], ["double",
 *   seat] (a double of that seat's), ["any", seat] (any tile of that seat's)
 * @typedef {{index: number, team: number, points: number, reason: string}} ScoreEvent index:
 *   the step that scored, -1 at the end of the hand
 * @typedef {{seat: number, type: string, tile?: Tile, end?: string, choice?: string,
 *   auto?: boolean}} Step
 * @typedef {{seat: number, tile: Tile, end?: string}} Placed
 * @typedef {{kind: string, seat: number | null, winner: number | null, detail: string}} HandEnd
 * @typedef {{kind: string, seat: number, hands: Tile[][], lastTile: Tile, before: number[],
 *   opener: number, rule: OpeningRule}} Ending how a hand ended, for the ruleset's scoring
 * @typedef {{winner: number | null, points: [number, number, string][], detail: string}} Verdict
 * @typedef {{dealIndex: number, dealt: Tile[][], boneyard: Tile[], steps: Step[],
 *   table: Placed[], handsLeft: Tile[][], end: HandEnd, score: number[], events: ScoreEvent[],
 *   opener: number}} HandLog
 * @typedef {{winner: number, score: number[], reason: string, pneu: boolean}} MatchResult
 * @typedef {Record<string, any>} Options
 * @typedef {{seats: number, draws: boolean, spinner: boolean, tablePoints: boolean,
 *   passPoints: boolean, fiveDoubles: boolean,
 *   firstOpening: (hands: Tile[][]) => [number, Tile[]],
 *   nextOpening: (o: Options, end: Ending, winner: number | null) => OpeningRule,
 *   scoreHand: (o: Options, end: Ending) => Verdict,
 *   matchWinner: (o: Options, score: number[]) => number | null}} Rules
 */

/** The 28 tiles in canonical order: 0-0, 0-1, …, 0-6, 1-1, …, 6-6. */
/** @type {Tile[]} */
export const TILES = [];
for (let a = 0; a <= 6; a++) for (let b = a; b <= 6; b++) TILES.push(`${a}-${b}`);
const INDEX = new Map(TILES.map((t, i) => [t, i]));

export const ENDS = ["left", "right", "up", "down"];
const SAIDA_PASS_POINTS = 20;
export const ABANDON_TIMEOUTS = 3;

/** @param {Tile} tile @returns {[number, number]} */
export function halves(tile) {
  const [a, b] = tile.split("-").map(Number);
  return [a, b];
}
/** @param {string} t */
export const isTile = (t) => INDEX.has(t);
/** @param {Tile} t */
export const isDouble = (t) => {
  const [a, b] = halves(t);
  return a === b;
};
/** @param {Tile} t */
export const pips = (t) => {
  const [a, b] = halves(t);
  return a + b;
};
/** @param {Tile[]} tiles */
export const pipsOf = (tiles) => tiles.reduce((sum, t) => sum + pips(t), 0);
/** @param {Tile} a @param {Tile} b */
const byIndex = (a, b) => (INDEX.get(a) ?? 0) - (INDEX.get(b) ?? 0);
/** @param {Tile} t @param {number} n */
const holds = (t, n) => {
  const [a, b] = halves(t);
  return a === n || b === n;
};
/** The half of `t` left open when it is placed on an end showing n. */
/** @param {Tile} t @param {number} n */
const otherHalf = (t, n) => {
  const [a, b] = halves(t);
  return a === n ? b : a;
};
/** @param {number} n */
const floor5 = (n) => n - (n % 5);

// ------------------------------------------------------------------ rulesets

/** @type {Record<string, Options>} */
export const DEFAULT_OPTIONS = {
  "duplas-pontos": { target: 200, pass_points: 20, galo_points: 50, always_six_six: false },
  "duplas-torneio": { target: 100, count_partner: true, capicu_bonus: 0 },
  "mano-a-mano": { target: 50 },
  classico: { hands_to_win: 2 },
  bloqueio: { target: 6 },
  pontos: { target: 100, hand_end_pips: false },
};

/** @type {OpeningRule} */
const FIRST = ["first", -1];

/** @param {Tile[][]} hands @returns {[number, Tile[]]} */
function sixSixOpens(hands) {
  const seat = hands.findIndex((h) => h.includes("6-6"));
  if (seat < 0) throw new Error("Ninguém tem o 6-6.");
  return [seat, ["6-6"]];
}

/**
 * 1v1 first hand: the highest double of the 14 dealt tiles, else the heaviest tile.
 * @param {Tile[][]} hands
 * @returns {[number, Tile[]]}
 */
function highestDoubleOpens(hands) {
  for (let n = 6; n >= 0; n--) {
    const seat = hands.findIndex((h) => h.includes(`${n}-${n}`));
    if (seat >= 0) return [seat, [`${n}-${n}`]];
  }
  let best = { key: -1, seat: 0, tile: "" };
  hands.forEach((hand, seat) => {
    for (const t of hand) {
      const key = pips(t) * 10 + halves(t)[1];
      if (key > best.key) best = { key, seat, tile: t };
    }
  });
  return [best.seat, [best.tile]];
}

/** @param {Tile[][]} hands */
function teamPips(hands) {
  const totals = [0, 0];
  hands.forEach((h, seat) => {
    totals[seat % 2] += pipsOf(h);
  });
  return totals;
}

/** @param {number[]} totals */
const lighter = (totals) => (totals[0] === totals[1] ? null : totals[0] < totals[1] ? 0 : 1);

/**
 * A non-double that fits both ends while they show different numbers.
 * @param {Tile} tile @param {number[]} before the two ends before it
 */
export function isCapicu(tile, before) {
  const [left, right] = before;
  const [a, b] = halves(tile);
  return a !== b && left !== right && ((left === a && right === b) || (left === b && right === a));
}

/**
 * The bloqueio batida type and its points, by the last tile and the two ends before it.
 * @param {Tile} tile @param {number[]} before
 * @returns {[string, number]}
 */
export function bloqueioBatida(tile, before) {
  const [left, right] = before;
  const [a, b] = halves(tile);
  if (a === b) return left === a && right === a ? ["cruzada", 4] : ["batida-carroca", 2];
  if (left !== right && ((left === a && right === b) || (left === b && right === a))) {
    return ["la-e-lo", 3];
  }
  return ["simples", 1];
}

/** @param {Ending} end @param {boolean} lockerLosesTies @returns {number | null} */
function oneVsOneWinner(end, lockerLosesTies) {
  if (end.kind === "batida") return end.seat;
  const a = pipsOf(end.hands[0]);
  const b = pipsOf(end.hands[1]);
  if (a !== b) return a < b ? 0 : 1;
  return lockerLosesTies ? 1 - end.seat : null;
}

/** @param {number} target @param {number[]} score */
function reachTarget(target, score) {
  if (Math.max(...score) < target || score[0] === score[1]) return null;
  return score[0] > score[1] ? 0 : 1;
}

/** @param {Options} o @param {number[]} score */
const byTarget = (o, score) => reachTarget(o.target, score);
/** @type {Rules["nextOpening"]} */
const nextWinner = (o, end, winner) => (winner === null ? end.rule : ["any", winner]);

/** What the 1v1 rulesets share: two seats, the highest double opens, no cross, no points for a
 * pass or for five doubles. */
const ONE_VS_ONE = {
  seats: 2,
  spinner: false,
  passPoints: false,
  fiveDoubles: false,
  firstOpening: highestDoubleOpens,
};

/**
 * A 1v1 hand's scoring when its winner is the one who went out or has fewer pips, and a tie
 * scores nothing: `score` gives the winner's points.
 * @param {(o: Options, end: Ending, winner: number) => Verdict} score
 * @returns {Rules["scoreHand"]}
 */
const winnerScores = (score) => (o, end) => {
  const winner = oneVsOneWinner(end, false);
  return winner === null ? { winner: null, points: [], detail: "" } : score(o, end, winner);
};

/** @type {Record<string, Rules>} */
export const RULES = {
  "duplas-pontos": {
    seats: 4,
    draws: false,
    spinner: true,
    tablePoints: true,
    passPoints: true,
    fiveDoubles: true,
    firstOpening: sixSixOpens,
    nextOpening: (o, end) =>
      o.always_six_six || end.kind === "fechado" ? FIRST : ["double", end.seat],
    scoreHand(o, end) {
      if (end.kind === "batida") {
        const team = end.seat % 2;
        let left = 0;
        end.hands.forEach((h, s) => {
          if (s % 2 !== team) left += pipsOf(h);
        });
        /** @type {Verdict["points"]} */
        const points = [[team, floor5(left), "garagem"]];
        if (isDouble(end.lastTile)) {
          points.push([team, 20, "batida-carroca"]);
          return { winner: team, points, detail: "batida-carroca" };
        }
        return { winner: team, points, detail: "" };
      }
      const totals = teamPips(end.hands);
      const winner = lighter(totals);
      if (winner === null) return { winner: null, points: [], detail: "" };
      return { winner, points: [[winner, floor5(totals[1 - winner]), "fechado"]], detail: "" };
    },
    matchWinner: byTarget,
  },
  "duplas-torneio": {
    seats: 4,
    draws: false,
    spinner: false,
    tablePoints: false,
    passPoints: false,
    fiveDoubles: false,
    firstOpening: sixSixOpens,
    nextOpening: (o, end) => ["any", end.seat],
    scoreHand(o, end) {
      if (end.kind === "batida") {
        const team = end.seat % 2;
        let counted = 0;
        end.hands.forEach((h, s) => {
          if (s % 2 !== team || (o.count_partner && s !== end.seat)) counted += pipsOf(h);
        });
        /** @type {Verdict["points"]} */
        const points = [[team, counted, "batida"]];
        const capicu = isCapicu(end.lastTile, end.before);
        if (capicu && o.capicu_bonus) points.push([team, o.capicu_bonus, "capicu"]);
        return { winner: team, points, detail: capicu ? "capicu" : "" };
      }
      const winner = lighter(teamPips(end.hands));
      if (winner === null) return { winner: null, points: [], detail: "" };
      const all = end.hands.reduce((sum, h) => sum + pipsOf(h), 0);
      return { winner, points: [[winner, all, "trancado"]], detail: "" };
    },
    matchWinner: byTarget,
  },
  "mano-a-mano": {
    ...ONE_VS_ONE,
    draws: true,
    tablePoints: false,
    nextOpening: (o, end) => ["any", 1 - end.opener],
    scoreHand(o, end) {
      const winner = /** @type {number} */ (oneVsOneWinner(end, true)); // never a tie here
      const reason = end.kind === "batida" ? "batida" : "trancado";
      return { winner, points: [[winner, pipsOf(end.hands[1 - winner]), reason]], detail: "" };
    },
    matchWinner: byTarget,
  },
  classico: {
    ...ONE_VS_ONE,
    draws: true,
    tablePoints: false,
    nextOpening: nextWinner,
    scoreHand: winnerScores((o, end, winner) => ({
      winner,
      points: [[winner, 1, "mao"]],
      detail: "",
    })),
    matchWinner: (o, score) => reachTarget(o.hands_to_win, score),
  },
  bloqueio: {
    ...ONE_VS_ONE,
    draws: false,
    tablePoints: false,
    nextOpening: nextWinner,
    scoreHand: winnerScores((o, end, winner) => {
      if (end.kind === "batida") {
        const [kind, points] = bloqueioBatida(end.lastTile, end.before);
        return { winner, points: [[winner, points, kind]], detail: kind };
      }
      return { winner, points: [[winner, 1, "trancado"]], detail: "" };
    }),
    matchWinner: byTarget,
  },
  pontos: {
    ...ONE_VS_ONE,
    draws: true,
    tablePoints: true,
    nextOpening: nextWinner,
    scoreHand: winnerScores((o, end, winner) => {
      if (!o.hand_end_pips) return { winner, points: [], detail: "" };
      return {
        winner,
        points: [[winner, floor5(pipsOf(end.hands[1 - winner])), "pontos-mao"]],
        detail: "",
      };
    }),
    matchWinner: byTarget,
  },
};

export class RulesError extends Error {}

// ------------------------------------------------------------------ the match

/**
 * A whole match: `deal(order)` with the 28 tiles in shuffle order (the record's dealt hands and
 * boneyard, concatenated), then `apply(action)` from the seat to move until the hand ends, and
 * again until `isOver`. `history` keeps every finished hand: its steps, end, score and the
 * scoring events ({index, team, points, reason}; index -1 at the end of the hand).
 */
export class Game {
  /** @type {Tile[][]} */ hands = [];
  /** @type {Tile[][]} */ dealt = [];
  /** @type {Tile[]} */ boneyard = [];
  bonePos = 0;
  /** @type {number[]} */ ends = [];
  /** @type {number[]} */ mult = [];
  spinner = -1;
  arms = 0;
  /** @type {Placed[]} */ table = [];
  /** @type {Step[]} */ steps = [];
  /** @type {ScoreEvent[]} */ events = [];
  turn = -1;
  opener = -1;
  /** @type {Tile[] | null} */ opening = null;
  passRun = 0;
  lastPlayer = -1;
  /** @type {HandLog[]} */ history = [];
  /** @type {MatchResult | null} */ result = null;

  /** @param {string} ruleset @param {Options} [options] */
  constructor(ruleset, options = {}) {
    const rules = RULES[ruleset];
    if (!rules) throw new RulesError(`Modalidade desconhecida: ${ruleset}`);
    this.ruleset = ruleset;
    this.rules = rules;
    this.options = { ...DEFAULT_OPTIONS[ruleset], ...options };
    this.n = rules.seats;
    this.passPoints = rules.passPoints ? this.options.pass_points : 0;
    this.galoPoints = rules.passPoints ? this.options.galo_points : 0;
    this.score = [0, 0];
    this.phase = "deal";
    this.dealIndex = 0;
    /** @type {OpeningRule} */
    this.handRule = FIRST;
    this.resetHand();
  }

  resetHand() {
    this.hands = Array.from({ length: this.n }, () => []);
    this.dealt = [];
    this.boneyard = [];
    this.bonePos = 0;
    this.ends = [-1, -1, -1, -1]; // the number open at each end (-1: closed)
    this.mult = [0, 0, 0, 0]; // how each end counts: 0 (not yet), 1, 2 (a double lies there)
    this.spinner = -1; // the spinner's number while one of its sides is still uncovered
    this.arms = 0;
    this.table = []; // {seat, tile, end} in play order (no end for the opening)
    this.steps = []; // {seat, type, tile?, end?, choice?, auto?}
    this.events = [];
    this.turn = -1;
    this.opener = -1;
    this.opening = null; // the tiles the opener may start with, while the opening is due
    this.passRun = 0;
    this.lastPlayer = -1;
  }

  get needsDeal() {
    return this.phase === "deal";
  }

  get isOver() {
    return this.phase === "over";
  }

  get currentPlayer() {
    return this.phase === "play" || this.phase === "choice" ? this.turn : null;
  }

  get boneyardLeft() {
    return this.rules.draws ? this.boneyard.length - this.bonePos : 0;
  }

  /** The open ends by name: {left: 3, right: 6, …}. */
  openEnds() {
    /** @type {Record<string, number>} */
    const out = {};
    this.ends.forEach((v, e) => {
      if (v >= 0) out[ENDS[e]] = v;
    });
    return out;
  }

  /** The table count of rules.md §1 (one tile: its pips; else the ends, doubles twice). */
  tableCount() {
    if (!this.table.length) return 0;
    if (this.table.length === 1) return pips(this.table[0].tile);
    return this.ends.reduce((sum, v, e) => sum + (v >= 0 ? v * this.mult[e] : 0), 0);
  }

  /** The table count right after the legal play `action`, without playing it. @param {string} action */
  countAfter(action) {
    const [tile, endName] = action.split(":");
    if (!endName) return pips(tile);
    const ends = [...this.ends];
    const mult = [...this.mult];
    const e = ENDS.indexOf(endName);
    ends[e] = otherHalf(tile, ends[e]);
    mult[e] = isDouble(tile) ? 2 : 1;
    return ends.reduce((sum, v, i) => sum + (v >= 0 ? v * mult[i] : 0), 0);
  }

  /** Legal actions of the seat to move, in the server's order. */
  legal() {
    if (this.phase === "choice") return ["five-doubles:points", "five-doubles:redeal"];
    if (this.phase !== "play") return [];
    if (this.opening) return this.opening.length ? [...this.opening].sort(byIndex) : ["pass"];
    const hand = this.hands[this.turn];
    const out = [];
    for (let e = 0; e < 4; e++) {
      const v = this.ends[e];
      if (v < 0) continue;
      for (const t of hand) if (holds(t, v)) out.push(`${t}:${ENDS[e]}`);
    }
    if (out.length) return out;
    if (this.rules.draws && this.bonePos < this.boneyard.length) return ["draw"];
    return ["pass"];
  }

  /** @param {Tile[]} order the 28 tiles in deal order */
  deal(order) {
    if (this.phase !== "deal") throw new RulesError("Não é hora de distribuir as pedras.");
    if (order.length !== 28 || new Set(order).size !== 28 || !order.every(isTile)) {
      throw new RulesError("A distribuição precisa conter as 28 pedras, cada uma uma vez.");
    }
    this.resetHand();
    for (let s = 0; s < this.n; s++) {
      const part = order.slice(7 * s, 7 * s + 7);
      this.dealt.push(part);
      this.hands[s] = [...part].sort(byIndex);
    }
    this.boneyard = order.slice(7 * this.n);
    this.phase = "play";
    if (this.rules.fiveDoubles) {
      const seat = this.hands.findIndex((h) => h.filter(isDouble).length >= 5);
      if (seat >= 0) {
        this.phase = "choice";
        this.turn = seat;
        return;
      }
    }
    this.beginOpening();
  }

  beginOpening() {
    const [kind, ruleSeat] = this.handRule;
    let seat = ruleSeat;
    let allowed;
    if (kind === "first") [seat, allowed] = this.rules.firstOpening(this.hands);
    else if (kind === "double") allowed = this.hands[seat].filter(isDouble);
    else allowed = [...this.hands[seat]];
    this.turn = seat;
    this.opener = seat;
    this.opening = allowed;
  }

  /**
   * Apply the action of the seat to move (`seat`, when given, must be that seat).
   * @param {string} action @param {number | null} [seat] @param {{auto?: boolean}} [how]
   */
  apply(action, seat = null, { auto = false } = {}) {
    if (this.phase === "over") throw new RulesError("A partida já terminou.");
    if (seat !== null && seat !== this.turn) {
      throw new RulesError(`Não é a vez do lugar ${seat}: é a vez do lugar ${this.turn}.`);
    }
    if (!this.legal().includes(action)) {
      throw new RulesError(`Jogada não permitida agora: ${action}.`);
    }
    const turn = this.turn;
    if (action === "pass") this._pass(turn, auto);
    else if (action === "draw") this._draw(turn, auto);
    else if (action.startsWith("five-doubles:")) this._five(turn, action.slice(13), auto);
    else this._play(turn, action, auto);
  }

  /** @param {Step} step @param {boolean} auto */
  _step(step, auto) {
    if (auto) step.auto = true;
    this.steps.push(step);
  }

  /** @param {number} seat @param {string} action @param {boolean} auto */
  _play(seat, action, auto) {
    const [tile, endName] = action.split(":");
    const hand = this.hands[seat];
    hand.splice(hand.indexOf(tile), 1);
    const before = [this.ends[0], this.ends[1]];
    /** @type {Step} */
    const step = { seat, type: "play", tile };
    if (endName) step.end = endName;
    this._step(step, auto);
    this.table.push(endName ? { seat, tile, end: endName } : { seat, tile });
    const [a, b] = halves(tile);
    let end = -1;
    if (!endName) {
      this.opening = null;
      this.ends[0] = a;
      this.ends[1] = b;
      this.mult[0] = this.mult[1] = a === b ? 2 : 1;
      if (this.rules.spinner) this.spinner = a;
    } else {
      end = ENDS.indexOf(endName);
      this.ends[end] = otherHalf(tile, this.ends[end]);
      this.mult[end] = a === b ? 2 : 1;
      if (this.spinner >= 0 && end < 2) {
        this.arms |= end + 1;
        if (this.arms === 3) {
          this.ends[2] = this.ends[3] = this.spinner; // up and down open; they count once covered
          this.spinner = -1;
        }
      }
    }
    if (this.rules.tablePoints) {
      const count = this.tableCount();
      if (count && count % 5 === 0) this._score(seat % 2, count, "mesa");
    }
    this.lastPlayer = seat;
    this.passRun = 0;
    if (!hand.length) {
      this._endHand("batida", seat, tile, before);
      return;
    }
    if (!this.rules.draws || this.bonePos >= this.boneyard.length) {
      if (this._blocked()) {
        this._endHand("fechado", seat, tile, before);
        return;
      }
    }
    this.turn = (seat + 1) % this.n;
  }

  _blocked() {
    const open = this.ends.filter((v) => v >= 0);
    return !this.hands.some((h) => h.some((t) => open.some((v) => holds(t, v))));
  }

  /** @param {number} seat @param {boolean} auto */
  _draw(seat, auto) {
    const tile = this.boneyard[this.bonePos];
    this.bonePos += 1;
    this.hands[seat].push(tile);
    this.hands[seat].sort(byIndex);
    this._step({ seat, type: "draw", tile }, auto);
    if (this.bonePos === this.boneyard.length && this._blocked()) {
      const last = this.table[this.table.length - 1];
      this._endHand("fechado", this.lastPlayer, last.tile, [-1, -1]);
    }
  }

  /** @param {number} seat @param {boolean} auto */
  _pass(seat, auto) {
    this._step({ seat, type: "pass" }, auto);
    const n = this.n;
    if (this.opening && this.opening.length === 0) {
      // The batedor holds no double: the other team scores 20 and the saída goes to the next
      // seat in turn order that holds a double (rules.md §2, Saída).
      this._score(1 - (seat % 2), SAIDA_PASS_POINTS, "saida-passada");
      for (let k = 1; k < n; k++) {
        const next = (seat + k) % n;
        const doubles = this.hands[next].filter(isDouble);
        if (doubles.length) {
          this.turn = this.opener = next;
          this.opening = doubles;
          return;
        }
      }
      throw new RulesError("Ninguém tem carroça para sair.");
    }
    if (this.passPoints && this.passRun === 0) {
      this._score(this.lastPlayer % 2, this.passPoints, "passe");
    }
    if (this.galoPoints && this.passRun === n - 2) {
      this._score(this.lastPlayer % 2, this.galoPoints, "galo");
    }
    this.passRun += 1;
    this.turn = (seat + 1) % n;
  }

  /** @param {number} seat @param {string} choice @param {boolean} auto */
  _five(seat, choice, auto) {
    this._step({ seat, type: "five-doubles", choice }, auto);
    if (choice === "points") {
      this._score(seat % 2, 10 * this.hands[seat].filter(isDouble).length, "cinco-carrocas");
      this.phase = "play";
      this.beginOpening();
    } else {
      this._finishHand({ kind: "redeal", seat: null, winner: null, detail: "" }, this.handRule);
    }
  }

  /** @param {number} team @param {number} points @param {string} reason @param {number | null} [index] */
  _score(team, points, reason, index = null) {
    this.score[team] += points;
    this.events.push({ index: index ?? this.steps.length - 1, team, points, reason });
  }

  /** @param {string} kind @param {number} seat @param {Tile} lastTile @param {number[]} before */
  _endHand(kind, seat, lastTile, before) {
    const ending = {
      kind,
      seat,
      hands: this.hands.map((h) => [...h]),
      lastTile,
      before,
      opener: this.opener,
      rule: this.handRule,
    };
    const verdict = this.rules.scoreHand(this.options, ending);
    for (const [team, points, reason] of verdict.points) {
      if (points) this._score(team, points, reason, -1);
    }
    const next = this.rules.nextOpening(this.options, ending, verdict.winner);
    this._finishHand({ kind, seat, winner: verdict.winner, detail: verdict.detail }, next);
  }

  /** @param {HandEnd} end */
  _log(end) {
    this.history.push({
      dealIndex: this.dealIndex,
      dealt: this.dealt,
      boneyard: this.boneyard,
      steps: this.steps,
      table: this.table,
      handsLeft: this.hands.map((h) => [...h]),
      end,
      score: [...this.score],
      events: this.events,
      opener: this.opener,
    });
    this.dealIndex += 1;
    this.turn = -1;
  }

  /** @param {HandEnd} end @param {OpeningRule} nextRule */
  _finishHand(end, nextRule) {
    this._log(end);
    this.handRule = nextRule;
    const winner = end.kind === "redeal" ? null : this.rules.matchWinner(this.options, this.score);
    if (winner === null) this.phase = "deal";
    else this._declare(winner, "target");
  }

  /** @param {number} winner @param {string} reason */
  _declare(winner, reason) {
    const score = [...this.score];
    const pneu = score[1 - winner] === 0 && score[winner] > 0;
    this.result = { winner, score, reason, pneu };
    this.phase = "over";
  }

  /** How many of the seat's latest actions in this match were made for it (`auto`). */
  /** @param {number} seat */
  timeoutsInARow(seat) {
    let count = 0;
    const lists = [this.steps, ...this.history.map((h) => h.steps).reverse()];
    for (const steps of lists) {
      for (let i = steps.length - 1; i >= 0; i--) {
        if (steps[i].seat !== seat) continue;
        if (!steps[i].auto) return count;
        count += 1;
      }
    }
    return count;
  }

  /** The seat to move abandons at its third timeout in a row; the other team wins. */
  /** @param {number} seat */
  abandon(seat) {
    if (this.phase !== "play" && this.phase !== "choice") {
      throw new RulesError("Não há mão em andamento para abandonar.");
    }
    if (seat !== this.turn) throw new RulesError("Só abandona o lugar da vez.");
    if (this.timeoutsInARow(seat) < ABANDON_TIMEOUTS - 1) {
      throw new RulesError("Abandono é o terceiro tempo estourado seguido.");
    }
    const winner = 1 - (seat % 2);
    this._log({ kind: "abandon", seat, winner, detail: "" });
    this._declare(winner, "abandon");
  }
}
