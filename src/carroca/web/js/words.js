// @ts-check
// Everything a player reads about rules, scores and seats, in the words of Brazilian tables.
// Where a tile went, why points were scored and how a hand ended come from table-words.js,
// written from words/table.json, which the terminal (carroca.words) reads too.

import { TABLE_WORDS } from "./table-words.js";

/** @type {Record<string, {name: string, short: string, seats: number}>} */
export const RULESETS = {
  "duplas-pontos": { name: "Duplas de pontos", short: "Duplas · pontos", seats: 4 },
  "duplas-torneio": { name: "Duplas de torneio", short: "Duplas · torneio", seats: 4 },
  "mano-a-mano": { name: "Mano a Mano", short: "Mano a Mano", seats: 2 },
  classico: { name: "Clássico", short: "Clássico", seats: 2 },
  bloqueio: { name: "Bloqueio", short: "Bloqueio", seats: 2 },
  pontos: { name: "Pontos (1 contra 1)", short: "Pontos 1×1", seats: 2 },
};

/** @param {string} name */
export const rulesetName = (name) => RULESETS[name]?.name ?? name;
/** @param {string} name */
export const rulesetShort = (name) => RULESETS[name]?.short ?? name;

/** Rulesets where a player draws from the boneyard (the "monte", also "dorme"). */
export const DRAWS = new Set(["mano-a-mano", "classico", "pontos"]);
/** The ruleset whose opening double is a spinner (the table grows in a cross). */
export const SPINNER = new Set(["duplas-pontos"]);

/** The server's bot levels (ids) by the names players see, weakest first.
 * @type {Record<string, string>} */
export const BOT_LEVELS = {
  random: "Iniciante",
  greedy: "Fácil",
  medium: "Médio",
  "expert-1": "Difícil",
  expert: "Mestre",
};
/** @param {string | null} level */
export const botLevelName = (level) => BOT_LEVELS[level ?? ""] ?? level ?? "";
/** Levels from the server, weakest first (the order above; levels it does not name last).
 * @param {string[]} levels */
export function sortBotLevels(levels) {
  const order = Object.keys(BOT_LEVELS);
  /** @param {string} level */
  const rank = (level) => (order.includes(level) ? order.indexOf(level) : order.length);
  return [...levels].sort((a, b) => rank(a) - rank(b));
}
/** The level that judges decisions in a match's analysis (carroca.analysis: the expert). */
export const ANALYSIS_LEVEL = "expert";

const BOT_NAMES = ["Zé", "Tião", "Dona Cida", "Juca"];

/** How a seat is shown: a player's nickname, or a friendly name for a bot.
 * @param {{name?: string, bot?: boolean} | null | undefined} player
 * @param {number} seat
 * @returns {string} */
export function seatName(player, seat) {
  if (!player) return "Lugar vago";
  if (player.bot) return BOT_NAMES[seat % BOT_NAMES.length];
  return player.name ?? "";
}

/** "bot:medium" -> "medium"; anything else -> null.
 * @param {unknown} name
 * @returns {string | null} */
export function botLevelOf(name) {
  return typeof name === "string" && name.startsWith("bot:") ? name.slice(4) : null;
}

// The numbers' names at the table: branca, ás, duque, terno, quadra, quina, sena.
export const NUMBER_NAMES = ["branca", "ás", "duque", "terno", "quadra", "quina", "sena"];

/** Accessible name of a tile: "Pedra 3 e 5" or "Carroça de quina (5 e 5)".
 * @param {string} tile */
export function tileName(tile) {
  const [a, b] = tile.split("-").map(Number);
  if (a === b) return `Carroça de ${NUMBER_NAMES[a]} (${a} e ${b})`;
  return `Pedra ${a} e ${b}`;
}

export const END_NAMES = { left: "esquerda", right: "direita", up: "em cima", down: "embaixo" };
export const END_PLACE = {
  left: "na ponta da esquerda",
  right: "na ponta da direita",
  up: "na ponta de cima",
  down: "na ponta de baixo",
};

/** Where a tile was laid: "na esquerda", "em cima", ... @type {Record<string, string>} */
export const ON_END = TABLE_WORDS.on_end;

/** Why points were scored (view.last_hand.events[].reason). @type {Record<string, string>} */
export const REASONS = TABLE_WORDS.reasons;
/** @param {string} r */
export const reasonName = (r) => REASONS[r] ?? r;

/** Options of the friends' table, as the form shows them. */
export const OPTIONS = {
  target: { label: "Pontos para vencer" },
  hands_to_win: { label: "Mãos para vencer" },
  pass_points: { label: "Pontos do passe", choices: [0, 20] },
  galo_points: { label: "Pontos do galo", choices: [0, 50] },
  always_six_six: { label: "Toda mão sai com a carroça de sena" },
  count_partner: { label: "Contar as pedras do parceiro de quem bateu" },
  capicu_bonus: { label: "Bônus do capicú", choices: [0, 25, 30] },
  hand_end_pips: { label: "Quem bate soma as pedras do outro (múltiplo de 5)" },
};

/** Allowed targets per ruleset (null: a number field). */
export const TARGETS = {
  "duplas-pontos": [100, 200, 300],
  "duplas-torneio": [50, 100, 150, 200, 500],
};

/** Team labels from the viewer's seat: "Nós"/"Eles" in 2v2, the names in 1v1.
 * @param {{players: ({name?: string, bot?: boolean} | null)[], seat?: number | null}} state
 * @returns {string[]} */
export function teamLabels(state) {
  const n = state.players.length;
  if (n === 4) {
    if (state.seat === null || state.seat === undefined) {
      /** @param {number} a @param {number} b */
      const pair = (a, b) => `${seatName(state.players[a], a)} e ${seatName(state.players[b], b)}`;
      return [pair(0, 2), pair(1, 3)];
    }
    return state.seat % 2 === 0 ? ["Nós", "Eles"] : ["Eles", "Nós"];
  }
  return [seatName(state.players[0], 0), seatName(state.players[1], 1)];
}

/** The team of a seat: seat % 2 in 2v2, the seat itself in 1v1.
 * @param {number} seat @param {number} n */
export const teamOf = (seat, n) => (n === 4 ? seat % 2 : seat);

/** "Eles ficaram no zero", "Nós ficamos no zero", "Zé ficou no zero".
 * @param {string} label */
export function zeroText(label) {
  if (label === "Nós") return "Nós ficamos no zero";
  if (label === "Eles" || label.includes(" e ")) return `${label} ficaram no zero`;
  return `${label} ficou no zero`;
}

/** @param {Iterable<string>} tiles */
export function pipsOf(tiles) {
  let sum = 0;
  for (const t of tiles) {
    const [a, b] = t.split("-").map(Number);
    sum += a + b;
  }
  return sum;
}

/** "Zé bateu!", "Você bateu de carroça!", "Jogo fechado!", ... for the end of a hand.
 * @param {{kind: string, seat?: number | null, detail?: string | null} | null} end
 * @param {string[]} names
 * @param {string} ruleset */
export function handEndTitle(end, names, ruleset) {
  if (!end) return "";
  const who = end.seat !== null && end.seat !== undefined ? names[end.seat] : "";
  /** @type {Record<string, string>} */
  const titles = TABLE_WORDS.titles;
  /** @type {Record<string, string>} */
  const blocked = TABLE_WORDS.blocked;
  let title = titles["*"];
  if (end.kind === "batida") title = titles[end.detail ?? ""] ?? titles.batida;
  else if (end.kind === "fechado") title = `${blocked[ruleset] ?? blocked["*"]}!`;
  else if (end.kind in titles) title = titles[end.kind];
  return title.replace("{who}", who);
}

/** "em 4 min 05 s", "em 2 h 10 min", "em 3 dias": the time left before an event starts.
 * @param {number} startsAt */
export function countdown(startsAt) {
  const secs = Math.max(0, Math.round(startsAt - Date.now() / 1000));
  if (secs <= 0) return "começando";
  if (secs >= 2 * 86400) return `em ${Math.floor(secs / 86400)} dias`;
  if (secs >= 3600) return `em ${Math.floor(secs / 3600)} h ${String(Math.floor((secs % 3600) / 60)).padStart(2, "0")} min`;
  return `em ${Math.floor(secs / 60)} min ${String(secs % 60).padStart(2, "0")} s`;
}

/**
 * The line an upcoming event shows: "Começa em 4 min 05 s", and "Começando" once its time has
 * come (not "Começa começando").
 * @param {number} startsAt
 */
export function startsText(startsAt) {
  const left = countdown(startsAt);
  return left === "começando" ? "Começando" : `Começa ${left}`;
}

/** "1 inscrito", "2 inscritos". @param {number} n @param {(n: number) => string} [format] */
export const entrantsText = (n, format = String) => `${format(n)} ${n === 1 ? "inscrito" : "inscritos"}`;

/**
 * What a match is played to, from its own options: "até 20 pontos", "2 mãos para vencer" (a
 * tournament or a friends' table may change the ruleset's default).
 * @param {Record<string, unknown> | null | undefined} options
 */
export function matchLength(options) {
  const o = options || {};
  if (typeof o.target === "number") return `até ${o.target} ${o.target === 1 ? "ponto" : "pontos"}`;
  if (typeof o.hands_to_win === "number") return `${o.hands_to_win} ${o.hands_to_win === 1 ? "mão" : "mãos"} para vencer`;
  return "";
}

/**
 * How a ruleset is played with these options, in one line, without what the match is played to
 * (matchLength says it): every option that changes the game is read, none assumed.
 * @param {string} ruleset
 * @param {Record<string, unknown> | null | undefined} options
 */
export function rulesText(ruleset, options) {
  const o = options || {};
  if (ruleset === "duplas-pontos") {
    const scores = ["pontos nas pontas (múltiplos de 5)"];
    if (o.pass_points !== 0) scores.push("passe");
    if (o.galo_points !== 0) scores.push("galo");
    scores.push("garagem");
    const opening = o.always_six_six ? "; toda mão sai com a carroça de sena" : "";
    return `2 contra 2 em cruz: ${scores.join(", ")}${opening}`;
  }
  if (ruleset === "duplas-torneio") {
    const taken = o.count_partner === false ? "das mãos dos adversários" : "das outras três mãos";
    const capicu = typeof o.capicu_bonus === "number" && o.capicu_bonus > 0 ? `trancado; capicú vale mais ${o.capicu_bonus}` : "trancado e capicú";
    return `2 contra 2 de torneio: quem bate leva os pontos ${taken}; ${capicu}`;
  }
  if (ruleset === "mano-a-mano") return "1 contra 1 com compra: quem bate leva os pontos da mão do outro";
  if (ruleset === "classico") return "1 contra 1 com compra: cada mão vencida vale 1";
  if (ruleset === "bloqueio") return "1 contra 1 sem compra: a batida vale de 1 a 4 conforme a pedra";
  if (ruleset === "pontos") {
    const end = o.hand_end_pips ? "; quem bate soma as pedras do outro (múltiplo de 5)" : "";
    return `1 contra 1 com compra: pontos nas pontas, múltiplos de 5${end}`;
  }
  return "";
}

/**
 * A ruleset's one-line summary for a match with these options: "1 contra 1 com compra: …; até
 * 20 pontos." (the lobby's ruleset cards, with the defaults).
 * @param {string} ruleset
 * @param {Record<string, unknown> | null | undefined} options
 */
export function rulesSummary(ruleset, options) {
  const rules = rulesText(ruleset, options);
  const length = matchLength(options);
  return rules && length ? `${rules}; ${length}.` : `${rules || length}${rules || length ? "." : ""}`;
}

/**
 * A ruleset with what its match is played to: "Mano a Mano até 20 pontos", "Clássico, 2 mãos
 * para vencer" (an event's line in the lobby, its page and its invitation).
 * @param {string} ruleset
 * @param {Record<string, unknown> | null | undefined} options
 */
export function rulesetWithLength(ruleset, options) {
  const length = matchLength(options);
  if (!length) return rulesetName(ruleset);
  return length.startsWith("até") ? `${rulesetName(ruleset)} ${length}` : `${rulesetName(ruleset)}, ${length}`;
}
